//! [`GameRecord`]: a lone game as its seed and actions, replayable.
//!
//! Text form (one keyword a line; `actions` lines may repeat and are joined):
//! ```text
//! chifoumi-game 1
//! seed 42
//! actions N E E S DUEL
//! ```
//! Replaying seeds a `ChaCha8Rng` with the seed, deals with [`Game::new`] and plays the
//! actions with that same generator (which draws the duel), so the same rules give the same
//! game.

use std::fmt;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::{Action, Error, Game, Rules};

/// A lone game: the seed of its generator and the actions played.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameRecord {
    /// The seed of the `ChaCha8Rng` that dealt the game and drew its duel.
    pub seed: u64,
    /// The actions, in order.
    pub actions: Vec<Action>,
}

const HEADER: &str = "chifoumi-game 1";

impl GameRecord {
    /// Replays the record under `rules`.
    ///
    /// # Errors
    /// [`Error::Rules`] when the rules do not check; [`Error::Record`] (line 3, the first
    /// `actions` line) when an action is illegal where it is played.
    pub fn replay(&self, rules: &Rules) -> Result<Game, Error> {
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        let mut game = Game::new(rules, &mut rng)?;
        for (n, &action) in self.actions.iter().enumerate() {
            game.play(action, &mut rng).map_err(|e| Error::Record {
                line: 3,
                reason: format!("action {} ({action}): {e}", n + 1),
            })?;
        }
        Ok(game)
    }

    /// Reads the text form.
    ///
    /// # Errors
    /// [`Error::Record`] with the line of the first fault.
    pub fn parse(text: &str) -> Result<GameRecord, Error> {
        let err = |line: usize, reason: String| Error::Record { line, reason };
        let mut seed = None;
        let mut actions = Vec::new();
        let mut header = false;
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
            match key {
                _ if !header => {
                    if line != HEADER {
                        return Err(err(n + 1, format!("expected {HEADER:?}")));
                    }
                    header = true;
                }
                "seed" => {
                    let s = rest
                        .trim()
                        .parse()
                        .map_err(|_| err(n + 1, format!("bad seed {rest:?}")))?;
                    seed = Some(s);
                }
                "actions" => {
                    for token in rest.split_whitespace() {
                        actions.push(
                            token
                                .parse::<Action>()
                                .map_err(|e| err(n + 1, e.to_string()))?,
                        );
                    }
                }
                _ => return Err(err(n + 1, format!("unknown keyword {key:?}"))),
            }
        }
        let last = text.lines().count().max(1);
        if !header {
            return Err(err(last, format!("expected {HEADER:?}")));
        }
        let seed = seed.ok_or_else(|| err(last, "no seed line".into()))?;
        Ok(GameRecord { seed, actions })
    }
}

impl fmt::Display for GameRecord {
    /// The text form ([`GameRecord::parse`] reads it back).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{HEADER}")?;
        writeln!(f, "seed {}", self.seed)?;
        write!(f, "actions")?;
        for a in &self.actions {
            write!(f, " {a}")?;
        }
        writeln!(f)
    }
}
