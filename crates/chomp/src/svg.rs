//! A position drawn as a self-contained SVG picture.
//!
//! The bar's squares with row 1 at the top and column 1 on the left (the poisoned square (1,1)
//! in the top left corner, green with a white cross), row numbers on the left and column numbers on top; the
//! squares eaten before the last move pale, those the last bite ate hatched, the bitten square
//! outlined; the side to move (or the result) above the bar.
//!
//! For tools and tests every remaining square is a `<rect class="piece square" data-cell="r,c">`
//! (1-based, as moves are written), the poisoned one with the class `poison` too; the last bite
//! is `<rect class="last to" data-cell="r,c">` and the squares it ate `<rect class="last eaten"
//! data-cell=...>`; the status line is `<text class="status" data-to-move="first|second">`,
//! with `data-result="first|second"` once the game is over.
//!
//! ```
//! use pjlab_chomp::{Chomp, svg};
//! use pjlab_core::Game;
//! let start = Chomp::new(3, 4)?;
//! let bite = start.parse_move("2,3")?;
//! let mut next = start.clone();
//! next.play(bite)?;
//! let picture = svg::svg(&next, Some((&start, bite)));
//! assert!(picture.contains(r#"class="last to" data-cell="2,3""#));
//! # Ok::<(), pjlab_chomp::Error>(())
//! ```

use std::fmt::Write as _;

use pjlab_core::svg::open;
use pjlab_core::title_case;
use pjlab_core::{Game, Outcome, Side};

use crate::{Chomp, ChompMove};

/// A square's side, in user units.
const S: f64 = 40.0;
/// Left margin (row numbers).
const LEFT: f64 = 34.0;
/// Above the bar: the status line and column numbers.
const TOP: f64 = 64.0;
/// Right and bottom margins.
const MARGIN: f64 = 16.0;
/// The status line's font size.
const STATUS_SIZE: f64 = 16.0;
/// A character's width in the status line, at most, in ems (DejaVu Sans' widest lower-case
/// letters are 0.63 em wide, its average about 0.55): the picture is made wide enough for the
/// line.
const CHAR_EM: f64 = 0.6;

fn side_name(side: Side) -> &'static str {
    match side {
        Side::First => "first",
        Side::Second => "second",
    }
}

/// `position` as a self-contained SVG picture (see the [module docs](self)), with the last bite
/// marked when `last` gives it: the position it was taken from and the move.
pub fn svg(position: &Chomp, last: Option<(&Chomp, ChompMove)>) -> String {
    let (rows, cols) = (position.rows(), position.cols());
    let mover = side_name(position.side_to_move());
    let (attrs, words) = match position.outcome() {
        None => (
            format!(r#"data-to-move="{mover}""#),
            format!("{} player to move", title_case(mover)),
        ),
        Some(Outcome::Win(side)) => (
            format!(
                r#"data-to-move="{mover}" data-result="{}""#,
                side_name(side)
            ),
            format!(
                "Game over: the {} player wins (only the poison is left)",
                side_name(side)
            ),
        ),
        Some(Outcome::Draw) => (
            format!(r#"data-to-move="{mover}" data-result="draw""#),
            "Game over: draw".to_string(),
        ),
    };
    // Wide enough for the bar and for the status line, the bar centred below the line.
    let bar_w = LEFT + cols as f64 * S + MARGIN;
    let status_w = words.chars().count() as f64 * CHAR_EM * STATUS_SIZE + 2.0 * MARGIN;
    let total_w = bar_w.max(status_w).max(300.0).ceil();
    let total_h = TOP + rows as f64 * S + MARGIN;
    let left = LEFT + (total_w - bar_w) / 2.0;
    let mut out = open(total_w, total_h, &format!("Chomp: {position}"));
    let _ = write!(
        out,
        r##"<text class="status" {attrs} x="{:.1}" y="24" font-size="{STATUS_SIZE}" text-anchor="middle" fill="#222">{words}</text>"##,
        total_w / 2.0
    );
    let corner = |row: usize, col: usize| (left + col as f64 * S, TOP + row as f64 * S);
    out.push_str(r##"<g class="coords" font-size="14" fill="#6b5a3a" text-anchor="middle">"##);
    for col in 0..cols {
        let (x, y) = corner(0, col);
        let _ = write!(
            out,
            r#"<text x="{:.1}" y="{:.1}">{}</text>"#,
            x + S / 2.0,
            y - 8.0,
            col + 1
        );
    }
    for row in 0..rows {
        let (x, y) = corner(row, 0);
        let _ = write!(
            out,
            r#"<text x="{:.1}" y="{:.1}">{}</text>"#,
            x - 14.0,
            y + S / 2.0 + 5.0,
            row + 1
        );
    }
    out.push_str("</g>");
    // Every square of the bar: eaten ones pale, remaining ones chocolate.
    let lengths = position.lengths();
    let before = last.map(|(before, _)| before.lengths());
    out.push_str(r##"<g class="bar" stroke="#fff" stroke-width="2">"##);
    for (row, &length) in lengths.iter().enumerate() {
        for col in 0..cols {
            let (x, y) = corner(row, col);
            let cell = format!("{},{}", row + 1, col + 1);
            if col < length {
                let poison = (row, col) == (0, 0);
                let (class, fill) = if poison {
                    ("piece square poison", "#3d8b37")
                } else {
                    ("piece square", "#7b4a2a")
                };
                let _ = write!(
                    out,
                    r#"<rect class="{class}" data-cell="{cell}" x="{x:.1}" y="{y:.1}" width="{S}" height="{S}" fill="{fill}"/>"#
                );
                if poison {
                    let (a, b) = (S * 0.28, S * 0.72);
                    let _ = write!(
                        out,
                        r##"<path d="M{:.1} {:.1}L{:.1} {:.1}M{:.1} {:.1}L{:.1} {:.1}" stroke="#fff" stroke-width="4" stroke-linecap="round"/>"##,
                        x + a,
                        y + a,
                        x + b,
                        y + b,
                        x + b,
                        y + a,
                        x + a,
                        y + b
                    );
                }
            } else {
                let eaten_now = before.as_ref().is_some_and(|b| col < b[row]);
                let class = if eaten_now { "last eaten" } else { "eaten" };
                let fill = if eaten_now { "#e9b98f" } else { "#f1ebe3" };
                let _ = write!(
                    out,
                    r#"<rect class="{class}" data-cell="{cell}" x="{x:.1}" y="{y:.1}" width="{S}" height="{S}" fill="{fill}"/>"#
                );
            }
        }
    }
    out.push_str("</g>");
    if let Some((_, bite)) = last {
        let (x, y) = corner(bite.row as usize, bite.col as usize);
        let _ = write!(
            out,
            r##"<rect class="last to" data-cell="{bite}" x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="none" stroke="#d9480f" stroke-width="4"/>"##,
            x + 2.0,
            y + 2.0,
            S - 4.0,
            S - 4.0
        );
    }
    out.push_str("</svg>");
    out
}
