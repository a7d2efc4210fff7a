//! A position's value from a shallow alpha-beta search, for MCTS to blend into its leaves'
//! values (a hybrid of the two searches: MCTS chooses where to look, a few plies of alpha-beta
//! with quiescence judge each leaf it reaches).
//!
//! The value is `tanh(score / scale)` of the search's score for the side to move, +-1 for a
//! forced result; depth 0 is the static evaluation.

use std::path::Path;
use std::sync::Arc;

use pjlab_alphabeta::{Engine, Limits, MATE_BOUND, Options};
use pjlab_core::{Game, GameKit, Heuristic};
use pjlab_nnue::tracked::{Accumulates, Shared, Tracked, TrackedEval};
use pjlab_nnue::{Network, NnueEval, QuantisedNetwork};

use crate::SpecError;

/// A position's value for its side to move, in `[-1, 1]`.
pub type ShallowValue<G> = Box<dyn FnMut(&G) -> f32 + Send>;

/// The evaluation a shallow search scores with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShallowEval {
    /// `hand`: the game's hand-written evaluation.
    Hand,
    /// `nnue:PATH`: a learned evaluation of `pjlab nnue train`, float accumulators.
    Nnue(String),
    /// `nnue-int:PATH`: the same network in integers (faster; scores within a centi-unit or so).
    NnueInt(String),
}

impl ShallowEval {
    /// Parses `hand`, `nnue:PATH` or `nnue-int:PATH`.
    ///
    /// # Errors
    /// [`SpecError::EvalName`] for anything else.
    pub fn parse(text: &str) -> Result<ShallowEval, SpecError> {
        let path = |p: &str| (!p.is_empty()).then(|| p.to_string());
        if text == "hand" {
            Ok(ShallowEval::Hand)
        } else if let Some(p) = text.strip_prefix("nnue-int:").and_then(path) {
            Ok(ShallowEval::NnueInt(p))
        } else if let Some(p) = text.strip_prefix("nnue:").and_then(path) {
            Ok(ShallowEval::Nnue(p))
        } else {
            Err(SpecError::EvalName(text.to_string()))
        }
    }
}

/// The value of a search of `depth` plies (quiescence beyond; 0: the static evaluation) with
/// `eval`, `tanh(score / scale)` (`scale` in the evaluation's centi-units: 400 for a network of
/// `pjlab nnue train`, whose card puts 200 centi-units to a logit). The engine keeps no table
/// between positions; its move-ordering history carries over, so a value depends on the
/// positions searched before it (deterministically, for the same sequence).
///
/// # Errors
/// [`SpecError::Nnue`] when the network does not load or was trained for another game,
/// [`SpecError::Width`] when its accumulators have a width that is not tracked;
/// [`SpecError::Game`] when the game's own evaluation does not load.
pub fn shallow_value<K: GameKit>(
    eval: &ShallowEval,
    depth: u32,
    scale: f32,
) -> Result<ShallowValue<K::Game>, SpecError> {
    let scale = scale.max(f32::MIN_POSITIVE);
    let path = match eval {
        ShallowEval::Hand => {
            let hand = K::evaluation(None).map_err(SpecError::Game)?;
            return Ok(plain::<K::Game, _>(hand, depth, scale));
        }
        ShallowEval::Nnue(p) | ShallowEval::NnueInt(p) => p,
    };
    let net = NnueEval::load::<K>(Path::new(path)).map_err(|e| match e {
        pjlab_nnue::Error::Game(e) => SpecError::Game(e),
        e => SpecError::Nnue(e),
    })?;
    let integer = matches!(eval, ShallowEval::NnueInt(_));
    match net.network().hidden {
        16 => tracked::<K, 16>(net, integer, depth, scale),
        32 => tracked::<K, 32>(net, integer, depth, scale),
        64 => tracked::<K, 64>(net, integer, depth, scale),
        128 => tracked::<K, 128>(net, integer, depth, scale),
        256 => tracked::<K, 256>(net, integer, depth, scale),
        width => Err(SpecError::Width {
            path: path.into(),
            width,
        }),
    }
}

/// The search's options: no table (a value per position, not per search), quiescence as
/// alpha-beta's default.
fn options() -> Options {
    Options {
        tt_mib: 0,
        ..Options::default()
    }
}

/// `tanh(score / scale)`, +-1 for a forced result.
fn squash(score: i32, scale: f32) -> f32 {
    if score.abs() >= MATE_BOUND {
        score.signum() as f32
    } else {
        (score as f32 / scale).tanh()
    }
}

/// A search (or at depth 0 the static evaluation) on plain positions.
fn plain<G: Game, H: Heuristic<G> + Send + 'static>(
    eval: H,
    depth: u32,
    scale: f32,
) -> ShallowValue<G> {
    if depth == 0 {
        return Box::new(move |p: &G| squash(eval.evaluate(p), scale));
    }
    let mut engine = Engine::new(eval, options());
    let limits = Limits::depth(depth);
    Box::new(move |p: &G| squash(engine.search(p, &limits).score, scale))
}

/// A search on positions carrying the network's accumulators, updated move by move (at depth
/// 0, the network's score of the position, its accumulators computed in full).
fn tracked<K: GameKit, const W: usize>(
    net: NnueEval<K::Game, K::Eval>,
    integer: bool,
    depth: u32,
    scale: f32,
) -> Result<ShallowValue<K::Game>, SpecError> {
    let error = SpecError::Nnue;
    if integer {
        let shared = Shared::quantised::<_, W>(&net).map_err(error)?;
        Ok(on_tracked::<K::Game, K::Eval, W, QuantisedNetwork>(
            net, shared, depth, scale,
        ))
    } else {
        let shared = Shared::new::<_, W>(&net).map_err(error)?;
        Ok(on_tracked::<K::Game, K::Eval, W, Network>(
            net, shared, depth, scale,
        ))
    }
}

fn on_tracked<G: Game, H: Heuristic<G> + Send + Clone + 'static, const W: usize, N: Accumulates>(
    net: NnueEval<G, H>,
    shared: Arc<Shared<G, N>>,
    depth: u32,
    scale: f32,
) -> ShallowValue<G> {
    let eval = TrackedEval::new(net);
    if depth == 0 {
        return Box::new(move |p: &G| {
            let root = Tracked::<G, W, N>::new(p.clone(), Arc::clone(&shared));
            squash(eval.evaluate(&root), scale)
        });
    }
    let mut engine: Engine<Tracked<G, W, N>, _> = Engine::new(eval, options());
    let limits = Limits::depth(depth);
    Box::new(move |p: &G| {
        let root = Tracked::new(p.clone(), Arc::clone(&shared));
        squash(engine.search(&root, &limits).score, scale)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use pjlab_pijersi::{PijersiKit, Position, Variant};

    /// The lab's strongest learned evaluation, committed with its experiment.
    const NET: &str = "../../experiments/nnue-generations/sweep/r3-lr-0.0001/net.nnue";

    #[test]
    fn evals_parse() {
        assert_eq!(ShallowEval::parse("hand").unwrap(), ShallowEval::Hand);
        assert_eq!(
            ShallowEval::parse("nnue:a.nnue").unwrap(),
            ShallowEval::Nnue("a.nnue".into())
        );
        assert_eq!(
            ShallowEval::parse("nnue-int:a:b.nnue").unwrap(),
            ShallowEval::NnueInt("a:b.nnue".into())
        );
        for bad in ["", "nnue:", "nnue-int:", "random", "hand:x"] {
            assert!(ShallowEval::parse(bad).is_err(), "{bad:?}");
        }
    }

    /// Positions along a few scripted games (the first legal move, then every third).
    fn positions() -> Vec<Position> {
        let mut out = Vec::new();
        let mut moves = Vec::new();
        for seed in 0..4 {
            let mut p = Variant::HalfRandom.setup(seed);
            for ply in 0..24 {
                p.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                out.push(p.clone());
                p.play_unchecked(moves[(ply * 7 + seed as usize) % moves.len()]);
            }
        }
        out
    }

    /// The tracked search scores as a plain alpha-beta over the same float network does, at
    /// every depth tried: the accumulators it carries are the network's, and depth 0 is the
    /// network's static score.
    #[test]
    fn tracked_values_match_a_plain_search() {
        let eval = ShallowEval::Nnue(NET.into());
        for depth in 0..=2 {
            let mut tracked = shallow_value::<PijersiKit>(&eval, depth, 400.0).unwrap();
            let net = NnueEval::load::<PijersiKit>(Path::new(NET)).unwrap();
            let mut engine = Engine::new(net.clone(), options());
            for p in positions() {
                let expected = if depth == 0 {
                    squash(net.evaluate(&p), 400.0)
                } else {
                    squash(engine.search(&p, &Limits::depth(depth)).score, 400.0)
                };
                let got = tracked(&p);
                assert!(
                    (got - expected).abs() < 1e-3,
                    "depth {depth}: {got} vs {expected}"
                );
                assert!((-1.0..=1.0).contains(&got));
            }
        }
        // In integers, the static score is the float one within a few centi-units.
        let mut float = shallow_value::<PijersiKit>(&eval, 0, 400.0).unwrap();
        let mut int =
            shallow_value::<PijersiKit>(&ShallowEval::NnueInt(NET.into()), 0, 400.0).unwrap();
        for p in positions() {
            let (f, i) = (float(&p), int(&p));
            assert!((f - i).abs() < 0.02, "{f} vs {i}");
        }
    }

    /// A position whose mover wins in one is worth +1 to it from depth 1 on, with either
    /// evaluation (positions from random games, until five such are found).
    #[test]
    fn a_win_in_one_is_worth_one() {
        use rand::SeedableRng;
        use rand::seq::IndexedRandom;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let mut hand = shallow_value::<PijersiKit>(&ShallowEval::Hand, 1, 100.0).unwrap();
        let mut net =
            shallow_value::<PijersiKit>(&ShallowEval::NnueInt(NET.into()), 1, 400.0).unwrap();
        let (mut moves, mut found, mut games) = (Vec::new(), 0, 0);
        while found < 5 && games < 200 {
            let mut p = Variant::HalfRandom.setup(games);
            games += 1;
            loop {
                p.legal_moves(&mut moves);
                let mover = Game::side_to_move(&p);
                let wins = moves.iter().any(|&m| {
                    let mut q = p.clone();
                    q.play_unchecked(m);
                    Game::outcome(&q) == Some(pjlab_core::Outcome::Win(mover))
                });
                if wins {
                    found += 1;
                    assert_eq!(hand(&p), 1.0);
                    assert_eq!(net(&p), 1.0);
                    break;
                }
                let Some(&m) = moves.choose(&mut rng) else {
                    break;
                };
                p.play_unchecked(m);
            }
        }
        assert_eq!(found, 5, "five wins in one in {games} random games");
    }

    #[test]
    fn bad_files_are_errors() {
        let missing = ShallowEval::NnueInt("no/such.nnue".into());
        assert!(matches!(
            shallow_value::<PijersiKit>(&missing, 1, 400.0),
            Err(SpecError::Nnue(_))
        ));
    }
}
