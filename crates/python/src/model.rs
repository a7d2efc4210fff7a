//! [`Model`]: a policy/value network of one game for evaluation, from a training checkpoint
//! (run by the lab's packed CPU forward pass) or from an ONNX model that follows the game's
//! model card (the lab's own `pjlab export` or a foreign one, run by tract).

use std::any::Any;
use std::path::Path;

use pjlab_core::{Encoder, Game, GameKit};
use pjlab_nn::Source;
use pjlab_registry::{GameName, with_kit};

use crate::Error;
use pjlab_registry::state::{KitState, State};

/// A network of one game: rows of inputs to policy logits and values.
pub trait Model: Send + Sync {
    /// The registry's name of its game.
    fn game_name(&self) -> &'static str;
    /// `checkpoint` or `onnx`.
    fn format(&self) -> &'static str;
    /// Its encoder's name and version (`pijersi-planes v1`).
    fn encoding(&self) -> String;
    /// Values in one input row (an observation).
    fn input_len(&self) -> usize;
    /// Policy logits in one output row.
    fn num_actions(&self) -> usize;
    /// Evaluates `inputs`, rows of [`Model::input_len`] values (observations, as the encoder
    /// builds them), into `policy` (a row of [`Model::num_actions`] logits each, in the
    /// network's action view: the mover's, as the card says) and `value` (one each: P(win) -
    /// P(loss) for the side to move).
    ///
    /// # Errors
    /// [`Error::Shape`] when the lengths disagree, [`Error::Model`] when the runtime fails.
    fn evaluate_inputs(
        &self,
        inputs: &[f32],
        policy: &mut [f32],
        value: &mut [f32],
    ) -> Result<(), Error>;
    /// Evaluates `states` of its game into `policy` (a row of the states' action count each:
    /// `policy[a]` is the logit of the state's action `a`, mapped back from the network's view)
    /// and `value` (one each, for the player to act).
    ///
    /// # Errors
    /// [`Error::Argument`] for a state of another game or of another action space than the
    /// network's (a Chomp bar of another size), [`Error::Shape`] on wrong output lengths.
    fn evaluate_states(
        &self,
        states: &[&dyn State],
        policy: &mut [f32],
        value: &mut [f32],
    ) -> Result<(), Error>;
}

/// Loads a model: `path` is a training checkpoint directory (or a run directory: its latest
/// checkpoint), or an `.onnx` file with or without its card beside it (`model.json`, written
/// by `pjlab export`). `game` names its game; without it, the checkpoint's or the card's game.
/// An ONNX model's inputs are built by the encoder its card names (Chomp: of its bar); without
/// a card, by the encoder of `variant`'s positions (when given), else by the encoder whose input
/// width is the model's declared input width (among the game's variants and its default
/// config's: Chomp's bar of that many squares), else by the default variant's, the model then
/// refused naming the input shapes expected and found.
///
/// # Errors
/// [`Error::NotFound`] when nothing is at `path`; [`Error::UnknownGame`]; [`Error::Model`]
/// when the checkpoint does not load or is of another game, or the ONNX model or its card does
/// not fit the game (naming what differs: expected and found), or no game is named or found.
pub fn load_model(
    path: &Path,
    game: Option<&str>,
    variant: Option<&str>,
) -> Result<Box<dyn Model>, Error> {
    if !path.exists() {
        return Err(Error::NotFound(path.display().to_string()));
    }
    let games: Vec<&'static str> = GameName::ALL.iter().map(|g| g.name()).collect();
    let parse = |name: &str| {
        GameName::parse(name.trim()).map_err(|_| Error::UnknownGame {
            name: name.to_string(),
            known: games.join(", "),
        })
    };
    let name = match game {
        Some(name) => parse(name)?,
        None => {
            let source = Source::find(path).map_err(net_error)?;
            let found = source.game(&games).ok_or_else(|| {
                Error::Model(match (&source, source.card_path()) {
                    (Source::Onnx { card: None, .. }, Some(card)) => format!(
                        "{}: no model card beside it ({}) to name its game: pass game=...",
                        path.display(),
                        card.display()
                    ),
                    (_, Some(card)) => format!(
                        "{}: the card names no game of the registry ({}): pass game=...",
                        card.display(),
                        games.join(", ")
                    ),
                    (_, None) => format!(
                        "{}: a network for {}, no game of the registry ({})",
                        source.path().display(),
                        source.named_game().unwrap_or_default(),
                        games.join(", ")
                    ),
                })
            })?;
            parse(found)?
        }
    };
    with_kit!(name, |K| KitModel::<K>::load(path, variant))
}

fn net_error(e: pjlab_nn::Error) -> Error {
    Error::Model(e.to_string())
}

/// A network of a [`GameKit`]'s game and the encoder its inputs come from.
struct KitModel<K: GameKit> {
    model: pjlab_nn::Model,
    encoder: K::Encoder,
}

impl<K: GameKit> KitModel<K> {
    fn load(path: &Path, variant: Option<&str>) -> Result<Box<dyn Model>, Error> {
        let (model, encoder) =
            pjlab_players::load_network::<K>(path, variant).map_err(|e| match e {
                pjlab_players::Error::UnknownVariant {
                    game,
                    variant,
                    reason,
                } => Error::UnknownVariant {
                    game,
                    variant,
                    reason,
                },
                other => Error::Model(other.to_string()),
            })?;
        Ok(Box::new(KitModel::<K> { model, encoder }))
    }

    /// One or more rows through the network.
    fn run(&self, inputs: &[f32], policy: &mut [f32], wdl: &mut [f32]) -> Result<(), Error> {
        self.model
            .forward(inputs, policy, wdl)
            .map_err(|e| Error::Model(e.to_string()))
    }

    fn check_lengths(&self, rows: usize, policy: usize, value: usize) -> Result<(), Error> {
        pjlab_registry::state::check_len("policy", policy, rows * self.num_actions())?;
        pjlab_registry::state::check_len("value", value, rows)
    }
}

impl<K: GameKit> Model for KitModel<K> {
    fn game_name(&self) -> &'static str {
        K::INFO.name
    }

    fn format(&self) -> &'static str {
        self.model.format()
    }

    fn encoding(&self) -> String {
        let id = self.encoder.id();
        format!("{} v{}", id.name, id.version)
    }

    fn input_len(&self) -> usize {
        self.encoder.input_len()
    }

    fn num_actions(&self) -> usize {
        self.encoder.num_actions()
    }

    fn evaluate_inputs(
        &self,
        inputs: &[f32],
        policy: &mut [f32],
        value: &mut [f32],
    ) -> Result<(), Error> {
        let width = self.input_len();
        if !inputs.len().is_multiple_of(width) {
            return Err(Error::Shape {
                what: "observations",
                found: format!("{} values", inputs.len()),
                expected: format!("rows of {width}"),
            });
        }
        let rows = inputs.len() / width;
        self.check_lengths(rows, policy.len(), value.len())?;
        let mut wdl = vec![0.0; rows * 3];
        self.run(inputs, policy, &mut wdl)?;
        for (v, row) in value.iter_mut().zip(wdl.chunks_exact(3)) {
            *v = pjlab_nn::wdl_value(row);
        }
        Ok(())
    }

    fn evaluate_states(
        &self,
        states: &[&dyn State],
        policy: &mut [f32],
        value: &mut [f32],
    ) -> Result<(), Error> {
        let (width, actions) = (self.input_len(), self.num_actions());
        let mut positions = Vec::with_capacity(states.len());
        for (i, state) in states.iter().enumerate() {
            let any: &dyn Any = *state;
            let position = any
                .downcast_ref::<KitState<K>>()
                .map(KitState::position)
                .ok_or_else(|| {
                    Error::Argument(format!(
                        "a {} model cannot evaluate a {} state",
                        K::INFO.name,
                        state.game_name()
                    ))
                    .at(format!("state {i}"))
                })?;
            if position.num_actions() != actions {
                return Err(Error::Argument(format!(
                    "the position has {} actions, the network ({}) {actions}",
                    position.num_actions(),
                    self.encoding()
                ))
                .at(format!("state {i}")));
            }
            positions.push(position);
        }
        self.check_lengths(states.len(), policy.len(), value.len())?;
        let mut inputs = vec![0.0; states.len() * width];
        for (position, row) in positions.iter().zip(inputs.chunks_exact_mut(width)) {
            self.encoder.encode(position, row);
        }
        let mut logits = vec![0.0; states.len() * actions];
        self.evaluate_inputs(&inputs, &mut logits, value)?;
        let rows = policy
            .chunks_exact_mut(actions)
            .zip(logits.chunks_exact(actions));
        for (position, (out, logits)) in positions.iter().zip(rows) {
            for (action, o) in out.iter_mut().enumerate() {
                *o = logits[self.encoder.policy_index(position, action)];
            }
        }
        Ok(())
    }
}
