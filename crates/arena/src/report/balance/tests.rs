use super::*;

fn wdl(wins: u64, draws: u64, losses: u64) -> Wdl {
    Wdl {
        wins,
        draws,
        losses,
    }
}

#[test]
fn the_test_states_the_excluded_difference_or_that_none_is_excluded() {
    // Many games a group: a bound well under 100 points, stated as excluded.
    let many = score_test(&[wdl(600, 0, 400), wdl(500, 0, 500)], "variants", "White");
    assert!(many.contains("larger than **"), "{many}");
    let bound: f64 = many
        .split("larger than **")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .and_then(|t| t.parse().ok())
        .unwrap();
    assert!(bound > 10.0 && bound < 20.0, "{many}");
    // Two games a setup over many setups: the bound passes 100 points, and nothing is excluded.
    let few: Vec<Wdl> = (0..300).map(|i| wdl(1 + i % 2, 0, 1 - i % 2)).collect();
    let text = score_test(&few, "setups", "White");
    assert!(!text.contains("larger than"), "{text}");
    assert!(
        text.contains("exclude no difference between two setups"),
        "{text}"
    );
    assert!(text.contains("too few games a setup"), "{text}");
    let classes = score_test(&few, "classes", "White");
    assert!(classes.contains("too few games a class"), "{classes}");
}
