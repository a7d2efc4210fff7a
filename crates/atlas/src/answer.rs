//! The atlas report's first sections, for a designer: the answer in plain words at the
//! strongest level finished, and the variants ranked there with what to pick.

use std::fmt::Write as _;

use pjlab_arena::report::{p_text, percent as pct, thousands};
use pjlab_stats::scores::largest_difference_not_excluded;
use pjlab_stats::stats::{Wdl, difference_interval};
use pjlab_stats::table::Table;

use crate::Atlas;
use crate::rank::Rankings;
use crate::results::{Results, pooled_difference};
use crate::text::{bound, level_label, score_text, signed, variants_of};

/// The plain-words answer at the top level finished (or the top level played, marked partial).
pub(crate) fn answer(
    md: &mut String,
    atlas: &Atlas,
    results: &Results,
    rankings: &Rankings<'_>,
    first: &str,
) {
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
    let ranking = rankings.at(level, main);
    let ms = &ranking.measures;
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
        let pairs = &ranking.pairs;
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
                let scores: Vec<Wdl> = ms.iter().map(|m| m.group.white).collect();
                // The bound's correction counts the pairs of variants it compares: those with
                // two distinct games or more.
                let k = scores.iter().filter(|w| w.games() >= 2).count();
                let bound = largest_difference_not_excluded(&scores)
                    .filter(|&b| b < 1.0)
                    .map_or(String::new(), |b| {
                        let level = match k * (k - 1) / 2 {
                            1 => "95%".to_string(),
                            n => format!("95% family-wise over the {n} pairs, Bonferroni"),
                        };
                        format!(
                            ", and the games exclude a difference of more than {:.1} points \
                             between any two ({level})",
                            100.0 * b
                        )
                    });
                let _ = writeln!(
                    md,
                    "- No two variants differ at this level (Holm 5%){bound}: the data do not \
                     rank them."
                );
            }
        }
        if level > 0
            && let Some(b) = rankings.at(level - 1, main).measures.first()
        {
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
    if atlas.per_setup {
        per_setup_line(md, atlas, results, level);
    }
    if atlas.protocols.len() > 1 {
        other_protocols(md, atlas, results, rankings, level, first);
    }
    let _ = writeln!(md);
}

/// The answer's line pointing to the per-setup tables of the cells of `level` with games.
fn per_setup_line(md: &mut String, atlas: &Atlas, results: &Results, level: usize) {
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
        "- By setup, and by class of setups (setups that are the same game: renamed in a \
         cycle or mirrored into one another), at this level: the per-setup tables of {}.",
        reports.join(", ")
    );
}

/// The answer's lines on the protocols other than the main one at `level`: each one's score
/// pooled over the variants less the main protocol's, and once finished its variants compared.
fn other_protocols(
    md: &mut String,
    atlas: &Atlas,
    results: &Results,
    rankings: &Rankings<'_>,
    level: usize,
    first: &str,
) {
    let main = 0;
    for p in 1..atlas.protocols.len() {
        if let Some((d, low, high)) = pooled_difference(results, level, p, main) {
            let (played, scheduled) = results.games_of(atlas, level, p);
            let partial = if played < scheduled {
                let (played, scheduled) = (thousands(played as u64), thousands(scheduled as u64));
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
                bound(100.0 * low),
                bound(100.0 * high),
                if low > 0.0 || high < 0.0 {
                    "the protocols disagree"
                } else {
                    "no difference is shown"
                }
            );
        }
        if results.finished(atlas, level, p) {
            other_protocol_line(md, atlas, rankings, level, p);
        }
    }
}

/// The answer's line on another protocol `p` at `level`: the variant furthest from 50% and the
/// pairs of variants that differ (Holm 5%), if any.
fn other_protocol_line(
    md: &mut String,
    atlas: &Atlas,
    rankings: &Rankings<'_>,
    level: usize,
    p: usize,
) {
    let ranking = rankings.at(level, p);
    let (ms, pairs) = (&ranking.measures, &ranking.pairs);
    let Some(worst) = ms.last().filter(|_| ms.len() > 1) else {
        return;
    };
    let different: Vec<String> = pairs
        .iter()
        .filter(|x| x.holm_p < 0.05)
        .map(|x| format!("{} / {}", x.a, x.b))
        .collect();
    let name = &atlas.protocols[p].name;
    let furthest = format!(
        "furthest from 50%: **{}** ({})",
        worst.variant,
        score_text(&worst.group.white)
    );
    let _ = if pairs.is_empty() {
        writeln!(
            md,
            "- Under the {name} protocol at this level, no two variants can be compared (each \
             has fewer than two distinct games, or scores that do not vary); {furthest}."
        )
    } else if different.is_empty() {
        writeln!(
            md,
            "- Under the {name} protocol at this level, no two variants differ (Holm 5%); \
             {furthest}."
        )
    } else if ms.len() == 2 {
        writeln!(
            md,
            "- Under the {name} protocol at this level, its two variants differ (5%); \
             {furthest}."
        )
    } else {
        writeln!(
            md,
            "- Under the {name} protocol at this level, {} of the {} pairs of variants differ \
             (Holm 5%): {}; {furthest}.",
            different.len(),
            pairs.len(),
            different.join(", ")
        )
    };
}

/// The variants at the strongest level finished under the main protocol, closest to 50% first,
/// with their rank at the level below.
pub(crate) fn pick_section(
    md: &mut String,
    atlas: &Atlas,
    results: &Results,
    rankings: &Rankings<'_>,
    first: &str,
) {
    let Some(level) = results.top_complete(atlas, 0) else {
        return;
    };
    let ranking = rankings.at(level, 0);
    let ms = &ranking.measures;
    // The level below as far as its cells have finished: a variant still being played there
    // has no rank or change to compare.
    let below: Vec<_> = if level > 0 {
        rankings
            .at(level - 1, 0)
            .measures
            .iter()
            .copied()
            .filter(|m| m.complete)
            .collect()
    } else {
        Vec::new()
    };
    let _ = writeln!(
        md,
        "## What a designer should pick
"
    );
    let different = ranking.pairs.iter().filter(|x| x.holm_p < 0.05).count();
    let _ = writeln!(
        md,
        "The variants at `{}` under the main protocol, the fairest (closest to 50%) first: an \
         interval that holds 50% means no first-move edge is shown. {} The last columns are \
         the variant's rank at the level below and how its score moved from there (in points, \
         with Newcombe's 95% interval){}.\n",
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
        "rank at the level below".into(),
        "change from the level below".into(),
    ]);
    for (rank, m) in ms.iter().enumerate() {
        let w = &m.group.white;
        let (low, high) = w.interval();
        let before = below.iter().position(|b| b.variant == m.variant);
        let change = before.map_or("-".to_string(), |r| {
            let b = &below[r].group.white;
            let (d, lo, hi) = difference_interval(
                (w.points(), w.games() as f64),
                (b.points(), b.games() as f64),
            );
            format!(
                "{} ({} to {})",
                signed(100.0 * d),
                bound(100.0 * lo),
                bound(100.0 * hi)
            )
        });
        table.row([
            (rank + 1).to_string(),
            m.variant.clone(),
            pct(w.score()),
            format!("{}-{}", pct(low), pct(high)),
            format!("{:.1}", 100.0 * (w.score() - 0.5).abs()),
            before.map_or("-".to_string(), |r| (r + 1).to_string()),
            change,
        ]);
    }
    let _ = writeln!(md, "{table}");
}
