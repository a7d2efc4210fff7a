//! The atlas report's comparisons: the opening protocols against the main one, level by level;
//! the variants against each other with Holm's family-wise correction; and the classes of
//! setups at the strongest level finished.

use std::fmt::Write as _;

use pjlab_arena::report::{p_text, percent as pct};
use pjlab_stats::scores::score_difference;
use pjlab_stats::stats::{difference_interval, holm};
use pjlab_stats::table::Table;

use crate::Atlas;
use crate::rank::Rankings;
use crate::results::{ClassMeasure, Results, pooled_difference};
use crate::text::{bound, score_text, signed, variants_of};

pub(crate) fn protocols_compared(md: &mut String, atlas: &Atlas, results: &Results, first: &str) {
    let _ = writeln!(md, "## The protocols compared\n");
    let main = &atlas.protocols[0].name;
    let _ = writeln!(
        md,
        "{first}'s score under each other protocol less under `{main}`, in points, with \
         Newcombe's 95% interval; the `all` rows pool the variants both protocols played.\n"
    );
    let mut table = Table::new([
        "level",
        "protocol",
        "variant",
        "difference (points)",
        "95% interval",
    ]);
    let mut pooled: Vec<(usize, usize, f64, f64, f64)> = Vec::new();
    // The variant whose difference is largest, by level and protocol: (level, protocol,
    // variant, difference).
    let mut widest: Vec<(usize, usize, String, f64)> = Vec::new();
    for l in 0..atlas.levels.len() {
        for p in 1..atlas.protocols.len() {
            let finished = results.finished(atlas, l, p) && results.finished(atlas, l, 0);
            let level = format!(
                "`{}`{}",
                atlas.levels[l].name,
                if finished { "" } else { " (partial)" }
            );
            for v in variants_of(atlas, p) {
                let (Some(a), Some(b)) = (results.find(l, p, &v), results.find(l, 0, &v)) else {
                    continue;
                };
                let (wa, wb) = (&a.group.white, &b.group.white);
                let (d, low, high) = difference_interval(
                    (wa.points(), wa.games() as f64),
                    (wb.points(), wb.games() as f64),
                );
                table.row([
                    level.clone(),
                    atlas.protocols[p].name.clone(),
                    v.clone(),
                    signed(100.0 * d),
                    format!("{} to {}", bound(100.0 * low), bound(100.0 * high)),
                ]);
                if !finished {
                    continue;
                }
                match widest.iter_mut().find(|w| w.0 == l && w.1 == p) {
                    Some(w) if w.3.abs() >= d.abs() => {}
                    Some(w) => *w = (l, p, v.clone(), d),
                    None => widest.push((l, p, v.clone(), d)),
                }
            }
            if let Some((d, low, high)) = pooled_difference(results, l, p, 0) {
                table.row([
                    level.clone(),
                    atlas.protocols[p].name.clone(),
                    "**all**".into(),
                    signed(100.0 * d),
                    format!("{} to {}", bound(100.0 * low), bound(100.0 * high)),
                ]);
                // Whether the protocols converge is read from the finished levels only.
                if finished {
                    pooled.push((l, p, d, low, high));
                }
            }
        }
    }
    if table.is_empty() {
        let _ = writeln!(md, "No level has games under two protocols yet.\n");
        return;
    }
    let _ = writeln!(md, "{table}");
    for p in 1..atlas.protocols.len() {
        let rows: Vec<&(usize, usize, f64, f64, f64)> =
            pooled.iter().filter(|r| r.1 == p).collect();
        let (Some(lo), Some(hi)) = (rows.first(), rows.last()) else {
            continue;
        };
        if rows.len() < 2 {
            continue;
        }
        let largest = |l: usize| widest.iter().find(|w| w.0 == l && w.1 == p);
        let levels: Vec<String> = rows
            .iter()
            .map(|r| {
                let one = largest(r.0).map_or(String::new(), |w| {
                    format!(" ({} {})", w.2, signed(100.0 * w.3))
                });
                format!("`{}` {}{one}", atlas.levels[r.0].name, signed(100.0 * r.2))
            })
            .collect();
        let spread = |l: usize| largest(l).map_or(0.0, |w| w.3.abs());
        let _ = writeln!(
            md,
            "Do the protocols converge as strength grows? `{}` less `{main}`, level by level \
             (the levels finished under both), pooled over the variants (and the variant that \
             differs most), in points: {}. The \
             largest difference of one variant {} from `{}` to `{}` (a pooled figure can hide \
             variants that differ both ways){}.\n",
            atlas.protocols[p].name,
            levels.join(", "),
            if spread(hi.0) < spread(lo.0) {
                "narrows"
            } else {
                "does not narrow"
            },
            atlas.levels[lo.0].name,
            atlas.levels[hi.0].name,
            if hi.3 <= 0.0 && hi.4 >= 0.0 {
                "; at the strongest of them the pooled difference is not shown"
            } else {
                "; at the strongest of them the pooled difference is shown"
            }
        );
    }
}

pub(crate) fn variants_compared(md: &mut String, atlas: &Atlas, rankings: &Rankings<'_>) {
    let _ = writeln!(md, "## Do the variants differ?\n");
    let _ = writeln!(
        md,
        "Under each protocol at each level: every pair of variants compared by a z test on each \
         distinct game's score, the p-values adjusted by Holm's method over the level's pairs (a \
         family-wise 5% level). The closest and furthest variants from 50% are named.\n"
    );
    let mut table = Table::new([
        "level",
        "protocol",
        "closest to 50%",
        "furthest",
        "largest gap (points)",
        "pairs different (Holm 5%)",
    ]);
    for l in 0..atlas.levels.len() {
        for p in 0..atlas.protocols.len() {
            let ranking = rankings.at(l, p);
            let (ms, pairs) = (&ranking.measures, &ranking.pairs);
            if ms.len() < 2 {
                continue;
            }
            let largest = pairs
                .iter()
                .max_by(|a, b| a.difference.abs().total_cmp(&b.difference.abs()));
            let different: Vec<String> = pairs
                .iter()
                .filter(|x| x.holm_p < 0.05)
                .map(|x| format!("{} / {} (p = {})", x.a, x.b, p_text(x.holm_p)))
                .collect();
            let (c, f) = (ms[0], ms[ms.len() - 1]);
            let partial = if ms.iter().all(|m| m.complete) {
                ""
            } else {
                " (partial)"
            };
            table.row([
                format!("`{}`{partial}", atlas.levels[l].name),
                atlas.protocols[p].name.clone(),
                format!("{} {}", c.variant, score_text(&c.group.white)),
                format!("{} {}", f.variant, score_text(&f.group.white)),
                largest.map_or("-".into(), |x| {
                    format!("{:.1} ({} / {})", 100.0 * x.difference.abs(), x.a, x.b)
                }),
                if different.is_empty() {
                    "none".into()
                } else {
                    different.join("; ")
                },
            ]);
        }
    }
    if table.is_empty() {
        let _ = writeln!(md, "Not enough games yet.\n");
        return;
    }
    let _ = writeln!(md, "{table}");
}

/// The classes of setups at the strongest level finished under the main protocol: each
/// class's score, and whether the classes of a variant differ (Holm over their pairs).
pub(crate) fn classes_section(md: &mut String, atlas: &Atlas, results: &Results, first: &str) {
    let Some(level) = results.top_complete(atlas, 0) else {
        return;
    };
    let rows: Vec<&ClassMeasure> = results
        .classes
        .iter()
        .filter(|c| c.level == level && c.protocol == 0)
        .collect();
    if rows.is_empty() {
        return;
    }
    let _ = writeln!(
        md,
        "## Setups by class at `{}`
",
        atlas.levels[level].name
    );
    let _ = writeln!(
        md,
        "{first}'s score by class of setups under {} (each class named by its smallest layout) \
         at the strongest level finished, under the main protocol, closest to 50% first; each \
         setup's distinct games, pooled over the class. The cells' reports have every setup, \
         and its class under each grouping.\n",
        rows[0].grouping
    );
    let mut variants: Vec<&str> = rows.iter().map(|r| r.variant.as_str()).collect();
    variants.dedup();
    for variant in variants {
        let mut class_rows: Vec<&&ClassMeasure> =
            rows.iter().filter(|r| r.variant == variant).collect();
        class_rows.sort_by(|a, b| {
            let d = |c: &ClassMeasure| (c.white.score() - 0.5).abs();
            d(a).total_cmp(&d(b))
        });
        let mut table = Table::new([
            "variant",
            "class (smallest layout)",
            "setups",
            "distinct games",
            "W-D-L",
            "score %",
            "95% Wilson",
        ]);
        for c in &class_rows {
            let (low, high) = c.white.interval();
            table.row([
                variant.to_string(),
                format!("`{}`", c.class),
                c.setups.to_string(),
                c.white.games().to_string(),
                c.white.to_string(),
                pct(c.white.score()),
                format!("{}-{}", pct(low), pct(high)),
            ]);
        }
        let _ = writeln!(md, "{table}");
        let mut raw = Vec::new();
        for (i, a) in class_rows.iter().enumerate() {
            for b in &class_rows[i + 1..] {
                if let Some(d) = score_difference(&a.white, &b.white) {
                    raw.push(d.p_value);
                }
            }
        }
        let smallest = holm(&raw).into_iter().fold(1.0_f64, f64::min);
        let _ = writeln!(
            md,
            "{variant}: {} of the {} pairs of classes differ after Holm's correction \
             (smallest adjusted p = {}).\n",
            holm(&raw).iter().filter(|&&p| p < 0.05).count(),
            raw.len(),
            p_text(smallest)
        );
    }
}
