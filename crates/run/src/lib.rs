//! The plumbing every run of the lab shares, whatever the game: board-game matches and studies
//! (`pjlab-arena`), Chifoumi matches and arenas (`pjlab-chifoumi-eval`), self-play records
//! (`pjlab-selfplay`). It knows no game and links no Burn.
//!
//! - [`pool`]: jobs on W worker threads (per-worker state, a stop flag, the first error stops
//!   the rest), each finished item handed back on the calling thread as it comes or in job
//!   order.
//! - [`session`]: a run from its directory: a new run or a resumed one (refused when the
//!   directory holds another kind of run, or a run when none was to be resumed), the jobs left
//!   played on the pool with periodic saves, and the "interrupted; continue with" hint.
//! - [`table`]: Parquet tables whose columns are declared once with their types: a builder
//!   that appends rows and writes atomically with the schema key in the footer, and a reader
//!   that checks the schema key and every column's type before handing out typed columns.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use pjlab_run::pool::{Order, Pool};
//! let stop = AtomicBool::new(false);
//! let pool = Pool { workers: 2, order: Order::Scheduled, stop: &stop };
//! let mut squares = Vec::new();
//! pool.run(&[1, 2, 3], |_| (), |_, &x: &i32| Ok::<_, ()>(Some(x * x)), &mut |y| squares.push(y))
//!     .unwrap();
//! assert_eq!(squares, [1, 4, 9]);
//! ```

pub mod pool;
pub mod session;
pub mod table;
