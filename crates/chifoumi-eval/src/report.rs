//! `report.md` and SVG plots from a run's [`Records`].
//!
//! Matches and tournaments: each player's match score (wins + draws / 2 over its matches, the
//! tie-break deciding equal points) with its Wilson 95% interval, its mean points a match; the
//! cross table of match scores; Elo ratings (BayesElo's model with draws, no first-move term
//! since the first mover alternates within a match) with 95% intervals; duel statistics: how
//! often it triggers a duel, how the duels it triggers end, its duel win rate over every duel
//! it took part in, its mean bag at its duels and how often that bag was empty, and how often
//! its games time out. Arena runs: each player's mean score an arena with a normal 95%
//! interval and the same duel statistics.

use std::fmt::Write as _;
use std::path::Path;

use pjlab_chifoumi::{Bag, GameEnd};
use pjlab_imperfect::standings::{self, Standings, Words, table};
use pjlab_stats::plot::{Estimate, interval_chart};
use pjlab_stats::stats::{Wdl, mean_interval};

use crate::record::Records;
use crate::{Error, RunKind};

/// One player's duel statistics.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DuelStats {
    /// Games (or arenas) played.
    pub games: u64,
    /// Duels it triggered.
    pub triggered: u64,
    /// Of those, won and lost.
    pub triggered_won: u64,
    /// See `triggered_won`.
    pub triggered_lost: u64,
    /// Duels it took part in (triggered or targeted), won and lost.
    pub duels: u64,
    /// See `duels`.
    pub won: u64,
    /// See `duels`.
    pub lost: u64,
    /// Sum of its bag's counts at its duels (F, P, C).
    pub bag_sum: [u64; 3],
    /// Its duels fought with an empty bag.
    pub empty_bag: u64,
    /// Games that timed out (matches only).
    pub timeouts: u64,
}

impl DuelStats {
    fn add_duel(&mut self, triggered: bool, value: i32, bag: Bag) {
        self.duels += 1;
        self.won += (value > 0) as u64;
        self.lost += (value < 0) as u64;
        if triggered {
            self.triggered += 1;
            self.triggered_won += (value > 0) as u64;
            self.triggered_lost += (value < 0) as u64;
        }
        for (s, c) in self.bag_sum.iter_mut().zip(bag.counts()) {
            *s += u64::from(c);
        }
        self.empty_bag += bag.is_empty() as u64;
    }

    fn cells(&self) -> Vec<String> {
        let pct = |a: u64, b: u64| {
            if b == 0 {
                "-".to_string()
            } else {
                format!("{:.1}", 100.0 * a as f64 / b as f64)
            }
        };
        let mean = |i: usize| {
            if self.duels == 0 {
                "-".to_string()
            } else {
                format!("{:.2}", self.bag_sum[i] as f64 / self.duels as f64)
            }
        };
        vec![
            format!("{:.3}", self.triggered as f64 / self.games.max(1) as f64),
            pct(self.triggered_won, self.triggered),
            pct(self.triggered_lost, self.triggered),
            pct(self.won, self.duels),
            format!("{} / {} / {}", mean(0), mean(1), mean(2)),
            pct(self.empty_bag, self.duels),
        ]
    }
}

const DUEL_HEADERS: [&str; 6] = [
    "duels triggered / game",
    "triggered won %",
    "triggered lost %",
    "duels won %",
    "mean bag at duels F / P / C",
    "empty bag at duels %",
];

/// Per-player figures of a match or tournament run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MatchStats {
    /// Match results from the player's view.
    pub matches: Wdl,
    /// Points of each of its matches.
    pub points: Vec<f64>,
    /// Duel statistics.
    pub duels: DuelStats,
}

/// Each player's figures, and the cross table `cross[i][j]` (i's matches against j).
pub fn match_stats(records: &Records) -> (Vec<MatchStats>, Vec<Vec<Wdl>>) {
    let n = records.run.players.len();
    let mut stats = vec![MatchStats::default(); n];
    let mut cross = vec![vec![Wdl::default(); n]; n];
    for m in &records.matches {
        let seats = [m.spec.seats[0], m.spec.seats[1]];
        for s in 0..2 {
            let (me, other) = (seats[s], seats[1 - s]);
            let result = m.result.result_for(s);
            stats[me].matches.add(result);
            cross[me][other].add(result);
            stats[me].points.push(f64::from(m.result.score[s]));
            let d = &mut stats[me].duels;
            for g in &m.result.games {
                d.games += 1;
                match g.end {
                    GameEnd::TimeOut => d.timeouts += 1,
                    GameEnd::Duel(duel) => d.add_duel(
                        duel.trigger as usize == s,
                        duel.value_for(s as u8),
                        g.bags[s],
                    ),
                }
            }
        }
    }
    (stats, cross)
}

/// Per-player figures of an arena run: each arena's score, and duel statistics (`games` counts
/// arenas).
pub fn arena_stats(records: &Records) -> Vec<(Vec<f64>, DuelStats)> {
    let n = records.run.players.len();
    let mut out = vec![(Vec::new(), DuelStats::default()); n];
    for a in &records.arenas {
        for (seat, &p) in a.spec.seats.iter().enumerate() {
            out[p].0.push(f64::from(a.result.scores[seat]));
            out[p].1.games += 1;
        }
        for d in &a.result.duels {
            let (t, g) = (d.duel.trigger, d.duel.target);
            out[a.spec.seats[t as usize]]
                .1
                .add_duel(true, d.duel.value_for(t), d.bags[0]);
            out[a.spec.seats[g as usize]]
                .1
                .add_duel(false, d.duel.value_for(g), d.bags[1]);
        }
    }
    out
}

/// The report's Markdown.
pub fn markdown(records: &Records) -> String {
    let run = &records.run;
    let mut out = String::new();
    let scheduled = run.schedule().len();
    let rules = &run.rules;
    let _ = writeln!(out, "# Chifoumi {}\n", run.kind.name());
    let _ = writeln!(out, "- players: {}", run.players.join(", "));
    if run.kind == RunKind::Arena {
        let arena = run.arena.unwrap_or(crate::ArenaSpec {
            turns: 0,
            sit_out: 0,
        });
        let _ = writeln!(
            out,
            "- {} of {} arenas played, {} turns each, a duel's loser sits out {} turns; seed {}",
            records.len(),
            scheduled,
            arena.turns,
            arena.sit_out,
            run.seed
        );
    } else {
        let _ = writeln!(
            out,
            "- {} of {} matches played ({} a pair), {} games a match, {} rounds a game at most; seed {}",
            records.len(),
            scheduled,
            run.matches,
            rules.games,
            rules.max_rounds,
            run.seed
        );
    }
    let _ = writeln!(
        out,
        "- rules: radius {}, {} zone + {} random objects of each type{}{}",
        rules.radius,
        rules.zone_objects,
        rules.random_objects,
        if rules.stay { ", STAY allowed" } else { "" },
        if rules.keep_objects {
            ", objects kept between games"
        } else {
            ""
        },
    );
    out.push_str(&pjlab_core::Provenance::session_list(&run.sessions));
    out.push('\n');
    if run.kind == RunKind::Arena {
        arena_markdown(records, &mut out);
    } else {
        match_markdown(records, &mut out);
    }
    out
}

/// How Chifoumi's reports name what a run plays, and when a match is drawn.
const WORDS: Words = Words {
    unit: "match",
    units: "matches",
    drawn: "equal points and equal duels triggered",
};

fn match_markdown(records: &Records, out: &mut String) {
    let names = &records.run.players;
    let (stats, _) = match_stats(records);
    let mut standings = Standings::new(names.len());
    for m in &records.matches {
        let points = m.result.score.map(f64::from);
        standings.add(
            [m.spec.seats[0], m.spec.seats[1]],
            m.result.result_for(0),
            points,
        );
    }
    let order = standings.order();
    standings::match_scores(out, &WORDS, names, &standings, &order);
    if names.len() > 2 {
        standings::cross(out, &WORDS, names, &standings.cross, &order);
        standings::pairs(out, &WORDS, names, &standings.cross, &order);
    }
    out.push_str(
        "## Duels\n\nPer game; a player's bag is counted at each duel it took part in.\n\n",
    );
    let mut headers = vec!["player", "games"];
    headers.extend(DUEL_HEADERS);
    headers.push("time-outs %");
    let rows: Vec<Vec<String>> = order
        .iter()
        .map(|&i| {
            let d = &stats[i].duels;
            let mut row = vec![names[i].clone(), d.games.to_string()];
            row.extend(d.cells());
            row.push(format!(
                "{:.1}",
                100.0 * d.timeouts as f64 / d.games.max(1) as f64
            ));
            row
        })
        .collect();
    table(out, &headers, rows);
}

fn arena_markdown(records: &Records, out: &mut String) {
    let names = &records.run.players;
    let stats = arena_stats(records);
    let mut order: Vec<usize> = (0..names.len()).collect();
    let mean = |i: usize| mean_interval(&stats[i].0).0;
    order.sort_by(|&a, &b| mean(b).total_cmp(&mean(a)));
    out.push_str("## Arena scores\n\nScore: duels won minus duels lost in an arena; mean over arenas with a normal 95% interval. Duel figures are per arena.\n\n");
    let mut headers = vec!["player", "arenas", "mean score", "95% interval"];
    headers.extend(DUEL_HEADERS);
    headers[4] = "duels triggered / arena";
    let rows: Vec<Vec<String>> = order
        .iter()
        .map(|&i| {
            let (m, lo, hi) = mean_interval(&stats[i].0);
            let mut row = vec![
                names[i].clone(),
                stats[i].0.len().to_string(),
                format!("{m:+.2}"),
                format!("{lo:+.2} to {hi:+.2}"),
            ];
            row.extend(stats[i].1.cells());
            row
        })
        .collect();
    table(out, &headers, rows);
}

/// Writes `report.md` and the score plot (`scores.svg`) into `dir`; returns the Markdown.
///
/// # Errors
/// [`Error::Io`] when a file cannot be written.
pub fn write_report(dir: &Path, records: &Records) -> Result<String, Error> {
    let text = markdown(records);
    let path = dir.join("report.md");
    std::fs::write(&path, &text).map_err(|e| Error::io(&path, e))?;
    let names = &records.run.players;
    let (estimates, title, y, reference) = if records.run.kind == RunKind::Arena {
        let stats = arena_stats(records);
        let est = names
            .iter()
            .zip(&stats)
            .map(|(name, (scores, _))| {
                let (value, low, high) = mean_interval(scores);
                Estimate {
                    label: name.clone(),
                    value,
                    low,
                    high,
                }
            })
            .collect::<Vec<_>>();
        (
            est,
            "Arena scores (95% intervals)",
            "mean score an arena",
            0.0,
        )
    } else {
        let (stats, _) = match_stats(records);
        let est = names
            .iter()
            .zip(&stats)
            .map(|(name, s)| {
                let (low, high) = s.matches.interval();
                Estimate {
                    label: name.clone(),
                    value: 100.0 * s.matches.score(),
                    low: 100.0 * low,
                    high: 100.0 * high,
                }
            })
            .collect::<Vec<_>>();
        (est, "Match scores (95% intervals)", "match score %", 50.0)
    };
    if !records.is_empty() {
        let svg = dir.join("scores.svg");
        interval_chart(&svg, title, y, &estimates, Some(reference))
            .map_err(|e| Error::io(&svg, e))?;
    }
    Ok(text)
}
