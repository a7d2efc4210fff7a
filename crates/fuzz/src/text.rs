//! Text inputs: positions, moves and records of both board games, specs, maps, records and
//! weights. Each is parsed; what parses is written back and parsed again to the same value.

use pjlab_core::Game;
use pjlab_core::setups::SetupMix;
use pjlab_core::spec::Spec;

use crate::input::{Script, text};
use crate::{Target, play};

/// PSN -> Pijersi position -> PSN -> the same position, with the same hash.
pub(crate) const PIJERSI_POSITION: Target = Target {
    name: "pijersi_position",
    about: "PSN parsed; what parses round-trips with its hash",
    run: |data| round_trip::<pjlab_pijersi::Position>(&text(data)),
    test_inputs: 20_000,
};

/// A UGI move string in a position reached by a script.
pub(crate) const PIJERSI_MOVE: Target = Target {
    name: "pijersi_move",
    about: "UGI move text in a scripted position; what parses is legal and round-trips",
    run: |data| {
        let mut script = Script::new(data);
        let position = play::pijersi_position(&mut script);
        move_round_trip(&position, &text(script.rest()));
    },
    test_inputs: 10_000,
};

/// A move in the rulebook's notation in a position reached by a script.
pub(crate) const PIJERSI_NOTATION_MOVE: Target = Target {
    name: "pijersi_notation_move",
    about: "rulebook move notation in a scripted position; what parses is legal",
    run: |data| {
        let mut script = Script::new(data);
        let position = play::pijersi_position(&mut script);
        let token = text(script.rest());
        if let Ok(mv) = pjlab_pijersi::notation::parse_move_notation(&position, &token) {
            assert!(
                position.clone().play(mv).is_ok(),
                "{token:?} parsed to an illegal move in {}",
                position.to_text()
            );
        }
    },
    test_inputs: 10_000,
};

/// A whole game in the rulebook's notation.
pub(crate) const PIJERSI_RECORD: Target = Target {
    name: "pijersi_record",
    about: "a game record in rulebook notation; what parses replays with checked play",
    run: |data| {
        if let Ok(record) = pjlab_pijersi::notation::parse_game(&text(data)) {
            replays(&record.start, &record.moves);
        }
    },
    test_inputs: 10_000,
};

/// Abalone's position text, round trip.
pub(crate) const ABALONE_POSITION: Target = Target {
    name: "abalone_position",
    about: "Abalone position text parsed; what parses round-trips with its hash",
    run: |data| round_trip::<pjlab_abalone::Position>(&text(data)),
    test_inputs: 20_000,
};

/// An Aba-Pro move, alone and in a position reached by a script.
pub(crate) const ABALONE_MOVE: Target = Target {
    name: "abalone_move",
    about: "Aba-Pro move text, alone and in a scripted position; what parses is legal and round-trips",
    run: |data| {
        let mut script = Script::new(data);
        let position = play::abalone_position(&mut script);
        let token = text(script.rest());
        let _ = pjlab_abalone::notation::parse_move(&token);
        move_round_trip(&position, &token);
    },
    test_inputs: 10_000,
};

/// A whole Abalone game in Aba-Pro notation from a start chosen by the first byte.
pub(crate) const ABALONE_RECORD: Target = Target {
    name: "abalone_record",
    about: "an Aba-Pro game record from a chosen start; what parses replays with checked play",
    run: |data| {
        let mut script = Script::new(data);
        let variants = pjlab_abalone::Variant::ALL;
        let start = variants[script.choose(variants.len())].start();
        if let Ok(record) = pjlab_abalone::notation::parse_game(&text(script.rest()), &start) {
            replays(&record.start, &record.moves);
        }
    },
    test_inputs: 10_000,
};

/// An agent or player spec (`name:key=value,...`).
pub(crate) const AGENT_SPEC: Target = Target {
    name: "agent_spec",
    about: "an agent spec parsed by the one spec parser",
    run: |data| {
        if let Ok(spec) = Spec::parse(&text(data)) {
            assert!(!spec.name().is_empty());
        }
    },
    test_inputs: 20_000,
};

/// A mix of Pijersi and of Abalone setup variants (`variant:weight,...`).
pub(crate) const SETUP_MIX: Target = Target {
    name: "setup_mix",
    about: "a setup mix parsed for both board games",
    run: |data| {
        let text = text(data);
        let _ = SetupMix::<pjlab_pijersi::Variant>::parse(&text);
        let _ = SetupMix::<pjlab_abalone::Variant>::parse(&text);
    },
    test_inputs: 20_000,
};

/// A Chifoumi map file, round trip.
pub(crate) const CHIFOUMI_MAP: Target = Target {
    name: "chifoumi_map",
    about: "a Chifoumi map file parsed; what parses round-trips",
    run: |data| {
        if let Ok(map) = pjlab_chifoumi::Map::parse(&text(data)) {
            let again = pjlab_chifoumi::Map::parse(&map.to_text())
                .unwrap_or_else(|e| panic!("{:?} does not parse again: {e}", map.to_text()));
            assert_eq!(map, again);
        }
    },
    test_inputs: 20_000,
};

/// A Chifoumi game record, round trip.
pub(crate) const CHIFOUMI_RECORD: Target = Target {
    name: "chifoumi_record",
    about: "a Chifoumi game record parsed; what parses round-trips and replays or is refused",
    run: |data| {
        if let Ok(record) = pjlab_chifoumi::GameRecord::parse(&text(data)) {
            let written = record.to_string();
            let again = pjlab_chifoumi::GameRecord::parse(&written)
                .unwrap_or_else(|e| panic!("{written:?} does not parse again: {e}"));
            assert_eq!(record, again);
            let _ = record.replay(&pjlab_chifoumi::Rules::default());
        }
    },
    test_inputs: 20_000,
};

/// A Chifoumi scripted player's spec.
pub(crate) const CHIFOUMI_PLAYER: Target = Target {
    name: "chifoumi_player",
    about: "a Chifoumi scripted player's spec",
    run: |data| {
        let _ = pjlab_chifoumi::parse_player(&text(data));
    },
    test_inputs: 20_000,
};

/// The hand-written evaluations' weight files (TOML), both games.
pub(crate) const EVAL_WEIGHTS: Target = Target {
    name: "eval_weights",
    about: "evaluation weights as TOML for both board games",
    run: |data| {
        let text = text(data);
        let _ = pjlab_pijersi::PijersiWeights::from_toml(&text);
        let _ = pjlab_abalone::AbaloneWeights::from_toml(&text);
    },
    test_inputs: 10_000,
};

/// Parses a position; one that parses is written back and parsed to the same position and hash.
fn round_trip<G: Game + PartialEq + std::fmt::Debug>(text: &str) {
    if let Ok(position) = G::from_text(text) {
        reparses(&position);
    }
}

/// `position`'s text parses back to it, with the same hash.
pub(crate) fn reparses<G: Game + PartialEq + std::fmt::Debug>(position: &G) {
    let written = position.to_text();
    let again =
        G::from_text(&written).unwrap_or_else(|e| panic!("{written:?} does not parse again: {e}"));
    assert_eq!(position, &again, "{written:?}");
    assert_eq!(position.hash(), again.hash(), "{written:?}");
}

/// Parses a move in `position`; one that parses is legal, and its text parses back to it.
pub(crate) fn move_round_trip<G: Game>(position: &G, token: &str)
where
    G::Move: PartialEq + std::fmt::Debug,
{
    if let Ok(mv) = position.parse_move(token) {
        let mut moves = Vec::new();
        position.legal_moves(&mut moves);
        assert!(moves.contains(&mv), "{token:?} parsed to an illegal move");
        let written = position.move_to_text(mv);
        assert_eq!(position.parse_move(&written).ok(), Some(mv), "{written:?}");
    }
}

/// A parsed record's moves are all legal, played with checked play from its start.
fn replays<G: Game>(start: &G, moves: &[G::Move])
where
    G::Move: std::fmt::Debug,
{
    let mut position = start.clone();
    for (ply, &mv) in moves.iter().enumerate() {
        assert!(
            position.play(mv).is_ok(),
            "the record's move {ply} ({mv:?}) is illegal in {}",
            position.to_text()
        );
    }
}
