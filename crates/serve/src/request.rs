//! A request's body: the JSON fields every endpoint reads, its size and type checked.

use axum::extract::Request;
use axum::http::header::CONTENT_TYPE;
use serde::Deserialize;

use pjlab_registry::GameName;

use crate::ApiError;
use crate::engine::check_spec;
use crate::games::PositionRequest;

/// The largest request body, in bytes.
pub const MAX_BODY: usize = 64 * 1024;

/// Every request body: the fields each endpoint reads (unknown fields are refused, so that a
/// misspelt limit is not silently ignored).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ApiRequest {
    /// The game: `pijersi`, `abalone` or `chomp`.
    #[serde(default)]
    pub game: Option<String>,
    /// A position text (Pijersi: PSN).
    #[serde(default)]
    pub position: Option<String>,
    /// A setup variant.
    #[serde(default)]
    pub variant: Option<String>,
    /// The seed of a random variant's start.
    #[serde(default)]
    pub seed: Option<u64>,
    /// Moves from the start.
    #[serde(default)]
    pub moves: Vec<String>,
    /// A player's spec.
    #[serde(default)]
    pub player: Option<String>,
    /// The seed of the player's random choices.
    #[serde(default)]
    pub player_seed: Option<u64>,
    /// Time for the move, in milliseconds.
    #[serde(default)]
    pub movetime_ms: Option<u64>,
    /// Deepest iteration.
    #[serde(default)]
    pub depth: Option<u32>,
    /// Nodes or simulations.
    #[serde(default)]
    pub nodes: Option<u64>,
    /// A game record in the game's notation.
    #[serde(default)]
    pub record: Option<String>,
    /// A search's id (`/stop`).
    #[serde(default)]
    pub id: Option<u64>,
    /// A file under `--runs`.
    #[serde(default)]
    pub path: Option<String>,
    /// Which game of that file, from 0.
    #[serde(default)]
    pub index: Option<usize>,
    /// How many moves `/rank` answers.
    #[serde(default)]
    pub count: Option<usize>,
}

impl ApiRequest {
    pub(crate) fn game(&self) -> Result<GameName, ApiError> {
        let name = self
            .game
            .as_deref()
            .ok_or_else(|| ApiError::Bad("game: pijersi, abalone or chomp".into()))?;
        name.parse()
            .map_err(|e: pjlab_registry::UnknownGame| ApiError::Bad(e.to_string()))
    }

    pub(crate) fn at(&self) -> PositionRequest {
        PositionRequest {
            position: self.position.clone(),
            variant: self.variant.clone(),
            seed: self.seed,
            moves: self.moves.clone(),
        }
    }

    pub(crate) fn player(&self) -> Result<String, ApiError> {
        let spec = self.player.clone().unwrap_or_default();
        check_spec(&spec)?;
        Ok(spec.trim().to_string())
    }
}

/// Reads a JSON body: at most [`MAX_BODY`] bytes, sent as `application/json`.
pub async fn body(request: Request) -> Result<ApiRequest, ApiError> {
    let json = request
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim_start().starts_with("application/json"));
    if !json {
        return Err(ApiError::NotJson);
    }
    let bytes = axum::body::to_bytes(request.into_body(), MAX_BODY)
        .await
        .map_err(|_| ApiError::TooLarge(MAX_BODY))?;
    serde_json::from_slice(&bytes).map_err(|e| ApiError::Bad(format!("bad JSON: {e}")))
}
