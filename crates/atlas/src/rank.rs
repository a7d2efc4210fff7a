//! The variants of each level under each protocol ranked by their first-side score's distance
//! from 50%, and every pair of them compared with Holm's correction: computed once for the
//! whole report, which reads them in several sections.

use pjlab_stats::scores::score_difference;
use pjlab_stats::stats::holm;

use crate::Atlas;
use crate::results::{Measure, Results};

/// The variants of one level under one protocol.
pub(crate) struct Ranking<'a> {
    /// Their measures, closest to 50% first.
    pub measures: Vec<&'a Measure>,
    /// Every pair of them that can be compared, with Holm-adjusted p-values.
    pub pairs: Vec<Pair>,
}

/// Every level's [`Ranking`] under every protocol.
pub(crate) struct Rankings<'a> {
    protocols: usize,
    by_cell: Vec<Ranking<'a>>,
}

impl<'a> Rankings<'a> {
    /// The rankings of every level and protocol of `atlas` in `results`.
    pub fn of(atlas: &Atlas, results: &'a Results) -> Rankings<'a> {
        let protocols = atlas.protocols.len();
        let mut by_cell = Vec::with_capacity(atlas.levels.len() * protocols);
        for level in 0..atlas.levels.len() {
            for protocol in 0..protocols {
                let measures = ranked(results, level, protocol);
                let pairs = pairwise(&measures);
                by_cell.push(Ranking { measures, pairs });
            }
        }
        Rankings { protocols, by_cell }
    }

    /// The ranking of `level` under `protocol`.
    pub fn at(&self, level: usize, protocol: usize) -> &Ranking<'a> {
        &self.by_cell[level * self.protocols + protocol]
    }
}

/// The measures of a level under a protocol, ordered by distance of the score from 50%.
fn ranked(results: &Results, level: usize, protocol: usize) -> Vec<&Measure> {
    let mut ms: Vec<&Measure> = results
        .measures
        .iter()
        .filter(|m| m.level == level && m.protocol == protocol)
        .collect();
    ms.sort_by(|a, b| {
        let d = |m: &Measure| (m.group.white.score() - 0.5).abs();
        d(a).total_cmp(&d(b))
    });
    ms
}

/// One pair of variants compared at a level.
pub(crate) struct Pair {
    /// The first variant.
    pub a: String,
    /// The second variant.
    pub b: String,
    /// The first's score less the second's.
    pub difference: f64,
    /// The p-value of the difference, Holm-adjusted over the family.
    pub holm_p: f64,
}

/// Every pair of the measures, `a`'s score less `b`'s, with Holm-adjusted p-values.
fn pairwise(ms: &[&Measure]) -> Vec<Pair> {
    let mut raw = Vec::new();
    for (i, a) in ms.iter().enumerate() {
        for b in &ms[i + 1..] {
            if let Some(d) = score_difference(&a.group.white, &b.group.white) {
                raw.push((
                    a.variant.clone(),
                    b.variant.clone(),
                    d.difference,
                    d.p_value,
                ));
            }
        }
    }
    let adjusted = holm(&raw.iter().map(|r| r.3).collect::<Vec<_>>());
    raw.into_iter()
        .zip(adjusted)
        .map(|((a, b, difference, _), holm_p)| Pair {
            a,
            b,
            difference,
            holm_p,
        })
        .collect()
}
