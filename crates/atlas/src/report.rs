//! The atlas's report: every cell's first-player score by variant, level and protocol, the
//! levels' ladder, the protocols compared, the variants compared with a family-wise correction,
//! what a designer should pick, and charts of the first side's score per protocol (`charts`).
//! Every figure is computed from the cells' game records, each distinct game counted once.

use std::fmt::Write as _;
use std::path::Path;

use pjlab_core::GameKit;
use pjlab_core::title_case as title;

use crate::answer::{answer, pick_section};
use crate::compare::{classes_section, protocols_compared, variants_compared};
use crate::rank::Rankings;
use crate::results::{Results, collect};
use crate::sections::{levels_section, progress_section, protocol_section};
use crate::{Atlas, Error, io};

/// Writes `report.md`, `atlas.csv`, `plots/first-score-<protocol>.svg` and (with a ladder)
/// `plots/first-score-<protocol>-by-level.svg` into `dir`, and returns the Markdown.
///
/// # Errors
/// As [`collect`], and [`Error::Io`] or [`Error::Plot`] when a file cannot be written.
pub fn write<K: GameKit>(dir: &Path, atlas: &Atlas) -> Result<String, Error> {
    let results = collect::<K>(dir, atlas)?;
    write_results::<K>(dir, atlas, &results)
}

/// Writes the report of `results` (read by [`collect`]) into `dir`, as [`write`] does.
///
/// # Errors
/// [`Error::Io`] or [`Error::Plot`] when a file cannot be written.
pub fn write_results<K: GameKit>(
    dir: &Path,
    atlas: &Atlas,
    results: &Results,
) -> Result<String, Error> {
    let first = title(K::INFO.sides[0]);
    let rankings = Rankings::of(atlas, results);
    let mut md = String::new();
    let _ = writeln!(md, "# Balance atlas: {}\n", title(&atlas.game));
    let _ = writeln!(
        md,
        "{first}'s score (the first side's; a win 1, a draw 1/2) in each setup variant, at every \
         strength level and under every opening protocol of `atlas.toml`; W-D-L counts \
         {first}'s wins, draws and losses, and a game's length is in plies (one side's move). \
         Every figure counts each distinct game once; intervals are 95%. A score's interval is \
         Wilson's, as if every game were won or lost: where many games are drawn it is wider \
         than the tests', which use the games' own spread, so two intervals that overlap can \
         still differ. A difference is **shown** when it is significant at 5%: its interval leaves \
         out zero or, among many pairs, its p-value is under 5% after Holm's correction for \
         their number. A difference not shown may still be there, smaller than the games can \
         tell. Every cell plays a fixed number of games, no early stop; a level plays on a \
         fixed depth, node or simulation budget.\n"
    );
    answer(&mut md, atlas, results, &rankings, &first);
    pick_section(&mut md, atlas, results, &rankings, &first);
    levels_section(&mut md, atlas, results);
    std::fs::create_dir_all(dir.join("plots")).map_err(io(&dir.join("plots")))?;
    for p in 0..atlas.protocols.len() {
        protocol_section(&mut md, dir, atlas, results, p, &first)?;
    }
    if atlas.protocols.len() > 1 {
        protocols_compared(&mut md, atlas, results, &first);
    }
    variants_compared(&mut md, atlas, &rankings);
    classes_section(&mut md, atlas, results, &first);
    progress_section(&mut md, results);
    let csv = atlas_csv(atlas, results);
    let path = dir.join("atlas.csv");
    std::fs::write(&path, csv).map_err(io(&path))?;
    let path = dir.join("report.md");
    std::fs::write(&path, &md).map_err(io(&path))?;
    Ok(md)
}

/// `atlas.csv`: one row a level, protocol and variant played.
fn atlas_csv(atlas: &Atlas, results: &Results) -> String {
    let mut csv = String::from(
        "level,protocol,variant,complete,distinct_games,first_wins,draws,second_wins,\
         first_score,score_low,score_high,draw_rate,mean_length,level_elo,level_elo_half_width\n",
    );
    for m in &results.measures {
        let (elo, half) = results
            .ladder
            .as_ref()
            .map_or((String::new(), String::new()), |l| {
                (
                    format!("{:.1}", l.elo[m.level]),
                    format!("{:.1}", l.half_width[m.level]),
                )
            });
        let _ = writeln!(
            csv,
            "{},{},{},{},{},{},{:.2},{elo},{half}",
            atlas.levels[m.level].name,
            atlas.protocols[m.protocol].name,
            m.variant,
            m.complete,
            m.group.distinct,
            m.group.white.csv_fields(),
            m.group.mean_length()
        );
    }
    csv
}

#[cfg(test)]
mod tests;
