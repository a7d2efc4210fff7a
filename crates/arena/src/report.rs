//! A run's report: `report.md` (tables), `games.csv` (one row per game), `summary.csv` (ratings,
//! or the first side's score by variant), `setups.csv` (its score by setup, enumerable variants
//! of several setups), `games.txt` (every game in the game's record notation) and SVG plots under
//! `plots/`. Sides are named as the game names them (Pijersi: White first; Abalone: Black first).

use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;
use std::path::Path;

use pjlab_core::{Game, GameKit, SetupVariant};

use crate::Error;
use crate::plot::{Estimate, Series, interval_chart, line_chart};
use crate::runner::{Ending, Played, PlayedGame};
use crate::schedule::{Kind, RunSpec};
use crate::stats::{
    RatingModel, Sprt, SprtState, Wdl, fit_ratings, homogeneity, score_to_elo, wilson,
};

fn io(path: &Path) -> impl Fn(std::io::Error) -> Error + '_ {
    move |e| Error::Io {
        path: path.display().to_string(),
        message: e.to_string(),
    }
}

/// Games that differ in their start or any move.
pub fn distinct_games<'a, G: Game, V: 'a>(
    games: impl IntoIterator<Item = &'a PlayedGame<G, V>>,
) -> usize {
    games
        .into_iter()
        .map(|g| (g.start.hash(), &g.moves))
        .collect::<HashSet<_>>()
        .len()
}

/// Per-group numbers: results from the first side's view, lengths, distinct games and setups.
#[derive(Clone, Debug, Default)]
pub struct Group {
    /// The first side's wins, draws and losses.
    pub white: Wdl,
    /// Plies of each game.
    pub lengths: Vec<u32>,
    /// Distinct games.
    pub distinct: usize,
    /// Distinct setups.
    pub setups: usize,
}

impl Group {
    fn of<G: Game, V>(games: &[&PlayedGame<G, V>]) -> Group {
        let mut white = Wdl::default();
        for g in games {
            white.add(g.result);
        }
        Group {
            white,
            lengths: games.iter().map(|g| g.moves.len() as u32).collect(),
            distinct: distinct_games(games.iter().copied()),
            setups: games
                .iter()
                .map(|g| g.start.hash())
                .collect::<HashSet<_>>()
                .len(),
        }
    }

    /// Mean game length in plies.
    pub fn mean_length(&self) -> f64 {
        self.lengths.iter().map(|&l| f64::from(l)).sum::<f64>() / self.lengths.len().max(1) as f64
    }
}

fn percent(x: f64) -> String {
    format!("{:.1}", 100.0 * x)
}

fn interval(w: &Wdl) -> String {
    let (lo, hi) = w.interval();
    format!("{}-{}", percent(lo), percent(hi))
}

/// The SPRT state for the first player against the second, on colour pairs (each complete pair's
/// mean score is one unit).
pub fn sprt_state<G: Game, V>(sprt: &Sprt, games: &[PlayedGame<G, V>]) -> (SprtState, usize) {
    let mut pairs: BTreeMap<u64, Vec<f64>> = BTreeMap::new();
    for g in games.iter().filter(|g| g.spec.first != g.spec.second) {
        let first_is_white = g.spec.first == 0;
        let score = (f64::from(if first_is_white { g.result } else { -g.result }) + 1.0) / 2.0;
        pairs.entry(g.spec.pair).or_default().push(score);
    }
    let units: Vec<f64> = pairs
        .values()
        .filter(|s| s.len() == 2)
        .map(|s| (s[0] + s[1]) / 2.0)
        .collect();
    (sprt.test(&units), units.len())
}

/// Writes the report files into `dir` and returns the Markdown. `scheduled` is the number of
/// games the run was to play (a smaller number played makes a partial report).
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
    let title = match run.kind {
        Kind::Match => format!(
            "Match: {} vs {}",
            run.players[0].label,
            run.players.get(1).map_or("", |p| p.label.as_str())
        ),
        Kind::Tournament => format!("Tournament of {} agents", run.players.len()),
        Kind::Balance => format!("Setup balance with {}", run.players[0].label),
    };
    let _ = writeln!(md, "# {title}\n");
    if games.len() < scheduled {
        let _ = writeln!(
            md,
            "**Partial report: {} of {scheduled} games played.** Resume with `--resume`.\n",
            games.len()
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
        "| games | {} played of {scheduled}; {} distinct |",
        games.len(),
        distinct_games(&games)
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
    let _ = writeln!(md, "| seed | {} |", run.seed);
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

    match run.kind {
        Kind::Match | Kind::Tournament => ratings_section::<K>(&mut md, dir, run, &games)?,
        Kind::Balance => {}
    }
    balance_section::<K>(&mut md, dir, run, &games)?;
    crate::timing::section::<K>(&mut md, run, &games);

    write_games_csv::<K>(&dir.join("games.csv"), run, &games)?;
    let mut notation = String::new();
    for g in &games {
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
    let path = dir.join("games.txt");
    std::fs::write(&path, notation).map_err(io(&path))?;
    let path = dir.join("report.md");
    std::fs::write(&path, &md).map_err(io(&path))?;
    Ok(md)
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
            g.clocks[0].mean().as_secs_f64() * 1000.0,
            g.clocks[1].mean().as_secs_f64() * 1000.0
        );
    }
    std::fs::write(path, csv).map_err(io(path))
}

#[allow(clippy::needless_range_loop)] // tables indexed by player pairs
fn ratings_section<K: GameKit>(
    md: &mut String,
    dir: &Path,
    run: &RunSpec,
    games: &[Played<K>],
) -> Result<(), Error> {
    let first = title_case(K::INFO.sides[0]);
    let n = run.players.len();
    let triples: Vec<(usize, usize, i8)> = games
        .iter()
        .map(|g| (g.spec.first, g.spec.second, g.result))
        .collect();
    let model = RatingModel::default();
    let ratings = fit_ratings(n, &triples, &model);
    let mut totals = vec![Wdl::default(); n];
    let mut h2h = vec![vec![Wdl::default(); n]; n];
    for g in games {
        let (w, b) = (g.spec.first, g.spec.second);
        totals[w].add(g.result);
        totals[b].add(-g.result);
        h2h[w][b].add(g.result);
        h2h[b][w].add(-g.result);
    }
    let _ = writeln!(md, "## Ratings\n");
    let _ = writeln!(
        md,
        "Maximum likelihood over all games (BayesElo model: draws and a {first} advantage fitted, {} \
         virtual draws per pairing as prior), centred on a mean of 0; 95% intervals from the \
         observed information.\n",
        model.prior_draws
    );
    let _ = writeln!(
        md,
        "| rank | agent | Elo | 95% | games | W-D-L | score % |\n|---|---|---|---|---|---|---|"
    );
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| ratings.elo[b].total_cmp(&ratings.elo[a]));
    let mut csv = String::from("agent,spec,elo,elo_low,elo_high,games,wins,draws,losses,score\n");
    for (rank, &i) in order.iter().enumerate() {
        let t = &totals[i];
        let _ = writeln!(
            md,
            "| {} | `{}` | {:+.0} | ±{:.0} | {} | {t} | {} |",
            rank + 1,
            run.players[i].label,
            ratings.elo[i],
            ratings.half_width(i),
            t.games(),
            percent(t.score())
        );
        let _ = writeln!(
            csv,
            "\"{}\",\"{}\",{:.1},{:.1},{:.1},{},{},{},{},{:.4}",
            run.players[i].label,
            run.players[i].spec.replace('"', "\"\""),
            ratings.elo[i],
            ratings.elo[i] - ratings.half_width(i),
            ratings.elo[i] + ratings.half_width(i),
            t.games(),
            t.wins,
            t.draws,
            t.losses,
            t.score()
        );
    }
    let path = dir.join("summary.csv");
    std::fs::write(&path, csv).map_err(io(&path))?;
    let _ = writeln!(
        md,
        "\n{first} advantage {:+.0} ± {:.0} Elo; draw parameter {:.0} Elo.\n",
        ratings.advantage, ratings.advantage_half_width, ratings.draw_elo
    );
    let _ = writeln!(md, "## Head to head\n");
    let _ = writeln!(
        md,
        "| agent | opponent | games | W-D-L | score % | 95% Wilson | Elo difference (ML, 95%) |\n|---|---|---|---|---|---|---|"
    );
    for i in 0..n {
        for j in 0..n {
            let w = &h2h[i][j];
            if i == j || w.games() == 0 || (n > 2 && i > j) {
                continue;
            }
            let _ = writeln!(
                md,
                "| `{}` | `{}` | {} | {w} | {} | {} | {:+.0} ± {:.0} |",
                run.players[i].label,
                run.players[j].label,
                w.games(),
                percent(w.score()),
                interval(w),
                ratings.elo[i] - ratings.elo[j],
                ratings.difference_half_width(i, j)
            );
        }
    }
    if n > 2 {
        let _ = writeln!(md, "\nCross table (row's score % against column):\n");
        let _ = write!(md, "| |");
        for p in &run.players {
            let _ = write!(md, " `{}` |", p.label);
        }
        let _ = writeln!(md, "\n|---|{}", "---|".repeat(n));
        for i in 0..n {
            let _ = write!(md, "| `{}` |", run.players[i].label);
            for j in 0..n {
                let w = &h2h[i][j];
                if i == j || w.games() == 0 {
                    let _ = write!(md, " |");
                } else {
                    let _ = write!(md, " {} |", percent(w.score()));
                }
            }
            let _ = writeln!(md);
        }
    }
    if let Some(sprt) = &run.sprt {
        let (state, pairs) = sprt_state(sprt, games);
        let _ = writeln!(
            md,
            "\n## SPRT\n\nH0: `{}` is {:+} Elo against `{}`; H1: {:+} Elo (alpha {}, beta {}). On {} \
             colour pairs (pentanomial, normal approximation): LLR {:.2} in [{:.2}, {:.2}]: **{}**.",
            run.players[0].label,
            sprt.elo0,
            run.players[1].label,
            sprt.elo1,
            sprt.alpha,
            sprt.beta,
            pairs,
            state.llr,
            state.lower,
            state.upper,
            match state.decision {
                crate::stats::SprtDecision::H1 => "H1 accepted: better",
                crate::stats::SprtDecision::H0 => "H0 accepted: not better",
                crate::stats::SprtDecision::Continue => "undecided",
            }
        );
    }
    if n == 2 {
        let variants = run.parsed_variants::<K>()?;
        if variants.len() > 1 {
            let _ = writeln!(
                md,
                "\n### `{}` by variant\n\n| variant | games | W-D-L | score % | 95% Wilson |\n|---|---|---|---|---|",
                run.players[0].label
            );
            let mut estimates = Vec::new();
            for v in &variants {
                let mut w = Wdl::default();
                for g in games.iter().filter(|g| g.spec.variant == *v) {
                    w.add(if g.spec.first == 0 {
                        g.result
                    } else {
                        -g.result
                    });
                }
                let _ = writeln!(
                    md,
                    "| {} | {} | {w} | {} | {} |",
                    v,
                    w.games(),
                    percent(w.score()),
                    interval(&w)
                );
                let (low, high) = w.interval();
                estimates.push(Estimate {
                    label: v.to_string(),
                    value: w.score(),
                    low,
                    high,
                });
            }
            interval_chart(
                &dir.join("plots/score-by-variant.svg"),
                &format!("{} score by variant (95% Wilson)", run.players[0].label),
                "score",
                &estimates,
                Some(0.5),
            )?;
            let _ = writeln!(md, "\n![score by variant](plots/score-by-variant.svg)");
        }
    }
    // Rating curves: the fit over the first k games (in schedule order), at up to 20 points.
    let steps = 20.min(games.len());
    if steps >= 2 && n >= 2 {
        let mut series: Vec<Vec<(f64, f64)>> = vec![Vec::new(); n];
        for s in 1..=steps {
            let k = games.len() * s / steps;
            let r = fit_ratings(n, &triples[..k], &model);
            for (i, points) in series.iter_mut().enumerate() {
                points.push((k as f64, r.elo[i]));
            }
        }
        let named: Vec<Series<'_>> = series
            .into_iter()
            .enumerate()
            .map(|(i, points)| Series {
                name: &run.players[i].label,
                points,
            })
            .collect();
        line_chart(
            &dir.join("plots/ratings.svg"),
            "Ratings as games accumulate",
            "games",
            "Elo (mean 0)",
            &named,
        )?;
        let _ = writeln!(md, "\n![rating curves](plots/ratings.svg)\n");
    }
    Ok(())
}

fn balance_section<K: GameKit>(
    md: &mut String,
    dir: &Path,
    run: &RunSpec,
    games: &[Played<K>],
) -> Result<(), Error> {
    let variants = run.parsed_variants::<K>()?;
    let (f, s) = (K::INFO.sides[0], K::INFO.sides[1]);
    let (first, second) = (title_case(f), title_case(s));
    let groups: Vec<(K::Variant, Group)> = variants
        .iter()
        .map(|&v| {
            let members: Vec<&Played<K>> = games.iter().filter(|g| g.spec.variant == v).collect();
            (v, Group::of(&members))
        })
        .collect();
    let counts: Vec<String> = K::variants()
        .into_iter()
        .filter_map(|v| v.count().map(|n| format!("{v} {}", thousands(n))))
        .collect();
    let renamings = <K::Variant as SetupVariant>::classes("")
        .last()
        .map(|(_, title, _)| format!(", not divided by {title}"))
        .unwrap_or_default();
    let _ = writeln!(md, "## First-player balance by variant\n");
    let _ = writeln!(
        md,
        "{first}'s score (a win 1, a draw 1/2) with its 95% Wilson interval; the Elo column turns \
         the score into {first}'s advantage on the logistic Elo scale. Setup counts are **raw** \
         ({}){renamings}.\n",
        counts.join(", ")
    );
    let _ = writeln!(
        md,
        "| variant | games | {first} wins | draws | {second} wins | {first} score % | 95% Wilson | {first} Elo | draw % | mean length | distinct games | setups seen |\n|---|---|---|---|---|---|---|---|---|---|---|---|"
    );
    let mut csv = format!(
        "variant,games,{f}_wins,draws,{s}_wins,{f}_score,score_low,score_high,draw_rate,mean_length,distinct_games,setups_seen,setups_raw\n",
    );
    let mut estimates = Vec::new();
    for (v, g) in &groups {
        let w = &g.white;
        let (low, high) = w.interval();
        let count = v.count().map_or("random".to_string(), |c| c.to_string());
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} | {} | {} | {:+.0} | {} | {:.1} | {} | {} of {} |",
            v,
            w.games(),
            w.wins,
            w.draws,
            w.losses,
            percent(w.score()),
            interval(w),
            score_to_elo(w.score().clamp(1e-6, 1.0 - 1e-6)) + 0.0,
            percent(w.draw_rate()),
            g.mean_length(),
            g.distinct,
            g.setups,
            count
        );
        let _ = writeln!(
            csv,
            "{},{},{},{},{},{:.4},{:.4},{:.4},{:.4},{:.2},{},{},{}",
            v,
            w.games(),
            w.wins,
            w.draws,
            w.losses,
            w.score(),
            low,
            high,
            w.draw_rate(),
            g.mean_length(),
            g.distinct,
            g.setups,
            count
        );
        estimates.push(Estimate {
            label: v.to_string(),
            value: w.score(),
            low,
            high,
        });
    }
    if run.kind == Kind::Balance {
        let path = dir.join("summary.csv");
        std::fs::write(&path, csv).map_err(io(&path))?;
    } else {
        let path = dir.join("variants.csv");
        std::fs::write(&path, csv).map_err(io(&path))?;
    }
    let table: Vec<Vec<f64>> = groups.iter().map(|(_, g)| g.white.row()).collect();
    if let Some(test) = homogeneity(&table) {
        let _ = writeln!(
            md,
            "\nDo the variants differ? Chi-square test of homogeneity of ({first} win, draw, {second} \
             win) across variants: chi2 = {:.1} on {} degrees of freedom, **p = {:.2e}**{}.\n",
            test.statistic,
            test.df,
            test.p_value,
            if test.p_value < 0.05 {
                ": they differ at the 5% level"
            } else {
                ": no difference shown at the 5% level"
            }
        );
    }
    interval_chart(
        &dir.join(format!("plots/{f}-score.svg")),
        &format!("{first}'s score by variant (95% Wilson)"),
        &format!("{first} score"),
        &estimates,
        Some(0.5),
    )?;
    let _ = writeln!(md, "![{first}'s score by variant](plots/{f}-score.svg)\n");
    // Length distributions: share of games per 10-ply bin.
    let names: Vec<String> = groups.iter().map(|(v, _)| v.to_string()).collect();
    let series: Vec<Series<'_>> = groups
        .iter()
        .zip(&names)
        .filter(|((_, g), _)| !g.lengths.is_empty())
        .map(|((_, g), name)| {
            let max = g.lengths.iter().copied().max().unwrap_or(0) / 10;
            let mut bins = vec![0usize; max as usize + 1];
            for &l in &g.lengths {
                bins[(l / 10) as usize] += 1;
            }
            Series {
                name,
                points: bins
                    .iter()
                    .enumerate()
                    .map(|(b, &c)| (10.0 * b as f64 + 5.0, c as f64 / g.lengths.len() as f64))
                    .collect(),
            }
        })
        .collect();
    line_chart(
        &dir.join("plots/lengths.svg"),
        "Game lengths",
        "plies (10-ply bins)",
        "share of games",
        &series,
    )?;
    let _ = writeln!(md, "![game lengths](plots/lengths.svg)\n");
    per_setup_section::<K>(md, dir, games, &variants, run.per_setup)
}

fn per_setup_section<K: GameKit>(
    md: &mut String,
    dir: &Path,
    games: &[Played<K>],
    variants: &[K::Variant],
    tables: bool,
) -> Result<(), Error> {
    let (f, s) = (K::INFO.sides[0], K::INFO.sides[1]);
    let first = title_case(f);
    let describe =
        |start: &K::Game| <K::Variant as SetupVariant>::describe(start).unwrap_or_default();
    let classes = <K::Variant as SetupVariant>::classes;
    let class_columns: String = classes("")
        .iter()
        .map(|(column, _, _)| format!("{column},"))
        .collect();
    let mut csv = format!(
        "variant,setup,layout,{class_columns}games,{f}_wins,draws,{s}_wins,{f}_score,score_low,score_high,mean_length\n",
    );
    let mut any = false;
    for &v in variants {
        let Some(count) = v.count().filter(|&c| c > 1) else {
            continue;
        };
        let mut by_setup: BTreeMap<u64, Vec<&Played<K>>> = BTreeMap::new();
        for g in games.iter().filter(|g| g.spec.variant == v) {
            by_setup.entry(g.spec.setup % count).or_default().push(g);
        }
        if by_setup.is_empty() {
            continue;
        }
        any = true;
        let rows: Vec<(u64, String, Group)> = by_setup
            .iter()
            .map(|(&s, members)| (s, describe(&members[0].start), Group::of(members)))
            .collect();
        for (s, lay, g) in &rows {
            let (lo, hi) = g.white.interval();
            let class_values: String = classes(lay)
                .iter()
                .map(|(_, _, c)| format!("{c},"))
                .collect();
            let _ = writeln!(
                csv,
                "{},{},{},{class_values}{},{},{},{},{:.4},{:.4},{:.4},{:.2}",
                v,
                s,
                lay,
                g.white.games(),
                g.white.wins,
                g.white.draws,
                g.white.losses,
                g.white.score(),
                lo,
                hi,
                g.mean_length()
            );
        }
        let table: Vec<Vec<f64>> = rows.iter().map(|(_, _, g)| g.white.row()).collect();
        let _ = writeln!(md, "## {v} by setup\n");
        let note = <K::Variant as SetupVariant>::setups_note(count)
            .map_or_else(String::new, |n| format!(" ({n})"));
        let _ = writeln!(md, "{} of its {count} raw setups played{note}.", rows.len());
        // The chi-square approximation wants about 5 games a setup or more.
        let per_setup_games =
            rows.iter().map(|(_, _, g)| g.white.games()).sum::<u64>() as f64 / rows.len() as f64;
        match homogeneity(&table) {
            Some(test) if per_setup_games >= 5.0 => {
                let _ = writeln!(
                    md,
                    "Chi-square test that all its setups give {first} the same chances: chi2 = \
                     {:.1} on {} degrees of freedom, p = {:.2e}.",
                    test.statistic, test.df, test.p_value
                );
            }
            _ => {
                let _ = writeln!(
                    md,
                    "With {per_setup_games:.1} games a setup, no test across setups is made."
                );
            }
        }
        let _ = writeln!(md);
        if count <= 36 && tables {
            let _ = writeln!(
                md,
                "| setup | {} | games | W-D-L | {first} score % | 95% Wilson | mean length |\n|---|---|---|---|---|---|---|",
                <K::Variant as SetupVariant>::DESCRIPTION
            );
            let mut estimates = Vec::new();
            for (s, lay, g) in &rows {
                let w = &g.white;
                let _ = writeln!(
                    md,
                    "| {s} | `{lay}` | {} | {w} | {} | {} | {:.1} |",
                    w.games(),
                    percent(w.score()),
                    interval(w),
                    g.mean_length()
                );
                let (low, high) = w.interval();
                estimates.push(Estimate {
                    label: format!("{s}"),
                    value: w.score(),
                    low,
                    high,
                });
            }
            let file = format!("plots/{v}-setups.svg");
            interval_chart(
                &dir.join(&file),
                &format!("{first}'s score by {v} setup (95% Wilson)"),
                &format!("{first} score"),
                &estimates,
                Some(0.5),
            )?;
            let _ = writeln!(md, "\n![{first}'s score by setup]({file})\n");
            for (k, (_, title, _)) in classes("").into_iter().enumerate() {
                let mut grouped: BTreeMap<String, (usize, Wdl)> = BTreeMap::new();
                for (_, lay, g) in &rows {
                    let entry = grouped.entry(classes(lay).swap_remove(k).2).or_default();
                    entry.0 += 1;
                    entry.1 += g.white;
                }
                let _ = writeln!(
                    md,
                    "By class under {title} ({} classes):\n\n| class (smallest layout) | setups | games | {first} score % | 95% Wilson |\n|---|---|---|---|---|",
                    grouped.len()
                );
                for (class, (setups, w)) in &grouped {
                    let _ = writeln!(
                        md,
                        "| `{class}` | {setups} | {} | {} | {} |",
                        w.games(),
                        percent(w.score()),
                        interval(w)
                    );
                }
                let _ = writeln!(md);
            }
        } else {
            let _ = writeln!(md, "Every setup's numbers are in `setups.csv`.\n");
        }
    }
    if any {
        let path = dir.join("setups.csv");
        std::fs::write(&path, csv).map_err(io(&path))?;
    }
    Ok(())
}

/// The share of the points won by the first side, with its Wilson interval, for a progress line.
pub fn first_score<G: Game, V>(games: &[PlayedGame<G, V>]) -> (f64, f64, f64) {
    let mut w = Wdl::default();
    for g in games {
        w.add(g.result);
    }
    let (lo, hi) = wilson(w.points(), w.games() as f64);
    (w.score(), lo, hi)
}

/// `white` -> `White`.
fn title_case(name: &str) -> String {
    let mut chars = name.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// `8100` -> `8,100`.
fn thousands(n: u64) -> String {
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
