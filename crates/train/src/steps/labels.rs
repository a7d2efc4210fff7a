//! Value labels that blend into the result targets: an expected score for the side to move
//! from an evaluation of the position (the game's hand-written one or a learned one from
//! `pjlab nnue train`, statically or by a shallow alpha-beta search), and from the self-play
//! search's own value.

use std::collections::HashMap;
use std::path::Path;

use pjlab_alphabeta::{Engine, Limits, MATE_BOUND, Options};
use pjlab_core::{Game, GameKit, Heuristic};
use pjlab_nnue::NnueEval;
use pjlab_selfplay::Sample;

use crate::Error;
use crate::learner::TrainConfig;

/// The prefix of `train.eval_source` naming a learned evaluation file.
const NNUE_PREFIX: &str = "nnue:";

/// Where the evaluation share of a value target comes from (`train.eval_source`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalSource {
    /// The game's hand-written evaluation (`"game"`, the default).
    Game,
    /// A learned evaluation file from `pjlab nnue train` (`"nnue:PATH"`).
    Nnue(String),
}

impl EvalSource {
    /// Parses `"game"` or `"nnue:PATH"`.
    ///
    /// # Errors
    /// [`Error::EvalSource`] for anything else.
    pub fn parse(text: &str) -> Result<EvalSource, Error> {
        if text == "game" {
            Ok(EvalSource::Game)
        } else if let Some(path) = text.strip_prefix(NNUE_PREFIX).filter(|p| !p.is_empty()) {
            Ok(EvalSource::Nnue(path.to_string()))
        } else {
            Err(Error::EvalSource(text.to_string()))
        }
    }
}

/// A position's expected score (-1..1, for the side to move) by an evaluation.
type Expect<G> = Box<dyn FnMut(&G) -> f32>;

/// The value labels of a run's training: the evaluation's and the search's shares.
pub(crate) struct Labeller<K: GameKit> {
    eval: Option<Expect<K::Game>>,
    eval_share: f32,
    search_share: f32,
    /// The evaluation's expected scores by position hash: a label is a function of its
    /// position alone, and a sample is trained on several times.
    known: HashMap<u64, f32>,
}

/// The most labels kept before the cache starts afresh (about 70 MB of map at the bound).
const KNOWN: usize = 1 << 21;

impl<K: GameKit> Labeller<K> {
    /// The labels `config` asks for; `None` when the targets are the results alone.
    ///
    /// # Errors
    /// [`Error::HandEval`] or [`Error::EvalFile`] when the evaluation does not load.
    pub(crate) fn new(config: &TrainConfig) -> Result<Option<Labeller<K>>, Error> {
        if config.eval_target <= 0.0 && config.search_target <= 0.0 {
            return Ok(None);
        }
        let eval = if config.eval_target > 0.0 {
            let scale = config.eval_scale.max(1.0);
            let depth = config.eval_depth;
            Some(match EvalSource::parse(&config.eval_source)? {
                EvalSource::Game => {
                    let eval = K::evaluation(None).map_err(Error::HandEval)?;
                    expect::<K::Game, K::Eval>(eval, depth, scale)
                }
                EvalSource::Nnue(path) => {
                    let eval =
                        NnueEval::load::<K>(Path::new(&path)).map_err(|cause| Error::EvalFile {
                            path: path.clone(),
                            cause,
                        })?;
                    expect::<K::Game, _>(eval, depth, scale)
                }
            })
        } else {
            None
        };
        Ok(Some(Labeller {
            eval,
            eval_share: config.eval_target,
            search_share: config.search_target,
            known: HashMap::new(),
        }))
    }

    /// The share of the target these labels take (the rest is the result's) and their blended
    /// expected score for `sample`.
    pub(crate) fn label(&mut self, sample: &Sample<K::Game>) -> (f32, f32) {
        let share = self.eval_share + self.search_share;
        let mut v = self.search_share * sample.search_value.clamp(-1.0, 1.0);
        if let Some(eval) = &mut self.eval {
            if self.known.len() >= KNOWN {
                self.known.clear();
            }
            let e = *self
                .known
                .entry(sample.position.hash())
                .or_insert_with(|| eval(&sample.position).clamp(-1.0, 1.0));
            v += self.eval_share * e;
        }
        (share, if share > 0.0 { v / share } else { 0.0 })
    }
}

/// `tanh(score / scale)` of `eval`'s score: the static evaluation at depth 0, else an alpha-beta
/// search of `depth` plies with quiescence, with no memory between positions (no table, history
/// cleared), so that a label is a function of its position alone and a resumed run labels as an
/// uninterrupted one does. A forced result is +-1.
fn expect<G: pjlab_core::Game, H: Heuristic<G> + 'static>(
    eval: H,
    depth: u32,
    scale: f32,
) -> Expect<G> {
    if depth == 0 {
        return Box::new(move |p: &G| (eval.evaluate(p) as f32 / scale).tanh());
    }
    let options = Options {
        tt_mib: 0,
        ..Options::default()
    };
    let mut engine = Engine::new(eval, options);
    let limits = Limits::depth(depth);
    Box::new(move |p: &G| {
        engine.clear();
        let score = engine.search(p, &limits).score;
        if score.abs() >= MATE_BOUND {
            score.signum() as f32
        } else {
            (score as f32 / scale).tanh()
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use pjlab_pijersi::{PijersiKit, Position, Variant};
    use rand::SeedableRng;
    use rand::seq::IndexedRandom;
    use rand_chacha::ChaCha8Rng;

    /// The lab's strongest learned evaluation, committed with its experiment.
    const NET: &str = "../../experiments/nnue-generations/sweep/r3-lr-0.0001/net.nnue";

    #[test]
    fn sources_parse() {
        assert_eq!(EvalSource::parse("game").unwrap(), EvalSource::Game);
        assert_eq!(
            EvalSource::parse("nnue:a/b.nnue").unwrap(),
            EvalSource::Nnue("a/b.nnue".into())
        );
        for bad in ["", "nnue:", "hand", "nnue-int:x"] {
            assert!(EvalSource::parse(bad).is_err(), "{bad:?}");
        }
    }

    /// Positions of random games from half-random setups, with made-up search values.
    fn samples(n: usize) -> Vec<Sample<Position>> {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let (mut out, mut moves) = (Vec::new(), Vec::new());
        let mut g = 0;
        while out.len() < n {
            let mut p = Variant::HalfRandom.setup(g);
            g += 1;
            while p.outcome().is_none() && out.len() < n {
                out.push(Sample {
                    position: p.clone(),
                    ply: 0,
                    policy: Vec::new(),
                    policy_target: false,
                    search_value: [0.9, -0.4, 0.1][out.len() % 3],
                    result: 0.0,
                });
                p.legal_moves(&mut moves);
                p.play_unchecked(*moves.choose(&mut rng).unwrap());
            }
        }
        out
    }

    fn config(eval: f32, search: f32, source: &str, depth: u32) -> TrainConfig {
        TrainConfig {
            eval_target: eval,
            search_target: search,
            eval_source: source.to_string(),
            eval_depth: depth,
            eval_scale: 400.0,
            ..TrainConfig::default()
        }
    }

    #[test]
    fn results_alone_need_no_labels() {
        let labels = Labeller::<PijersiKit>::new(&config(0.0, 0.0, "game", 0)).unwrap();
        assert!(labels.is_none());
    }

    #[test]
    fn the_shares_mix_the_static_evaluation_and_the_search_value() {
        let eval = PijersiKit::evaluation(None).unwrap();
        let mut labels = Labeller::<PijersiKit>::new(&config(0.2, 0.3, "game", 0))
            .unwrap()
            .unwrap();
        for s in samples(40) {
            let (share, v) = labels.label(&s);
            let e = (eval.evaluate(&s.position) as f32 / 400.0).tanh();
            let want = (0.3 * s.search_value + 0.2 * e) / 0.5;
            assert!((share - 0.5).abs() < 1e-6);
            assert!((v - want).abs() < 1e-5, "{v} vs {want}");
        }
        let mut search_only = Labeller::<PijersiKit>::new(&config(0.0, 0.4, "game", 0))
            .unwrap()
            .unwrap();
        for s in samples(6) {
            let (share, v) = search_only.label(&s);
            assert!((share - 0.4).abs() < 1e-6 && (v - s.search_value).abs() < 1e-6);
        }
    }

    #[test]
    fn a_searched_label_is_a_fresh_searchs_score_whatever_came_before() {
        let eval = NnueEval::load::<PijersiKit>(Path::new(NET)).unwrap();
        let mut labels = Labeller::<PijersiKit>::new(&config(1.0, 0.0, &format!("nnue:{NET}"), 2))
            .unwrap()
            .unwrap();
        let data = samples(24);
        // Label every position, then check each against its own search in a new engine, in
        // the reverse order.
        let first: Vec<f32> = data.iter().map(|s| labels.label(s).1).collect();
        for (s, &got) in data.iter().zip(&first).rev() {
            let options = Options {
                tt_mib: 0,
                ..Options::default()
            };
            let mut engine = Engine::new(eval.clone(), options);
            let score = engine.search(&s.position, &Limits::depth(2)).score;
            let want = if score.abs() >= MATE_BOUND {
                score.signum() as f32
            } else {
                (score as f32 / 400.0).tanh()
            };
            assert_eq!(got, want);
            assert_eq!(labels.label(s).1, want);
        }
        // The learned evaluation and the hand-written one label differently.
        let mut game = Labeller::<PijersiKit>::new(&config(1.0, 0.0, "game", 2))
            .unwrap()
            .unwrap();
        assert!(data.iter().zip(&first).any(|(s, &v)| game.label(s).1 != v));
    }

    #[test]
    fn a_missing_network_is_a_config_error_naming_the_file() {
        let err = Labeller::<PijersiKit>::new(&config(0.5, 0.0, "nnue:/nonexistent.nnue", 0))
            .err()
            .unwrap();
        assert!(err.to_string().contains("/nonexistent.nnue"), "{err}");
    }
}
