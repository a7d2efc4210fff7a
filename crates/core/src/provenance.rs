//! Where a result comes from: the build that made it (version, commit, whether the tree had
//! uncommitted changes, profile, features) and the machine and command that ran it. Run
//! directories, reports and Parquet footers record one per invocation, so every figure names
//! the code that produced it. The binary fills in the build (it alone knows it, from its build
//! script); [`machine`] reads the machine.

use serde::{Deserialize, Serialize};

/// One invocation's provenance.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
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

    /// One line for reports: `pjlab 0.1.0, commit abc (release), Intel Xeon ..., 2 cores`.
    pub fn describe(&self) -> String {
        let features = if self.features.is_empty() {
            String::new()
        } else {
            format!(", features {}", self.features)
        };
        format!(
            "pjlab {}, commit {} ({}{features}), {}, {} cores, started {}",
            self.version,
            self.build_id(),
            self.profile,
            self.cpu,
            self.cores,
            self.started
        )
    }
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
    fn the_machine_has_a_cpu_and_cores() {
        let (cpu, cores) = machine();
        assert!(!cpu.is_empty() && cores >= 1);
    }
}
