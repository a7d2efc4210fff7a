//! The committed experiments hold: every run under `experiments/` whose games file is committed
//! gets its report written again from that file alone (`pjlab report`), which must equal the
//! committed `report.md`, and so does every training run's `training.md` from its
//! `metrics.jsonl`; and every number of a `README.md` table under `experiments/` that quotes a
//! row of a report in its directory or below (same row name, same column names) must equal the
//! report's. A changed figure, by hand or by code, fails here.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use common::pjlab;

fn experiments() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../experiments")
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

/// The directories under `root` holding a file named `name`.
fn dirs_with(root: &Path, name: &str) -> Vec<PathBuf> {
    let mut files = Vec::new();
    files_named(root, name, &mut files);
    files
        .iter()
        .filter_map(|f| f.parent())
        .map(Path::to_path_buf)
        .collect()
}

/// A Markdown table: its header cells and its rows.
struct Table {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

fn cells(line: &str) -> Vec<String> {
    line.trim()
        .trim_matches('|')
        .split('|')
        .map(|c| c.replace("**", "").replace('`', "").trim().to_string())
        .collect()
}

fn tables(text: &str) -> Vec<Table> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i + 1 < lines.len() {
        let separator = lines[i + 1].trim();
        if lines[i].trim().starts_with('|') && separator.starts_with("|---") {
            let header = cells(lines[i]);
            let mut rows = Vec::new();
            i += 2;
            while i < lines.len() && lines[i].trim().starts_with('|') {
                rows.push(cells(lines[i]));
                i += 1;
            }
            out.push(Table { header, rows });
        } else {
            i += 1;
        }
    }
    out
}

fn key(cell: &str) -> String {
    cell.split_whitespace().next().unwrap_or("").to_string()
}

/// Compares the README's table cells with the reports'; returns the number of cells checked.
/// A README row quotes a report row when their tables share at least three column names and
/// the rows their name (the whole first cell, or else its first word); it must then agree on
/// every shared column with one of the rows it may quote (rows of one name can repeat: one
/// agent's matches in several runs, or its rows of a head-to-head table).
fn check_readme(readme: &str, reports: &[String], name: &str) -> usize {
    let report_tables: Vec<Table> = reports.iter().flat_map(|r| tables(r)).collect();
    let mut checked = 0;
    for table in tables(readme) {
        for row in &table.rows {
            let k = key(&row[0]);
            // Every report row this README row quotes, with the shared columns.
            let mut quoted: Vec<(&Vec<String>, BTreeMap<usize, usize>)> = Vec::new();
            for rt in &report_tables {
                let shared: BTreeMap<usize, usize> = table
                    .header
                    .iter()
                    .enumerate()
                    .skip(1)
                    .filter_map(|(i, h)| rt.header.iter().position(|x| x == h).map(|j| (i, j)))
                    .collect();
                if shared.len() < 3 {
                    continue;
                }
                // Rows of the same name (a head-to-head table has one per opponent), or else
                // of the same first word.
                let mut named: Vec<&Vec<String>> =
                    rt.rows.iter().filter(|r| r[0] == row[0]).collect();
                if named.is_empty() {
                    named = rt.rows.iter().filter(|r| key(&r[0]) == k).collect();
                }
                quoted.extend(named.into_iter().map(|r| (r, shared.clone())));
            }
            if quoted.is_empty() {
                continue;
            }
            let agrees = |(r, shared): &(&Vec<String>, BTreeMap<usize, usize>)| {
                shared.iter().all(|(&i, &j)| row.get(i) == r.get(j))
            };
            let Some((_, shared)) = quoted.iter().find(|q| agrees(q)) else {
                let (r, shared) = &quoted[0];
                let (&i, &j) = shared
                    .iter()
                    .find(|(i, j)| row.get(**i) != r.get(**j))
                    .expect("a differing cell");
                panic!(
                    "{name}: row `{}`, column `{}` says {:?}, the report {:?}",
                    row[0],
                    table.header[i],
                    row.get(i),
                    r.get(j)
                );
            };
            checked += shared.len();
        }
    }
    checked
}

/// `pjlab report` on `dir` into `out`: the report file it wrote.
fn regenerate(dir: &Path, out: &Path, file: &str, name: &str) -> String {
    let result = pjlab(&[
        "report",
        dir.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
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
    for (dirs, file) in [(&games, "report.md"), (&training, "training.md")] {
        for dir in dirs {
            let name = dir.strip_prefix(&root).unwrap().display().to_string();
            let out = tmp.path().join(fresh.len().to_string());
            fresh.push((dir.clone(), regenerate(dir, &out, file, &name)));
        }
    }
    let mut files = Vec::new();
    files_named(&root, "README.md", &mut files);
    let mut readme_cells = 0;
    for readme in files {
        let dir = readme.parent().unwrap();
        let reports: Vec<String> = fresh
            .iter()
            .filter(|(d, _)| d.starts_with(dir) && dir != root)
            .map(|(_, r)| r.clone())
            .collect();
        let name = readme.strip_prefix(&root).unwrap().display().to_string();
        let cells = check_readme(&std::fs::read_to_string(&readme).unwrap(), &reports, &name);
        eprintln!(
            "{name}: {cells} cells checked against {} reports",
            reports.len()
        );
        readme_cells += cells;
    }
    assert!(readme_cells > 0, "no README figure was checked");
}

#[test]
fn the_readme_check_fails_on_a_changed_figure() {
    let report =
        "| variant | games | Black wins | draws | Black score % |\n|---|---|---|---|---|\n\
                  | standard | 1600 | 375 | 878 | 50.9 |\n"
            .to_string();
    let good = "| start | games | Black wins | draws | Black score % |\n|---|---|---|---|---|\n\
                | standard | 1600 | 375 | 878 | **50.9** |\n";
    assert_eq!(check_readme(good, std::slice::from_ref(&report), "t"), 4);
    let bad = good.replace("50.9", "51.0");
    let failed =
        std::panic::catch_unwind(|| check_readme(&bad, std::slice::from_ref(&report), "t"));
    assert!(failed.is_err());
    // Quoting one of two runs whose rows share a name: it must agree with one of them.
    let other = report.replace("50.9", "51.0").replace("1600", "800");
    let both = [report.clone(), other];
    assert_eq!(check_readme(&bad.replace("1600", "800"), &both, "t"), 4);
    let mixed = bad.replace("375", "376");
    assert!(std::panic::catch_unwind(|| check_readme(&mixed, &both, "t")).is_err());
}
