//! Lines, bands, error bars and the legend: a band is one shaded polygon around its line, the
//! legend keeps off the curves, error bars at the edges are whole, colours follow the palette,
//! categories are evenly spaced.

use super::axes::x_ticks;
use super::*;
use crate::plot::palette::SERIES_COLOURS;
use crate::plot::{Series, category_line_chart, line_chart};

/// The points of every polyline of `svg` with at least three (the series' lines, not the
/// legend's samples or the axes).
fn lines(svg: &str) -> Vec<Vec<(f64, f64)>> {
    tags(svg, "polyline")
        .into_iter()
        .map(|t| points(attr(t, "points").unwrap()))
        .filter(|p| p.len() >= 3)
        .collect()
}

fn points(list: &str) -> Vec<(f64, f64)> {
    list.split_whitespace()
        .map(|p| {
            let (x, y) = p.split_once(',').unwrap();
            (num(x), num(y))
        })
        .collect()
}

#[test]
fn a_band_is_one_shaded_polygon_around_its_line() {
    let xs = 1..=30;
    let score: Vec<(f64, f64)> = xs
        .clone()
        .map(|i| (f64::from(i), 0.2 + 0.015 * f64::from(i)))
        .collect();
    let band: Vec<(f64, f64, f64)> = score.iter().map(|&(x, y)| (x, y - 0.08, y + 0.1)).collect();
    let other: Vec<(f64, f64)> = xs.map(|i| (f64::from(i), 0.7)).collect();
    let path = temp_svg("band");
    line_chart(
        &path,
        "Strength",
        "iteration",
        "score (0..1)",
        &[
            Series::new("score", score).with_band(band.clone()),
            Series::new("value accuracy", other),
        ],
    )
    .unwrap();
    let svg = read(&path);
    let polygons = tags(&svg, "polygon");
    assert_eq!(polygons.len(), 1, "one shaded band");
    let outline = points(attr(polygons[0], "points").unwrap());
    assert_eq!(outline.len(), 2 * band.len());
    assert!(num(attr(polygons[0], "opacity").unwrap()) < 1.0, "shaded");
    // Every point of the band's line has the band's edges above and below it.
    let line = &lines(&svg)[0];
    assert_eq!(line.len(), band.len());
    for &(x, y) in line {
        let at: Vec<f64> = outline
            .iter()
            .filter(|p| (p.0 - x).abs() <= 1.0)
            .map(|p| p.1)
            .collect();
        assert_eq!(at.len(), 2, "band edges at x {x}");
        let (top, bottom) = (at[0].min(at[1]), at[0].max(at[1]));
        assert!(top < y && y < bottom, "line at {y} outside {top}..{bottom}");
    }
    let texts: Vec<String> = labels(&svg).into_iter().map(|l| l.text).collect();
    assert!(!texts.iter().any(|t| t.contains("95%")), "{texts:?}");
    for name in ["score", "value accuracy"] {
        assert_eq!(texts.iter().filter(|t| *t == name).count(), 1, "{name}");
    }
}

#[test]
fn the_legend_keeps_off_every_series() {
    // Lines through every corner of the plotting area.
    let up: Vec<(f64, f64)> = (0..=50).map(|i| (f64::from(i), f64::from(i))).collect();
    let down: Vec<(f64, f64)> = (0..=50)
        .map(|i| (f64::from(i), f64::from(50 - i)))
        .collect();
    let flat_high: Vec<(f64, f64)> = (0..=50).map(|i| (f64::from(i), 50.0)).collect();
    let flat_low: Vec<(f64, f64)> = (0..=50).map(|i| (f64::from(i), 0.0)).collect();
    let middle: Vec<(f64, f64)> = (0..=50).map(|i| (f64::from(i), 25.0)).collect();
    let names = [
        "a rising line",
        "a falling line",
        "the top",
        "the bottom with a long name",
        "alphabeta:eval=nnue:experiments/nnue-first/nets/all-32r-es.json,time=100ms",
    ];
    let series: Vec<Series<'_>> = [up, down, flat_high, flat_low, middle]
        .into_iter()
        .zip(names)
        .map(|(p, n)| Series::new(n, p))
        .collect();
    let path = temp_svg("legend");
    let title = "Ratings of alphabeta:eval=nnue:experiments/nnue-first/nets/all-32r-es.json,\
                 time=100ms and alphabeta:time=100ms as games accumulate";
    line_chart(&path, title, "games", "Elo", &series).unwrap();
    let svg = read(&path);
    assert_text_apart(&svg, "legend");
    // The legend's text: every piece of a name (names may wrap), no tick label.
    let legend: Vec<Label> = labels(&svg)
        .into_iter()
        .filter(|l| l.text.parse::<f64>().is_err() && names.iter().any(|n| n.contains(&l.text)))
        .collect();
    let written: String = legend.iter().map(|l| l.text.replace(' ', "")).collect();
    for name in names {
        assert!(written.contains(&name.replace(' ', "")), "{name} missing");
    }
    let drawn = lines(&svg);
    assert_eq!(drawn.len(), names.len());
    for entry in &legend {
        let (l, t, r, b) = entry.bounds;
        for &(x, y) in drawn.iter().flatten() {
            assert!(
                x < l,
                "{} at x {l}..{r}, y {t}..{b}: a line at {x}",
                entry.text
            );
            assert!(!(t..=b).contains(&y) || x < l, "{}", entry.text);
        }
    }
}

#[test]
fn error_bars_at_the_edges_are_drawn_whole() {
    // Three points with error bars, the first and last at the ends of the x range.
    let data = vec![(0.0, 10.0), (1.5, 30.0), (4.0, -20.0)];
    let errors: Vec<(f64, f64, f64)> = data.iter().map(|&(x, y)| (x, y - 15.0, y + 15.0)).collect();
    let path = temp_svg("error-bars");
    line_chart(
        &path,
        "t",
        "CPU-hours",
        "Elo",
        &[Series::new("s", data.clone()).with_errors(errors)],
    )
    .unwrap();
    let svg = read(&path);
    // The caps: short two-point horizontal segments in the series' colour, two a bar.
    let colour = attr(tags(&svg, "polyline")[0], "stroke")
        .unwrap()
        .to_string();
    let series_colour = tags(&svg, "circle")
        .into_iter()
        .map(|c| attr(c, "fill").unwrap())
        .next()
        .unwrap()
        .to_string();
    assert_ne!(colour, series_colour, "the first polyline is an axis");
    let caps: Vec<Vec<(f64, f64)>> = tags(&svg, "polyline")
        .into_iter()
        .filter(|t| attr(t, "stroke") == Some(series_colour.as_str()))
        .map(|t| points(attr(t, "points").unwrap()))
        .filter(|p| p.len() == 2 && p[0].1 == p[1].1 && p[0].0 != p[1].0)
        .filter(|p| (p[1].0 - p[0].0).abs() < 20.0) // not the legend's 24-pixel sample
        .collect();
    assert_eq!(caps.len(), 2 * data.len(), "{caps:?}");
    let width = |c: &Vec<(f64, f64)>| (c[1].0 - c[0].0).abs();
    for c in &caps {
        assert!(
            (width(c) - width(&caps[2])).abs() <= 1.0,
            "a cut cap: {caps:?}"
        );
    }
    // Each dot (the legend's aside) lies whole inside the x axis's ends.
    let axis = tags(&svg, "polyline")
        .into_iter()
        .map(|t| points(attr(t, "points").unwrap()))
        .find(|p| p.len() == 2 && p[0].1 == p[1].1 && (p[0].0 - p[1].0).abs() > 100.0)
        .unwrap();
    let (left, right) = (axis[0].0.min(axis[1].0), axis[0].0.max(axis[1].0));
    let dots: Vec<(f64, f64)> = tags(&svg, "circle")
        .into_iter()
        .map(|c| (num(attr(c, "cx").unwrap()), num(attr(c, "r").unwrap())))
        .collect();
    assert_eq!(dots.len(), data.len() + 1, "a dot a point and the legend's");
    let legend = dots.iter().map(|d| d.0).fold(f64::MIN, f64::max);
    for &(cx, r) in dots.iter().filter(|d| d.0 < legend) {
        assert!(
            left < cx - r && cx + r < right,
            "a dot at {cx} outside {left}..{right}"
        );
    }
}

#[test]
fn series_take_the_palette_colours_in_order() {
    let series: Vec<Series<'_>> = (0..13)
        .map(|i| {
            let points = (0..5)
                .map(|x| (f64::from(x), f64::from(i * 10 + x)))
                .collect();
            Series::new("a series", points)
        })
        .collect();
    let path = temp_svg("colours");
    line_chart(&path, "Colours", "x", "y", &series).unwrap();
    let svg = read(&path);
    let strokes: Vec<String> = tags(&svg, "polyline")
        .into_iter()
        .filter(|t| points(attr(t, "points").unwrap()).len() >= 3)
        .map(|t| attr(t, "stroke").unwrap().to_ascii_uppercase())
        .collect();
    let expected: Vec<String> = (0..13)
        .map(|i| {
            let c = SERIES_COLOURS[i % SERIES_COLOURS.len()];
            format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
        })
        .collect();
    assert_eq!(strokes, expected);
}

#[test]
fn categories_are_evenly_spaced_under_their_points() {
    // Levels whose Elo crowd at one end: on a category axis each gets the same room, its name
    // (two lines) centred under its points, and no x tick of plotters' own.
    let names: Vec<String> = [
        "ab1\nElo -333",
        "ab2\nElo -135",
        "ab3\nElo +37",
        "top\nElo +222",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    // No points at the last level: its room comes from the categories, not from the data.
    let series = [
        Series::new("a", vec![(0.0, 52.0), (1.0, 54.0), (2.0, 51.0)]),
        Series::new("b", vec![(0.0, 49.0), (1.0, 50.5), (2.0, 55.0)]),
    ];
    let path = temp_svg("categories");
    category_line_chart(&path, "By level", &names, "level", "score %", &series).unwrap();
    let svg = read(&path);
    assert_text_apart(&svg, "categories");
    // (x_ticks finds the longest row of numbers on one baseline: a lone y tick at most.)
    assert!(x_ticks(&svg).len() <= 1, "{:?}", x_ticks(&svg));
    let all = labels(&svg);
    let find = |text: &str| {
        let found: Vec<&Label> = all.iter().filter(|l| l.text == text).collect();
        assert_eq!(found.len(), 1, "{text}: {found:?}");
        found[0]
    };
    let mut xs = Vec::new();
    for name in &names {
        let (top, bottom) = name.split_once('\n').unwrap();
        let (a, b) = (find(top), find(bottom));
        assert!((a.x - b.x).abs() < 0.5, "{a:?} {b:?}");
        assert!(b.y > a.y, "{a:?} above {b:?}");
        xs.push(a.x);
    }
    let steps: Vec<f64> = xs.windows(2).map(|w| w[1] - w[0]).collect();
    assert!(steps[0] > 50.0, "{xs:?}");
    for s in &steps {
        assert!((s - steps[0]).abs() <= 1.0, "uneven {xs:?}");
    }
    // Half a step between the last name and the plotting area's right edge (where the
    // horizontal grid lines end; the legend's line samples are shorter).
    let right = tags(&svg, "polyline")
        .into_iter()
        .map(|t| points(attr(t, "points").unwrap()))
        .filter(|p| p.len() == 2 && p[0].1 == p[1].1 && (p[0].0 - p[1].0).abs() > 100.0)
        .map(|p| p[0].0.max(p[1].0))
        .fold(f64::MIN, f64::max);
    let gap = right - xs[3];
    assert!(
        (gap - steps[0] / 2.0).abs() <= 2.0,
        "{gap} against {steps:?}"
    );
    // Each line's points stand over the names.
    let drawn = lines(&svg);
    assert_eq!(drawn.len(), 2, "{drawn:?}");
    for line in &drawn {
        for (p, x) in line.iter().zip(&xs) {
            assert!((p.0 - x).abs() < 1.0, "{line:?} against {xs:?}");
        }
    }
}
