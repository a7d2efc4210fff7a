//! Fuzz targets: every input the lab reads, and the rules' invariants, as plain functions of
//! bytes.
//!
//! A target takes any bytes and either returns (the input was refused with a typed error, or
//! accepted and every round trip and invariant held) or panics: a panic, a hang or unbounded
//! memory is a finding. The same functions run two ways:
//!
//! - on stable, in `tests/corpus.rs`: every target over its committed corpus
//!   (`crates/fuzz/corpus/TARGET/`) and a bounded number of seeded mutations of it, in the
//!   test command;
//! - coverage-guided, under cargo-fuzz on the nightly toolchain (`crates/fuzz/fuzz/`, one
//!   binary a target calling [`run`]), by `scripts/fuzz.sh TARGET MINUTES`.
//!
//! Text targets read the bytes as UTF-8 with replacement, so every input reaches the parser.
//! Play targets read them as a script: the first bytes choose a setup, each later byte a legal
//! move (its index modulo the number of moves), and every position on the way is checked.

mod files;
mod input;
mod play;
mod text;
mod ugi;

pub use input::Script;

/// One fuzz target: its name (the corpus directory and the cargo-fuzz binary) and its body.
#[derive(Clone, Copy)]
pub struct Target {
    /// The target's name.
    pub name: &'static str,
    /// What it reads and checks, in a line.
    pub about: &'static str,
    /// The body: returns on any input that is refused or passes every check, panics otherwise.
    pub run: fn(&[u8]),
    /// Mutated inputs the corpus test runs beyond the corpus (bounded by the target's cost).
    pub test_inputs: usize,
}

/// Every target, in the order of the fuzzing table.
pub const TARGETS: &[Target] = &[
    text::PIJERSI_POSITION,
    text::PIJERSI_MOVE,
    text::PIJERSI_NOTATION_MOVE,
    text::PIJERSI_RECORD,
    text::ABALONE_POSITION,
    text::ABALONE_MOVE,
    text::ABALONE_RECORD,
    text::AGENT_SPEC,
    text::SETUP_MIX,
    text::CHIFOUMI_MAP,
    text::CHIFOUMI_RECORD,
    text::CHIFOUMI_PLAYER,
    text::EVAL_WEIGHTS,
    files::NNUE_FILE,
    files::GAMES_PARQUET,
    files::POSITIONS_PARQUET,
    play::PIJERSI_PLAY,
    play::ABALONE_PLAY,
    play::NNUE_ACCUMULATOR,
    ugi::UGI_SESSION,
];

/// The target called `name`.
pub fn target(name: &str) -> Option<&'static Target> {
    TARGETS.iter().find(|t| t.name == name)
}

/// Runs the target called `name` on `data` (what each cargo-fuzz binary calls).
///
/// # Panics
/// When no target has that name, or when the target finds a fault.
pub fn run(name: &str, data: &[u8]) {
    let target = target(name).unwrap_or_else(|| panic!("no fuzz target {name}"));
    (target.run)(data);
}
