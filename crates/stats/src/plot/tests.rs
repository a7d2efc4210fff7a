//! The charts read back from their SVG text: no two pieces of text overlap, integer axes print
//! integers, a band is one shaded polygon around its line, the legend keeps off the curves.
//! Text widths here are this file's own conservative estimate (1 em for capitals and the wide
//! `m` and `w`, 0.7 em for any other character, 1 em high), not the layout code's.

use std::path::PathBuf;

use super::palette::SERIES_COLOURS;
use super::text::{tick_label, wrap};
use super::{Estimate, Series, category_line_chart, interval_chart, line_chart};

/// A fresh file path under the system's temporary directory.
fn temp_svg(name: &str) -> PathBuf {
    let file = format!("pjlab-stats-plot-{}-{name}.svg", std::process::id());
    std::env::temp_dir().join(file)
}

/// The text of the SVG file at `path`, which it removes.
fn read(path: &std::path::Path) -> String {
    let svg = std::fs::read_to_string(path).unwrap();
    std::fs::remove_file(path).unwrap();
    svg
}

/// The value of attribute `name` in the tag text `tag`.
fn attr<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let start = tag.find(&key)? + key.len();
    Some(&tag[start..start + tag[start..].find('"')?])
}

/// Every element `<name ...>` of `svg`: its opening tag's text.
fn tags<'a>(svg: &'a str, name: &str) -> Vec<&'a str> {
    let open = format!("<{name} ");
    svg.match_indices(&open)
        .map(|(i, _)| &svg[i..i + svg[i..].find('>').unwrap()])
        .collect()
}

/// A text element: its content and the box it takes (left, top, right, bottom).
#[derive(Debug)]
struct Label {
    text: String,
    x: f64,
    y: f64,
    bounds: (f64, f64, f64, f64),
}

fn num(s: &str) -> f64 {
    s.trim().parse().unwrap()
}

/// The text elements of `svg`, with conservative boxes (widths as the module says), 1 em high,
/// placed by their anchor and baseline shift and turned by their `rotate(..)`.
fn labels(svg: &str) -> Vec<Label> {
    let mut out = Vec::new();
    for (i, _) in svg.match_indices("<text ") {
        let rest = &svg[i..];
        let close = rest.find('>').unwrap();
        let tag = &rest[..close];
        let end = rest.find("</text>").unwrap();
        let text = rest[close + 1..end].trim().replace("&amp;", "&");
        let (x, y) = (num(attr(tag, "x").unwrap()), num(attr(tag, "y").unwrap()));
        let em = num(attr(tag, "font-size").unwrap());
        let w = em
            * text
                .chars()
                .map(|c| {
                    if c.is_uppercase() || "mw%@".contains(c) {
                        1.0
                    } else {
                        0.7
                    }
                })
                .sum::<f64>();
        // Offsets from (x, y) before any rotation.
        let (a0, a1) = match attr(tag, "text-anchor").unwrap() {
            "start" => (0.0, w),
            "end" => (-w, 0.0),
            _ => (-w / 2.0, w / 2.0),
        };
        let (b0, b1) = match attr(tag, "dy").unwrap_or("0") {
            "0.76em" => (0.0, em),
            "0.5ex" => (-em / 2.0, em / 2.0),
            _ => (-em, 0.0),
        };
        let turn = attr(tag, "transform")
            .map(|t| num(&t["rotate(".len()..t.find(',').unwrap()]))
            .unwrap_or(0.0);
        // rotate(90): (a, b) -> (-b, a); rotate(270): (a, b) -> (b, -a).
        let bounds = match turn as i32 {
            0 => (x + a0, y + b0, x + a1, y + b1),
            90 => (x - b1, y + a0, x - b0, y + a1),
            270 => (x + b0, y - a1, x + b1, y - a0),
            t => panic!("unexpected rotation {t}"),
        };
        out.push(Label { text, x, y, bounds });
    }
    out
}

fn size(svg: &str) -> (f64, f64) {
    let tag = tags(svg, "svg")[0];
    (
        num(attr(tag, "width").unwrap()),
        num(attr(tag, "height").unwrap()),
    )
}

/// Panics when two text boxes of `svg` intersect or one leaves the picture.
fn assert_text_apart(svg: &str, what: &str) {
    let all = labels(svg);
    let (width, height) = size(svg);
    for (i, a) in all.iter().enumerate() {
        let (l, t, r, b) = a.bounds;
        assert!(
            l >= 0.0 && t >= 0.0 && r <= width && b <= height,
            "{what}: {a:?} leaves the {width}x{height} picture"
        );
        for c in &all[i + 1..] {
            let (l2, t2, r2, b2) = c.bounds;
            let apart = r <= l2 || r2 <= l || b <= t2 || b2 <= t;
            assert!(apart, "{what}: {a:?} overlaps {c:?}");
        }
    }
}

fn estimates(labels: &[String]) -> Vec<Estimate> {
    labels
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let v = 0.4 + 0.02 * (i % 10) as f64;
            Estimate {
                label: l.clone(),
                value: v,
                low: v - 0.07,
                high: v + 0.07,
            }
        })
        .collect()
}

#[test]
fn category_labels_never_overlap() {
    let strings = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let cases: Vec<(&str, Vec<String>)> = vec![
        (
            "variants",
            strings(&[
                "classic",
                "full-random",
                "half-random",
                "pijersi-24",
                "pijersi-36",
                "pijersi-1296",
                "pijersi-8100",
            ]),
        ),
        ("setups", (0..36).map(|i| i.to_string()).collect()),
        (
            "players",
            strings(&[
                "random",
                "focused:F",
                "counter-reset",
                "observer",
                "ismcts:sims=100",
                "net:checkpoint=experiments/chifoumi-learned/final",
                "lurker",
                "greedy",
                "avoider",
                "counter",
                "focused:P",
                "focused:C",
            ]),
        ),
        (
            "unbreakable",
            (0..40).map(|i| format!("WWWWWWWWWWWWWWWWWWW{i}")).collect(),
        ),
        ("one", strings(&["alphabeta:depth=3,eval=material"])),
    ];
    for (name, labels_in) in cases {
        let path = temp_svg(&format!("labels-{name}"));
        let title = if name == "one" {
            "alphabeta:eval=nnue:experiments/strength-curve/checkpoints/iter-0200,time=100ms \
             score by variant, with a title longer than the widest chart (95% Wilson)"
        } else {
            "Scores"
        };
        interval_chart(&path, title, "score", &estimates(&labels_in), Some(0.5)).unwrap();
        let svg = read(&path);
        assert_text_apart(&svg, name);
        if name != "unbreakable" {
            assert!(size(&svg).0 <= 1600.0, "{name}: {} wide", size(&svg).0);
        }
        // Every label is written whole, in one piece or in lines.
        let written: String = labels(&svg)
            .iter()
            .map(|l| l.text.replace(' ', ""))
            .collect();
        for l in &labels_in {
            assert!(written.contains(&l.replace(' ', "")), "{name}: {l} missing");
        }
    }
}

/// The numeric text elements of `svg` sharing one baseline (an x axis's tick labels): the
/// largest such row.
fn x_ticks(svg: &str) -> Vec<String> {
    let mut rows: Vec<(f64, Vec<String>)> = Vec::new();
    for l in labels(svg) {
        if l.text.parse::<f64>().is_err() {
            continue;
        }
        match rows.iter_mut().find(|(y, _)| (*y - l.y).abs() < 0.5) {
            Some(row) => row.1.push(l.text),
            None => rows.push((l.y, vec![l.text])),
        }
    }
    rows.into_iter()
        .map(|r| r.1)
        .max_by_key(Vec::len)
        .unwrap_or_default()
}

/// The numeric text elements of `svg` right-aligned on one x (a y axis's tick labels).
fn y_ticks(svg: &str) -> Vec<String> {
    let all = labels(svg);
    let numeric: Vec<&Label> = all
        .iter()
        .filter(|l| l.text.parse::<f64>().is_ok())
        .collect();
    let mut best: Vec<String> = Vec::new();
    for a in &numeric {
        let column: Vec<String> = numeric
            .iter()
            .filter(|b| (b.x - a.x).abs() < 0.5)
            .map(|b| b.text.clone())
            .collect();
        if column.len() > best.len() {
            best = column;
        }
    }
    best
}

#[test]
fn integer_axes_print_integers() {
    // Iterations 1..=20 against fractional scores: plotters alone prints `2.5`-steps or `20.0`.
    for (name, last) in [("short", 3), ("twenty", 20), ("long", 640)] {
        let points: Vec<(f64, f64)> = (1..=last)
            .map(|i| (f64::from(i), 0.3 + 0.4 * (f64::from(i) * 0.7).sin().abs()))
            .collect();
        let path = temp_svg(&format!("integer-{name}"));
        line_chart(
            &path,
            "t",
            "iteration",
            "score",
            &[Series::new("s", points)],
        )
        .unwrap();
        let svg = read(&path);
        let xs = x_ticks(&svg);
        assert!(xs.len() >= 2, "{name}: x ticks {xs:?}");
        for t in &xs {
            assert!(
                t.parse::<i64>().is_ok(),
                "{name}: x tick {t:?} is no integer"
            );
        }
        let ys = y_ticks(&svg);
        assert!(ys.len() >= 2, "{name}: y ticks {ys:?}");
        assert!(ys.iter().any(|t| t.contains('.')), "{name}: y ticks {ys:?}");
        for t in &ys {
            assert!(!t.ends_with(".0"), "{name}: y tick {t:?}");
        }
    }
    // Fractional x data keeps fractional ticks, without trailing zeros.
    let points: Vec<(f64, f64)> = (0..=20).map(|i| (f64::from(i) / 20.0, 1.0)).collect();
    let path = temp_svg("fractional");
    line_chart(&path, "t", "x", "y", &[Series::new("s", points)]).unwrap();
    let xs = x_ticks(&read(&path));
    assert!(xs.iter().any(|t| t.contains('.')), "{xs:?}");
    assert!(
        xs.iter().all(|t| !t.ends_with('0') || !t.contains('.')),
        "{xs:?}"
    );
}

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
fn labels_wrap_at_break_points_and_ticks_drop_trailing_zeros() {
    let label = "net:checkpoint=experiments/chifoumi-learned/final";
    // 13-point text: 0.7 em of 13 / 1.24 pixels a lower-case character, so 100 px hold 13.
    let lines = wrap(label, 13.0, 100.0).unwrap();
    assert_eq!(lines.concat(), label);
    assert!(lines.iter().all(|l| l.chars().count() <= 13), "{lines:?}");
    assert!(lines.len() >= 4, "{lines:?}");
    assert_eq!(
        wrap("two words", 13.0, 60.0).unwrap(),
        vec!["two".to_string(), "words".into()]
    );
    assert_eq!(wrap("abcdefghijklmnopqrstuvwxyz", 13.0, 100.0), None);
    let text = "score by variant, then by setup (95% Wilson)";
    let lines = wrap(text, 13.0, 100.0).unwrap();
    assert_eq!(lines.join(" "), text, "{lines:?}");
    assert_eq!(tick_label(false, 20.0), "20");
    assert_eq!(tick_label(false, 0.1 + 0.2), "0.3");
    assert_eq!(tick_label(false, -0.0), "0");
    assert_eq!(tick_label(false, 0.55), "0.55");
    assert_eq!(tick_label(true, 600.0), "600");
    assert_eq!(tick_label(true, 2.5), "");
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
