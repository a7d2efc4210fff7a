//! The report's tests on results made up to the point.

use pjlab_pijersi::PijersiKit;

use pjlab_arena::report::Group;
use pjlab_stats::stats::Wdl;

use crate::Atlas;
use crate::results::{LadderRatings, Measure, Progress, Results};

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
    let md =
        super::write_results::<PijersiKit>(dir.path(), &atlas, &results(&atlas, false)).unwrap();
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
    let svg =
        std::fs::read_to_string(dir.path().join("plots/first-score-plies-by-level.svg")).unwrap();
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
    let md =
        super::write_results::<PijersiKit>(plain.path(), &atlas, &results(&atlas, true)).unwrap();
    assert!(!md.contains("by-level"), "{md}");
    assert!(
        !plain
            .path()
            .join("plots/first-score-plies-by-level.svg")
            .exists()
    );
}
