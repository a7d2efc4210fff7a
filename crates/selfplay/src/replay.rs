//! The replay window: the most recent self-play samples, growing with the data, with a cap on
//! how often each sample is trained on.

use std::collections::VecDeque;

use pjlab_core::Game;
use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::Error;
use crate::play::Sample;
use crate::record::PositionRow;

/// Sizing and reuse of the replay window.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WindowConfig {
    /// Smallest window, in samples (also the samples needed before training starts).
    pub min_size: usize,
    /// Largest window, in samples (bounds memory: about 300 bytes a Pijersi sample).
    pub max_size: usize,
    /// The window holds this share of all samples seen so far, between the two bounds.
    pub fraction: f64,
    /// A sample is trained on at most this many times.
    pub max_uses: u8,
}

impl Default for WindowConfig {
    fn default() -> Self {
        WindowConfig {
            min_size: 2_000,
            max_size: 250_000,
            fraction: 0.5,
            max_uses: 8,
        }
    }
}

/// The most recent samples and their use counts.
#[derive(Clone, Debug)]
pub struct ReplayWindow<G> {
    config: WindowConfig,
    samples: VecDeque<Sample<G>>,
    uses: VecDeque<u8>,
    seen: u64,
}

impl<G: Game> ReplayWindow<G> {
    /// An empty window.
    pub fn new(config: WindowConfig) -> ReplayWindow<G> {
        ReplayWindow {
            config,
            samples: VecDeque::new(),
            uses: VecDeque::new(),
            seen: 0,
        }
    }

    /// The window size for the samples seen so far.
    pub fn capacity(&self) -> usize {
        let share = (self.seen as f64 * self.config.fraction) as usize;
        share.clamp(
            self.config.min_size,
            self.config.max_size.max(self.config.min_size),
        )
    }

    /// Adds a sample, dropping the oldest beyond the window's size.
    pub fn push(&mut self, sample: Sample<G>) {
        self.samples.push_back(sample);
        self.uses.push_back(0);
        self.seen += 1;
        let cap = self.capacity();
        while self.samples.len() > cap {
            self.samples.pop_front();
            self.uses.pop_front();
        }
    }

    /// Samples in the window.
    pub fn len(&self) -> usize {
        self.samples.len()
    }

    /// Whether the window is empty.
    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    /// Samples pushed since the start of the run.
    pub fn seen(&self) -> u64 {
        self.seen
    }

    /// Whether enough samples are in to start training.
    pub fn is_ready(&self) -> bool {
        self.samples.len() >= self.config.min_size
    }

    /// The sample at `index` (0 is the oldest in the window).
    pub fn get(&self, index: usize) -> &Sample<G> {
        &self.samples[index]
    }

    /// Use counts, oldest first (saved with checkpoints).
    pub fn uses(&self) -> Vec<u8> {
        self.uses.iter().copied().collect()
    }

    /// Draws up to `n` distinct-or-not samples that are under their use cap, counting the use.
    /// Returns fewer (possibly none) when the window is used up.
    pub fn draw(&mut self, n: usize, rng: &mut ChaCha8Rng) -> Vec<usize> {
        let mut out = Vec::with_capacity(n);
        if self.samples.is_empty() {
            return out;
        }
        let mut tries = 0;
        while out.len() < n && tries < 8 * n {
            tries += 1;
            let i = rng.random_range(0..self.samples.len());
            if self.uses[i] < self.config.max_uses {
                self.uses[i] += 1;
                out.push(i);
            }
        }
        out
    }

    /// Rebuilds a window from saved rows (oldest first), its use counts and the number of
    /// samples seen, as a checkpoint left it.
    ///
    /// # Errors
    /// [`Error::Position`] when a row's position does not parse, [`Error::WindowCounts`] when
    /// the counts do not match.
    pub fn restore(
        config: WindowConfig,
        rows: &[PositionRow],
        uses: &[u8],
        seen: u64,
    ) -> Result<ReplayWindow<G>, Error> {
        if rows.len() != uses.len() {
            return Err(Error::WindowCounts {
                rows: rows.len(),
                uses: uses.len(),
            });
        }
        let samples = rows
            .iter()
            .map(Sample::from_row)
            .collect::<Result<VecDeque<_>, _>>()?;
        Ok(ReplayWindow {
            config,
            samples,
            uses: uses.iter().copied().collect(),
            seen,
        })
    }
}

impl<G: Game> Sample<G> {
    /// The sample a positions-table row holds.
    ///
    /// # Errors
    /// [`Error::Position`] when the position does not parse.
    pub fn from_row(row: &PositionRow) -> Result<Sample<G>, Error> {
        let position = G::from_text(&row.position).map_err(|e| Error::Position {
            text: row.position.clone(),
            cause: Box::new(e),
        })?;
        Ok(Sample {
            position,
            ply: row.ply,
            policy: row
                .policy_actions
                .iter()
                .zip(&row.policy_probs)
                .map(|(&a, &p)| (u32::from(a), p))
                .collect(),
            policy_target: row.policy_target,
            search_value: row.search_value,
            result: row.result,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pjlab_chomp::Chomp;
    use rand::SeedableRng;

    fn sample() -> Sample<Chomp> {
        Sample {
            position: Chomp::new(2, 2).unwrap(),
            ply: 0,
            policy: vec![(1, 1.0)],
            policy_target: true,
            search_value: 0.0,
            result: 1.0,
        }
    }

    #[test]
    fn window_grows_with_the_data_between_its_bounds() {
        let config = WindowConfig {
            min_size: 10,
            max_size: 40,
            fraction: 0.5,
            max_uses: 2,
        };
        let mut w = ReplayWindow::new(config);
        let mut sizes = Vec::new();
        for _ in 0..200 {
            w.push(sample());
            sizes.push(w.len());
        }
        assert_eq!(sizes[9], 10);
        assert_eq!(
            sizes[15], 10,
            "min_size holds while half the data is smaller"
        );
        assert_eq!(sizes[59], 30, "half of 60 seen");
        assert_eq!(sizes[199], 40, "max_size bounds it");
        assert!(sizes.windows(2).all(|p| p[1] >= p[0]));
    }

    #[test]
    fn no_sample_is_drawn_more_than_its_cap() {
        let config = WindowConfig {
            min_size: 5,
            max_size: 5,
            fraction: 1.0,
            max_uses: 3,
        };
        let mut w = ReplayWindow::new(config);
        for _ in 0..5 {
            w.push(sample());
        }
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut total = 0;
        for _ in 0..20 {
            total += w.draw(4, &mut rng).len();
        }
        assert_eq!(total, 15, "5 samples x 3 uses, then nothing");
        assert_eq!(w.uses(), vec![3; 5]);
    }
}
