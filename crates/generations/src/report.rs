//! The run's report: `report.md` (the spec in words, a row a generation) and
//! `plots/elo.svg` (the best player's Elo, chained through the promoting gates, against the
//! CPU-hours spent), a function of the spec and the ledger alone.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use pjlab_run::dir::{MetricsLog, PLOTS_DIR, RunDir};
use pjlab_stats::plot::{Series, line_chart};

use crate::ledger::Generation;
use crate::{Error, LEDGER_FILE, Spec, io};

/// Reads the spec and the ledger of the run in `dir` and writes its report into `out` (the
/// run's own directory, or another); returns the report's path.
///
/// # Errors
/// [`Error::Run`] when the run has no readable spec or ledger, [`Error::Io`] or
/// [`Error::Plot`] when a file cannot be written.
pub fn rewrite(dir: &Path, out: &Path) -> Result<PathBuf, Error> {
    let run = RunDir::at(dir);
    let text = run
        .config_text()?
        .ok_or_else(|| Error::NotGenerations(dir.to_path_buf()))?;
    let spec = Spec::parse(&text)?;
    let decided = MetricsLog::<Generation>::new(run.join(LEDGER_FILE)).read()?;
    write(out, &spec, &decided)?;
    Ok(out.join("report.md"))
}

/// The best player's Elo after each generation relative to the start, chained through the
/// promoting gates' estimates, with the half-width of its 95% interval (the gates' half-widths
/// added in quadrature), and the CPU-hours spent up to it.
pub fn chained(decided: &[Generation]) -> Vec<(f64, f64, f64)> {
    let (mut elo, mut variance, mut hours) = (0.0, 0.0, 0.0);
    let mut points = vec![(0.0, 0.0, 0.0)];
    for g in decided {
        hours += g.cpu_seconds() / 3600.0;
        if g.promoted {
            elo += g.gate.elo[0];
            let half = (g.gate.elo[2] - g.gate.elo[1]) / 2.0;
            variance += half * half;
        }
        points.push((hours, elo, variance.sqrt()));
    }
    points
}

/// Writes `report.md` and `plots/elo.svg` into `dir` for the generations `decided`.
///
/// # Errors
/// [`Error::Io`] or [`Error::Plot`] when a file cannot be written.
pub fn write(dir: &Path, spec: &Spec, decided: &[Generation]) -> Result<(), Error> {
    let md = markdown(spec, decided);
    let path = dir.join("report.md");
    std::fs::write(&path, md).map_err(io(&path))?;
    let plots = dir.join(PLOTS_DIR);
    std::fs::create_dir_all(&plots).map_err(io(&plots))?;
    let points = chained(decided);
    let series = Series::new(
        "best player (chained gate Elo, 95%)",
        points.iter().map(|&(h, e, _)| (h, e)).collect(),
    )
    .with_errors(points.iter().map(|&(h, e, w)| (h, e - w, e + w)).collect());
    // Each candidate where its gate put it: the best player's Elo when it was gated plus its
    // gate's estimate, with the gate's interval.
    let candidates: Vec<(f64, f64, f64)> = decided
        .iter()
        .zip(&points)
        .zip(points.iter().skip(1))
        .map(|((g, before), after)| {
            let base = before.1;
            (after.0, base + g.gate.elo[1], base + g.gate.elo[2])
        })
        .collect();
    let candidate_points = decided
        .iter()
        .zip(&points)
        .zip(points.iter().skip(1))
        .map(|((g, before), after)| (after.0, before.1 + g.gate.elo[0]))
        .collect();
    let gates =
        Series::new("each candidate by its gate (95%)", candidate_points).with_errors(candidates);
    line_chart(
        &plots.join("elo.svg"),
        &format!("{}: the best learned evaluation by generation", spec.game),
        "CPU-hours (data, training and gates)",
        "Elo over the start",
        &[series, gates],
    )?;
    Ok(())
}

fn markdown(spec: &Spec, decided: &[Generation]) -> String {
    let mut md = String::new();
    let d = &spec.data;
    let g = &spec.gate;
    let t = &spec.train.options;
    let start = spec
        .start
        .as_ref()
        .map_or("the hand-written evaluation".to_string(), |p| {
            format!("`{}`", p.display())
        });
    let _ = writeln!(md, "# Generations of a learned evaluation: {}\n", spec.game);
    let _ = writeln!(
        md,
        "{} of {} generations decided. Each generation: the best player (at first {start}) \
         plays {} games against itself at depth {} ({}, {}-{} random opening plies, {:.0}% \
         random moves); a candidate ({}, {} accumulator units{}, {} passes) is trained on the \
         positions of the last {} generation(s){}{}{}; it plays the best with `{}` in colour \
         pairs ({}, {} opening plies) until an SPRT of {} against {} Elo (alpha {}, beta {}) \
         decides or {} games are played, and is promoted on H1.\n",
        decided.len(),
        spec.generations,
        d.games,
        d.depth,
        d.variants.join(", "),
        d.opening[0],
        d.opening[1],
        100.0 * d.random_moves,
        if t.residual {
            "a correction to the hand-written evaluation"
        } else {
            "a whole evaluation, without the hand-written term"
        },
        t.hidden,
        match (t.factorise, t.weight_decay > 0.0) {
            (true, true) => format!(", factors, weight decay {}", t.weight_decay),
            (true, false) => ", factors".to_string(),
            (false, true) => format!(", weight decay {}", t.weight_decay),
            (false, false) => String::new(),
        },
        t.epochs,
        d.window,
        match spec.train.prior_data.len() {
            0 => String::new(),
            1 => " and of 1 data directory from outside the run".to_string(),
            n => format!(" and of {n} data directories from outside the run"),
        },
        if spec.train.quiet { ", quiet only" } else { "" },
        if spec.train.no_forced {
            ", forced results left out"
        } else {
            ""
        },
        g.player,
        g.variants.join(", "),
        g.opening_plies,
        g.elo0,
        g.elo1,
        g.alpha,
        g.beta,
        g.games,
    );
    md.push_str(
        "| gen | best before | games / positions | trained on | held-out loss (hand-written) \
         | gate games | W-D-L | score (95%) | Elo (95%) | LLR (bounds) | decision | CPU-h |\n",
    );
    md.push_str("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for r in decided {
        let [w, dr, l] = r.gate.wdl;
        let _ = writeln!(
            md,
            "| {} | {} | {} / {} | {} | {:.4} ({:.4}) | {} | {w}-{dr}-{l} | {:.1}% ({:.1}-{:.1}) \
             | {:+.0} ({:+.0} to {:+.0}) | {:.2} ({:.2}, {:.2}) | {} | {:.2} |",
            r.generation,
            best_name(spec, r.best),
            r.data.games,
            r.data.positions,
            r.train.positions,
            r.train.validation,
            r.train.reference,
            r.gate.games,
            100.0 * r.gate.score[0],
            100.0 * r.gate.score[1],
            100.0 * r.gate.score[2],
            r.gate.elo[0],
            r.gate.elo[1],
            r.gate.elo[2],
            r.gate.llr[0],
            r.gate.llr[1],
            r.gate.llr[2],
            match (r.gate.decision.as_str(), r.promoted) {
                (_, true) => "promoted (H1)".to_string(),
                ("cap", _) => "kept out (games cap)".to_string(),
                (d, _) => format!("kept out ({d})"),
            },
            r.cpu_seconds() / 3600.0,
        );
    }
    let best = decided
        .iter()
        .rev()
        .find(|g| g.promoted)
        .map_or(0, |g| g.generation);
    let points = chained(decided);
    let &(hours, elo, half) = points.last().unwrap_or(&(0.0, 0.0, 0.0));
    let named = match (best, &spec.start) {
        (0, None) => "the hand-written evaluation".to_string(),
        (0, Some(p)) => format!("the start, `{}`", p.display()),
        (n, _) => format!("gen-{n:03} (`gen-{n:03}/net.nnue`)"),
    };
    let _ = writeln!(
        md,
        "\nThe best player now: {named}, {elo:+.0} ± {half:.0} Elo over the start by the \
         chained gates, after {hours:.2} CPU-hours. A gate stopped by its SPRT overstates the \
         promoted candidate's gain (the test stops on a lucky run more often than on an \
         unlucky one), so the chain is an upper estimate; judge the best player in a match of \
         its own on other seeds.\n\n![Elo against CPU-hours](plots/elo.svg)",
    );
    md
}

/// The name of generation `n`'s network in the report (0: the start).
fn best_name(spec: &Spec, n: u32) -> String {
    match (n, &spec.start) {
        (0, None) => "hand-written".into(),
        (0, Some(_)) => "start".into(),
        (n, _) => format!("gen-{n:03}"),
    }
}
