//! The rulebook's notation: the rulebook's own example game, and clear errors.

use pjlab_pijersi::notation::{parse_game, write_game};
use pjlab_pijersi::{Error, Position};

/// The example game of the rulebook (`../shared/seeds`), read from the code block after its
/// "## Notation" heading.
fn rulebook_example() -> String {
    let path = pjlab_conformance::package_dir(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/seeds/002_60272eba3cbc7dc1.txt");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read the rulebook at {}: {e}", path.display()));
    let section = text.split("## Notation").nth(1).expect("notation section");
    section.split("```").nth(1).expect("code block").to_string()
}

#[test]
fn the_rulebook_example_replays() {
    let game = parse_game(&rulebook_example()).unwrap();
    // Its prologue spells out the classic setup.
    assert_eq!(game.start, Position::default());
    assert_eq!(game.moves.len(), 15);
    let last = game.final_position();
    // 15 d3=f2-g1!: White's cube captures on Black's back row and wins.
    assert_eq!(
        last.outcome(),
        Some(pjlab_core::Outcome::Win(pjlab_core::Side::First))
    );
    let written = write_game(&game.start, &game.moves).unwrap();
    assert_eq!(parse_game(&written).unwrap(), game);
}

fn notation_error(text: &str) -> (usize, String) {
    match parse_game(text) {
        Err(Error::Notation { line, reason }) => (line, reason),
        other => panic!("expected a notation error for {text:?}, got {other:?}"),
    }
}

#[test]
fn broken_lines_are_reported_with_line_and_item() {
    let (line, reason) = notation_error("b56:RPS\n1 a4-b5");
    assert_eq!(line, 1);
    assert!(
        reason.contains("b56:RPS") && reason.contains("2 cells"),
        "{reason}"
    );

    let (line, reason) = notation_error("1 a4-b5=c4\n3 f4=d5-d4");
    assert_eq!(line, 2);
    assert!(reason.contains("expected turn number 2"), "{reason}");

    let (line, reason) = notation_error("1 a4-b5=c4 2 f4-f3");
    assert_eq!(line, 1);
    assert!(
        reason.contains("turn 2") && reason.contains("not legal"),
        "{reason}"
    );

    let (_, reason) = notation_error("1 a1-b1!");
    assert!(
        reason.contains("no piece") || reason.contains("capture") || reason.contains("legal"),
        "{reason}"
    );

    let (_, reason) = notation_error("a1:R a1:P");
    assert!(reason.contains("twice"), "{reason}");

    let (_, reason) = notation_error("1 a4-b5=c4\nb4:WW");
    assert!(reason.contains("prologue"), "{reason}");
}

#[test]
fn scores_are_ignored_and_a_range_prologue_reads() {
    let game = parse_game("1 a4-b5=c4 +12  2 f4=d5-d4 -5*").unwrap();
    assert_eq!(game.moves.len(), 2);
    let game = parse_game("a13:RPS b4:WW g16:rrpwsw\n\n1 b4=c4").unwrap();
    assert_eq!(game.start.board_psn(), "r-r-p-w-s-w-/7/6/7/6/3WW3/R-P-S-3");
    assert_eq!(game.moves.len(), 1);
}
