//! Every progress bar the binary draws on stderr: [`counter`], a bar of a count of units
//! (games, matches, iterations) that runs, atlases and Chifoumi training advance, and [`Bars`]
//! for the library's progress reports ([`pjlab_train::Progress`]): a bar of the run's units
//! (iterations, batches) and one of the current phase; plain lines when stderr is no terminal.

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use pjlab_train::{Progress, Reporter};

fn style(template: &str) -> ProgressStyle {
    ProgressStyle::with_template(template)
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ")
}

/// A bar of `len` `unit`s (`games`, `matches`), `done` of them already, labelled `prefix`,
/// with the elapsed time, an estimate of the time left and a message after them; hidden when
/// `quiet`.
pub fn counter(prefix: &str, unit: &str, len: u64, done: u64, quiet: bool) -> ProgressBar {
    let bar = ProgressBar::new(len);
    bar.set_position(done);
    if quiet {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    bar.set_style(style(&format!(
        "{{prefix}} [{{bar:30}}] {{pos}}/{{len}} {unit} {{elapsed_precise}} (ETA {{eta}}) {{msg}}"
    )));
    bar.set_prefix(prefix.to_string());
    bar
}

/// Two bars: the run's and its current phase's.
pub struct Bars {
    multi: MultiProgress,
    main: ProgressBar,
    phase: ProgressBar,
}

impl Bars {
    /// Bars on stderr (hidden when stderr is no terminal: lines are then printed plainly).
    pub fn new() -> Bars {
        let multi = MultiProgress::with_draw_target(ProgressDrawTarget::stderr());
        let main = multi.add(ProgressBar::new(0));
        let phase = multi.add(ProgressBar::new(0));
        phase.set_style(style("{prefix:>9} [{bar:30}] {pos}/{len} {per_sec} {msg}"));
        Bars { multi, main, phase }
    }

    /// The reporter the library takes: bars when `show`, nothing otherwise.
    pub fn reporter(show: bool) -> Reporter {
        if show {
            Reporter(std::sync::Arc::new(Bars::new()))
        } else {
            Reporter::default()
        }
    }
}

impl Progress for Bars {
    fn begin(&self, what: &str, unit: &str, total: u64, done: u64) {
        self.main.set_style(style(&format!(
            "{{prefix}} [{{elapsed_precise}}] [{{bar:30}}] {unit} {{pos}}/{{len}} (ETA {{eta}}) {{msg}}"
        )));
        self.main.set_prefix(what.to_string());
        self.main.set_length(total);
        self.main.set_position(done);
    }

    fn advance_to(&self, done: u64) {
        self.main.set_position(done);
    }

    fn phase(&self, name: &str, len: u64, note: &str) {
        self.phase.set_prefix(name.to_string());
        self.phase.set_length(len);
        self.phase.set_position(0);
        self.phase.set_message(note.to_string());
    }

    fn tick(&self) {
        self.phase.inc(1);
    }

    fn phase_at(&self, done: u64) {
        self.phase.set_position(done);
    }

    fn say(&self, line: &str) {
        if self.multi.is_hidden() {
            eprintln!("{line}");
        } else {
            let _ = self.multi.println(line);
        }
    }

    fn end(&self) {
        self.phase.finish_and_clear();
        self.main.finish();
    }
}
