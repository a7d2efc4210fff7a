//! A game's evaluation weights from a TOML file: the document parsed into the game's config (its
//! one table, unknown keys refused by the config's own `deny_unknown_fields`).

use std::path::Path;

use serde::de::DeserializeOwned;

/// A weights file that cannot be read or parsed: where, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad evaluation config {path}: {message}")]
pub struct WeightsError {
    /// The file (`<text>` for a document given as text).
    pub path: String,
    /// What is wrong.
    pub message: String,
}

/// Reads `T` from the TOML file at `path`.
///
/// # Errors
/// [`WeightsError`] when the file cannot be read, is not TOML, has unknown keys or a value of
/// the wrong type.
pub fn read<T: DeserializeOwned>(path: &Path) -> Result<T, WeightsError> {
    let name = path.display().to_string();
    match std::fs::read_to_string(path) {
        Ok(text) => parse(&text, name),
        Err(e) => Err(WeightsError {
            path: name,
            message: e.to_string(),
        }),
    }
}

/// The evaluation a kit's [`GameKit::evaluation`](crate::GameKit::evaluation) gives: `E`'s
/// default without a file, else `C` read from the file and made into one by `make`.
///
/// # Errors
/// As [`read`].
pub fn evaluation<C: DeserializeOwned, E: Default>(
    weights: Option<&Path>,
    make: impl FnOnce(C) -> E,
) -> Result<E, WeightsError> {
    Ok(match weights {
        None => E::default(),
        Some(path) => make(read::<C>(path)?),
    })
}

/// Parses `T` from a TOML document; `origin` names it in the error.
///
/// # Errors
/// As [`read`], but for reading the file.
pub fn parse<T: DeserializeOwned>(text: &str, origin: String) -> Result<T, WeightsError> {
    toml::from_str(text).map_err(|e| WeightsError {
        path: origin,
        message: e.message().to_string(),
    })
}
