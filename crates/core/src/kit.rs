//! [`GameKit`]: everything the lab's layers above the rules take from one game.
//!
//! A game's crate implements it once (`PijersiKit`, `AbaloneKit`, `ChompKit`); agents, matches,
//! balance studies, training, the UGI engine and the export are generic over it, and the
//! binary's registry maps a game's name to its kit in one line.

use std::fmt::Debug;
use std::path::Path;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::bench::{BenchOptions, Figure};
use crate::{Encoder, Error, Game, Heuristic, SetupVariant, Setups, Side, SparseFeatures};

/// Positions with their winning moves, as an exact solver gives them.
pub type Solved<G> = Vec<(G, Vec<<G as Game>::Move>)>;

/// Static facts about a game (OpenSpiel's `GameType`): what generic code may rely on.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct GameInfo {
    /// The name `--game` takes, lower case.
    pub name: &'static str,
    /// The sides' names, the first mover's first: `["white", "black"]` in Pijersi,
    /// `["black", "white"]` in Abalone.
    pub sides: [&'static str; 2],
    /// Random opening plies matches and balance studies play by default before the agents, so
    /// that games between deterministic agents differ (0 where any random move may throw a
    /// won game away, as in Chomp).
    pub opening_plies: u32,
    /// Its static facts in OpenSpiel's terms (players, chance, information, utilities).
    pub game_type: crate::GameType,
}

impl GameInfo {
    /// The name of `side`.
    pub fn side_name(&self, side: Side) -> &'static str {
        self.sides[side.index()]
    }
}

/// Everything a game brings to the lab besides its rules.
pub trait GameKit: Send + Sync + 'static {
    /// The position type.
    type Game: Game;
    /// The setup variants (`classic`, `belgian-daisy`, `5x6`, ...).
    type Variant: SetupVariant<Game = Self::Game> + PartialEq + Debug;
    /// The alpha-beta evaluation, with named weights.
    type Eval: Heuristic<Self::Game> + Clone + Send + Sync + 'static;
    /// The network encoder.
    type Encoder: Encoder<Self::Game> + Clone + 'static;
    /// The game's table of a training config (`[pijersi]`, `[abalone]`, `[chomp]`): its setup
    /// mix and whatever else self-play needs.
    type Config: Serialize + DeserializeOwned + Default + Clone + Debug + PartialEq + Send + Sync;

    /// Static facts.
    const INFO: GameInfo;

    /// The command-line option that takes a position in the game's text form, without its
    /// dashes: `psn` for Pijersi, whose positions are written in PSN; `position` by default.
    /// Commands that take a position refuse the other option for this game.
    const POSITION_OPTION: &'static str = "position";

    /// Whether a game record in the game's notation holds its own start (Pijersi: the
    /// rulebook notation's prologue names the setup, the classic one when it has none). Then
    /// [`GameKit::record_start`] reads the start from the record and commands refuse one given
    /// beside it; otherwise (the default) a record is read from a start given beside it.
    const RECORD_HOLDS_START: bool = false;

    /// Whether `pjlab setup` takes a seed and `--all` for this game. True by default: a seed
    /// draws a random variant's setup, `--all` lists an enumerable variant's setups, and a
    /// fixed start ignores both (Chomp's bars). False where every start is fixed and asking for
    /// another is an error (Abalone).
    const SETUP_SEEDS: bool = true;

    /// The variants worth listing in help texts, the default first.
    fn variants() -> Vec<Self::Variant>;

    /// The variant `pjlab setup` prints when none is named: by default the first of
    /// [`GameKit::variants`] (Chomp: the training config's default bar, 5x6).
    fn setup_variant() -> Self::Variant {
        Self::variants()[0]
    }

    /// A setup as `pjlab setup` prints it: by default its text. A game whose text carries rules
    /// that the variant names rather than the setup (Abalone's seat order of doubles) prints it
    /// under the default rules.
    fn setup_text(start: &Self::Game) -> String {
        start.to_text()
    }

    /// The evaluation with its default weights, or with those of a TOML file.
    ///
    /// # Errors
    /// [`Error::Weights`] when the file cannot be read or has unknown keys or bad values;
    /// [`Error::NoWeights`] for an evaluation without weights.
    fn evaluation(weights: Option<&Path>) -> Result<Self::Eval, Error>;

    /// The sparse features an efficiently updatable evaluation (`alphabeta:eval=nnue:FILE`)
    /// reads, or `None` (the default) for a game without them.
    fn sparse_features() -> Option<std::sync::Arc<dyn SparseFeatures<Self::Game>>> {
        None
    }

    /// The encoder for positions of a training config.
    fn encoder(config: &Self::Config) -> Self::Encoder;

    /// The encoder for positions like `start` (the bar size of a Chomp diagram, say), for
    /// programs that play a game without a training config (the Python package). By default the
    /// encoder of the default config.
    fn position_encoder(start: &Self::Game) -> Self::Encoder {
        let _ = start;
        Self::encoder(&Self::Config::default())
    }

    /// An upper bound on the plies of any game played from `start` under its rules (OpenSpiel's
    /// `MaxGameLength`), or `None` when the rules set none. By default `None`.
    fn max_game_length(start: &Self::Game) -> Option<u32> {
        let _ = start;
        None
    }

    /// The start positions self-play draws from, as a training config's table says.
    ///
    /// # Errors
    /// A setup mix's errors ([`Error::MixVariant`], [`Error::WeightText`], ...) when the table
    /// names unknown variants or bad weights; [`Error::Setups`] for other bad values.
    fn self_play_setups(config: &Self::Config) -> Result<Box<dyn Setups<Self::Game>>, Error>;

    /// The variant a training run's strength games are played from, by name.
    ///
    /// # Errors
    /// [`Error::UnknownVariant`].
    fn variant(name: &str) -> Result<Self::Variant, Error>;

    /// A game written in the game's record notation (Pijersi: the rulebook notation; Abalone:
    /// Aba-Pro). By default, one move text a line.
    fn write_record(start: &Self::Game, moves: &[<Self::Game as Game>::Move]) -> String {
        let mut out = String::new();
        for text in start.line_to_text(moves) {
            out.push_str(&text);
            out.push('\n');
        }
        out
    }

    /// perft(`depth`) from `position`: the game's fast perft where it has one, else
    /// [`crate::perft::perft`].
    fn perft(position: &Self::Game, depth: u32) -> u64 {
        crate::perft::perft(position, depth)
    }

    /// perft(`depth`) split by first move, in move-generation order.
    fn divide(position: &Self::Game, depth: u32) -> Vec<(<Self::Game as Game>::Move, u64)> {
        let mut moves = Vec::new();
        position.legal_moves(&mut moves);
        moves
            .into_iter()
            .map(|mv| {
                let mut child = position.clone();
                child.play_unchecked(mv);
                (mv, Self::perft(&child, depth.saturating_sub(1)))
            })
            .collect()
    }

    /// Reads a game record written in the game's notation, played from `start`. By default
    /// whitespace-separated move texts.
    ///
    /// # Errors
    /// [`Error::RecordMove`] on the first token that is not a legal move where it stands
    /// ([`Error::Record`] where the game reads its own notation).
    fn parse_record(
        text: &str,
        start: &Self::Game,
    ) -> Result<Vec<<Self::Game as Game>::Move>, Error> {
        let mut position = start.clone();
        let mut moves = Vec::new();
        for (k, token) in text.split_whitespace().enumerate() {
            let bad = |e: <Self::Game as Game>::Error| Error::RecordMove {
                number: k + 1,
                token: token.to_string(),
                reason: e.to_string(),
            };
            let mv = position.parse_move(token).map_err(bad)?;
            position.play(mv).map_err(bad)?;
            moves.push(mv);
        }
        Ok(moves)
    }

    /// The start a game record holds, where [`GameKit::RECORD_HOLDS_START`]. By default an
    /// error: the game's records do not hold their start.
    ///
    /// # Errors
    /// [`Error::Record`] when the record cannot be read, [`Error::RecordWithoutStart`] when it
    /// does not hold its start.
    fn record_start(text: &str) -> Result<Self::Game, Error> {
        let _ = text;
        Err(Error::RecordWithoutStart {
            game: Self::INFO.name,
        })
    }

    /// `position` under a reading of the rules that another engine's perft counts follow, by
    /// name (Pijersi: `pass-through`, pijersi-rs's back-row win, for `pjlab perft
    /// --pass-through`). By default the game has none.
    ///
    /// # Errors
    /// [`Error::UnknownRules`] on a reading the game does not have.
    fn perft_rules(position: Self::Game, name: &str) -> Result<Self::Game, Error> {
        let _ = position;
        Err(Error::UnknownRules {
            game: Self::INFO.name,
            name: name.to_string(),
        })
    }

    /// Positions of seeded random games, the same on every run and machine: what the game's
    /// rules bench measures move generation on (and, for Pijersi, what `pjlab bench`'s network
    /// and time-budget figures evaluate). None by default.
    fn bench_positions() -> Vec<Self::Game> {
        Vec::new()
    }

    /// The game's rules figures for `pjlab bench`, from its `bench` module: perft from its
    /// starts, move generation, copy-make play and counting over
    /// [`GameKit::bench_positions`]. Names are unique over the whole bench; counts are
    /// signatures that must never change. None by default.
    fn rules_bench(options: &BenchOptions) -> Vec<Figure> {
        let _ = options;
        Vec::new()
    }

    /// The game's solver figures for `pjlab bench`, printed after the search figures (Chomp: its
    /// exact 14 x 14 solve, with the P-positions as signature). None by default.
    fn solver_bench(options: &BenchOptions) -> Vec<Figure> {
        let _ = options;
        Vec::new()
    }

    /// One move in the game's record notation, as a per-move log line shows it. By default its
    /// text form.
    fn move_record(position: &Self::Game, mv: <Self::Game as Game>::Move) -> String {
        position.move_to_text(mv)
    }

    /// `position` drawn as a self-contained SVG picture (a `viewBox` so that it scales, no
    /// external file or font): the board with its coordinates, the pieces, the side to move or
    /// the result, and, when `last` gives it as the position it was played from and the move,
    /// the last move marked. `None` (the default) for a game that has no picture.
    ///
    /// Every piece is an element with the class `piece` and a `data-cell` attribute naming its
    /// cell in the game's notation, so that tools and tests can read a picture back
    /// ([`crate::svg::elements`]).
    fn board_svg(
        position: &Self::Game,
        last: Option<(&Self::Game, <Self::Game as Game>::Move)>,
    ) -> Option<String> {
        let _ = (position, last);
        None
    }

    /// Positions whose winning moves are known exactly, for a strength measure without games
    /// (Chomp's solver); `None` for games without one.
    fn solved_positions(_config: &Self::Config) -> Option<Solved<Self::Game>> {
        None
    }
}
