//! Every player the lab has, built from its spec, below the trainers: what the binary, the UGI
//! engine and the Python package play with, without linking a trainer.
//!
//! - Board games ([`build`] for any game's kit): the agents of [`pjlab_agents::build`]
//!   (`random`, `greedy`, `alphabeta:...`, `mcts:...`, `ugi:cmd=...`) and network players
//!   ([`net::NetAgent`], `net:checkpoint=<path>`), whose network [`net::load_network`] loads
//!   from a checkpoint or an `.onnx` model whoever trained it (through
//!   [`pjlab_nn::Model::load`], the one place that tells the two apart).
//! - Chifoumi ([`chifoumi::build`]): the scripted players, `ismcts`, and the learned
//!   [`chifoumi::NetPlayer`] (`net:checkpoint=DIR`), which `pjlab-chifoumi-learn` trains.
//!
//! Errors are typed ([`Error`]): a caller tells an unknown player from a bad option, a missing
//! network from one of another game, without reading messages.

pub mod chifoumi;
pub mod net;

pub use net::{NetAgent, build, card_encoder, load_network, net_agent};

/// Which trainer's checkpoints play only their own game, for [`Error::OtherGame`].
fn trainer_hint(found: &str) -> &'static str {
    if found == pjlab_nn::model::CHIFOUMI {
        " (not a checkpoint of `pjlab train`: a network of `pjlab chifoumi train` plays only \
         Chifoumi)"
    } else {
        " (a network of `pjlab train` plays only the game it was trained on)"
    }
}

/// Why a player cannot be built.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A board-game network player's spec with a bad or missing option.
    #[error("agent `{spec}`: {reason}")]
    Spec {
        /// The spec given.
        spec: String,
        /// What is wrong.
        reason: String,
    },
    /// A board-game agent's spec that `pjlab-agents` refuses.
    #[error(transparent)]
    Agent(#[from] pjlab_agents::SpecError),
    /// A Chifoumi player's spec with a bad or missing option.
    #[error("player {spec:?}: {reason}")]
    PlayerSpec {
        /// The spec given.
        spec: String,
        /// What is wrong.
        reason: String,
    },
    /// A Chifoumi spec that names no player.
    #[error("unknown player {spec:?} (known: {known})")]
    UnknownPlayer {
        /// The spec given.
        spec: String,
        /// The players there are.
        known: &'static str,
    },
    /// A scripted Chifoumi player's spec that the game's parser refuses.
    #[error(transparent)]
    Chifoumi(#[from] pjlab_chifoumi::Error),
    /// A network that is missing, does not load, or does not fit the game's contract.
    #[error(transparent)]
    Net(#[from] pjlab_nn::Error),
    /// A network trained on another game.
    #[error(
        "{path} holds a network for {found}, not {expected}{}",
        trainer_hint(found)
    )]
    OtherGame {
        /// The checkpoint or model given.
        path: String,
        /// The game it was trained on.
        found: String,
        /// The game asked for.
        expected: &'static str,
    },
    /// A variant the game does not have (naming an ONNX model's encoder).
    #[error("unknown variant {variant:?} of {game}: {reason}")]
    UnknownVariant {
        /// The game.
        game: &'static str,
        /// The variant asked for.
        variant: String,
        /// What the game's parser said.
        reason: String,
    },
    /// A checkpoint whose game table (what its encoder is built from) does not parse.
    #[error("{path}: the game's table: {reason}")]
    GameTable {
        /// The checkpoint directory.
        path: String,
        /// What is wrong.
        reason: String,
    },
}
