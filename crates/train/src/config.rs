//! The training run's configuration: one TOML file, every key optional with a default.
//! `configs/README.md` documents every key with its unit.
//!
//! A run's configuration is [`RunConfig<K>`], generic over the game's kit: the keys every game
//! shares, and the game's own table parsed as the kit's [`GameKit::Config`]. The TOML shape is
//! the same for every game:
//!
//! ```toml
//! game = "pijersi"          # the registry's name of the game (the kit's `INFO.name`)
//! seed = 1                  # ... the shared keys and tables: [network], [selfplay], [eval] ...
//! [pijersi]                 # the game's own table, under its name: `[abalone]`, `[chomp]`, ...
//! setups = "classic:1,half-random:4"
//! ```
//!
//! A program that does not know the game yet reads it with [`game_name`], then parses the text
//! as `RunConfig<K>` for that game's kit (the binary's registry does).

use std::collections::BTreeSet;
use std::fmt;
use std::path::Path;

use pjlab_core::GameKit;
use pjlab_selfplay::{SelfPlayConfig, WindowConfig};
use serde::de::{self, IgnoredAny, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::Error;
use crate::learner::TrainConfig;
use pjlab_nn::NetConfig;

/// Tables every run directory written before training became generic holds besides its own
/// game's (each run wrote both games' tables, the unused one at its defaults). They are
/// accepted and ignored in runs of another game, so that those directories still resume; any
/// other table of another game is refused.
const EARLIER_TABLES: [&str; 2] = ["pijersi", "chomp"];

/// A whole run of the game of kit `K`.
///
/// Parsed from TOML (and from the JSON copy in each checkpoint) by hand rather than by a derive:
/// the game's own table sits under the game's name, which only the kit knows. The shared keys
/// and tables refuse unknown keys as before; at the top level, a key that is neither a shared
/// key, `game`, nor the game's table is an error naming it (`[chomp]` and `[pijersi]` in a run
/// of another game excepted, see above).
pub struct RunConfig<K: GameKit> {
    /// Seed of everything random in the run (weights, setups, searches, batches).
    pub seed: u64,
    /// Iterations (self-play, training, maybe evaluation, checkpoint).
    pub iterations: u32,
    /// Self-play games per iteration.
    pub games_per_iteration: usize,
    /// Worker threads for self-play and evaluation (one core each).
    pub workers: usize,
    /// Positions each worker's evaluator caches.
    pub cache_positions: usize,
    /// Network shape.
    pub network: NetConfig,
    /// Self-play search and play.
    pub selfplay: SelfPlayConfig,
    /// Replay window.
    pub window: WindowConfig,
    /// Optimiser and losses.
    pub train: TrainConfig,
    /// The game's own table (`[pijersi]`, `[abalone]`, `[chomp]`): its self-play setups and
    /// whatever else its kit needs.
    pub game: K::Config,
    /// Periodic evaluation.
    pub eval: EvalConfig,
}

impl<K: GameKit> Default for RunConfig<K> {
    fn default() -> Self {
        RunConfig {
            seed: 1,
            iterations: 10,
            games_per_iteration: 64,
            workers: 2,
            cache_positions: 200_000,
            network: NetConfig::default(),
            selfplay: SelfPlayConfig::default(),
            window: WindowConfig::default(),
            train: TrainConfig::default(),
            game: K::Config::default(),
            eval: EvalConfig::default(),
        }
    }
}

impl<K: GameKit> Clone for RunConfig<K> {
    fn clone(&self) -> Self {
        RunConfig {
            seed: self.seed,
            iterations: self.iterations,
            games_per_iteration: self.games_per_iteration,
            workers: self.workers,
            cache_positions: self.cache_positions,
            network: self.network.clone(),
            selfplay: self.selfplay.clone(),
            window: self.window.clone(),
            train: self.train.clone(),
            game: self.game.clone(),
            eval: self.eval.clone(),
        }
    }
}

impl<K: GameKit> PartialEq for RunConfig<K> {
    fn eq(&self, other: &Self) -> bool {
        self.seed == other.seed
            && self.iterations == other.iterations
            && self.games_per_iteration == other.games_per_iteration
            && self.workers == other.workers
            && self.cache_positions == other.cache_positions
            && self.network == other.network
            && self.selfplay == other.selfplay
            && self.window == other.window
            && self.train == other.train
            && self.game == other.game
            && self.eval == other.eval
    }
}

impl<K: GameKit> fmt::Debug for RunConfig<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RunConfig")
            .field("game", &K::INFO.name)
            .field("seed", &self.seed)
            .field("iterations", &self.iterations)
            .field("games_per_iteration", &self.games_per_iteration)
            .field("workers", &self.workers)
            .field("cache_positions", &self.cache_positions)
            .field("network", &self.network)
            .field("selfplay", &self.selfplay)
            .field("window", &self.window)
            .field("train", &self.train)
            .field(K::INFO.name, &self.game)
            .field("eval", &self.eval)
            .finish()
    }
}

/// Periodic evaluation: by the kit's solved positions where it has them (Chomp: the share of
/// winning positions where the raw policy's first choice wins), otherwise against the alpha-beta
/// baseline on colour-paired setups.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EvalConfig {
    /// Evaluate every this many iterations (and after the last); 0 only after the last.
    pub every: u32,
    /// Setups per evaluation, each played twice with colours swapped.
    pub pairs: usize,
    /// Depth of the alpha-beta baseline, in plies (the opponent when `opponent` is unset).
    pub depth: u32,
    /// The opponent's agent spec, any the lab builds (`random`, `greedy`, `alphabeta:depth=1`,
    /// ...); unset (the default): `alphabeta:depth=<depth>`. The metric is then named
    /// `score_vs_<spec>` instead of `score_vs_alphabeta_d<depth>`.
    pub opponent: Option<String>,
    /// Simulations a move of the network player.
    pub simulations: u32,
    /// Setup variant of the evaluation games (a name the kit's `variant` knows; the default is
    /// Pijersi's, other games name one of theirs). Unused by games judged by solved positions.
    pub variant: String,
    /// Games longer than this many plies are scored as draws.
    pub max_plies: u32,
    /// Random plies opening each pair's games (the same for both colour assignments), drawn
    /// from the pair's seed: games from a fixed layout (Abalone's daisies) differ only by them,
    /// as both players are deterministic. 0 (the default): none.
    pub opening_plies: u32,
}

impl Default for EvalConfig {
    fn default() -> Self {
        EvalConfig {
            every: 2,
            pairs: 16,
            depth: 2,
            opponent: None,
            simulations: 64,
            variant: "half-random".into(),
            max_plies: 300,
            opening_plies: 0,
        }
    }
}

/// The game a TOML configuration names (its `game` key), if it names one: what a program picks
/// the kit by before parsing the whole configuration.
///
/// # Errors
/// [`Error::Toml`] when the text is not TOML, [`Error::GameKey`] when `game` is not a string.
pub fn game_name(text: &str) -> Result<Option<String>, Error> {
    let table: toml::Table = toml::from_str(text)?;
    match table.get("game") {
        None => Ok(None),
        Some(toml::Value::String(name)) => Ok(Some(name.clone())),
        Some(other) => Err(Error::GameKey(other.to_string())),
    }
}

impl<K: GameKit> RunConfig<K> {
    /// Parses a TOML configuration.
    ///
    /// # Errors
    /// [`Error::Toml`] on TOML errors, unknown keys or another game; as
    /// [`RunConfig::validate`] for values out of range.
    pub fn from_toml(text: &str) -> Result<RunConfig<K>, Error> {
        let config: RunConfig<K> = toml::from_str(text)?;
        config.validate()?;
        Ok(config)
    }

    /// Reads a TOML configuration file.
    ///
    /// # Errors
    /// [`Error::Io`] when unreadable, else [`Error::InConfig`] holding
    /// [`RunConfig::from_toml`]'s error.
    pub fn from_file(path: &Path) -> Result<RunConfig<K>, Error> {
        let text = std::fs::read_to_string(path).map_err(|cause| Error::Io {
            path: path.display().to_string(),
            cause,
        })?;
        RunConfig::from_toml(&text).map_err(|e| Error::InConfig {
            origin: path.display().to_string(),
            cause: Box::new(e),
        })
    }

    /// The configuration as TOML.
    pub fn to_toml(&self) -> String {
        toml::to_string(self).unwrap_or_default()
    }

    /// Checks values that parse but make no sense.
    ///
    /// # Errors
    /// [`Error::Value`] naming the key, [`Error::EvalSource`] for `train.eval_source`,
    /// [`Error::Setups`] for setups the game refuses.
    pub fn validate(&self) -> Result<(), Error> {
        let bad = |key: &'static str, why: &'static str| Err(Error::Value { key, why });
        if self.games_per_iteration == 0 {
            return bad("games_per_iteration", "must be at least 1");
        }
        if self.workers == 0 {
            return bad("workers", "must be at least 1");
        }
        if self.network.layers == 0 || self.network.hidden == 0 {
            return bad("network", "layers and hidden must be at least 1");
        }
        if self.train.batch_size == 0 {
            return bad("train.batch_size", "must be at least 1");
        }
        if !(self.train.learning_rate > 0.0 && self.train.learning_rate.is_finite()) {
            return bad("train.learning_rate", "must be a positive number");
        }
        if !(self.train.train_ratio >= 0.0 && self.train.train_ratio.is_finite()) {
            return bad("train.train_ratio", "must be >= 0");
        }
        let t = &self.train;
        if !(0.0..=1.0).contains(&t.eval_target) {
            return bad("train.eval_target", "must be within 0..=1");
        }
        if !(0.0..=1.0).contains(&t.search_target) {
            return bad("train.search_target", "must be within 0..=1");
        }
        if t.eval_target + t.search_target > 1.0 {
            return bad(
                "train.search_target",
                "eval_target + search_target must be at most 1",
            );
        }
        crate::steps::EvalSource::parse(&t.eval_source)?;
        if !(0.0..=1.0).contains(&self.selfplay.full_search_share) {
            return bad("selfplay.full_search_share", "must be within 0..=1");
        }
        if !(0.0..=1.0).contains(&self.selfplay.playout_share) {
            return bad("selfplay.playout_share", "must be within 0..=1");
        }
        if self.selfplay.simulations == 0 || self.selfplay.games_in_flight == 0 {
            return bad(
                "selfplay",
                "simulations and games_in_flight must be at least 1",
            );
        }
        if self.window.max_uses == 0 {
            return bad("window.max_uses", "must be at least 1");
        }
        if self.window.max_size < self.window.min_size {
            return bad("window.max_size", "must be at least window.min_size");
        }
        self.setups()?;
        Ok(())
    }

    /// The self-play setups the game's section names.
    ///
    /// # Errors
    /// [`Error::Setups`] when the game refuses them.
    pub fn setups(&self) -> Result<Box<dyn pjlab_core::Setups<K::Game>>, Error> {
        K::self_play_setups(&self.game).map_err(|cause| Error::Setups {
            game: K::INFO.name,
            cause,
        })
    }

    /// The evaluation games' setup variant (`eval.variant`).
    ///
    /// # Errors
    /// [`Error::EvalVariant`] when the game has no such variant.
    pub fn eval_variant(&self) -> Result<K::Variant, Error> {
        K::variant(&self.eval.variant).map_err(Error::EvalVariant)
    }
}

impl<K: GameKit> Serialize for RunConfig<K> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(12))?;
        map.serialize_entry("game", K::INFO.name)?;
        map.serialize_entry("seed", &self.seed)?;
        map.serialize_entry("iterations", &self.iterations)?;
        map.serialize_entry("games_per_iteration", &self.games_per_iteration)?;
        map.serialize_entry("workers", &self.workers)?;
        map.serialize_entry("cache_positions", &self.cache_positions)?;
        map.serialize_entry("network", &self.network)?;
        map.serialize_entry("selfplay", &self.selfplay)?;
        map.serialize_entry("window", &self.window)?;
        map.serialize_entry("train", &self.train)?;
        map.serialize_entry(K::INFO.name, &self.game)?;
        map.serialize_entry("eval", &self.eval)?;
        map.end()
    }
}

impl<'de, K: GameKit> Deserialize<'de> for RunConfig<K> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(RunConfigVisitor::<K>(std::marker::PhantomData))
    }
}

struct RunConfigVisitor<K>(std::marker::PhantomData<K>);

/// The top-level keys every game's run has.
const SHARED_KEYS: [&str; 11] = [
    "game",
    "seed",
    "iterations",
    "games_per_iteration",
    "workers",
    "cache_positions",
    "network",
    "selfplay",
    "window",
    "train",
    "eval",
];

impl<'de, K: GameKit> Visitor<'de> for RunConfigVisitor<K> {
    type Value = RunConfig<K>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a training configuration for {}", K::INFO.name)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RunConfig<K>, A::Error> {
        let mut config = RunConfig::<K>::default();
        // Each key once, as a derived struct would insist.
        let mut seen = BTreeSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if !seen.insert(key.clone()) {
                return Err(de::Error::custom(format_args!("duplicate key `{key}`")));
            }
            match key.as_str() {
                "game" => {
                    let name: String = map.next_value()?;
                    if name != K::INFO.name {
                        return Err(de::Error::custom(format_args!(
                            "game: this configuration is for `{name}`, not {}",
                            K::INFO.name
                        )));
                    }
                }
                "seed" => config.seed = map.next_value()?,
                "iterations" => config.iterations = map.next_value()?,
                "games_per_iteration" => config.games_per_iteration = map.next_value()?,
                "workers" => config.workers = map.next_value()?,
                "cache_positions" => config.cache_positions = map.next_value()?,
                "network" => config.network = map.next_value()?,
                "selfplay" => config.selfplay = map.next_value()?,
                "window" => config.window = map.next_value()?,
                "train" => config.train = map.next_value()?,
                "eval" => config.eval = map.next_value()?,
                name if name == K::INFO.name => config.game = map.next_value()?,
                name if EARLIER_TABLES.contains(&name) => {
                    map.next_value::<IgnoredAny>()?;
                }
                other => {
                    return Err(de::Error::custom(format_args!(
                        "unknown field `{other}`, expected one of {}, `{}`",
                        SHARED_KEYS.map(|k| format!("`{k}`")).join(", "),
                        K::INFO.name
                    )));
                }
            }
        }
        Ok(config)
    }
}
