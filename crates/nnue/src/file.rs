//! A network's file: one JSON document, `{"format": "pjlab-nnue", "version": 1, "card": ...,
//! "network": ...}`, exact (floats written to round-trip), with its [`Card`] also written
//! beside it as `FILE.card.json` for readers that want the card alone.

use std::path::{Path, PathBuf};

use pjlab_core::EncoderId;
use serde::{Deserialize, Serialize};

use crate::{Error, Network};

/// The format's name in the file.
pub const FORMAT: &str = "pjlab-nnue";
/// The version of the format this crate writes and reads.
pub const VERSION: u32 = 1;

/// What a network is and how it was made.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Card {
    /// The game (`pijersi`).
    pub game: String,
    /// The feature set it reads (name and version).
    pub features: EncoderId,
    /// Centi-units of the evaluation per unit of the output logit.
    pub scale: f32,
    /// Whether the network's score is added to the game's hand-written evaluation (a network
    /// trained as a correction to it) rather than standing alone.
    #[serde(default)]
    pub residual: bool,
    /// How it was trained: data, settings, losses (free form, for the reader).
    pub training: serde_json::Value,
}

#[derive(Serialize, Deserialize)]
struct Document {
    format: String,
    version: u32,
    card: Card,
    network: Network,
}

/// Where the card of the network file `path` is written: `path` with `.card.json` added.
pub fn card_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".card.json");
    PathBuf::from(name)
}

/// Writes `network` and its `card` to `path`, and the card alone beside it.
///
/// # Errors
/// [`Error::Io`] when a file cannot be written.
pub fn save(path: &Path, card: &Card, network: &Network) -> Result<(), Error> {
    let io = |p: &Path| {
        let p = p.display().to_string();
        move |source| Error::Io { path: p, source }
    };
    let document = Document {
        format: FORMAT.into(),
        version: VERSION,
        card: card.clone(),
        network: network.clone(),
    };
    let text = serde_json::to_string(&document).map_err(|e| Error::Format {
        path: path.display().to_string(),
        message: e.to_string(),
    })?;
    std::fs::write(path, text).map_err(io(path))?;
    let card_file = card_path(path);
    let card_text = serde_json::to_string_pretty(card).map_err(|e| Error::Format {
        path: card_file.display().to_string(),
        message: e.to_string(),
    })?;
    std::fs::write(&card_file, card_text + "\n").map_err(io(&card_file))
}

/// Reads a network and its card from `path`.
///
/// # Errors
/// [`Error::Io`] when it cannot be read, [`Error::Format`] when it is not a network file of this
/// version or its weights do not match its sizes.
pub fn load(path: &Path) -> Result<(Card, Network), Error> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|source| Error::Io {
        path: name.clone(),
        source,
    })?;
    let bad = |message: String| Error::Format {
        path: name.clone(),
        message,
    };
    let document: Document =
        serde_json::from_str(&text).map_err(|e| bad(format!("not a network file: {e}")))?;
    if document.format != FORMAT || document.version != VERSION {
        return Err(bad(format!(
            "format {} version {}, this build reads {FORMAT} version {VERSION}",
            document.format, document.version
        )));
    }
    if !document.network.is_consistent() {
        return Err(bad("weights do not match the sizes".into()));
    }
    if !(document.card.scale.is_finite() && document.card.scale > 0.0) {
        return Err(bad("the card's scale must be a positive number".into()));
    }
    Ok((document.card, document.network))
}
