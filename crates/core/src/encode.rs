//! What a network sees: the [`Encoder`] trait each game implements for its own positions.
//!
//! An encoder is versioned: its [`EncoderId`] is written into checkpoints and model cards, and a
//! checkpoint is refused by an encoder of another name or version. Bump the version whenever a
//! layout changes. Its [`EncoderCard`] documents the layout for programs that run an exported
//! network (`pjlab export` writes it into the model card).

use serde::{Deserialize, Serialize};

use crate::Game;

/// The name and version of an input encoding.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EncoderId {
    /// Encoding name, e.g. `pijersi-planes`.
    pub name: String,
    /// Layout version; any change of layout bumps it.
    pub version: u32,
}

/// What a model card says of an encoding: how to build the input and what each policy output
/// means. Empty fields are left out of the card.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EncoderCard {
    /// How the input is laid out, e.g. `16 planes of 45 cells (plane * 45 + cell), then one
    /// scalar`.
    pub layout: String,
    /// Whose point of view the input and the policy take, and how the board is turned for it.
    pub perspective: String,
    /// What each plane holds, in input order.
    pub planes: Vec<String>,
    /// What the values after the planes hold.
    pub scalar: String,
    /// The name of each cell, in a plane's order.
    pub cells: Vec<String>,
    /// For each cell, the index of the cell it becomes when the board is turned for the mover
    /// (empty when the board is never turned).
    pub rotated_cells: Vec<usize>,
    /// What the input values are.
    pub values: String,
    /// The move text of every policy output, in the encoding's own view.
    pub actions: Vec<String>,
    /// How to read `actions`, e.g. for the side whose board is turned.
    pub actions_meaning: String,
}

/// Turns positions into flat `f32` inputs and game actions into policy-output indices.
pub trait Encoder<G: Game>: Send + Sync {
    /// Name and version of this encoding.
    fn id(&self) -> EncoderId;
    /// Length of one position's input.
    fn input_len(&self) -> usize;
    /// Length of the policy output (the game's dense action space).
    fn num_actions(&self) -> usize;
    /// Writes the input of `position` into `out` (`out.len() == input_len()`).
    fn encode(&self, position: &G, out: &mut [f32]);
    /// The policy-output index of the game action `action` (a [`Game::action_index`]) in
    /// `position`: the encoding may show the board from the mover's side.
    fn policy_index(&self, position: &G, action: usize) -> usize;
    /// How many symmetries augment the training data (1: none but the identity).
    fn symmetries(&self) -> usize {
        1
    }
    /// The image of `position` by symmetry `k` (`0` is the identity).
    fn transform(&self, position: &G, k: usize) -> G {
        debug_assert_eq!(k, 0);
        position.clone()
    }
    /// The image of the game action `action` by symmetry `k`.
    fn transform_action(&self, action: usize, k: usize) -> usize {
        debug_assert_eq!(k, 0);
        action
    }
    /// The encoding documented for model cards; by default nothing beyond its id and sizes.
    fn card(&self) -> EncoderCard {
        EncoderCard::default()
    }
}
