//! [`AbaloneKit`]: what Abalone gives the lab's layers above the rules.

use std::path::Path;

use pjlab_core::bench::{BenchOptions, Figure};
use pjlab_core::{Error as KitError, GameInfo, GameKit, GameType, SetupMix, Setups};
use serde::{Deserialize, Serialize};

use crate::{
    AbaloneEncoder, AbaloneEval, Mode, Move, Position, Rules, SeatOrder, Variant, notation,
};

/// Abalone in the lab's registry.
#[derive(Copy, Clone, Debug, Default)]
pub struct AbaloneKit;

/// The `[abalone]` table of a training config.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AbaloneConfig {
    /// Setup mix for self-play: `variant:weight,...` over standard, belgian-daisy,
    /// german-daisy, doubles, doubles-0321, doubles-nojunction, doubles-0321-nojunction.
    pub setups: String,
}

impl Default for AbaloneConfig {
    fn default() -> Self {
        AbaloneConfig {
            setups: "belgian-daisy:2,german-daisy:1,standard:1".into(),
        }
    }
}

impl GameKit for AbaloneKit {
    type Game = Position;
    type Variant = Variant;
    type Eval = AbaloneEval;
    type Encoder = AbaloneEncoder;
    type Config = AbaloneConfig;

    const INFO: GameInfo = GameInfo {
        name: "abalone",
        sides: ["black", "white"],
        opening_plies: 2,
        game_type: GameType::board_game("Abalone", 2, 4),
    };

    const SETUP_SEEDS: bool = false;

    fn variants() -> Vec<Variant> {
        Variant::ALL.to_vec()
    }

    /// The start's text under the default seat order: the seat order of doubles is a rule that
    /// the variant names, not part of the start (the spec gives one text for both orders).
    fn setup_text(start: &Position) -> String {
        let rules = Rules {
            mode: match start.rules().mode {
                Mode::Doubles(_) => Mode::Doubles(SeatOrder::Clockwise),
                two => two,
            },
            ..start.rules()
        };
        match start.clone().with_rules(rules) {
            Ok(position) => position.to_string(),
            Err(_) => start.to_string(),
        }
    }

    fn bench_positions() -> Vec<Position> {
        crate::bench::positions()
    }

    fn rules_bench(options: &BenchOptions) -> Vec<Figure> {
        crate::bench::figures(options)
    }

    fn evaluation(weights: Option<&Path>) -> Result<AbaloneEval, KitError> {
        let make = |config: crate::eval::EvalConfig| AbaloneEval::new(config.abalone);
        Ok(pjlab_core::weights::evaluation(weights, make)?)
    }

    /// [`crate::AbaloneFeatures`]: by team in doubles (seat labels and junctions unseen).
    fn sparse_features() -> Option<std::sync::Arc<dyn pjlab_core::SparseFeatures<Position>>> {
        Some(std::sync::Arc::new(crate::AbaloneFeatures))
    }

    fn encoder(_config: &AbaloneConfig) -> AbaloneEncoder {
        AbaloneEncoder
    }

    /// The no-ejection counter draws after `n` plies without an ejection and only an ejection
    /// resets it; the sixth ejection of one colour wins, so there are at most 11 ejections and
    /// 12 stretches of at most `n` plies; the ply cap, when set, bounds it too. `None` when the
    /// rules set neither.
    fn max_game_length(start: &Position) -> Option<u32> {
        let rules = start.rules();
        let by_counter = rules
            .no_ejection_plies
            .map(|n| u32::from(2 * (crate::EJECTIONS_TO_WIN - 1) + 2) * u32::from(n));
        let by_cap = rules
            .max_plies
            .map(|n| u32::from(n).saturating_sub(start.ply()));
        match (by_counter, by_cap) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    fn self_play_setups(config: &AbaloneConfig) -> Result<Box<dyn Setups<Position>>, KitError> {
        Ok(Box::new(SetupMix::<Variant>::parse(&config.setups)?))
    }

    fn variant(name: &str) -> Result<Variant, KitError> {
        name.parse()
            .map_err(|e: crate::Error| KitError::UnknownVariant {
                name: name.to_string(),
                reason: e.to_string(),
            })
    }

    fn perft(position: &Position, depth: u32) -> u64 {
        crate::perft::perft(position, depth)
    }

    fn divide(position: &Position, depth: u32) -> Vec<(Move, u64)> {
        crate::perft::divide(position, depth)
    }

    fn parse_record(text: &str, start: &Position) -> Result<Vec<Move>, KitError> {
        notation::parse_game(text, start)
            .map(|game| game.moves)
            .map_err(|e| KitError::Record {
                reason: e.to_string(),
            })
    }

    fn board_svg(position: &Position, last: Option<(&Position, Move)>) -> Option<String> {
        Some(crate::svg::svg(position, last))
    }

    fn write_record(start: &Position, moves: &[Move]) -> String {
        notation::write_game(start, moves).unwrap_or_else(|e| format!("(unwritable: {e})\n"))
    }
}
