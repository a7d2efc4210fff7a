//! SVG plots drawn with `plotters`: line charts (training metrics, rating curves, length
//! distributions; scores by strength level on an axis of evenly spaced categories), each line
//! with an optional shaded band, and point-with-interval charts (scores by variant or setup).
//!
//! Both keep text apart: the legend sits beside the plotting area, never over a curve; an
//! interval chart's category labels are laid out from a conservative estimate of their width
//! (one line when they fit, wrapped at `-`, `/`, `:`, `=` or spaces when not, rotated when
//! neither fits), so two never run into each other (a line chart's categories take the lines
//! their caller gives); an axis whose data are all integers (iterations, games, plies) prints
//! integer ticks, and no tick prints a trailing `.0`. Series take their colours in order from
//! twelve that each stand out on white (`palette`).

mod interval;
mod line;
mod palette;
mod text;

#[cfg(test)]
mod tests;

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

pub use interval::interval_chart;
pub use line::{category_line_chart, line_chart};

use crate::Error;

/// One line of a chart: its name, points and, optionally, a shaded band (an interval around
/// each point) drawn under it.
pub struct Series<'a> {
    /// Legend label.
    pub name: &'a str,
    /// (x, y) points.
    pub points: Vec<(f64, f64)>,
    /// (x, low, high) points of the band shaded under the line, in the line's colour; empty
    /// for none.
    pub band: Vec<(f64, f64, f64)>,
    /// (x, low, high) intervals drawn as error bars with a dot at each point, in the line's
    /// colour; empty for none.
    pub errors: Vec<(f64, f64, f64)>,
}

impl<'a> Series<'a> {
    /// A line with no band.
    pub fn new(name: &'a str, points: Vec<(f64, f64)>) -> Self {
        Self {
            name,
            points,
            band: Vec::new(),
            errors: Vec::new(),
        }
    }

    /// The line with `errors`, (x, low, high) intervals, drawn as error bars.
    #[must_use]
    pub fn with_errors(mut self, errors: Vec<(f64, f64, f64)>) -> Self {
        self.errors = errors;
        self
    }

    /// The line with `band`, (x, low, high) points, shaded under it.
    #[must_use]
    pub fn with_band(mut self, band: Vec<(f64, f64, f64)>) -> Self {
        self.band = band;
        self
    }
}

/// One point with its interval, for [`interval_chart`].
pub struct Estimate {
    /// Category label on the x axis.
    pub label: String,
    /// The estimate.
    pub value: f64,
    /// Its interval's lower end.
    pub low: f64,
    /// Its interval's upper end.
    pub high: f64,
}

/// The error of a drawing step on the file at `path`.
fn draw_error(path: &Path) -> impl Fn(String) -> Error + '_ {
    move |message| Error::Io {
        path: path.display().to_string(),
        message,
    }
}

/// Font size of the titles.
const TITLE_FONT: f64 = 20.0;

/// `title` in lines no wider than a picture `width` pixels wide, wrapped at break points
/// (left whole when it has none).
fn title_lines(title: &str, width: u32) -> Vec<String> {
    let budget = f64::from(width) - 24.0;
    text::wrap(title, TITLE_FONT, budget).unwrap_or_else(|| vec![title.to_string()])
}

/// Height of one line of a title, in pixels.
fn title_line() -> u32 {
    (text::LINE_EM * text::font_px(TITLE_FONT)).ceil() as u32
}

/// Draws the title `lines` ([`title_lines`]) centred at the top of `root`; returns the area
/// below them.
fn titled<'a>(
    root: &DrawingArea<SVGBackend<'a>, Shift>,
    lines: &[String],
    err: &dyn Fn(String) -> Error,
) -> Result<DrawingArea<SVGBackend<'a>, Shift>, Error> {
    let width = root.dim_in_pixel().0;
    let line = title_line() as i32;
    let style = ("sans-serif", TITLE_FONT)
        .into_font()
        .color(&BLACK)
        .pos(Pos::new(HPos::Center, VPos::Top));
    for (k, l) in lines.iter().enumerate() {
        let at = (width as i32 / 2, 8 + line * k as i32);
        root.draw(&Text::new(l.as_str(), at, style.clone()))
            .map_err(|e| err(e.to_string()))?;
    }
    let height = 8 + line * lines.len() as i32;
    Ok(root.split_vertically(height).1)
}
