//! Which games a run plays: setups, colours and openings, all derived from the run's options so
//! that a run can be resumed (and reproduced) from them alone.

use pjlab_core::{GameKit, SetupVariant};
use serde::{Deserialize, Serialize};

use crate::Error;
use crate::fault::SpecFault;
use crate::shard::Shard;

pub use crate::opening::{Opening, random_opening};
pub use pjlab_run::dir::RunKind;

/// A player in a run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// Its name in reports (and the `network` column: `<white> vs <black>`).
    pub label: String,
    /// The agent spec it is built from.
    pub spec: String,
}

/// Everything that decides a run's games; kept in its Parquet file so `--resume` needs nothing
/// else.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunSpec {
    /// The game, by its registry name (files written before games had names are Pijersi's).
    #[serde(default = "pijersi")]
    pub game: String,
    /// Match, tournament or balance.
    pub kind: RunKind,
    /// The players.
    pub players: Vec<Player>,
    /// Setup variants, used in turn.
    pub variants: Vec<String>,
    /// Games: in all (match), per pair of players (tournament) or per variant (balance).
    pub games: u64,
    /// Seed of the random setups and the openings.
    pub seed: u64,
    /// Random plies played before the agents take over (both games of a colour pair share
    /// them); they are part of each game's recorded moves.
    pub opening_plies: u32,
    /// If set, opening plies are drawn only among moves within this many centi-units of the
    /// best by a shallow search (see [`Opening`]); unset, uniformly among all legal moves.
    #[serde(default)]
    pub opening_margin: Option<i32>,
    /// Plies after which a game stops as a draw (`max-plies`).
    pub max_plies: u32,
    /// SPRT of the first player against the second, as (elo0, elo1, alpha, beta), if any.
    pub sprt: Option<crate::stats::Sprt>,
    /// Per-setup tables and plots in the report (enumerable variants of at most 36 setups).
    #[serde(default)]
    pub per_setup: bool,
    /// Every agent's time budget a move, in milliseconds, when the run gives them one (the
    /// players' specs then carry it); moves over [`overrun_threshold`] are counted.
    #[serde(default)]
    pub time_per_move_ms: Option<f64>,
    /// If set, this run plays only this part of the schedule (see [`RunSpec::shard_schedule`]);
    /// [`crate::shard::merge`] joins the parts into the whole run, which has none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    /// The command line that started the run.
    pub command: String,
    /// Every invocation that played the run's games (the first, then each resume): the build,
    /// machine and command line (empty in files written before they were kept).
    #[serde(default)]
    pub sessions: Vec<pjlab_core::Provenance>,
    /// For a pool of replicates (`pjlab report --pool`, see [`crate::pool`]): the seed of each
    /// replicate, in the order their games follow one another; empty for a run played as one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pooled_seeds: Vec<u64>,
}

/// A move counts as an overrun of a time budget `budget` when it takes longer than the budget
/// plus a tenth of it, and at least 5 ms more (agents check the time between nodes, so they
/// overshoot by a node or a batch).
pub fn overrun_threshold(budget: std::time::Duration) -> std::time::Duration {
    budget + (budget / 10).max(std::time::Duration::from_millis(5))
}

fn pijersi() -> String {
    "pijersi".into()
}

/// One scheduled game of a game whose setup variants are `V`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSpec<V> {
    /// Its id (0, 1, ... in schedule order; the `game_id` column).
    pub id: u64,
    /// Colour pair it belongs to (match and tournament), or its own id (balance).
    pub pair: u64,
    /// The setup variant.
    pub variant: V,
    /// For enumerable variants (Pijersi's classic, pijersi-24, ..., Abalone's starts) the
    /// setup's index in enumeration order, so that setups are covered evenly; for random ones
    /// the seed given to [`SetupVariant::start`]. This is the `setup_seed` column.
    pub setup: u64,
    /// Seed of the random opening plies.
    pub opening_seed: u64,
    /// The player of the first side (White in Pijersi, Black in Abalone): every seat of that
    /// side is one of its agents.
    pub first: usize,
    /// The player of the second side.
    pub second: usize,
}

impl<V: SetupVariant> GameSpec<V> {
    /// The starting position (before the opening plies).
    pub fn start(&self) -> V::Game {
        match self.variant.count() {
            Some(n) => self.variant.nth(self.setup % n),
            None => self.variant.start(self.setup),
        }
    }

    /// The player of a side.
    pub fn player(&self, side: pjlab_core::Side) -> usize {
        match side {
            pjlab_core::Side::First => self.first,
            pjlab_core::Side::Second => self.second,
        }
    }
}

/// Parses a comma-separated list of the variant names of `K`'s game.
///
/// # Errors
/// [`Error::Game`] on an unknown name, [`Error::Spec`] for an empty list.
pub fn parse_variants<K: GameKit>(list: &str) -> Result<Vec<K::Variant>, Error> {
    let variants: Vec<K::Variant> = list
        .split(',')
        .map(str::trim)
        .filter(|v| !v.is_empty())
        // The kit's error names the known variants.
        .map(|v| K::variant(v).map_err(Error::Game))
        .collect::<Result<_, _>>()?;
    if variants.is_empty() {
        return Err(SpecFault::NoVariant.into());
    }
    Ok(variants)
}

impl RunSpec {
    /// The run's variants, parsed for `K`'s game.
    ///
    /// # Errors
    /// [`Error::Game`] on an unknown name, [`Error::Spec`] when the run is of another game.
    pub fn parsed_variants<K: GameKit>(&self) -> Result<Vec<K::Variant>, Error> {
        if self.game != K::INFO.name {
            return Err(SpecFault::OtherGame {
                run: self.game.clone(),
                kit: K::INFO.name,
            }
            .into());
        }
        parse_variants::<K>(&self.variants.join(","))
    }

    /// The run's games, in the order they are handed to workers (interleaved so that a run cut
    /// short still has every variant and every pairing about equally). For a pool of replicates
    /// ([`RunSpec::pooled_seeds`]), each replicate's games with its seed, one after another.
    ///
    /// # Errors
    /// [`Error::Spec`] when the spec is inconsistent (players, variants, counts).
    pub fn schedule<K: GameKit>(&self) -> Result<Vec<GameSpec<K::Variant>>, Error> {
        if self.pooled_seeds.is_empty() {
            return self.schedule_of_one::<K>();
        }
        // A pool: each replicate's schedule with its seed, one after another.
        let mut all: Vec<GameSpec<K::Variant>> = Vec::new();
        let mut next_pair = 0;
        for &seed in &self.pooled_seeds {
            let replicate = RunSpec {
                seed,
                pooled_seeds: Vec::new(),
                ..self.clone()
            };
            let next_id = all.len() as u64;
            let games = replicate.schedule_of_one::<K>()?;
            let pairs = games.last().map_or(0, |g| g.pair + 1);
            all.extend(games.into_iter().map(|mut g| {
                g.id += next_id;
                g.pair += next_pair;
                g
            }));
            next_pair += pairs;
        }
        Ok(all)
    }

    /// [`RunSpec::schedule`] of a run played as one (not a pool).
    fn schedule_of_one<K: GameKit>(&self) -> Result<Vec<GameSpec<K::Variant>>, Error> {
        let variants = self.parsed_variants::<K>()?;
        let players = self.players.len();
        let need = match self.kind {
            RunKind::Match | RunKind::Tournament => 2,
            RunKind::Balance => 1,
            other => {
                return Err(SpecFault::NotArena(other).into());
            }
        };
        if players < need || (self.kind == RunKind::Match && players != 2) {
            return Err(SpecFault::Players {
                kind: self.kind,
                got: players,
            }
            .into());
        }
        if self.games == 0 {
            return Err(SpecFault::NoGames.into());
        }
        // Each variant has its own setup counter: enumerable ones walk their setups in order,
        // random ones draw seeds.
        let mut used = vec![0u64; variants.len()];
        let mut next_setup = |v: usize| {
            let k = used[v];
            used[v] += 1;
            match variants[v].count() {
                Some(_) => k,
                None => pjlab_core::seed::stream(self.seed, 1 + v as u64, k),
            }
        };
        let mut out = Vec::new();
        let mut push = |pair: u64, v: usize, setup: u64, first: usize, second: usize| {
            out.push(GameSpec {
                id: out.len() as u64,
                pair,
                variant: variants[v],
                setup,
                opening_seed: pjlab_core::seed::stream(self.seed, 0, pair),
                first,
                second,
            });
        };
        match self.kind {
            RunKind::Match | RunKind::Tournament => {
                let pairings: Vec<(usize, usize)> = (0..players)
                    .flat_map(|i| (i + 1..players).map(move |j| (i, j)))
                    .collect();
                let rounds = self.games.div_ceil(2);
                let mut pair = 0;
                for round in 0..rounds {
                    for &(i, j) in &pairings {
                        let v = (round % variants.len() as u64) as usize;
                        let setup = next_setup(v);
                        push(pair, v, setup, i, j);
                        if 2 * round + 1 < self.games || self.kind == RunKind::Tournament {
                            push(pair, v, setup, j, i);
                        }
                        pair += 1;
                    }
                }
            }
            _ => {
                let total = self.games * variants.len() as u64;
                for k in 0..total {
                    let v = (k % variants.len() as u64) as usize;
                    let setup = next_setup(v);
                    push(k, v, setup, 0, 0);
                }
            }
        }
        Ok(out)
    }

    /// The games this run plays: the whole [`RunSpec::schedule`], or for a shard `K/N` its part,
    /// the games of the colour pairs `p` with `p % N == K - 1` (in balance each game is its own
    /// pair), in schedule order.
    ///
    /// # Errors
    /// As [`RunSpec::schedule`]; and [`Error::Spec`] for a shard of a run with an SPRT (a
    /// sequential test decides on the games in order, which shards cannot share), or of a run
    /// with fewer colour pairs than shards (some would play nothing).
    pub fn shard_schedule<K: GameKit>(&self) -> Result<Vec<GameSpec<K::Variant>>, Error> {
        let mut games = self.schedule::<K>()?;
        let Some(shard) = self.shard else {
            return Ok(games);
        };
        if self.sprt.is_some() {
            return Err(SpecFault::ShardOfSprt.into());
        }
        let pairs = games.last().map_or(0, |g| g.pair + 1);
        if pairs < u64::from(shard.count()) {
            let what = match self.kind {
                RunKind::Match | RunKind::Tournament => "colour pairs",
                _ => "games",
            };
            return Err(SpecFault::TooManyShards {
                shard,
                units: pairs,
                what,
            }
            .into());
        }
        games.retain(|g| shard.holds(g.pair));
        Ok(games)
    }
}

#[cfg(test)]
mod tests;
