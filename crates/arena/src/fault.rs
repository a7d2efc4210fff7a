//! Why a run's options cannot be played, pooled or merged: the typed reasons behind
//! [`Error::Spec`](crate::Error::Spec), [`Error::Pool`](crate::Error::Pool) and
//! [`Error::Merge`](crate::Error::Merge). Runs are named by their source (the directory
//! they were read from).

use crate::{RunKind, Shard};

/// A run spec, or a player's spec in it, that cannot be played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecFault {
    /// An empty list of setup variants.
    #[error("no setup variant given")]
    NoVariant,
    /// A run of another game than the kit's.
    #[error("the run is a {run} run, not a {kit} one")]
    OtherGame {
        /// The run's game.
        run: String,
        /// The kit's game.
        kit: &'static str,
    },
    /// A kind of run the arena does not play.
    #[error(
        "a {} run is not played by the arena (match, tournament or balance)",
        .0.name()
    )]
    NotArena(RunKind),
    /// Too few or too many players for the run's kind.
    #[error("a {kind:?} needs {} players, got {got}", players_wanted(*kind))]
    Players {
        /// The run's kind.
        kind: RunKind,
        /// The players it names.
        got: usize,
    },
    /// A run of no games.
    #[error("the number of games must be positive")]
    NoGames,
    /// A shard of a run decided by an SPRT.
    #[error(
        "--shard cannot split a run with --sprt-elo: a sequential test decides on the games in \
         the order they finish"
    )]
    ShardOfSprt,
    /// More shards than the run has units to split (colour pairs, or games).
    #[error("shard {shard}: the run has {units} {what}, so it splits into at most {units} shards")]
    TooManyShards {
        /// The shard asked.
        shard: Shard,
        /// The run's colour pairs (or games).
        units: u64,
        /// `colour pairs` or `games`.
        what: &'static str,
    },
    /// A directory that holds another shard (or an unsharded run) than the one asked.
    #[error("{out} holds {}, not shard {asked}", held_text(*held))]
    OtherShard {
        /// The run directory.
        out: String,
        /// What it holds.
        held: Option<Shard>,
        /// The shard asked.
        asked: Shard,
    },
    /// A pool of replicates resumed as if it were a run.
    #[error(
        "{0} is a pool of replicates (`pjlab report --pool`): resume each replicate in its own \
         directory, then pool them again"
    )]
    ResumePool(String),
    /// A player's `name=` without a name.
    #[error("`{0}`: `name=` needs a name (the agent's label in reports)")]
    EmptyName(String),
    /// A player's spec with two `name=`.
    #[error("`{0}` names its agent twice")]
    NamedTwice(String),
}

/// What a directory holds, as [`SpecFault::OtherShard`] says it.
fn held_text(held: Option<Shard>) -> String {
    held.map_or("an unsharded run".to_string(), |s| format!("shard {s}"))
}

/// What [`SpecFault::Players`] says a run of `kind` needs.
fn players_wanted(kind: RunKind) -> &'static str {
    match kind {
        RunKind::Tournament => "at least 2",
        RunKind::Match => "2",
        _ => "1",
    }
}

/// Replicates that cannot be pooled into one run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PoolFault {
    /// Fewer than two replicates (the one given, if any).
    #[error(
        "pooling needs at least two replicates{}",
        only.as_ref().map_or(String::new(), |s| format!(", got only {s}"))
    )]
    TooFew {
        /// The only replicate given.
        only: Option<String>,
    },
    /// Two runs whose options differ in more than their seed, command and sessions.
    #[error(
        "{first} and {other} are not replicates of one match: their {} differ",
        differ.join(", ")
    )]
    NotReplicates {
        /// The first replicate.
        first: String,
        /// The one that differs.
        other: String,
        /// The options that differ.
        differ: Vec<String>,
    },
    /// One seed given twice.
    #[error(
        "seed {seed} is pooled twice ({source_dir} is one of them): replicates are played with \
         different seeds"
    )]
    SeedTwice {
        /// The seed.
        seed: u64,
        /// One of the runs that has it.
        source_dir: String,
    },
    /// A shard given as a replicate.
    #[error(
        "{source_dir} is shard {shard} of a run: merge the run's shards first (`pjlab report \
         --merge`)"
    )]
    Shard {
        /// The run.
        source_dir: String,
        /// Its shard.
        shard: Shard,
    },
    /// A pool given as a replicate.
    #[error("{0} is already a pool: give its replicates instead")]
    AlreadyPool(String),
    /// A replicate that has not played all its games.
    #[error(
        "{source_dir} is unfinished: {played} of its {scheduled} games played (finish it with \
         --resume)"
    )]
    Unfinished {
        /// The run.
        source_dir: String,
        /// Its games played.
        played: usize,
        /// Its games scheduled.
        scheduled: usize,
    },
}

/// Shards that cannot be merged into their run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MergeFault {
    /// Two shards whose options differ in more than their shard, command and sessions.
    #[error("{first} and {other} are not shards of one run: their {} differ", differ.join(", "))]
    NotShards {
        /// The first shard.
        first: String,
        /// The one that differs.
        other: String,
        /// The options that differ.
        differ: Vec<String>,
    },
    /// A run played without `--shard`.
    #[error("{0} is not a shard: it was run without --shard")]
    NotAShard(String),
    /// Shards of different counts.
    #[error(
        "shard counts disagree: {named} is one of {count} shards, {other} ({shard}) one of {}",
        shard.count()
    )]
    Counts {
        /// The shard that set the count.
        named: String,
        /// Its count.
        count: u32,
        /// The shard that disagrees.
        other: String,
        /// Its shard.
        shard: Shard,
    },
    /// One shard given twice.
    #[error("shard {shard} is given twice: {first} and {second}")]
    Twice {
        /// The shard.
        shard: Shard,
        /// Where it was first.
        first: String,
        /// Where it was again.
        second: String,
    },
    /// No shard at all.
    #[error("no shard to merge")]
    None,
    /// Shards missing from the count.
    #[error("shard {} missing: merging needs all {count} shards", missing.join(", "))]
    Missing {
        /// The missing shards, as `k/n`.
        missing: Vec<String>,
        /// The shard count.
        count: u32,
    },
    /// A game a shard holds that is not of its part.
    #[error("{source_dir}: game {id} is not of shard {shard}")]
    NotOfShard {
        /// The shard's run.
        source_dir: String,
        /// The game's id.
        id: u64,
        /// The shard.
        shard: Shard,
    },
    /// A game two shards hold.
    #[error("game {id} appears twice: in {first} and in {second}")]
    GameTwice {
        /// The game's id.
        id: u64,
        /// One shard holding it.
        first: String,
        /// The other.
        second: String,
    },
    /// A shard that has not played all its games.
    #[error(
        "{source_dir} is unfinished: {played} of the {of} games of shard {shard} played (finish it \
         with --resume)"
    )]
    Unfinished {
        /// The shard's run.
        source_dir: String,
        /// Its games played.
        played: usize,
        /// Its part's games.
        of: usize,
        /// The shard.
        shard: Shard,
    },
}
