//! Text and axes: category labels and tick labels never overlap, integer axes print integers,
//! long names wrap at break points.

use super::*;
use crate::plot::text::{tick_label, wrap};
use crate::plot::{Series, interval_chart, line_chart};

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
pub(super) fn x_ticks(svg: &str) -> Vec<String> {
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
