//! Markdown tables: reading them, checking a README's rows against the reports they quote, and
//! checking pooled rows against the closed form.

use std::collections::BTreeMap;

/// A Markdown table: its header cells and its rows.
pub struct Table {
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

fn cells(line: &str) -> Vec<String> {
    line.trim()
        .trim_matches('|')
        .split('|')
        .map(|c| c.replace("**", "").replace('`', "").trim().to_string())
        .collect()
}

/// Every table of a Markdown text.
pub fn tables(text: &str) -> Vec<Table> {
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

/// Whether a row pools the other rows of its table (its first cell starts with `pooled`).
pub fn is_pooled(row: &[String]) -> bool {
    row.first().is_some_and(|c| c.starts_with("pooled"))
}

/// What a README's tables were checked against.
#[derive(Default)]
pub struct Checked {
    /// Cells compared with a report's.
    pub cells: usize,
    /// Pooled rows recomputed from the rows above them.
    pub pooled: usize,
    /// Every row that quoted a report or was recomputed: what prose may quote.
    pub confirmed: Vec<Vec<String>>,
}

/// Compares the README's table cells with the reports'. A README row quotes a report row when
/// their tables share at least three column names and the rows their name (the whole first
/// cell, or else its first word); it must then agree on every shared column with one of the
/// rows it may quote (rows of one name can repeat: one agent's matches in several runs, or its
/// rows of a head-to-head table). A `pooled` row must equal the sum of the other rows of its
/// table, each of which must quote a report ([`check_pooled`]).
pub fn check_readme(readme: &str, reports: &[String], name: &str) -> Checked {
    let report_tables: Vec<Table> = reports.iter().flat_map(|r| tables(r)).collect();
    let mut checked = Checked::default();
    for table in tables(readme) {
        let mut unconfirmed = Vec::new();
        for row in table.rows.iter().filter(|r| !is_pooled(r)) {
            match quoted_cells(&table.header, row, &report_tables, name) {
                Some(cells) => {
                    checked.cells += cells;
                    checked.confirmed.push(row.clone());
                }
                None => unconfirmed.push(row[0].clone()),
            }
        }
        for row in table.rows.iter().filter(|r| is_pooled(r)) {
            assert!(
                unconfirmed.is_empty(),
                "{name}: row `{}` pools rows that quote no report: {unconfirmed:?}",
                row[0]
            );
            check_pooled(&table, row, name);
            checked.pooled += 1;
            checked.confirmed.push(row.clone());
        }
    }
    checked
}

/// The number of cells `row` shares with the report row it quotes, `None` when it quotes none;
/// panics when it quotes rows and agrees with none of them.
fn quoted_cells(header: &[String], row: &[String], reports: &[Table], name: &str) -> Option<usize> {
    let k = key(&row[0]);
    let mut quoted: Vec<(&Vec<String>, BTreeMap<usize, usize>)> = Vec::new();
    for rt in reports {
        let shared: BTreeMap<usize, usize> = header
            .iter()
            .enumerate()
            .skip(1)
            .filter_map(|(i, h)| rt.header.iter().position(|x| x == h).map(|j| (i, j)))
            .collect();
        if shared.len() < 3 {
            continue;
        }
        // Rows of the same name (a head-to-head table has one per opponent), or else of the
        // same first word, unless that word is a number (a rank, an iteration).
        let mut named: Vec<&Vec<String>> = rt.rows.iter().filter(|r| r[0] == row[0]).collect();
        if named.is_empty() && k.parse::<f64>().is_err() {
            named = rt.rows.iter().filter(|r| key(&r[0]) == k).collect();
        }
        quoted.extend(named.into_iter().map(|r| (r, shared.clone())));
    }
    if quoted.is_empty() {
        return None;
    }
    let agrees = |(r, shared): &(&Vec<String>, BTreeMap<usize, usize>)| {
        shared.iter().all(|(&i, &j)| row.get(i) == r.get(j))
    };
    if let Some((_, shared)) = quoted.iter().find(|q| agrees(q)) {
        return Some(shared.len());
    }
    let (r, shared) = &quoted[0];
    let (&i, &j) = shared
        .iter()
        .find(|(i, j)| row.get(**i) != r.get(**j))
        .expect("a differing cell");
    panic!(
        "{name}: row `{}`, column `{}` says {:?}, the report {:?}",
        row[0],
        header[i],
        row.get(i),
        r.get(j)
    );
}

/// `W-D-L` as three counts.
pub fn wdl(cell: &str) -> Option<[u64; 3]> {
    let parts: Vec<u64> = cell
        .split('-')
        .map(|p| p.trim().parse().ok())
        .collect::<Option<_>>()?;
    parts.try_into().ok()
}

/// The score and its 95% Wilson interval as a report writes them, from a W-D-L (a draw counts
/// half): `(score %, low, high)`, each with one decimal.
pub fn closed_form([w, d, l]: [u64; 3]) -> (String, String, String) {
    let n = (w + d + l) as f64;
    let points = w as f64 + d as f64 / 2.0;
    let (lo, hi) = pjlab_stats::stats::wilson(points, n);
    (
        // As the reports compute it: the share first, then percent.
        format!("{:.1}", 100.0 * (points / n)),
        format!("{:.1}", 100.0 * lo),
        format!("{:.1}", 100.0 * hi),
    )
}

/// Checks a pooled row: its W-D-L the sum of the other rows', its games count the sum of
/// theirs, and its score and Wilson interval those of the pooled W-D-L.
pub fn check_pooled(table: &Table, row: &[String], name: &str) {
    let column = |names: &[&str]| {
        table
            .header
            .iter()
            .position(|h| names.contains(&h.as_str()))
    };
    let at = |i: usize| row.get(i).map(String::as_str).unwrap_or("");
    let w = column(&["W-D-L"]).unwrap_or_else(|| panic!("{name}: a pooled table needs W-D-L"));
    let mut sum = [0u64; 3];
    let mut games = 0u64;
    let games_column = column(&["distinct games", "games", "matches"]);
    for other in table.rows.iter().filter(|r| !is_pooled(r)) {
        let counts = wdl(&other[w]).unwrap_or_else(|| panic!("{name}: W-D-L {:?}", other[w]));
        for k in 0..3 {
            sum[k] += counts[k];
        }
        if let Some(g) = games_column {
            games += other[g]
                .replace(',', "")
                .parse::<u64>()
                .expect("a games count");
        }
    }
    let label = &row[0];
    assert_eq!(
        wdl(at(w)),
        Some(sum),
        "{name}: `{label}` W-D-L is not the sum of the rows it pools"
    );
    if let Some(g) = games_column {
        let cell = at(g).replace(',', "");
        assert_eq!(cell, games.to_string(), "{name}: `{label}` games");
    }
    let (score, lo, hi) = closed_form(sum);
    if let Some(s) = column(&["score %"]) {
        assert_eq!(at(s), score, "{name}: `{label}` score %");
    }
    if let Some(i) = column(&["95% Wilson", "95% interval"]) {
        let interval = at(i);
        assert!(
            interval == format!("{lo}-{hi}") || interval == format!("{lo} to {hi}"),
            "{name}: `{label}` interval {interval:?}, the pooled W-D-L gives {lo}-{hi}"
        );
    }
}
