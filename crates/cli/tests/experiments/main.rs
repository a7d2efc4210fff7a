//! The committed experiments hold: every run under `experiments/` whose games file is committed
//! gets its report written again from that file alone (`pjlab report`), which must equal the
//! committed `report.md`, and so does every training run's `training.md` from its
//! `metrics.jsonl`. Then the READMEs (every one under `experiments/`, and the repository's):
//! - every number of a table row that quotes a report row (same row name, same column names)
//!   must equal the report's: reports in the README's directory or below or in an experiment
//!   it names (`../name/`, `experiments/name/`), or, for `experiments/README.md` and the
//!   repository's README, any report;
//! - a `pooled` row must be the sum of the rows above it (each quoting a report), with the
//!   score and Wilson interval of that sum;
//! - every result figure of the prose (a score with its interval, a bold score, a W-D-L, an
//!   Elo difference with its half-width; `prose.rs`) must be stated by such a report or checked
//!   row, or by a report of an experiment the README names (`../name/`, `experiments/name/`);
//! - every percentage of the prose, bare ones included (`66.0%`, `40%`; `prose.rs`), must be
//!   written by one of those same reports or checked rows (a cell holding it as a score, `66.0`,
//!   an integer as `40.0`; or a report's text writing `40%`), be a convention (95%, 50%, 5%:
//!   `prose::CONVENTIONS`), or be declared in the README's block of percentages with why:
//!
//!   ```text
//!   <!-- percentages not written by a report (crates/cli/tests/experiments):
//!   30%: the share of moves searched in full (config.toml, `full_search_share`)
//!   55%: the goal
//!   -->
//!   ```
//!
//!   The block is an HTML comment, not shown when the README is rendered. A declared percentage
//!   the prose no longer uses fails too, so the block stays current. To quote a new match
//!   result, commit its run (the report is then a source); declare only what no report writes
//!   (a setting, a share of time, a goal, a figure of a bench file), naming where it comes from.
//!
//! A changed figure, by hand or by code, fails here; so does a figure no longer in its report
//! (a withdrawn score left in the prose).

#[path = "../common/mod.rs"]
mod common;
mod prose;
mod tables;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use common::pjlab;
use tables::{Checked, check_readme, closed_form, tables, wdl};

fn experiments() -> PathBuf {
    pjlab_conformance::package_dir(env!("CARGO_MANIFEST_DIR"))
        .join("../../experiments")
        .canonicalize()
        .expect("the experiments directory")
}

/// Every file named `name` under `root`, at any depth.
fn files_named(root: &Path, name: &str, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(root) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files_named(&path, name, out);
        } else if path.file_name().is_some_and(|n| n == name) {
            out.push(path);
        }
    }
}

/// The paths among `files` that git ignores (a script's scratch runs, such as
/// `experiments/kill-anywhere/work/`): not committed, so not the experiments'. Outside a git
/// checkout, none.
fn ignored_by_git(root: &Path, files: &[PathBuf]) -> Vec<PathBuf> {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let Ok(mut child) = Command::new("git")
        .args(["check-ignore", "--stdin"])
        .current_dir(root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
    else {
        return Vec::new();
    };
    let list: String = files.iter().map(|f| format!("{}\n", f.display())).collect();
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(list.as_bytes());
    }
    let Ok(output) = child.wait_with_output() else {
        return Vec::new();
    };
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(PathBuf::from)
        .collect()
}

/// The directories under `root` holding a file named `name`, but not where git ignores it.
fn dirs_with(root: &Path, name: &str) -> Vec<PathBuf> {
    let mut files = Vec::new();
    files_named(root, name, &mut files);
    let ignored = ignored_by_git(root, &files);
    files.retain(|f| !ignored.contains(f));
    files
        .iter()
        .filter_map(|f| f.parent())
        .map(Path::to_path_buf)
        .collect()
}

/// `pjlab report` on `dir` into `out`: the report file it wrote.
fn regenerate(dir: &Path, out: &Path, file: &str, name: &str) -> String {
    regenerate_with(&["report"], &[], dir, out, file, name)
}

/// `pjlab <command> DIR --out OUT <extra>`, which must write `file` equal to the committed one:
/// that file.
fn regenerate_with(
    command: &[&str],
    extra: &[&str],
    dir: &Path,
    out: &Path,
    file: &str,
    name: &str,
) -> String {
    let mut args = command.to_vec();
    args.extend([dir.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    args.extend_from_slice(extra);
    let result = pjlab(&args);
    assert!(
        result.status.success(),
        "{name}: {}",
        String::from_utf8_lossy(&result.stderr)
    );
    let fresh = std::fs::read_to_string(out.join(file)).unwrap();
    let committed = std::fs::read_to_string(dir.join(file))
        .unwrap_or_else(|_| panic!("{name}: no committed {file}"));
    assert!(
        fresh == committed,
        "{name}/{file} differs from `pjlab report {name}`; first differing line: {:?}",
        fresh.lines().zip(committed.lines()).find(|(a, b)| a != b)
    );
    fresh
}

/// Every row of every table of `texts`.
fn all_rows(texts: &[String]) -> Vec<Vec<String>> {
    texts
        .iter()
        .flat_map(|t| tables(t))
        .flat_map(|t| t.rows)
        .collect()
}

/// Every cell of `rows`.
fn all_cells(rows: &[Vec<String>]) -> Vec<String> {
    rows.iter()
        .flat_map(|row| {
            // A ratings table gives an Elo and its half-width in two cells (`+316 | ±30`),
            // which prose quotes as one figure (`+316 ± 30`).
            let ratings = prose::ratings(row);
            row.iter().cloned().chain(ratings)
        })
        .collect()
}

/// The experiments a README names (`../name/`, `experiments/name/`), as directories.
fn named_experiments(readme: &str, root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for marker in ["../", "experiments/"] {
        for (i, _) in readme.match_indices(marker) {
            let name: String = readme[i + marker.len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || "-_.".contains(*c))
                .collect();
            let dir = root.join(&name);
            if !name.is_empty() && !name.starts_with('.') && dir.is_dir() {
                out.push(dir);
            }
        }
    }
    out
}

/// Every report table's score and Wilson interval are the closed form of its W-D-L: what a
/// pooled row is checked with.
fn check_closed_form(report: &str, name: &str) -> usize {
    let mut rows = 0;
    for table in tables(report) {
        let col = |names: &[&str]| {
            table
                .header
                .iter()
                .position(|h| names.contains(&h.as_str()))
        };
        let (Some(w), Some(s), Some(i)) = (
            col(&["W-D-L"]),
            col(&["score %"]),
            col(&["95% Wilson", "95% interval"]),
        ) else {
            continue;
        };
        for row in &table.rows {
            let Some(counts) = wdl(&row[w]) else { continue };
            let (score, lo, hi) = closed_form(counts);
            assert_eq!(row[s], score, "{name}: row `{}` score", row[0]);
            assert!(
                row[i] == format!("{lo}-{hi}") || row[i] == format!("{lo} to {hi}"),
                "{name}: row `{}` interval {:?}, closed form {lo}-{hi}",
                row[0],
                row[i]
            );
            rows += 1;
        }
    }
    rows
}

#[test]
fn committed_reports_and_readmes_are_what_their_records_say() {
    let root = experiments();
    // Runs: a games file (board games, Chifoumi matches) or a Chifoumi arena file.
    let mut games = dirs_with(&root, "games.parquet");
    games.extend(dirs_with(&root, "arenas.parquet"));
    // Training runs: a metrics file and no games file.
    let training: Vec<PathBuf> = dirs_with(&root, "metrics.jsonl")
        .into_iter()
        .filter(|d| !d.join("games.parquet").exists())
        .collect();
    assert!(!games.is_empty(), "no committed games files");
    assert!(!training.is_empty(), "no committed training metrics");
    let tmp = tempfile::tempdir().unwrap();
    // Every fresh report, by the directory it describes.
    let mut fresh: Vec<(PathBuf, String)> = Vec::new();
    let mut closed_rows = 0;
    for (dirs, file) in [(&games, "report.md"), (&training, "training.md")] {
        for dir in dirs {
            let name = dir.strip_prefix(&root).unwrap().display().to_string();
            let out = tmp.path().join(fresh.len().to_string());
            let report = regenerate(dir, &out, file, &name);
            closed_rows += check_closed_form(&report, &name);
            fresh.push((dir.clone(), report));
        }
    }
    // Generations runs: their report from their ledger and spec.
    for dir in dirs_with(&root, "generations.jsonl") {
        let name = dir.strip_prefix(&root).unwrap().display().to_string();
        let out = tmp.path().join(fresh.len().to_string());
        let report = regenerate(&dir, &out, "report.md", &name);
        fresh.push((dir, report));
    }
    // Chifoumi exploitability runs: their report from their stages' records and metrics.
    for dir in dirs_with(&root, "exploit.json") {
        let name = dir.strip_prefix(&root).unwrap().display().to_string();
        let out = tmp.path().join(fresh.len().to_string());
        let report = regenerate(&dir, &out, "report.md", &name);
        closed_rows += check_closed_form(&report, &name);
        fresh.push((dir, report));
    }
    // Atlases: their report from their cells' records (`pjlab atlas report`).
    for dir in dirs_with(&root, "atlas.toml") {
        let name = dir.strip_prefix(&root).unwrap().display().to_string();
        let out = tmp.path().join(fresh.len().to_string());
        let report = regenerate_with(
            &["atlas", "report"],
            &["--examples", "0"],
            &dir,
            &out,
            "report.md",
            &name,
        );
        closed_rows += check_closed_form(&report, &name);
        fresh.push((dir, report));
    }
    assert!(closed_rows > 0, "no report row was recomputed");
    let reports_under = |dir: &Path| -> Vec<String> {
        fresh
            .iter()
            .filter(|(d, _)| d.starts_with(dir))
            .map(|(_, r)| r.clone())
            .collect()
    };
    let mut readmes = Vec::new();
    files_named(&root, "README.md", &mut readmes);
    readmes.push(root.parent().unwrap().join("README.md"));
    // Tables first: what each README's checked rows confirm.
    let mut checked: BTreeMap<PathBuf, (String, Checked)> = BTreeMap::new();
    let (mut cells, mut pooled) = (0, 0);
    for readme in readmes {
        let dir = readme.parent().unwrap().to_path_buf();
        // The experiments' index and the repository's README quote any experiment.
        let top = dir == root || !dir.starts_with(&root);
        let text = std::fs::read_to_string(&readme).unwrap();
        let mut reports = reports_under(if top { &root } else { &dir });
        if !top {
            for named in named_experiments(&text, &root) {
                reports.extend(reports_under(&named));
            }
        }
        let name = readme
            .strip_prefix(root.parent().unwrap())
            .unwrap_or(&readme)
            .display()
            .to_string();
        let result = check_readme(&text, &reports, &name);
        eprintln!(
            "{name}: {} cells and {} pooled rows checked against {} reports",
            result.cells,
            result.pooled,
            reports.len()
        );
        cells += result.cells;
        pooled += result.pooled;
        checked.insert(dir, (text, result));
    }
    assert!(cells > 0, "no README figure was checked");
    assert!(pooled > 0, "no pooled row was checked");
    // Then the prose: each result figure stated by a report or a checked row.
    let (mut figures, mut percentages) = (0, 0);
    let (mut missing, mut unsourced) = (Vec::new(), Vec::new());
    for (dir, (text, result)) in &checked {
        let top = dir == &root || !dir.starts_with(&root);
        let mut sources = reports_under(if top { &root } else { dir });
        for named in named_experiments(text, &root) {
            sources.extend(reports_under(&named));
        }
        // The README's checked rows (and, in the index, every README's), the reports' rows,
        // and their cells: what the prose may quote.
        let mut confirmed = result.confirmed.clone();
        if top {
            confirmed.extend(
                checked
                    .values()
                    .flat_map(|(_, c)| c.confirmed.iter().cloned()),
            );
        }
        let mut rows = all_rows(&sources);
        let mut allowed = all_cells(&rows);
        allowed.extend(confirmed.iter().flatten().cloned());
        rows.extend(confirmed);
        let shown = dir.strip_prefix(root.parent().unwrap()).unwrap_or(dir);
        for figure in prose::figures(text) {
            figures += 1;
            if !prose::stated(&figure, &allowed, &rows, &sources) {
                missing.push(format!(
                    "{}/README.md:{}: {}",
                    shown.display(),
                    figure.line,
                    figure.text
                ));
            }
        }
        // Every percentage: a report's, a convention or declared (and every declared one used).
        let declared = prose::declared(text, &format!("{}/README.md", shown.display()));
        let used = prose::percentages(text);
        for percent in &used {
            percentages += 1;
            let conventional = prose::CONVENTIONS.iter().any(|(n, _)| *n == percent.number);
            let listed = declared.iter().any(|(_, n, _)| *n == percent.number);
            if !conventional
                && !listed
                && !prose::percent_stated(&percent.number, &allowed, &sources)
            {
                unsourced.push(format!(
                    "{}/README.md:{}: {}%",
                    shown.display(),
                    percent.line,
                    percent.number
                ));
            }
        }
        for (line, number, _) in &declared {
            if !used.iter().any(|p| p.number == *number) {
                unsourced.push(format!(
                    "{}/README.md:{line}: {number}% is declared but not in the prose",
                    shown.display()
                ));
            }
        }
    }
    assert!(figures > 0, "no prose figure was found");
    assert!(percentages > 0, "no prose percentage was found");
    assert!(
        missing.is_empty(),
        "result figures in READMEs' prose that no report or checked row states:\n{}",
        missing.join("\n")
    );
    assert!(
        unsourced.is_empty(),
        "percentages in READMEs' prose that no report writes, neither conventions nor declared in \
         the README's `{}` block (see this test's top):\n{}",
        prose::BLOCK,
        unsourced.join("\n")
    );
}

#[test]
fn the_readme_check_fails_on_a_changed_figure() {
    let report =
        "| variant | games | Black wins | draws | Black score % |\n|---|---|---|---|---|\n\
                  | standard | 1600 | 375 | 878 | 50.9 |\n"
            .to_string();
    let good = "| start | games | Black wins | draws | Black score % |\n|---|---|---|---|---|\n\
                | standard | 1600 | 375 | 878 | **50.9** |\n";
    assert_eq!(
        check_readme(good, std::slice::from_ref(&report), "t").cells,
        4
    );
    let bad = good.replace("50.9", "51.0");
    let failed =
        std::panic::catch_unwind(|| check_readme(&bad, std::slice::from_ref(&report), "t"));
    assert!(failed.is_err());
    // Quoting one of two runs whose rows share a name: it must agree with one of them.
    let other = report.replace("50.9", "51.0").replace("1600", "800");
    let both = [report.clone(), other];
    assert_eq!(
        check_readme(&bad.replace("1600", "800"), &both, "t").cells,
        4
    );
    let mixed = bad.replace("375", "376");
    assert!(std::panic::catch_unwind(|| check_readme(&mixed, &both, "t")).is_err());
}

#[test]
fn a_pooled_row_must_be_the_sum_of_the_quoted_rows() {
    let report = "| agent | games | W-D-L | score % | 95% Wilson |\n|---|---|---|---|---|\n\
                  | a | 200 | 103-1-96 | 51.7 | 44.9-58.6 |\n| b | 200 | 97-0-103 | 48.5 | 41.7-55.4 |\n"
        .to_string();
    let readme = |pooled: &str| {
        format!(
            "| agent | games | W-D-L | score % | 95% Wilson |\n|---|---|---|---|---|\n\
             | a | 200 | 103-1-96 | 51.7 | 44.9-58.6 |\n| b | 200 | 97-0-103 | 48.5 | 41.7-55.4 |\n\
             | pooled | {pooled} |\n"
        )
    };
    let reports = std::slice::from_ref(&report);
    // 200-1-199 over 400: (200 + 0.5) / 400 = 50.1%, Wilson 45.2-55.0 (as the README quotes).
    let good = check_readme(&readme("400 | 200-1-199 | 50.1 | 45.2-55.0"), reports, "t");
    assert_eq!(good.pooled, 1);
    for bad in [
        "400 | 200-1-198 | 50.1 | 45.2-55.0",
        "401 | 200-1-199 | 50.1 | 45.2-55.0",
        "400 | 200-1-199 | 50.2 | 45.2-55.0",
        "400 | 200-1-199 | 50.1 | 45.1-55.0",
    ] {
        let failed = std::panic::catch_unwind(|| check_readme(&readme(bad), reports, "t"));
        assert!(failed.is_err(), "{bad}");
    }
    // A pooled row over a row no report confirms.
    let unquoted = readme("400 | 200-1-199 | 50.1 | 45.2-55.0").replace("| b |", "| c |");
    assert!(std::panic::catch_unwind(|| check_readme(&unquoted, reports, "t")).is_err());
}
