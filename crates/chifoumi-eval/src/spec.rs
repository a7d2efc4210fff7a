//! [`RunSpec`]: what a run plays (players, matches, seed, rules), kept as JSON in its records so
//! that `--resume` and `pjlab report` read it back; and its schedule of [`MatchSpec`]s, on the
//! schedules every imperfect-information game shares ([`pjlab_imperfect::schedule`]).

pub use pjlab_imperfect::{MatchSpec, labels, spec_of};

use pjlab_chifoumi::{ArenaRules, Rules};
use pjlab_imperfect::schedule;
use serde::{Deserialize, Serialize};

use crate::Error;

/// The kind of run: the run directory's own ([`pjlab_run::dir::RunKind`], the name its
/// manifest and the records' footer give), of which a Chifoumi run is a `Match` (two players),
/// a `Tournament` (every pair) or an `Arena` (every player on one grid).
pub use pjlab_run::dir::RunKind;

/// What an arena run adds to the rules.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArenaSpec {
    /// Length of an arena (turns, one player's action each).
    pub turns: u32,
    /// How long a duel's loser sits out (turns).
    pub sit_out: u32,
}

/// What a run plays; its schedule is a function of it alone.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunSpec {
    /// Match, tournament or arena.
    pub kind: RunKind,
    /// The players' labels: their specs, with `#2`, `#3` appended to repeated ones.
    pub players: Vec<String>,
    /// Matches per pair of players (a match or tournament), or arenas (an arena run).
    pub matches: u32,
    /// The run's seed: every match's seed derives from it.
    pub seed: u64,
    /// The rules of every game (the map as its text).
    pub rules: Rules,
    /// The arena's length and sit-out (arena runs only).
    pub arena: Option<ArenaSpec>,
    /// One provenance per invocation (the first run and every resume).
    #[serde(default)]
    pub sessions: Vec<pjlab_core::Provenance>,
}

impl RunSpec {
    /// The arena rules of an arena run.
    pub fn arena_rules(&self) -> ArenaRules {
        let arena = self.arena.unwrap_or(ArenaSpec {
            turns: ArenaRules::default().turns,
            sit_out: ArenaRules::default().sit_out,
        });
        ArenaRules {
            rules: self.rules.clone(),
            players: self.players.len() as u8,
            turns: arena.turns,
            sit_out: arena.sit_out,
        }
    }

    /// The pairs of player indices that meet: one for a match, every pair for a tournament.
    pub fn pairs(&self) -> Vec<(usize, usize)> {
        schedule::pairs(self.players.len())
    }

    /// Every match of the run, in order.
    ///
    /// Matches and tournaments: for each pair, `matches` matches; consecutive matches (2k,
    /// 2k+1) share a seed and swap seats, so both players meet the same first deal from both
    /// seats ([`schedule::paired`]). Arenas: arena k seats the players rotated by k places
    /// ([`schedule::rotated`]).
    pub fn schedule(&self) -> Vec<MatchSpec> {
        if self.kind == RunKind::Arena {
            schedule::rotated(self.players.len(), self.matches, self.seed)
        } else {
            schedule::paired(&self.pairs(), self.matches, self.seed)
        }
    }

    /// Checks the numbers a run needs.
    ///
    /// # Errors
    /// [`Error::Players`] for too few or too many players, [`Error::NotChifoumi`] for a kind
    /// of run that is none of Chifoumi's, [`Error::NoMatches`], [`Error::Game`] for rules that
    /// do not check.
    pub fn check(&self) -> Result<(), Error> {
        let n = self.players.len();
        let fits = match self.kind {
            RunKind::Match => n == 2,
            RunKind::Tournament => n >= 2,
            RunKind::Arena => (2..=pjlab_chifoumi::MAX_PLAYERS).contains(&n),
            RunKind::Training | RunKind::Balance => return Err(Error::NotChifoumi(self.kind)),
            _ => true,
        };
        if !fits {
            return Err(Error::Players {
                kind: self.kind,
                found: n,
            });
        }
        if self.matches == 0 {
            return Err(Error::NoMatches);
        }
        match self.kind {
            RunKind::Arena => {
                let rules = self.arena_rules();
                let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(0);
                pjlab_chifoumi::Arena::new(&rules, &mut rng)?;
            }
            _ => {
                pjlab_chifoumi::Match::new(&self.rules, 0)?;
            }
        }
        Ok(())
    }
}
