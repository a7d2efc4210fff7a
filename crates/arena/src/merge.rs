//! The merge of a run's finished shards (`pjlab report --merge`): the N parts played apart with
//! `--shard K/N` (see [`crate::shard`]) joined into the run they make up, exactly as if it had
//! been played in one piece, after checking that they are all the parts of one run, each finished.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use pjlab_core::GameKit;
use pjlab_run::dir::Opener;

use crate::fault::MergeFault;
use crate::runner::Played;
use crate::schedule::RunSpec;
use crate::{Error, record, report, session};

/// Writes a joined run (shards merged, or replicates pooled) into `out`, opened on `pjlab-run`'s
/// [`Opener`] (locked, another kind or game refused, its `run.json` written): its games file and
/// its report.
///
/// # Errors
/// [`Error::Spec`] for a spec whose schedule cannot be made, [`Error::Lock`] when `out` is
/// refused or cannot be made, [`Error::Io`] or [`Error::Records`] when a file cannot be written.
pub fn write_joined<K: GameKit>(
    out: &Path,
    spec: &RunSpec,
    games: &[Played<K>],
) -> Result<(), Error> {
    let scheduled = spec.schedule::<K>()?.len();
    let _run = Opener::new(spec.kind, &spec.game, "pjlab report")
        .lock(out)
        .and_then(|opening| opening.commit())
        .map_err(Error::Lock)?;
    record::save::<K>(&session::games_file(out), spec, games)?;
    report::write::<K>(out, spec, games, scheduled)?;
    Ok(())
}

/// A command line without its `--shard K/N` (or `--shard=K/N`): the merged run's command.
pub fn without_shard_flag(command: &str) -> String {
    let mut kept = Vec::new();
    let mut words = command.split(' ');
    while let Some(word) = words.next() {
        if word == "--shard" {
            words.next();
        } else if !word.starts_with("--shard=") {
            kept.push(word);
        }
    }
    kept.join(" ")
}

/// One shard as read from its directory.
#[derive(Clone, Debug)]
pub struct ShardRun<K: GameKit> {
    /// Where it was read from, to name it in errors.
    pub source: String,
    /// Its options (with its [`RunSpec::shard`]).
    pub spec: RunSpec,
    /// Its games.
    pub games: Vec<Played<K>>,
}

/// Joins the N finished shards of one run (in any order) into that run: the spec without a
/// shard, with the first shard's command less its `--shard K/N` and every shard's sessions in
/// shard order, and every game, sorted by id.
///
/// # Errors
/// [`Error::Merge`] when a run is not a shard, when the shards' options differ in anything but
/// their shard, command and sessions, when their shard counts disagree, when a shard is missing
/// or given twice, when a shard holds a game not of its part or a game held elsewhere, and when a
/// shard is unfinished.
pub fn merge<K: GameKit>(shards: Vec<ShardRun<K>>) -> Result<(RunSpec, Vec<Played<K>>), Error> {
    let shards = in_shard_order(shards)?;
    let first = &shards[0];
    let mut games = Vec::new();
    let mut seen: HashMap<u64, &str> = HashMap::new();
    for s in &shards {
        let differ = differences(&first.spec, &s.spec)?;
        if !differ.is_empty() {
            return Err(MergeFault::NotShards {
                first: first.source.clone(),
                other: s.source.clone(),
                differ,
            }
            .into());
        }
        check_games(s, &mut seen)?;
        games.extend(s.games.iter().cloned());
    }
    games.sort_by_key(|g| g.spec.id);
    let mut spec = bare(&first.spec);
    spec.command = without_shard_flag(&first.spec.command);
    spec.sessions = shards
        .iter()
        .flat_map(|s| s.spec.sessions.iter().cloned())
        .collect();
    Ok((spec, games))
}

/// The shards sorted by index, once each and all N of them.
fn in_shard_order<K: GameKit>(shards: Vec<ShardRun<K>>) -> Result<Vec<ShardRun<K>>, Error> {
    let mut by_index: BTreeMap<u32, ShardRun<K>> = BTreeMap::new();
    let mut count = None;
    for s in shards {
        let Some(shard) = s.spec.shard else {
            return Err(MergeFault::NotAShard(s.source.clone()).into());
        };
        let (n, named) = count.get_or_insert((shard.count(), s.source.clone()));
        let n = *n;
        if shard.count() != n {
            return Err(MergeFault::Counts {
                named: named.clone(),
                count: n,
                other: s.source.clone(),
                shard,
            }
            .into());
        }
        if let Some(other) = by_index.get(&shard.index()) {
            return Err(MergeFault::Twice {
                shard,
                first: other.source.clone(),
                second: s.source.clone(),
            }
            .into());
        }
        by_index.insert(shard.index(), s);
    }
    let Some((n, _)) = count else {
        return Err(MergeFault::None.into());
    };
    let missing: Vec<String> = (1..=n)
        .filter(|k| !by_index.contains_key(k))
        .map(|k| format!("{k}/{n}"))
        .collect();
    if !missing.is_empty() {
        return Err(MergeFault::Missing { missing, count: n }.into());
    }
    Ok(by_index.into_values().collect())
}

/// Every game of `s` is of its part and held by no other shard (`seen`: game id to source),
/// and its part is played in full.
fn check_games<'a, K: GameKit>(
    s: &'a ShardRun<K>,
    seen: &mut HashMap<u64, &'a str>,
) -> Result<(), Error> {
    let part = s.spec.shard_schedule::<K>()?;
    let Some(shard) = s.spec.shard else {
        return Err(MergeFault::NotAShard(s.source.clone()).into());
    };
    for g in &s.games {
        if !part.iter().any(|p| p.id == g.spec.id) {
            return Err(MergeFault::NotOfShard {
                source_dir: s.source.clone(),
                id: g.spec.id,
                shard,
            }
            .into());
        }
        if let Some(other) = seen.insert(g.spec.id, &s.source) {
            return Err(MergeFault::GameTwice {
                id: g.spec.id,
                first: other.to_string(),
                second: s.source.clone(),
            }
            .into());
        }
    }
    if s.games.len() < part.len() {
        return Err(MergeFault::Unfinished {
            source_dir: s.source.clone(),
            played: s.games.len(),
            of: part.len(),
            shard,
        }
        .into());
    }
    Ok(())
}

/// The spec without what may differ between the shards of one run.
pub(crate) fn bare(spec: &RunSpec) -> RunSpec {
    RunSpec {
        shard: None,
        command: String::new(),
        sessions: Vec::new(),
        ..spec.clone()
    }
}

/// The names of the options in which two shards' specs differ, sorted.
pub(crate) fn differences(a: &RunSpec, b: &RunSpec) -> Result<Vec<String>, Error> {
    let (a, b) = (
        serde_json::to_value(bare(a))?,
        serde_json::to_value(bare(b))?,
    );
    let (Some(a), Some(b)) = (a.as_object(), b.as_object()) else {
        return Ok(Vec::new());
    };
    let mut keys: Vec<String> = a
        .iter()
        .filter(|&(key, value)| b.get(key) != Some(value))
        .map(|(key, _)| key.clone())
        .collect();
    keys.sort();
    Ok(keys)
}

#[cfg(test)]
mod tests {
    use pjlab_core::Provenance;
    use pjlab_pijersi::PijersiKit;

    use super::*;
    use crate::schedule::{Player, RunKind};
    use crate::shard::Shard;
    use crate::testing::play;

    /// A match of 5 colour pairs between quick agents.
    fn whole() -> RunSpec {
        RunSpec {
            game: "pijersi".into(),
            kind: RunKind::Match,
            players: ["greedy", "random"]
                .map(|s| Player {
                    label: s.into(),
                    spec: s.into(),
                })
                .into(),
            variants: vec!["classic".into(), "half-random".into()],
            games: 10,
            seed: 3,
            opening_plies: 2,
            opening_margin: None,
            max_plies: 60,
            sprt: None,
            per_setup: false,
            time_per_move_ms: None,
            shard: None,
            command: "pjlab match --a greedy --b random".into(),
            sessions: Vec::new(),
            pooled_seeds: Vec::new(),
        }
    }

    /// Shard `k` of `n` of [`whole`], played, as if run with `--shard k/n`.
    fn shard(k: u32, n: u32) -> ShardRun<PijersiKit> {
        let command = format!("pjlab match --a greedy --shard {k}/{n} --b random");
        let spec = RunSpec {
            shard: Some(Shard::new(k, n).unwrap()),
            sessions: vec![Provenance {
                command: command.clone(),
                ..Provenance::default()
            }],
            command,
            ..whole()
        };
        let games = play(&spec);
        ShardRun {
            source: format!("s{k}"),
            spec,
            games,
        }
    }

    fn refusal(shards: Vec<ShardRun<PijersiKit>>) -> String {
        merge(shards).unwrap_err().to_string()
    }

    #[test]
    fn merged_shards_are_the_unsharded_run() {
        let unsharded = play(&whole());
        let [one, two, three] = [1, 2, 3].map(|k| shard(k, 3));
        let (spec, games) = merge(vec![three.clone(), one.clone(), two.clone()]).unwrap();
        assert_eq!(games, unsharded);
        let sessions: Vec<String> = spec.sessions.iter().map(|s| s.command.clone()).collect();
        assert_eq!(
            sessions,
            [&one, &two, &three].map(|s| s.spec.command.clone())
        );
        assert_eq!(
            RunSpec {
                sessions: Vec::new(),
                ..spec
            },
            whole()
        );

        let mut unfinished = two.clone();
        unfinished.games.pop();
        let stray = ShardRun {
            games: [two.games.clone(), vec![one.games[0].clone()]].concat(),
            ..two.clone()
        };
        let repeated = ShardRun {
            games: [two.games.clone(), vec![two.games[0].clone()]].concat(),
            ..two.clone()
        };
        let reseeded = ShardRun {
            spec: RunSpec {
                seed: 4,
                max_plies: 61,
                ..two.spec.clone()
            },
            ..two.clone()
        };
        let unsharded = ShardRun {
            spec: whole(),
            ..two.clone()
        };
        for (shards, needle) in [
            (vec![one.clone(), three.clone()], "shard 2/3 missing"),
            (
                vec![one.clone(), two.clone(), one.clone(), three.clone()],
                "1/3 is given twice",
            ),
            (vec![one.clone(), shard(2, 2)], "shard counts disagree"),
            (
                vec![one.clone(), unsharded, three.clone()],
                "s2 is not a shard",
            ),
            (
                vec![one.clone(), reseeded, three.clone()],
                "max_plies, seed differ",
            ),
            (
                vec![one.clone(), unfinished, three.clone()],
                "s2 is unfinished: 3 of the 4",
            ),
            (
                vec![one.clone(), stray, three.clone()],
                "game 0 is not of shard 2/3",
            ),
            (vec![one.clone(), repeated, three.clone()], "appears twice"),
        ] {
            let why = refusal(shards);
            assert!(why.contains(needle), "{needle:?} not in {why:?}");
        }
    }

    #[test]
    fn the_merged_command_loses_only_the_shard() {
        assert_eq!(
            without_shard_flag("pjlab balance --agent greedy --shard 2/3 --out 'a b'"),
            "pjlab balance --agent greedy --out 'a b'"
        );
        assert_eq!(
            without_shard_flag("pjlab match --shard=1/2 --a random"),
            "pjlab match --a random"
        );
        assert_eq!(without_shard_flag("pjlab match"), "pjlab match");
    }
}
