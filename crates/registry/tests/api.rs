//! The registry, states and batches from Rust: what the Python package relies on, tested
//! without Python.

use pjlab_registry::{Error, Outputs, StepOutputs, games, load_game};

/// Every game with every variant.
fn all_variants() -> Vec<(&'static str, String)> {
    games()
        .iter()
        .flat_map(|&name| {
            let game = load_game(name, None).unwrap();
            game.variants().into_iter().map(move |v| (name, v))
        })
        .collect()
}

#[test]
fn every_variant_loads_and_plays_with_checked_actions() {
    for (name, variant) in all_variants() {
        let game = load_game(name, Some(&variant)).unwrap();
        assert_eq!(game.name(), name);
        assert_eq!(game.variant(), variant);
        let mut state = settled(game.new_initial_state(1).unwrap());
        let mut legal = Vec::new();
        let mut mask = vec![0; game.num_distinct_actions()];
        let mut obs = vec![0.0; game.observation_len()];
        for ply in 0..60 {
            if state.is_terminal() {
                break;
            }
            state.legal_actions(&mut legal);
            state.legal_mask(&mut mask).unwrap();
            let from_mask: Vec<usize> = (0..mask.len()).filter(|&a| mask[a] == 1).collect();
            assert_eq!(legal, from_mask, "{name} {variant}");
            state.observation(0, &mut obs).unwrap();
            let action = legal[ply % legal.len()];
            let text = state.action_to_string(action as i64).unwrap();
            assert_eq!(state.string_to_action(&text).unwrap(), action);
            state.apply_action(action as i64).unwrap();
            state.settle_chance();
        }
    }
}

#[test]
fn bad_input_is_an_error_and_changes_nothing() {
    for name in games() {
        let game = load_game(name, None).unwrap();
        let mut state = settled(game.new_initial_state(3).unwrap());
        let before = state.to_string();
        let n = game.num_distinct_actions() as i64;
        for action in [-1, n, i64::MAX, i64::MIN] {
            assert!(matches!(
                state.apply_action(action),
                Err(Error::ActionOutOfRange { .. })
            ));
            assert!(state.action_to_string(action).is_err());
        }
        let mut legal = Vec::new();
        state.legal_actions(&mut legal);
        if let Some(illegal) = (0..n as usize).find(|a| !legal.contains(a)) {
            let error = state.apply_action(illegal as i64).unwrap_err();
            assert!(error.to_string().contains("not legal"), "{error}");
        }
        let mut obs = vec![0.0; game.observation_len()];
        assert!(state.observation(-1, &mut obs).is_err());
        assert!(
            state
                .observation(game.num_players() as i64, &mut obs)
                .is_err()
        );
        assert!(state.observation(0, &mut obs[1..]).is_err());
        assert!(state.legal_mask(&mut []).is_err());
        assert!(state.returns(&mut []).is_err());
        assert!(state.string_to_action("not a move").is_err());
        assert_eq!(state.to_string(), before);
    }
    assert!(load_game("go", None).err().unwrap().is_lookup());
    assert!(
        load_game("pijersi", Some("pijersi-7"))
            .err()
            .unwrap()
            .is_lookup()
    );
    assert!(load_game("pijersi", None).unwrap().new_batch(0, 0).is_err());
}

#[test]
fn a_batch_equals_single_states_with_automatic_reset() {
    let n = 4;
    for (name, variant) in [
        ("chomp", "3x4"),
        ("chifoumi", "standard"),
        ("abalone", "doubles"),
    ] {
        let game = load_game(name, Some(variant)).unwrap();
        let mut batch = game.new_batch(n, 17).unwrap();
        let (a, o, p) = (
            batch.num_actions(),
            batch.observation_len(),
            batch.num_players(),
        );
        let mut singles: Vec<_> = batch
            .seeds()
            .iter()
            .map(|&s| settled(game.new_initial_state(s).unwrap()))
            .collect();
        let (mut obs, mut masks, mut players) = (vec![0.0; n * o], vec![0; n * a], vec![0; n]);
        let (mut rewards, mut ended) = (vec![0.0; n * p], vec![0; n]);
        batch
            .observe(Outputs {
                observations: &mut obs,
                masks: &mut masks,
                players: &mut players,
            })
            .unwrap();
        let mut finished = 0;
        for step in 0..450 {
            let mut actions = Vec::new();
            for (i, single) in singles.iter().enumerate() {
                let mut legal = Vec::new();
                single.legal_actions(&mut legal);
                let mut mine = vec![0.0; o];
                single
                    .observation(single.current_player().unwrap() as i64, &mut mine)
                    .unwrap();
                assert_eq!(mine, obs[i * o..(i + 1) * o], "{name} step {step} env {i}");
                assert_eq!(players[i], single.current_player().unwrap() as i64);
                actions.push(legal[(step + i) % legal.len()] as i64);
            }
            batch
                .step(
                    &actions,
                    StepOutputs {
                        next: Outputs {
                            observations: &mut obs,
                            masks: &mut masks,
                            players: &mut players,
                        },
                        rewards: &mut rewards,
                        terminated: &mut ended,
                    },
                )
                .unwrap();
            for (i, single) in singles.iter_mut().enumerate() {
                single.apply_action(actions[i]).unwrap();
                single.settle_chance();
                let mut returns = vec![0.0; p];
                single.returns(&mut returns).unwrap();
                assert_eq!(ended[i] == 1, single.is_terminal());
                if single.is_terminal() {
                    assert_eq!(returns, rewards[i * p..(i + 1) * p]);
                    *single = settled(game.new_initial_state(batch.seeds()[i]).unwrap());
                    finished += 1;
                }
            }
        }
        assert_eq!(batch.finished().iter().sum::<u64>(), finished);
        if name != "abalone" {
            assert!(finished > 0, "{name}: automatic reset was exercised");
        }
    }
}

#[test]
fn chifoumi_observations_hide_the_other_bag() {
    use pjlab_chifoumi::Bag;
    use pjlab_registry::{ChifoumiState, State};
    let len = load_game("chifoumi", None).unwrap().observation_len();
    for seed in 0..20 {
        let mut state = ChifoumiState::new(&pjlab_chifoumi::Rules::default(), seed).unwrap();
        state.settle_chance();
        for player in 0..2 {
            let mut changed = state.game().clone();
            // What `player` cannot see: the other's bag (and the generator's state).
            changed.set_bag(1 - player, Bag::new(7, 0, 3));
            let changed = ChifoumiState::from_game(changed, seed + 1000);
            let (mut a, mut b) = (vec![0.0; len], vec![0.0; len]);
            state.observation(player as i64, &mut a).unwrap();
            changed.observation(player as i64, &mut b).unwrap();
            assert_eq!(a, b, "seed {seed} player {player}");
            // ... while its own bag shows.
            let mut own = state.game().clone();
            own.set_bag(player, Bag::new(7, 0, 3));
            ChifoumiState::from_game(own, seed)
                .observation(player as i64, &mut b)
                .unwrap();
            assert_ne!(a, b, "seed {seed} player {player}");
        }
    }
}

/// `state` with its chance events drawn from its own generator, as a batch's games are.
fn settled(mut state: Box<dyn pjlab_registry::State>) -> Box<dyn pjlab_registry::State> {
    state.settle_chance();
    state
}

/// Every game's static facts hold in its random games, in every variant: its seats within the
/// players it declares, chance nodes exactly when it declares chance, and each finished game's
/// returns within its utilities and summing to its declared sum.
#[test]
fn every_games_static_facts_hold_in_its_random_games() {
    use pjlab_core::{ChanceMode, Information};
    for name in games() {
        let variants = load_game(name, None).unwrap().variants();
        for variant in variants {
            let game = load_game(name, Some(&variant)).unwrap();
            let facts = game.game_type();
            let players = game.num_players();
            assert!(
                (facts.min_players..=facts.max_players).contains(&players),
                "{name} {variant}: {players} seats"
            );
            assert_eq!(
                facts.information == Information::Perfect,
                game.is_perfect_information(),
                "{name}"
            );
            let mut chance_seen = false;
            for seed in 0..3u64 {
                let mut state = game.new_initial_state(seed).unwrap();
                let mut legal = Vec::new();
                for ply in 0..2_000u64 {
                    if state.is_terminal() {
                        break;
                    }
                    if state.is_chance_node() {
                        chance_seen = true;
                        state.apply_seeded_chance().unwrap();
                        continue;
                    }
                    state.legal_actions(&mut legal);
                    let pick = legal[((ply * 7919 + seed) % legal.len() as u64) as usize];
                    state.apply_action(pick as i64).unwrap();
                }
                if !state.is_terminal() {
                    continue;
                }
                let mut returns = vec![0.0f32; players];
                state.returns(&mut returns).unwrap();
                for r in &returns {
                    let r = f64::from(*r);
                    assert!(
                        (facts.min_utility..=facts.max_utility).contains(&r),
                        "{name}: {r}"
                    );
                }
                if let Some(sum) = facts.utility_sum {
                    let total: f64 = returns.iter().map(|&r| f64::from(r)).sum();
                    assert!((total - sum).abs() < 1e-6, "{name} {variant}: {returns:?}");
                }
            }
            let stochastic = facts.chance == ChanceMode::ExplicitStochastic;
            assert_eq!(stochastic, chance_seen, "{name} {variant}");
            assert_eq!(
                stochastic,
                game.max_chance_outcomes() > 0,
                "{name} {variant}"
            );
        }
    }
}
