//! A position drawn as a self-contained SVG picture.
//!
//! The 45 hexagonal cells with White's back row `a` at the bottom, row letters on both sides and
//! column numbers under row `a` and over row `g` (the 7-cell rows start half a cell further out);
//! each cube a disc in its colour with its role's letter (`R`, `P`, `S`, `W`), a stack two discs,
//! the top one above with its letter large and the bottom one peeking out below with its letter
//! small; the side to move (or the result) above the board; the last move's start, middle and end
//! cells outlined.
//!
//! For tools and tests every piece is a `<g class="piece COLOUR ROLE" data-cell="c3">` (ROLE the
//! single cube's or the stack's top cube's: `rock`, `paper`, `scissors`, `wise`), with
//! `data-bottom="ROLE"` on a stack; the last move's cells are `<polygon class="last from|via|to"
//! data-cell=...>`; the status line is `<text class="status" data-to-move="white|black">`, with
//! `data-result="white|black|draw"` once the game is over.
//!
//! ```
//! use pjlab_pijersi::{Position, svg};
//! let start = Position::default();
//! let mv = start.parse_ugi("a4b5c4")?;
//! let picture = svg::svg(&start.after(mv), Some(mv));
//! assert!(picture.starts_with("<svg") && picture.contains(r#"class="last to" data-cell="c4""#));
//! # Ok::<(), pjlab_pijersi::Error>(())
//! ```

use std::fmt::Write as _;

use pjlab_core::Outcome;
use pjlab_core::svg::{hexagon, open};
use pjlab_core::title_case;

use crate::geometry::ROW_LEN;
use crate::{Cell, Color, Move, Piece, Position, Role};

/// Hexagon circumradius, in user units.
const R: f64 = 30.0;
/// Left and right margin (row letters).
const SIDE: f64 = 34.0;
/// Above the board: the status line and column numbers.
const TOP: f64 = 62.0;
/// Below the board: column numbers.
const BOTTOM: f64 = 34.0;

fn width() -> f64 {
    3f64.sqrt() * R
}

/// The centre of `cell`.
fn centre(cell: Cell) -> (f64, f64) {
    let (row, col) = (cell.row(), cell.col());
    let shift = if ROW_LEN[row] == 7 { 0.0 } else { 0.5 };
    let x = SIDE + width() * (0.5 + col as f64 + shift);
    let y = TOP + R + 1.5 * R * (6 - row) as f64;
    (x, y)
}

/// The role's name, as a class.
fn role_name(role: Role) -> &'static str {
    match role {
        Role::Rock => "rock",
        Role::Paper => "paper",
        Role::Scissors => "scissors",
        Role::Wise => "wise",
    }
}

/// A disc for one cube at `(x, y)` of radius `r`, its role's letter centred on height `letter_at`.
fn cube(out: &mut String, color: Color, role: Role, (x, y): (f64, f64), r: f64, letter_at: f64) {
    let (fill, stroke, ink) = match color {
        Color::White => ("#fbf8ef", "#3a3a3a", "#1d1d1d"),
        Color::Black => ("#2a2a2a", "#000", "#f4f4f4"),
    };
    let size = r * 1.05;
    let _ = write!(
        out,
        r#"<circle cx="{x:.1}" cy="{y:.1}" r="{r:.1}" fill="{fill}" stroke="{stroke}" stroke-width="1.6"/><text x="{x:.1}" y="{:.1}" font-size="{size:.1}" font-weight="bold" text-anchor="middle" fill="{ink}">{}</text>"#,
        letter_at + size * 0.36,
        role.letter(Color::White)
    );
}

fn piece(out: &mut String, cell: Cell, piece: Piece) {
    let (x, y) = centre(cell);
    let color = piece.color.name();
    let _ = write!(
        out,
        r#"<g class="piece {color} {}" data-cell="{cell}""#,
        role_name(piece.top)
    );
    match piece.bottom {
        None => {
            out.push('>');
            cube(out, piece.color, piece.top, (x, y), 0.6 * R, y);
        }
        Some(bottom) => {
            let _ = write!(out, r#" data-bottom="{}">"#, role_name(bottom));
            let r = 0.52 * R;
            let low = y + 0.3 * R;
            let high = y - 0.18 * R;
            // The bottom cube: only its lower part shows, with its letter small there.
            let (fill, stroke, ink) = match piece.color {
                Color::White => ("#e9e2cf", "#3a3a3a", "#1d1d1d"),
                Color::Black => ("#444", "#000", "#f4f4f4"),
            };
            let size = 0.32 * R;
            let _ = write!(
                out,
                r#"<circle cx="{x:.1}" cy="{low:.1}" r="{r:.1}" fill="{fill}" stroke="{stroke}" stroke-width="1.6"/><text x="{x:.1}" y="{:.1}" font-size="{size:.1}" font-weight="bold" text-anchor="middle" fill="{ink}">{}</text>"#,
                low + 0.72 * r - 1.0,
                bottom.letter(Color::White)
            );
            cube(out, piece.color, piece.top, (x, high), r, high);
        }
    }
    out.push_str("</g>");
}

/// The status line: who moves, or how the game ended.
fn status(position: &Position) -> (String, String) {
    let mover = position.side_to_move().name();
    let fullmove = position.fullmove();
    match position.outcome() {
        None => (
            format!(r#"data-to-move="{mover}""#),
            format!("{} to move · move {fullmove}", title_case(mover)),
        ),
        Some(outcome) => {
            let (result, words) = match outcome {
                Outcome::Win(side) => {
                    let name = Color::from_side(side).name();
                    (name, format!("{} wins", title_case(name)))
                }
                Outcome::Draw => ("draw", "draw, 20 turns without a capture".to_string()),
            };
            (
                format!(r#"data-to-move="{mover}" data-result="{result}""#),
                format!("Game over: {words}"),
            )
        }
    }
}

/// `position` as a self-contained SVG picture (see the [module docs](self)), with `last`, the
/// move that led to it, marked: its start, middle (where a two-action turn passes through a third cell) and end
/// cells.
pub fn svg(position: &Position, last: Option<Move>) -> String {
    let w = width();
    let (total_w, total_h) = (2.0 * SIDE + 7.0 * w, TOP + 11.0 * R + BOTTOM);
    let mut out = open(total_w, total_h, &format!("Pijersi: {position}"));
    let (attrs, words) = status(position);
    let _ = write!(
        out,
        r##"<text class="status" {attrs} x="{:.1}" y="26" font-size="17" text-anchor="middle" fill="#222">{words}</text>"##,
        total_w / 2.0
    );
    // The cells: the back rows, which each side must reach, a shade darker.
    out.push_str(r##"<g class="cells" stroke="#8b7650" stroke-width="1.2">"##);
    for cell in Cell::all() {
        let (x, y) = centre(cell);
        let fill = if cell.row() == 0 || cell.row() == 6 {
            "#dcc592"
        } else {
            "#eadcb8"
        };
        let _ = write!(
            out,
            r#"<polygon class="cell" data-cell="{cell}" points="{}" fill="{fill}"/>"#,
            hexagon(x, y, R)
        );
    }
    out.push_str("</g>");
    // Coordinates: row letters on both sides, column numbers below row a and above row g.
    out.push_str(r##"<g class="coords" font-size="14" fill="#6b5a3a" text-anchor="middle">"##);
    for (row, &len) in ROW_LEN.iter().enumerate() {
        let first = Cell::from_coords(row, 0).expect("a cell");
        let last = Cell::from_coords(row, len as usize - 1).expect("a cell");
        let letter = (b'a' + row as u8) as char;
        let (x0, y) = centre(first);
        let (x1, _) = centre(last);
        let _ = write!(
            out,
            r#"<text x="{:.1}" y="{:.1}">{letter}</text><text x="{:.1}" y="{:.1}">{letter}</text>"#,
            x0 - 0.5 * w - 12.0,
            y + 5.0,
            x1 + 0.5 * w + 12.0,
            y + 5.0
        );
    }
    for (row, dy) in [(0, R + 18.0), (6, -R - 8.0)] {
        for col in 0..ROW_LEN[row] as usize {
            let (x, y) = centre(Cell::from_coords(row, col).expect("a cell"));
            let _ = write!(
                out,
                r#"<text x="{x:.1}" y="{:.1}">{}</text>"#,
                y + dy,
                col + 1
            );
        }
    }
    out.push_str("</g>");
    if let Some(mv) = last {
        let mut roles = vec![("from", mv.start())];
        if let Some(middle) = mv.middle().filter(|&m| m != mv.start() && m != mv.end()) {
            roles.push(("via", middle));
        }
        roles.push(("to", mv.end()));
        out.push_str(r#"<g class="last-move">"#);
        for (role, cell) in roles {
            let (x, y) = centre(cell);
            let (r, colour) = match role {
                "to" => (R - 3.0, "#d9480f"),
                _ => (R - 5.0, "#f08c00"),
            };
            let _ = write!(
                out,
                r##"<polygon class="last {role}" data-cell="{cell}" points="{}" fill="#ffd43b" fill-opacity="0.45" stroke="{colour}" stroke-width="4"{}/>"##,
                hexagon(x, y, r),
                if role == "to" {
                    ""
                } else {
                    r#" stroke-dasharray="6 4""#
                }
            );
        }
        out.push_str("</g>");
    }
    out.push_str(r#"<g class="pieces">"#);
    for cell in Cell::all() {
        if let Some(p) = position.piece_at(cell) {
            piece(&mut out, cell, p);
        }
    }
    out.push_str("</g></svg>");
    out
}
