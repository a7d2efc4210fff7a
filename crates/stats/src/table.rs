//! Markdown tables as the lab's reports write them: a header row, a `|---|` separator and the
//! rows, each cell written ` cell |` (an empty cell ` |`), every line ending in a newline.
//!
//! ```
//! use pjlab_stats::table::{Table, cross_table};
//! let mut t = Table::new(["player", "score %"]);
//! t.row(["greedy", "66.7"]);
//! assert_eq!(t.to_string(), "| player | score % |\n|---|---|\n| greedy | 66.7 |\n");
//! let names = ["a".to_string(), "b".to_string()];
//! let cross = cross_table("", &names, |i, j| if i == j { String::new() } else { "50".into() });
//! assert_eq!(cross.to_string(), "| | a | b |\n|---|---|---|\n| a | | 50 |\n| b | 50 | |\n");
//! ```

use std::fmt;

/// A Markdown table, built row by row.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Table {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Table {
    /// A table with these column headers and no rows yet.
    pub fn new<S: Into<String>>(header: impl IntoIterator<Item = S>) -> Table {
        Table {
            header: header.into_iter().map(Into::into).collect(),
            rows: Vec::new(),
        }
    }

    /// Appends a row (as many cells as it has; the table does not check the count).
    pub fn row<S: Into<String>>(&mut self, cells: impl IntoIterator<Item = S>) {
        self.rows.push(cells.into_iter().map(Into::into).collect());
    }

    /// The rows so far.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether it has no rows.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }
}

fn line(f: &mut fmt::Formatter<'_>, cells: &[String]) -> fmt::Result {
    f.write_str("|")?;
    for cell in cells {
        if cell.is_empty() {
            f.write_str(" |")?;
        } else {
            write!(f, " {cell} |")?;
        }
    }
    f.write_str("\n")
}

impl fmt::Display for Table {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        line(f, &self.header)?;
        writeln!(f, "|{}", "---|".repeat(self.header.len()))?;
        for row in &self.rows {
            line(f, row)?;
        }
        Ok(())
    }
}

/// A cross table of `labels` against themselves: `corner` heads the column of row labels, and
/// `cell(i, j)` is row `labels[i]` against column `labels[j]`.
pub fn cross_table(
    corner: &str,
    labels: &[String],
    mut cell: impl FnMut(usize, usize) -> String,
) -> Table {
    let mut table = Table::new(std::iter::once(corner).chain(labels.iter().map(String::as_str)));
    for (i, label) in labels.iter().enumerate() {
        let mut row = vec![label.clone()];
        row.extend((0..labels.len()).map(|j| cell(i, j)));
        table.row(row);
    }
    table
}
