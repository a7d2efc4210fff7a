//! The atlas's report: every cell's first-player score by variant, level and protocol, the
//! levels' ladder, the protocols compared, the variants compared with a family-wise correction,
//! what a designer should pick, and charts of the first side's score per protocol (`charts`).
//! Every figure is computed from the cells' game records, each distinct game counted once.

use std::fmt::Write as _;
use std::path::Path;

use pjlab_core::GameKit;

use super::Atlas;
use super::answer::{answer, pick_section};
use super::charts::{Line, score_charts};
use super::compare::{classes_section, protocols_compared, variants_compared};
pub use super::results::{ClassMeasure, LadderRatings, Measure, Progress, Results, collect};
use crate::Error;
use crate::report::{Group, io, percent as pct, title_case as title};
use crate::stats::{Wdl, wilson};
use crate::table::Table;

/// Writes `report.md`, `atlas.csv`, `plots/first-score-<protocol>.svg` and (with a ladder)
/// `plots/first-score-<protocol>-by-level.svg` into `dir`, and returns the Markdown.
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
         strength level and under every opening protocol of `atlas.toml`; W-D-L counts \
         {first}'s wins, draws and losses, and a game's length is in plies (one side's move). \
         Every figure counts each distinct game once; intervals are 95%. A score's interval is \
         Wilson's, as if every game were won or lost: where many games are drawn it is wider \
         than the tests', which use the games' own spread, so two intervals that overlap can \
         still differ. A difference is **shown** when it is significant at 5%: its interval leaves \
         out zero or, among many pairs, its p-value is under 5% after Holm's correction for \
         their number. A difference not shown may still be there, smaller than the games can \
         tell. Every cell plays a fixed number of games, no early stop; a level plays on a \
         fixed depth, node or simulation budget.\n"
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

/// An interval's bound in points: as [`signed`], but one under 0.05 from zero keeps its sign
/// with as many decimals as that takes (`-0.03`), so that an interval holding zero reads so.
pub(super) fn bound(points: f64) -> String {
    if points != 0.0 && points.abs() < 0.05 {
        let decimals = ((-points.abs().log10()).ceil() as usize).clamp(2, 4);
        format!("{points:+.decimals$}")
    } else {
        signed(points)
    }
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

pub(super) fn level_label(atlas: &Atlas, results: &Results, level: usize) -> String {
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
    let mut lines: Vec<Line> = Vec::new();
    for v in &variants {
        let mut points = Vec::new();
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
            points.push((l, 100.0 * w.score(), 100.0 * low, 100.0 * high));
        }
        if !points.is_empty() {
            lines.push((v.clone(), points));
        }
    }
    if table.is_empty() {
        let _ = writeln!(md, "No games yet.\n");
        return Ok(());
    }
    let _ = writeln!(md, "{table}");
    score_charts(md, dir, atlas, results, p, first, &lines)
}

fn progress_section(md: &mut String, results: &Results) {
    let _ = writeln!(md, "## Cells\n");
    let _ = writeln!(
        md,
        "Each cell is a run directory that `pjlab report`, `pjlab report --pool` and `pjlab show` \
         read; its own report has the per-setup tables (grouped into classes where the variant \
         has them) and the time each move took. Thinking hours are the \
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
        "level,protocol,variant,complete,distinct_games,first_wins,draws,second_wins,\
         first_score,score_low,score_high,draw_rate,mean_length,level_elo,level_elo_half_width\n",
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

    use super::{bound, signed};
    use crate::atlas::Atlas;
    use crate::atlas::results::{LadderRatings, Measure, Progress, Results};
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

    /// Every cell finished but, unless `all_finished`, `d3`'s second protocol, which has played
    /// 10 of its 200 games (all in `setups-1`). When it has finished, White scores 90% in its
    /// half-random.
    fn results(atlas: &Atlas, all_finished: bool) -> Results {
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
            let partial = l == 2 && p == 1 && !all_finished;
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
                let wins = if l == 2 && p == 1 && variant == "half-random" {
                    games * 90 / 100
                } else {
                    games * (50 + 5 * l as u64 + 3 * p as u64) / 100
                };
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
        let md = super::write_results::<PijersiKit>(dir.path(), &atlas, &results(&atlas, false))
            .unwrap();
        // The answer is at `d3`, whose main protocol has finished; its second protocol has not,
        // so the answer does not compare that protocol's variants.
        assert!(
            !md.contains("Under the setups protocol at this level"),
            "{md}"
        );
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
    fn the_charts_say_which_levels_are_still_being_played() {
        let atlas = Atlas::parse(TEXT).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let mut rated = with_ladder(results(&atlas, false), vec![-60.0, -40.0, 100.0]);
        // The section of protocol `name` in `md`.
        let section = |md: &str, name: &str| {
            let start = md
                .find(&format!("## White's score under the {name} protocol"))
                .unwrap();
            let rest = &md[start + 1..];
            rest[..rest.find("\n## ").unwrap_or(rest.len())].to_string()
        };
        // The texts of protocol `name`'s evenly spaced chart.
        let chart = |name: &str| {
            let file = dir
                .path()
                .join(format!("plots/first-score-{name}-by-level.svg"));
            texts(&std::fs::read_to_string(file).unwrap())
        };
        // The cells of `level` under `setups`.
        let setups_of = |cell: &Progress, level: &str| {
            cell.dir.starts_with(level)
                && cell
                    .dir
                    .file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with("setups"))
        };
        let md = super::write_results::<PijersiKit>(dir.path(), &atlas, &rated).unwrap();
        // Under `setups`, `d3` has played 10 of its 200 games; under `plies`, all of them. The
        // note comes before the charts.
        let setups = section(&md, "setups");
        let note = "Still being played under this protocol: `d3` (10 of its 200 games); its \
                    points stand on the games played so far.";
        let at = setups.find(note).unwrap_or_else(|| panic!("{md}"));
        assert!(at < setups.find("![").unwrap(), "{setups}");
        assert!(
            !section(&md, "plies").contains("Still being played"),
            "{md}"
        );
        // The evenly spaced chart says so under the level's name, and only there.
        let texts = chart("setups");
        let count = |text: &str| texts.iter().filter(|t| *t == text).count();
        assert_eq!((count("partial:"), count("10 of 200")), (1, 1), "{texts:?}");
        let d3 = texts.iter().position(|t| t == "Elo +100").unwrap();
        assert_eq!(texts[d3 + 1..d3 + 3], ["partial:", "10 of 200"]);
        assert!(!chart("plies").iter().any(|t| t.contains("partial")));
        // Two levels unfinished are named together, weakest first as the atlas lists them.
        let mut two = rated.clone();
        for cell in two.progress.iter_mut().filter(|c| setups_of(c, "d2")) {
            cell.played = 50;
        }
        let md = super::write_results::<PijersiKit>(dir.path(), &atlas, &two).unwrap();
        assert!(
            section(&md, "setups").contains(
                "Still being played under this protocol: `d2` (100 of its 200 games), `d3` (10 \
                 of its 200 games); their points stand on the games played so far."
            ),
            "{md}"
        );
        // A level with no games yet under a protocol says so, and has no points to qualify.
        rated
            .measures
            .retain(|m| !(m.level == 2 && m.protocol == 1));
        for cell in rated.progress.iter_mut().filter(|c| setups_of(c, "d3")) {
            cell.played = 0;
        }
        let md = super::write_results::<PijersiKit>(dir.path(), &atlas, &rated).unwrap();
        assert!(!md.contains("Still being played"), "{md}");
        assert!(
            section(&md, "setups").contains("Not played yet under this protocol: `d3`."),
            "{md}"
        );
        let texts = chart("setups");
        let d3 = texts.iter().position(|t| t == "Elo +100").unwrap();
        assert_eq!(texts[d3 + 1], "not played yet", "{texts:?}");
        assert!(!texts.iter().any(|t| t.contains("partial")), "{texts:?}");
        // Without a ladder there is no evenly spaced chart, but the note is the same.
        rated.ladder = None;
        let plain = tempfile::tempdir().unwrap();
        let md = super::write_results::<PijersiKit>(plain.path(), &atlas, &rated).unwrap();
        assert!(
            section(&md, "setups").contains("Not played yet under this protocol: `d3`."),
            "{md}"
        );
    }

    #[test]
    fn the_answer_compares_the_variants_of_a_finished_second_protocol() {
        let atlas = Atlas::parse(TEXT).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let md =
            super::write_results::<PijersiKit>(dir.path(), &atlas, &results(&atlas, true)).unwrap();
        assert!(
            md.contains(
                "- Under the setups protocol at this level, its two variants differ (5%); \
                 furthest from 50%: **half-random** (90.0%"
            ),
            "{md}"
        );
        // The main protocol's variants score alike (60% each over 100 games at `d3`): none
        // differ, and the games exclude a gap beyond the closed form's 95% bound of one pair.
        let variance: f64 = 0.6 * 0.4 / 99.0;
        let bound = 1.959_964 * (2.0 * variance).sqrt();
        let sentence = format!(
            "No two variants differ at this level (Holm 5%), and the games exclude a difference \
             of more than {:.1} points between any two (95%):",
            100.0 * bound
        );
        assert!(md.contains(&sentence), "{sentence} in {md}");
        // With half-random scoring as classic there, no pair differs.
        let mut alike = results(&atlas, true);
        let classic = alike
            .measures
            .iter()
            .find(|m| m.level == 2 && m.protocol == 1 && m.variant == "classic")
            .unwrap()
            .group
            .clone();
        for m in alike.measures.iter_mut() {
            if m.level == 2 && m.protocol == 1 && m.variant == "half-random" {
                m.group = classic.clone();
            }
        }
        let md_alike = super::write_results::<PijersiKit>(dir.path(), &atlas, &alike).unwrap();
        assert!(
            md_alike.contains(
                "- Under the setups protocol at this level, no two variants differ (Holm 5%); \
                 furthest from 50%:"
            ),
            "{md_alike}"
        );
        // Each variant's score moved from 55% at `d2` to 60%: +5 points.
        let row = md
            .lines()
            .find(|l| l.starts_with("| 1 | "))
            .expect("the pick table");
        assert!(row.contains("| +5.0 ("), "{row}");
    }

    /// `results` with a finished ladder that rates the levels `elo` (each ± 30, over 300 games).
    fn with_ladder(mut results: Results, elo: Vec<f64>) -> Results {
        results.ladder = Some(LadderRatings {
            half_width: vec![30.0; elo.len()],
            elo,
            games: 300,
            complete: true,
        });
        results
    }

    /// The text of every text element of `svg`, in order, trimmed.
    fn texts(svg: &str) -> Vec<String> {
        svg.match_indices("<text ")
            .map(|(i, _)| {
                let rest = &svg[i..];
                rest[rest.find('>').unwrap() + 1..rest.find("</text>").unwrap()]
                    .trim()
                    .to_string()
            })
            .collect()
    }

    /// The points of every polyline of `svg` with at least three points (the variants' lines).
    fn polylines(svg: &str) -> Vec<Vec<(f64, f64)>> {
        svg.match_indices("<polyline ")
            .map(|(i, _)| {
                let tag = &svg[i..i + svg[i..].find('>').unwrap()];
                let start = tag.find(" points=\"").unwrap() + " points=\"".len();
                let list = &tag[start..start + tag[start..].find('"').unwrap()];
                list.split_whitespace()
                    .map(|p| {
                        let (x, y) = p.split_once(',').unwrap();
                        (x.parse().unwrap(), y.parse().unwrap())
                    })
                    .collect::<Vec<(f64, f64)>>()
            })
            .filter(|p| p.len() >= 3)
            .collect()
    }

    #[test]
    fn the_charts_run_left_to_right_and_space_the_levels_by_their_elo_order() {
        // The ladder puts the atlas's first level on top: its Elo order is d2, d3, d1.
        let atlas = Atlas::parse(TEXT).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let rated = with_ladder(results(&atlas, true), vec![100.0, -60.0, -40.0]);
        let md = super::write_results::<PijersiKit>(dir.path(), &atlas, &rated).unwrap();
        assert!(
            md.contains("![White's score by level](plots/first-score-plies-by-level.svg)"),
            "{md}"
        );
        for file in ["first-score-plies.svg", "first-score-plies-by-level.svg"] {
            let svg = std::fs::read_to_string(dir.path().join("plots").join(file)).unwrap();
            let lines = polylines(&svg);
            assert_eq!(lines.len(), 2, "{file}: one line a variant: {lines:?}");
            for line in &lines {
                assert!(line.windows(2).all(|w| w[0].0 < w[1].0), "{file}: {line:?}");
            }
        }
        // On the evenly spaced chart, the levels are named weakest first, with their Elo.
        let svg = std::fs::read_to_string(dir.path().join("plots/first-score-plies-by-level.svg"))
            .unwrap();
        // The x of the text element `text`.
        let at = |text: &str| -> f64 {
            let (i, _) = svg
                .match_indices("<text ")
                .find(|(i, _)| {
                    let rest = &svg[*i..];
                    let body = &rest[rest.find('>').unwrap() + 1..rest.find("</text>").unwrap()];
                    body.trim() == text
                })
                .unwrap_or_else(|| panic!("no text {text:?}"));
            let x = &svg[i + svg[i..].find(" x=\"").unwrap() + 4..];
            x[..x.find('"').unwrap()].parse().unwrap()
        };
        assert!(at("d2") < at("d3") && at("d3") < at("d1"), "{svg}");
        assert!(at("Elo -60") < at("Elo -40") && at("Elo -40") < at("Elo +100"));
        // Without a ladder there is one chart a protocol, the levels by rank.
        let plain = tempfile::tempdir().unwrap();
        let md = super::write_results::<PijersiKit>(plain.path(), &atlas, &results(&atlas, true))
            .unwrap();
        assert!(!md.contains("by-level"), "{md}");
        assert!(
            !plain
                .path()
                .join("plots/first-score-plies-by-level.svg")
                .exists()
        );
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

    #[test]
    fn a_bound_near_zero_keeps_its_sign() {
        assert_eq!(bound(-0.03), "-0.03");
        assert_eq!(bound(0.004), "+0.004");
        assert_eq!(bound(0.0), "+0.0");
        assert_eq!(bound(-0.06), "-0.1");
        assert_eq!(bound(2.44), "+2.4");
    }
}
