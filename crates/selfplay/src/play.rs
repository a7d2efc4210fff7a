//! Lock-step self-play: many games per worker, one evaluator call per simulation step.

use pjlab_core::{Game, Outcome, Setups, Side};
use pjlab_mcts::{Budget, Config, Evaluator, GumbelConfig, Mcts, drive_lockstep};
use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// How self-play games are searched and played. Every key has a default; see
/// `configs/README.md` for the TOML form.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SelfPlayConfig {
    /// Gumbel root search (true, the default) or PUCT with Dirichlet noise (false).
    pub gumbel: bool,
    /// Simulations of a full search, whose result is a policy target.
    pub simulations: u32,
    /// Simulations of a cheap search (playout cap randomisation): the move is played but not
    /// used as a policy target.
    pub cheap_simulations: u32,
    /// Share of moves (0..=1) that get a full search.
    pub full_search_share: f64,
    /// Moves of the first `temperature_plies` plies are sampled from the search policy raised to
    /// `1 / temperature`; later moves are the search's choice.
    pub temperature: f32,
    /// See `temperature`.
    pub temperature_plies: u32,
    /// A side resigns when its search value (-1..1) stays below `-resign_threshold` for
    /// `resign_after` of its moves in a row. Above 1 disables resignation.
    pub resign_threshold: f32,
    /// See `resign_threshold`.
    pub resign_after: u32,
    /// Share of games (0..=1) played out without resignation, to measure wrong resignations.
    pub playout_share: f64,
    /// Games longer than this many plies are stopped and scored as draws.
    pub max_plies: u32,
    /// Games played at once by one worker (the evaluator's batch is about this large).
    pub games_in_flight: usize,
    /// Value leaves with a move that wins at once as won, without the network
    /// ([`pjlab_mcts::Decisive`]); also used by the evaluation player.
    pub decisive: bool,
}

impl Default for SelfPlayConfig {
    fn default() -> Self {
        SelfPlayConfig {
            gumbel: true,
            simulations: 64,
            cheap_simulations: 16,
            full_search_share: 0.25,
            temperature: 1.0,
            temperature_plies: 8,
            resign_threshold: 0.9,
            resign_after: 3,
            playout_share: 0.2,
            max_plies: 400,
            games_in_flight: 32,
            decisive: true,
        }
    }
}

impl SelfPlayConfig {
    /// The search configuration these settings imply.
    pub fn search_config(&self) -> Config {
        let mut config = Config::default();
        if self.gumbel {
            config.gumbel = Some(GumbelConfig::default());
            config.root_noise = None;
        } else {
            config.gumbel = None;
            config.root_noise = Some(pjlab_mcts::RootNoise {
                alpha: 0.3,
                fraction: 0.25,
            });
        }
        config
    }
}

/// How a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Termination {
    /// By the rules (a win or the draw rule).
    Rules,
    /// A side resigned.
    Resigned,
    /// Stopped at `max_plies`, scored as a draw.
    MaxPlies,
}

impl Termination {
    /// The name written into records.
    pub fn name(self) -> &'static str {
        match self {
            Termination::Rules => "rules",
            Termination::Resigned => "resigned",
            Termination::MaxPlies => "max-plies",
        }
    }
}

/// One training sample: a position the game went through and what the search said there.
#[derive(Clone, Debug)]
pub struct Sample<G> {
    /// The position.
    pub position: G,
    /// Plies played before it.
    pub ply: u32,
    /// Search policy over the legal moves as (game action index, probability).
    pub policy: Vec<(u32, f32)>,
    /// Whether the search was a full one (its policy is a training target).
    pub policy_target: bool,
    /// The search's value for the side to move (-1..1).
    pub search_value: f32,
    /// The game's final result for the side to move: 1 win, 0 draw, -1 loss.
    pub result: f32,
}

/// A finished game: its record and its samples.
#[derive(Clone, Debug)]
pub struct FinishedGame<G: Game> {
    /// Identifier, unique within a run.
    pub game_id: u64,
    /// Setup variant name.
    pub variant: String,
    /// Seed of the setup.
    pub setup_seed: u64,
    /// Starting position.
    pub start: G,
    /// Moves as played.
    pub moves: Vec<G::Move>,
    /// The result from the first side's view: 1 it won, 0 draw, -1 it lost.
    pub result: i8,
    /// How the game ended.
    pub termination: Termination,
    /// One sample per position before each move.
    pub samples: Vec<Sample<G>>,
}

impl<G: Game> FinishedGame<G> {
    /// Plies played.
    pub fn length(&self) -> usize {
        self.moves.len()
    }
}

/// Counters over a batch of games.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct SelfPlayStats {
    /// Games finished.
    pub games: u64,
    /// Positions (moves) played.
    pub positions: u64,
    /// Of those, full searches (policy targets).
    pub policy_targets: u64,
    /// Games won by the first side, drawn, won by the second side.
    pub first_wins: u64,
    /// See `first_wins`.
    pub draws: u64,
    /// See `first_wins`.
    pub second_wins: u64,
    /// Games ended by resignation.
    pub resigned: u64,
    /// Games stopped at `max_plies`.
    pub max_plies: u64,
    /// Games played out in which a side would have resigned.
    pub would_resign: u64,
    /// Of those, games that side did not lose (wrong resignations).
    pub would_resign_wrongly: u64,
    /// Evaluator calls (lock-step steps).
    pub simulations: u64,
}

impl SelfPlayStats {
    /// Adds another batch's counters.
    pub fn merge(&mut self, other: &SelfPlayStats) {
        self.games += other.games;
        self.positions += other.positions;
        self.policy_targets += other.policy_targets;
        self.first_wins += other.first_wins;
        self.draws += other.draws;
        self.second_wins += other.second_wins;
        self.resigned += other.resigned;
        self.max_plies += other.max_plies;
        self.would_resign += other.would_resign;
        self.would_resign_wrongly += other.would_resign_wrongly;
        self.simulations += other.simulations;
    }
}

struct Slot<G: Game> {
    game_id: u64,
    variant: String,
    setup_seed: u64,
    start: G,
    position: G,
    moves: Vec<G::Move>,
    samples: Vec<Sample<G>>,
    full: bool,
    may_resign: bool,
    /// Own moves in a row below the resignation threshold, per side.
    low: [u32; 2],
    /// The side that would have resigned in a played-out game.
    would_resign: Option<Side>,
}

/// Plays `games` self-play games with `evaluator`, `config.games_in_flight` at a time in
/// lock-step, calling `on_game` as each finishes (in finishing order). Game `k` of the call gets
/// id `first_id + k` and its own random stream from `seed`, so a call is reproducible given a
/// deterministic evaluator.
pub fn play_games<G: Game, E: Evaluator<G> + ?Sized>(
    setups: &dyn Setups<G>,
    evaluator: &mut E,
    config: &SelfPlayConfig,
    games: usize,
    first_id: u64,
    seed: u64,
    mut on_game: impl FnMut(FinishedGame<G>),
) -> SelfPlayStats {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let search_config = config.search_config();
    let mut stats = SelfPlayStats::default();
    let mut slots: Vec<Slot<G>> = Vec::new();
    let mut searches: Vec<Mcts<G>> = Vec::new();
    let mut started = 0usize;
    let new_slot = |rng: &mut ChaCha8Rng, k: usize| -> (Slot<G>, Mcts<G>) {
        Slot::new(setups, &search_config, config, first_id + k as u64, rng)
    };
    while started < games.min(config.games_in_flight.max(1)) {
        let (slot, search) = new_slot(&mut rng, started);
        slots.push(slot);
        searches.push(search);
        started += 1;
    }
    while !slots.is_empty() {
        for (slot, search) in slots.iter_mut().zip(searches.iter_mut()) {
            slot.full = rng.random::<f64>() < config.full_search_share;
            let n = if slot.full {
                config.simulations
            } else {
                config.cheap_simulations
            };
            search.start(&Budget::simulations(n.max(1)));
        }
        drive_lockstep(&mut searches, evaluator);
        let mut i = 0;
        while i < slots.len() {
            let Some((outcome, termination)) =
                slots[i].step(&mut searches[i], config, &mut rng, &mut stats)
            else {
                i += 1;
                continue;
            };
            let replaced = started < games;
            let slot = if replaced {
                let (fresh, search) = new_slot(&mut rng, started);
                started += 1;
                searches[i] = search;
                std::mem::replace(&mut slots[i], fresh)
            } else {
                searches.swap_remove(i);
                slots.swap_remove(i)
            };
            on_game(slot.finish(outcome, termination, &mut stats));
            if replaced {
                // A fresh game took this slot: it is searched in the next step. Otherwise
                // the last slot moved here and still has to be handled in this one.
                i += 1;
            }
        }
    }
    stats
}

impl<G: Game> Slot<G> {
    /// A game from a setup drawn from `setups`, and its search.
    fn new(
        setups: &dyn Setups<G>,
        search_config: &Config,
        config: &SelfPlayConfig,
        game_id: u64,
        rng: &mut ChaCha8Rng,
    ) -> (Slot<G>, Mcts<G>) {
        let start = setups.draw(rng);
        let search = Mcts::new(start.position.clone(), search_config.clone(), rng.random());
        let slot = Slot {
            game_id,
            variant: start.variant,
            setup_seed: start.seed,
            start: start.position.clone(),
            position: start.position,
            moves: Vec::new(),
            samples: Vec::new(),
            full: false,
            may_resign: rng.random::<f64>() >= config.playout_share,
            low: [0; 2],
            would_resign: None,
        };
        (slot, search)
    }

    /// Takes the finished search's move (sampled in the first plies): records the position's
    /// sample, resigns or plays the move. The game's end, if this was its last move.
    fn step(
        &mut self,
        search: &mut Mcts<G>,
        config: &SelfPlayConfig,
        rng: &mut ChaCha8Rng,
        stats: &mut SelfPlayStats,
    ) -> Option<(Outcome, Termination)> {
        let result = search.result();
        stats.simulations += u64::from(result.simulations);
        let side = self.position.side_to_move();
        let ply = self.moves.len() as u32;
        let mv = if ply < config.temperature_plies && !result.policy.is_empty() {
            sample_tempered(&result.policy, config.temperature, rng)
        } else {
            result.best_move
        };
        // A running game always has a legal move; a search too small to visit one falls
        // back to the first legal move.
        let mv = mv.or_else(|| {
            let mut legal = Vec::new();
            self.position.legal_moves(&mut legal);
            legal.first().copied()
        })?;
        self.samples.push(Sample {
            position: self.position.clone(),
            ply,
            policy: result
                .policy
                .iter()
                .map(|&(m, p)| (self.position.action_index(m) as u32, p))
                .collect(),
            policy_target: self.full,
            search_value: result.value,
            result: 0.0,
        });
        stats.positions += 1;
        stats.policy_targets += u64::from(self.full);
        // Resignation bookkeeping for the side to move.
        let low = &mut self.low[side.index()];
        *low = if result.value < -config.resign_threshold {
            *low + 1
        } else {
            0
        };
        let resigns = *low >= config.resign_after.max(1) && config.resign_threshold <= 1.0;
        if resigns && self.may_resign {
            return Some((Outcome::Win(side.other()), Termination::Resigned));
        }
        if resigns && self.would_resign.is_none() {
            self.would_resign = Some(side);
        }
        self.position.play_unchecked(mv);
        self.moves.push(mv);
        search.advance(mv).expect("the search's own move is legal");
        if let Some(outcome) = self.position.outcome() {
            Some((outcome, Termination::Rules))
        } else if self.moves.len() as u32 >= config.max_plies {
            Some((Outcome::Draw, Termination::MaxPlies))
        } else {
            None
        }
    }

    /// The finished game, its samples labelled with its result, counted into `stats`.
    fn finish(
        mut self,
        outcome: Outcome,
        termination: Termination,
        stats: &mut SelfPlayStats,
    ) -> FinishedGame<G> {
        for sample in &mut self.samples {
            let mover = sample.position.side_to_move();
            sample.result = outcome.value_for(mover);
        }
        stats.games += 1;
        match outcome.winner() {
            Some(Side::First) => stats.first_wins += 1,
            Some(Side::Second) => stats.second_wins += 1,
            None => stats.draws += 1,
        }
        stats.resigned += u64::from(termination == Termination::Resigned);
        stats.max_plies += u64::from(termination == Termination::MaxPlies);
        if let Some(side) = self.would_resign {
            stats.would_resign += 1;
            stats.would_resign_wrongly += u64::from(outcome.value_for(side) >= 0.0);
        }
        FinishedGame {
            game_id: self.game_id,
            variant: self.variant,
            setup_seed: self.setup_seed,
            start: self.start,
            moves: self.moves,
            result: outcome.value_for(Side::First) as i8,
            termination,
            samples: self.samples,
        }
    }
}

fn sample_tempered<M: Copy>(
    policy: &[(M, f32)],
    temperature: f32,
    rng: &mut ChaCha8Rng,
) -> Option<M> {
    if temperature <= 1e-3 {
        return policy
            .iter()
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map(|&(m, _)| m);
    }
    let weights: Vec<f64> = policy
        .iter()
        .map(|&(_, p)| f64::from(p.max(0.0)).powf(1.0 / f64::from(temperature)))
        .collect();
    let total: f64 = weights.iter().sum();
    if total <= 0.0 || !total.is_finite() {
        return policy.choose(rng).map(|&(m, _)| m);
    }
    let mut x = rng.random::<f64>() * total;
    for (&(m, _), w) in policy.iter().zip(&weights) {
        if x < *w {
            return Some(m);
        }
        x -= w;
    }
    policy.last().map(|&(m, _)| m)
}
