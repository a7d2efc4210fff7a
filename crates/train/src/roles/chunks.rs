//! Self-play chunks in a run directory: their names, which ones are committed, and reading one.

use std::path::Path;

use pjlab_selfplay::{GameRow, PositionRow, SelfPlayStats, read_games, read_positions};

use crate::Error;
use crate::checkpoint::io_err;

/// The name of actor `actor`'s chunk number `seq`: `a001-000017`.
pub fn chunk_name(actor: u32, seq: u64) -> String {
    format!("a{actor:03}-{seq:06}")
}

/// The actor and number a chunk name holds, if it is one.
pub fn parse_chunk_name(name: &str) -> Option<(u32, u64)> {
    let (actor, seq) = name.strip_prefix('a')?.split_once('-')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(actor) || !digits(seq) {
        return None;
    }
    Some((actor.parse().ok()?, seq.parse().ok()?))
}

/// Chunk names of the `.parquet` files in `dir` (a run's `games/` or `positions/`).
fn names_in(dir: &Path) -> Result<Vec<String>, Error> {
    if !dir.exists() {
        return Ok(Vec::new());
    }
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map_err(io_err(dir))?
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let stem = name.strip_suffix(".parquet")?;
            parse_chunk_name(stem).map(|_| stem.to_string())
        })
        .collect();
    names.sort();
    Ok(names)
}

/// The committed chunks of the run directory `run` (those with a games file), sorted by name.
///
/// # Errors
/// [`Error::Io`] when `games/` cannot be listed.
pub fn committed(run: &Path) -> Result<Vec<String>, Error> {
    names_in(&run.join("games"))
}

/// The number actor `actor`'s next chunk takes: one past the highest it has left in `games/`
/// or `positions/` (a chunk cut short leaves only its positions), from 1.
///
/// # Errors
/// [`Error::Io`] when a directory cannot be listed.
pub fn next_seq(run: &Path, actor: u32) -> Result<u64, Error> {
    let mut next = 1;
    for sub in ["games", "positions"] {
        for name in names_in(&run.join(sub))? {
            if let Some((a, seq)) = parse_chunk_name(&name)
                && a == actor
            {
                next = next.max(seq + 1);
            }
        }
    }
    Ok(next)
}

/// A committed chunk, read back.
#[derive(Clone, Debug)]
pub struct Chunk {
    /// Its name (`a001-000017`).
    pub name: String,
    /// Its games.
    pub games: Vec<GameRow>,
    /// Their positions.
    pub positions: Vec<PositionRow>,
}

impl Chunk {
    /// Reads chunk `name` of the run directory `run`.
    ///
    /// # Errors
    /// [`Error::Records`] when a file is missing or does not read.
    pub fn read(run: &Path, name: &str) -> Result<Chunk, Error> {
        let file = format!("{name}.parquet");
        Ok(Chunk {
            name: name.to_string(),
            games: read_games(&run.join("games").join(&file))?,
            positions: read_positions(&run.join("positions").join(&file))?,
        })
    }

    /// The self-play counters its records give (resignation checks and simulations are not
    /// recorded, so they stay 0).
    pub fn stats(&self) -> SelfPlayStats {
        let mut s = SelfPlayStats {
            games: self.games.len() as u64,
            positions: self.positions.len() as u64,
            policy_targets: self.positions.iter().filter(|p| p.policy_target).count() as u64,
            ..SelfPlayStats::default()
        };
        for g in &self.games {
            match g.result {
                1 => s.first_wins += 1,
                -1 => s.second_wins += 1,
                _ => s.draws += 1,
            }
            match g.termination.as_str() {
                "resigned" => s.resigned += 1,
                "max-plies" => s.max_plies += 1,
                _ => {}
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunk_names_parse_back_and_others_are_refused() {
        assert_eq!(chunk_name(1, 17), "a001-000017");
        assert_eq!(parse_chunk_name(&chunk_name(1, 17)), Some((1, 17)));
        assert_eq!(
            parse_chunk_name(&chunk_name(1234, 1_234_567)),
            Some((1234, 1_234_567))
        );
        for other in ["iter-0001", "a-1", "a1-", "ax-1", "a1-2x", "b001-000001"] {
            assert_eq!(parse_chunk_name(other), None, "{other}");
        }
    }

    #[test]
    fn the_next_number_follows_both_directories() {
        let dir = tempfile::tempdir().unwrap();
        for sub in ["games", "positions"] {
            std::fs::create_dir_all(dir.path().join(sub)).unwrap();
        }
        assert_eq!(next_seq(dir.path(), 2).unwrap(), 1);
        std::fs::write(dir.path().join("games/a002-000003.parquet"), "").unwrap();
        // A chunk cut short: its positions only.
        std::fs::write(dir.path().join("positions/a002-000004.parquet"), "").unwrap();
        std::fs::write(dir.path().join("games/a003-000009.parquet"), "").unwrap();
        std::fs::write(dir.path().join("games/iter-0001.parquet"), "").unwrap();
        assert_eq!(next_seq(dir.path(), 2).unwrap(), 5);
        assert_eq!(next_seq(dir.path(), 3).unwrap(), 10);
        assert_eq!(
            committed(dir.path()).unwrap(),
            vec!["a002-000003".to_string(), "a003-000009".to_string()]
        );
    }
}
