//! The generic test suite every game runs in one line (after OpenSpiel's `RandomSimTest`).
//!
//! [`check_random_playouts`] plays seeded random games and, at every position, checks each
//! invariant documented on [`Game`]: legal moves unique, deterministic and all playable; terminal
//! positions without moves; checked and unchecked play agreeing; clone independence; move and
//! position text round trips; the action index bijection; hash consistency; illegal moves refused
//! without changing the position. It panics with the position's text on the first violation, so
//! it belongs in tests.
//!
//! ```
//! # // A two-pile subtraction game, small enough to show the one-line call.
//! # use pjlab_core::{Game, Outcome, Side, testkit};
//! # #[derive(Clone, Debug, PartialEq, Eq)]
//! # struct Nim { left: u8, first_to_move: bool }
//! # #[derive(Debug)] struct Bad;
//! # impl std::fmt::Display for Bad { fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result { f.write_str("bad") } }
//! # impl std::error::Error for Bad {}
//! # impl Game for Nim {
//! #   type Move = u8; type Error = Bad;
//! #   fn name(&self) -> &'static str { "nim" }
//! #   fn side_to_move(&self) -> Side { if self.first_to_move { Side::First } else { Side::Second } }
//! #   fn legal_moves(&self, m: &mut Vec<u8>) { m.clear(); m.extend((1..=3).filter(|&k| k <= self.left)); }
//! #   fn play(&mut self, k: u8) -> Result<(), Bad> { if (1..=3).contains(&k) && k <= self.left { self.play_unchecked(k); Ok(()) } else { Err(Bad) } }
//! #   fn play_unchecked(&mut self, k: u8) { self.left -= k; self.first_to_move = !self.first_to_move; }
//! #   fn outcome(&self) -> Option<Outcome> { (self.left == 0).then(|| Outcome::Win(self.side_to_move().other())) }
//! #   fn hash(&self) -> u64 { (self.left as u64) << 1 | self.first_to_move as u64 }
//! #   fn num_actions(&self) -> usize { 3 }
//! #   fn action_index(&self, k: u8) -> usize { k as usize - 1 }
//! #   fn action_from_index(&self, i: usize) -> Option<u8> { let k = i as u8 + 1; (i < 3 && k <= self.left).then_some(k) }
//! #   fn move_to_text(&self, k: u8) -> String { k.to_string() }
//! #   fn parse_move(&self, t: &str) -> Result<u8, Bad> { t.parse().map_err(|_| Bad) }
//! #   fn to_text(&self) -> String { format!("{} {}", self.left, if self.first_to_move { 1 } else { 2 }) }
//! #   fn from_text(t: &str) -> Result<Self, Bad> { let (a, b) = t.split_once(' ').ok_or(Bad)?; Ok(Nim { left: a.parse().map_err(|_| Bad)?, first_to_move: b == "1" }) }
//! # }
//! let report = testkit::check_random_playouts(&Nim { left: 21, first_to_move: true }, &testkit::PlayoutConfig::default());
//! assert!(report.positions > 0);
//! ```

use std::collections::{HashMap, HashSet};

use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::Game;

/// How many random games to play and how.
#[derive(Clone, Debug)]
pub struct PlayoutConfig {
    /// Number of random games.
    pub games: usize,
    /// Seed of the move choices; the same seed checks the same positions.
    pub seed: u64,
    /// A game stops after this many plies even if it is not over.
    pub max_plies: usize,
    /// Random indices probed per position to check that `action_from_index` never returns a move
    /// that is not legal.
    pub index_probes: usize,
}

impl Default for PlayoutConfig {
    fn default() -> Self {
        PlayoutConfig {
            games: 20,
            seed: 0,
            max_plies: 400,
            index_probes: 8,
        }
    }
}

/// What a run of [`check_random_playouts`] covered.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayoutReport {
    /// Positions checked.
    pub positions: usize,
    /// Legal moves checked (each one played on a clone).
    pub moves: usize,
    /// Games that reached a finished position (the others stopped at `max_plies`).
    pub finished_games: usize,
    /// Distinct position texts seen.
    pub distinct_positions: usize,
}

/// Plays seeded random games from `start` and checks every [`Game`] invariant at every position.
///
/// # Panics
/// On the first violated invariant, with the position's text and the move involved.
pub fn check_random_playouts<G: Game>(start: &G, config: &PlayoutConfig) -> PlayoutReport {
    let mut rng = ChaCha8Rng::seed_from_u64(config.seed);
    let mut report = PlayoutReport::default();
    let mut hash_of_text: HashMap<String, u64> = HashMap::new();
    let mut moves = Vec::new();
    let mut again = Vec::new();
    for _ in 0..config.games {
        let mut game = start.clone();
        let mut previous_moves: Vec<G::Move> = Vec::new();
        for _ in 0..config.max_plies {
            check_position(
                &game,
                &mut moves,
                &mut again,
                &previous_moves,
                &mut rng,
                config,
            );
            let text = game.to_text();
            let known = *hash_of_text.entry(text.clone()).or_insert(game.hash());
            assert_eq!(
                known,
                game.hash(),
                "two equal positions with different hashes: {text}"
            );
            report.positions += 1;
            report.moves += moves.len();
            let Some(&mv) = moves.choose(&mut rng) else {
                report.finished_games += 1;
                break;
            };
            previous_moves.clone_from(&moves);
            game.play(mv)
                .unwrap_or_else(|e| panic!("legal move refused in {text}: {e}"));
        }
    }
    report.distinct_positions = hash_of_text.len();
    report
}

fn check_position<G: Game>(
    game: &G,
    moves: &mut Vec<G::Move>,
    again: &mut Vec<G::Move>,
    previous_moves: &[G::Move],
    rng: &mut ChaCha8Rng,
    config: &PlayoutConfig,
) {
    let text = game.to_text();
    let ctx = || format!("in position {text}");

    // 1. Text round trip and hash.
    let parsed = G::from_text(&text).unwrap_or_else(|e| panic!("own text refused: {e} {}", ctx()));
    assert_eq!(
        &parsed,
        game,
        "text round trip changed the position {}",
        ctx()
    );
    assert_eq!(
        parsed.hash(),
        game.hash(),
        "text round trip changed the hash {}",
        ctx()
    );
    assert_eq!(
        game.clone().hash(),
        game.hash(),
        "clone changed the hash {}",
        ctx()
    );

    // 2. Legal moves: deterministic, unique, empty exactly at the end.
    game.legal_moves(moves);
    game.legal_moves(again);
    assert_eq!(moves, again, "legal moves not deterministic {}", ctx());
    let unique: HashSet<G::Move> = moves.iter().copied().collect();
    assert_eq!(unique.len(), moves.len(), "duplicate legal moves {}", ctx());
    assert_eq!(
        moves.is_empty(),
        game.outcome().is_some(),
        "legal moves empty ({}) but outcome is {:?} {}",
        moves.is_empty(),
        game.outcome(),
        ctx()
    );

    // 3. Every move: playable, checked == unchecked, clone independence, text and index.
    let mut indices = HashSet::new();
    for &mv in moves.iter() {
        let mut checked = game.clone();
        checked
            .play(mv)
            .unwrap_or_else(|e| panic!("legal move {mv:?} refused: {e} {}", ctx()));
        let mut unchecked = game.clone();
        unchecked.play_unchecked(mv);
        assert_eq!(
            checked,
            unchecked,
            "play and play_unchecked differ on {mv:?} {}",
            ctx()
        );
        assert_eq!(
            game.to_text(),
            text,
            "playing on a clone changed the original {}",
            ctx()
        );
        assert_ne!(
            checked.side_to_move(),
            game.side_to_move(),
            "side to move unchanged after {mv:?} {}",
            ctx()
        );
        let mv_text = game.move_to_text(mv);
        let back = game
            .parse_move(&mv_text)
            .unwrap_or_else(|e| panic!("own move text {mv_text:?} refused: {e} {}", ctx()));
        assert_eq!(back, mv, "move text round trip of {mv_text:?} {}", ctx());
        let index = game.action_index(mv);
        assert!(
            index < game.num_actions(),
            "action index {index} out of range {}",
            ctx()
        );
        assert!(
            indices.insert(index),
            "two legal moves share action index {index} {}",
            ctx()
        );
        assert_eq!(
            game.action_from_index(index),
            Some(mv),
            "index {index} round trip {}",
            ctx()
        );
    }

    // 4. Indices that name no legal move give nothing; illegal moves are refused unchanged.
    for _ in 0..config.index_probes {
        let index = rng.random_range(0..game.num_actions());
        if let Some(mv) = game.action_from_index(index) {
            assert!(
                unique.contains(&mv),
                "index {index} gives illegal {mv:?} {}",
                ctx()
            );
        }
    }
    for &mv in previous_moves
        .iter()
        .filter(|mv| !unique.contains(mv))
        .take(16)
    {
        let mut copy = game.clone();
        assert!(
            copy.play(mv).is_err(),
            "illegal move {mv:?} accepted {}",
            ctx()
        );
        assert_eq!(
            &copy,
            game,
            "refused move {mv:?} changed the position {}",
            ctx()
        );
    }
}
