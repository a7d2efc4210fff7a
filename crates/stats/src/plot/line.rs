//! Line charts, each line with an optional shaded band, the legend beside the plotting area.

use std::path::Path;

use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::palette::series_colour;
use super::text::{LINE_EM, font_px, integral, text_width, tick_count, tick_label, wrap};
use super::{Series, draw_error, title_line, title_lines, titled};
use crate::Error;

/// Width of the chart without its legend, and height, in pixels.
const PLOT_SIZE: (u32, u32) = (680, 420);
/// Font size of the legend's entries.
const LEGEND_FONT: f64 = 13.0;
/// Widest a legend entry's name may be before it wraps, in pixels.
const LEGEND_TEXT: f64 = 260.0;
/// Length of a legend entry's line sample, in pixels.
const SWATCH: i32 = 24;
/// Padding inside the legend's frame, in pixels.
const PAD: i32 = 8;
/// Share of the x range added on each side of a chart with error bars.
const X_PAD: f64 = 0.03;

/// Draws a line chart into an SVG file: each series a line in its own colour, over the band
/// its [`Series::band`] shades (an interval), with a legend to the right of the plotting area
/// (names wider than 260 pixels wrapped at break points).
/// An axis whose finite values are all integers gets integer ticks. A chart with error bars
/// has 3% of its x range added on each side, so the first and last bars are drawn whole.
///
/// # Errors
/// [`Error::Io`] when the file cannot be drawn.
pub fn line_chart(
    path: &Path,
    title: &str,
    x_label: &str,
    y_label: &str,
    series: &[Series<'_>],
) -> Result<(), Error> {
    draw(path, title, None, x_label, y_label, series)
}

/// Draws a line chart, as [`line_chart`] does, whose x axis holds `categories` evenly spaced:
/// category `k` at x = `k` (a series' points may sit a little either side of it, apart from
/// the others'), its name centred under it, in lines split at `\n`, with a light vertical line
/// through it. The x range runs half a category past the first and the last. The names are
/// neither wrapped nor turned: the caller keeps each line short enough for its share of the
/// 600-pixel plotting area. No categories draws the chart as [`line_chart`] does.
///
/// # Errors
/// [`Error::Io`] when the file cannot be drawn.
pub fn category_line_chart(
    path: &Path,
    title: &str,
    categories: &[String],
    x_label: &str,
    y_label: &str,
    series: &[Series<'_>],
) -> Result<(), Error> {
    draw(path, title, Some(categories), x_label, y_label, series)
}

/// Font size of the category labels under the x axis.
const CATEGORY_FONT: f64 = 12.0;

fn draw(
    path: &Path,
    title: &str,
    categories: Option<&[String]>,
    x_label: &str,
    y_label: &str,
    series: &[Series<'_>],
) -> Result<(), Error> {
    // No categories: an axis of values.
    let categories = categories.filter(|c| !c.is_empty());
    let err = draw_error(path);
    let xs = || {
        series.iter().flat_map(|s| {
            let line = s.points.iter().map(|p| p.0);
            line.chain(s.band.iter().map(|b| b.0))
        })
    };
    let ys = || {
        series.iter().flat_map(|s| {
            let line = s.points.iter().map(|p| p.1);
            let bars = s.errors.iter().flat_map(|b| [b.1, b.2]);
            line.chain(s.band.iter().flat_map(|b| [b.1, b.2]))
                .chain(bars)
        })
    };
    let (mut x0, mut x1) = range(xs());
    let (mut y0, mut y1) = range(ys());
    if x0 > x1 || y0 > y1 {
        (x0, x1, y0, y1) = (0.0, 1.0, 0.0, 1.0);
    }
    if x1 - x0 < 1e-9 {
        x1 = x0 + 1.0;
    }
    let (x_int, y_int) = (integral(xs()), integral(ys()));
    let pad = ((y1 - y0) * 0.05).max(1e-3);
    let (y0, y1) = (y0 - pad, y1 + pad);
    // Error bars at the first and last x keep their caps and dots inside the plotting area.
    let has_errors = series.iter().any(|s| !s.errors.is_empty());
    let x_pad = if has_errors { (x1 - x0) * X_PAD } else { 0.0 };
    let (x0, x1) = match categories {
        Some(c) => (-0.5, c.len() as f64 - 0.5),
        None => (x0 - x_pad, x1 + x_pad),
    };
    // A category's name may take several lines: the label area grows by the extra ones.
    let category_line = (LINE_EM * font_px(CATEGORY_FONT)).ceil() as i32;
    let category_lines = categories
        .into_iter()
        .flatten()
        .map(|c| c.lines().count().max(1) as i32)
        .max()
        .unwrap_or(1);
    let x_label_area = 40 + (category_lines - 1) * category_line;
    let (entries, legend_width) = legend_entries(series);
    let width = PLOT_SIZE.0 + legend_width as u32;
    let title = title_lines(title, width);
    let height = PLOT_SIZE.1 + (title.len() as u32 - 1) * title_line();
    let root = SVGBackend::new(path, (width, height)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(e.to_string()))?;
    let below = titled(&root, &title, &err)?;
    let (plot_area, _) = below.split_horizontally(PLOT_SIZE.0);
    let mut chart = ChartBuilder::on(&plot_area)
        .margin(12)
        .x_label_area_size(x_label_area)
        .y_label_area_size(60)
        .build_cartesian_2d(x0..x1, y0..y1)
        .map_err(|e| err(e.to_string()))?;
    chart
        .configure_mesh()
        .x_labels(match categories {
            Some(_) => 0,
            None => tick_count(x_int, x0, x1, 10),
        })
        .y_labels(tick_count(y_int, y0, y1, 10))
        .x_label_formatter(&|v| tick_label(x_int, *v))
        .y_label_formatter(&|v| tick_label(y_int, *v))
        .x_desc(x_label)
        .y_desc(y_label)
        .draw()
        .map_err(|e| err(e.to_string()))?;
    if let Some(categories) = categories {
        draw_categories(&root, &mut chart, categories, (y0, y1), category_line, &err)?;
    }
    draw_marks(&mut chart, series, x1 - x0, &err)?;
    if series.is_empty() {
        return root.present().map_err(|e| err(e.to_string()));
    }
    let top = chart.plotting_area().get_pixel_range().1.start;
    draw_legend(&root, top, legend_width, series, &entries, &err)?;
    root.present().map_err(|e| err(e.to_string()))
}

/// A chart's plotting area on values.
type Chart<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// The legend's entries, names wider than LEGEND_TEXT wrapped at break points, and the
/// legend's width in pixels (0 without series).
fn legend_entries(series: &[Series<'_>]) -> (Vec<Vec<String>>, i32) {
    let entries: Vec<Vec<String>> = series
        .iter()
        .map(|s| {
            if text_width(s.name, LEGEND_FONT) <= LEGEND_TEXT {
                return vec![s.name.to_string()];
            }
            wrap(s.name, LEGEND_FONT, LEGEND_TEXT).unwrap_or_else(|| vec![s.name.to_string()])
        })
        .collect();
    let legend_width = entries
        .iter()
        .flatten()
        .map(|l| text_width(l, LEGEND_FONT))
        .fold(0.0, f64::max)
        .ceil() as i32
        + SWATCH
        + 3 * PAD
        + 8;
    let legend_width = if series.is_empty() { 0 } else { legend_width };
    (entries, legend_width)
}

/// The categories: a light line through each, its name under the axis.
fn draw_categories(
    root: &DrawingArea<SVGBackend<'_>, Shift>,
    chart: &mut Chart<'_, '_>,
    categories: &[String],
    (y0, y1): (f64, f64),
    category_line: i32,
    err: &dyn Fn(String) -> Error,
) -> Result<(), Error> {
    // 0. The categories: a light line through each, its name under the axis.
    let font = ("sans-serif", CATEGORY_FONT)
        .into_font()
        .color(&BLACK)
        .pos(Pos::new(HPos::Center, VPos::Top));
    for (k, name) in categories.iter().enumerate() {
        let x = k as f64;
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(x, y0), (x, y1)],
                BLACK.mix(0.1).stroke_width(1),
            )))
            .map_err(|e| err(e.to_string()))?;
        let (px, py) = chart.backend_coord(&(x, y0));
        root.draw(&PathElement::new(
            vec![(px, py), (px, py + 5)],
            BLACK.stroke_width(1),
        ))
        .map_err(|e| err(e.to_string()))?;
        for (j, text) in name.lines().enumerate() {
            let at = (px, py + 8 + j as i32 * category_line);
            root.draw(&Text::new(text, at, font.clone()))
                .map_err(|e| err(e.to_string()))?;
        }
    }
    Ok(())
}

/// The series: the bands under every line, the lines, then the error bars (a vertical bar
/// with caps from low to high, a dot at the point; the caps a share of the x range's
/// `x_span`).
fn draw_marks(
    chart: &mut Chart<'_, '_>,
    series: &[Series<'_>],
    x_span: f64,
    err: &dyn Fn(String) -> Error,
) -> Result<(), Error> {
    // 1. The bands, all under every line.
    for (i, s) in series.iter().enumerate() {
        let band: Vec<&(f64, f64, f64)> = s
            .band
            .iter()
            .filter(|b| b.0.is_finite() && b.1.is_finite() && b.2.is_finite())
            .collect();
        if band.is_empty() {
            continue;
        }
        let outline: Vec<(f64, f64)> = band
            .iter()
            .map(|b| (b.0, b.2))
            .chain(band.iter().rev().map(|b| (b.0, b.1)))
            .collect();
        let color = series_colour(i).to_rgba();
        chart
            .draw_series(std::iter::once(Polygon::new(
                outline,
                color.mix(0.2).filled(),
            )))
            .map_err(|e| err(e.to_string()))?;
    }
    // 2. The lines.
    for (i, s) in series.iter().enumerate() {
        let color = series_colour(i).to_rgba();
        chart
            .draw_series(LineSeries::new(
                s.points.iter().copied(),
                color.stroke_width(2),
            ))
            .map_err(|e| err(e.to_string()))?;
    }
    // 2b. The error bars: a vertical bar with caps from low to high, a dot at the point.
    let cap = x_span * 0.006;
    for (i, s) in series.iter().enumerate() {
        let color = series_colour(i).to_rgba();
        for &(x, low, high) in s.errors.iter().filter(|b| b.0.is_finite()) {
            for segment in [
                vec![(x, low), (x, high)],
                vec![(x - cap, low), (x + cap, low)],
                vec![(x - cap, high), (x + cap, high)],
            ] {
                chart
                    .draw_series(std::iter::once(PathElement::new(
                        segment,
                        color.stroke_width(1),
                    )))
                    .map_err(|e| err(e.to_string()))?;
            }
        }
        if !s.errors.is_empty() {
            chart
                .draw_series(s.points.iter().map(|&p| Circle::new(p, 3, color.filled())))
                .map_err(|e| err(e.to_string()))?;
        }
    }
    Ok(())
}

/// The legend, right of the plotting area from pixel row `top`: a frame, and an entry a
/// series (its line sample over its band's shade, then its name).
fn draw_legend(
    root: &DrawingArea<SVGBackend<'_>, Shift>,
    top: i32,
    legend_width: i32,
    series: &[Series<'_>],
    entries: &[Vec<String>],
    err: &dyn Fn(String) -> Error,
) -> Result<(), Error> {
    // 3. The legend, right of the plotting area: a frame, and an entry a series (its line
    // sample over its band's shade, then its name).
    let left = PLOT_SIZE.0 as i32;
    let line = (LINE_EM * font_px(LEGEND_FONT)).ceil() as i32;
    let lines: usize = entries.iter().map(Vec::len).sum();
    let bottom = top + 2 * PAD + line * lines as i32 + 6 * (entries.len() as i32 - 1);
    root.draw(&Rectangle::new(
        [(left, top), (left + legend_width - 8, bottom)],
        BLACK.stroke_width(1),
    ))
    .map_err(|e| err(e.to_string()))?;
    let font = ("sans-serif", LEGEND_FONT)
        .into_font()
        .color(&BLACK)
        .pos(Pos::new(HPos::Left, VPos::Center));
    let mut y = top + PAD + line / 2;
    for (i, (s, entry)) in series.iter().zip(entries).enumerate() {
        let color = series_colour(i).to_rgba();
        let x = left + PAD;
        if !s.band.is_empty() {
            root.draw(&Rectangle::new(
                [(x, y - 5), (x + SWATCH, y + 5)],
                color.mix(0.2).filled(),
            ))
            .map_err(|e| err(e.to_string()))?;
        }
        root.draw(&PathElement::new(
            vec![(x, y), (x + SWATCH, y)],
            color.stroke_width(2),
        ))
        .map_err(|e| err(e.to_string()))?;
        if !s.errors.is_empty() {
            root.draw(&Circle::new((x + SWATCH / 2, y), 3, color.filled()))
                .map_err(|e| err(e.to_string()))?;
        }
        for text in entry {
            root.draw(&Text::new(
                text.as_str(),
                (x + SWATCH + PAD, y),
                font.clone(),
            ))
            .map_err(|e| err(e.to_string()))?;
            y += line;
        }
        y += 6;
    }
    Ok(())
}

/// The smallest and largest finite value; (`f64::MAX`, `f64::MIN`) when there is none.
fn range(values: impl Iterator<Item = f64>) -> (f64, f64) {
    values
        .filter(|v| v.is_finite())
        .fold((f64::MAX, f64::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)))
}
