//! The report's sections of figures: the levels with their Elo, each protocol's table of
//! every cell's first-side score (with its charts), and the cells' progress and cost.

use std::fmt::Write as _;
use std::path::Path;

use pjlab_arena::report::percent as pct;
use pjlab_core::title_case as title;
use pjlab_stats::table::Table;

use crate::charts::{Line, score_charts};
use crate::results::Results;
use crate::text::{length_text, rate_text, variants_of};
use crate::{Atlas, Error};

/// The levels: each one's agent, what it is and its Elo on the ladder.
pub(crate) fn levels_section(md: &mut String, atlas: &Atlas, results: &Results) {
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

/// Protocol `p`'s section: every variant's first-side score at every level, and its charts.
pub(crate) fn protocol_section(
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

/// The cells: each one's games played and scheduled, its cost and its report.
pub(crate) fn progress_section(md: &mut String, results: &Results) {
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
