//! Positions as pixels (feature `raster`), for PettingZoo's `rgb_array` render mode: a board
//! game's picture ([`State::svg`], the game crate's drawing) rasterised by `resvg`, and for
//! Chifoumi, whose pictures are whole matches, the grid of one position drawn here as SVG first
//! (the colours of `pjlab chifoumi show`), seen from above: both players and every object.
//!
//! Text (the board games' piece letters, coordinates and status line) is drawn with the
//! machine's fonts, looked up once through fontconfig's files; on a machine without any font
//! the pictures keep everything but their letters.

use std::any::Any;
use std::fmt::Write as _;
use std::sync::{Arc, OnceLock};

use pjlab_chifoumi::{Cell, Game};
use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg::{self, fontdb};

use crate::{ChifoumiState, Error, State};

/// A picture as 8-bit RGB pixels, row by row from the top left.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rgb {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// `height * width * 3` bytes: red, green and blue of each pixel.
    pub pixels: Vec<u8>,
}

/// The scales [`rgb`] accepts: a picture's side is a few hundred pixels at scale 1.
pub const SCALES: std::ops::RangeInclusive<f32> = 0.05..=8.0;

/// `state`'s picture as pixels, `scale` times the size of its SVG (in pixels at scale 1).
///
/// # Errors
/// [`Error::Argument`] for a scale outside [`SCALES`].
pub fn rgb(state: &dyn State, scale: f32) -> Result<Rgb, Error> {
    let any: &dyn Any = state;
    let svg = match any.downcast_ref::<ChifoumiState>() {
        Some(chifoumi) => chifoumi_svg(chifoumi.game()),
        None => state.svg().ok_or_else(|| {
            Error::Argument(format!("{} states have no picture", state.game_name()))
        })?,
    };
    rasterise(&svg, scale)
}

/// `svg` as pixels, `scale` times its own size, over a white background.
///
/// # Errors
/// [`Error::Argument`] for a scale outside [`SCALES`] or text that is not SVG.
pub fn rasterise(svg: &str, scale: f32) -> Result<Rgb, Error> {
    if !SCALES.contains(&scale) {
        return Err(Error::Argument(format!(
            "scale must be from {} to {}, got {scale}",
            SCALES.start(),
            SCALES.end()
        )));
    }
    let options = usvg::Options {
        fontdb: Arc::clone(fonts()),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &options)
        .map_err(|e| Error::Argument(format!("the picture is not SVG: {e}")))?;
    let size = tree.size().to_int_size();
    let (width, height) = (
        ((size.width() as f32 * scale).round() as u32).max(1),
        ((size.height() as f32 * scale).round() as u32).max(1),
    );
    let mut pixmap = Pixmap::new(width, height).ok_or_else(|| {
        Error::Argument(format!(
            "a picture of {width} x {height} pixels is too large"
        ))
    })?;
    resvg::render(
        &tree,
        Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    // Premultiplied RGBA over white: each channel plus the white let through.
    let pixels = pixmap
        .pixels()
        .iter()
        .flat_map(|p| {
            let clear = 255 - p.alpha();
            [p.red() + clear, p.green() + clear, p.blue() + clear]
        })
        .collect();
    Ok(Rgb {
        width: width as usize,
        height: height as usize,
        pixels,
    })
}

/// The machine's fonts, read once.
fn fonts() -> &'static Arc<fontdb::Database> {
    static FONTS: OnceLock<Arc<fontdb::Database>> = OnceLock::new();
    FONTS.get_or_init(|| {
        let mut fonts = fontdb::Database::new();
        fonts.load_system_fonts();
        Arc::new(fonts)
    })
}

/// Pixels a side of a Chifoumi cell.
const CELL: usize = 26;

/// The players' colours and the objects' (F, P, C), as `pjlab chifoumi show` draws them.
const PLAYERS: [&str; 2] = ["#1f77b4", "#d62728"];
const OBJECTS: [&str; 3] = ["#ff7f0e", "#2ca02c", "#9467bd"];

/// One Chifoumi position as SVG: the grid, its walls, each player's visibility square, the
/// objects' letters and the players' numbered discs.
fn chifoumi_svg(game: &Game) -> String {
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
    for (player, colour) in PLAYERS.iter().enumerate() {
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
                    OBJECTS[object.index()],
                    object.letter()
                );
            }
        }
    }
    for (player, colour) in PLAYERS.iter().enumerate() {
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
