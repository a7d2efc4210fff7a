//! The atlas's report: every cell's first-player score by variant, level and protocol, the
//! levels' ladder, the protocols compared, the variants compared with a family-wise correction,
//! what a designer should pick, and one chart per protocol of the first side's score against
//! the levels' Elo. Every figure is computed from the cells' game records, each distinct game
//! counted once.

use std::fmt::Write as _;
use std::path::Path;

use pjlab_core::GameKit;

use super::Atlas;
use super::compare::{classes_section, protocols_compared, variants_compared};
pub use super::results::{ClassMeasure, LadderRatings, Measure, Progress, Results, collect, holm};
use super::results::{pairwise, pooled_difference, ranked};
use crate::Error;
use crate::plot::{Series, line_chart};
use crate::report::{Group, io, p_text, percent as pct, title_case as title};
use crate::stats::{Wdl, wilson};
use crate::table::Table;

/// Writes `report.md`, `atlas.csv` and `plots/first-score-<protocol>.svg` into `dir`, and
/// returns the Markdown.
///
/// # Errors
/// As [`collect`], and [`Error::Io`] or [`Error::Plot`] when a file cannot be written.
pub fn write<K: GameKit>(dir: &Path, atlas: &Atlas) -> Result<String, Error> {
    let results = collect::<K>(dir, atlas)?;
    write_results::<K>(dir, atlas, &results)
}

/// Writes the report of `results` (read by [`collect`]) into `dir`, as [`write`] does.
///
/// # Errors
/// [`Error::Io`] or [`Error::Plot`] when a file cannot be written.
pub fn write_results<K: GameKit>(
    dir: &Path,
    atlas: &Atlas,
    results: &Results,
) -> Result<String, Error> {
    let first = title(K::INFO.sides[0]);
    let mut md = String::new();
    let _ = writeln!(md, "# Balance atlas: {}\n", title(&atlas.game));
    let _ = writeln!(
        md,
        "{first}'s score (the first side's; a win 1, a draw 1/2) in each setup variant, at every \
         strength level and under every opening protocol of `atlas.toml`. Every figure counts \
         each distinct game once; intervals are 95% (Wilson for a score). Every cell plays a \
         fixed number of games, no early stop; a level plays on a fixed depth, node or \
         simulation budget.\n"
    );
    answer(&mut md, atlas, results, &first);
    pick_section(&mut md, atlas, results, &first);
    levels_section(&mut md, atlas, results);
    std::fs::create_dir_all(dir.join("plots")).map_err(io(&dir.join("plots")))?;
    for p in 0..atlas.protocols.len() {
        protocol_section(&mut md, dir, atlas, results, p, &first)?;
    }
    if atlas.protocols.len() > 1 {
        protocols_compared(&mut md, atlas, results, &first);
    }
    variants_compared(&mut md, atlas, results);
    classes_section(&mut md, atlas, results, &first);
    progress_section(&mut md, results);
    let csv = atlas_csv(atlas, results);
    let path = dir.join("atlas.csv");
    std::fs::write(&path, csv).map_err(io(&path))?;
    let path = dir.join("report.md");
    std::fs::write(&path, &md).map_err(io(&path))?;
    Ok(md)
}

/// A difference in points with its sign and one decimal (`+1.3`, `-0.4`); one that rounds to
/// zero is `+0.0`, never `-0.0`.
pub(super) fn signed(points: f64) -> String {
    let text = format!("{points:+.1}");
    if text == "-0.0" { "+0.0".into() } else { text }
}

pub(super) fn score_text(w: &Wdl) -> String {
    let (low, high) = w.interval();
    format!("{}% ({}-{})", pct(w.score()), pct(low), pct(high))
}

/// A rate in percent with its 95% Wilson interval: `1.1 (0.8-1.5)`.
fn rate_text(count: u64, of: u64) -> String {
    let (low, high) = wilson(count as f64, of as f64);
    format!(
        "{} ({}-{})",
        pct(count as f64 / of.max(1) as f64),
        pct(low),
        pct(high)
    )
}

/// The mean game length in plies with the half-width of its 95% interval (normal, from the
/// lengths' sample deviation): `24.8 ± 0.3`.
fn length_text(group: &Group) -> String {
    let n = group.lengths.len() as f64;
    let mean = group.mean_length();
    if n < 2.0 {
        return format!("{mean:.1}");
    }
    let variance = group
        .lengths
        .iter()
        .map(|&l| (f64::from(l) - mean).powi(2))
        .sum::<f64>()
        / (n - 1.0);
    format!("{mean:.1} ± {:.1}", 1.96 * (variance / n).sqrt())
}

fn level_label(atlas: &Atlas, results: &Results, level: usize) -> String {
    let name = &atlas.levels[level].name;
    match &results.ladder {
        Some(l) => format!(
            "`{name}` (Elo {:+.0} ± {:.0})",
            l.elo[level], l.half_width[level]
        ),
        None => format!("`{name}`"),
    }
}

/// The variants of a protocol, in the atlas's order.
pub(super) fn variants_of(atlas: &Atlas, protocol: usize) -> Vec<String> {
    atlas.protocols[protocol]
        .runs
        .iter()
        .flat_map(|r| r.variants.iter().cloned())
        .collect()
}

/// The plain-words answer at the top level finished (or the top level played, marked partial).
fn answer(md: &mut String, atlas: &Atlas, results: &Results, first: &str) {
    let _ = writeln!(md, "## The answer\n");
    let main = 0;
    let top = results.top_complete(atlas, main);
    let Some(level) = top.or_else(|| results.measures.iter().map(|m| m.level).max()) else {
        let _ = writeln!(md, "No cell has played a game yet.\n");
        return;
    };
    let partial = if top.is_some() {
        ""
    } else {
        " (**partial**: no level has finished its cells yet)"
    };
    let ms = ranked(results, level, main);
    let scores: Vec<String> = variants_of(atlas, main)
        .iter()
        .filter_map(|v| results.find(level, main, v))
        .map(|m| format!("{} in {}", score_text(&m.group.white), m.variant))
        .collect();
    let _ = writeln!(
        md,
        "- At the strongest level finished, {}{partial}, under the main protocol ({}), {first} \
         scores {}.",
        level_label(atlas, results, level),
        atlas.protocols[main].name,
        scores.join(", ")
    );
    if let (Some(best), Some(worst)) = (ms.first(), ms.last())
        && ms.len() > 1
    {
        let pairs = pairwise(&ms);
        let gap = pairs.iter().find(|p| {
            (p.a == best.variant && p.b == worst.variant)
                || (p.b == best.variant && p.a == worst.variant)
        });
        let shown = gap.is_some_and(|g| g.holm_p < 0.05);
        if pairs.is_empty() {
            let _ = writeln!(
                md,
                "- Closest to 50%: **{}** ({}). Furthest: **{}** ({}). No two variants can be \
                 compared: each has fewer than two distinct games, or scores that do not vary.",
                best.variant,
                score_text(&best.group.white),
                worst.variant,
                score_text(&worst.group.white),
            );
        } else {
            let _ = writeln!(
                md,
                "- Closest to 50%: **{}** ({}). Furthest: **{}** ({}). The difference between them \
             is {} (Holm-corrected over the {} of variants{}).",
                best.variant,
                score_text(&best.group.white),
                worst.variant,
                score_text(&worst.group.white),
                if shown { "shown" } else { "not shown" },
                if pairs.len() == 1 {
                    "1 pair".to_string()
                } else {
                    format!("{} pairs", pairs.len())
                },
                gap.map_or(String::new(), |g| format!(", p = {}", p_text(g.holm_p)))
            );
            if pairs.iter().all(|p| p.holm_p >= 0.05) {
                let _ = writeln!(
                    md,
                    "- No two variants differ at this level (Holm 5%): the data do not rank them."
                );
            }
        }
        if level > 0 {
            let below = ranked(results, level - 1, main);
            if let Some(b) = below.first() {
                let _ = writeln!(
                    md,
                    "- At the level below, {}, the variant closest to 50% is {} ({}): the \
                     choice {}.",
                    level_label(atlas, results, level - 1),
                    b.variant,
                    score_text(&b.group.white),
                    if b.variant == best.variant {
                        "would not change"
                    } else {
                        "would change"
                    }
                );
            }
        }
    }
    if atlas.per_setup {
        let reports: Vec<String> = atlas
            .cells()
            .iter()
            .zip(&results.progress)
            .filter(|(c, g)| {
                c.level.as_deref() == Some(atlas.levels[level].name.as_str()) && g.played > 0
            })
            .map(|(c, _)| {
                let dir = c.dir.display().to_string();
                format!("[{dir}]({dir}/report.md)")
            })
            .collect();
        let _ = writeln!(
            md,
            "- By setup, and by class of setups equal under the renamings of the pieces, at this \
             level: the per-setup tables of {}.",
            reports.join(", ")
        );
    }
    if atlas.protocols.len() > 1 {
        for p in 1..atlas.protocols.len() {
            if let Some((d, low, high)) = pooled_difference(results, level, p, main) {
                let (played, scheduled) = results.games_of(atlas, level, p);
                let partial = if played < scheduled {
                    format!(" (**partial**: {played} of its {scheduled} games played)")
                } else {
                    String::new()
                };
                let _ = writeln!(
                    md,
                    "- Under the {} protocol at the same level{partial}, {first}'s score pooled \
                     over the variants less the main protocol's is {} points ({} to {}): {}.",
                    atlas.protocols[p].name,
                    signed(100.0 * d),
                    signed(100.0 * low),
                    signed(100.0 * high),
                    if low > 0.0 || high < 0.0 {
                        "the protocols disagree"
                    } else {
                        "no difference is shown"
                    }
                );
            }
        }
    }
    let _ = writeln!(md);
}

/// The variants at the strongest level finished under the main protocol, closest to 50% first,
/// with their rank at the level below.
fn pick_section(md: &mut String, atlas: &Atlas, results: &Results, first: &str) {
    let Some(level) = results.top_complete(atlas, 0) else {
        return;
    };
    let ms = ranked(results, level, 0);
    let below = if level > 0 {
        ranked(results, level - 1, 0)
    } else {
        Vec::new()
    };
    let _ = writeln!(
        md,
        "## What a designer should pick
"
    );
    let different = pairwise(&ms).iter().filter(|x| x.holm_p < 0.05).count();
    let _ = writeln!(
        md,
        "The variants at `{}` under the main protocol, the fairest (closest to 50%) first: an \
         interval that holds 50% means no first-move edge is shown. {} The last column is the \
         variant's rank at the level below{}.\n",
        atlas.levels[level].name,
        match different {
            0 => "No two of them differ (Holm 5%, below): the order is that of the point \
                  estimates, which the data do not confirm."
                .to_string(),
            1 => "One pair of them differs (Holm 5%, below).".to_string(),
            n => format!("{n} pairs of them differ (Holm 5%, below)."),
        },
        if atlas.per_setup {
            "; the classes of setups are further down"
        } else {
            ""
        }
    );
    let mut table = Table::new([
        "rank".to_string(),
        "variant".into(),
        format!("{first} score %"),
        "95% Wilson".into(),
        "distance from 50% (points)".into(),
        "rank a level below".into(),
    ]);
    for (rank, m) in ms.iter().enumerate() {
        let w = &m.group.white;
        let (low, high) = w.interval();
        let before = below
            .iter()
            .position(|b| b.variant == m.variant)
            .map_or("-".to_string(), |r| (r + 1).to_string());
        table.row([
            (rank + 1).to_string(),
            m.variant.clone(),
            pct(w.score()),
            format!("{}-{}", pct(low), pct(high)),
            format!("{:.1}", 100.0 * (w.score() - 0.5).abs()),
            before,
        ]);
    }
    let _ = writeln!(md, "{table}");
}

fn levels_section(md: &mut String, atlas: &Atlas, results: &Results) {
    let _ = writeln!(md, "## Levels\n");
    let _ = writeln!(
        md,
        "{}\n",
        match &results.ladder {
            Some(l) => format!(
                "Elo from the ladder, a round robin of the levels (`ladder/`): maximum likelihood \
                 over its {} distinct games{}, mean 0, 95% intervals.",
                l.games,
                if l.complete { "" } else { " (**partial**)" }
            ),
            None => "The ladder (a round robin of the levels) has not been played yet: the \
                     charts' x-axis is the level's rank."
                .to_string(),
        }
    );
    let mut table = Table::new(["level", "agent", "what it is", "Elo", "95%"]);
    for (i, level) in atlas.levels.iter().enumerate() {
        let (elo, half) = match &results.ladder {
            Some(l) => (
                format!("{:+.0}", l.elo[i]),
                format!("±{:.0}", l.half_width[i]),
            ),
            None => ("-".into(), "-".into()),
        };
        table.row([
            format!("`{}`", level.name),
            format!("`{}`", level.agent),
            level.about.clone(),
            elo,
            half,
        ]);
    }
    let _ = writeln!(md, "{table}");
}

/// The x position of each level on the charts: its Elo, or its rank without a ladder.
fn level_x(atlas: &Atlas, results: &Results) -> Vec<f64> {
    match &results.ladder {
        Some(l) => l.elo.clone(),
        None => (1..=atlas.levels.len()).map(|i| i as f64).collect(),
    }
}

fn protocol_section(
    md: &mut String,
    dir: &Path,
    atlas: &Atlas,
    results: &Results,
    p: usize,
    first: &str,
) -> Result<(), Error> {
    let protocol = &atlas.protocols[p];
    let _ = writeln!(
        md,
        "## {first}'s score under the {} protocol\n\n{}\n",
        protocol.name,
        if protocol.about.is_empty() {
            String::new()
        } else {
            format!("{}.", title(&protocol.about))
        }
    );
    let mut table = Table::new([
        "variant",
        "level",
        "distinct games",
        "W-D-L",
        "score %",
        "95% Wilson",
        "draw % (95%)",
        "decisive % (95%)",
        "mean length (95%)",
    ]);
    let xs = level_x(atlas, results);
    // Every chart lists the variants in one order (the main protocol's, then any others), so
    // that a variant keeps its colour from chart to chart.
    let mut variants = variants_of(atlas, 0);
    for v in variants_of(atlas, p) {
        if !variants.contains(&v) {
            variants.push(v);
        }
    }
    let variants: Vec<String> = variants
        .into_iter()
        .filter(|v| variants_of(atlas, p).contains(v))
        .collect();
    // Each variant's line: its name, its points and their intervals, (x, low, high).
    type Line = (String, Vec<(f64, f64)>, Vec<(f64, f64, f64)>);
    let mut lines: Vec<Line> = Vec::new();
    for v in &variants {
        let mut points = Vec::new();
        let mut band = Vec::new();
        for l in 0..atlas.levels.len() {
            let Some(m) = results.find(l, p, v) else {
                continue;
            };
            let w = &m.group.white;
            let (low, high) = w.interval();
            table.row([
                v.clone(),
                format!(
                    "`{}`{}",
                    atlas.levels[l].name,
                    if m.complete { "" } else { " (partial)" }
                ),
                m.group.distinct.to_string(),
                w.to_string(),
                pct(w.score()),
                format!("{}-{}", pct(low), pct(high)),
                rate_text(w.draws, w.games()),
                rate_text(w.games() - w.draws, w.games()),
                length_text(&m.group),
            ]);
            // Each variant a little apart from the others on the x-axis, so that the error
            // bars of one level do not hide each other.
            let spread = (xs.iter().copied().fold(f64::MIN, f64::max)
                - xs.iter().copied().fold(f64::MAX, f64::min))
            .max(1.0);
            let x =
                xs[l] + spread * 0.008 * (lines.len() as f64 - (variants.len() as f64 - 1.0) / 2.0);
            points.push((x, 100.0 * w.score()));
            band.push((x, 100.0 * low, 100.0 * high));
        }
        if !points.is_empty() {
            lines.push((v.clone(), points, band));
        }
    }
    if table.is_empty() {
        let _ = writeln!(md, "No games yet.\n");
        return Ok(());
    }
    let _ = writeln!(md, "{table}");
    let file = format!("plots/first-score-{}.svg", protocol.name);
    let x_label = if results.ladder.is_some() {
        "level's Elo on the ladder"
    } else {
        "level (rank, weakest first)"
    };
    let (x0, x1) = xs
        .iter()
        .fold((f64::MAX, f64::MIN), |(a, b), &x| (a.min(x), b.max(x)));
    let mut series: Vec<Series<'_>> = lines
        .iter()
        .map(|(name, points, bars)| Series::new(name, points.clone()).with_errors(bars.clone()))
        .collect();
    series.push(Series::new(
        "50% (no first-move edge)",
        vec![(x0, 50.0), (x1, 50.0)],
    ));
    line_chart(
        &dir.join(&file),
        &format!(
            "{} {first}'s score by strength, {} protocol",
            title(&atlas.game),
            protocol.name
        ),
        x_label,
        &format!("{first}'s score % (95% Wilson)"),
        &series,
    )?;
    let _ = writeln!(md, "\n![{first}'s score against the levels' Elo]({file})\n");
    Ok(())
}

fn progress_section(md: &mut String, results: &Results) {
    let _ = writeln!(md, "## Cells\n");
    let _ = writeln!(
        md,
        "Each cell is a run directory that `pjlab report`, `pjlab report --pool` and `pjlab show` \
         read; its own report has the per-setup tables (grouped under the renamings of the \
         setups where the variant has them) and the time each move took. Thinking hours are the \
         wall-clock time of every move, summed over the games played (one core each), on the \
         processors named: on an otherwise idle machine they are CPU-hours; a run at low \
         priority beside other work, or paused, counts its waits too. CPU-hours leave the large \
         waits out: a move that ran at under half its player's median rate of work (nodes, or \
         simulations, a second) and lost over 10 ms by it waited, and counts its work at that \
         median rate instead (an estimate: the median is taken for a free core's rate).\n"
    );
    let mut table = Table::new([
        "cell",
        "games played",
        "scheduled",
        "thinking hours",
        "CPU-hours",
        "processor",
        "report",
    ]);
    for c in &results.progress {
        let dir = c.dir.display().to_string();
        table.row([
            format!("`{dir}`"),
            c.played.to_string(),
            c.scheduled.to_string(),
            // `+ 0.0` turns the empty sum's -0 into 0.
            format!("{:.2}", c.thinking_seconds / 3600.0 + 0.0),
            format!("{:.2}", c.cpu_seconds / 3600.0 + 0.0),
            c.cpus.join("; "),
            if c.played > 0 {
                format!("[{dir}/report.md]({dir}/report.md)")
            } else {
                "-".into()
            },
        ]);
    }
    let _ = writeln!(md, "{table}");
}

fn atlas_csv(atlas: &Atlas, results: &Results) -> String {
    let mut csv = String::from(
        "level,protocol,variant,complete,distinct_games,first_wins,draws,second_wins,first_score,score_low,score_high,draw_rate,mean_length,level_elo,level_elo_half_width\n",
    );
    for m in &results.measures {
        let w = &m.group.white;
        let (low, high) = w.interval();
        let (elo, half) = results
            .ladder
            .as_ref()
            .map_or((String::new(), String::new()), |l| {
                (
                    format!("{:.1}", l.elo[m.level]),
                    format!("{:.1}", l.half_width[m.level]),
                )
            });
        let _ = writeln!(
            csv,
            "{},{},{},{},{},{},{},{},{:.4},{:.4},{:.4},{:.4},{:.2},{elo},{half}",
            atlas.levels[m.level].name,
            atlas.protocols[m.protocol].name,
            m.variant,
            m.complete,
            m.group.distinct,
            w.wins,
            w.draws,
            w.losses,
            w.score(),
            low,
            high,
            w.draw_rate(),
            m.group.mean_length()
        );
    }
    csv
}

#[cfg(test)]
mod tests {
    use pjlab_pijersi::PijersiKit;

    use super::signed;
    use crate::atlas::Atlas;
    use crate::atlas::results::{Measure, Progress, Results};
    use crate::report::Group;
    use crate::stats::Wdl;

    const TEXT: &str = r#"
game = "pijersi"
seed = 7
per_setup = true
[[levels]]
name = "d1"
agent = "alphabeta:depth=1"
[[levels]]
name = "d2"
agent = "alphabeta:depth=2"
[[levels]]
name = "d3"
agent = "alphabeta:depth=3"
[[protocols]]
name = "plies"
[[protocols.runs]]
variants = ["classic", "half-random"]
games_per_variant = 100
opening_plies = 2
[[protocols]]
name = "setups"
[[protocols.runs]]
variants = ["half-random"]
games_per_variant = 100
opening_plies = 0
[[protocols.runs]]
variants = ["classic"]
games_per_variant = 100
opening_plies = 4
"#;

    /// Every cell finished but `d3`'s second protocol, which has played 10 of its 200 games
    /// (all in `setups-1`).
    fn results(atlas: &Atlas) -> Results {
        let mut results = Results {
            measures: Vec::new(),
            classes: Vec::new(),
            progress: Vec::new(),
            ladder: None,
        };
        for cell in atlas.cells() {
            let (level, protocol) = (cell.level.unwrap(), cell.protocol.unwrap());
            let l = atlas.levels.iter().position(|x| x.name == level).unwrap();
            let p = atlas
                .protocols
                .iter()
                .position(|x| x.name == protocol)
                .unwrap();
            let partial = l == 2 && p == 1;
            let played = if !partial {
                cell.spec.variants.len() * 100
            } else if cell.dir.ends_with("setups-1") {
                10
            } else {
                0
            };
            results.progress.push(Progress {
                dir: cell.dir.clone(),
                played,
                scheduled: cell.spec.variants.len() * 100,
                thinking_seconds: 0.0,
                cpu_seconds: 0.0,
                cpus: Vec::new(),
            });
            for variant in cell.spec.variants.iter().filter(|_| played > 0) {
                let games = (played / cell.spec.variants.len()) as u64;
                // White's wins move with the level and protocol, so that the protocols differ.
                let wins = games * (50 + 5 * l as u64 + 3 * p as u64) / 100;
                results.measures.push(Measure {
                    level: l,
                    protocol: p,
                    variant: variant.clone(),
                    group: Group {
                        played: games as usize,
                        white: Wdl {
                            wins,
                            draws: 0,
                            losses: games - wins,
                        },
                        lengths: vec![20; games as usize],
                        distinct: games as usize,
                        setups: 1,
                    },
                    complete: !partial,
                });
            }
        }
        results
    }

    #[test]
    fn a_protocol_still_being_played_is_marked_partial_and_left_out_of_the_convergence() {
        let atlas = Atlas::parse(TEXT).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let md = super::write_results::<PijersiKit>(dir.path(), &atlas, &results(&atlas)).unwrap();
        // The answer is at `d3`, whose main protocol has finished; its second protocol has not.
        assert!(md.contains("At the strongest level finished, `d3`"), "{md}");
        assert!(
            md.contains(
                "Under the setups protocol at the same level (**partial**: 10 of its 200 games \
                 played)"
            ),
            "{md}"
        );
        // Only the cells with games are linked.
        assert!(md.contains("[d3/setups-1](d3/setups-1/report.md)"), "{md}");
        assert!(!md.contains("[d3/setups-2]"), "{md}");
        // The comparison table marks `d3` partial, and the convergence reads `d1` and `d2`.
        assert!(md.contains("| `d3` (partial) | setups | **all** |"), "{md}");
        assert!(md.contains("| `d2` | setups | **all** |"), "{md}");
        let converge = md
            .lines()
            .find(|l| l.starts_with("Do the protocols converge"))
            .unwrap();
        assert!(
            converge.contains("`d1` ") && converge.contains("`d2` "),
            "{converge}"
        );
        assert!(!converge.contains("`d3`"), "{converge}");
        assert!(converge.contains("from `d1` to `d2`"), "{converge}");
    }

    #[test]
    fn a_difference_that_rounds_to_zero_has_no_minus_sign() {
        assert_eq!(signed(-0.0), "+0.0");
        assert_eq!(signed(-0.04), "+0.0");
        assert_eq!(signed(0.04), "+0.0");
        assert_eq!(signed(-0.06), "-0.1");
        assert_eq!(signed(2.4), "+2.4");
        assert_eq!(signed(-12.26), "-12.3");
    }
}
