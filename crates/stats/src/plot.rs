//! SVG plots drawn with `plotters`: line charts (training metrics, rating curves, length
//! distributions) and point-with-interval charts (scores by variant or setup).

use std::path::Path;

use plotters::prelude::*;

use crate::Error;

/// One line of a chart: its name and points.
pub struct Series<'a> {
    /// Legend label.
    pub name: &'a str,
    /// (x, y) points.
    pub points: Vec<(f64, f64)>,
}

/// Draws a line chart into an SVG file.
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
    let err = |e: String| Error::Io {
        path: path.display().to_string(),
        message: e,
    };
    let points = series.iter().flat_map(|s| s.points.iter());
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for &(x, y) in points {
        if x.is_finite() && y.is_finite() {
            x0 = x0.min(x);
            x1 = x1.max(x);
            y0 = y0.min(y);
            y1 = y1.max(y);
        }
    }
    if x0 > x1 {
        (x0, x1, y0, y1) = (0.0, 1.0, 0.0, 1.0);
    }
    if x1 - x0 < 1e-9 {
        x1 = x0 + 1.0;
    }
    let pad = ((y1 - y0) * 0.05).max(1e-3);
    let root = SVGBackend::new(path, (720, 420)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(e.to_string()))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(x0..x1, (y0 - pad)..(y1 + pad))
        .map_err(|e| err(e.to_string()))?;
    chart
        .configure_mesh()
        .x_desc(x_label)
        .y_desc(y_label)
        .draw()
        .map_err(|e| err(e.to_string()))?;
    for (i, s) in series.iter().enumerate() {
        let color = Palette99::pick(i).to_rgba();
        chart
            .draw_series(LineSeries::new(
                s.points.iter().copied(),
                color.stroke_width(2),
            ))
            .map_err(|e| err(e.to_string()))?
            .label(s.name)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], color));
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(|e| err(e.to_string()))?;
    root.present().map_err(|e| err(e.to_string()))
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

/// Draws estimates with their intervals, one per category, into an SVG file, with a dashed
/// horizontal line at `reference` (e.g. an even score).
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
    let err = |e: String| Error::Io {
        path: path.display().to_string(),
        message: e,
    };
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
    let n = estimates.len().max(1);
    let width = (160 + 48 * n).clamp(480, 1600) as u32;
    let root = SVGBackend::new(path, (width, 420)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(e.to_string()))?;
    let labels: Vec<String> = estimates.iter().map(|e| e.label.clone()).collect();
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(if n > 8 { 90 } else { 40 })
        .y_label_area_size(60)
        .build_cartesian_2d(-0.5..(n as f64 - 0.5), (y0 - pad)..(y1 + pad))
        .map_err(|e| err(e.to_string()))?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(n)
        .x_label_formatter(&|x| {
            let i = x.round();
            if (x - i).abs() < 1e-6 && i >= 0.0 {
                labels.get(i as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        })
        .x_label_style(("sans-serif", 12).into_font().transform(if n > 8 {
            FontTransform::Rotate90
        } else {
            FontTransform::None
        }))
        .y_desc(y_label)
        .draw()
        .map_err(|e| err(e.to_string()))?;
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
    let color = Palette99::pick(0).to_rgba();
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
