//! What a Chifoumi player knows, as text and tensors: its observation in words
//! ([`observation_text`]) and its information state, the sequence of its observations
//! ([`write_information_state`]). Both are functions of `pjlab_chifoumi::Observation` alone, so
//! they never hold what the player cannot see.

use std::fmt::Write;

use pjlab_chifoumi::{Cell, MatchInfo, OFF_GRID, Object, Observation};

/// Values after the observation rows of an information-state tensor: the duel's draws, the
/// player's own one-hot (F, P, C) then the opponent's.
pub(crate) const INFO_DUEL_LEN: usize = 6;

/// A cell as `row,col` (from 0), as the chance outcomes' texts write it.
fn cell_text(cell: Cell) -> String {
    format!("{},{}", cell.row, cell.col)
}

/// The window's code as one character: `.` empty, `F` `P` `C` an object, `#` a wall, `~` off
/// the grid.
fn code_char(code: u8) -> char {
    match code {
        0 => '.',
        c @ 1..=3 => Object::from_index(usize::from(c - 1)).map_or('?', Object::letter),
        c if c == OFF_GRID => '~',
        _ => '#',
    }
}

/// Everything `obs` holds, in one line: the turn and who moves, the player's cell and bag, the
/// opponent's cell when in view, the window row by row (`.` empty, `F` `P` `C` objects, `#` a
/// wall, `~` off the grid; the player at its centre), the duel's draws once fought, and the
/// match so far when this is not its first game.
///
/// `turn 3/200, to move: you, at 4,7, bag F1 P0 C2, opponent unseen, window ...../..F../...`
pub fn observation_text(obs: &Observation) -> String {
    let mut text = String::new();
    let mover = if obs.to_move == obs.player {
        "you"
    } else {
        "opponent"
    };
    let [f, p, c] = obs.bag.counts();
    let _ = write!(
        text,
        "turn {}/{}, to move: {mover}, at {}, bag F{f} P{p} C{c}, opponent {}",
        obs.turn,
        2 * u32::from(obs.max_rounds),
        cell_text(obs.position),
        obs.opponent.map_or("unseen".into(), cell_text),
    );
    let side = obs.side();
    let rows: Vec<String> = (0..side)
        .map(|r| {
            (0..side)
                .map(|col| code_char(obs.window[r * side + col]))
                .collect()
        })
        .collect();
    let _ = write!(text, ", window {}", rows.join("/"));
    if let Some(duel) = obs.duel {
        let mine = usize::from(duel.target == obs.player);
        let _ = write!(
            text,
            ", duel: you drew {}, opponent drew {}",
            duel.draws[mine],
            duel.draws[1 - mine]
        );
    }
    if obs.over {
        text.push_str(", game over");
    }
    if obs.info != MatchInfo::default() {
        let _ = write!(text, ", match {:?}", obs.info);
    }
    text
}

/// Writes the information state of `looks` (a player's observations, oldest first) into `out`:
/// row `k` of `row_len` values is the `k`-th observation's tensor (rows past the last are 0),
/// then [`INFO_DUEL_LEN`] values: the player's own draw and the opponent's, one-hot, once the
/// duel is fought. Observations beyond the rows `out` holds are left out.
pub(crate) fn write_information_state(looks: &[Observation], row_len: usize, out: &mut [f32]) {
    out.fill(0.0);
    let rows_len = out.len().saturating_sub(INFO_DUEL_LEN);
    for (obs, row) in looks.iter().zip(out[..rows_len].chunks_exact_mut(row_len)) {
        obs.write_tensor(row);
    }
    if let Some(duel) = looks
        .last()
        .and_then(|obs| obs.duel.map(|d| (obs.player, d)))
    {
        let (player, duel) = duel;
        let mine = usize::from(duel.target == player);
        let tail = &mut out[rows_len..];
        tail[duel.draws[mine].index()] = 1.0;
        tail[3 + duel.draws[1 - mine].index()] = 1.0;
    }
}
