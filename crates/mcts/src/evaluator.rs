//! What the search asks of a position: priors over its legal moves and a value.
//!
//! An [`Evaluator`] answers a whole batch at once (one network call for many leaves of many
//! games). Values carry their point of view: a [`Value`] names the side it is good for.

use pjlab_core::{Game, Heuristic, Outcome, Side};
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

/// A game value in `[-1, 1]` and the side it is for: +1 means that side wins.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Value {
    side: Side,
    value: f32,
}

impl Value {
    /// `value` (clamped to `[-1, 1]`) from `side`'s point of view.
    #[inline]
    pub fn new(side: Side, value: f32) -> Value {
        Value {
            side,
            value: value.clamp(-1.0, 1.0),
        }
    }

    /// The exact value of a finished game.
    #[inline]
    pub fn from_outcome(outcome: Outcome) -> Value {
        match outcome {
            Outcome::Win(side) => Value { side, value: 1.0 },
            Outcome::Draw => Value {
                side: Side::First,
                value: 0.0,
            },
        }
    }

    /// The value from `side`'s point of view.
    #[inline]
    pub fn for_side(self, side: Side) -> f32 {
        if side == self.side {
            self.value
        } else {
            -self.value
        }
    }
}

/// One position to evaluate, with its legal moves (never empty) in the order the priors must
/// follow.
#[derive(Debug)]
pub struct Request<'a, G: Game> {
    /// The position (not finished).
    pub position: &'a G,
    /// Its legal moves, as [`Game::legal_moves`] lists them.
    pub moves: &'a [G::Move],
}

/// An evaluator's answer to one [`Request`].
#[derive(Clone, Debug)]
pub struct Evaluation {
    /// One prior probability per legal move, in the request's order, summing to 1.
    pub priors: Vec<f32>,
    /// The position's value, with its point of view.
    pub value: Value,
}

impl Default for Evaluation {
    fn default() -> Self {
        Evaluation {
            priors: Vec::new(),
            value: Value::new(Side::First, 0.0),
        }
    }
}

/// Evaluates positions in batches.
///
/// `out` has the same length as `requests`; entry `i` answers request `i`. Implementations reuse
/// the `priors` buffers they are given (clear, then fill).
pub trait Evaluator<G: Game> {
    /// Fills `out[i]` with the priors and value of `requests[i]`.
    fn evaluate(&mut self, requests: &[Request<'_, G>], out: &mut [Evaluation]);
}

impl<G: Game, E: Evaluator<G> + ?Sized> Evaluator<G> for &mut E {
    fn evaluate(&mut self, requests: &[Request<'_, G>], out: &mut [Evaluation]) {
        (**self).evaluate(requests, out);
    }
}

impl<G: Game, E: Evaluator<G> + ?Sized> Evaluator<G> for Box<E> {
    fn evaluate(&mut self, requests: &[Request<'_, G>], out: &mut [Evaluation]) {
        (**self).evaluate(requests, out);
    }
}

fn uniform(priors: &mut Vec<f32>, n: usize) {
    priors.clear();
    priors.resize(n, 1.0 / n as f32);
}

/// Uniform priors and a value from a hand-written evaluation (the one alpha-beta uses):
/// `tanh(evaluate / scale)` for the side to move. MCTS with the game's own knowledge and no
/// network: a baseline for the networks that learn it.
#[derive(Clone, Debug)]
pub struct HeuristicEvaluator<H> {
    /// The evaluation.
    pub heuristic: H,
    /// Evaluation (its units) that maps to a value of tanh(1) = 0.76.
    pub scale: f32,
}

impl<G: Game, H: Heuristic<G>> Evaluator<G> for HeuristicEvaluator<H> {
    fn evaluate(&mut self, requests: &[Request<'_, G>], out: &mut [Evaluation]) {
        for (request, eval) in requests.iter().zip(out) {
            uniform(&mut eval.priors, request.moves.len());
            let score = self.heuristic.evaluate(request.position) as f32;
            eval.value = Value::new(
                request.position.side_to_move(),
                (score / self.scale.max(f32::MIN_POSITIVE)).tanh(),
            );
        }
    }
}

/// Another evaluator's priors, with its value blended with a second judge's: `(1 - share) *
/// inner + share * judge(position)`, both for the side to move (`judge` answers in `[-1, 1]`).
/// MCTS with a shallow alpha-beta at its leaves is this with the search as the judge.
pub struct BlendedValue<E, F> {
    /// The evaluator whose priors are kept and whose value is blended.
    pub inner: E,
    /// The second judge of a position, for its side to move.
    pub judge: F,
    /// The judge's share of the value, in `[0, 1]` (0: the inner value alone).
    pub share: f32,
}

impl<G: Game, E: Evaluator<G>, F: FnMut(&G) -> f32> Evaluator<G> for BlendedValue<E, F> {
    fn evaluate(&mut self, requests: &[Request<'_, G>], out: &mut [Evaluation]) {
        self.inner.evaluate(requests, out);
        let share = self.share.clamp(0.0, 1.0);
        if share == 0.0 {
            return;
        }
        for (request, eval) in requests.iter().zip(out) {
            let side = request.position.side_to_move();
            let own = if share < 1.0 {
                eval.value.for_side(side)
            } else {
                0.0
            };
            let judged = (self.judge)(request.position).clamp(-1.0, 1.0);
            eval.value = Value::new(side, (1.0 - share) * own + share * judged);
        }
    }
}

/// Uniform priors and a value of 0: the search's bare cost, and a sanity baseline.
#[derive(Copy, Clone, Debug, Default)]
pub struct UniformEvaluator;

impl<G: Game> Evaluator<G> for UniformEvaluator {
    fn evaluate(&mut self, requests: &[Request<'_, G>], out: &mut [Evaluation]) {
        for (request, eval) in requests.iter().zip(out) {
            uniform(&mut eval.priors, request.moves.len());
            eval.value = Value::new(request.position.side_to_move(), 0.0);
        }
    }
}

/// Uniform priors and the mean result of random playouts (uniform legal moves to the end).
#[derive(Clone, Debug)]
pub struct RolloutEvaluator {
    rng: ChaCha8Rng,
    /// Playouts per position.
    pub playouts: u32,
    /// A playout longer than this many plies counts as a draw.
    pub max_plies: u32,
    /// Take a move that wins on the spot when there is one (costs a copy and a play per legal
    /// move and ply; it makes playouts far more informative near the end of a game).
    pub decisive: bool,
}

impl RolloutEvaluator {
    /// One playout per position, at most 1,000 plies, seeded.
    pub fn new(seed: u64) -> RolloutEvaluator {
        RolloutEvaluator {
            rng: ChaCha8Rng::seed_from_u64(seed),
            playouts: 1,
            max_plies: 1000,
            decisive: false,
        }
    }

    /// The mean playout value of `position` for its side to move.
    pub fn playout_value<G: Game>(&mut self, position: &G, moves: &mut Vec<G::Move>) -> f32 {
        let side = position.side_to_move();
        let mut total = 0.0;
        for _ in 0..self.playouts.max(1) {
            let mut game = position.clone();
            let mut plies = 0;
            loop {
                game.legal_moves(moves);
                let winning = if self.decisive {
                    let mover = game.side_to_move();
                    moves.iter().copied().find(|&mv| {
                        let mut next = game.clone();
                        next.play_unchecked(mv);
                        next.outcome() == Some(Outcome::Win(mover))
                    })
                } else {
                    None
                };
                let Some(mv) = winning.or_else(|| moves.choose(&mut self.rng).copied()) else {
                    total += game.outcome().map_or(0.0, |o| o.value_for(side));
                    break;
                };
                if plies == self.max_plies {
                    break;
                }
                game.play_unchecked(mv);
                plies += 1;
            }
        }
        total / self.playouts.max(1) as f32
    }
}

impl<G: Game> Evaluator<G> for RolloutEvaluator {
    fn evaluate(&mut self, requests: &[Request<'_, G>], out: &mut [Evaluation]) {
        let mut moves = Vec::new();
        for (request, eval) in requests.iter().zip(out) {
            uniform(&mut eval.priors, request.moves.len());
            let side = request.position.side_to_move();
            eval.value = Value::new(side, self.playout_value(request.position, &mut moves));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The side to move's number of legal moves, in units.
    struct MoveCount;

    impl<G: Game> Heuristic<G> for MoveCount {
        fn evaluate(&self, position: &G) -> i32 {
            let mut moves = Vec::new();
            position.legal_moves(&mut moves);
            moves.len() as i32
        }
    }

    #[test]
    fn heuristic_values_are_tanh_of_the_evaluation_for_the_side_to_move() {
        use pjlab_pijersi::Position;
        let mut p = Position::default();
        let mut moves = Vec::new();
        p.legal_moves(&mut moves);
        p.play_unchecked(moves[0]);
        // Black to move now: the value is Black's.
        p.legal_moves(&mut moves);
        let n = moves.len();
        let mut eval = HeuristicEvaluator {
            heuristic: MoveCount,
            scale: 100.0,
        };
        let mut out = vec![Evaluation::default()];
        eval.evaluate(
            &[Request {
                position: &p,
                moves: &moves,
            }],
            &mut out,
        );
        let want = (n as f32 / 100.0).tanh();
        assert!((out[0].value.for_side(Side::Second) - want).abs() < 1e-6);
        assert!((out[0].value.for_side(Side::First) + want).abs() < 1e-6);
        assert_eq!(out[0].priors.len(), n);
        assert!(
            out[0]
                .priors
                .iter()
                .all(|&q| (q - 1.0 / n as f32).abs() < 1e-7)
        );
    }

    /// The blend keeps the inner priors and mixes the two values for the side to move: the
    /// inner one from a heuristic, the judge a constant, checked at shares 0, 1/4 and 1.
    #[test]
    fn blended_values_mix_for_the_side_to_move() {
        use pjlab_pijersi::Position;
        let mut p = Position::default();
        let mut moves = Vec::new();
        p.legal_moves(&mut moves);
        p.play_unchecked(moves[0]);
        p.legal_moves(&mut moves);
        let inner = (moves.len() as f32 / 100.0).tanh();
        for (share, want) in [(0.0, inner), (0.25, 0.75 * inner - 0.25 * 0.5), (1.0, -0.5)] {
            let mut eval = BlendedValue {
                inner: HeuristicEvaluator {
                    heuristic: MoveCount,
                    scale: 100.0,
                },
                judge: |q: &Position| {
                    assert_eq!(Game::side_to_move(q), Side::Second);
                    -0.5
                },
                share,
            };
            let mut out = vec![Evaluation::default()];
            let request = Request {
                position: &p,
                moves: &moves,
            };
            eval.evaluate(&[request], &mut out);
            let got = out[0].value.for_side(Side::Second);
            assert!((got - want).abs() < 1e-6, "share {share}: {got} vs {want}");
            assert_eq!(out[0].priors.len(), moves.len());
        }
    }

    #[test]
    fn value_point_of_view() {
        let v = Value::new(Side::Second, 0.5);
        assert_eq!(v.for_side(Side::Second), 0.5);
        assert_eq!(v.for_side(Side::First), -0.5);
        assert_eq!(Value::new(Side::First, 3.0).for_side(Side::First), 1.0);
        let win = Value::from_outcome(Outcome::Win(Side::First));
        assert_eq!(win.for_side(Side::Second), -1.0);
        assert_eq!(
            Value::from_outcome(Outcome::Draw).for_side(Side::Second),
            0.0
        );
    }
}

/// Wraps an evaluator with a one-ply check for immediate wins: a leaf whose side to move has a
/// move that wins at once ([`Game::wins_at_once`]) is valued +1 with all its prior on its
/// winning moves, without asking the inner evaluator. The search then sees a threat to win one
/// ply below any node it expands, which a network alone learns slowly.
#[derive(Clone, Debug)]
pub struct Decisive<E> {
    /// The evaluator asked for every other leaf.
    pub inner: E,
    /// Whether to check at all (false forwards every request to `inner`).
    pub check: bool,
}

impl<E> Decisive<E> {
    /// Wraps `inner`, checking.
    pub fn new(inner: E) -> Decisive<E> {
        Decisive { inner, check: true }
    }
}

impl<G: Game, E: Evaluator<G>> Evaluator<G> for Decisive<E> {
    fn evaluate(&mut self, requests: &[Request<'_, G>], out: &mut [Evaluation]) {
        if !self.check {
            self.inner.evaluate(requests, out);
            return;
        }
        let mut rest = Vec::new();
        for (i, r) in requests.iter().enumerate() {
            let wins = r
                .moves
                .iter()
                .filter(|&&m| r.position.wins_at_once(m))
                .count();
            if wins == 0 {
                rest.push(i);
                continue;
            }
            let share = 1.0 / wins as f32;
            let priors = &mut out[i].priors;
            priors.clear();
            priors.extend(r.moves.iter().map(|&m| {
                if r.position.wins_at_once(m) {
                    share
                } else {
                    0.0
                }
            }));
            out[i].value = Value::new(r.position.side_to_move(), 1.0);
        }
        if rest.len() == requests.len() {
            self.inner.evaluate(requests, out);
        } else if !rest.is_empty() {
            let sub: Vec<Request<'_, G>> = rest
                .iter()
                .map(|&i| Request {
                    position: requests[i].position,
                    moves: requests[i].moves,
                })
                .collect();
            let mut evals: Vec<Evaluation> =
                rest.iter().map(|&i| std::mem::take(&mut out[i])).collect();
            self.inner.evaluate(&sub, &mut evals);
            for (&i, e) in rest.iter().zip(evals) {
                out[i] = e;
            }
        }
    }
}
