//! Which agents the Python binding runs on the calling thread ([`Player::is_quick`]): those
//! that do not search, whose choice costs less than starting a worker would.

use pjlab_python::{Player, build_player};

#[test]
fn agents_that_do_not_search_are_quick() {
    for (game, spec, quick) in [
        ("pijersi", "random", true),
        ("abalone", " greedy:seed=3", true),
        ("chomp", "alphabeta:depth=1", false),
        ("pijersi", "mcts:sims=10", false),
        ("chifoumi", "focused:F", true),
        ("chifoumi", "observer", true),
        ("chifoumi", "ismcts:sims=10", false),
    ] {
        let player: Box<dyn Player> = build_player(game, spec, 0).unwrap();
        assert_eq!(player.is_quick(), quick, "{game} {spec:?}");
    }
}
