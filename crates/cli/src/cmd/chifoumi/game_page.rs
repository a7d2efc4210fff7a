//! `pjlab chifoumi show`: one game of a match (recorded in a run, or played now) as an HTML page.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use pjlab_chifoumi::Rules;
use pjlab_chifoumi_eval::record::Records;
use pjlab_chifoumi_eval::{RunKind, show};

use super::args::read_map;
use super::player;
use crate::Verbosity;

#[allow(clippy::too_many_arguments)]
pub(super) fn run_show(
    from: Option<PathBuf>,
    match_id: u64,
    specs: [String; 2],
    seed: u64,
    game: usize,
    map: Option<PathBuf>,
    out: &Path,
    verbosity: Verbosity,
) -> Result<()> {
    let (rules, labels, seed, actions) = match from {
        Some(dir) => {
            let records = Records::read(&dir)?;
            if records.run.kind == RunKind::Arena {
                bail!(
                    "{} holds an arena run; show draws a game of a match",
                    dir.display()
                );
            }
            let m = records
                .matches
                .iter()
                .find(|m| m.spec.id == match_id)
                .with_context(|| format!("{} has no match {match_id}", dir.display()))?;
            let names = m.spec.seats.iter().map(|&p| records.run.players[p].clone());
            let names: Vec<String> = names.collect();
            (
                records.run.rules.clone(),
                [names[0].clone(), names[1].clone()],
                m.spec.seed,
                m.actions.clone(),
            )
        }
        None => {
            let rules = Rules {
                map: read_map(map.as_deref())?,
                games: (game + 1).min(u16::MAX as usize) as u16,
                ..Rules::default()
            };
            let mut a = player(&specs[0], &rules).map_err(anyhow::Error::msg)?;
            let mut b = player(&specs[1], &rules).map_err(anyhow::Error::msg)?;
            let (_, actions) =
                pjlab_chifoumi::play_recorded_match(&rules, &mut [a.as_mut(), b.as_mut()], seed)?;
            (rules, specs, seed, actions)
        }
    };
    let page = show::match_game_page(&rules, seed, &actions, game, labels)?;
    std::fs::write(out, show::html(&page))
        .with_context(|| format!("cannot write {}", out.display()))?;
    if verbosity != Verbosity::Quiet {
        eprintln!(
            "{} turns drawn into {}",
            page.frames.len() - 1,
            out.display()
        );
    }
    if let Some(end) = page.frames.last().and_then(|f| f.end.clone()) {
        println!("{end}");
    }
    Ok(())
}
