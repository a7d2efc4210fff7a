//! `pjlab chifoumi`'s command line: its subcommands and the rules options they share.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use pjlab_chifoumi::{Map, Rules};

/// Chifoumi on a grid: spatial rock-paper-scissors with hidden bags (`../shared/specs/chifoumi.md`).
///
/// Players are specs: random, focused:F (or P, C), greedy, avoider, counter, counter-reset,
/// observer, lurker, ismcts (information-set MCTS: ismcts:sims=400,c=0.7,leaf=0.5,hidden=0.1,tie=0.1),
/// and net:checkpoint=DIR,temp=1 (a network of `pjlab chifoumi train`).
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    pub(super) command: Command,
}

#[derive(clap::Subcommand, Debug)]
pub(super) enum Command {
    /// Two players, N matches (seats swap every match; matches 2k and 2k+1 share a seed).
    Match {
        /// First player's spec.
        #[arg(long)]
        a: Option<String>,
        /// Second player's spec.
        #[arg(long)]
        b: Option<String>,
        /// Matches to play (each of `--games` games).
        #[arg(long, default_value_t = 100)]
        matches: u32,
        #[command(flatten)]
        common: Common,
    },
    /// A round robin: every pair of players, N matches each.
    Tournament {
        /// Comma-separated player specs, each with its own options after it
        /// (`ismcts:sims=100,c=0.7,greedy`), or the flag repeated for each (a repeated spec
        /// becomes `spec#2`).
        #[arg(long, num_args = 1)]
        players: Vec<String>,
        /// Matches per pair.
        #[arg(long, default_value_t = 20)]
        matches: u32,
        #[command(flatten)]
        common: Common,
    },
    /// The 5-player extension: every player on one grid for `--turns` turns, N arenas (the
    /// seats rotate from one arena to the next). Each player duels the nearest player in view.
    Arena {
        /// Comma-separated player specs, 2 to 8, each with its own options after it, or the
        /// flag repeated for each (a repeated spec becomes `spec#2`).
        #[arg(long, num_args = 1)]
        players: Vec<String>,
        /// Arenas to play.
        #[arg(long, default_value_t = 20)]
        arenas: u32,
        /// Length of an arena (turns, one player's action each).
        #[arg(long, default_value_t = 1000)]
        turns: u32,
        /// How long a duel's loser sits out (turns).
        #[arg(long, default_value_t = 50)]
        sit_out: u32,
        #[command(flatten)]
        common: Common,
    },
    /// Trains the learned player: policy gradient with a value baseline against a pool of its
    /// past selves and the scripted players, with the match in its input. Writes checkpoints
    /// (an existing --out resumes exactly), metrics.jsonl, plots, and one provenance line per
    /// invocation (provenance.jsonl); play it as net:checkpoint=DIR.
    Train {
        /// The run's settings, TOML (see configs/chifoumi.toml; default: the built-in values,
        /// or the run's own config.toml when --out holds a run).
        #[arg(long)]
        config: Option<PathBuf>,
        /// Run directory.
        #[arg(long, default_value = "runs/chifoumi")]
        out: PathBuf,
        /// Stop after this many iterations of this invocation (resume later with the same --out).
        #[arg(long)]
        iterations: Option<u32>,
    },
    /// A player's exploitability: its matches against each of the ten scripted players, a best
    /// response trained against the frozen player (policy gradient, as `train`, the player its
    /// only opponent), and ISMCTS-BR (`ismcts` with the opponent's turns in its search played by
    /// the frozen player). Writes one run directory a stage under --out and report.md, which
    /// ends with `worst: <opponent> <score>% (<low>-<high>)`; an existing --out resumes (killed
    /// anywhere, it ends with the same records). `pjlab report DIR` writes the report again.
    Exploit {
        /// The player measured: a scripted player or net:checkpoint=DIR[,temp=T] (omit it to
        /// resume the run in --out).
        #[arg(long)]
        player: Option<String>,
        /// Run directory.
        #[arg(long)]
        out: PathBuf,
        /// The run's seed and counts.
        #[command(flatten)]
        counts: super::exploit::Counts,
        /// Worker threads (default: one per core).
        #[arg(long)]
        workers: Option<usize>,
    },
    /// Draws one game as a self-contained HTML page that steps through its turns: a game of a
    /// recorded run (`--from DIR --match-id N`) or a fresh match (`--a`, `--b`, `--seed`).
    Show {
        /// A run directory (of `pjlab chifoumi match` or `tournament`) to take the game from.
        #[arg(long, conflicts_with_all = ["a", "b"])]
        from: Option<PathBuf>,
        /// The match's id in that run.
        #[arg(long, default_value_t = 0)]
        match_id: u64,
        /// First player of a fresh match.
        #[arg(long, default_value = "focused:F")]
        a: String,
        /// Second player of a fresh match.
        #[arg(long, default_value = "observer")]
        b: String,
        /// Seed of a fresh match.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The game of the match to draw (0-based).
        #[arg(long, default_value_t = 0)]
        game: usize,
        /// Map file of a fresh match (default: the spec's open 20 x 20 grid).
        #[arg(long)]
        map: Option<PathBuf>,
        /// Where to write the page.
        #[arg(long, default_value = "chifoumi-game.html")]
        out: PathBuf,
    },
}

/// Options every run takes.
#[derive(clap::Args, Debug)]
pub(super) struct Common {
    /// Run directory: records (Parquet), report.md, scores.svg.
    #[arg(long)]
    pub(super) out: PathBuf,
    /// Seed of the run; every match's seed derives from it.
    #[arg(long, default_value_t = 1)]
    pub(super) seed: u64,
    /// Worker threads (default: one per core).
    #[arg(long)]
    pub(super) workers: Option<usize>,
    /// Continue the interrupted run in --out with the options it was started with.
    #[arg(long)]
    pub(super) resume: bool,
    /// Map file (`.` free, `#` wall, `F`/`P`/`C` zone cells; default: the spec's 20 x 20).
    #[arg(long)]
    pub(super) map: Option<PathBuf>,
    /// Games in a match.
    #[arg(long, default_value_t = 10)]
    pub(super) games: u16,
    /// Rounds after which a game without a duel is drawn (one turn per player each).
    #[arg(long, default_value_t = 100)]
    pub(super) max_rounds: u16,
    /// Visibility radius (cells, Chebyshev; at most 5).
    #[arg(long, default_value_t = 2)]
    pub(super) radius: u8,
    /// Objects of each type dealt in its zone.
    #[arg(long, default_value_t = 6)]
    pub(super) zone_objects: u8,
    /// Objects of each type dealt on random free cells.
    #[arg(long, default_value_t = 4)]
    pub(super) random_objects: u8,
    /// Allow STAY (pass) as an action.
    #[arg(long)]
    pub(super) stay: bool,
    /// A match's next game keeps the uncollected objects instead of dealing anew.
    #[arg(long)]
    pub(super) keep_objects: bool,
    /// Player 0 moves first in every game instead of alternating.
    #[arg(long)]
    pub(super) no_alternate: bool,
}

pub(super) fn read_map(path: Option<&Path>) -> Result<Map> {
    match path {
        None => Ok(Map::default()),
        Some(p) => {
            let text = std::fs::read_to_string(p)
                .with_context(|| format!("cannot read map {}", p.display()))?;
            Map::parse(&text).with_context(|| format!("map {}", p.display()))
        }
    }
}

impl Common {
    pub(super) fn rules(&self) -> Result<Rules> {
        Ok(Rules {
            map: read_map(self.map.as_deref())?,
            zone_objects: self.zone_objects,
            random_objects: self.random_objects,
            radius: self.radius,
            max_rounds: self.max_rounds,
            games: self.games,
            alternate_first: !self.no_alternate,
            stay: self.stay,
            keep_objects: self.keep_objects,
        })
    }
}
