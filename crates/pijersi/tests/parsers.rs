//! Parsers never panic, whatever the input; valid text round-trips.

use pjlab_pijersi::notation::parse_game;
use pjlab_pijersi::{Move, Position, Setup, Variant};
use proptest::prelude::*;

const CLASSIC: &str = "s-p-r-s-p-r-/p-r-s-wwr-s-p-/6/7/6/P-S-R-WWS-R-P-/R-P-S-R-P-S- w 0 1";

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn psn_parser_never_panics(text in "\\PC{0,80}") {
        let _ = Position::from_psn(&text);
        let _ = Setup::from_psn(&text);
    }

    #[test]
    fn psn_like_text_never_panics(text in "[rpswRPSW1-9/ -]{0,60} [wbx] [0-9]{1,4} [0-9]{1,6}") {
        if let Ok(p) = Position::from_psn(&text) {
            prop_assert_eq!(Position::from_psn(&p.to_string()).unwrap(), p);
        }
    }

    #[test]
    fn mutated_classic_never_panics(index in any::<usize>(), byte in any::<u8>()) {
        let mut bytes = CLASSIC.as_bytes().to_vec();
        let index = index % bytes.len();
        bytes[index] = byte;
        if let Ok(text) = String::from_utf8(bytes) {
            let _ = Position::from_psn(&text);
        }
    }

    #[test]
    fn move_strings_never_panic(text in "[a-h0-9]{0,8}|\\PC{0,10}") {
        let _ = Move::parse_path(&text);
        let _ = Position::default().parse_ugi(&text);
    }

    #[test]
    fn notation_never_panics(text in "([a-g][1-7]{1,2}:[rpswRPSW]{0,8} ?){0,4}\n?([0-9]{1,2} [a-g][1-8]([-=][a-g][1-8]!?){0,3} ?[+-]?[0-9]{0,2}\\*? ?){0,6}") {
        let _ = parse_game(&text);
    }

    #[test]
    fn arbitrary_notation_never_panics(text in "\\PC{0,120}") {
        let _ = parse_game(&text);
        let _ = text.parse::<Variant>();
    }
}
