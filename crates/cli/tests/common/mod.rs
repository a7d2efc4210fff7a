//! Helpers shared by the end-to-end tests: run `pjlab`, read its output, check usage errors.

#![allow(dead_code)]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Runs `pjlab` with these arguments.
pub fn pjlab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pjlab"))
        .args(args)
        .output()
        .expect("runs pjlab")
}

/// Runs `pjlab` with these arguments in `cwd` (created if need be) and expects success.
pub fn pjlab_in(cwd: &Path, args: &[&str]) -> Output {
    std::fs::create_dir_all(cwd).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_pjlab"))
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("runs pjlab");
    assert_success(&out, args);
    out
}

/// A run that must have succeeded: otherwise the test fails with its stderr, after `args` (the
/// arguments to name in the message; `&[]` where the test's own lines show them).
pub fn assert_success(out: &Output, args: &[&str]) {
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Runs `pjlab` with these arguments and `input` on its standard input.
pub fn pjlab_stdin(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pjlab"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs pjlab");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// Standard output as text.
pub fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// The last line of standard output.
pub fn last_line(out: &Output) -> String {
    stdout(out).lines().last().unwrap_or_default().to_string()
}

/// Bad input: exit code 2, one line on stderr that starts with `error:`, no panic.
pub fn assert_usage_error(out: &Output, needle: &str) {
    let err = String::from_utf8(out.stderr.clone()).unwrap();
    assert_eq!(out.status.code(), Some(2), "stderr: {err}");
    assert!(!err.contains("panicked"), "{err}");
    let lines: Vec<&str> = err.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), 1, "expected one line, got: {err}");
    assert!(lines[0].starts_with("error:"), "{err}");
    assert!(lines[0].contains(needle), "{needle:?} not in {err}");
}

/// The checkout's commit as the build names it (`<commit>-dirty` with uncommitted changes to
/// tracked files), asked of git itself; `unknown` outside a git checkout.
pub fn build_id() -> String {
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .current_dir(pjlab_conformance::package_dir(env!("CARGO_MANIFEST_DIR")))
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    match git(&["rev-parse", "--short=12", "HEAD"]) {
        None => "unknown".into(),
        Some(commit) => {
            let dirty = git(&["status", "--porcelain", "--untracked-files=no"])
                .is_some_and(|s| !s.is_empty());
            if dirty {
                format!("{commit}-dirty")
            } else {
                commit
            }
        }
    }
}
