//! The charts of the atlas's report: the first side's score per protocol against the levels'
//! Elo (or rank, without a ladder), and with a ladder the same scores with the levels evenly
//! spaced, each level named with its Elo and, until it has played all its games, how many.

use std::fmt::Write as _;
use std::path::Path;

use pjlab_arena::report::thousands;
use pjlab_core::title_case as title;
use pjlab_stats::plot::{Series, category_line_chart, line_chart};

use crate::results::Results;
use crate::{Atlas, Error};

/// A variant's line on the charts: its name, and its points as (level, score, low, high), in
/// percent.
pub(crate) type Line = (String, Vec<(usize, f64, f64, f64)>);

/// The charts of one protocol's scores: against the levels' Elo (or rank, without a ladder),
/// and with a ladder a second one with the levels evenly spaced, so that levels close in Elo
/// stay apart. Writes into `md`, before the charts, which levels have not played all their
/// games under the protocol (as [`progress`] words it), and the charts' image links.
pub(crate) fn score_charts(
    md: &mut String,
    dir: &Path,
    atlas: &Atlas,
    results: &Results,
    p: usize,
    first: &str,
    lines: &[Line],
) -> Result<(), Error> {
    let protocol = &atlas.protocols[p];
    let game = title(&atlas.game);
    // The series, each level's points at `x[level]` (left to right, whatever the atlas's order
    // of levels), each variant a little apart from the others, so that the error bars of one
    // level do not hide each other; and the 50% line, from the first level to the last, or
    // over `reach` where given.
    let series = |x: &[f64], reach: Option<(f64, f64)>| {
        let (x0, x1) = x
            .iter()
            .fold((f64::MAX, f64::MIN), |(a, b), &x| (a.min(x), b.max(x)));
        let spread = (x1 - x0).max(1.0);
        let (x0, x1) = reach.unwrap_or((x0, x1));
        let mut series: Vec<Series<'_>> = lines
            .iter()
            .enumerate()
            .map(|(i, (name, points))| {
                let shift = spread * 0.008 * (i as f64 - (lines.len() as f64 - 1.0) / 2.0);
                let mut points: Vec<(f64, f64, f64, f64)> = points
                    .iter()
                    .map(|q| (x[q.0] + shift, q.1, q.2, q.3))
                    .collect();
                points.sort_by(|a, b| a.0.total_cmp(&b.0));
                Series::new(name, points.iter().map(|q| (q.0, q.1)).collect())
                    .with_errors(points.iter().map(|q| (q.0, q.2, q.3)).collect())
            })
            .collect();
        series.push(Series::new(
            "50% (no first-move edge)",
            vec![(x0, 50.0), (x1, 50.0)],
        ));
        series
    };
    let (state, note) = progress(atlas, results, p);
    if let Some(note) = note {
        let _ = writeln!(md, "{note}");
    }
    let y_label = format!("{first}'s score % (95% Wilson)");
    let file = format!("plots/first-score-{}.svg", protocol.name);
    let by_strength = format!(
        "{game} {first}'s score by strength, {} protocol",
        protocol.name
    );
    let Some(ladder) = &results.ladder else {
        let x: Vec<f64> = (1..=atlas.levels.len()).map(|i| i as f64).collect();
        line_chart(
            &dir.join(&file),
            &by_strength,
            "level (rank, weakest first)",
            &y_label,
            &series(&x, None),
        )?;
        let _ = writeln!(md, "\n![{first}'s score by level]({file})\n");
        return Ok(());
    };
    line_chart(
        &dir.join(&file),
        &by_strength,
        "level's Elo on the ladder",
        &y_label,
        &series(&ladder.elo, None),
    )?;
    let _ = writeln!(md, "\n![{first}'s score against the levels' Elo]({file})\n");
    // The levels weakest first by Elo, one step apart.
    let mut order: Vec<usize> = (0..atlas.levels.len()).collect();
    order.sort_by(|&a, &b| ladder.elo[a].total_cmp(&ladder.elo[b]));
    let mut rank = vec![0.0; order.len()];
    for (k, &l) in order.iter().enumerate() {
        rank[l] = k as f64;
    }
    let names: Vec<String> = order
        .iter()
        .map(|&l| {
            let (name, elo) = (&atlas.levels[l].name, elo_text(ladder.elo[l]));
            format!("{name}\nElo {elo}{}", state[l])
        })
        .collect();
    let file = format!("plots/first-score-{}-by-level.svg", protocol.name);
    category_line_chart(
        &dir.join(&file),
        &format!(
            "{game} {first}'s score by level, {} protocol",
            protocol.name
        ),
        &names,
        "level, weakest first (evenly spaced; under each name its Elo, and its games played \
         while unfinished)",
        &y_label,
        &series(&rank, Some((-0.5, order.len() as f64 - 0.5))),
    )?;
    let _ = writeln!(
        md,
        "The same scores with the levels evenly spaced, so that levels close in Elo stay apart:\n\n\
         ![{first}'s score by level]({file})\n"
    );
    Ok(())
}

/// What the charts of protocol `p` say of the levels that have not played all their games under
/// it: a line for each level's name on the evenly spaced chart (`partial:` and its games played
/// of those scheduled, or `not played yet`; empty for a finished level), and a note for the
/// report naming them, whose points stand on the games played so far.
fn progress(atlas: &Atlas, results: &Results, p: usize) -> (Vec<String>, Option<String>) {
    let mut state = vec![String::new(); atlas.levels.len()];
    let (mut partial, mut unplayed) = (Vec::new(), Vec::new());
    for (l, level) in atlas.levels.iter().enumerate() {
        let (played, scheduled) = results.games_of(atlas, l, p);
        if played >= scheduled {
            continue;
        }
        if played == 0 {
            state[l] = "\nnot played yet".into();
            unplayed.push(format!("`{}`", level.name));
        } else {
            let (played, scheduled) = (thousands(played as u64), thousands(scheduled as u64));
            state[l] = format!("\npartial:\n{played} of {scheduled}");
            partial.push(format!(
                "`{}` ({played} of its {scheduled} games)",
                level.name
            ));
        }
    }
    let mut note = Vec::new();
    if !partial.is_empty() {
        note.push(format!(
            "Still being played under this protocol: {}; {} points stand on the games played \
             so far.",
            partial.join(", "),
            if partial.len() == 1 { "its" } else { "their" }
        ));
    }
    if !unplayed.is_empty() {
        note.push(format!(
            "Not played yet under this protocol: {}.",
            unplayed.join(", ")
        ));
    }
    (state, (!note.is_empty()).then(|| note.join(" ")))
}

/// An Elo rating with its sign, to the unit (`+222`, `-60`); one that rounds to zero is `+0`.
fn elo_text(elo: f64) -> String {
    let text = format!("{elo:+.0}");
    if text == "-0" { "+0".into() } else { text }
}
