//! Chifoumi's players through the binding (`build_player` on a state with explicit chance nodes
//! and its history) against the same players driven directly, as `pjlab_chifoumi::play_game`
//! drives them: each sees its seat's observation at the start and after every turn.

use pjlab_chifoumi::{Game, Rules, parse_player};
use pjlab_python::{build_player, load_game};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The actions of a game of `specs` (choices seeded with `seeds`) from the game seed `seed`,
/// the players driven directly.
fn direct(specs: [&str; 2], seeds: [u64; 2], seed: u64) -> Vec<usize> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game = Game::new(&Rules::default(), &mut rng).unwrap();
    let mut players = specs.map(|s| parse_player(s).unwrap());
    let mut choices = seeds.map(ChaCha8Rng::seed_from_u64);
    for (p, player) in players.iter_mut().enumerate() {
        player.new_match();
        player.observe(&game.observation(p));
    }
    let mut actions = Vec::new();
    while !game.is_over() {
        let p = game.to_move();
        let action = players[p].act(&game.observation(p), game.legal(), &mut choices[p]);
        actions.push(action.index());
        game.play(action, &mut rng).unwrap();
        for (q, player) in players.iter_mut().enumerate() {
            player.observe(&game.observation(q));
        }
    }
    actions
}

/// The same game through the binding: chance drawn by the state's generator, each agent given
/// the state and its history.
fn through_binding(specs: [&str; 2], seeds: [u64; 2], seed: u64) -> Vec<usize> {
    let mut state = load_game("chifoumi", None)
        .unwrap()
        .new_initial_state(seed)
        .unwrap();
    let mut agents = [0, 1].map(|p| build_player("chifoumi", specs[p], seeds[p]).unwrap());
    let (mut history, mut actions) = (Vec::new(), Vec::new());
    loop {
        while state.is_chance_node() {
            history.push(state.apply_seeded_chance().unwrap());
        }
        let Some(p) = state.current_player() else {
            break;
        };
        let action = agents[p].choose(state.as_ref(), &history).unwrap();
        state.apply_action(action as i64).unwrap();
        history.push(action);
        actions.push(action);
    }
    actions
}

#[test]
fn binding_agents_play_as_the_players_do_directly() {
    // Players that remember (observer, counter) and players that walk at random.
    let pairs = [
        ["observer", "counter"],
        ["greedy", "focused:P"],
        ["random", "observer"],
    ];
    let mut total = 0;
    for (k, specs) in pairs.into_iter().enumerate() {
        for seed in 0..6u64 {
            let seeds = [100 + seed, 200 + k as u64];
            let expected = direct(specs, seeds, seed);
            assert_eq!(
                through_binding(specs, seeds, seed),
                expected,
                "{specs:?} seed {seed}"
            );
            total += expected.len();
        }
    }
    assert!(
        total > 100,
        "games of some length were compared ({total} actions)"
    );
}

#[test]
fn a_history_that_does_not_lead_to_the_state_is_refused() {
    let game = load_game("chifoumi", None).unwrap();
    let mut state = game.new_initial_state(4).unwrap();
    let mut agent = build_player("chifoumi", "greedy", 0).unwrap();
    let error = agent.choose(state.as_ref(), &[]).unwrap_err();
    assert!(
        error.to_string().contains("a chance event is due"),
        "{error}"
    );
    state.settle_chance();
    // The deal was drawn but the history given is empty: the replica is still dealing.
    let error = agent.choose(state.as_ref(), &[]).unwrap_err();
    assert!(
        error.to_string().contains("does not lead to the state"),
        "{error}"
    );
    let error = build_player("chifoumi", "focused:X", 0).err().unwrap();
    assert!(error.to_string().contains("focused:X"), "{error}");
}
