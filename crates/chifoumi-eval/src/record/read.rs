//! Reading a run's tables back: every column checked, every match and arena rebuilt.

use std::collections::BTreeMap;
use std::path::Path;

use pjlab_chifoumi::players::{ArenaDuel, ArenaResult};
use pjlab_chifoumi::{Action, Bag, Duel, GameEnd, GameSummary, MatchResult, Object};
use pjlab_run::table::{Schema, Table};

use super::{ARENAS, DUELS, GAMES, MATCHES, RUN_KEY, io, table_error};
use crate::{Error, MatchSpec, PlayedArena, PlayedMatch, RunSpec};

/// A table and the run spec of its footer.
fn read_table(path: &Path, schema: &Schema) -> Result<(RunSpec, Table), Error> {
    let table = Table::read(path, schema).map_err(table_error)?;
    let spec = table
        .meta(RUN_KEY)
        .ok_or_else(|| io(path, format!("no {RUN_KEY} footer key")))?;
    let run: RunSpec = serde_json::from_str(spec).map_err(|e| io(path, e))?;
    Ok((run, table))
}

fn bag_of(path: &Path, counts: &[u16]) -> Result<Bag, Error> {
    match *counts {
        [f, p, c] => Ok(Bag::new(f, p, c)),
        _ => Err(io(path, format!("a bag of {} counts", counts.len()))),
    }
}

fn object_of(path: &Path, text: &str) -> Result<Option<Object>, Error> {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (None, _) => Ok(None),
        (Some(c), None) => Object::from_letter(c)
            .map(Some)
            .ok_or_else(|| io(path, format!("bad draw {text:?}"))),
        _ => Err(io(path, format!("bad draw {text:?}"))),
    }
}

fn seat_index(path: &Path, run: &RunSpec, label: &str) -> Result<usize, Error> {
    run.players
        .iter()
        .position(|p| p == label)
        .ok_or_else(|| io(path, format!("player {label:?} is not in the run spec")))
}

/// The draw of a duel's side: a letter, never empty.
fn draw_of(path: &Path, text: &str) -> Result<Object, Error> {
    object_of(path, text)?.ok_or_else(|| io(path, "a duel without draws"))
}

pub(super) fn read_matches(
    path: &Path,
    games_path: &Path,
) -> Result<(RunSpec, Vec<PlayedMatch>), Error> {
    let (run, t) = read_table(path, &MATCHES)?;
    let (_, g) = read_table(games_path, &GAMES)?;
    type Games = Vec<(u16, GameSummary, Vec<Action>)>;
    let mut games: BTreeMap<u64, Games> = BTreeMap::new();
    let gp = games_path;
    let e = table_error;
    let (first, turns, trigger) = (
        g.u8s("first").map_err(e)?,
        g.u16s("turns").map_err(e)?,
        g.i8s("trigger").map_err(e)?,
    );
    let draws = [g.strs("draw_0").map_err(e)?, g.strs("draw_1").map_err(e)?];
    let bags = [
        g.u16_lists("bag_0").map_err(e)?,
        g.u16_lists("bag_1").map_err(e)?,
    ];
    let (ids, numbers) = (g.u64s("match_id").map_err(e)?, g.u16s("game").map_err(e)?);
    let actions = g.str_lists("actions").map_err(e)?;
    for i in 0..g.len() {
        let end = match trigger[i] {
            -1 => GameEnd::TimeOut,
            t @ (0 | 1) => {
                let t = t as u8;
                let draw = |p: u8| draw_of(gp, &draws[p as usize][i]);
                GameEnd::Duel(Duel {
                    trigger: t,
                    target: 1 - t,
                    draws: [draw(t)?, draw(1 - t)?],
                })
            }
            t => return Err(io(gp, format!("bad trigger {t}"))),
        };
        let acts = actions[i]
            .iter()
            .map(|a| a.parse::<Action>().map_err(|e| io(gp, e)))
            .collect::<Result<Vec<_>, _>>()?;
        let summary = GameSummary {
            end,
            first: first[i],
            turns: turns[i],
            bags: [bag_of(gp, &bags[0][i])?, bag_of(gp, &bags[1][i])?],
        };
        games
            .entry(ids[i])
            .or_default()
            .push((numbers[i], summary, acts));
    }
    let (ids, seeds, count) = (
        t.u64s("match_id").map_err(e)?,
        t.u64s("seed").map_err(e)?,
        t.u16s("games").map_err(e)?,
    );
    let players = [
        t.strs("player_0").map_err(e)?,
        t.strs("player_1").map_err(e)?,
    ];
    let mut out = Vec::new();
    for i in 0..t.len() {
        let mut list = games.remove(&ids[i]).unwrap_or_default();
        list.sort_by_key(|g| g.0);
        if list.len() != usize::from(count[i]) {
            return Err(io(
                games_path,
                format!(
                    "match {} has {} games here, {} in matches.parquet",
                    ids[i],
                    list.len(),
                    count[i]
                ),
            ));
        }
        let mut score = [0i32; 2];
        let mut duels = [0u32; 2];
        for (_, g, _) in &list {
            for (p, s) in score.iter_mut().enumerate() {
                *s += g.end.value_for(p);
            }
            if let GameEnd::Duel(d) = g.end {
                duels[d.trigger as usize] += 1;
            }
        }
        out.push(PlayedMatch {
            spec: MatchSpec {
                id: ids[i],
                seats: vec![
                    seat_index(path, &run, &players[0][i])?,
                    seat_index(path, &run, &players[1][i])?,
                ],
                seed: seeds[i],
            },
            result: MatchResult {
                score,
                duels,
                winner: MatchResult::decide(score, duels),
                games: list.iter().map(|g| g.1).collect(),
            },
            actions: list.into_iter().map(|g| g.2).collect(),
        });
    }
    Ok((run, out))
}

pub(super) fn read_arenas(
    path: &Path,
    duels_path: &Path,
) -> Result<(RunSpec, Vec<PlayedArena>), Error> {
    let (run, t) = read_table(path, &ARENAS)?;
    let (_, d) = read_table(duels_path, &DUELS)?;
    let dp = duels_path;
    let e = table_error;
    let mut duels: BTreeMap<u64, Vec<ArenaDuel>> = BTreeMap::new();
    let (ids, turn) = (d.u64s("arena_id").map_err(e)?, d.u32s("turn").map_err(e)?);
    let (trigger, target) = (d.u8s("trigger").map_err(e)?, d.u8s("target").map_err(e)?);
    let draws = [
        d.strs("draw_trigger").map_err(e)?,
        d.strs("draw_target").map_err(e)?,
    ];
    let bags = [
        d.u16_lists("bag_trigger").map_err(e)?,
        d.u16_lists("bag_target").map_err(e)?,
    ];
    for i in 0..d.len() {
        duels.entry(ids[i]).or_default().push(ArenaDuel {
            turn: turn[i],
            duel: Duel {
                trigger: trigger[i],
                target: target[i],
                draws: [draw_of(dp, &draws[0][i])?, draw_of(dp, &draws[1][i])?],
            },
            bags: [bag_of(dp, &bags[0][i])?, bag_of(dp, &bags[1][i])?],
        });
    }
    let (ids, seeds) = (t.u64s("arena_id").map_err(e)?, t.u64s("seed").map_err(e)?);
    let (players, scores) = (
        t.str_lists("players").map_err(e)?,
        t.i32_lists("scores").map_err(e)?,
    );
    let turns = t.u32s("turns").map_err(e)?;
    let mut out = Vec::new();
    for i in 0..t.len() {
        let seats = players[i]
            .iter()
            .map(|name| seat_index(path, &run, name))
            .collect::<Result<Vec<_>, _>>()?;
        out.push(PlayedArena {
            spec: MatchSpec {
                id: ids[i],
                seats,
                seed: seeds[i],
            },
            result: ArenaResult {
                scores: scores[i].clone(),
                duels: duels.remove(&ids[i]).unwrap_or_default(),
                turns: turns[i],
            },
        });
    }
    Ok((run, out))
}
