//! Runs, records, resumes and reports small matches end to end, over Pijersi, Abalone (two
//! players and doubles) and Chomp.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use pjlab_abalone::AbaloneKit;
use pjlab_agents::{Agent, Decision, build};
use pjlab_arena::{
    Ending, PlayOptions, Played, Player, RunKind, RunSpec, play_games, record, report,
};
use pjlab_chomp::ChompKit;
use pjlab_core::{BoxError, Game, GameKit};
use pjlab_pijersi::PijersiKit;

fn factory<K: GameKit>(spec: &str, seed: u64) -> Result<Box<dyn Agent<K::Game>>, BoxError> {
    if spec == "forfeiter" {
        return Ok(Box::new(Forfeiter));
    }
    Ok(build::<K>(spec, seed)?)
}

/// Gives up at its first move, as a hung engine would.
struct Forfeiter;

impl<G: Game> Agent<G> for Forfeiter {
    fn spec(&self) -> &str {
        "forfeiter"
    }
    fn decide(&mut self, _: &G) -> Decision<G::Move> {
        Decision::forfeit("no `bestmove` within 0.1 s", Instant::now())
    }
}

fn run(kind: RunKind, players: &[&str], variants: &str, games: u64) -> RunSpec {
    run_of::<PijersiKit>(kind, players, variants, games)
}

fn run_of<K: GameKit>(kind: RunKind, players: &[&str], variants: &str, games: u64) -> RunSpec {
    RunSpec {
        game: K::INFO.name.into(),
        kind,
        players: players
            .iter()
            .map(|s| Player {
                label: s.to_string(),
                spec: s.to_string(),
            })
            .collect(),
        variants: variants.split(',').map(String::from).collect(),
        games,
        seed: 5,
        opening_plies: 2,
        opening_margin: None,
        max_plies: 300,
        sprt: None,
        per_setup: true,
        command: "test".into(),
        sessions: Vec::new(),
        time_per_move_ms: None,
        shard: None,
        pooled_seeds: Vec::new(),
    }
}

fn play(
    run: &RunSpec,
    workers: usize,
    stop_after: Option<usize>,
    skip: &[u64],
) -> Vec<Played<PijersiKit>> {
    play_of::<PijersiKit>(run, workers, stop_after, skip)
}

fn play_of<K: GameKit>(
    run: &RunSpec,
    workers: usize,
    stop_after: Option<usize>,
    skip: &[u64],
) -> Vec<Played<K>> {
    let schedule: Vec<_> = run
        .schedule::<K>()
        .unwrap()
        .into_iter()
        .filter(|g| !skip.contains(&g.id))
        .collect();
    let options = PlayOptions {
        workers,
        opening: pjlab_arena::schedule::Opening {
            plies: run.opening_plies,
            margin: run.opening_margin,
        },
        max_plies: run.max_plies,
        seed: run.seed,
        overrun_after: None,
    };
    let stop = AtomicBool::new(stop_after == Some(0));
    let mut out = Vec::new();
    play_games::<K>(
        &schedule,
        &run.players,
        &factory::<K>,
        &options,
        &stop,
        &mut |g| {
            out.push(g);
            if Some(out.len()) == stop_after {
                stop.store(true, std::sync::atomic::Ordering::Relaxed);
            }
        },
    )
    .unwrap();
    out.sort_by_key(|g| g.spec.id);
    out
}

#[test]
fn results_do_not_depend_on_workers_and_survive_a_resume_through_parquet() {
    let spec = run(
        RunKind::Match,
        &["greedy", "random"],
        "classic,half-random",
        12,
    );
    let whole = play(&spec, 1, None, &[]);
    assert_eq!(whole.len(), 12);
    assert_eq!(play(&spec, 3, None, &[]), whole);

    // A run stopped before it starts plays nothing; one stopped after a game keeps whole games.
    assert!(play(&spec, 2, Some(0), &[]).is_empty());
    for game in play(&spec, 2, Some(1), &[]) {
        assert!(whole.contains(&game));
    }

    // Cut short after 5 games, saved, read back, resumed: the same 12 games.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.parquet");
    let first = play(&spec, 2, None, &[5, 6, 7, 8, 9, 10, 11]);
    assert_eq!(first.len(), 5);
    record::save::<PijersiKit>(&path, &spec, &first).unwrap();
    let (read_spec, mut kept) = record::load::<PijersiKit>(&path).unwrap();
    assert_eq!(read_spec, spec);
    assert_eq!(kept, first);
    // The sides' clocks come back to the microsecond; each side decided every move it played
    // after the random opening.
    let micros = |c: &pjlab_arena::Clock| (c.moves, c.total.as_micros(), c.max.as_micros());
    for (k, f) in kept.iter().zip(&first) {
        assert_eq!(
            k.clocks.each_ref().map(micros),
            f.clocks.each_ref().map(micros)
        );
        let decided = f.moves.len() as u32 - spec.opening_plies;
        assert_eq!(f.clocks[0].moves + f.clocks[1].moves, decided);
        assert!(f.clocks[0].moves.abs_diff(f.clocks[1].moves) <= 1);
        assert!(f.clocks.iter().all(|c| c.max <= c.total));
    }
    let done: Vec<u64> = kept.iter().map(|g| g.spec.id).collect();
    kept.extend(play(&spec, 2, None, &done));
    kept.sort_by_key(|g| g.spec.id);
    assert_eq!(kept, whole);

    // Colour pairs share setup and opening; greedy beats random overall.
    for pair in whole.chunks(2) {
        assert_eq!(pair[0].start, pair[1].start);
        assert_eq!(pair[0].moves[..2], pair[1].moves[..2]);
    }
    let greedy_points: f64 = whole
        .iter()
        .map(|g| {
            let r = if g.spec.first == 0 {
                g.result
            } else {
                -g.result
            };
            (f64::from(r) + 1.0) / 2.0
        })
        .sum();
    assert!(greedy_points > 8.0, "{greedy_points}");

    let md = report::write::<PijersiKit>(dir.path(), &spec, &whole, 12).unwrap();
    assert!(
        md.contains("## Ratings") && md.contains("## Head to head"),
        "{md}"
    );
    assert!(md.contains(&format!("{} distinct", report::distinct_games(&whole))));
    // Time per move: each player's decisions, the random openings excluded.
    let clocks = pjlab_arena::timing::player_clocks::<PijersiKit>(&spec, &whole);
    let decided: u32 = whole
        .iter()
        .map(|g| g.moves.len() as u32 - spec.opening_plies)
        .sum();
    assert_eq!(clocks[0].moves + clocks[1].moves, decided);
    assert!(md.contains("## Time per move"), "{md}");
    assert!(
        md.contains(&format!("| greedy | {} |", clocks[0].moves)),
        "{md}"
    );
    for file in [
        "report.md",
        "games.csv",
        "summary.csv",
        "games.txt",
        "plots/ratings.svg",
    ] {
        assert!(dir.path().join(file).exists(), "{file}");
    }
    let csv = std::fs::read_to_string(dir.path().join("games.csv")).unwrap();
    assert_eq!(csv.lines().count(), 13);
    let notation = std::fs::read_to_string(dir.path().join("games.txt")).unwrap();
    let parsed = notation
        .split("[game ")
        .skip(1)
        .map(|block| block.split_once('\n').unwrap().1)
        .map(|text| pjlab_pijersi::notation::parse_game(text).unwrap())
        .collect::<Vec<_>>();
    assert_eq!(parsed.len(), 12);
    for (g, p) in whole.iter().zip(&parsed) {
        assert_eq!(p.moves, g.moves);
    }
}

#[test]
fn forfeits_lose_and_balance_reports_by_setup() {
    let spec = run(RunKind::Match, &["forfeiter", "random"], "classic", 4);
    let games = play(&spec, 2, None, &[]);
    for g in &games {
        assert_eq!(g.ending, Ending::Forfeit);
        let forfeiter_white = g.spec.first == 0;
        assert_eq!(g.result, if forfeiter_white { -1 } else { 1 });
        assert!(g.forfeit.as_deref().unwrap().contains("bestmove"));
    }

    let spec = run(RunKind::Balance, &["greedy"], "pijersi-24,classic", 48);
    let games = play(&spec, 2, None, &[]);
    assert_eq!(games.len(), 96);
    let dir = tempfile::tempdir().unwrap();
    let md = report::write::<PijersiKit>(dir.path(), &spec, &games, 96).unwrap();
    assert!(md.contains("## pijersi-24 by setup"), "{md}");
    assert!(
        md.contains("One-way F test of White's score across setups"),
        "{md}"
    );
    assert!(
        md.contains("One-way F test of White's score across variants"),
        "{md}"
    );
    let setups = std::fs::read_to_string(dir.path().join("setups.csv")).unwrap();
    // 24 setups, two games each.
    assert_eq!(setups.lines().count(), 25);
    let games_column = setups
        .lines()
        .next()
        .and_then(|h| h.split(',').position(|c| c == "games"))
        .expect("a games column");
    assert!(
        setups
            .lines()
            .skip(1)
            .all(|l| l.split(',').nth(games_column) == Some("2"))
    );
    assert!(dir.path().join("plots/pijersi-24-setups.svg").exists());
}

#[test]
fn abalone_matches_seat_every_agent_and_replay_from_their_records() {
    // Two players from the Belgian daisy, and doubles (four seats, two teams): each seat gets its
    // own agent of its side's player, and the records replay under the rules.
    let spec = run_of::<AbaloneKit>(
        RunKind::Match,
        &["greedy", "random"],
        "belgian-daisy,doubles",
        8,
    );
    let games = play_of::<AbaloneKit>(&spec, 2, None, &[]);
    assert_eq!(games.len(), 8);
    assert!(games.iter().any(|g| g.start.seats() == 4));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.parquet");
    record::save::<AbaloneKit>(&path, &spec, &games).unwrap();
    let (read_spec, read) = record::load::<AbaloneKit>(&path).unwrap();
    assert_eq!(read_spec, spec);
    assert_eq!(read, games);
    assert!(
        record::load::<PijersiKit>(&path).is_err(),
        "a Pijersi reading of Abalone games"
    );
    let md = report::write::<AbaloneKit>(dir.path(), &spec, &games, 8).unwrap();
    // Abalone's first side is Black.
    assert!(md.contains("Black advantage"), "{md}");
    let csv = std::fs::read_to_string(dir.path().join("games.csv")).unwrap();
    assert!(
        csv.starts_with("game_id,pair,variant,setup,black,white,"),
        "{csv}"
    );
    let notation = std::fs::read_to_string(dir.path().join("games.txt")).unwrap();
    let starts = [
        pjlab_abalone::Variant::BelgianDaisy.start(),
        "doubles".parse::<pjlab_abalone::Variant>().unwrap().start(),
    ];
    for (block, g) in notation.split("[game ").skip(1).zip(&games) {
        let text = block.split_once('\n').unwrap().1;
        let start = starts.iter().find(|s| **s == g.start).unwrap();
        assert_eq!(
            pjlab_abalone::notation::parse_game(text, start)
                .unwrap()
                .moves,
            g.moves
        );
    }
    // A doubles seat that forfeits loses its team's game and is named.
    let spec = run_of::<AbaloneKit>(RunKind::Match, &["random", "forfeiter"], "doubles", 2);
    for g in play_of::<AbaloneKit>(&spec, 1, None, &[]) {
        assert_eq!(g.ending, Ending::Forfeit);
        let forfeit = g.forfeit.unwrap();
        assert!(forfeit.contains(" seat "), "{forfeit}");
        assert_eq!(g.result, if g.spec.second == 1 { 1 } else { -1 });
    }
}

#[test]
fn chomp_balance_finds_the_first_player_wins() {
    // The first player wins every rectangle; an exact searcher (alpha-beta to the end) finds it
    // on every bar size, a random player does not.
    let mut spec = run_of::<ChompKit>(RunKind::Balance, &["alphabeta:depth=30"], "2x3,3x3,3x4", 4);
    spec.opening_plies = ChompKit::INFO.opening_plies;
    let games = play_of::<ChompKit>(&spec, 2, None, &[]);
    assert_eq!(games.len(), 12);
    assert!(games.iter().all(|g| g.result == 1), "{games:?}");
    let dir = tempfile::tempdir().unwrap();
    let md = report::write::<ChompKit>(dir.path(), &spec, &games, 12).unwrap();
    // With no random opening the exact searcher plays one game a bar size four times: one
    // distinct game, which every figure counts once.
    assert!(md.contains("| 3x4 | 4 | 1 | 1 | 0 | 0 | 100.0 |"), "{md}");
}

#[test]
fn repeated_games_count_once_in_every_figure() {
    // A run, and the same run with every game played twice (as a deterministic agent replays a
    // start): ratings, scores, intervals and tests must not move; only the games played do.
    let spec = run(
        RunKind::Match,
        &["greedy", "random"],
        "classic,half-random",
        8,
    );
    let games = play(&spec, 2, None, &[]);
    let mut doubled = games.clone();
    doubled.extend(games.iter().cloned().map(|mut g| {
        g.spec.id += 8;
        g.spec.pair += 4;
        g
    }));
    let mut doubled_spec = spec.clone();
    doubled_spec.games = 16;
    let (once, twice) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let md_once = report::write::<PijersiKit>(once.path(), &spec, &games, 8).unwrap();
    let md_twice = report::write::<PijersiKit>(twice.path(), &doubled_spec, &doubled, 16).unwrap();
    let read = |dir: &tempfile::TempDir, file: &str| {
        std::fs::read_to_string(dir.path().join(file)).unwrap()
    };
    assert_eq!(read(&once, "summary.csv"), read(&twice, "summary.csv"));
    // variants.csv: the same but for the games-played column.
    let drop_played = |csv: String| -> Vec<String> {
        csv.lines()
            .map(|l| {
                let mut cells: Vec<&str> = l.split(',').collect();
                cells.remove(1);
                cells.join(",")
            })
            .collect()
    };
    assert_eq!(
        drop_played(read(&once, "variants.csv")),
        drop_played(read(&twice, "variants.csv"))
    );
    let section = |md: &str, title: &str| {
        let start = md.find(title).unwrap();
        let end = md[start + 1..]
            .find("\n## ")
            .map_or(md.len(), |e| start + 1 + e);
        md[start..end].to_string()
    };
    assert_eq!(
        section(&md_once, "## Head to head"),
        section(&md_twice, "## Head to head")
    );
    assert!(
        md_twice.contains("16 played of 16; 8 distinct"),
        "{md_twice}"
    );
    assert_eq!(games.len(), 8);
    assert_eq!(report::distinct_games(&doubled), 8);
}

#[test]
fn records_keep_every_decisions_effort_and_the_report_shows_it() {
    // Alpha-beta at a fixed depth against random: every alpha-beta move completes depth 2 and
    // searches nodes; random searches nothing. The records keep each decision in order, by side.
    let spec = run(
        RunKind::Match,
        &["alphabeta:depth=2", "random"],
        "classic",
        4,
    );
    let games = play(&spec, 1, None, &[]);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.parquet");
    record::save::<PijersiKit>(&path, &spec, &games).unwrap();
    let (_, back) = record::load::<PijersiKit>(&path).unwrap();
    for (g, b) in games.iter().zip(&back) {
        // Records keep whole microseconds.
        let micros =
            |m: &pjlab_arena::MoveEffort| (m.side, m.spent.as_micros(), m.depth, m.nodes, m.effort);
        let kept: Vec<_> = g.efforts.iter().map(micros).collect();
        assert_eq!(kept, b.efforts.iter().map(micros).collect::<Vec<_>>());
        assert_eq!(g.clocks.map(|c| c.nodes), b.clocks.map(|c| c.nodes));
        let opening = (spec.opening_plies as usize).min(g.moves.len());
        assert_eq!(
            b.efforts.len(),
            g.moves.len() - opening,
            "game {}",
            g.spec.id
        );
        // Replaying the moves, each decision's side is the side to move.
        let mut position = g.start.clone();
        for &mv in &g.moves[..opening] {
            position.play_unchecked(mv);
        }
        for (m, &mv) in b.efforts.iter().zip(&g.moves[opening..]) {
            let side = usize::from(Game::side_to_move(&position) == pjlab_core::Side::Second);
            assert_eq!(usize::from(m.side), side);
            // Player 0 (alpha-beta) plays the side `spec.first` names.
            let player = if side == 0 {
                g.spec.first
            } else {
                g.spec.second
            };
            if player == 0 {
                // Depth 2, or less where the search stops early on a proven result.
                assert!((1..=2).contains(&m.depth), "game {}: {m:?}", g.spec.id);
                assert!(m.nodes > 0);
            } else {
                assert_eq!((m.depth, m.nodes), (0, 0));
            }
            position.play_unchecked(mv);
        }
        // The clocks are the sums of the moves.
        for side in 0..2 {
            let moves = b.efforts.iter().filter(|m| usize::from(m.side) == side);
            let nodes: u64 = moves.clone().map(|m| m.nodes).sum();
            assert_eq!(b.clocks[side].nodes, nodes);
            assert_eq!(b.clocks[side].moves as usize, moves.count());
        }
    }
    let md = report::write::<PijersiKit>(dir.path(), &spec, &back, games.len()).unwrap();
    assert!(
        md.contains("| mean depth | mean nodes | mean effort |"),
        "{md}"
    );
    // Alpha-beta's mean depth over its moves, from the records' moves.
    let (mut depth, mut moves) = (0u64, 0u64);
    for g in &back {
        for m in &g.efforts {
            let player = if m.side == 0 {
                g.spec.first
            } else {
                g.spec.second
            };
            if player == 0 {
                depth += u64::from(m.depth);
                moves += 1;
            }
        }
    }
    let mean = format!("| {:.2} |", depth as f64 / moves as f64);
    let row = md
        .lines()
        .find(|l| l.starts_with("| alphabeta:depth=2 |"))
        .unwrap_or_else(|| panic!("no row in\n{md}"));
    assert!(row.contains(&mean), "{row} lacks {mean}");
}
