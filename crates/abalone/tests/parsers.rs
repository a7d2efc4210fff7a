//! Parsers never panic, whatever the input; valid text round-trips.

use pjlab_abalone::notation::{self, parse_game};
use pjlab_abalone::{Position, Setup, Variant};
use proptest::prelude::*;

const STANDARD: &str = "wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b 0 0 0 1";
const DOUBLES: &str = "ww1dd/wwwddd/1ww1dd1/8/9/8/1bb1xx1/bbbxxx/bb1xx 0 - - 0 0 0 1";

/// Reads `text` both ways; where it is a position, its text reads back as the same position.
fn check_round_trip(text: &str) -> Result<(), TestCaseError> {
    let setup = Setup::from_text(text);
    if let Ok(p) = Position::from_text(text) {
        prop_assert!(setup.is_ok());
        let again = Position::from_text(&p.to_string());
        prop_assert_eq!(again.as_ref(), Ok(&p), "{} -> {}", text, p);
    }
    Ok(())
}

/// A board field of 61 cells, top row first, each cell one of `letters` or `1` (empty), with
/// empty cells `empty_weight` times as likely as each letter. Runs of `1`s are valid text.
fn board(letters: &'static [char], empty_weight: u32) -> impl Strategy<Value = String> {
    let cell = prop_oneof![
        empty_weight => Just('1'),
        1 => prop::sample::select(letters),
    ];
    prop::collection::vec(cell, 61).prop_map(|cells| {
        let mut rows = Vec::new();
        let mut rest = cells.as_slice();
        for len in [5, 6, 7, 8, 9, 8, 7, 6, 5] {
            let (row, tail) = rest.split_at(len);
            rows.push(row.iter().collect::<String>());
            rest = tail;
        }
        rows.join("/")
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// Arbitrary text into the position parsers.
    #[test]
    fn position_parser_never_panics(text in "\\PC{0,80}") {
        check_round_trip(&text)?;
    }

    /// Text shaped like a two-player position, with rule tokens.
    #[test]
    fn two_player_like_text_never_panics(
        text in "([bwBW1-9]{0,9}/){8}[bwBW1-9]{0,9} [bw] [0-9]{1,2} [0-9]{1,2} [0-9]{1,3} [0-9]{1,3}( (draw|maxplies|order)=[0-9a-z]{0,4}){0,2}"
    ) {
        check_round_trip(&text)?;
    }

    /// Text shaped like a doubles position, with junction flags and rule tokens.
    #[test]
    fn doubles_like_text_never_panics(
        text in "([bwdx1-9]{0,9}/){8}[bwdx1-9]{0,9} [0-4] [-bw] [-bw] [0-9]{1,2} [0-9]{1,2} [0-9]{1,3} [0-9]{1,3}( (draw|maxplies|order)=[0-9a-z]{0,4}){0,2}"
    ) {
        check_round_trip(&text)?;
    }

    /// Boards of the right shape with random marbles, two-player and doubles, with counters.
    #[test]
    fn random_boards_round_trip(
        two in board(&['b', 'w'], 3),
        four in board(&['b', 'w', 'd', 'x'], 8),
        side in "[bw]",
        seat in "[0-3] [-b] [-w]",
        counters in "[0-6] [0-6] [0-9]{1,3} [1-9][0-9]{0,2}",
        rules in "( draw=(none|[0-9]{1,3}))?( maxplies=[0-9]{1,3})?",
        order in "( order=0321)?",
    ) {
        let two_text = format!("{two} {side} {counters}{rules}");
        check_round_trip(&two_text)?;
        let four_text = format!("{four} {seat} {counters}{order}{rules}");
        check_round_trip(&four_text)?;
    }

    /// A start text with one byte replaced.
    #[test]
    fn mutated_start_never_panics(doubles in any::<bool>(), index in any::<usize>(), byte in any::<u8>()) {
        let start = if doubles { DOUBLES } else { STANDARD };
        let mut bytes = start.as_bytes().to_vec();
        let index = index % bytes.len();
        bytes[index] = byte;
        if let Ok(text) = String::from_utf8(bytes) {
            check_round_trip(&text)?;
        }
    }

    /// Move strings into the notation parser and the position's checked parser; a move that
    /// parses is written back as text that parses to the same move.
    #[test]
    fn move_strings_never_panic(text in "([a-i][1-9]){2,3}|[a-jA-J0-9]{0,7}|pass|PASS|\\PC{0,10}") {
        let start = Position::from_text(STANDARD).unwrap();
        let doubles = Position::from_text(DOUBLES).unwrap();
        if let Ok(mv) = notation::parse_move(&text) {
            prop_assert_eq!(notation::parse_move(&mv.to_string()).unwrap(), mv);
        }
        for position in [&start, &doubles] {
            if let Ok(mv) = position.parse_move(&text) {
                prop_assert!(position.is_legal(mv));
                prop_assert_eq!(notation::parse_move(&text).unwrap(), mv);
            }
        }
    }

    /// Game records shaped like Aba-Pro notation from each start.
    #[test]
    fn notation_like_games_never_panic(
        text in "([0-9]{1,2}\\.{1,3} ?)?([a-i][1-9]){2,3}( [a-i][1-9][a-i][1-9]| pass| \n[0-9]{1,2}\\.[a-i][1-9][a-i][1-9]){0,6}"
    ) {
        for variant in [Variant::Standard, Variant::BelgianDaisy] {
            let start = variant.start();
            if let Ok(record) = parse_game(&text, &start) {
                let mut position = start.clone();
                for mv in record.moves {
                    prop_assert!(position.play(mv).is_ok());
                }
            }
        }
    }

    /// Arbitrary text into the game parser and the variant names.
    #[test]
    fn arbitrary_notation_never_panics(text in "\\PC{0,120}") {
        let _ = parse_game(&text, &Variant::Standard.start());
        if let Ok(variant) = text.parse::<Variant>() {
            prop_assert!(variant.name().eq_ignore_ascii_case(&text));
        }
    }

    /// Variant names, in any case, with near misses.
    #[test]
    fn variant_names_never_panic(
        text in "(standard|belgian-daisy|german-daisy|doubles|doubles-0321|doubles-nojunction|doubles-0321-nojunction)[ -]?[a-z0-9]{0,2}"
    ) {
        match text.parse::<Variant>() {
            Ok(variant) => prop_assert_eq!(variant.name(), text.as_str()),
            Err(_) => prop_assert!(Variant::ALL.iter().all(|v| v.name() != text)),
        }
        let upper = text.to_uppercase();
        prop_assert_eq!(upper.parse::<Variant>().is_ok(), text.parse::<Variant>().is_ok());
    }
}
