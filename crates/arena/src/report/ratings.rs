//! The ratings part of a match or tournament report: maximum-likelihood ratings, head to head,
//! the cross table, the SPRT, the first player's score by variant and the rating curves, all over
//! the distinct games.

use std::fmt::Write as _;
use std::path::Path;

use pjlab_core::GameKit;

use super::{interval, io, percent, score_estimate, sprt_state, title_case, unique_games};
use crate::Error;
use crate::plot::{Series, interval_chart, line_chart};
use crate::runner::Played;
use crate::schedule::RunSpec;
use crate::stats::{
    RatingModel, Wdl, dispersion, fit_ratings, goodness_of_fit, widened_half_width,
};
use crate::table::{Table, cross_table};

/// Writes the section into `md` and `summary.csv`, and the charts under `plots/`.
#[allow(clippy::needless_range_loop)] // tables indexed by player pairs
pub(super) fn section<K: GameKit>(
    md: &mut String,
    dir: &Path,
    run: &RunSpec,
    all: &[Played<K>],
) -> Result<(), Error> {
    let games: &[Played<K>] = &unique_games(all).into_iter().cloned().collect::<Vec<_>>();
    let first = title_case(K::INFO.sides[0]);
    let n = run.players.len();
    let triples: Vec<(usize, usize, i8)> = games
        .iter()
        .map(|g| (g.spec.first, g.spec.second, g.result))
        .collect();
    let model = RatingModel::default();
    let ratings = fit_ratings(n, &triples, &model);
    // With three players or more the model can misfit; its intervals are then widened.
    let fit = goodness_of_fit(n, &triples, &ratings);
    let mut totals = vec![Wdl::default(); n];
    let mut h2h = vec![vec![Wdl::default(); n]; n];
    for g in games {
        let (w, b) = (g.spec.first, g.spec.second);
        totals[w].add(g.result);
        totals[b].add(-g.result);
        h2h[w][b].add(g.result);
        h2h[b][w].add(-g.result);
    }
    let _ = writeln!(md, "## Ratings\n");
    let _ = writeln!(
        md,
        "Maximum likelihood over the {} distinct games (BayesElo model: draws and a {first} advantage fitted, {} \
         virtual draws per pairing as prior), centred on a mean of 0; 95% intervals from the \
         whole observed information (the advantage and the draw parameter fitted jointly with the \
         ratings).\n",
        games.len(),
        model.prior_draws
    );
    let mut columns = vec!["rank", "agent", "Elo", "95%"];
    if fit.is_some() {
        columns.push("95% with misfit");
    }
    columns.extend(["distinct games", "W-D-L", "score %"]);
    let mut table = Table::new(columns);
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| ratings.elo[b].total_cmp(&ratings.elo[a]));
    let mut csv = String::from("agent,spec,elo,elo_low,elo_high,games,wins,draws,losses,score\n");
    for (rank, &i) in order.iter().enumerate() {
        let t = &totals[i];
        let mut row = vec![
            (rank + 1).to_string(),
            format!("`{}`", run.players[i].label),
            format!("{:+.0}", ratings.elo[i]),
            format!("±{:.0}", ratings.half_width(i)),
        ];
        if let Some(fit) = &fit {
            row.push(format!(
                "±{:.0}",
                widened_half_width(&ratings, i, Some(fit))
            ));
        }
        row.extend([t.games().to_string(), t.to_string(), percent(t.score())]);
        table.row(row);
        let _ = writeln!(
            csv,
            "\"{}\",\"{}\",{:.1},{:.1},{:.1},{},{},{},{},{:.4}",
            run.players[i].label,
            run.players[i].spec.replace('"', "\"\""),
            ratings.elo[i],
            ratings.elo[i] - ratings.half_width(i),
            ratings.elo[i] + ratings.half_width(i),
            t.games(),
            t.wins,
            t.draws,
            t.losses,
            t.score()
        );
    }
    let _ = write!(md, "{table}");
    let path = dir.join("summary.csv");
    std::fs::write(&path, csv).map_err(io(&path))?;
    let _ = writeln!(
        md,
        "\n{first} advantage {:+.0} ± {:.0} Elo; draw parameter {:.0} Elo.\n",
        ratings.advantage, ratings.advantage_half_width, ratings.draw_elo
    );
    if let Some(fit) = &fit {
        let _ = writeln!(md, "{}\n", fit_line(fit));
    }
    let _ = writeln!(md, "## Head to head\n");
    let mut table = Table::new([
        "agent",
        "opponent",
        "distinct games",
        "W-D-L",
        "score %",
        "95% Wilson",
        "Elo difference (ML, 95%)",
    ]);
    for i in 0..n {
        for j in 0..n {
            let w = &h2h[i][j];
            if i == j || w.games() == 0 || (n > 2 && i > j) {
                continue;
            }
            table.row([
                format!("`{}`", run.players[i].label),
                format!("`{}`", run.players[j].label),
                w.games().to_string(),
                w.to_string(),
                percent(w.score()),
                interval(w),
                format!(
                    "{:+.0} ± {:.0}",
                    ratings.elo[i] - ratings.elo[j],
                    ratings.difference_half_width(i, j)
                ),
            ]);
        }
    }
    let _ = write!(md, "{table}");
    if n > 2 {
        let _ = writeln!(md, "\nCross table (row's score % against column):\n");
        let labels: Vec<String> = run
            .players
            .iter()
            .map(|p| format!("`{}`", p.label))
            .collect();
        let table = cross_table("", &labels, |i, j| {
            let w = &h2h[i][j];
            if i == j || w.games() == 0 {
                String::new()
            } else {
                percent(w.score())
            }
        });
        let _ = write!(md, "{table}");
    }
    if let Some(sprt) = &run.sprt {
        let (state, pairs) = sprt_state(sprt, all);
        let _ = writeln!(
            md,
            "\n## SPRT\n\nH0: `{}` is {:+} Elo against `{}`; H1: {:+} Elo (alpha {}, beta {}). On {} distinct \
             colour pairs (pentanomial, normal approximation): LLR {:.2} in [{:.2}, {:.2}]: **{}**.",
            run.players[0].label,
            sprt.elo0,
            run.players[1].label,
            sprt.elo1,
            sprt.alpha,
            sprt.beta,
            pairs,
            state.llr,
            state.lower,
            state.upper,
            match state.decision {
                crate::stats::SprtDecision::H1 => "H1 accepted: better",
                crate::stats::SprtDecision::H0 => "H0 accepted: not better",
                crate::stats::SprtDecision::Continue => "undecided",
            }
        );
    }
    if n == 2 {
        let variants = run.parsed_variants::<K>()?;
        if variants.len() > 1 {
            let _ = writeln!(md, "\n### `{}` by variant\n", run.players[0].label);
            let mut table = Table::new([
                "variant",
                "distinct games",
                "W-D-L",
                "score %",
                "95% Wilson",
            ]);
            let mut estimates = Vec::new();
            for v in &variants {
                let mut w = Wdl::default();
                for g in games.iter().filter(|g| g.spec.variant == *v) {
                    w.add(if g.spec.first == 0 {
                        g.result
                    } else {
                        -g.result
                    });
                }
                table.row([
                    v.to_string(),
                    w.games().to_string(),
                    w.to_string(),
                    percent(w.score()),
                    interval(&w),
                ]);
                estimates.push(score_estimate(v.to_string(), &w));
            }
            let _ = write!(md, "{table}");
            interval_chart(
                &dir.join("plots/score-by-variant.svg"),
                &format!("{} score by variant (95% Wilson)", run.players[0].label),
                "score",
                &estimates,
                Some(0.5),
            )?;
            let _ = writeln!(md, "\n![score by variant](plots/score-by-variant.svg)");
        }
    }
    // Rating curves: the fit over the first k games (in schedule order), at up to 20 points.
    let steps = 20.min(games.len());
    if steps >= 2 && n >= 2 {
        let mut series: Vec<Vec<(f64, f64)>> = vec![Vec::new(); n];
        for s in 1..=steps {
            let k = games.len() * s / steps;
            let r = fit_ratings(n, &triples[..k], &model);
            for (i, points) in series.iter_mut().enumerate() {
                points.push((k as f64, r.elo[i]));
            }
        }
        let named: Vec<Series<'_>> = series
            .into_iter()
            .enumerate()
            .map(|(i, points)| Series::new(&run.players[i].label, points))
            .collect();
        line_chart(
            &dir.join("plots/ratings.svg"),
            "Ratings as games accumulate",
            "games",
            "Elo (mean 0)",
            &named,
        )?;
        let _ = writeln!(md, "\n![rating curves](plots/ratings.svg)\n");
    }
    Ok(())
}

/// The goodness-of-fit sentence under the ratings table.
fn fit_line(fit: &crate::stats::ChiSquare) -> String {
    let d = dispersion(fit);
    let verdict = if d > 1.0 {
        format!(
            "the pairings' scores spread {d:.2} times as much as one rating a player allows (the \
             players are not transitive, or not in proportion), so `95% with misfit` is each \
             interval widened by the square root of that"
        )
    } else {
        "the pairings' scores spread no more than one rating a player allows, so `95% with \
         misfit` is the model's interval"
            .to_string()
    };
    format!(
        "Goodness of fit: Pearson's statistic over the pairings' scores {:.1} on {} degrees of \
         freedom (the pairings less the ratings fitted), {}: {verdict}.",
        fit.statistic,
        fit.df,
        p_text(fit.p_value)
    )
}

/// A p-value as `p = 0.012`, or `p < 0.0001` below that.
fn p_text(p: f64) -> String {
    match p {
        p if p < 1e-4 => "p < 0.0001".to_string(),
        p if p < 0.01 => format!("p = {p:.4}"),
        p => format!("p = {p:.3}"),
    }
}
