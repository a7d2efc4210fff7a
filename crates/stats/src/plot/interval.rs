//! Point-with-interval charts, one point a category, the category labels laid out so that no
//! two overlap.

use std::path::Path;

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::palette::series_colour;
use super::text::{LINE_EM, font_px, integral, text_width, tick_count, tick_label, wrap};
use super::{Estimate, TITLE_FONT, draw_error, title_line, title_lines, titled};
use crate::Error;

/// Width the chart may grow to before its labels wrap or turn, and its least width, in pixels.
const WIDTH: (f64, f64) = (480.0, 1600.0);
/// Width the chart may grow to for its title to fit on one line, in pixels.
const TITLE_WIDTH: f64 = 960.0;
/// Horizontal room outside the plotting area: the margins and the y axis's labels.
const FRAME: f64 = 12.0 + 60.0 + 12.0;
/// Height of the chart above its category labels.
const HEIGHT: u32 = 380;
/// Font size of the category labels.
const LABEL_FONT: f64 = 13.0;
/// Least room between two neighbouring labels, and least room a category, in pixels.
const GAP: f64 = 12.0;
const MIN_SLOT: f64 = 48.0;
/// Most lines a wrapped label may take before the labels turn instead.
const MAX_LINES: usize = 4;
/// Room between the x axis and the labels' first line.
const LABEL_OFFSET: i32 = 9;

/// How the category labels are laid out.
#[derive(Debug, PartialEq)]
pub(super) enum Layout {
    /// Horizontal, centred under the category, in one or more lines each.
    Lines(Vec<Vec<String>>),
    /// Turned a quarter clockwise, one line each, reading down from under the category.
    Turned,
}

/// The category labels' layout, the room a category takes on the x axis and the height of
/// the label area, in pixels.
pub(super) fn layout(labels: &[String]) -> (Layout, f64, f64) {
    let n = labels.len().max(1) as f64;
    let line = LINE_EM * font_px(LABEL_FONT);
    let widest = |lines: &mut dyn Iterator<Item = &String>| {
        lines.map(|l| text_width(l, LABEL_FONT)).fold(0.0, f64::max)
    };
    // The room a category has in the widest chart, and the room it takes: what its label
    // needs, or more up to MIN_SLOT.
    let room = (WIDTH.1 - FRAME) / n;
    let slot = |need: f64| need.max(MIN_SLOT.min(room));
    // 1. One line each, the chart widened as far as it may.
    let need = widest(&mut labels.iter()) + GAP;
    if need <= room {
        let lines = labels.iter().map(|l| vec![l.clone()]).collect();
        return (Layout::Lines(lines), slot(need), line + 2.0 * GAP);
    }
    // 2. Wrapped at break points into the room the widest chart leaves a category.
    let budget = room - GAP;
    let wrapped: Option<Vec<Vec<String>>> =
        labels.iter().map(|l| wrap(l, LABEL_FONT, budget)).collect();
    if let Some(wrapped) = wrapped {
        let most = wrapped.iter().map(Vec::len).max().unwrap_or(1);
        if most <= MAX_LINES {
            let need = widest(&mut wrapped.iter().flatten()) + GAP;
            return (
                Layout::Lines(wrapped),
                slot(need),
                most as f64 * line + 2.0 * GAP,
            );
        }
    }
    // 3. Turned: a category takes a line's height.
    let slot = line + GAP;
    (Layout::Turned, slot, widest(&mut labels.iter()) + 2.0 * GAP)
}

/// Draws estimates with their intervals, one per category, into an SVG file, with a dashed
/// horizontal line at `reference` (e.g. an even score). The chart widens with the number of
/// categories and the width of their labels; labels too wide for the widest chart wrap, or
/// else turn a quarter.
///
/// # Errors
/// [`Error::Io`] when the file cannot be drawn.
pub fn interval_chart(
    path: &Path,
    title: &str,
    y_label: &str,
    estimates: &[Estimate],
    reference: Option<f64>,
) -> Result<(), Error> {
    let err = draw_error(path);
    let mut y0 = estimates.iter().map(|e| e.low).fold(f64::MAX, f64::min);
    let mut y1 = estimates.iter().map(|e| e.high).fold(f64::MIN, f64::max);
    if let Some(r) = reference {
        y0 = y0.min(r);
        y1 = y1.max(r);
    }
    if !(y0.is_finite() && y1.is_finite()) || y0 >= y1 {
        (y0, y1) = (0.0, 1.0);
    }
    let pad = (y1 - y0) * 0.08;
    let (y0, y1) = (y0 - pad, y1 + pad);
    let y_int = integral(estimates.iter().flat_map(|e| [e.low, e.value, e.high]));
    let n = estimates.len().max(1);
    let labels: Vec<String> = estimates.iter().map(|e| e.label.clone()).collect();
    let (layout, slot, area) = layout(&labels);
    // As wide as the categories need, or as the title on one line up to TITLE_WIDTH.
    let title_width = (text_width(title, TITLE_FONT) + 24.0).min(TITLE_WIDTH);
    let width = (FRAME + n as f64 * slot)
        .max(WIDTH.0)
        .max(title_width)
        .ceil() as u32;
    let area = area.ceil() as u32;
    let title = title_lines(title, width);
    let height = HEIGHT + area + (title.len() as u32 - 1) * title_line();
    let root = SVGBackend::new(path, (width, height)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(e.to_string()))?;
    let below = titled(&root, &title, &err)?;
    let mut chart = ChartBuilder::on(&below)
        .margin(12)
        .x_label_area_size(area)
        .y_label_area_size(60)
        .build_cartesian_2d(-0.5..(n as f64 - 0.5), y0..y1)
        .map_err(|e| err(e.to_string()))?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(0)
        .y_labels(tick_count(y_int, y0, y1, 10))
        .y_label_formatter(&|v| tick_label(y_int, *v))
        .y_desc(y_label)
        .draw()
        .map_err(|e| err(e.to_string()))?;
    // The category labels under their ticks.
    let line = (LINE_EM * font_px(LABEL_FONT)).round() as i32;
    let font = ("sans-serif", LABEL_FONT).into_font().color(&BLACK);
    for (i, label) in labels.iter().enumerate() {
        let (x, y) = chart.backend_coord(&(i as f64, y0));
        root.draw(&PathElement::new(vec![(x, y), (x, y + 5)], BLACK))
            .map_err(|e| err(e.to_string()))?;
        let top = y + LABEL_OFFSET;
        match &layout {
            Layout::Lines(lines) => {
                let style = font.pos(Pos::new(HPos::Center, VPos::Top));
                for (k, text) in lines[i].iter().enumerate() {
                    let at = (x, top + line * k as i32);
                    root.draw(&Text::new(text.as_str(), at, style.clone()))
                        .map_err(|e| err(e.to_string()))?;
                }
            }
            Layout::Turned => {
                let style = font
                    .pos(Pos::new(HPos::Left, VPos::Center))
                    .transform(FontTransform::Rotate90);
                root.draw(&Text::new(label.as_str(), (x, top), style))
                    .map_err(|e| err(e.to_string()))?;
            }
        }
    }
    if let Some(r) = reference {
        chart
            .draw_series(DashedLineSeries::new(
                [(-0.5, r), (n as f64 - 0.5, r)],
                6,
                4,
                BLACK.mix(0.5).stroke_width(1),
            ))
            .map_err(|e| err(e.to_string()))?;
    }
    let color = series_colour(0).to_rgba();
    chart
        .draw_series(estimates.iter().enumerate().map(|(i, e)| {
            ErrorBar::new_vertical(i as f64, e.low, e.value, e.high, color.stroke_width(2), 10)
        }))
        .map_err(|e| err(e.to_string()))?;
    chart
        .draw_series(
            estimates
                .iter()
                .enumerate()
                .map(|(i, e)| Circle::new((i as f64, e.value), 4, color.filled())),
        )
        .map_err(|e| err(e.to_string()))?;
    root.present().map_err(|e| err(e.to_string()))
}
