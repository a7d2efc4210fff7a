//! Records the build's provenance for `pjlab --version` and the runs' records: the git commit,
//! whether the checkout had uncommitted changes to tracked files, the profile and the features.
//! Outside a git checkout the commit is `unknown`.

use std::path::{Path, PathBuf};
use std::process::Command;

fn git(root: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(root)
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default()).join("../..");
    let commit =
        git(&root, &["rev-parse", "--short=12", "HEAD"]).unwrap_or_else(|| "unknown".into());
    let dirty = git(&root, &["status", "--porcelain", "--untracked-files=no"])
        .is_some_and(|s| !s.is_empty());
    let profile = std::env::var("PROFILE").unwrap_or_default();
    let mut features: Vec<String> = std::env::vars()
        .filter_map(|(k, _)| {
            k.strip_prefix("CARGO_FEATURE_")
                .map(|f| f.to_lowercase().replace('_', "-"))
        })
        .collect();
    features.sort();
    let build_id = if dirty {
        format!("{commit}-dirty")
    } else {
        commit.clone()
    };
    println!("cargo:rustc-env=PJLAB_COMMIT={commit}");
    println!("cargo:rustc-env=PJLAB_DIRTY={dirty}");
    println!("cargo:rustc-env=PJLAB_BUILD_ID={build_id}");
    println!("cargo:rustc-env=PJLAB_PROFILE={profile}");
    println!("cargo:rustc-env=PJLAB_FEATURES={}", features.join(","));
    // A new commit, a change to the index or to any tracked source changes the answer.
    if let Some(git_dir) = git(&root, &["rev-parse", "--absolute-git-dir"]) {
        let git_dir = PathBuf::from(git_dir);
        for file in ["HEAD", "index", "refs"] {
            println!("cargo:rerun-if-changed={}", git_dir.join(file).display());
        }
        if let Some(common) = git(&root, &["rev-parse", "--git-common-dir"]) {
            let common = root.join(common);
            println!("cargo:rerun-if-changed={}", common.join("refs").display());
        }
    }
    for path in ["crates", "configs", "Cargo.toml", "Cargo.lock"] {
        println!("cargo:rerun-if-changed={}", root.join(path).display());
    }
}
