//! A run split into shards: `--shard K/N` plays the K-th of N disjoint parts of a run's schedule
//! (whole colour pairs: pair `p` goes to shard `p % N + 1`), so that N processes, on as many
//! machines, play one run between them, each into its own directory; [`merge`] then joins the N
//! finished shards into the run they make up, exactly as if it had been played in one piece.
//!
//! This module holds the shard itself: its `K/N` form (on the command line and in the saved
//! [`RunSpec`](crate::RunSpec)) and which colour pairs it holds. The merge lives in
//! [`crate::merge`]; its items are re-exported here.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

pub use crate::merge::{ShardRun, merge, without_shard_flag};

/// The K-th of N parts of a run, 1-based (`1 <= index <= count`), written `K/N`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct Shard {
    index: u32,
    count: u32,
}

/// A shard that is not `K/N` with `1 <= K <= N`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseShardError {
    /// Not two numbers separated by `/`.
    #[error("invalid shard `{0}`: expected K/N, the K-th of N parts (such as 2/4)")]
    Syntax(String),
    /// K is 0 or larger than N.
    #[error("invalid shard `{index}/{count}`: K must be between 1 and N")]
    Range {
        /// K.
        index: u32,
        /// N.
        count: u32,
    },
}

impl Shard {
    /// The `index`-th of `count` parts.
    ///
    /// # Errors
    /// [`ParseShardError::Range`] unless `1 <= index <= count`.
    pub fn new(index: u32, count: u32) -> Result<Self, ParseShardError> {
        if index == 0 || index > count {
            return Err(ParseShardError::Range { index, count });
        }
        Ok(Shard { index, count })
    }

    /// K, from 1.
    pub fn index(self) -> u32 {
        self.index
    }

    /// N.
    pub fn count(self) -> u32 {
        self.count
    }

    /// Whether the games of colour pair `pair` (a balance game's own id) belong to this shard.
    pub fn holds(self, pair: u64) -> bool {
        pair % u64::from(self.count) == u64::from(self.index - 1)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = ParseShardError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let syntax = || ParseShardError::Syntax(text.to_string());
        let (k, n) = text.trim().split_once('/').ok_or_else(syntax)?;
        let number = |s: &str| s.trim().parse::<u32>().map_err(|_| syntax());
        Shard::new(number(k)?, number(n)?)
    }
}

impl From<Shard> for String {
    fn from(shard: Shard) -> String {
        shard.to_string()
    }
}

impl TryFrom<String> for Shard {
    type Error = ParseShardError;

    fn try_from(text: String) -> Result<Self, Self::Error> {
        text.parse()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_print_and_refuse_bad_ones() {
        let shard: Shard = "2/4".parse().unwrap();
        assert_eq!((shard.index(), shard.count()), (2, 4));
        assert_eq!(shard.to_string(), "2/4");
        assert!(shard.holds(1) && shard.holds(5) && !shard.holds(2));
        for bad in ["0/3", "4/3", "1/0"] {
            assert!(matches!(
                bad.parse::<Shard>(),
                Err(ParseShardError::Range { .. })
            ));
        }
        for bad in ["x", "1", "1/", "/3", "-1/3", "1/3/4", ""] {
            assert_eq!(
                bad.parse::<Shard>(),
                Err(ParseShardError::Syntax(bad.into()))
            );
        }
        let json = serde_json::to_string(&Some(shard)).unwrap();
        assert_eq!(json, "\"2/4\"");
        assert_eq!(
            serde_json::from_str::<Option<Shard>>(&json).unwrap(),
            Some(shard)
        );
        assert!(serde_json::from_str::<Shard>("\"5/4\"").is_err());
    }
}
