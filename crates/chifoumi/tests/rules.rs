//! The rules of a turn, a game and a match.

use pjlab_chifoumi::{
    Action, Bag, Cell, Duel, Error, Game, GameEnd, Map, Match, MatchResult, Object, Rules,
};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A game without objects, player 0 at `a` and player 1 at `b`, player 0 to move.
fn bare(rules: Rules, a: Cell, b: Cell) -> (Game, ChaCha8Rng) {
    let rules = Rules {
        zone_objects: 0,
        random_objects: 0,
        ..rules
    };
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut game = Game::new(&rules, &mut rng).unwrap();
    game.set_position(0, a).unwrap();
    game.set_position(1, b).unwrap();
    (game, rng)
}

fn illegal_reason(result: Result<(), Error>) -> &'static str {
    match result {
        Err(Error::IllegalAction { reason, .. }) => reason,
        other => panic!("expected an illegal action, got {other:?}"),
    }
}

#[test]
fn pickup_is_compulsory() {
    let (mut game, mut rng) = bare(Rules::default(), Cell::new(5, 5), Cell::new(15, 15));
    game.set_object(Cell::new(5, 6), Some(Object::Potion))
        .unwrap();
    game.set_object(Cell::new(15, 14), Some(Object::Citrouille))
        .unwrap();
    game.play(Action::E, &mut rng).unwrap();
    assert_eq!(game.bag(0), Bag::new(0, 1, 0));
    assert_eq!(game.object_at(Cell::new(5, 6)), None);
    game.play(Action::W, &mut rng).unwrap();
    assert_eq!(game.bag(1), Bag::new(0, 0, 1));
    assert_eq!(game.objects_left(), Bag::EMPTY);
}

#[test]
fn off_the_grid_and_walls_are_refused() {
    let (mut game, mut rng) = bare(Rules::default(), Cell::new(0, 0), Cell::new(19, 19));
    let before = game.clone();
    for a in [Action::N, Action::W] {
        assert_eq!(
            illegal_reason(game.play(a, &mut rng)),
            "off the grid or into a wall"
        );
        assert_eq!(game, before, "a refused action leaves the game unchanged");
    }
    let map = Map::parse("....\n.#..\n....\n....\n").unwrap();
    let rules = Rules {
        map,
        ..Rules::default()
    };
    let (mut game, mut rng) = bare(rules, Cell::new(0, 1), Cell::new(3, 3));
    assert!(!game.legal().contains(Action::S));
    assert_eq!(
        illegal_reason(game.play(Action::S, &mut rng)),
        "off the grid or into a wall"
    );
    assert!(game.play(Action::E, &mut rng).is_ok());
}

#[test]
fn duel_only_inside_the_region() {
    // Radius 2: Chebyshev distance 2 is in view, 3 is not, in every direction.
    for (dr, dc) in [
        (2i32, 2i32),
        (0, 2),
        (2, -1),
        (-2, 0),
        (3, 0),
        (0, -3),
        (3, 3),
        (1, 3),
    ] {
        let b = Cell::new((10 + dr) as u8, (10 + dc) as u8);
        let (mut game, mut rng) = bare(Rules::default(), Cell::new(10, 10), b);
        let in_view = i32::max(dr.abs(), dc.abs()) <= 2;
        assert_eq!(game.legal().contains(Action::Duel), in_view, "{dr},{dc}");
        assert_eq!(game.observation(0).opponent.is_some(), in_view);
        assert_eq!(game.observation(1).opponent.is_some(), in_view, "symmetric");
        if in_view {
            game.play(Action::Duel, &mut rng).unwrap();
            assert!(matches!(game.end(), Some(GameEnd::Duel(_))));
            assert!(game.legal().is_empty());
        } else {
            assert_eq!(
                illegal_reason(game.play(Action::Duel, &mut rng)),
                "the opponent is not in view"
            );
        }
    }
    let rules = Rules {
        radius: 1,
        ..Rules::default()
    };
    let (game, _) = bare(rules, Cell::new(10, 10), Cell::new(12, 10));
    assert!(!game.legal().contains(Action::Duel));
}

#[test]
fn stay_only_when_allowed() {
    let (mut game, mut rng) = bare(Rules::default(), Cell::new(5, 5), Cell::new(15, 15));
    assert_eq!(
        illegal_reason(game.play(Action::Stay, &mut rng)),
        "stay is not allowed"
    );
    let rules = Rules {
        stay: true,
        ..Rules::default()
    };
    let (mut game, mut rng) = bare(rules, Cell::new(5, 5), Cell::new(15, 15));
    game.play(Action::Stay, &mut rng).unwrap();
    assert_eq!(game.position(0), Cell::new(5, 5));
}

#[test]
fn time_out_after_max_rounds() {
    let rules = Rules {
        max_rounds: 3,
        ..Rules::default()
    };
    let (mut game, mut rng) = bare(rules, Cell::new(2, 2), Cell::new(15, 15));
    for k in 0..6 {
        assert!(!game.is_over(), "turn {k}");
        let a = if k % 4 < 2 { Action::E } else { Action::W };
        game.play(a, &mut rng).unwrap();
    }
    assert_eq!(game.end(), Some(GameEnd::TimeOut));
    assert_eq!(
        illegal_reason(game.play(Action::E, &mut rng)),
        "the game is over"
    );
}

fn duel(trigger: u8, draws: [Object; 2]) -> GameEnd {
    GameEnd::Duel(Duel {
        trigger,
        target: 1 - trigger,
        draws,
    })
}

#[test]
fn bags_after_a_game() {
    use Object::*;
    let bags = [Bag::new(2, 1, 0), Bag::new(0, 3, 1)];
    // Player 1 triggers, draws P against F: player 1 wins, player 0's bag is emptied.
    assert_eq!(
        Match::bags_after(bags, duel(1, [Potion, Flamme])),
        [Bag::EMPTY, bags[1]]
    );
    // Player 0 triggers and loses.
    assert_eq!(
        Match::bags_after(bags, duel(0, [Flamme, Potion])),
        [Bag::EMPTY, bags[1]]
    );
    assert_eq!(
        Match::bags_after(bags, duel(0, [Citrouille, Potion])),
        [bags[0], Bag::EMPTY]
    );
    assert_eq!(
        Match::bags_after(bags, duel(0, [Potion, Potion])),
        bags,
        "draw keeps both"
    );
    assert_eq!(
        Match::bags_after(bags, GameEnd::TimeOut),
        bags,
        "time-out keeps both"
    );
}

#[test]
fn match_tie_break() {
    assert_eq!(MatchResult::decide([2, 1], [0, 5]), Some(0), "points first");
    assert_eq!(MatchResult::decide([-1, 0], [5, 0]), Some(1));
    assert_eq!(
        MatchResult::decide([1, 1], [3, 2]),
        Some(0),
        "then duels triggered"
    );
    assert_eq!(MatchResult::decide([0, 0], [1, 4]), Some(1));
    assert_eq!(MatchResult::decide([2, 2], [3, 3]), None, "then a draw");
}

/// A whole match with random legal actions: every transition between games follows the
/// rules, checked from the states before and after.
#[test]
fn match_transitions() {
    let rules = Rules {
        max_rounds: 12,
        games: 30,
        ..Rules::default()
    };
    let mut choices = ChaCha8Rng::seed_from_u64(9);
    let (mut timeouts, mut decisive) = (0, 0);
    let mut m = Match::new(&rules, 42).unwrap();
    let (mut score, mut duels) = ([0i32; 2], [0u32; 2]);
    loop {
        while !m.game().is_over() {
            let legal = m.game().legal();
            let a = legal.nth(choices.random_range(0..legal.len())).unwrap();
            m.play(a).unwrap();
        }
        let (bags, first, end) = (m.game().bags(), m.game().first(), m.game().end().unwrap());
        for (p, s) in score.iter_mut().enumerate() {
            *s += end.value_for(p);
        }
        match end {
            GameEnd::TimeOut => timeouts += 1,
            GameEnd::Duel(d) => {
                duels[d.trigger as usize] += 1;
                decisive += d.winner().is_some() as u32;
            }
        }
        if !m.next_game() {
            break;
        }
        let next = m.game();
        assert_eq!(next.turn(), 0);
        assert_eq!(next.first(), 1 - first, "the first mover alternates");
        assert_eq!(next.to_move(), next.first());
        assert_eq!(next.info().score, score.map(|s| s as i16));
        match end {
            GameEnd::Duel(d) if d.winner().is_some() => {
                let (w, l) = (d.winner().unwrap() as usize, d.loser().unwrap() as usize);
                assert_eq!(next.bag(w), bags[w], "the winner keeps its bag");
                assert_eq!(next.bag(l), Bag::EMPTY, "the loser's bag is emptied");
            }
            _ => assert_eq!(next.bags(), bags, "draws and time-outs keep both bags"),
        }
        assert_eq!(next.objects_left(), Bag::new(10, 10, 10), "a fresh deal");
    }
    assert!(
        timeouts > 0 && decisive > 0,
        "both kinds of endings were exercised"
    );
    let result = m.result().unwrap();
    assert_eq!(result.games.len(), 30);
    assert_eq!(result.score, score);
    assert_eq!(result.duels, duels);
    assert_eq!(result.winner, MatchResult::decide(score, duels));
    // Each side's result: the point difference's sign when points differ, opposite sides
    // opposite results.
    for p in 0..2 {
        let sign = (score[p] - score[1 - p]).signum();
        if sign != 0 {
            assert_eq!(i32::from(result.result_for(p)), sign);
        }
    }
    assert_eq!(result.result_for(0), -result.result_for(1));
}

#[test]
fn deal_follows_the_zones() {
    let rules = Rules::default();
    for seed in 0..50 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let game = Game::new(&rules, &mut rng).unwrap();
        assert_eq!(game.objects_left(), Bag::new(10, 10, 10));
        // Zones, 1-based inclusive in the spec: at least 6 of each type inside its own.
        let zones = [((3, 8), (3, 9)), ((13, 18), (3, 9)), ((13, 18), (13, 18))];
        for (o, ((r0, r1), (c0, c1))) in Object::ALL.into_iter().zip(zones) {
            let inside = (r0..=r1)
                .flat_map(|r| (c0..=c1).map(move |c| Cell::new(r - 1, c - 1)))
                .filter(|&c| game.object_at(c) == Some(o))
                .count();
            assert!(inside >= 6, "seed {seed}: {inside} {o} in its zone");
        }
        for p in 0..2 {
            assert_eq!(game.object_at(game.position(p)), None);
        }
        assert_ne!(game.position(0), game.position(1));
    }
}

#[test]
fn rules_are_checked() {
    let tiny = Rules {
        map: Map::parse("F..\n.P.\n..C\n").unwrap(),
        ..Rules::default()
    };
    assert!(matches!(tiny.check(2), Err(Error::Rules(_))));
    let far = Rules {
        radius: 9,
        ..Rules::default()
    };
    assert!(matches!(far.check(2), Err(Error::Rules(_))));
    let walled = Rules {
        map: Map::parse(".#..\n#...\n....\n").unwrap(),
        zone_objects: 0,
        random_objects: 0,
        ..Rules::default()
    };
    assert!(
        matches!(walled.check(2), Err(Error::Rules(_))),
        "an isolated cell"
    );
    assert!(Rules::default().check(5).is_ok());
}
