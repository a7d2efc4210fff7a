//! [`ChompKit`]: what Chomp gives the lab's layers above the rules. A variant is a bar size,
//! `MxN`; the exact solver is its strength measure.

use std::fmt;
use std::path::Path;
use std::str::FromStr;

use pjlab_core::bench::{BenchOptions, Figure};
use pjlab_core::{
    Error as KitError, Game, GameInfo, GameKit, GameType, SetupVariant, Setups, Solved,
    ZeroHeuristic,
};
use serde::{Deserialize, Serialize};

use crate::{Chomp, ChompEncoder, ChompMove, ChompSetups, Error, Solver};

/// Chomp in the lab's registry.
#[derive(Copy, Clone, Debug, Default)]
pub struct ChompKit;

/// A bar size, written `MxN` (rows x columns): Chomp's setup variants.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ChompSize {
    /// Rows, 1..=16.
    pub rows: usize,
    /// Columns, 1..=16.
    pub cols: usize,
}

impl fmt::Display for ChompSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

impl FromStr for ChompSize {
    type Err = Error;

    fn from_str(text: &str) -> Result<ChompSize, Error> {
        let bad = || Error::Text {
            text: text.to_string(),
            reason: "a bar size is MxN, e.g. 4x5".into(),
        };
        let (rows, cols) = text.split_once(['x', 'X']).ok_or_else(bad)?;
        let size = ChompSize {
            rows: rows.trim().parse().map_err(|_| bad())?,
            cols: cols.trim().parse().map_err(|_| bad())?,
        };
        crate::check_size(size.rows, size.cols)?;
        Ok(size)
    }
}

impl SetupVariant for ChompSize {
    type Game = Chomp;

    fn start(self, _seed: u64) -> Chomp {
        Chomp::new(self.rows, self.cols).expect("a checked size")
    }
}

/// The `[chomp]` table of a training config.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ChompConfig {
    /// Rows of the bar.
    pub rows: usize,
    /// Columns of the bar.
    pub cols: usize,
    /// Share of games (0..=1) starting from a random diagram instead of the full bar.
    pub random_share: f64,
}

impl Default for ChompConfig {
    fn default() -> Self {
        ChompConfig {
            rows: 5,
            cols: 6,
            random_share: 0.5,
        }
    }
}

/// Every Chomp diagram of a `rows x cols` bar that is not over, as row lengths.
pub fn diagrams(rows: usize, cols: usize) -> Vec<Vec<usize>> {
    fn rec(rows: usize, max: usize, prefix: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if prefix.len() == rows {
            out.push(prefix.clone());
            return;
        }
        for len in 0..=max {
            prefix.push(len);
            rec(rows, len, prefix, out);
            prefix.pop();
        }
    }
    let mut out = Vec::new();
    rec(rows, cols, &mut Vec::new(), &mut out);
    out.retain(|l| l[0] >= 1 && !(l[0] == 1 && l[1..].iter().all(|&a| a == 0)));
    out
}

impl GameKit for ChompKit {
    type Game = Chomp;
    type Variant = ChompSize;
    type Eval = ZeroHeuristic;
    type Encoder = ChompEncoder;
    type Config = ChompConfig;

    const INFO: GameInfo = GameInfo {
        name: "chomp",
        sides: ["first", "second"],
        opening_plies: 0,
        game_type: GameType::board_game("Chomp", 2, 2),
    };

    fn board_svg(position: &Chomp, last: Option<(&Chomp, ChompMove)>) -> Option<String> {
        Some(crate::svg::svg(position, last))
    }

    fn variants() -> Vec<ChompSize> {
        [(3, 4), (4, 5), (5, 6)]
            .map(|(rows, cols)| ChompSize { rows, cols })
            .to_vec()
    }

    /// The training config's default bar, 5x6.
    fn setup_variant() -> ChompSize {
        let config = ChompConfig::default();
        ChompSize {
            rows: config.rows,
            cols: config.cols,
        }
    }

    fn solver_bench(options: &BenchOptions) -> Vec<Figure> {
        crate::bench::figures(options)
    }

    fn evaluation(weights: Option<&Path>) -> Result<ZeroHeuristic, KitError> {
        match weights {
            None => Ok(ZeroHeuristic),
            Some(_) => Err(KitError::NoWeights {
                game: Self::INFO.name,
            }),
        }
    }

    fn encoder(config: &ChompConfig) -> ChompEncoder {
        ChompEncoder::new(config.rows, config.cols)
    }

    /// The encoder of `start`'s bar size.
    fn position_encoder(start: &Chomp) -> ChompEncoder {
        ChompEncoder::new(start.rows(), start.cols())
    }

    /// Every move takes at least one square and the poisoned one ends the game: at most
    /// `rows * cols` plies.
    fn max_game_length(start: &Chomp) -> Option<u32> {
        u32::try_from(start.rows() * start.cols()).ok()
    }

    fn self_play_setups(config: &ChompConfig) -> Result<Box<dyn Setups<Chomp>>, KitError> {
        ChompSetups::new(config.rows, config.cols, config.random_share)
            .map(|s| Box::new(s) as Box<dyn Setups<Chomp>>)
            .map_err(|e| KitError::Setups {
                reason: e.to_string(),
            })
    }

    fn variant(name: &str) -> Result<ChompSize, KitError> {
        name.parse().map_err(|e: Error| KitError::UnknownVariant {
            name: name.to_string(),
            reason: e.to_string(),
        })
    }

    /// Every winning diagram of the bar with its winning moves, by the exact solver.
    fn solved_positions(config: &ChompConfig) -> Option<Solved<Chomp>> {
        let (rows, cols) = (config.rows, config.cols);
        let solver = Solver::new(rows, cols).ok()?;
        let positions = diagrams(rows, cols)
            .into_iter()
            .filter(|l| !solver.is_p(l))
            .map(|l| {
                let text = format!(
                    "{rows}x{cols}:{}:1",
                    l.iter().map(usize::to_string).collect::<Vec<_>>().join(",")
                );
                let position = Chomp::from_text(&text).expect("a valid diagram");
                let wins = solver
                    .winning_moves(&l)
                    .into_iter()
                    .map(|(r, c)| ChompMove {
                        row: (r - 1) as u8,
                        col: (c - 1) as u8,
                    })
                    .collect();
                (position, wins)
            })
            .collect();
        Some(positions)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diagrams_are_counted_by_the_binomial() {
        // Diagrams in a 5 x 6 bar: C(11, 5) = 462, minus the empty one and the poison alone.
        assert_eq!(diagrams(5, 6).len(), 460);
        assert_eq!(diagrams(2, 2).len(), 6 - 2);
    }

    #[test]
    fn sizes_parse() {
        assert_eq!(
            "4x5".parse::<ChompSize>().unwrap(),
            ChompSize { rows: 4, cols: 5 }
        );
        for bad in ["4", "x5", "0x3", "17x2", "axb", ""] {
            assert!(bad.parse::<ChompSize>().is_err(), "{bad}");
        }
    }
}
