//! Where a result comes from: the build that made it (version, commit, whether the tree had
//! uncommitted changes, profile, features) and the machine and command that ran it. Run
//! directories, reports and Parquet footers record one per invocation, so every figure names
//! the code that produced it. The binary fills in the build (it alone knows it, from its build
//! script); [`machine`] reads the machine.

use serde::{Deserialize, Serialize};

/// One invocation's provenance.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Provenance {
    /// Package version.
    pub version: String,
    /// Git commit of the build (`unknown` outside a git checkout).
    pub commit: String,
    /// Whether the checkout had uncommitted changes when the binary was built.
    pub dirty: bool,
    /// Cargo profile (`release`, `debug`).
    pub profile: String,
    /// Cargo features of the binary, comma-separated (empty: none).
    pub features: String,
    /// CPU model.
    pub cpu: String,
    /// Logical cores available to the process.
    pub cores: usize,
    /// The whole command line.
    pub command: String,
    /// When the invocation started, UTC, as `YYYY-MM-DDTHH:MM:SSZ`.
    pub started: String,
    /// The machine's load when the invocation started: the one-minute load average (runnable
    /// threads, on Linux from `/proc/loadavg`); `None` where the system does not say, and in
    /// records made before it was kept.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub load_start: Option<f64>,
    /// The one-minute load average when the invocation last saved its results (a run's end, or
    /// where it was stopped); `None` until then.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub load_end: Option<f64>,
}

impl Provenance {
    /// The commit with `-dirty` appended when the tree had uncommitted changes.
    pub fn build_id(&self) -> String {
        if self.dirty {
            format!("{}-dirty", self.commit)
        } else {
            self.commit.clone()
        }
    }

    /// A run's sessions as a Markdown list, a line each:
    /// ``- session N: <describe> (`<command>`)``.
    pub fn session_list(sessions: &[Provenance]) -> String {
        let mut out = String::new();
        for (i, s) in sessions.iter().enumerate() {
            out.push_str(&format!(
                "- session {}: {} (`{}`)\n",
                i + 1,
                s.describe(),
                s.command
            ));
        }
        out
    }

    /// One line for reports: `pjlab 0.1.0, commit abc (release), Intel Xeon ..., 2 cores`.
    pub fn describe(&self) -> String {
        let features = if self.features.is_empty() {
            String::new()
        } else {
            format!(", features {}", self.features)
        };
        let load = match (self.load_start, self.load_end) {
            (None, None) => String::new(),
            (Some(start), None) => format!(", load {start:.2} at the start"),
            (start, end) => {
                let show =
                    |l: Option<f64>| l.map_or_else(|| "?".to_string(), |l| format!("{l:.2}"));
                format!(
                    ", load {} at the start, {} at the end",
                    show(start),
                    show(end)
                )
            }
        };
        format!(
            "pjlab {}, commit {} ({}{features}), {}, {} cores, started {}{load}",
            self.version,
            self.build_id(),
            self.profile,
            self.cpu,
            self.cores,
            self.started
        )
    }
}

/// The machine's one-minute load average (the mean number of runnable threads), from
/// `/proc/loadavg`; `None` where there is no such file (not Linux).
pub fn load_average() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    parse_load_average(&text)
}

/// The first field of a `/proc/loadavg` line.
fn parse_load_average(text: &str) -> Option<f64> {
    text.split_whitespace()
        .next()?
        .parse()
        .ok()
        .filter(|l: &f64| l.is_finite() && *l >= 0.0)
}

/// This machine's CPU model (from `/proc/cpuinfo` where there is one) and logical cores.
pub fn machine() -> (String, usize) {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string());
    (cpu, cores)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_load_average_is_the_first_field() {
        assert_eq!(
            parse_load_average("1.93 3.68 2.10 3/412 12345\n"),
            Some(1.93)
        );
        assert_eq!(parse_load_average(""), None);
        assert_eq!(parse_load_average("x 1 2"), None);
        let p = Provenance {
            load_start: Some(1.5),
            load_end: Some(0.25),
            ..Provenance::default()
        };
        assert!(
            p.describe()
                .ends_with("load 1.50 at the start, 0.25 at the end")
        );
        // A run that has not saved yet (or never keeps an end, as Chifoumi's) gives its start.
        let started = Provenance {
            load_end: None,
            ..p.clone()
        };
        assert!(started.describe().ends_with(", load 1.50 at the start"));
        // Records made before the load was kept read back without it and describe none.
        let old: Provenance = serde_json::from_str(r#"{"version":"0.1.0","cores":2}"#).unwrap();
        assert_eq!(old.load_start, None);
        assert!(!old.describe().contains("load"));
    }

    #[test]
    fn the_machine_has_a_cpu_and_cores() {
        let (cpu, cores) = machine();
        assert!(!cpu.is_empty() && cores >= 1);
    }
}
