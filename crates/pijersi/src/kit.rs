//! [`PijersiKit`]: what Pijersi gives the lab's layers above the rules.

use std::path::Path;

use pjlab_core::bench::{BenchOptions, Figure};
use pjlab_core::{Error as KitError, GameInfo, GameKit, GameType, SetupMix, SetupVariant, Setups};
use serde::{Deserialize, Serialize};

use crate::{PijersiEncoder, PijersiEval, Position, Rules, Variant, notation};

/// Pijersi in the lab's registry.
#[derive(Copy, Clone, Debug, Default)]
pub struct PijersiKit;

/// The `[pijersi]` table of a training config.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PijersiConfig {
    /// Setup mix for self-play: `variant:weight,...` over classic, full-random, half-random,
    /// pijersi-24, pijersi-36, pijersi-1296, pijersi-8100.
    pub setups: String,
}

impl Default for PijersiConfig {
    fn default() -> Self {
        PijersiConfig {
            setups: "classic:1,half-random:4,full-random:2,pijersi-8100:1".into(),
        }
    }
}

impl SetupVariant for Variant {
    type Game = Position;

    fn start(self, seed: u64) -> Position {
        self.setup(seed)
    }

    fn count(self) -> Option<u64> {
        Variant::count(self).map(|n| n as u64)
    }

    fn nth(self, index: u64) -> Position {
        match Variant::count(self) {
            Some(n) => Variant::nth(self, index as usize % n).expect("index below the count"),
            None => self.setup(index),
        }
    }

    fn describe(start: &Position) -> Option<String> {
        Some(crate::variants::layout(start))
    }

    const DESCRIPTION: &'static str = "White's rows a / b";

    fn classes(layout: &str) -> Vec<(&'static str, &'static str, String)> {
        vec![
            (
                "game",
                "the 3 cyclic renamings of R, P, S and the left-right mirror, which keep the game",
                crate::variants::game_class(layout),
            ),
            (
                "class3",
                "the 3 cyclic renamings of R, P, S",
                crate::variants::renaming_class(layout, false),
            ),
            (
                "class6",
                "the 6 renamings of R, P, S",
                crate::variants::renaming_class(layout, true),
            ),
        ]
    }

    fn setups_note(count: u64) -> Option<String> {
        Some(format!(
            "{} up to the 6 renamings of R, P, S; the 3 cyclic renamings are the ones that keep \
             who captures whom",
            count / 6
        ))
    }
}

impl GameKit for PijersiKit {
    type Game = Position;
    type Variant = Variant;
    type Eval = PijersiEval;
    type Encoder = PijersiEncoder;
    type Config = PijersiConfig;

    const INFO: GameInfo = GameInfo {
        name: "pijersi",
        sides: ["white", "black"],
        opening_plies: 2,
        game_type: GameType::board_game("Pijersi", 2, 2),
    };

    const POSITION_OPTION: &'static str = "psn";

    const RECORD_HOLDS_START: bool = true;

    fn variants() -> Vec<Variant> {
        Variant::ALL.to_vec()
    }

    fn evaluation(weights: Option<&Path>) -> Result<PijersiEval, KitError> {
        let make = |config: crate::EvalConfig| PijersiEval::new(config.pijersi);
        Ok(pjlab_core::weights::evaluation(weights, make)?)
    }

    fn sparse_features() -> Option<std::sync::Arc<dyn pjlab_core::SparseFeatures<Position>>> {
        Some(std::sync::Arc::new(crate::PijersiFeatures))
    }

    fn encoder(_config: &PijersiConfig) -> PijersiEncoder {
        PijersiEncoder
    }

    /// The half-move counter draws after [`crate::DRAW_HALFMOVES`] capture-free plies and only
    /// a capture resets it; each capture takes at least one of the 28 pieces, so a game has at
    /// most 29 stretches of at most `DRAW_HALFMOVES` plies.
    fn max_game_length(_start: &Position) -> Option<u32> {
        Some(29 * u32::from(crate::DRAW_HALFMOVES))
    }

    fn self_play_setups(config: &PijersiConfig) -> Result<Box<dyn Setups<Position>>, KitError> {
        Ok(Box::new(SetupMix::<Variant>::parse(&config.setups)?))
    }

    fn variant(name: &str) -> Result<Variant, KitError> {
        name.parse()
            .map_err(|e: crate::Error| KitError::UnknownVariant {
                name: name.to_string(),
                reason: e.to_string(),
            })
    }

    /// Pijersi's own perft: draws ignored, as the reference engines count.
    fn perft(position: &Position, depth: u32) -> u64 {
        crate::perft::perft(position, depth)
    }

    fn divide(position: &Position, depth: u32) -> Vec<(crate::Move, u64)> {
        crate::perft::divide(position, depth)
    }

    /// The record's setup: its prologue's, or the classic one.
    fn record_start(text: &str) -> Result<Position, KitError> {
        notation::parse_game(text)
            .map(|game| game.start)
            .map_err(record_error)
    }

    /// The rulebook notation; the record's own setup is the start (`start` is not read).
    fn parse_record(text: &str, _start: &Position) -> Result<Vec<crate::Move>, KitError> {
        notation::parse_game(text)
            .map(|game| game.moves)
            .map_err(record_error)
    }

    /// `pass-through`: pijersi-rs's reading of the back-row win (a fighter passing over the
    /// back row wins).
    fn perft_rules(position: Position, name: &str) -> Result<Position, KitError> {
        match name {
            "pass-through" => Ok(position.with_rules(Rules::PassThrough)),
            _ => Err(KitError::UnknownRules {
                game: Self::INFO.name,
                name: name.to_string(),
            }),
        }
    }

    fn bench_positions() -> Vec<Position> {
        crate::bench::positions()
    }

    fn rules_bench(options: &BenchOptions) -> Vec<Figure> {
        crate::bench::figures(options)
    }

    fn move_record(position: &Position, mv: crate::Move) -> String {
        notation::move_notation(position, mv)
    }

    fn board_svg(position: &Position, last: Option<(&Position, crate::Move)>) -> Option<String> {
        Some(crate::svg::svg(position, last.map(|(_, mv)| mv)))
    }

    fn write_record(start: &Position, moves: &[crate::Move]) -> String {
        notation::write_game(start, moves).unwrap_or_else(|e| format!("(unwritable: {e})\n"))
    }
}

/// A rulebook-notation record's error as the kit's.
fn record_error(e: crate::Error) -> KitError {
    KitError::Record {
        reason: e.to_string(),
    }
}
