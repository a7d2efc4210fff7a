//! Where Chomp self-play games start: [`ChompSetups`].

use pjlab_core::{Game, Setups, Start};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use crate::{Chomp, Error};

/// Chomp on a fixed bar: the full bar, or with probability `random_share` a random diagram
/// (so that training sees the whole position space).
#[derive(Clone, Debug)]
pub struct ChompSetups {
    rows: usize,
    cols: usize,
    random_share: f64,
}

impl ChompSetups {
    /// Setups on a `rows x cols` bar.
    ///
    /// # Errors
    /// [`Error::Size`] on a bar size Chomp refuses, [`Error::Setups`] for a share outside 0..=1.
    pub fn new(rows: usize, cols: usize, random_share: f64) -> Result<ChompSetups, Error> {
        Chomp::new(rows, cols)?;
        if !(0.0..=1.0).contains(&random_share) {
            return Err(Error::Setups("random_share must be within 0..=1".into()));
        }
        Ok(ChompSetups {
            rows,
            cols,
            random_share,
        })
    }
}

impl Setups<Chomp> for ChompSetups {
    fn draw(&self, rng: &mut ChaCha8Rng) -> Start<Chomp> {
        if rng.random::<f64>() >= self.random_share {
            return Start {
                position: Chomp::new(self.rows, self.cols).expect("size checked"),
                variant: "full".into(),
                seed: 0,
            };
        }
        let seed = rng.random::<u64>();
        let mut local = <ChaCha8Rng as rand::SeedableRng>::seed_from_u64(seed);
        loop {
            let mut lengths: Vec<usize> = (0..self.rows)
                .map(|_| local.random_range(0..=self.cols))
                .collect();
            lengths.sort_unstable_by(|a, b| b.cmp(a));
            let text = format!(
                "{}x{}:{}:1",
                self.rows,
                self.cols,
                lengths
                    .iter()
                    .map(usize::to_string)
                    .collect::<Vec<_>>()
                    .join(",")
            );
            if let Ok(position) = Chomp::from_text(&text)
                && position.outcome().is_none()
            {
                return Start {
                    position,
                    variant: "random-diagram".into(),
                    seed,
                };
            }
        }
    }
}
