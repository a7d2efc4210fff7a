//! The generic checks over the `ImperfectGame` trait (written against the trait only, so they
//! can move to the core's test kit), for the game and the arena; record round trips.

use std::collections::HashSet;

use pjlab_chifoumi::{Action, Arena, ArenaRules, Game, GameRecord, Rules};
use pjlab_core::ImperfectGame;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Plays `games` random games from `start` and checks every invariant of the trait at every
/// state; returns the number of states checked.
fn check_playouts<G: ImperfectGame + PartialEq>(
    start: impl Fn(&mut ChaCha8Rng) -> G,
    games: usize,
    seed: u64,
) -> usize {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut states = 0;
    let mut actions = Vec::new();
    for _ in 0..games {
        let mut state = start(&mut rng);
        let n = state.num_actions();
        loop {
            states += 1;
            state.legal_actions(&mut actions);
            // Terminal states have no actions and no player.
            assert_eq!(actions.is_empty(), state.is_terminal(), "{state:?}");
            assert_eq!(state.current_player().is_none(), state.is_terminal());
            // Unique, increasing, in range, and the mask agrees.
            assert!(actions.windows(2).all(|w| w[0] < w[1]), "{actions:?}");
            assert!(actions.iter().all(|&a| a < n));
            let mut mask = vec![true; n];
            state.legal_mask(&mut mask);
            let from_mask: Vec<usize> = (0..n).filter(|&i| mask[i]).collect();
            assert_eq!(from_mask, actions);
            // Illegal indices are refused and leave the state as it was.
            for bad in (0..n + 2).filter(|a| !actions.contains(a)) {
                let mut copy = state.clone();
                assert!(copy.play(bad, &mut rng).is_err());
                assert!(copy == state);
            }
            // Observations: equal for equal states, tensors of the stated length, finite.
            for p in 0..state.num_players() {
                assert_eq!(state.observation(p), state.clone().observation(p));
                let mut t = vec![f32::NAN; state.observation_tensor_len()];
                state.observation_tensor(p, &mut t);
                assert!(t.iter().all(|x| x.is_finite()));
            }
            if state.is_terminal() {
                break;
            }
            // Every legal action plays on a clone; checked and unchecked play agree with the
            // same generator; the original is untouched (clone independence).
            let before = state.clone();
            for &a in &actions {
                let seed = rng.random::<u64>();
                let mut checked = state.clone();
                checked
                    .play(a, &mut ChaCha8Rng::seed_from_u64(seed))
                    .unwrap();
                let mut unchecked = state.clone();
                unchecked.play_unchecked(a, &mut ChaCha8Rng::seed_from_u64(seed));
                assert!(checked == unchecked);
                assert!(state == before, "playing a clone changed the original");
            }
            let a = actions[rng.random_range(0..actions.len())];
            state.play(a, &mut rng).unwrap();
        }
        // Zero-sum returns.
        let total: f32 = (0..state.num_players()).map(|p| state.returns(p)).sum();
        assert_eq!(total, 0.0);
    }
    states
}

#[test]
fn game_invariants_along_random_playouts() {
    let rules = Rules::default();
    let states = check_playouts(|rng| Game::new(&rules, rng).unwrap(), 60, 1);
    assert!(states > 3000, "{states}");
    let stay = Rules {
        stay: true,
        radius: 1,
        max_rounds: 30,
        map: pjlab_chifoumi::Map::parse(include_str!("../maps/pillars.txt")).unwrap(),
        ..Rules::default()
    };
    check_playouts(|rng| Game::new(&stay, rng).unwrap(), 30, 2);
}

#[test]
fn arena_invariants_along_random_playouts() {
    let rules = ArenaRules {
        turns: 300,
        sit_out: 20,
        ..ArenaRules::default()
    };
    let states = check_playouts(|rng| Arena::new(&rules, rng).unwrap(), 4, 3);
    assert!(states > 1000);
}

#[test]
fn arena_duels_empty_the_loser_and_sit_it_out() {
    let rules = ArenaRules::default();
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let mut arena = Arena::new(&rules, &mut rng).unwrap();
    let mut actions = Vec::new();
    let mut decisive = 0;
    while !arena.is_over() {
        arena.legal_actions(&mut actions);
        let duel = actions.iter().copied().find(|&a| a >= 5);
        let a = duel.unwrap_or_else(|| actions[rng.random_range(0..actions.len())]);
        let mover = arena.to_move();
        let scores: Vec<i32> = (0..5).map(|p| arena.score(p)).collect();
        arena.play(a, &mut rng).unwrap();
        if let Some(target) = duel.map(|a| a - 5) {
            let d = arena.last_duel().unwrap();
            assert_eq!((d.trigger as usize, d.target as usize), (mover, target));
            if let Some(l) = d.loser() {
                decisive += 1;
                let (l, w) = (l as usize, d.winner().unwrap() as usize);
                assert_eq!(arena.bag(l), pjlab_chifoumi::Bag::EMPTY);
                assert!(arena.sits_out(l));
                assert_eq!(arena.score(w), scores[w] + 1);
                assert_eq!(arena.score(l), scores[l] - 1);
            }
        }
        assert!(!arena.sits_out(arena.to_move()) || arena.is_over());
    }
    assert!(decisive > 5);
    assert_eq!(arena.turn(), 1000);
}

#[test]
fn record_round_trip_replays_the_game() {
    let rules = Rules::default();
    let mut choices = ChaCha8Rng::seed_from_u64(6);
    let mut ends = HashSet::new();
    for seed in 0..40u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut game = Game::new(&rules, &mut rng).unwrap();
        let mut actions = Vec::new();
        while !game.is_over() {
            let legal = game.legal();
            let a = legal.nth(choices.random_range(0..legal.len())).unwrap();
            game.play(a, &mut rng).unwrap();
            actions.push(a);
        }
        let record = GameRecord { seed, actions };
        let text = record.to_string();
        let back = GameRecord::parse(&text).unwrap();
        assert_eq!(back, record);
        let replayed = back.replay(&rules).unwrap();
        assert_eq!(replayed, game, "{text}");
        assert_eq!(replayed.to_string(), game.to_string());
        ends.insert(format!("{:?}", game.end().map(|e| e.value_for(0))));
    }
    assert!(
        ends.len() >= 2,
        "games with different endings were replayed"
    );
}

#[test]
fn broken_records_give_typed_errors() {
    use pjlab_chifoumi::Error;
    let cases = [
        ("", 1),
        ("chess 1\nseed 1\n", 1),
        ("chifoumi-game 1\nseed x\n", 2),
        ("chifoumi-game 1\nseed 3\nactions N Q\n", 3),
        ("chifoumi-game 1\nactions N\n", 2),
        ("chifoumi-game 1\nseed 3\nmoves N\n", 3),
    ];
    for (text, line) in cases {
        match GameRecord::parse(text) {
            Err(Error::Record { line: l, .. }) => assert_eq!(l, line, "{text:?}"),
            other => panic!("{text:?}: {other:?}"),
        }
    }
    // A record with an illegal action parses but does not replay.
    let record = GameRecord {
        seed: 1,
        actions: vec![Action::Stay],
    };
    assert!(matches!(
        record.replay(&Rules::default()),
        Err(Error::Record { .. })
    ));
}
