//! One Chifoumi position as SVG, seen from above: the grid, its walls, each player's visibility
//! square, the objects' letters and the players' numbered discs, in the colours of `pjlab
//! chifoumi show`'s match pages. It shows what neither player may see (the whole grid), so it
//! is a picture for people, never an observation.

use std::fmt::Write as _;

use crate::{Cell, Game};

/// Pixels a side of a Chifoumi cell.
const CELL: usize = 26;

/// The players' colours (player 1, player 2), here and on `pjlab chifoumi show`'s match pages.
pub const PLAYER_COLOURS: [&str; 2] = ["#1f77b4", "#d62728"];
/// The objects' colours, in [`Object::ALL`](crate::Object::ALL) order (F, P, C), here and on
/// the match pages.
pub const OBJECT_COLOURS: [&str; 3] = ["#ff7f0e", "#2ca02c", "#9467bd"];

/// One Chifoumi position as SVG: the grid, its walls, each player's visibility square, the
/// objects' letters and the players' numbered discs.
pub fn svg(game: &Game) -> String {
    let (w, h) = (game.width(), game.height());
    let s = CELL as f64;
    let mut out = pjlab_core::svg::open((w * CELL) as f64, (h * CELL) as f64, "Chifoumi position");
    let cell = |row: usize, col: usize| Cell::new(row as u8, col as u8);
    for row in 0..h {
        for col in 0..w {
            let fill = if game.is_wall(cell(row, col)) {
                "#444"
            } else {
                "#fff"
            };
            let _ = write!(
                out,
                r##"<rect x="{}" y="{}" width="{CELL}" height="{CELL}" fill="{fill}" stroke="#ddd"/>"##,
                col * CELL,
                row * CELL
            );
        }
    }
    let radius = usize::from(game.radius());
    for (player, colour) in PLAYER_COLOURS.iter().enumerate() {
        let at = game.position(player);
        let (row, col) = (usize::from(at.row), usize::from(at.col));
        let (r0, c0) = (row.saturating_sub(radius), col.saturating_sub(radius));
        let (r1, c1) = ((row + radius).min(h - 1), (col + radius).min(w - 1));
        let _ = write!(
            out,
            r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{colour}" fill-opacity="0.10" stroke="{colour}" stroke-dasharray="4 3"/>"#,
            c0 * CELL,
            r0 * CELL,
            (c1 - c0 + 1) * CELL,
            (r1 - r0 + 1) * CELL
        );
    }
    for row in 0..h {
        for col in 0..w {
            if let Some(object) = game.object_at(cell(row, col)) {
                let _ = write!(
                    out,
                    r#"<text x="{:.1}" y="{:.1}" text-anchor="middle" font-weight="bold" font-size="{:.1}" fill="{}">{}</text>"#,
                    col as f64 * s + s / 2.0,
                    row as f64 * s + s * 0.7,
                    s * 0.6,
                    OBJECT_COLOURS[object.index()],
                    object.letter()
                );
            }
        }
    }
    for (player, colour) in PLAYER_COLOURS.iter().enumerate() {
        let at = game.position(player);
        let x = f64::from(at.col) * s + s / 2.0 + if player == 0 { -4.0 } else { 4.0 };
        let y = f64::from(at.row) * s;
        let _ = write!(
            out,
            r##"<circle cx="{x:.1}" cy="{:.1}" r="{:.1}" fill="{colour}" fill-opacity="0.85"/><text x="{x:.1}" y="{:.1}" text-anchor="middle" font-size="{:.1}" fill="#fff">{}</text>"##,
            y + s / 2.0,
            s * 0.33,
            y + s * 0.62,
            s * 0.4,
            player + 1
        );
    }
    out.push_str("</svg>");
    out
}
