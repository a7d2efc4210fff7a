//! A position drawn as a self-contained SVG picture.
//!
//! The 61 cells of the hexagon with row `A` (Black's side) at the bottom, row letters on the
//! left edge and diagonal numbers along the lower edges, as the Aba-Pro diagram has them; each
//! marble a disc in its colour, and in doubles in its seat's colour with the seat's digit (seats
//! 0 and 2 play Black: black and blue; seats 1 and 3 White: white and sand); the side or seat to
//! move (or the result), the ejections and, in doubles, the junctions above and below the board;
//! the last move's marbles ringed where they went and dashed where they left, pushed opponents
//! ringed thinly.
//!
//! For tools and tests every marble is a `<g class="piece marble COLOUR seatN" data-cell="e5"
//! data-seat="N">`; the last move's cells are `<circle class="last from|to|pushed"
//! data-cell=...>`; the status line is `<text class="status" data-to-move="black|white"
//! data-seat="N">`, with `data-result="black|white|draw"` once the game is over.
//!
//! ```
//! use pjlab_abalone::{Position, Variant, svg};
//! let start = Variant::Standard.start();
//! let mv = start.parse_move("a1b2")?;
//! let picture = svg::svg(&start.after(mv), Some((&start, mv)));
//! // a1b2 moves A1, B2, C3 up to B2, C3, D4: A1 is left, D4 reached.
//! assert!(picture.contains(r#"class="last from" data-cell="a1""#));
//! assert!(picture.contains(r#"class="last to" data-cell="d4""#));
//! # Ok::<(), pjlab_abalone::Error>(())
//! ```

use std::fmt::Write as _;

use pjlab_core::Outcome;
use pjlab_core::svg::{escape, hexagon, open};
use pjlab_core::title_case;

use crate::geometry::{ALL_CELLS, Bitboard, cells, shift};
use crate::{Cell, Color, Move, Position, Seat};

/// Hexagon circumradius, in user units.
const R: f64 = 25.0;
/// Left and right margins.
const SIDE: f64 = 30.0;
/// Above the board: the status line, the ejections and the junctions.
const TOP: f64 = 78.0;
/// Below the board: diagonal numbers and, in doubles, the seats' legend.
fn bottom(doubles: bool) -> f64 {
    if doubles { 62.0 } else { 34.0 }
}

fn width() -> f64 {
    3f64.sqrt() * R
}

/// The centre of the cell at `row` and `diagonal` (0-based; also off-board places for labels).
fn place(row: f64, diagonal: f64) -> (f64, f64) {
    let x = SIDE + width() * (0.5 + diagonal - row / 2.0 + 2.0);
    let y = TOP + R + 1.5 * R * (8.0 - row);
    (x, y)
}

fn centre(cell: Cell) -> (f64, f64) {
    place(cell.row() as f64, cell.diagonal() as f64)
}

/// A seat's marble fill, stroke and ink (for its digit).
fn seat_colours(seat: Seat, doubles: bool) -> (&'static str, &'static str, &'static str) {
    match (seat.index(), doubles) {
        (0, _) => ("#232323", "#000", "#fff"),
        (1, _) => ("#f7f7f2", "#555", "#222"),
        (2, true) => ("#1f5fa8", "#0b2f5c", "#fff"),
        (3, true) => ("#e8c77a", "#7a5c1c", "#222"),
        // Labels 2 and 3 only exist in doubles; draw them as their colour otherwise.
        (2, false) => ("#232323", "#000", "#fff"),
        _ => ("#f7f7f2", "#555", "#222"),
    }
}

/// The status line's attributes and words.
fn status(position: &Position) -> (String, String) {
    let doubles = position.rules().is_doubles();
    let seat = position.seat();
    let mover = position.color_to_move().name();
    let mut attrs = format!(r#"data-to-move="{mover}" data-seat="{}""#, seat.index());
    let words = match position.outcome() {
        None if doubles => format!(
            "Seat {} ({mover}) to move · move {}",
            seat.index(),
            position.move_number()
        ),
        None => format!(
            "{} to move · move {}",
            title_case(mover),
            position.move_number()
        ),
        Some(outcome) => {
            let (result, words) = match outcome {
                Outcome::Win(side) => {
                    let name = Color::of_side(side).name();
                    (name, format!("{} wins", title_case(name)))
                }
                Outcome::Draw => {
                    let quiet = position.quiet_plies();
                    let why = if position
                        .rules()
                        .no_ejection_plies
                        .is_some_and(|n| quiet >= n)
                    {
                        format!("{quiet} plies without an ejection")
                    } else {
                        format!("the ply cap ({} plies)", position.ply())
                    };
                    ("draw", format!("draw, {why}"))
                }
            };
            let _ = write!(attrs, r#" data-result="{result}""#);
            format!("Game over: {words}")
        }
    };
    (attrs, words)
}

/// The cells the last move touched: where its own marbles went, where they left, and where the
/// pushed opponents went (on the board).
fn marks(before: &Position, mv: Move) -> Option<[Bitboard; 3]> {
    let effect = before.effect(mv).ok()?;
    let to = shift(effect.own, effect.dir);
    let from = effect.own & !to;
    let pushed = shift(effect.pushed, effect.dir) & ALL_CELLS;
    Some([from, to, pushed])
}

fn marble(out: &mut String, cell: Cell, seat: Seat, doubles: bool) {
    let (x, y) = centre(cell);
    let (fill, stroke, ink) = seat_colours(seat, doubles);
    let r = 0.78 * R;
    let _ = write!(
        out,
        r##"<g class="piece marble {} seat{}" data-cell="{cell}" data-seat="{}"><circle cx="{x:.1}" cy="{y:.1}" r="{r:.1}" fill="{fill}" stroke="{stroke}" stroke-width="1.5"/><circle cx="{:.1}" cy="{:.1}" r="{:.1}" fill="#fff" fill-opacity="0.35"/>"##,
        seat.color().name(),
        seat.index(),
        seat.index(),
        x - 0.3 * r,
        y - 0.32 * r,
        0.28 * r,
    );
    if doubles {
        let _ = write!(
            out,
            r#"<text x="{x:.1}" y="{:.1}" font-size="{:.1}" font-weight="bold" text-anchor="middle" fill="{ink}">{}</text>"#,
            y + 0.3 * R,
            0.8 * R,
            seat.index()
        );
    }
    out.push_str("</g>");
}

/// `position` as a self-contained SVG picture (see the [module docs](self)), with the last move
/// marked when `last` gives it: the position it was played from and the move. A `last` whose
/// move is not legal where it says marks nothing.
pub fn svg(position: &Position, last: Option<(&Position, Move)>) -> String {
    let w = width();
    let doubles = position.rules().is_doubles();
    let (total_w, total_h) = (2.0 * SIDE + 9.0 * w, TOP + 14.0 * R + bottom(doubles));
    let mut out = open(total_w, total_h, &format!("Abalone: {position}"));
    let (attrs, words) = status(position);
    let _ = write!(
        out,
        r##"<text class="status" {attrs} x="{:.1}" y="24" font-size="17" text-anchor="middle" fill="#222">{}</text>"##,
        total_w / 2.0,
        escape(&words)
    );
    let mut lines = vec![format!(
        "Ejected: by black {}, by white {} (6 to win)",
        position.ejected(Color::Black),
        position.ejected(Color::White)
    )];
    if doubles {
        let junction = |c: Color| {
            if position.junction(c) {
                "made"
            } else {
                "not yet"
            }
        };
        lines.push(format!(
            "Junction: black {}, white {}",
            junction(Color::Black),
            junction(Color::White)
        ));
    }
    for (k, line) in lines.iter().enumerate() {
        let _ = write!(
            out,
            r##"<text class="score" x="{:.1}" y="{}" font-size="13" text-anchor="middle" fill="#444">{line}</text>"##,
            total_w / 2.0,
            44 + 17 * k
        );
    }
    out.push_str(r##"<g class="cells" stroke="#7d6a45" stroke-width="1.1">"##);
    for cell in Cell::all() {
        let (x, y) = centre(cell);
        let _ = write!(
            out,
            r##"<polygon class="cell" data-cell="{cell}" points="{}" fill="#e6d7b0"/><circle cx="{x:.1}" cy="{y:.1}" r="{:.1}" fill="#cdb98a" stroke="none"/>"##,
            hexagon(x, y, R),
            0.74 * R
        );
    }
    out.push_str("</g>");
    // Row letters left of each row; diagonal numbers where each diagonal leaves the board at the
    // bottom (row A for 1-5, the lower right edge for 6-9).
    out.push_str(r##"<g class="coords" font-size="14" fill="#6b5a3a" text-anchor="middle">"##);
    for row in 0..9usize {
        let first = row.saturating_sub(4);
        let (x, y) = place(row as f64, first as f64 - 1.0);
        let letter = (b'A' + row as u8) as char;
        let _ = write!(
            out,
            r#"<text x="{:.1}" y="{:.1}">{letter}</text>"#,
            x + 0.25 * w,
            y + 5.0
        );
    }
    for diagonal in 0..9usize {
        let lowest = diagonal.saturating_sub(4);
        let (x, y) = place(lowest as f64 - 1.0, diagonal as f64);
        let _ = write!(
            out,
            r#"<text x="{:.1}" y="{:.1}">{}</text>"#,
            x - 0.1 * w,
            y - 0.2 * R,
            diagonal + 1
        );
    }
    out.push_str("</g>");
    let marked = last.and_then(|(before, mv)| marks(before, mv));
    if let Some([from, _, _]) = marked {
        out.push_str(r#"<g class="last-move">"#);
        for cell in cells(from) {
            let (x, y) = centre(cell);
            let _ = write!(
                out,
                r##"<circle class="last from" data-cell="{cell}" cx="{x:.1}" cy="{y:.1}" r="{:.1}" fill="none" stroke="#e8590c" stroke-width="3" stroke-dasharray="5 4"/>"##,
                0.78 * R
            );
        }
        out.push_str("</g>");
    }
    out.push_str(r#"<g class="pieces">"#);
    for (cell, seat) in position.pieces() {
        marble(&mut out, cell, seat, doubles);
    }
    out.push_str("</g>");
    if let Some([_, to, pushed]) = marked {
        out.push_str(r#"<g class="last-move" fill="none">"#);
        for (class, bits, width) in [("to", to, 4.0), ("pushed", pushed, 2.0)] {
            for cell in cells(bits) {
                let (x, y) = centre(cell);
                let _ = write!(
                    out,
                    r##"<circle class="last {class}" data-cell="{cell}" cx="{x:.1}" cy="{y:.1}" r="{:.1}" stroke="#e8590c" stroke-width="{width}"/>"##,
                    0.9 * R
                );
            }
        }
        out.push_str("</g>");
    }
    if doubles {
        legend(&mut out, total_w, total_h);
    }
    out.push_str("</svg>");
    out
}

/// The seats' colours under the board of a doubles game.
fn legend(out: &mut String, total_w: f64, total_h: f64) {
    let y = total_h - 16.0;
    let step = (total_w - 20.0) / 4.0;
    out.push_str(r##"<g class="legend" font-size="12" fill="#333">"##);
    for seat in Seat::ALL {
        let (fill, stroke, _) = seat_colours(seat, true);
        let x = 18.0 + step * seat.index() as f64;
        let _ = write!(
            out,
            r#"<circle cx="{x:.1}" cy="{:.1}" r="7" fill="{fill}" stroke="{stroke}"/><text x="{:.1}" y="{:.1}">seat {} ({})</text>"#,
            y - 4.0,
            x + 11.0,
            y,
            seat.index(),
            seat.color().name()
        );
    }
    out.push_str("</g>");
}
