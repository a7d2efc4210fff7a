//! What a training run reports as it goes. The library calls a [`Progress`]; the binary draws
//! it (progress bars, or plain lines when stderr is no terminal); tests and library users
//! that want nothing pass [`Silent`].

use std::sync::Arc;

/// The reports of a run, in the order a run makes them: [`Progress::begin`] once, then per
/// iteration (or batch) phases with their ticks and a summary line, [`Progress::advance_to`]
/// as each ends, and [`Progress::end`].
pub trait Progress: Send + Sync {
    /// The run starts: `total` `unit`s of work (`iteration`, `batch`) under the name `what`
    /// (`train`, `learner`, `actor 1`), `done` of them done by earlier invocations.
    fn begin(&self, _what: &str, _unit: &str, _total: u64, _done: u64) {}
    /// `done` units are done.
    fn advance_to(&self, _done: u64) {}
    /// A phase of `len` steps starts (`self-play`, `train`, `eval`, `waiting`), with a note
    /// for the reader (empty: none).
    fn phase(&self, _name: &str, _len: u64, _note: &str) {}
    /// One more step of the current phase is done.
    fn tick(&self) {}
    /// `done` steps of the current phase are done.
    fn phase_at(&self, _done: u64) {}
    /// A line for the reader: an iteration's summary.
    fn say(&self, _line: &str) {}
    /// The run ends (finished or stopped).
    fn end(&self) {}
}

/// Reports nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct Silent;

impl Progress for Silent {}

/// A shared [`Progress`], as run options hold it ([`Silent`] by default).
#[derive(Clone)]
pub struct Reporter(pub Arc<dyn Progress>);

impl Default for Reporter {
    fn default() -> Self {
        Reporter(Arc::new(Silent))
    }
}

impl std::fmt::Debug for Reporter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Reporter")
    }
}

impl std::ops::Deref for Reporter {
    type Target = dyn Progress;
    fn deref(&self) -> &Self::Target {
        self.0.as_ref()
    }
}
