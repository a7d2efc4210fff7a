//! What a Chifoumi match's decisions are worth to the learner: their discounted returns and
//! result classes (the league batches them).

use pjlab_chifoumi::{GameEnd, MatchResult};
use pjlab_nn::{DRAW, LOSS, WIN};
use pjlab_players::chifoumi::Step;

use crate::config::LearnConfig;

/// Discounted returns and result classes of `steps`, the learner at `seat` of `result`.
pub(crate) fn returns_of(
    steps: &[Step],
    result: &MatchResult,
    seat: usize,
    config: &LearnConfig,
) -> (Vec<f32>, Vec<usize>) {
    let mut returns = vec![0.0; steps.len()];
    let mut classes = vec![DRAW; steps.len()];
    let mut later = 0i32;
    let match_part = config.match_weight * f32::from(result.result_for(seat));
    for i in (0..steps.len()).rev() {
        if i + 1 < steps.len() && steps[i + 1].game == steps[i].game {
            later += 1;
        } else {
            later = 0;
        }
        let Some(game) = result.games.get(steps[i].game as usize) else {
            continue;
        };
        let value = game.end.value_for(seat);
        let mut r = value as f32;
        if let GameEnd::Duel(d) = game.end {
            r += if d.trigger as usize == seat {
                config.tie_break
            } else {
                -config.tie_break
            };
        }
        returns[i] = config.gamma.powi(later) * r + match_part;
        classes[i] = match value {
            1 => WIN,
            -1 => LOSS,
            _ => DRAW,
        };
    }
    (returns, classes)
}

#[cfg(test)]
mod tests {
    use pjlab_chifoumi::{Bag, Duel, GameSummary, Object};

    use super::*;

    fn step(game: u16) -> Step {
        Step {
            input: Vec::new(),
            legal: 0,
            action: 0,
            value: 0.0,
            game,
        }
    }

    /// Three decisions in a duel the learner (seat 1) called and won, two in a time-out: the
    /// returns are the result plus the tie-break, discounted by the decisions left in the game.
    #[test]
    fn returns_discount_within_a_game_and_count_the_tie_break() {
        let duel = Duel {
            trigger: 1,
            target: 0,
            draws: [Object::Potion, Object::Flamme],
        };
        let game = |end| GameSummary {
            end,
            first: 0,
            turns: 10,
            bags: [Bag::EMPTY; 2],
        };
        let result = MatchResult {
            score: [-1, 1],
            duels: [0, 1],
            games: vec![game(GameEnd::Duel(duel)), game(GameEnd::TimeOut)],
            winner: Some(1),
        };
        let config = LearnConfig {
            gamma: 0.5,
            tie_break: 0.1,
            match_weight: 0.0,
            ..LearnConfig::default()
        };
        let steps: Vec<Step> = [0, 0, 0, 1, 1].map(step).to_vec();
        let (returns, classes) = returns_of(&steps, &result, 1, &config);
        let won = 1.0 + 0.1;
        let expected = [0.25 * won, 0.5 * won, won, 0.0, 0.0];
        for (r, e) in returns.iter().zip(expected) {
            assert!((r - e).abs() < 1e-6, "{returns:?}");
        }
        assert_eq!(classes, vec![WIN, WIN, WIN, DRAW, DRAW]);
        // The other seat lost the duel it did not call.
        let (returns, classes) = returns_of(&steps[..3], &result, 0, &config);
        assert!((returns[2] - (-1.0 - 0.1)).abs() < 1e-6);
        assert_eq!(classes, vec![LOSS, LOSS, LOSS]);
        assert_eq!(result.result_for(1), 1);
        assert_eq!(result.result_for(0), -1);
        // With match_weight, the match's result is added to every decision, undiscounted.
        let weighted = LearnConfig {
            match_weight: 0.5,
            ..config.clone()
        };
        let (returns, _) = returns_of(&steps, &result, 1, &weighted);
        for (r, e) in returns.iter().zip(expected) {
            assert!((r - (e + 0.5)).abs() < 1e-6, "{returns:?}");
        }
        let (returns, _) = returns_of(&steps[..3], &result, 0, &weighted);
        assert!((returns[2] - (-1.0 - 0.1 - 0.5)).abs() < 1e-6);
    }
}
