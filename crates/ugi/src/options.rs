//! The engine's options (`setoption`), and the agent spec they name.

use crate::Error;

/// Which search the engine runs.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EngineKind {
    /// Alpha-beta.
    AlphaBeta,
    /// MCTS: with a network when `Checkpoint` is set, random rollouts otherwise.
    Mcts,
}

/// How `info` lines print a search's score and depth.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum ScoreFormat {
    /// `score cp <centi-units>` or `score mate <moves>`, a line for each report of the search.
    #[default]
    Ugi,
    /// Natural Selection's form, which pijersi-certu parses: `score <integer>` (centi-units; a
    /// forced result is [`NATSEL_WIN`] less its plies, negative when lost), depths strictly
    /// increasing along a search, and a last line with the search's final result.
    Natsel,
}

/// The magnitude of a forced win in [`ScoreFormat::Natsel`] scores (Natural Selection's own).
pub const NATSEL_WIN: i32 = 524_288;

impl std::str::FromStr for ScoreFormat {
    type Err = Error;

    fn from_str(s: &str) -> Result<ScoreFormat, Error> {
        match s.to_ascii_lowercase().as_str() {
            "ugi" => Ok(ScoreFormat::Ugi),
            "natsel" => Ok(ScoreFormat::Natsel),
            _ => Err(Error::UnknownScoreFormat(s.to_string())),
        }
    }
}

impl std::fmt::Display for ScoreFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ScoreFormat::Ugi => "ugi",
            ScoreFormat::Natsel => "natsel",
        })
    }
}

/// The engine's options (`setoption`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// `Engine`: `alphabeta` or `mcts`.
    pub engine: EngineKind,
    /// `Hash`: alpha-beta transposition table in MiB.
    pub hash_mib: usize,
    /// `Simulations`: MCTS simulations a move when `go` gives no limit of its own.
    pub simulations: u32,
    /// `Checkpoint`: a training checkpoint (or run directory), or an exported `.onnx` model, for
    /// MCTS; empty: rollouts.
    pub checkpoint: String,
    /// `Threads`: search threads (the agents are single-threaded: 1).
    pub threads: usize,
    /// `ScoreFormat`: how `info` lines print scores (not part of the agent's spec).
    pub score_format: ScoreFormat,
}

impl Default for EngineOptions {
    fn default() -> EngineOptions {
        EngineOptions {
            engine: EngineKind::AlphaBeta,
            hash_mib: 16,
            simulations: 800,
            checkpoint: String::new(),
            threads: 1,
            score_format: ScoreFormat::Ugi,
        }
    }
}

impl EngineOptions {
    /// The `option` lines of the `ugi` answer (`ScoreFormat`'s default is this session's).
    pub fn declarations(&self) -> Vec<String> {
        let d = EngineOptions::default();
        vec![
            "option name Engine type combo default alphabeta var alphabeta var mcts".into(),
            format!(
                "option name Hash type spin default {} min 1 max 65536",
                d.hash_mib
            ),
            format!(
                "option name Simulations type spin default {} min 1 max 100000000",
                d.simulations
            ),
            "option name Checkpoint type string default <empty>".into(),
            "option name Threads type spin default 1 min 1 max 1".into(),
            format!(
                "option name ScoreFormat type combo default {} var ugi var natsel",
                self.score_format
            ),
        ]
    }

    /// The agent spec these options name: `alphabeta:tt=<Hash>`, `mcts:sims=<Simulations>`, or
    /// `net:checkpoint=<Checkpoint>,sims=<Simulations>`.
    pub fn spec(&self) -> String {
        match self.engine {
            EngineKind::AlphaBeta => format!("alphabeta:tt={}", self.hash_mib),
            EngineKind::Mcts if self.checkpoint.is_empty() => {
                format!("mcts:sims={}", self.simulations)
            }
            EngineKind::Mcts => format!(
                "net:checkpoint={},sims={}",
                self.checkpoint, self.simulations
            ),
        }
    }

    /// Sets option `name` (case-insensitive) to `value`.
    ///
    /// # Errors
    /// [`Error::UnknownOption`], or the error of a bad value.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), Error> {
        let number = |min: u64, max: u64| -> Result<u64, Error> {
            value
                .parse::<u64>()
                .ok()
                .filter(|n| (min..=max).contains(n))
                .ok_or_else(|| Error::OutOfRange {
                    name: name.to_string(),
                    min,
                    max,
                })
        };
        match name.to_ascii_lowercase().as_str() {
            "engine" => {
                self.engine = match value.to_ascii_lowercase().as_str() {
                    "alphabeta" => EngineKind::AlphaBeta,
                    "mcts" => EngineKind::Mcts,
                    _ => return Err(Error::UnknownEngine(value.to_string())),
                }
            }
            "hash" => self.hash_mib = number(1, 65536)? as usize,
            "simulations" => self.simulations = number(1, 100_000_000)? as u32,
            "checkpoint" if value.contains(',') => {
                return Err(Error::CommaInCheckpoint);
            }
            "checkpoint" => {
                self.checkpoint = if value == "<empty>" {
                    String::new()
                } else {
                    value.to_string()
                }
            }
            "threads" => self.threads = number(1, 1)? as usize,
            "scoreformat" => self.score_format = value.parse()?,
            _ => return Err(Error::UnknownOption(name.to_string())),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_take_both_spellings_and_refuse_bad_values() {
        let mut o = EngineOptions::default();
        o.set("engine", "MCTS").unwrap();
        assert_eq!(o.engine, EngineKind::Mcts);
        o.set("Hash", "64").unwrap();
        assert_eq!(o.hash_mib, 64);
        assert!(o.set("Hash", "0").is_err());
        assert!(o.set("Threads", "2").is_err());
        assert!(o.set("Colour", "red").is_err());
        assert_eq!(o.hash_mib, 64);
        assert_eq!(o.spec(), "mcts:sims=800");
        o.set("Checkpoint", "runs/abalone").unwrap();
        assert_eq!(o.spec(), "net:checkpoint=runs/abalone,sims=800");
        assert!(o.set("Checkpoint", "a,b").is_err());
        o.set("Engine", "alphabeta").unwrap();
        assert_eq!(o.spec(), "alphabeta:tt=64");
        o.set("ScoreFormat", "NatSel").unwrap();
        assert_eq!(o.score_format, ScoreFormat::Natsel);
        assert!(o.set("ScoreFormat", "centipawns").is_err());
        assert_eq!(o.score_format, ScoreFormat::Natsel);
        // The format is no part of the agent.
        assert_eq!(o.spec(), "alphabeta:tt=64");
        assert!(o.declarations().contains(
            &"option name ScoreFormat type combo default natsel var ugi var natsel".into()
        ));
    }
}
