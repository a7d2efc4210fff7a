//! The result figures a README quotes in its prose: each must be one that a report or a checked
//! table row states.
//!
//! Result figures are the forms a match result takes: a score with its interval
//! (`50.1% (45.2-55.0)`, `46.8% (43.7 to 49.8)`), a bold score (`**88.5%**`), a win-draw-loss
//! count (`126-66-8`) and an Elo difference with its half-width (`+44 ± 70`). Other numbers
//! (rates, parameters, differences of two quoted figures) are not matched.

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

/// The result figures of a README's prose (not its tables, not its code blocks).
pub fn figures(text: &str) -> Vec<Figure> {
    let mut out = Vec::new();
    let mut code = false;
    for (k, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            code = !code;
            continue;
        }
        if code || line.trim_start().starts_with('|') {
            continue;
        }
        figures_of(line, k + 1, &mut out);
    }
    out
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

/// Whether one of `cells` states `figure`: the score (and its interval, in one cell), the
/// W-D-L, or the Elo difference.
pub fn stated(figure: &Figure, cells: &[String]) -> bool {
    match &figure.kind {
        Kind::Score { score, interval } => {
            cells.iter().any(|c| holds(c, score))
                && interval.as_ref().is_none_or(|(lo, hi)| {
                    cells
                        .iter()
                        .any(|c| c == &format!("{lo}-{hi}") || c == &format!("{lo} to {hi}"))
                })
        }
        Kind::Wdl(w) => cells.iter().any(|c| c == w),
        Kind::Elo(e) => cells.iter().any(|c| c == e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn a_figure_is_stated_only_by_a_cell_that_holds_it() {
        let cells: Vec<String> = ["51.7", "44.9-58.6", "103-1-96", "+12 ± 49", "151.75"]
            .map(String::from)
            .to_vec();
        let check = |text: &str| figures(text).iter().all(|f| stated(f, &cells));
        assert!(check("51.7% (44.9-58.6), 103-1-96, +12 ± 49"));
        assert!(!check("51.7% (44.9-58.7)"));
        assert!(!check("1.7% (44.9-58.6)"));
        assert!(!check("103-1-97"));
        assert!(!check("+12 ± 48"));
        assert!(!check("**51.8%**"));
    }
}
