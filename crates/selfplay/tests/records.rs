//! Self-play games written to Parquet and read back with the `parquet` crate, checked against
//! an independent replay of each game by the rules.

use std::collections::HashSet;

use pjlab_chomp::{Chomp, ChompSetups};
use pjlab_core::{Game, Outcome, SetupMix, Setups, Side};
use pjlab_mcts::UniformEvaluator;
use pjlab_pijersi::Position;
use pjlab_selfplay::{
    FinishedGame, SelfPlayConfig, Termination, play_games, read_games, read_positions, write_games,
};

/// Pijersi setups drawn from weighted variants.
type PijersiSetups = SetupMix<pjlab_pijersi::Variant>;

fn config() -> SelfPlayConfig {
    SelfPlayConfig {
        simulations: 24,
        cheap_simulations: 4,
        games_in_flight: 5,
        max_plies: 120,
        ..SelfPlayConfig::default()
    }
}

fn play<G: Game>(setups: &dyn Setups<G>, games: usize, seed: u64) -> Vec<FinishedGame<G>> {
    let mut out = Vec::new();
    let stats = play_games(
        setups,
        &mut UniformEvaluator,
        &config(),
        games,
        100,
        seed,
        |g| out.push(g),
    );
    assert_eq!(stats.games as usize, games);
    assert_eq!(
        stats.positions as usize,
        out.iter().map(|g| g.samples.len()).sum::<usize>()
    );
    out
}

/// Replays every game of the files by the rules and checks every column against it.
fn check_files<G: Game>(games: &[FinishedGame<G>]) {
    let dir = tempfile::tempdir().unwrap();
    let (gp, pp) = (dir.path().join("g.parquet"), dir.path().join("p.parquet"));
    write_games(&gp, &pp, games, "uniform", &[]).unwrap();
    let rows = read_games(&gp).unwrap();
    let positions = read_positions(&pp).unwrap();
    assert_eq!(rows.len(), games.len());
    let ids: HashSet<u64> = rows.iter().map(|r| r.game_id).collect();
    assert_eq!(ids.len(), rows.len(), "game ids repeat");
    let mut next = positions.iter();
    for row in &rows {
        assert_eq!(row.network, "uniform");
        assert_eq!(row.length as usize, row.moves.len());
        let mut p = G::from_text(&row.start).unwrap();
        assert_eq!(p.name(), row.game);
        let mut replayed = Vec::new();
        for text in &row.moves {
            replayed.push(p.clone());
            let mv = p.parse_move(text).expect("recorded moves are legal");
            p.play(mv).unwrap();
        }
        let first = match row.termination.as_str() {
            "rules" => p
                .outcome()
                .expect("a game ended by the rules is over")
                .value_for(Side::First),
            "max-plies" => {
                assert!(p.outcome().is_none());
                0.0
            }
            "resigned" => {
                assert!(p.outcome().is_none());
                f32::from(row.result)
            }
            other => panic!("unknown termination {other}"),
        };
        assert_eq!(f32::from(row.result), first);
        for (ply, position) in replayed.iter().enumerate() {
            let r = next.next().expect("one position row per move");
            assert_eq!(r.game_id, row.game_id);
            assert_eq!(r.ply as usize, ply);
            assert_eq!(r.position, position.to_text());
            let mut legal = Vec::new();
            position.legal_moves(&mut legal);
            let legal: HashSet<u16> = legal
                .iter()
                .map(|&m| position.action_index(m) as u16)
                .collect();
            assert_eq!(r.legal.iter().copied().collect::<HashSet<_>>(), legal);
            assert!(r.policy_actions.iter().all(|a| legal.contains(a)));
            assert_eq!(r.policy_actions.len(), r.policy_probs.len());
            let total: f32 = r.policy_probs.iter().sum();
            assert!((total - 1.0).abs() < 1e-3, "policy sums to {total}");
            let mover = position.side_to_move();
            let sign = if mover == Side::First { 1.0 } else { -1.0 };
            assert_eq!(r.result, f32::from(row.result) * sign);
            assert!((-1.0..=1.0).contains(&r.search_value));
        }
    }
    assert!(next.next().is_none(), "extra position rows");
    // Each table refuses to be read as the other.
    assert!(read_positions(&gp).is_err());
    assert!(read_games(&pp).is_err());
}

#[test]
fn pijersi_games_round_trip_through_parquet() {
    let setups = PijersiSetups::parse("classic:1,half-random:2,full-random:1").unwrap();
    let games = play::<Position>(&setups, 7, 1);
    assert!(games.iter().any(|g| g.variant != "classic"));
    assert!(
        games
            .iter()
            .all(|g| g.samples.iter().any(|s| s.policy_target))
    );
    check_files(&games);
}

#[test]
fn chomp_games_round_trip_through_parquet() {
    let setups = ChompSetups::new(4, 5, 0.5).unwrap();
    let games = play::<Chomp>(&setups, 12, 2);
    // Played out, Chomp ends by the rules: the side left with only the poison square loses.
    for g in games.iter().filter(|g| g.termination == Termination::Rules) {
        let mut p = g.start.clone();
        for &mv in &g.moves {
            p.play(mv).unwrap();
        }
        assert_eq!(p.outcome().unwrap(), Outcome::Win(p.side_to_move().other()));
    }
    assert!(games.iter().any(|g| g.variant == "random-diagram"));
    check_files(&games);
}

#[test]
fn self_play_is_reproducible_from_its_seed() {
    let setups = PijersiSetups::parse("half-random").unwrap();
    let texts = |games: Vec<FinishedGame<Position>>| -> Vec<String> {
        games
            .iter()
            .map(|g| format!("{} {:?}", g.start.to_text(), g.moves))
            .collect()
    };
    let a = texts(play::<Position>(&setups, 3, 9));
    assert_eq!(a, texts(play::<Position>(&setups, 3, 9)));
    assert_ne!(a, texts(play::<Position>(&setups, 3, 10)));
}

#[test]
fn bad_setup_mixes_are_refused() {
    assert!(PijersiSetups::parse("classic:-1").is_err());
    assert!(PijersiSetups::parse("nosuch").is_err());
    assert!(PijersiSetups::parse("classic:0").is_err());
    assert!(PijersiSetups::parse("classic:x").is_err());
    assert!(ChompSetups::new(0, 3, 0.5).is_err());
    assert!(ChompSetups::new(3, 3, 1.5).is_err());
}
