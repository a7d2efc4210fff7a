//! Where self-play games start: a configurable mix of setup variants. Random setups matter:
//! games from the classic setup alone repeat.

use pjlab_chomp::Chomp;
use pjlab_core::Game;
use pjlab_pijersi::{Position, Variant};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use crate::Error;

/// A game's starting position and where it came from.
#[derive(Clone, Debug)]
pub struct Start<G> {
    /// The starting position.
    pub position: G,
    /// The setup variant's name.
    pub variant: String,
    /// The seed the setup was drawn with (0 for fixed setups).
    pub seed: u64,
}

/// Draws starting positions.
pub trait Setups<G: Game>: Send + Sync {
    /// A starting position drawn with `rng`.
    fn draw(&self, rng: &mut ChaCha8Rng) -> Start<G>;
}

/// Pijersi setups drawn from weighted variants.
#[derive(Clone, Debug)]
pub struct PijersiSetups {
    mix: Vec<(Variant, f64)>,
}

impl PijersiSetups {
    /// A mix of variants with their relative weights.
    ///
    /// # Errors
    /// [`Error::Config`] for an empty mix, a negative or non-finite weight, or all weights zero.
    pub fn new(mix: Vec<(Variant, f64)>) -> Result<PijersiSetups, Error> {
        if mix.iter().any(|&(_, w)| !w.is_finite() || w < 0.0) {
            return Err(Error::Config(
                "setup weights must be finite and >= 0".into(),
            ));
        }
        if mix.iter().map(|&(_, w)| w).sum::<f64>() <= 0.0 {
            return Err(Error::Config(
                "the setup mix needs a positive weight".into(),
            ));
        }
        Ok(PijersiSetups { mix })
    }

    /// Parses `variant:weight,variant:weight,...` (a bare variant weighs 1).
    ///
    /// # Errors
    /// [`Error::Config`] on an unknown variant or a bad weight.
    pub fn parse(text: &str) -> Result<PijersiSetups, Error> {
        let mut mix = Vec::new();
        for part in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (name, weight) = part.split_once(':').unwrap_or((part, "1"));
            let variant: Variant = name
                .trim()
                .parse()
                .map_err(|e| Error::Config(format!("setup mix: {e}")))?;
            let weight: f64 = weight
                .trim()
                .parse()
                .map_err(|_| Error::Config(format!("setup mix: bad weight in {part:?}")))?;
            mix.push((variant, weight));
        }
        PijersiSetups::new(mix)
    }
}

impl Setups<Position> for PijersiSetups {
    fn draw(&self, rng: &mut ChaCha8Rng) -> Start<Position> {
        let total: f64 = self.mix.iter().map(|&(_, w)| w).sum();
        let mut x = rng.random::<f64>() * total;
        let mut variant = self.mix[0].0;
        for &(v, w) in &self.mix {
            if x < w {
                variant = v;
                break;
            }
            x -= w;
        }
        let seed = rng.random::<u64>();
        Start {
            position: variant.setup(seed),
            variant: variant.name().to_string(),
            seed,
        }
    }
}

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
    /// [`Error::Config`] on a bar size Chomp refuses or a share outside 0..=1.
    pub fn new(rows: usize, cols: usize, random_share: f64) -> Result<ChompSetups, Error> {
        Chomp::new(rows, cols).map_err(|e| Error::Config(e.to_string()))?;
        if !(0.0..=1.0).contains(&random_share) {
            return Err(Error::Config("random_share must be within 0..=1".into()));
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
