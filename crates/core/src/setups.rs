//! Where games start: a game's setup variants, and weighted mixes of them for self-play.

use std::fmt::Display;
use std::str::FromStr;

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use crate::{Error, Game};

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

/// A named setup variant of a game: parsed from and written as its name, and giving a start
/// from a seed (fixed layouts ignore it).
pub trait SetupVariant: Copy + FromStr + Display + Send + Sync + 'static {
    /// The game it sets up.
    type Game: Game;

    /// The start this variant gives for `seed` (random variants draw it; fixed layouts ignore
    /// it).
    fn start(self, seed: u64) -> Self::Game;

    /// How many setups the variant has when they can be listed (matches and balance studies
    /// then walk them in order); `None` for variants drawn at random.
    fn count(self) -> Option<u64> {
        Some(1)
    }

    /// Setup number `index` (below [`SetupVariant::count`]) of an enumerable variant.
    fn nth(self, index: u64) -> Self::Game {
        debug_assert!(self.count().is_none_or(|n| index < n));
        self.start(index)
    }

    /// `position` under this variant's rules (Abalone: the seat order of doubles), for a game
    /// started from a position text with a variant named. By default the position as it is.
    ///
    /// # Errors
    /// When the position cannot be played under the variant's rules.
    fn adopt(self, position: Self::Game) -> Result<Self::Game, crate::Error> {
        Ok(position)
    }

    /// A short description of a setup for per-setup tables (Pijersi: the home rows), if the
    /// variant has several.
    fn describe(_start: &Self::Game) -> Option<String> {
        None
    }

    /// What [`SetupVariant::describe`] shows, as a column header.
    const DESCRIPTION: &'static str = "setup";

    /// Groupings of setups for per-setup reports: for each, a CSV column name, a title ("the 3
    /// cyclic renamings of R, P, S") and the class of the setup described by `description`
    /// (Pijersi: the setups that are the same game, then the renamings of R, P, S). Atlas
    /// reports show the first grouping; balance reports say their setup counts are not divided
    /// by the last. None by default.
    fn classes(_description: &str) -> Vec<(&'static str, &'static str, String)> {
        Vec::new()
    }

    /// A remark on an enumerable variant's `count` setups for per-setup reports (Pijersi: how
    /// many there are up to renamings), if any.
    fn setups_note(_count: u64) -> Option<String> {
        None
    }
}

/// Setup variants drawn with relative weights: `variant:weight,variant:weight,...`.
#[derive(Clone, Debug)]
pub struct SetupMix<V> {
    mix: Vec<(V, f64)>,
}

impl<V: SetupVariant> SetupMix<V>
where
    V::Err: Display,
{
    /// A mix of variants with their relative weights.
    ///
    /// # Errors
    /// For an empty mix, a negative or non-finite weight, or all weights zero.
    pub fn new(mix: Vec<(V, f64)>) -> Result<SetupMix<V>, Error> {
        if mix.iter().any(|&(_, w)| !w.is_finite() || w < 0.0) {
            return Err(Error::SetupWeight);
        }
        if mix.iter().map(|&(_, w)| w).sum::<f64>() <= 0.0 {
            return Err(Error::NoPositiveWeight);
        }
        Ok(SetupMix { mix })
    }

    /// Parses `variant:weight,variant:weight,...` (a bare variant weighs 1).
    ///
    /// # Errors
    /// On an unknown variant or a bad weight.
    pub fn parse(text: &str) -> Result<SetupMix<V>, Error> {
        let mut mix = Vec::new();
        for part in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (name, weight) = part.split_once(':').unwrap_or((part, "1"));
            let variant: V = name.trim().parse().map_err(|e| Error::MixVariant {
                reason: format!("{e}"),
            })?;
            let weight: f64 = weight.trim().parse().map_err(|_| Error::WeightText {
                part: part.to_string(),
            })?;
            mix.push((variant, weight));
        }
        SetupMix::new(mix)
    }

    /// The variants and their weights.
    pub fn variants(&self) -> &[(V, f64)] {
        &self.mix
    }
}

impl<V: SetupVariant> Setups<V::Game> for SetupMix<V> {
    fn draw(&self, rng: &mut ChaCha8Rng) -> Start<V::Game> {
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
            position: variant.start(seed),
            variant: variant.to_string(),
            seed,
        }
    }
}
