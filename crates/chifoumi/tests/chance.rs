//! Explicit chance nodes ([`Chanced`]) against the generator-driven game, the spec's duel table
//! and a closed form for the zone deal.

use std::collections::BTreeMap;

use pjlab_chifoumi::{Action, Bag, ChanceEvent, Chanced, Game, Map, Object, Rect, Rules, Start};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Plays the chance nodes due now from `rng`, checking each node's distribution on the way.
fn settle(chanced: &mut Chanced, rng: &mut ChaCha8Rng) {
    while chanced.is_chance() {
        let outcomes = chanced.outcomes();
        assert!(!outcomes.is_empty());
        assert!(outcomes.windows(2).all(|w| w[0].0 < w[1].0), "increasing");
        assert!(
            outcomes
                .iter()
                .all(|&(o, p)| p > 0.0 && o < chanced.max_outcomes())
        );
        let total: f64 = outcomes.iter().map(|&(_, p)| p).sum();
        assert!((total - 1.0).abs() < 1e-12, "{total}");
        let drawn = chanced.sample_and_apply(rng).expect("a chance node");
        assert!(
            outcomes.iter().any(|&(o, _)| o == drawn),
            "{drawn} possible"
        );
    }
}

/// A seeded game played by `Game::new` and `Game::play` from one generator, and the same game
/// with every chance node sampled from a generator of the same seed: equal at every turn.
#[test]
fn sampled_chance_nodes_replay_the_generator_games() {
    let rules = Rules::default();
    for seed in 0..40u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut game = Game::new(&rules, &mut rng).unwrap();
        let mut chance_rng = ChaCha8Rng::seed_from_u64(seed);
        let mut chanced = Chanced::new(&rules, Start::default()).unwrap();
        assert!(chanced.is_dealing());
        settle(&mut chanced, &mut chance_rng);
        assert!(!chanced.is_dealing());
        assert_eq!(chanced.game(), &game, "seed {seed} dealt");
        let mut choices = ChaCha8Rng::seed_from_u64(1000 + seed);
        while !game.is_over() {
            let legal: Vec<Action> = game.legal().iter().collect();
            // Duel one time in four when it is offered, so that games end both ways.
            let action = if legal.contains(&Action::Duel) && choices.random_range(0..4) == 0 {
                Action::Duel
            } else {
                legal[choices.random_range(0..legal.len())]
            };
            game.play(action, &mut rng).unwrap();
            chanced.play(action).unwrap();
            settle(&mut chanced, &mut chance_rng);
            assert_eq!(chanced.game(), &game, "seed {seed} turn {}", game.turn());
        }
        assert_eq!(chanced.game().end(), game.end());
    }
}

/// Rules on a 5 x 4 grid whose first three rows are the three zones, `k` zone objects a type, no random
/// objects.
fn rows_as_zones(k: u8) -> Rules {
    let mut map = Map::open(5, 4).unwrap();
    for object in Object::ALL {
        let row = object.index() as u8 + 1;
        map.set_zone(
            object,
            Rect {
                rows: (row, row),
                cols: (1, 5),
            },
        );
    }
    Rules {
        map,
        zone_objects: k,
        random_objects: 0,
        ..Rules::default()
    }
}

/// Sums the probability of every set of cells the Flamme zone's nodes can end with.
fn zone_subsets(chanced: &Chanced, p: f64, out: &mut BTreeMap<Vec<usize>, f64>) {
    match chanced.event() {
        Some(ChanceEvent::ZoneObject {
            object: Object::Flamme,
            ..
        }) => {
            for (outcome, q) in chanced.outcomes() {
                let mut next = chanced.clone();
                next.apply_outcome(outcome).unwrap();
                zone_subsets(&next, p * q, out);
            }
        }
        _ => {
            let cells: Vec<usize> = (0..5)
                .filter(|&c| {
                    chanced
                        .game()
                        .object_at(pjlab_chifoumi::Cell::new(0, c as u8))
                        == Some(Object::Flamme)
                })
                .collect();
            *out.entry(cells).or_default() += p;
        }
    }
}

/// The spec draws a zone's objects on distinct random cells of it: every set of `k` of its `n`
/// cells has probability 1 / C(n, k). The chance tree of the zone's nodes gives exactly that.
#[test]
fn zone_deal_is_a_uniform_subset() {
    for k in 1..=5u8 {
        let chanced = Chanced::new(&rows_as_zones(k), Start::default()).unwrap();
        let mut subsets = BTreeMap::new();
        zone_subsets(&chanced, 1.0, &mut subsets);
        let choose = (0..u64::from(k)).fold(1u64, |acc, i| acc * (5 - i) / (i + 1));
        assert_eq!(subsets.len() as u64, choose, "k {k}");
        for (cells, p) in subsets {
            assert_eq!(cells.len(), usize::from(k));
            assert!(
                (p - 1.0 / choose as f64).abs() < 1e-12,
                "k {k} {cells:?} {p}"
            );
        }
    }
}

/// A 3 x 1 grid without objects: the players always see each other, so `DUEL` is legal at once.
fn duel_at_once(bags: [Bag; 2]) -> Chanced {
    let rules = Rules {
        map: Map::open(3, 1).unwrap(),
        zone_objects: 0,
        random_objects: 0,
        ..Rules::default()
    };
    let start = Start {
        bags,
        ..Start::default()
    };
    let mut chanced = Chanced::new(&rules, start).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    while chanced.is_dealing() {
        chanced.sample_and_apply(&mut rng);
    }
    chanced.play(Action::Duel).unwrap();
    chanced
}

/// The two draw nodes' outcomes combine into the spec's exact duel table.
#[test]
fn duel_draws_give_the_spec_odds() {
    // A, B, and the first bag's win, draw and loss probabilities (the spec's table).
    let table: [([u16; 3], [u16; 3], [f64; 3]); 8] = [
        ([0, 0, 0], [0, 0, 0], [1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0]),
        ([2, 1, 1], [0, 0, 0], [1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0]),
        ([1, 0, 0], [0, 1, 0], [0.0, 0.0, 1.0]),
        ([2, 1, 1], [0, 0, 1], [0.5, 0.25, 0.25]),
        ([3, 0, 0], [1, 2, 0], [0.0, 1.0 / 3.0, 2.0 / 3.0]),
        ([1, 1, 0], [0, 1, 1], [0.25, 0.25, 0.5]),
        ([4, 1, 0], [0, 3, 2], [8.0 / 25.0, 3.0 / 25.0, 14.0 / 25.0]),
        ([2, 2, 2], [7, 0, 0], [1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0]),
    ];
    for (a, b, expected) in table {
        let bag = |c: [u16; 3]| Bag::new(c[0], c[1], c[2]);
        let chanced = duel_at_once([bag(a), bag(b)]);
        assert_eq!(chanced.event(), Some(ChanceEvent::Draw { player: 0 }));
        let mut odds = [0.0f64; 3];
        for (first, p) in chanced.outcomes() {
            let mut next = chanced.clone();
            next.apply_outcome(first).unwrap();
            assert_eq!(next.event(), Some(ChanceEvent::Draw { player: 1 }));
            assert!(!next.game().is_over(), "the duel waits for both draws");
            for (second, q) in next.outcomes() {
                let mut end = next.clone();
                end.apply_outcome(second).unwrap();
                assert!(!end.is_chance());
                let value = end
                    .game()
                    .end()
                    .expect("the duel ends the game")
                    .value_for(0);
                odds[(1 - value) as usize] += p * q;
            }
        }
        for (got, want) in odds.iter().zip(expected) {
            assert!((got - want).abs() < 1e-12, "{a:?} vs {b:?}: {odds:?}");
        }
    }
}

#[test]
fn wrong_steps_are_refused_and_change_nothing() {
    let rules = Rules::default();
    let mut chanced = Chanced::new(&rules, Start::default()).unwrap();
    let before = chanced.clone();
    let err = chanced.play(Action::N).unwrap_err();
    assert!(err.to_string().contains("a chance event is due"), "{err}");
    // Floyd's first step over the Flamme zone's 42 cells: a cell outside it is impossible.
    let err = chanced.apply_outcome(0).unwrap_err();
    assert!(err.to_string().contains("not possible"), "{err}");
    assert_eq!(chanced, before);
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    while chanced.is_chance() {
        chanced.sample_and_apply(&mut rng);
    }
    let dealt = chanced.clone();
    let err = chanced.apply_outcome(0).unwrap_err();
    assert!(err.to_string().contains("no chance event is due"), "{err}");
    assert_eq!(chanced, dealt);
    assert_eq!(chanced.sample(&mut rng), None);
    assert!(chanced.outcomes().is_empty());
}
