//! The atlas file: its levels, opening protocols and ladder, checked when read.
//!
//! An [`Atlas`] is read from a TOML file written before any game is played. It expands into
//! [`Cell`]s, each an ordinary balance run (or, for the ladder, a tournament) in a directory of
//! its own under the atlas's directory, so that `pjlab report`, `--pool` and `pjlab show` read
//! every cell as they read any run. The cells come in the order they are played: level by level,
//! cheapest first, the ladder after the level the file names, so that an interrupted atlas
//! answers at every level it finished.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use pjlab_arena::{Player, RunKind, RunSpec};

/// The spec file's name inside an atlas directory (a copy of the file it was started from).
pub const SPEC_FILE: &str = "atlas.toml";

/// A whole atlas, as its TOML file states it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Atlas {
    /// The game, by its registry name.
    pub game: String,
    /// Seed of every cell's random setups and openings (the same for every cell, so that two
    /// levels meet the same setups and opening plies).
    pub seed: u64,
    /// Plies after which a game stops as a draw.
    #[serde(default = "max_plies")]
    pub max_plies: u32,
    /// Per-setup tables in the cells' reports (enumerable variants of at most 36 setups).
    #[serde(default)]
    pub per_setup: bool,
    /// The strength levels, in the order they are played (cheapest first).
    pub levels: Vec<Level>,
    /// The opening protocols every level is played under.
    pub protocols: Vec<Protocol>,
    /// The round robin of the levels, if any.
    #[serde(default)]
    pub ladder: Option<Ladder>,
}

fn max_plies() -> u32 {
    1000
}

/// One strength level: an agent spec on a fixed node, depth or simulation budget, so that its
/// play does not move with the machine's load.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Level {
    /// Short name: the cell directories' first component and the charts' label.
    pub name: String,
    /// The agent spec (`alphabeta:depth=3`, `net:checkpoint=DIR,sims=N`, ...).
    pub agent: String,
    /// What the level is, in words, for the report.
    #[serde(default)]
    pub about: String,
}

/// An opening protocol: where the variety between games comes from. A protocol holds one or
/// more runs, each a set of variants with its own opening rule (for example no plies on the
/// variants whose setups vary, near-best plies on the ones with a single setup).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Protocol {
    /// Short name.
    pub name: String,
    /// What the protocol is, in words, for the report.
    #[serde(default)]
    pub about: String,
    /// Its runs; every variant appears in at most one.
    pub runs: Vec<ProtocolRun>,
}

/// Variants played under one opening rule.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProtocolRun {
    /// The setup variants, by name.
    pub variants: Vec<String>,
    /// Games a variant (a fixed count: no early stop).
    pub games_per_variant: u64,
    /// Opening plies before the agents play (recorded as the games' first moves).
    pub opening_plies: u32,
    /// Opening plies only among the moves within this many centi-units of the best; unset,
    /// uniform over the legal moves.
    #[serde(default)]
    pub opening_margin: Option<i32>,
}

/// The round robin of the levels that measures their Elo on one ladder.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ladder {
    /// Games for each pair of levels (colour-paired).
    pub games_per_pair: u64,
    /// The variants it cycles through.
    pub variants: Vec<String>,
    /// Opening plies (as in [`ProtocolRun`]).
    pub opening_plies: u32,
    /// Opening margin (as in [`ProtocolRun`]).
    #[serde(default)]
    pub opening_margin: Option<i32>,
    /// The level after whose cells the ladder is played (the last level when unset).
    #[serde(default)]
    pub after: Option<String>,
}

/// What is wrong with an atlas file.
#[derive(Debug, thiserror::Error)]
pub enum AtlasError {
    /// Not TOML of the atlas's shape.
    #[error("atlas file: {0}")]
    Parse(toml::de::Error),
    /// Well-formed but inconsistent.
    #[error("atlas file: {0}")]
    Invalid(Invalid),
}

/// How a well-formed atlas file is inconsistent.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Invalid {
    /// No level or no protocol.
    #[error("an atlas needs at least one level and one protocol")]
    Empty,
    /// A level's name is not a slug.
    #[error("level name `{0}`: use letters, digits, '-' and '_'")]
    LevelName(String),
    /// A level's name is used twice, or is `ladder`.
    #[error("level name `{0}` is used twice (or is `ladder`)")]
    LevelTwice(String),
    /// A protocol's name is repeated or not a slug.
    #[error("protocol name `{0}`: repeated or not a slug")]
    ProtocolName(String),
    /// A protocol has no runs.
    #[error("protocol `{0}` has no runs")]
    NoRuns(String),
    /// A protocol's run has no variants or no games.
    #[error("protocol `{0}`: a run needs variants and games")]
    EmptyRun(String),
    /// A variant in two runs of one protocol.
    #[error("protocol `{protocol}`: variant {variant} twice")]
    VariantTwice {
        /// The protocol.
        protocol: String,
        /// The variant.
        variant: String,
    },
    /// A ladder with fewer than two levels, no games or no variants.
    #[error("the ladder needs two levels, games and variants")]
    Ladder,
    /// The ladder comes after a level the atlas does not have.
    #[error("the ladder comes after `{0}`, not a level")]
    LadderAfter(String),
}

/// One run of the atlas.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    /// Its directory, relative to the atlas's.
    pub dir: PathBuf,
    /// The level it plays (none for the ladder).
    pub level: Option<String>,
    /// The protocol's name (none for the ladder).
    pub protocol: Option<String>,
    /// The run (without its command line and sessions, which the runner fills in).
    pub spec: RunSpec,
}

impl Atlas {
    /// Reads an atlas from its TOML text and checks it.
    ///
    /// # Errors
    /// [`AtlasError::Parse`] for text that is not an atlas, [`AtlasError::Invalid`] for empty
    /// lists, repeated names, a variant in two runs of a protocol, or a ladder after no level.
    pub fn parse(text: &str) -> Result<Atlas, AtlasError> {
        let atlas: Atlas = toml::from_str(text).map_err(AtlasError::Parse)?;
        atlas.check().map_err(AtlasError::Invalid)?;
        Ok(atlas)
    }

    fn check(&self) -> Result<(), Invalid> {
        if self.levels.is_empty() || self.protocols.is_empty() {
            return Err(Invalid::Empty);
        }
        let mut names: Vec<&str> = self.levels.iter().map(|l| l.name.as_str()).collect();
        names.push("ladder");
        for (i, name) in names.iter().enumerate() {
            if !is_slug(name) {
                return Err(Invalid::LevelName(name.to_string()));
            }
            if names[..i].contains(name) {
                return Err(Invalid::LevelTwice(name.to_string()));
            }
        }
        let mut protocols: Vec<&str> = Vec::new();
        for p in &self.protocols {
            if !is_slug(&p.name) || protocols.contains(&p.name.as_str()) {
                return Err(Invalid::ProtocolName(p.name.clone()));
            }
            protocols.push(&p.name);
            if p.runs.is_empty() {
                return Err(Invalid::NoRuns(p.name.clone()));
            }
            let mut seen: Vec<&str> = Vec::new();
            for run in &p.runs {
                if run.variants.is_empty() || run.games_per_variant == 0 {
                    return Err(Invalid::EmptyRun(p.name.clone()));
                }
                for v in &run.variants {
                    if seen.contains(&v.as_str()) {
                        return Err(Invalid::VariantTwice {
                            protocol: p.name.clone(),
                            variant: v.clone(),
                        });
                    }
                    seen.push(v);
                }
            }
        }
        if let Some(ladder) = &self.ladder {
            if self.levels.len() < 2 || ladder.games_per_pair == 0 || ladder.variants.is_empty() {
                return Err(Invalid::Ladder);
            }
            if let Some(after) = &ladder.after
                && !self.levels.iter().any(|l| &l.name == after)
            {
                return Err(Invalid::LadderAfter(after.clone()));
            }
        }
        Ok(())
    }

    /// The atlas's runs in the order they are played.
    pub fn cells(&self) -> Vec<Cell> {
        let after = self.ladder.as_ref().map(|l| {
            l.after
                .clone()
                .unwrap_or_else(|| self.levels[self.levels.len() - 1].name.clone())
        });
        let mut cells = Vec::new();
        for level in &self.levels {
            for protocol in &self.protocols {
                for (i, run) in protocol.runs.iter().enumerate() {
                    let dir = if protocol.runs.len() == 1 {
                        protocol.name.clone()
                    } else {
                        format!("{}-{}", protocol.name, i + 1)
                    };
                    cells.push(Cell {
                        dir: PathBuf::from(&level.name).join(dir),
                        level: Some(level.name.clone()),
                        protocol: Some(protocol.name.clone()),
                        spec: self.balance(level, run),
                    });
                }
            }
            if after.as_deref() == Some(level.name.as_str())
                && let Some(ladder) = &self.ladder
            {
                cells.push(Cell {
                    dir: PathBuf::from("ladder"),
                    level: None,
                    protocol: None,
                    spec: self.tournament(ladder),
                });
            }
        }
        cells
    }

    fn balance(&self, level: &Level, run: &ProtocolRun) -> RunSpec {
        RunSpec {
            game: self.game.clone(),
            kind: RunKind::Balance,
            players: vec![Player {
                label: level.name.clone(),
                spec: level.agent.clone(),
            }],
            variants: run.variants.clone(),
            games: run.games_per_variant,
            seed: self.seed,
            opening_plies: run.opening_plies,
            opening_margin: run.opening_margin,
            max_plies: self.max_plies,
            sprt: None,
            per_setup: self.per_setup,
            time_per_move_ms: None,
            shard: None,
            command: String::new(),
            sessions: Vec::new(),
            pooled_seeds: Vec::new(),
        }
    }

    fn tournament(&self, ladder: &Ladder) -> RunSpec {
        RunSpec {
            game: self.game.clone(),
            kind: RunKind::Tournament,
            players: self
                .levels
                .iter()
                .map(|l| Player {
                    label: l.name.clone(),
                    spec: l.agent.clone(),
                })
                .collect(),
            variants: ladder.variants.clone(),
            games: ladder.games_per_pair,
            seed: self.seed,
            opening_plies: ladder.opening_plies,
            opening_margin: ladder.opening_margin,
            max_plies: self.max_plies,
            sprt: None,
            per_setup: false,
            time_per_move_ms: None,
            shard: None,
            command: String::new(),
            sessions: Vec::new(),
            pooled_seeds: Vec::new(),
        }
    }
}

fn is_slug(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = r#"
game = "pijersi"
seed = 7
[[levels]]
name = "d1"
agent = "alphabeta:depth=1"
[[levels]]
name = "d2"
agent = "alphabeta:depth=2"
[[levels]]
name = "d3"
agent = "alphabeta:depth=3"
[[protocols]]
name = "plies"
[[protocols.runs]]
variants = ["classic", "half-random"]
games_per_variant = 20
opening_plies = 2
opening_margin = 30
[[protocols]]
name = "setups"
[[protocols.runs]]
variants = ["half-random"]
games_per_variant = 10
opening_plies = 0
[[protocols.runs]]
variants = ["classic"]
games_per_variant = 10
opening_plies = 4
opening_margin = 10
[ladder]
games_per_pair = 4
variants = ["classic"]
opening_plies = 2
opening_margin = 30
after = "d2"
"#;

    #[test]
    fn cells_come_level_by_level_with_the_ladder_where_named() {
        let atlas = Atlas::parse(TEXT).unwrap();
        let dirs: Vec<String> = atlas
            .cells()
            .iter()
            .map(|c| c.dir.display().to_string())
            .collect();
        assert_eq!(
            dirs,
            [
                "d1/plies",
                "d1/setups-1",
                "d1/setups-2",
                "d2/plies",
                "d2/setups-1",
                "d2/setups-2",
                "ladder",
                "d3/plies",
                "d3/setups-1",
                "d3/setups-2"
            ]
        );
        let cells = atlas.cells();
        let near_best = &cells[2].spec;
        assert_eq!(near_best.kind, RunKind::Balance);
        assert_eq!(near_best.players[0].spec, "alphabeta:depth=1");
        assert_eq!(
            (near_best.opening_plies, near_best.opening_margin),
            (4, Some(10))
        );
        let ladder = &cells[6].spec;
        assert_eq!(ladder.kind, RunKind::Tournament);
        assert_eq!(ladder.players.len(), 3);
        assert!(cells.iter().all(|c| c.spec.seed == 7));
    }

    #[test]
    fn inconsistent_atlases_are_refused_with_a_reason() {
        for (from, to, why) in [
            ("name = \"d2\"", "name = \"d1\"", "twice"),
            ("after = \"d2\"", "after = \"d9\"", "not a level"),
            (
                "variants = [\"half-random\"]",
                "variants = [\"classic\"]",
                "twice",
            ),
            ("seed = 7", "seed = 7\nspeed = 1", "unknown field"),
            (
                "games_per_variant = 20",
                "games_per_variant = 0",
                "needs variants",
            ),
            ("name = \"d3\"", "name = \"ladder\"", "ladder"),
        ] {
            let text = TEXT.replacen(from, to, 1);
            let error = Atlas::parse(&text).unwrap_err().to_string();
            assert!(error.contains(why), "{to}: {error}");
        }
    }
}
