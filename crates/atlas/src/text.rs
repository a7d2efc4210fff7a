//! The report's wording of figures: differences and bounds in points, scores and rates with
//! their intervals, mean lengths, levels with their Elo, a protocol's variants.

use pjlab_arena::report::{Group, percent as pct};
use pjlab_stats::stats::{Wdl, wilson};

use crate::Atlas;
use crate::results::Results;

/// A difference in points with its sign and one decimal (`+1.3`, `-0.4`); one that rounds to
/// zero is `+0.0`, never `-0.0`.
pub(crate) fn signed(points: f64) -> String {
    let text = format!("{points:+.1}");
    if text == "-0.0" { "+0.0".into() } else { text }
}

/// An interval's bound in points: as [`signed`], but one under 0.05 from zero keeps its sign
/// with as many decimals as that takes (`-0.03`), so that an interval holding zero reads so.
pub(crate) fn bound(points: f64) -> String {
    if points != 0.0 && points.abs() < 0.05 {
        let decimals = ((-points.abs().log10()).ceil() as usize).clamp(2, 4);
        format!("{points:+.decimals$}")
    } else {
        signed(points)
    }
}

/// A score in percent with its Wilson interval: `52.1% (49.0-55.2)`.
pub(crate) fn score_text(w: &Wdl) -> String {
    let (low, high) = w.interval();
    format!("{}% ({}-{})", pct(w.score()), pct(low), pct(high))
}

/// A rate in percent with its 95% Wilson interval: `1.1 (0.8-1.5)`.
pub(crate) fn rate_text(count: u64, of: u64) -> String {
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
pub(crate) fn length_text(group: &Group) -> String {
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

/// A level's name, with its Elo on the ladder once the ladder has games.
pub(crate) fn level_label(atlas: &Atlas, results: &Results, level: usize) -> String {
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
pub(crate) fn variants_of(atlas: &Atlas, protocol: usize) -> Vec<String> {
    atlas.protocols[protocol]
        .runs
        .iter()
        .flat_map(|r| r.variants.iter().cloned())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{bound, signed};

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
