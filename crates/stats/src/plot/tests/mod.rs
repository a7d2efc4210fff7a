//! The charts read back from their SVG text: no two pieces of text overlap, integer axes print
//! integers, a band is one shaded polygon around its line, the legend keeps off the curves.
//! Text widths here are this file's own conservative estimate (1 em for capitals and the wide
//! `m` and `w`, 0.7 em for any other character, 1 em high), not the layout code's.

use std::path::PathBuf;

use super::Estimate;

mod axes;
mod lines;

/// A fresh file path under the system's temporary directory.
pub(super) fn temp_svg(name: &str) -> PathBuf {
    let file = format!("pjlab-stats-plot-{}-{name}.svg", std::process::id());
    std::env::temp_dir().join(file)
}

/// The text of the SVG file at `path`, which it removes.
pub(super) fn read(path: &std::path::Path) -> String {
    let svg = std::fs::read_to_string(path).unwrap();
    std::fs::remove_file(path).unwrap();
    svg
}

/// The value of attribute `name` in the tag text `tag`.
pub(super) fn attr<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let start = tag.find(&key)? + key.len();
    Some(&tag[start..start + tag[start..].find('"')?])
}

/// Every element `<name ...>` of `svg`: its opening tag's text.
pub(super) fn tags<'a>(svg: &'a str, name: &str) -> Vec<&'a str> {
    let open = format!("<{name} ");
    svg.match_indices(&open)
        .map(|(i, _)| &svg[i..i + svg[i..].find('>').unwrap()])
        .collect()
}

/// A text element: its content and the box it takes (left, top, right, bottom).
#[derive(Debug)]
pub(super) struct Label {
    text: String,
    x: f64,
    y: f64,
    bounds: (f64, f64, f64, f64),
}

pub(super) fn num(s: &str) -> f64 {
    s.trim().parse().unwrap()
}

/// The text elements of `svg`, with conservative boxes (widths as the module says), 1 em high,
/// placed by their anchor and baseline shift and turned by their `rotate(..)`.
pub(super) fn labels(svg: &str) -> Vec<Label> {
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

pub(super) fn size(svg: &str) -> (f64, f64) {
    let tag = tags(svg, "svg")[0];
    (
        num(attr(tag, "width").unwrap()),
        num(attr(tag, "height").unwrap()),
    )
}

/// Panics when two text boxes of `svg` intersect or one leaves the picture.
pub(super) fn assert_text_apart(svg: &str, what: &str) {
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

pub(super) fn estimates(labels: &[String]) -> Vec<Estimate> {
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
