//! Text forms of games and states (OpenSpiel's `Game.serialize`, `State.serialize` and
//! `deserialize_state`), what pickling and other processes use.
//!
//! - A game: `name(variant=...)` ([`game_string`]), read back by [`load_game_string`] (plain
//!   names too).
//! - A state: a header naming its format, its game, the actions applied since its start (its
//!   holder's history) and how many of them were player moves, then the state's own text
//!   ([`State::serialize`]):
//!
//! ```text
//! pjlab-state 1
//! game chomp(variant=3x4)
//! history 5 2
//! moves 2
//! 3x4:4,2,1:1
//! last 2 3x4:4,4,2:2
//! ```
//!
//! ```
//! use pjlab_registry::{load_game, serial};
//! let game = load_game("chomp", Some("3x4"))?;
//! let mut state = game.new_initial_state(0)?;
//! state.apply_action(5)?;
//! let text = serial::write_state(game.as_ref(), state.as_ref(), &[5], 1)?;
//! let (again, read) = serial::read_state(&text)?;
//! assert_eq!(again.variant(), "3x4");
//! assert_eq!((read.history, read.moves), (vec![5], 1));
//! assert_eq!(read.state.serialize()?, state.serialize()?);
//! # Ok::<(), pjlab_registry::Error>(())
//! ```

use crate::{Error, GameHandle, State, load_game};

/// The first line of a state's text.
pub const STATE_FORMAT: &str = "pjlab-state 1";

/// A game's text: `name(variant=...)`.
pub fn game_string(game: &dyn GameHandle) -> String {
    format!("{}(variant={})", game.name(), game.variant())
}

/// The game of a text [`game_string`] wrote, or of a plain name (`pijersi`, its default
/// variant); `name()` is the default variant too.
///
/// # Errors
/// [`Error::UnknownGame`], [`Error::UnknownVariant`], or [`Error::Argument`] for a text of
/// another shape.
pub fn load_game_string(text: &str) -> Result<Box<dyn GameHandle>, Error> {
    let text = text.trim();
    let Some((name, rest)) = text.split_once('(') else {
        return load_game(text, None);
    };
    let bad = || {
        Error::Argument(format!(
            "game {text:?}: expected a name, or name(variant=...)"
        ))
    };
    let inner = rest.strip_suffix(')').ok_or_else(bad)?.trim();
    if inner.is_empty() {
        return load_game(name, None);
    }
    let variant = inner.strip_prefix("variant=").ok_or_else(bad)?;
    load_game(name, Some(variant))
}

/// A state read back, with what its holder kept beside it.
#[derive(Debug)]
pub struct Serialized {
    /// The state.
    pub state: Box<dyn State>,
    /// The actions and chance outcomes applied since its start.
    pub history: Vec<usize>,
    /// How many of them were player moves (OpenSpiel's `MoveNumber`).
    pub moves: usize,
}

/// The text of `state`, a state of `game`, whose holder applied `history` (of which `moves`
/// were player moves) since its start.
///
/// # Errors
/// As [`State::serialize`].
pub fn write_state(
    game: &dyn GameHandle,
    state: &dyn State,
    history: &[usize],
    moves: usize,
) -> Result<String, Error> {
    let body = state.serialize()?;
    let history: Vec<String> = history.iter().map(ToString::to_string).collect();
    Ok(format!(
        "{STATE_FORMAT}\ngame {}\nhistory {}\nmoves {moves}\n{body}",
        game_string(game),
        history.join(" ")
    ))
}

/// The header of a state's text: its game's text, history, move count and the state's own text.
struct Header<'a> {
    game: &'a str,
    history: Vec<usize>,
    moves: usize,
    body: &'a str,
}

fn header(text: &str) -> Result<Header<'_>, Error> {
    let bad = |why: &str| Error::Argument(format!("state text: {why}"));
    let mut parts = text.splitn(5, '\n');
    let mut line = |key: &str| {
        parts
            .next()
            .map(|l| l.trim_end_matches('\r'))
            .and_then(|l| l.strip_prefix(key))
            .ok_or_else(|| bad(&format!("expected a line `{key}...`")))
    };
    if !line(STATE_FORMAT)?.is_empty() {
        return Err(bad(&format!("the first line must be `{STATE_FORMAT}`")));
    }
    let game = line("game ")?.trim();
    let history = line("history")?
        .split_whitespace()
        .map(|a| a.parse().map_err(|_| bad(&format!("history entry {a:?}"))))
        .collect::<Result<Vec<usize>, Error>>()?;
    let moves = line("moves ")?;
    let moves = moves
        .trim()
        .parse()
        .map_err(|_| bad(&format!("moves {moves:?}")))?;
    let body = parts.next().unwrap_or("");
    Ok(Header {
        game,
        history,
        moves,
        body,
    })
}

/// A state's text read back with its game.
///
/// # Errors
/// [`Error::Argument`] for a text [`write_state`] did not write, and the game's errors.
pub fn read_state(text: &str) -> Result<(Box<dyn GameHandle>, Serialized), Error> {
    let head = header(text)?;
    let game = load_game_string(head.game)?;
    let state = game.deserialize_state(head.body)?;
    Ok((
        game,
        Serialized {
            state,
            history: head.history,
            moves: head.moves,
        },
    ))
}

/// A state's text read back by `game`, which must be the state's game and variant.
///
/// # Errors
/// [`Error::Argument`] for a text of another game or variant, or that [`write_state`] did not
/// write.
pub fn read_state_of(game: &dyn GameHandle, text: &str) -> Result<Serialized, Error> {
    let head = header(text)?;
    let expected = game_string(game);
    if head.game != expected {
        return Err(Error::Argument(format!(
            "state text of {}, not of {expected}",
            head.game
        )));
    }
    Ok(Serialized {
        state: game.deserialize_state(head.body)?,
        history: head.history,
        moves: head.moves,
    })
}
