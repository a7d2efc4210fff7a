//! The result figures a README quotes in its prose: each must be one that a report or a checked
//! table row states.
//!
//! Result figures are the forms a match result takes: a score with its interval
//! (`50.1% (45.2-55.0)`, `46.8% (43.7 to 49.8)`), a bold score (`**88.5%**`), a win-draw-loss
//! count (`126-66-8`) and an Elo difference with its half-width (`+44 ± 70`). Other numbers
//! (rates, parameters, differences of two quoted figures) are not matched. A score quoted with
//! its interval must be stated with that interval ([`stated`]): in one row, or written together
//! in a report, so that a score and another row's interval never pass for a figure.
//!
//! Bare percentages (`66.0%`, `40%`, any number followed by `%`) are checked too
//! ([`percentages`], [`percent_stated`]): each must be written by a report, be one of the
//! [`CONVENTIONS`], or be declared in the README's block of percentages ([`declared`]).

/// One result figure found in the prose, with its line.
#[derive(Debug, PartialEq, Eq)]
pub struct Figure {
    /// 1-based line of the README.
    pub line: usize,
    /// What must be found: one or two number strings (a score and its interval's ends, or the
    /// W-D-L, or the Elo difference and its half-width).
    pub text: String,
    kind: Kind,
}

#[derive(Debug, PartialEq, Eq)]
enum Kind {
    /// A score (and maybe its interval `low`, `high`).
    Score {
        score: String,
        interval: Option<(String, String)>,
    },
    Wdl(String),
    Elo(String),
}

/// A number with one decimal (`51.7`) at the start of `s`, and its length.
fn decimal(s: &str) -> Option<(String, usize)> {
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    let rest = &s[digits..];
    if digits == 0 || !rest.starts_with('.') {
        return None;
    }
    let decimals = rest[1..].bytes().take_while(u8::is_ascii_digit).count();
    (decimals == 1).then(|| (s[..digits + 2].to_string(), digits + 2))
}

/// `(low-high)`, `(low to high)` or with `%` after the numbers, at the start of `s`.
fn interval(s: &str) -> Option<(String, String)> {
    let s = s.strip_prefix(" (")?;
    let (low, n) = decimal(s)?;
    let s = s[n..].strip_prefix('%').unwrap_or(&s[n..]);
    let s = s
        .strip_prefix('-')
        .or_else(|| s.strip_prefix(" to "))
        .or_else(|| s.strip_prefix('–'))?;
    let (high, _) = decimal(s)?;
    Some((low, high))
}

/// Whether `s[..i]` ends where a number may start (not inside a number or a word).
fn boundary(s: &str, i: usize) -> bool {
    s[..i]
        .chars()
        .next_back()
        .is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '.' || c == '-' || c == '+'))
}

/// The result figures of one line of prose.
fn figures_of(line: &str, number: usize, out: &mut Vec<Figure>) {
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < line.len() {
        if !line.is_char_boundary(i) || !bytes[i].is_ascii_digit() && bytes[i] != b'+' {
            i += 1;
            continue;
        }
        let at = &line[i..];
        if bytes[i].is_ascii_digit() && boundary(line, i) {
            // A score: `51.7%` with an interval, or bold.
            if let Some((score, n)) = decimal(at)
                && at[n..].starts_with('%')
            {
                let after = &at[n + 1..];
                let bold = line[..i].ends_with("**") && after.starts_with("**");
                let range = interval(after);
                if bold || range.is_some() {
                    out.push(Figure {
                        line: number,
                        text: at[..n + 1].to_string(),
                        kind: Kind::Score {
                            score,
                            interval: range,
                        },
                    });
                }
                i += n + 1;
                continue;
            }
            // A W-D-L: three counts joined by `-`, not a date.
            let wdl: String = at
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == '-')
                .collect();
            let wdl = wdl.trim_end_matches('-');
            let parts: Vec<&str> = wdl.split('-').collect();
            if parts.len() == 3
                && parts.iter().all(|p| !p.is_empty())
                && !(parts[0].len() == 4 && parts[0].starts_with("20"))
                && !at[wdl.len()..].starts_with(|c: char| c.is_ascii_alphanumeric())
            {
                out.push(Figure {
                    line: number,
                    text: wdl.to_string(),
                    kind: Kind::Wdl(wdl.to_string()),
                });
                i += wdl.len();
                continue;
            }
        }
        // An Elo difference: `+44 ± 70` or `-60 ± 72`.
        let start = if bytes[i] == b'+' {
            i
        } else {
            i.saturating_sub(1)
        };
        if (bytes[i] == b'+' || i > 0 && bytes[i - 1] == b'-') && boundary(line, start) {
            let digits = line[start + 1..]
                .bytes()
                .take_while(u8::is_ascii_digit)
                .count();
            let rest = &line[start + 1 + digits..];
            if digits > 0 && rest.starts_with(" ± ") {
                let width = rest[" ± ".len()..]
                    .bytes()
                    .take_while(u8::is_ascii_digit)
                    .count();
                if width > 0 {
                    let text = format!(
                        "{} ± {}",
                        &line[start..start + 1 + digits],
                        &rest[" ± ".len()..][..width]
                    );
                    out.push(Figure {
                        line: number,
                        text: text.clone(),
                        kind: Kind::Elo(text),
                    });
                }
            }
        }
        i += 1;
    }
}

/// The lines of a README's prose with their 1-based numbers: not its tables, its code blocks
/// or its block of declared percentages.
fn prose(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let (mut code, mut block) = (false, false);
    text.lines().enumerate().filter_map(move |(k, line)| {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") {
            code = !code;
            return None;
        }
        if !code && trimmed.starts_with(BLOCK) {
            block = true;
        }
        if block {
            block = !trimmed.ends_with("-->");
            return None;
        }
        (!code && !trimmed.starts_with('|')).then_some((k + 1, line))
    })
}

/// The result figures of a README's prose (not its tables, not its code blocks).
pub fn figures(text: &str) -> Vec<Figure> {
    let mut out = Vec::new();
    for (number, line) in prose(text) {
        figures_of(line, number, &mut out);
    }
    out
}

/// The opening of a README's block of declared percentages: an HTML comment (not shown when the
/// Markdown is rendered), one percentage a line with why it is not a report's figure:
///
/// ```text
/// <!-- percentages not written by a report (crates/cli/tests/experiments):
/// 40%: training's share of the wall time (training.md's wall time line)
/// 30%: the config's share of full searches
/// -->
/// ```
pub const BLOCK: &str = "<!-- percentages";

/// Percentages that need no source: the level of intervals and exclusions, an even score, a
/// test's level.
pub const CONVENTIONS: [(&str, &str); 3] = [
    ("95", "the level of an interval or an exclusion"),
    ("50", "an even score"),
    ("5", "the level of a test"),
];

/// A percentage of the prose: the number before a `%` (`66.75` of `66.75%`).
#[derive(Debug, PartialEq, Eq)]
pub struct Percent {
    /// 1-based line of the README.
    pub line: usize,
    pub number: String,
}

/// Every percentage of a README's prose (tables, code blocks and the declared block left out):
/// a number (digits, maybe a decimal part) right before `%`, not the end of a word (`v2%`); a
/// range's second end (`58` of `53-58%`) counts as a percentage of its own.
pub fn percentages(text: &str) -> Vec<Percent> {
    let mut out = Vec::new();
    for (number, line) in prose(text) {
        for (i, _) in line.match_indices('%') {
            let head = &line[..i];
            let digits = head
                .bytes()
                .rev()
                .take_while(|b| b.is_ascii_digit() || *b == b'.')
                .count();
            let value = head[i - digits..].trim_start_matches('.');
            let start = i - value.len();
            let before = line[..start].chars().next_back();
            if value.is_empty()
                || !value.starts_with(|c: char| c.is_ascii_digit())
                || before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
            {
                continue;
            }
            out.push(Percent {
                line: number,
                number: value.to_string(),
            });
        }
    }
    out
}

/// The README's declared percentages (its [`BLOCK`]): `(line, number, reason)`. Panics on a
/// line of the block that is not `NUMBER%: reason`.
pub fn declared(text: &str, name: &str) -> Vec<(usize, String, String)> {
    let mut out = Vec::new();
    let mut block = false;
    for (k, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.starts_with(BLOCK) {
            block = true;
            continue;
        }
        if !block {
            continue;
        }
        if trimmed.starts_with("-->") {
            block = false;
            continue;
        }
        let entry = trimmed.split_once("%:").and_then(|(number, reason)| {
            let number = number.trim();
            let reason = reason.trim();
            (number.parse::<f64>().is_ok() && !reason.is_empty())
                .then(|| (k + 1, number.to_string(), reason.to_string()))
        });
        match entry {
            Some(entry) => out.push(entry),
            None => panic!(
                "{name}:{}: a line of the percentages block must be `NUMBER%: why`, not {trimmed:?}",
                k + 1
            ),
        }
    }
    out
}

/// Whether a report states the percentage `number`: a cell holds it as a score (an integer
/// `71` as `71.0`, so that a count of 71 does not pass for 71%), or a report's text writes it
/// with `%` (`40%`, `40 %`).
pub fn percent_stated(number: &str, cells: &[String], reports: &[String]) -> bool {
    let score = if number.contains('.') {
        number.to_string()
    } else {
        format!("{number}.0")
    };
    cells.iter().any(|c| holds(c, &score))
        || reports.iter().any(|r| {
            r.match_indices(number).any(|(i, _)| {
                let before = r[..i].chars().next_back();
                let after = r[i + number.len()..].trim_start_matches(' ');
                before.is_none_or(|c| !(c.is_ascii_digit() || c == '.')) && after.starts_with('%')
            })
        })
}

/// Whether `cell` holds `number` as a whole number (not inside a longer one).
fn holds(cell: &str, number: &str) -> bool {
    cell.match_indices(number).any(|(i, _)| {
        let before = cell[..i].chars().next_back();
        let after = &cell[i + number.len()..];
        let longer = after.starts_with(|c: char| c.is_ascii_digit())
            || after.starts_with('.') && after[1..].starts_with(|c: char| c.is_ascii_digit());
        before.is_none_or(|c| !(c.is_ascii_digit() || c == '.')) && !longer
    })
}

/// The Elo figures a table row states: a signed rating and the half-widths in the cells after
/// it (`+316`, `±30`, and a report's `95% with misfit`, `±45`), written as prose writes them
/// (`+316 ± 30`, `+316 ± 45`).
pub fn ratings(row: &[String]) -> Vec<String> {
    let signed = |c: &str| {
        c.len() > 1 && c.starts_with(['+', '-']) && c[1..].bytes().all(|b| b.is_ascii_digit())
    };
    let width = |c: &str| {
        c.strip_prefix('±')
            .filter(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit()))
            .map(str::to_string)
    };
    // An Elo cell followed by its half-widths: the model's, and where the report has one, the
    // one widened by the misfit.
    let mut out = Vec::new();
    for (i, cell) in row.iter().enumerate() {
        if signed(cell) {
            for w in row[i + 1..].iter().map_while(|c| width(c)) {
                out.push(format!("{cell} ± {w}"));
            }
        }
    }
    out
}

/// Whether the sources state `figure`: a W-D-L or an Elo difference as one of `cells`; a score
/// as a cell that holds it, and with an interval, together with it: in one row of `rows` (a
/// cell holding the score, the next cell its interval), or in one cell or report of `texts`
/// written as `score% (low-high)` (or `(low to high)`, `%` after the ends or not).
pub fn stated(figure: &Figure, cells: &[String], rows: &[Vec<String>], texts: &[String]) -> bool {
    match &figure.kind {
        Kind::Score {
            score,
            interval: None,
        } => cells.iter().any(|c| holds(c, score)),
        Kind::Score {
            score,
            interval: Some((lo, hi)),
        } => {
            let is_interval =
                |c: &String| c == &format!("{lo}-{hi}") || c == &format!("{lo} to {hi}");
            let in_row = |r: &Vec<String>| {
                r.windows(2)
                    .any(|pair| holds(&pair[0], score) && is_interval(&pair[1]))
            };
            rows.iter().any(in_row)
                || cells
                    .iter()
                    .chain(texts)
                    .any(|t| written_with_interval(t, score, lo, hi))
        }
        Kind::Wdl(w) => cells.iter().any(|c| c == w),
        Kind::Elo(e) => cells.iter().any(|c| c == e),
    }
}

/// Whether `text` writes `score`, with or without `%`, followed by its interval (`low`, `high`).
fn written_with_interval(text: &str, score: &str, low: &str, high: &str) -> bool {
    text.match_indices(score).any(|(i, _)| {
        let after = &text[i + score.len()..];
        let after = after.strip_prefix('%').unwrap_or(after);
        boundary(text, i) && interval(after).is_some_and(|(l, h)| l == low && h == high)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ratings_row_states_its_elo_with_its_half_width() {
        let row: Vec<String> = [
            "1", "`gen-6`", "+316", "±30", "898", "-5", "±13", "±4", "+x",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(ratings(&row), ["+316 ± 30", "-5 ± 13", "-5 ± 4"]);
        let plain: Vec<String> = ["316", "±30", "+12", "30"].map(String::from).to_vec();
        assert!(ratings(&plain).is_empty());
    }

    #[test]
    fn figures_are_found_and_other_numbers_left() {
        let text = "It scores **88.5%** and 50.1% (45.2-55.0) pooled, 46.8% (43.7 to 49.8), \
                    126-66-8 over 200, +44 ± 70 and -60 ± 72 Elo.\n\
                    Not these: 51.2% alone, 3-8 x 3-9, 2026-11-24, 1.4-1.7 s, ±7 points.\n\
                    | 99.9% (1.0-2.0) | in a table |\n```\n10-20-30\n```\n";
        let found: Vec<String> = figures(text).into_iter().map(|f| f.text).collect();
        assert_eq!(
            found,
            [
                "88.5%",
                "50.1%",
                "46.8%",
                "126-66-8",
                "+44 ± 70",
                "-60 ± 72"
            ]
        );
    }

    #[test]
    fn percentages_are_found_outside_tables_code_and_the_block() {
        let text = "It scores 66.75% at 1,600 and 71% at 3,200, White 53-58%; **88.5%**.\n\
                    | 12.5% | in a table |\n```\n33%\n```\n\
                    <!-- percentages not written by a report:\n40%: a share\n-->\n\
                    v2%, and 0.5% after.\n";
        let found: Vec<(usize, String)> = percentages(text)
            .into_iter()
            .map(|p| (p.line, p.number))
            .collect();
        let expected = [(1, "66.75"), (1, "71"), (1, "58"), (1, "88.5"), (9, "0.5")];
        assert_eq!(found, expected.map(|(l, n)| (l, n.to_string())));
        assert_eq!(
            declared(text, "t"),
            [(7, "40".to_string(), "a share".to_string())]
        );
        let bad = "<!-- percentages\n40% a share\n-->\n";
        assert!(std::panic::catch_unwind(|| declared(bad, "t")).is_err());
    }

    #[test]
    fn a_percentage_is_stated_by_a_score_cell_or_a_report_s_text() {
        let cells: Vec<String> = ["66.0", "71", "51.0"].map(String::from).to_vec();
        let reports = ["Training took 40% of the wall time; 12 %.".to_string()];
        let stated = |n: &str| percent_stated(n, &cells, &reports);
        assert!(stated("66.0") && stated("51.0") && stated("40") && stated("12"));
        // The withdrawn 66.75%, a count of 71 read as 71%, a number inside another.
        assert!(!stated("66.75") && !stated("71") && !stated("0"));
    }

    #[test]
    fn a_figure_is_stated_only_by_a_cell_that_holds_it() {
        let cells: Vec<String> = ["51.7", "44.9-58.6", "103-1-96", "+12 ± 49", "151.75"]
            .map(String::from)
            .to_vec();
        let rows = vec![cells[..2].to_vec()];
        let check = |text: &str| figures(text).iter().all(|f| stated(f, &cells, &rows, &[]));
        assert!(check("51.7% (44.9-58.6), 103-1-96, +12 ± 49"));
        assert!(!check("51.7% (44.9-58.7)"));
        assert!(!check("1.7% (44.9-58.6)"));
        assert!(!check("103-1-97"));
        assert!(!check("+12 ± 48"));
        assert!(!check("**51.8%**"));
    }

    #[test]
    fn a_score_and_its_interval_are_stated_together() {
        // Two rows: a score in one, another score's interval in the other; each row also gives
        // its distance from 50% after the interval.
        let rows: Vec<Vec<String>> = vec![
            ["classic", "49.1", "46.1-52.1", "0.9"]
                .map(String::from)
                .to_vec(),
            ["half-random", "49.2", "47.0-51.4", "0.8"]
                .map(String::from)
                .to_vec(),
        ];
        let cells: Vec<String> = rows.concat();
        let texts = ["White scores 64.4% (61.5-67.1) in half-random.".to_string()];
        let check = |text: &str| {
            figures(text)
                .iter()
                .all(|f| stated(f, &cells, &rows, &texts))
        };
        assert!(check("49.1% (46.1-52.1) and 49.2% (47.0-51.4)"));
        assert!(check("49.1% (46.1 to 52.1)"));
        // A score beside another row's interval is no figure the sources state.
        assert!(!check("49.2% (46.1-52.1)"));
        assert!(!check("49.1% (47.0-51.4)"));
        // Nor is another of the row's numbers beside its interval: the score is the cell before.
        assert!(!check("0.9% (46.1-52.1)"));
        // A report's prose states its score with its interval, in either form, and only so.
        assert!(check("64.4% (61.5-67.1)") && check("64.4% (61.5 to 67.1)"));
        assert!(!check("64.4% (61.5-67.2)") && !check("4.4% (61.5-67.1)"));
    }
}
