//! Training split into roles that talk only through files in one run directory, so they can run
//! as separate processes, on one machine or many sharing a filesystem (`scripts/ray/lab.py`
//! starts them as Ray actors):
//!
//! - [`actor::self_play_actor`] (`pjlab selfplay --run DIR --actor K`) loads the newest
//!   checkpoint, plays a batch of games, writes it as a chunk, picks up a newer checkpoint,
//!   and again, until the learner has finished;
//! - [`learner::learn`] (`pjlab train --run DIR --learner`) waits for chunks worth an
//!   iteration's games, takes them into the replay window, trains at the configured ratio,
//!   evaluates and writes checkpoints, exactly as the single-process loop does.
//!
//! Run directory, beyond the single-process loop's (see [`crate::run`]):
//!
//! ```text
//! games/a001-000017.parquet      chunk 17 of actor 1: its games (schema games/1)
//! positions/a001-000017.parquet  their positions (schema positions/1)
//! actors/a001.lock               held by actor 1 while it runs
//! checkpoints/iter-0000/         the initial network, written by the learner for the actors
//! ```
//!
//! A chunk is committed by its games file: both files are written to temporary names and
//! renamed, positions first, so a games file means its positions are complete and a killed
//! actor leaves at most an unread positions file. Actor `K` numbers its chunks after the ones
//! already there and holds `actors/aKKK.lock`, so no two actors write the same name and no file
//! is ever overwritten. The learner records the chunks it has taken in each checkpoint, so a
//! resumed learner takes every chunk once.

pub mod actor;
pub mod chunks;
pub mod learner;
