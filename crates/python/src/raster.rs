//! Positions as pixels (feature `raster`), for PettingZoo's `rgb_array` render mode: a board
//! game's picture ([`State::svg`], the game crate's drawing) rasterised by `resvg`, and for
//! Chifoumi, whose pictures are whole matches, the grid of one position seen from above
//! ([`pjlab_chifoumi::svg::svg`]: both players and every object).
//!
//! Text (the board games' piece letters, coordinates and status line) is drawn with the
//! machine's fonts, looked up once through fontconfig's files; on a machine without any font
//! the pictures keep everything but their letters.

use std::any::Any;
use std::sync::{Arc, OnceLock};

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
        Some(chifoumi) => pjlab_chifoumi::svg::svg(chifoumi.game()),
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
