//! The committed experiments hold: every run under `experiments/` whose games file is committed
//! gets its report written again from that file alone (`pjlab report`), which must equal the
//! committed `report.md`; and every number of the experiment's `README.md` tables that names a
//! report row (by its whole first cell, or else its first word) under a report column of the same name must equal the
//! report's. A changed figure, by hand or by code, fails here.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use common::pjlab;

fn experiments() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../experiments")
}

/// Directories under `root` holding a `games.parquet`.
fn runs(root: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(root) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            runs(&path, out);
        } else if path.file_name().is_some_and(|n| n == "games.parquet") {
            out.push(root.to_path_buf());
        }
    }
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

/// Compares the README's table cells with the report's; returns the number of cells checked.
fn check_readme(readme: &str, report: &str, name: &str) -> usize {
    let report_tables = tables(report);
    let mut checked = 0;
    for table in tables(readme) {
        for row in &table.rows {
            let k = key(&row[0]);
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
                // The row of the same name, or else of the same first word.
                let Some(report_row) = rt
                    .rows
                    .iter()
                    .find(|r| r[0] == row[0])
                    .or_else(|| rt.rows.iter().find(|r| key(&r[0]) == k))
                else {
                    continue;
                };
                for (&i, &j) in &shared {
                    assert_eq!(
                        row.get(i),
                        report_row.get(j),
                        "{name}/README.md: row `{}`, column `{}` says {:?}, the report {:?}",
                        row[0],
                        table.header[i],
                        row.get(i),
                        report_row.get(j)
                    );
                    checked += 1;
                }
            }
        }
    }
    checked
}

#[test]
fn committed_reports_and_readmes_are_what_their_games_files_say() {
    let mut dirs = Vec::new();
    runs(&experiments(), &mut dirs);
    assert!(!dirs.is_empty(), "no committed games files");
    let tmp = tempfile::tempdir().unwrap();
    let mut readme_cells = 0;
    for (n, dir) in dirs.iter().enumerate() {
        let name = dir
            .strip_prefix(experiments())
            .unwrap()
            .display()
            .to_string();
        let out = tmp.path().join(n.to_string());
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
        let fresh = std::fs::read_to_string(out.join("report.md")).unwrap();
        let committed = std::fs::read_to_string(dir.join("report.md"))
            .unwrap_or_else(|_| panic!("{name}: no committed report.md"));
        assert!(
            fresh == committed,
            "{name}/report.md differs from `pjlab report {name}`; first differing line: {:?}",
            fresh.lines().zip(committed.lines()).find(|(a, b)| a != b)
        );
        if let Ok(readme) = std::fs::read_to_string(dir.join("README.md")) {
            let cells = check_readme(&readme, &fresh, &name);
            eprintln!("{name}: report equal, {cells} README cells checked");
            readme_cells += cells;
        }
    }
    assert!(readme_cells > 0, "no README figure was checked");
}

#[test]
fn the_readme_check_fails_on_a_changed_figure() {
    let report = "| variant | games | Black wins | draws | Black score % |\n|---|---|---|---|---|\n\
                  | standard | 1600 | 375 | 878 | 50.9 |\n";
    let good = "| start | games | Black wins | draws | Black score % |\n|---|---|---|---|---|\n\
                | standard | 1600 | 375 | 878 | **50.9** |\n";
    assert_eq!(check_readme(good, report, "t"), 4);
    let bad = good.replace("50.9", "51.0");
    let failed = std::panic::catch_unwind(|| check_readme(&bad, report, "t"));
    assert!(failed.is_err());
}
