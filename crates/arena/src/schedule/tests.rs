use super::*;
use pjlab_alphabeta::{Engine, Limits, Options as AbOptions};
use pjlab_pijersi::{Move, PijersiEval, PijersiKit, PijersiWeights, Variant};

fn spec(kind: RunKind, players: usize, variants: &str, games: u64) -> RunSpec {
    RunSpec {
        game: "pijersi".into(),
        kind,
        players: (0..players)
            .map(|i| Player {
                label: format!("p{i}"),
                spec: "random".into(),
            })
            .collect(),
        variants: variants.split(',').map(String::from).collect(),
        games,
        seed: 3,
        opening_plies: 2,
        opening_margin: None,
        max_plies: 1000,
        sprt: None,
        per_setup: false,
        command: String::new(),
        sessions: Vec::new(),
        time_per_move_ms: None,
        shard: None,
        pooled_seeds: Vec::new(),
    }
}

#[test]
fn matches_pair_colours_on_one_setup_and_opening() {
    let games = spec(RunKind::Match, 2, "classic,full-random", 9)
        .schedule::<PijersiKit>()
        .unwrap();
    assert_eq!(games.len(), 9);
    for pair in games.chunks(2).filter(|p| p.len() == 2) {
        assert_eq!((pair[0].first, pair[0].second), (0, 1));
        assert_eq!((pair[1].first, pair[1].second), (1, 0));
        assert_eq!(pair[0].start(), pair[1].start());
        assert_eq!(pair[0].opening_seed, pair[1].opening_seed);
    }
    assert_eq!(games[0].variant, Variant::Classic);
    assert_eq!(games[2].variant, Variant::FullRandom);
    // Different pairs get different openings and random setups.
    assert_ne!(games[2].start(), games[6].start());
    assert_ne!(games[0].opening_seed, games[4].opening_seed);
}

#[test]
fn balance_walks_enumerable_setups_in_order_and_tournaments_cover_every_pairing() {
    let games = spec(RunKind::Balance, 1, "pijersi-24,half-random", 48)
        .schedule::<PijersiKit>()
        .unwrap();
    assert_eq!(games.len(), 96);
    let setups: Vec<u64> = games
        .iter()
        .filter(|g| g.variant == Variant::Pijersi24)
        .map(|g| g.setup)
        .collect();
    assert_eq!(setups, (0..48).collect::<Vec<_>>());
    let all24 = Variant::Pijersi24.enumerate().unwrap();
    assert_eq!(games[0].start(), all24[0]);
    assert_eq!(games[48].start(), all24[0]);

    let games = spec(RunKind::Tournament, 3, "classic", 4)
        .schedule::<PijersiKit>()
        .unwrap();
    assert_eq!(games.len(), 3 * 4);
    for (i, j) in [(0, 1), (0, 2), (1, 2)] {
        assert_eq!(
            games
                .iter()
                .filter(|g| (g.first, g.second) == (i, j))
                .count(),
            2
        );
        assert_eq!(
            games
                .iter()
                .filter(|g| (g.first, g.second) == (j, i))
                .count(),
            2
        );
    }
    assert!(
        spec(RunKind::Match, 3, "classic", 4)
            .schedule::<PijersiKit>()
            .is_err()
    );
    assert!(
        spec(RunKind::Match, 2, "classic,nope", 4)
            .schedule::<PijersiKit>()
            .is_err()
    );
    assert!(
        spec(RunKind::Match, 2, "classic", 0)
            .schedule::<PijersiKit>()
            .is_err()
    );
}

#[test]
fn a_run_kind_the_arena_does_not_play_is_refused() {
    for kind in [
        RunKind::Training,
        RunKind::Arena,
        RunKind::NnueData,
        RunKind::NnueGenerations,
    ] {
        let err = spec(kind, 2, "classic", 4)
            .schedule::<PijersiKit>()
            .unwrap_err()
            .to_string();
        assert!(err.contains("not played by the arena"), "{kind:?}: {err}");
    }
}

#[test]
fn shards_split_the_schedule_into_disjoint_parts_of_whole_colour_pairs() {
    for (kind, players, games) in [
        (RunKind::Match, 2, 9),
        (RunKind::Tournament, 3, 4),
        (RunKind::Balance, 1, 7),
    ] {
        let whole = spec(kind, players, "classic,full-random", games);
        let all = whole.schedule::<PijersiKit>().unwrap();
        assert_eq!(whole.shard_schedule::<PijersiKit>().unwrap(), all);
        let mut joined = Vec::new();
        for k in 1..=3 {
            let part = RunSpec {
                shard: Some(Shard::new(k, 3).unwrap()),
                ..whole.clone()
            }
            .shard_schedule::<PijersiKit>()
            .unwrap();
            assert!(!part.is_empty());
            // Both games of a colour pair go to the same shard.
            for g in &all {
                let here = part.iter().any(|p| p.id == g.id);
                assert_eq!(here, part.iter().any(|p| p.pair == g.pair), "{kind:?}");
            }
            joined.extend(part);
        }
        joined.sort_by_key(|g| g.id);
        assert_eq!(joined, all, "{kind:?}");
    }
    let sharded = |games, sprt| RunSpec {
        shard: Some(Shard::new(1, 3).unwrap()),
        sprt,
        ..spec(RunKind::Match, 2, "classic", games)
    };
    let error = |s: RunSpec| s.shard_schedule::<PijersiKit>().unwrap_err().to_string();
    assert!(error(sharded(4, None)).contains("2 colour pairs"));
    let sprt = Some(crate::stats::Sprt::better_by(10.0));
    assert!(error(sharded(40, sprt)).contains("--sprt-elo"));
}

#[test]
fn openings_are_legal_and_reproducible() {
    let start = Variant::Classic.setup(0);
    let uniform = Opening {
        plies: 4,
        margin: None,
    };
    let a = random_opening::<PijersiKit>(&start, uniform, 11);
    assert_eq!(a, random_opening::<PijersiKit>(&start, uniform, 11));
    assert_ne!(a, random_opening::<PijersiKit>(&start, uniform, 12));
    let mut p = start.clone();
    for mv in a {
        assert!(p.is_legal(mv));
        p.play_unchecked(mv);
    }
    // With a margin, no opening move may be one a shallow search finds worse than the
    // margin: checked by an independent search from each opening's positions.
    let sensible = Opening {
        plies: 2,
        margin: Some(30),
    };
    let mut engine = Engine::new(
        PijersiEval::new(PijersiWeights::default()),
        AbOptions::default(),
    );
    let mut distinct = std::collections::HashSet::new();
    for seed in 0..20 {
        let moves = random_opening::<PijersiKit>(&start, sensible, seed);
        assert_eq!(moves.len(), 2);
        distinct.insert(moves.clone());
        let mut p = start.clone();
        for mv in moves {
            let mut legal = Vec::new();
            p.legal_moves(&mut legal);
            let mut score = |m: Move| -engine.search(&p.after(m), &Limits::depth(1)).score;
            let best = legal.iter().map(|&m| score(m)).max().unwrap();
            assert!(
                score(mv) >= best - 30,
                "seed {seed}: {mv} scores below the margin"
            );
            p.play_unchecked(mv);
        }
    }
    assert!(distinct.len() >= 15, "{}", distinct.len());
}
