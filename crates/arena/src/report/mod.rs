//! A run's report: `report.md` (tables), `games.csv` (one row per game), `summary.csv` (ratings,
//! or the first side's score by variant), `setups.csv` (its score by setup, enumerable variants
//! of several setups), `games.txt` (every game in the game's record notation) and SVG plots under
//! `plots/`. Sides are named as the game names them (Pijersi: White first; Abalone: Black first).
//!
//! Deterministic agents replay a game exactly when given the same start and opening. Such
//! repeats carry no new information, so every score, interval, rating and test of the report
//! counts each distinct game once ([`unique_games`]), and each table states that effective
//! number beside the number of games played. Only the time-per-move section and the files of
//! every game (`games.csv`, `games.txt`) keep the repeats.

mod balance;
pub use balance::p_text;
mod ratings;

use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;
use std::path::Path;

use pjlab_core::{Game, GameKit};

use crate::Error;
use crate::plot::Estimate;
use crate::runner::{Ending, Played, PlayedGame};
use crate::schedule::{RunKind, RunSpec};
use crate::stats::{Sprt, SprtDecision, SprtState, Wdl, wilson};

pub use balance::{Group, variant_groups};

/// The error of writing or reading `path`.
pub(crate) fn io(path: &Path) -> impl Fn(std::io::Error) -> Error + '_ {
    move |e| Error::Io {
        path: path.display().to_string(),
        message: e.to_string(),
    }
}

/// What makes two games the same game: the variant, who played which side, the start, every
/// move and the result.
type GameKey<'a, M> = (String, usize, usize, u64, &'a [M], i8);

fn key<G: Game, V: std::fmt::Display>(g: &PlayedGame<G, V>) -> GameKey<'_, G::Move> {
    (
        g.spec.variant.to_string(),
        g.spec.first,
        g.spec.second,
        g.start.hash(),
        &g.moves,
        g.result,
    )
}

/// The games that differ from every earlier one in their variant, players, start, any move or
/// result: the first of each set of identical games, in the order given.
pub fn unique_games<'a, G: Game, V: std::fmt::Display + 'a>(
    games: impl IntoIterator<Item = &'a PlayedGame<G, V>>,
) -> Vec<&'a PlayedGame<G, V>> {
    let mut seen = HashSet::new();
    games.into_iter().filter(|g| seen.insert(key(*g))).collect()
}

/// The number of distinct games (see [`unique_games`]): the effective number of games.
pub fn distinct_games<'a, G: Game, V: std::fmt::Display + 'a>(
    games: impl IntoIterator<Item = &'a PlayedGame<G, V>>,
) -> usize {
    unique_games(games).len()
}

/// A share as a percentage to one decimal.
pub fn percent(x: f64) -> String {
    format!("{:.1}", 100.0 * x)
}

/// A score with its Wilson interval, for an interval chart.
fn score_estimate(label: String, w: &Wdl) -> Estimate {
    let (low, high) = w.interval();
    Estimate {
        label,
        value: w.score(),
        low,
        high,
    }
}

fn interval(w: &Wdl) -> String {
    let (lo, hi) = w.interval();
    format!("{}-{}", percent(lo), percent(hi))
}

/// The SPRT state for the first player against the second, on colour pairs (each complete pair's
/// mean score is one unit; a pair whose two games repeat another pair's counts once), and the
/// number of units.
pub fn sprt_state<G: Game, V: std::fmt::Display>(
    sprt: &Sprt,
    games: &[PlayedGame<G, V>],
) -> (SprtState, usize) {
    let mut pairs: BTreeMap<u64, Vec<&PlayedGame<G, V>>> = BTreeMap::new();
    for g in games.iter().filter(|g| g.spec.first != g.spec.second) {
        pairs.entry(g.spec.pair).or_default().push(g);
    }
    let mut seen = HashSet::new();
    let units: Vec<f64> = pairs
        .values()
        .filter(|p| p.len() == 2 && seen.insert((key(p[0]), key(p[1]))))
        .map(|p| {
            let score = |g: &PlayedGame<G, V>| {
                let first_is_white = g.spec.first == 0;
                (f64::from(if first_is_white { g.result } else { -g.result }) + 1.0) / 2.0
            };
            (score(p[0]) + score(p[1])) / 2.0
        })
        .collect();
    (sprt.test(&units), units.len())
}

/// How a partial run named by its command line goes on: an atlas's cell with its atlas's
/// command, which skips the finished cells; any other run with `--resume`.
fn resume_hint(command: &str) -> &'static str {
    let words: Vec<&str> = command.split_whitespace().collect();
    if words.windows(2).any(|w| w == ["atlas", "run"]) {
        "its atlas's command (below) again"
    } else {
        "`--resume`"
    }
}

/// Writes the report files into `dir` and returns the Markdown. `scheduled` is the number of
/// games the run was to play, its shard's part for a shard (a smaller number played makes a
/// partial report).
///
/// # Errors
/// [`Error::Io`] when a file cannot be written.
pub fn write<K: GameKit>(
    dir: &Path,
    run: &RunSpec,
    games: &[Played<K>],
    scheduled: usize,
) -> Result<String, Error> {
    let plots = dir.join("plots");
    std::fs::create_dir_all(&plots).map_err(io(&plots))?;
    let mut games: Vec<Played<K>> = games.to_vec();
    games.sort_by_key(|g| g.spec.id);
    let mut md = String::new();
    header::<K>(&mut md, run, &games, scheduled);
    forfeits::<K>(&mut md, &games);
    match run.kind {
        RunKind::Match | RunKind::Tournament => ratings::section::<K>(&mut md, dir, run, &games)?,
        _ => {}
    }
    balance::section::<K>(&mut md, dir, run, &games)?;
    crate::timing::section::<K>(&mut md, run, &games);

    write_games_csv::<K>(&dir.join("games.csv"), run, &games)?;
    let path = dir.join("games.txt");
    std::fs::write(&path, notation::<K>(run, &games)).map_err(io(&path))?;
    // Written last and whole (a temporary file renamed into place): a report.md means a
    // whole report, so a run killed while writing one is known to need it written again.
    let path = dir.join("report.md");
    pjlab_run::write_atomic(&path, &md).map_err(|e| Error::Io {
        path: path.display().to_string(),
        message: e.to_string(),
    })?;
    Ok(md)
}

/// The report's title, its stop or partial line, and the table of what was run.
fn header<K: GameKit>(md: &mut String, run: &RunSpec, games: &[Played<K>], scheduled: usize) {
    let title = match run.kind {
        RunKind::Match => format!(
            "Match: {} vs {}",
            run.players[0].label,
            run.players.get(1).map_or("", |p| p.label.as_str())
        ),
        RunKind::Tournament => format!("Tournament of {} agents", run.players.len()),
        RunKind::Balance => format!("Setup balance with {}", run.players[0].label),
        other => format!("A {} run", other.name()),
    };
    let _ = writeln!(md, "# {title}\n");
    let decided = run
        .sprt
        .map(|test| sprt_state(&test, games).0.decision)
        .filter(|d| *d != SprtDecision::Continue);
    if let Some(decision) = decided {
        let _ = writeln!(
            md,
            "**Stopped by its SPRT after {} of {scheduled} games: {} accepted.**\n",
            games.len(),
            if decision == SprtDecision::H1 {
                "H1"
            } else {
                "H0"
            }
        );
    } else if games.len() < scheduled {
        let _ = writeln!(
            md,
            "**Partial report: {} of {scheduled} games played.** Resume with {}.\n",
            games.len(),
            resume_hint(&run.command)
        );
    }
    let _ = writeln!(md, "Command: `{}`\n", run.command);
    let _ = writeln!(md, "| | |\n|---|---|");
    for (i, p) in run.players.iter().enumerate() {
        let _ = writeln!(md, "| player {} | `{}` = `{}` |", i + 1, p.label, p.spec);
    }
    let _ = writeln!(md, "| variants | {} |", run.variants.join(", "));
    let _ = writeln!(
        md,
        "| games | {} played of {scheduled}; {} distinct (the effective number: every score, \
         interval, rating and test below counts each distinct game once) |",
        games.len(),
        distinct_games(games)
    );
    let _ = writeln!(
        md,
        "| openings | {} random plies before the agents play, {} (recorded as the games' first moves) |",
        run.opening_plies,
        match run.opening_margin {
            Some(m) => format!(
                "each among the moves within {m} centi-units of the best by a shallow search"
            ),
            None => "each uniform over the legal moves".to_string(),
        }
    );
    if run.pooled_seeds.is_empty() {
        let _ = writeln!(md, "| seed | {} |", run.seed);
    } else {
        let seeds: Vec<String> = run.pooled_seeds.iter().map(u64::to_string).collect();
        let _ = writeln!(
            md,
            "| seeds | {}: a pool of {} replicates (`pjlab report --pool`), their games one after \
             another; a game played in more than one counts once |",
            seeds.join(", "),
            seeds.len()
        );
    }
    if let Some(shard) = run.shard {
        let _ = writeln!(
            md,
            "| shard | {shard}: the colour pairs p with p mod {} = {} (`pjlab report --merge` \
             joins the {} shards into the whole run) |",
            shard.count(),
            shard.index() - 1,
            shard.count()
        );
    }
    for (i, session) in run.sessions.iter().enumerate() {
        let what = if i == 0 { "run by" } else { "resumed by" };
        let _ = writeln!(
            md,
            "| {what} | {} <br> `{}` |",
            session.describe(),
            session.command
        );
    }
    let endings = |e: Ending| games.iter().filter(|g| g.ending == e).count();
    let _ = writeln!(
        md,
        "| endings | {} by the rules, {} forfeits, {} at the {}-ply cap |\n",
        endings(Ending::Rules),
        endings(Ending::Forfeit),
        endings(Ending::MaxPlies),
        run.max_plies
    );
}

/// The forfeits, the first 20 of them.
fn forfeits<K: GameKit>(md: &mut String, games: &[Played<K>]) {
    let forfeits: Vec<&Played<K>> = games.iter().filter(|g| g.forfeit.is_some()).collect();
    if !forfeits.is_empty() {
        let _ = writeln!(md, "## Forfeits\n");
        for g in forfeits.iter().take(20) {
            let _ = writeln!(
                md,
                "- game {}: {}",
                g.spec.id,
                g.forfeit.as_deref().unwrap_or("")
            );
        }
        if forfeits.len() > 20 {
            let _ = writeln!(md, "- ... and {} more (see games.csv)", forfeits.len() - 20);
        }
        let _ = writeln!(md);
    }
}

/// `games.txt`: every game's header line and record.
fn notation<K: GameKit>(run: &RunSpec, games: &[Played<K>]) -> String {
    let mut notation = String::new();
    for g in games {
        let _ = writeln!(
            notation,
            "[game {} | {} | setup {} | {} vs {} | {} | {}]",
            g.spec.id,
            g.spec.variant,
            g.spec.setup,
            run.players[g.spec.first].label,
            run.players[g.spec.second].label,
            match g.result {
                1 => "1-0",
                -1 => "0-1",
                _ => "1/2-1/2",
            },
            g.ending.name()
        );
        notation.push_str(&K::write_record(&g.start, &g.moves));
        notation.push('\n');
    }
    notation
}

fn write_games_csv<K: GameKit>(
    path: &Path,
    run: &RunSpec,
    games: &[Played<K>],
) -> Result<(), Error> {
    let [first, second] = K::INFO.sides;
    let mut csv = format!(
        "game_id,pair,variant,setup,{first},{second},result,termination,length,opening_plies,forfeit,\
         {first}_ms_per_move,{second}_ms_per_move\n",
    );
    for g in games {
        let quote = |s: &str| format!("\"{}\"", s.replace('"', "\"\""));
        let _ = writeln!(
            csv,
            "{},{},{},{},{},{},{},{},{},{},{},{:.3},{:.3}",
            g.spec.id,
            g.spec.pair,
            g.spec.variant,
            g.spec.setup,
            quote(&run.players[g.spec.first].label),
            quote(&run.players[g.spec.second].label),
            g.result,
            g.ending.name(),
            g.moves.len(),
            run.opening_plies.min(g.moves.len() as u32),
            quote(g.forfeit.as_deref().unwrap_or("")),
            ms_per_move(&g.clocks[0]),
            ms_per_move(&g.clocks[1])
        );
    }
    std::fs::write(path, csv).map_err(io(path))
}

/// A clock's mean time a move in milliseconds, from its total in whole microseconds as records
/// keep it, so that a run's `games.csv` and one written again from its records agree.
fn ms_per_move(clock: &crate::runner::Clock) -> f64 {
    clock.total.as_micros() as f64 / f64::from(clock.moves.max(1)) / 1000.0
}

/// The share of the points won by the first side over the distinct games, with its Wilson
/// interval, for a progress line.
pub fn first_score<G: Game, V: std::fmt::Display>(games: &[PlayedGame<G, V>]) -> (f64, f64, f64) {
    let mut w = Wdl::default();
    for g in unique_games(games) {
        w.add(g.result);
    }
    let (lo, hi) = wilson(w.points(), w.games() as f64);
    (w.score(), lo, hi)
}

/// `8100` -> `8,100`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::resume_hint;

    #[test]
    fn an_atlas_cell_resumes_with_its_atlas_s_command_and_a_run_with_resume() {
        let atlas = "/opt/pjlab atlas run --spec configs/atlas-pijersi.toml --out atlas --only ab1";
        assert_eq!(resume_hint(atlas), "its atlas's command (below) again");
        for run in [
            "pjlab match --a greedy --b random",
            "pjlab balance --agent atlas",
        ] {
            assert_eq!(resume_hint(run), "`--resume`", "{run}");
        }
    }
}
