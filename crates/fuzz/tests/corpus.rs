//! Every fuzz target over its committed corpus and a bounded number of seeded mutations of it,
//! as an ordinary test on stable: the same bodies cargo-fuzz runs coverage-guided
//! (`scripts/fuzz.sh`). A failure names the target and the input (its bytes in hex and the
//! mutation's seed), which then becomes a corpus file of its own with the fix.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use pjlab_fuzz::{TARGETS, Target};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The committed inputs of a target, in name order.
fn corpus(target: &str) -> Vec<Vec<u8>> {
    let dir = crate_dir().join("corpus").join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .collect();
    files.sort();
    files.iter().map(|f| std::fs::read(f).unwrap()).collect()
}

/// Bytes that the lab's texts are built from, for insertions.
const TOKENS: &[&[u8]] = &[
    b":",
    b",",
    b"=",
    b"/",
    b"-",
    b" ",
    b"\n",
    b"0",
    b"9",
    b"1.",
    b"w",
    b"b",
    b"#",
    b"[",
    b"]",
    b"\"",
    b"-1",
    b"1e999",
    b"NaN",
    b"18446744073709551616",
    b"\xff",
    b"\0",
];

/// One mutation of `input`, with `other` for splices.
fn mutate(input: &[u8], other: &[u8], rng: &mut ChaCha8Rng) -> Vec<u8> {
    let mut out = input.to_vec();
    for _ in 0..rng.random_range(1..=4) {
        let at = if out.is_empty() {
            0
        } else {
            rng.random_range(0..=out.len())
        };
        match rng.random_range(0..6) {
            0 if !out.is_empty() => {
                let i = rng.random_range(0..out.len());
                out[i] ^= 1 << rng.random_range(0..8);
            }
            1 => {
                let token = TOKENS[rng.random_range(0..TOKENS.len())];
                out.splice(at..at, token.iter().copied());
            }
            2 if at < out.len() => {
                let end = rng.random_range(at..=out.len().min(at + 16));
                out.drain(at..end);
            }
            3 => out.truncate(at),
            4 if !other.is_empty() => {
                let from = rng.random_range(0..other.len());
                let to = rng.random_range(from..=other.len());
                out.splice(at..at, other[from..to].iter().copied());
            }
            _ => {
                let byte = rng.random();
                out.insert(at, byte);
            }
        }
    }
    out
}

/// Runs one input, turning a panic into a report of it.
fn attempt(target: &Target, input: &[u8], origin: &str) -> Result<(), String> {
    catch_unwind(AssertUnwindSafe(|| (target.run)(input))).map_err(|cause| {
        let message = cause
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| cause.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        let hex: String = input.iter().take(256).map(|b| format!("{b:02x}")).collect();
        // The whole input, for the seed corpus once the fault is fixed.
        let saved =
            std::env::temp_dir().join(format!("pjlab-fuzz-{}-{}", target.name, std::process::id()));
        let saved = match std::fs::write(&saved, input) {
            Ok(()) => format!(", saved in {}", saved.display()),
            Err(_) => String::new(),
        };
        format!(
            "{}: {origin}: {message}\n  input ({} bytes{saved}): {hex}",
            target.name,
            input.len()
        )
    })
}

/// The target over its corpus, then `test_inputs` mutations from a seed of its name.
fn exercise(target: &Target) -> Result<usize, String> {
    let inputs = corpus(target.name);
    assert!(!inputs.is_empty(), "{}: an empty corpus", target.name);
    for (i, input) in inputs.iter().enumerate() {
        attempt(target, input, &format!("corpus file {i}"))?;
    }
    let seed = target
        .name
        .bytes()
        .fold(0u64, |h, b| h.wrapping_mul(131) + u64::from(b));
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for n in 0..target.test_inputs {
        let base = &inputs[rng.random_range(0..inputs.len())];
        let other = &inputs[rng.random_range(0..inputs.len())];
        let input = mutate(base, other, &mut rng);
        attempt(target, &input, &format!("mutation {n} of seed {seed}"))?;
    }
    Ok(inputs.len() + target.test_inputs)
}

#[test]
fn every_target_survives_its_corpus_and_seeded_mutations() {
    // Quiet panics: a caught one is reported once, below, with its input.
    std::panic::set_hook(Box::new(|_| {}));
    let results: Vec<(&str, Result<usize, String>)> = std::thread::scope(|s| {
        let handles: Vec<_> = TARGETS
            .iter()
            .map(|t| (t.name, s.spawn(move || exercise(t))))
            .collect();
        handles
            .into_iter()
            .map(|(name, h)| {
                (
                    name,
                    h.join().unwrap_or_else(|_| Err(format!("{name}: aborted"))),
                )
            })
            .collect()
    });
    let _ = std::panic::take_hook();
    let failures: Vec<&String> = results
        .iter()
        .filter_map(|(_, r)| r.as_ref().err())
        .collect();
    assert!(
        failures.is_empty(),
        "{}",
        failures
            .iter()
            .map(|f| f.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    let total: usize = results.iter().filter_map(|(_, r)| r.as_ref().ok()).sum();
    assert!(total > 100_000, "{total} inputs");
}

/// A target that finds a fault is seen to fail: the harness catches a panicking body.
#[test]
fn a_failing_body_is_reported_with_its_input() {
    let failing = Target {
        name: "always_fails",
        about: "",
        run: |data| assert!(data.is_empty(), "not empty"),
        test_inputs: 0,
    };
    let report = attempt(&failing, b"x", "here").unwrap_err();
    assert!(
        report.contains("always_fails: here: not empty") && report.contains("78"),
        "{report}"
    );
}

/// Every target has its cargo-fuzz binary, a row in the fuzzing table, and nothing else is
/// there.
#[test]
fn every_target_has_its_fuzz_binary_and_its_table_row() {
    let bins = crate_dir().join("fuzz/fuzz_targets");
    let mut binaries: Vec<String> = std::fs::read_dir(&bins)
        .unwrap()
        .map(|e| {
            e.unwrap()
                .path()
                .file_stem()
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    binaries.sort();
    let mut names: Vec<String> = TARGETS.iter().map(|t| t.name.to_string()).collect();
    names.sort();
    assert_eq!(binaries, names);
    let manifest = std::fs::read_to_string(crate_dir().join("fuzz/Cargo.toml")).unwrap();
    let table = std::fs::read_to_string(
        Path::new(&crate_dir()).join("../../experiments/fuzzing/README.md"),
    )
    .unwrap();
    for t in TARGETS {
        let body = std::fs::read_to_string(bins.join(format!("{}.rs", t.name))).unwrap();
        assert!(
            body.contains(&format!("pjlab_fuzz::run(\"{}\"", t.name)),
            "{}",
            t.name
        );
        assert!(
            manifest.contains(&format!("name = \"{}\"", t.name)),
            "{}",
            t.name
        );
        assert!(
            table.contains(&format!("| `{}` |", t.name)),
            "{} has no row",
            t.name
        );
    }
    assert!(TARGETS.len() >= 15);
}
