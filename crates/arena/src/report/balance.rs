//! The balance part of a report: the first side's score by variant and by setup (grouped under
//! the variant's setup classes), tests on scores across variants, setups and classes, the largest
//! difference the games do not exclude, and the charts. Every figure counts each distinct game
//! once.

use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;
use std::path::Path;

use pjlab_core::{Game, GameKit, SetupVariant};

use pjlab_core::title_case;

use super::{interval, io, percent, score_estimate, thousands, unique_games};
use crate::Error;
use crate::plot::{Series, interval_chart, line_chart};
use crate::runner::{Played, PlayedGame};
use crate::schedule::{RunKind, RunSpec};
use crate::stats::{Wdl, score_to_elo};
use crate::table::Table;
use pjlab_stats::scores::{largest_difference_not_excluded, score_difference, score_homogeneity};

/// Per-group numbers: games played, and over the distinct ones the results from the first side's
/// view and the lengths; setups seen.
#[derive(Clone, Debug, Default)]
pub struct Group {
    /// Games played, repeats included.
    pub played: usize,
    /// The first side's wins, draws and losses over the distinct games.
    pub white: Wdl,
    /// Plies of each distinct game.
    pub lengths: Vec<u32>,
    /// Distinct games: the effective number.
    pub distinct: usize,
    /// Distinct setups.
    pub setups: usize,
}

impl Group {
    /// The numbers of `games`.
    pub fn of<G: Game, V: std::fmt::Display>(games: &[&PlayedGame<G, V>]) -> Group {
        let unique = unique_games(games.iter().copied());
        let mut white = Wdl::default();
        for g in &unique {
            white.add(g.result);
        }
        Group {
            played: games.len(),
            white,
            lengths: unique.iter().map(|g| g.moves.len() as u32).collect(),
            distinct: unique.len(),
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

/// Each of the run's variants, in the run's order, with the numbers of its games.
///
/// # Errors
/// [`Error::Game`] when the run names a variant the game does not have.
pub fn variant_groups<K: GameKit>(
    run: &RunSpec,
    games: &[Played<K>],
) -> Result<Vec<(K::Variant, Group)>, Error> {
    Ok(run
        .parsed_variants::<K>()?
        .iter()
        .map(|&v| {
            let members: Vec<&Played<K>> = games.iter().filter(|g| g.spec.variant == v).collect();
            (v, Group::of(&members))
        })
        .collect())
}

/// Writes the section into `md`, `summary.csv` (balance runs; `variants.csv` otherwise) and
/// `setups.csv`, and the charts under `plots/`.
pub(super) fn section<K: GameKit>(
    md: &mut String,
    dir: &Path,
    run: &RunSpec,
    games: &[Played<K>],
) -> Result<(), Error> {
    let (f, s) = (K::INFO.sides[0], K::INFO.sides[1]);
    let (first, second) = (title_case(f), title_case(s));
    let groups = variant_groups::<K>(run, games)?;
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
    let mut table = Table::new([
        "variant".to_string(),
        "games".into(),
        "distinct games".into(),
        format!("{first} wins"),
        "draws".into(),
        format!("{second} wins"),
        format!("{first} score %"),
        "95% Wilson".into(),
        format!("{first} Elo"),
        "draw %".into(),
        "mean length".into(),
        "setups seen".into(),
    ]);
    let mut csv = format!(
        "variant,games,distinct_games,{f}_wins,draws,{s}_wins,{f}_score,score_low,score_high,draw_rate,mean_length,setups_seen,setups_raw\n",
    );
    let mut estimates = Vec::new();
    for (v, g) in &groups {
        let w = &g.white;
        let count = v.count().map_or("random".to_string(), |c| c.to_string());
        table.row([
            v.to_string(),
            g.played.to_string(),
            g.distinct.to_string(),
            w.wins.to_string(),
            w.draws.to_string(),
            w.losses.to_string(),
            percent(w.score()),
            interval(w),
            format!(
                "{:+.0}",
                score_to_elo(w.score().clamp(1e-6, 1.0 - 1e-6)) + 0.0
            ),
            percent(w.draw_rate()),
            format!("{:.1}", g.mean_length()),
            format!("{} of {}", g.setups, count),
        ]);
        let _ = writeln!(
            csv,
            "{},{},{},{},{:.2},{},{}",
            v,
            g.played,
            g.distinct,
            w.csv_fields(),
            g.mean_length(),
            g.setups,
            count
        );
        estimates.push(score_estimate(v.to_string(), w));
    }
    let _ = write!(md, "{table}");
    if run.kind == RunKind::Balance {
        let path = dir.join("summary.csv");
        std::fs::write(&path, csv).map_err(io(&path))?;
    } else {
        let path = dir.join("variants.csv");
        std::fs::write(&path, csv).map_err(io(&path))?;
    }
    if groups.len() > 1 {
        let tallies: Vec<Wdl> = groups.iter().map(|(_, g)| g.white).collect();
        let _ = writeln!(md, "\n{}", score_test(&tallies, "variants", &first));
        if groups.len() <= MAX_PAIRWISE {
            pairwise_table(md, &groups, &first);
        }
    }
    let _ = writeln!(md);
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
            let points = bins
                .iter()
                .enumerate()
                .map(|(b, &c)| (10.0 * b as f64 + 5.0, c as f64 / g.lengths.len() as f64))
                .collect();
            Series::new(name, points)
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
    let variants: Vec<K::Variant> = groups.iter().map(|(v, _)| *v).collect();
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
        "variant,setup,layout,{class_columns}games,distinct_games,{f}_wins,draws,{s}_wins,{f}_score,score_low,score_high,mean_length\n",
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
                "{},{},{},{class_values}{},{},{},{},{},{:.4},{:.4},{:.4},{:.2}",
                v,
                s,
                lay,
                g.played,
                g.distinct,
                g.white.wins,
                g.white.draws,
                g.white.losses,
                g.white.score(),
                lo,
                hi,
                g.mean_length()
            );
        }
        let _ = writeln!(md, "## {v} by setup\n");
        let note = <K::Variant as SetupVariant>::setups_note(count)
            .map_or_else(String::new, |n| format!(" ({n})"));
        let (played, distinct) = rows
            .iter()
            .fold((0, 0), |(p, d), (_, _, g)| (p + g.played, d + g.distinct));
        let _ = writeln!(
            md,
            "{} of its {count} raw setups played{note}: {played} games, {distinct} distinct.",
            rows.len()
        );
        let tallies: Vec<Wdl> = rows.iter().map(|(_, _, g)| g.white).collect();
        let _ = writeln!(md, "{}", score_test(&tallies, "setups", &first));
        let _ = writeln!(md);
        if count <= 36 && tables {
            let mut table = Table::new([
                "setup".to_string(),
                <K::Variant as SetupVariant>::DESCRIPTION.into(),
                "games".into(),
                "distinct games".into(),
                "W-D-L".into(),
                format!("{first} score %"),
                "95% Wilson".into(),
                "mean length".into(),
            ]);
            let mut estimates = Vec::new();
            for (s, lay, g) in &rows {
                let w = &g.white;
                table.row([
                    s.to_string(),
                    format!("`{lay}`"),
                    g.played.to_string(),
                    g.distinct.to_string(),
                    w.to_string(),
                    percent(w.score()),
                    interval(w),
                    format!("{:.1}", g.mean_length()),
                ]);
                estimates.push(score_estimate(s.to_string(), w));
            }
            let _ = write!(md, "{table}");
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
                let _ = writeln!(md, "By class under {title} ({} classes):\n", grouped.len());
                let mut table = Table::new([
                    "class (smallest layout)".to_string(),
                    "setups".into(),
                    "distinct games".into(),
                    format!("{first} score %"),
                    "95% Wilson".into(),
                ]);
                for (class, (setups, w)) in &grouped {
                    table.row([
                        format!("`{class}`"),
                        setups.to_string(),
                        w.games().to_string(),
                        percent(w.score()),
                        interval(w),
                    ]);
                }
                let _ = write!(md, "{table}");
                let tallies: Vec<Wdl> = grouped.values().map(|(_, w)| *w).collect();
                let _ = writeln!(md, "\n{}\n", score_test(&tallies, "classes", &first));
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

/// Variants up to which the report lists every pair's difference (28 pairs).
const MAX_PAIRWISE: usize = 8;

/// Every pair of variants: the later one's score less the earlier one's, its standard error
/// (each variant's own per-game variance), z and the two-sided p, single comparisons without
/// correction.
fn pairwise_table<V: std::fmt::Display>(md: &mut String, groups: &[(V, Group)], first: &str) {
    let _ = writeln!(
        md,
        "\nPairwise differences of {first}'s score (z test on each distinct game's score, one \
         comparison at a time):\n"
    );
    let mut table = Table::new([
        "comparison",
        "difference (points)",
        "standard error",
        "z",
        "p",
    ]);
    for (i, (a, ga)) in groups.iter().enumerate() {
        for (b, gb) in &groups[i + 1..] {
            if let Some(d) = score_difference(&gb.white, &ga.white) {
                table.row([
                    format!("{b} vs {a}"),
                    format!("{:+.1}", 100.0 * d.difference),
                    format!("{:.2}", 100.0 * d.standard_error),
                    format!("{:.2}", d.z),
                    p_text(d.p_value),
                ]);
            }
        }
    }
    let _ = write!(md, "{table}");
}

/// A p-value to two decimals, in scientific notation below 0.01 (so that none reads 0.00).
pub fn p_text(p: f64) -> String {
    if p < 1e-2 {
        format!("{p:.1e}")
    } else {
        format!("{p:.2}")
    }
}

/// Whether groups (variants, setups, classes) give the first side the same score: the F test on
/// each distinct game's score, and the largest difference between two groups not excluded.
fn score_test(groups: &[Wdl], what: &str, first: &str) -> String {
    let Some(test) = score_homogeneity(groups) else {
        return format!(
            "No test across {what}: it needs more distinct games than {what}, and scores that \
             differ within them."
        );
    };
    let mut text = format!(
        "Do the {what} differ? One-way F test of {first}'s score across {what} (each distinct \
         game's score one observation): F = {:.2} on ({}, {}) degrees of freedom, **p = {:.2e}**: \
         {}.",
        test.f,
        test.df_groups,
        test.df_games,
        test.p_value,
        if test.p_value < 0.05 {
            "they differ at the 5% level"
        } else {
            "no difference shown at the 5% level"
        }
    );
    if let Some(bound) = largest_difference_not_excluded(groups) {
        let pairs = groups.iter().filter(|w| w.games() >= 2).count();
        let level = match pairs * (pairs - 1) / 2 {
            1 => "95%".to_string(),
            n => format!("95% family-wise over the {n} pairs, Bonferroni"),
        };
        if bound < 1.0 {
            let _ = write!(
                text,
                " Differences in {first}'s score larger than **{:.1} points** between any two \
                 {what} are excluded ({level}).",
                100.0 * bound
            );
        } else {
            // A bound of 100 points or more excludes nothing a score can show.
            let _ = write!(
                text,
                " The games exclude no difference between two {what} ({level}): too few games \
                 a {}.",
                what.strip_suffix("es")
                    .filter(|w| w.ends_with("ss"))
                    .or_else(|| what.strip_suffix('s'))
                    .unwrap_or(what)
            );
        }
    }
    text
}

#[cfg(test)]
mod tests;
