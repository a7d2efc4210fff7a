//! Measuring a network, for any game's kit: by the kit's solved positions where it has them
//! (the share of winning positions where the raw policy's first choice wins: Chomp), otherwise
//! against the alpha-beta baseline in colour-paired games played by the lab's one game loop,
//! [`pjlab_agents::play_game`].

use std::sync::atomic::AtomicBool;

use burn::tensor::Device;
use pjlab_agents::Agent;
use pjlab_core::{Game, GameKit, SetupVariant, Solved};
use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use pjlab_nn::NetEvaluator;
use pjlab_nn::PolicyValueNet;
use pjlab_players::NetAgent;

/// A measurement of strength.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Strength {
    /// What was measured: `score_vs_alphabeta_d<N>` or `optimal_move_share`.
    pub metric: String,
    /// The score (0..1): points per game for the network, or share of optimal moves.
    pub score: f64,
    /// 95% Wilson interval of the score.
    pub low: f64,
    /// See `low`.
    pub high: f64,
    /// Games (or positions) it was measured on.
    pub count: u64,
    /// Network wins, draws and losses (games only).
    pub wins: u64,
    /// See `wins`.
    pub draws: u64,
    /// See `wins`.
    pub losses: u64,
}

pub use pjlab_stats::stats::wilson;

/// Settings of a match against alpha-beta, from setups of the variant `V`.
#[derive(Clone, Debug)]
pub struct VersusAlphaBeta<V> {
    /// Setups, each played with both colours.
    pub pairs: usize,
    /// Alpha-beta depth (the opponent when `opponent` is `None`).
    pub depth: u32,
    /// The opponent's agent spec; `None`: `alphabeta:depth=<depth>`.
    pub opponent: Option<String>,
    /// Network player's simulations a move.
    pub simulations: u32,
    /// Whether the network player checks leaves for wins at once.
    pub decisive: bool,
    /// Setup variant.
    pub variant: V,
    /// Ply cap (a draw).
    pub max_plies: u32,
    /// Uniformly random plies opening each pair's games, drawn from the pair's seed.
    pub opening_plies: u32,
    /// Parallel games.
    pub workers: usize,
}

impl<V> VersusAlphaBeta<V> {
    /// The opponent's agent spec.
    pub fn opponent_spec(&self) -> String {
        self.opponent
            .clone()
            .unwrap_or_else(|| format!("alphabeta:depth={}", self.depth))
    }

    /// The metric's name: `score_vs_alphabeta_d<depth>` against the default opponent,
    /// `score_vs_<spec>` against a named one.
    pub fn metric(&self) -> String {
        match &self.opponent {
            None => format!("score_vs_alphabeta_d{}", self.depth),
            Some(spec) => format!("score_vs_{spec}"),
        }
    }
}

/// `plies` uniformly random legal moves from `start` (fewer if the game ends), drawn with
/// `seed`.
fn random_opening<G: Game>(start: &G, plies: u32, seed: u64) -> Vec<G::Move> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut position = start.clone();
    let (mut opening, mut legal) = (Vec::new(), Vec::new());
    for _ in 0..plies {
        position.legal_moves(&mut legal);
        let Some(&mv) = legal.choose(&mut rng) else {
            break;
        };
        position.play_unchecked(mv);
        opening.push(mv);
    }
    opening
}

/// The network player (its encoder `K::encoder(game)`) against `alphabeta:depth=N` built by
/// [`pjlab_agents::build`], on `pairs` setups of the variant drawn from `seed` (each after its
/// random opening plies, if any), each played with both colours. Every seat of a side gets its own agent of the side's player (Abalone's
/// doubles); `on_game` is called as each game ends.
///
/// # Panics
/// If the kit cannot build the opponent's spec (the judge checks it when the run starts).
pub fn versus_alphabeta<K: GameKit>(
    model: &PolicyValueNet,
    device: &Device,
    game: &K::Config,
    settings: &VersusAlphaBeta<K::Variant>,
    seed: u64,
    on_game: &(dyn Fn() + Sync),
) -> Strength {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let setups: Vec<u64> = (0..settings.pairs).map(|_| rng.random()).collect();
    let jobs: Vec<(u64, bool)> = setups
        .iter()
        .flat_map(|&s| [(s, true), (s, false)])
        .collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(settings.workers.max(1))
        .build()
        .expect("a thread pool");
    let spec = settings.opponent_spec();
    let stop = AtomicBool::new(false);
    let results: Vec<i8> = pool.install(|| {
        jobs.par_iter()
            .map(|&(setup, net_first)| {
                let start = settings.variant.start(setup);
                let opening = random_opening(&start, settings.opening_plies, setup);
                // Seat `s` plays for side `s % 2`: the network's seats, then alpha-beta's.
                let mut agents: Vec<Box<dyn Agent<K::Game>>> = (0..start.seats())
                    .map(|seat| {
                        if (seat % 2 == 0) == net_first {
                            let mut net = NetAgent::<K>::new(
                                model,
                                device,
                                K::encoder(game),
                                settings.simulations,
                                setup,
                            );
                            net.set_decisive(settings.decisive);
                            Box::new(net) as Box<dyn Agent<K::Game>>
                        } else {
                            pjlab_agents::build::<K>(&spec, setup)
                                .expect("an opponent spec checked by the judge")
                        }
                    })
                    .collect();
                let mut seats: Vec<&mut dyn Agent<K::Game>> = agents
                    .iter_mut()
                    .map(|a| a.as_mut() as &mut dyn Agent<K::Game>)
                    .collect();
                let played = pjlab_agents::play_game(
                    &start,
                    &opening,
                    &mut seats,
                    settings.max_plies as usize,
                    None,
                    &stop,
                )
                .expect("never stopped");
                on_game();
                if net_first {
                    played.result
                } else {
                    -played.result
                }
            })
            .collect()
    });
    let wins = results.iter().filter(|&&r| r > 0).count() as u64;
    let losses = results.iter().filter(|&&r| r < 0).count() as u64;
    let n = results.len() as u64;
    let draws = n - wins - losses;
    let points = wins as f64 + 0.5 * draws as f64;
    let (low, high) = wilson(points, n as f64);
    Strength {
        metric: settings.metric(),
        score: if n > 0 { points / n as f64 } else { 0.0 },
        low,
        high,
        count: n,
        wins,
        draws,
        losses,
    }
}

/// Share of `solved` positions (each with its winning moves) where the network's most likely
/// legal move (its raw policy, no search) is a winning move.
pub fn optimal_share<K: GameKit>(
    model: &PolicyValueNet,
    device: &Device,
    encoder: &K::Encoder,
    solved: &Solved<K::Game>,
) -> Strength {
    use pjlab_core::Encoder;
    let mut evaluator = NetEvaluator::<K::Game, _>::new(model, device, encoder.clone(), 0);
    let refs: Vec<&K::Game> = solved.iter().map(|(p, _)| p).collect();
    let (policy, _) = evaluator.forward(&refs);
    let actions = encoder.num_actions();
    let mut good = 0u64;
    let mut moves = Vec::new();
    for (k, (p, wins)) in solved.iter().enumerate() {
        p.legal_moves(&mut moves);
        let logits = &policy[k * actions..(k + 1) * actions];
        let logit =
            |mv: &<K::Game as Game>::Move| logits[encoder.policy_index(p, p.action_index(*mv))];
        let best = moves
            .iter()
            .max_by(|a, b| logit(a).total_cmp(&logit(b)))
            .expect("a position that is not over has moves");
        if wins.contains(best) {
            good += 1;
        }
    }
    let n = solved.len() as u64;
    let (low, high) = wilson(good as f64, n as f64);
    Strength {
        metric: "optimal_move_share".into(),
        score: good as f64 / n.max(1) as f64,
        low,
        high,
        count: n,
        ..Strength::default()
    }
}
