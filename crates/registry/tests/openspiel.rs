//! What OpenSpiel's Python algorithms rely on, from Rust: text forms that read back into states
//! that play on identically, each player's own view, and Chifoumi's information states.

use pjlab_chifoumi::{Bag, Rules};
use pjlab_core::{Encoder, GameKit};
use pjlab_registry::{ChifoumiState, GameHandle, State, games, load_game, serial};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Every game with every variant.
fn all_variants() -> Vec<Box<dyn GameHandle>> {
    games()
        .iter()
        .flat_map(|&name| {
            let game = load_game(name, None).unwrap();
            game.variants()
                .into_iter()
                .map(move |v| load_game(name, Some(&v)).unwrap())
        })
        .collect()
}

/// One step: a random legal action, or at a chance node the state's own draw.
fn step(state: &mut dyn State, rng: &mut ChaCha8Rng) {
    if state.is_chance_node() {
        state.apply_seeded_chance().unwrap();
        return;
    }
    let mut legal = Vec::new();
    state.legal_actions(&mut legal);
    let action = legal[rng.random_range(0..legal.len())];
    state.apply_action(action as i64).unwrap();
}

#[test]
fn every_state_reads_back_from_its_text_and_plays_on_identically() {
    for game in all_variants() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut state = game.new_initial_state(3).unwrap();
        let mut ply = 0;
        while !state.is_terminal() && ply < 400 {
            if ply % 17 == 0 {
                let history = [1, 2, ply];
                let text = serial::write_state(game.as_ref(), state.as_ref(), &history, 2).unwrap();
                let read = serial::read_state_of(game.as_ref(), &text).unwrap();
                assert_eq!((read.history.as_slice(), read.moves), (&history[..], 2));
                let mut again = read.state;
                assert_eq!(again.serialize().unwrap(), state.serialize().unwrap());
                // Both go on the same way, chance draws from their generators included.
                let mut fork = state.clone_box();
                let (mut a, mut b) = (rng.clone(), rng.clone());
                for _ in 0..30 {
                    if fork.is_terminal() {
                        break;
                    }
                    step(fork.as_mut(), &mut a);
                    step(again.as_mut(), &mut b);
                    assert_eq!(fork.serialize().unwrap(), again.serialize().unwrap());
                    assert_eq!(fork.to_string(), again.to_string(), "{}", game.name());
                }
                let (mut r1, mut r2) = (vec![0.0; 4], vec![0.0; 4]);
                let n = fork.num_players();
                fork.returns(&mut r1[..n]).unwrap();
                again.returns(&mut r2[..n]).unwrap();
                assert_eq!(r1, r2);
            }
            step(state.as_mut(), &mut rng);
            ply += 1;
        }
    }
}

#[test]
fn a_state_text_of_another_variant_or_shape_is_refused() {
    let classic = load_game("pijersi", None).unwrap();
    let other = load_game("pijersi", Some("half-random")).unwrap();
    let state = classic.new_initial_state(0).unwrap();
    let text = serial::write_state(classic.as_ref(), state.as_ref(), &[], 0).unwrap();
    let error = serial::read_state_of(other.as_ref(), &text).unwrap_err();
    assert!(
        error
            .to_string()
            .contains("not of pijersi(variant=half-random)"),
        "{error}"
    );
    for bad in [
        "",
        "pjlab-state 1\ngame pijersi\nhistory x\nmoves 0\n",
        "hello",
    ] {
        assert!(serial::read_state(bad).is_err(), "{bad:?}");
    }
    let chifoumi = load_game("chifoumi", None).unwrap();
    assert!(
        chifoumi
            .deserialize_state("seed 1\nrng 0\nlog 9999")
            .is_err()
    );
    assert_eq!(
        serial::load_game_string("chomp(variant=4x5)")
            .unwrap()
            .variant(),
        "4x5"
    );
}

/// The mover's observation is the kit's encoder input bit for bit; every other player's is the
/// encoding of the same board with its seat to move.
fn check_views<K: GameKit>(game: &dyn GameHandle, states: &[Box<dyn State>]) {
    for state in states {
        let kit = (state.as_ref() as &dyn std::any::Any)
            .downcast_ref::<pjlab_registry::KitState<K>>()
            .unwrap();
        let position = kit.position();
        let encoder = K::position_encoder(position);
        let mut expected = vec![0.0; encoder.input_len()];
        encoder.encode(position, &mut expected);
        let mut seen = vec![0.0; game.observation_len()];
        let mover = pjlab_core::Game::seat(position);
        state.observation(mover as i64, &mut seen).unwrap();
        assert_eq!(seen, expected, "{}", pjlab_core::Game::to_text(position));
        seen.fill(-1.0);
        state.network_input(&mut seen).unwrap();
        assert_eq!(seen, expected);
    }
}

#[test]
fn the_movers_view_is_the_networks_input_and_the_sides_see_their_own_side() {
    use pjlab_pijersi::{Cell, PijersiKit};
    let game = load_game("pijersi", Some("half-random")).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut states = Vec::new();
    let mut state = game.new_initial_state(5).unwrap();
    while !state.is_terminal() && states.len() < 80 {
        states.push(state.clone_box());
        step(state.as_mut(), &mut rng);
    }
    check_views::<PijersiKit>(game.as_ref(), &states);
    // Pijersi: the two sides' planes are each other's, mine and theirs swapped and the board
    // turned half a turn; the draw counter is shared.
    let cells = 45;
    for state in &states {
        let (mut white, mut black) = (vec![0.0; 721], vec![0.0; 721]);
        state.observation(0, &mut white).unwrap();
        state.observation(1, &mut black).unwrap();
        for cell in Cell::all() {
            let turned = cell.rotated().index();
            for plane in 0..16 {
                let swapped = plane ^ 4; // 0..4 <-> 4..8, 8..12 <-> 12..16
                assert_eq!(
                    white[plane * cells + cell.index()],
                    black[swapped * cells + turned]
                );
            }
        }
        assert_eq!(white[720], black[720]);
    }
    for (name, variant) in [
        ("abalone", "belgian-daisy"),
        ("abalone", "doubles"),
        ("chomp", "4x5"),
    ] {
        let game = load_game(name, Some(variant)).unwrap();
        let mut state = game.new_initial_state(0).unwrap();
        let mut states = Vec::new();
        while !state.is_terminal() && states.len() < 40 {
            states.push(state.clone_box());
            step(state.as_mut(), &mut rng);
        }
        states.push(state.clone_box()); // the last one, over in Chomp: the mover's view still
        if name == "abalone" {
            check_views::<pjlab_abalone::AbaloneKit>(game.as_ref(), &states);
        } else {
            check_views::<pjlab_chomp::ChompKit>(game.as_ref(), &states);
        }
    }
}

#[test]
fn chifoumi_information_states_are_the_players_observations_and_hide_the_other_bag() {
    let game = load_game("chifoumi", None).unwrap();
    let (obs_len, info_len) = (
        game.observation_len(),
        game.information_state_len().unwrap(),
    );
    assert_eq!(info_len, 201 * obs_len + 6);
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for seed in 0..6 {
        let mut state = game.new_initial_state(seed).unwrap();
        // Each player's observations as they come, computed beside the state.
        let mut seen: [Vec<Vec<f32>>; 2] = [Vec::new(), Vec::new()];
        loop {
            step(state.as_mut(), &mut rng);
            if state.is_chance_node() {
                continue;
            }
            for (player, rows) in seen.iter_mut().enumerate() {
                let mut row = vec![0.0; obs_len];
                state.observation(player as i64, &mut row).unwrap();
                rows.push(row);
                let mut info = vec![0.0; info_len];
                state
                    .information_state_tensor(player as i64, &mut info)
                    .unwrap();
                let flat: Vec<f32> = rows.concat();
                assert_eq!(&info[..flat.len()], &flat[..], "seed {seed}");
                assert!(info[flat.len()..info_len - 6].iter().all(|&v| v == 0.0));
                let text = state.information_state_string(player as i64).unwrap();
                assert_eq!(text.lines().count(), rows.len());
            }
            if state.is_terminal() {
                break;
            }
        }
        // Once the duel is fought, both draws show in both players' tails.
        for player in 0..2 {
            let mut info = vec![0.0; info_len];
            state.information_state_tensor(player, &mut info).unwrap();
            let drawn: f32 = info[info_len - 6..].iter().sum();
            assert!(drawn == 0.0 || drawn == 2.0, "{drawn}");
        }
    }
    // What a player cannot see (the other's bag) is not in its information state.
    let mut state = ChifoumiState::new(&Rules::default(), 4).unwrap();
    state.settle_chance();
    for player in 0..2 {
        let mut changed = state.game().clone();
        changed.set_bag(1 - player, Bag::new(7, 0, 3));
        let changed = ChifoumiState::from_game(changed, 99);
        let mut own = state.game().clone();
        own.set_bag(player, Bag::new(7, 0, 3));
        let own = ChifoumiState::from_game(own, 99);
        let base = ChifoumiState::from_game(state.game().clone(), 99);
        let p = player as i64;
        let text = |s: &ChifoumiState| s.information_state_string(p).unwrap();
        assert_eq!(text(&base), text(&changed));
        assert_ne!(text(&base), text(&own));
        let tensor = |s: &ChifoumiState| {
            let mut out = vec![0.0; info_len];
            s.information_state_tensor(p, &mut out).unwrap();
            out
        };
        assert_eq!(tensor(&base), tensor(&changed));
        assert_ne!(tensor(&base), tensor(&own));
        // A game set up by hand has no text form.
        assert!(base.serialize().is_err());
    }
}
