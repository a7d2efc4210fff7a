//! The ratings part of a match or tournament report: maximum-likelihood ratings, head to head,
//! the cross table, the SPRT, the first player's score by variant and the rating curves, all over
//! the distinct games.

use std::fmt::Write as _;
use std::path::Path;

use pjlab_core::GameKit;

use pjlab_core::title_case;

use super::{interval, io, percent, score_estimate, sprt_state, unique_games};
use crate::Error;
use crate::plot::{Series, interval_chart, line_chart};
use crate::runner::Played;
use crate::schedule::RunSpec;
use crate::stats::{
    ChiSquare, RatingModel, Ratings, Sprt, Wdl, dispersion, fit_ratings, goodness_of_fit,
    widened_half_width,
};
use crate::table::{Table, cross_table};

/// The games' ratings and tallies, fitted once for every part of the section.
struct Fitted {
    triples: Vec<(usize, usize, i8)>,
    model: RatingModel,
    ratings: Ratings,
    /// With three players or more the model can misfit; its intervals are then widened.
    fit: Option<ChiSquare>,
    totals: Vec<Wdl>,
    h2h: Vec<Vec<Wdl>>,
}

impl Fitted {
    fn new<K: GameKit>(n: usize, games: &[Played<K>]) -> Fitted {
        let triples: Vec<(usize, usize, i8)> = games
            .iter()
            .map(|g| (g.spec.first, g.spec.second, g.result))
            .collect();
        let model = RatingModel::default();
        let ratings = fit_ratings(n, &triples, &model);
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
        Fitted {
            triples,
            model,
            ratings,
            fit,
            totals,
            h2h,
        }
    }
}

/// Writes the section into `md` and `summary.csv`, and the charts under `plots/`.
pub(super) fn section<K: GameKit>(
    md: &mut String,
    dir: &Path,
    run: &RunSpec,
    all: &[Played<K>],
) -> Result<(), Error> {
    let games: &[Played<K>] = &unique_games(all).into_iter().cloned().collect::<Vec<_>>();
    let f = Fitted::new::<K>(run.players.len(), games);
    ratings_table(md, dir, run, &f, games.len(), K::INFO.sides[0])?;
    head_to_head(md, run, &f);
    if let Some(sprt) = &run.sprt {
        sprt_line::<K>(md, run, sprt, all);
    }
    if run.players.len() == 2 {
        by_variant::<K>(md, dir, run, games)?;
    }
    rating_curves(md, dir, run, &f)
}

/// The ratings table (and `summary.csv`), the advantage and the goodness of fit.
fn ratings_table(
    md: &mut String,
    dir: &Path,
    run: &RunSpec,
    f: &Fitted,
    distinct: usize,
    first_side: &str,
) -> Result<(), Error> {
    let (ratings, fit, totals, model) = (&f.ratings, &f.fit, &f.totals, &f.model);
    let first = title_case(first_side);
    let n = run.players.len();
    let _ = writeln!(md, "## Ratings\n");
    let _ = writeln!(
        md,
        "Maximum likelihood over the {} distinct games (BayesElo model: draws and a {first} advantage fitted, {} \
         virtual draws per pairing as prior), centred on a mean of 0; 95% intervals from the \
         whole observed information (the advantage and the draw parameter fitted jointly with the \
         ratings).\n",
        distinct, model.prior_draws
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
            row.push(format!("±{:.0}", widened_half_width(ratings, i, Some(fit))));
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
    Ok(())
}

/// Each pairing's score and Elo difference, and the cross table of three players or more.
#[allow(clippy::needless_range_loop)] // tables indexed by player pairs
fn head_to_head(md: &mut String, run: &RunSpec, f: &Fitted) {
    let (ratings, h2h) = (&f.ratings, &f.h2h);
    let n = run.players.len();
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
}

/// The SPRT's state over the run's colour pairs.
fn sprt_line<K: GameKit>(md: &mut String, run: &RunSpec, sprt: &Sprt, all: &[Played<K>]) {
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

/// A match's first player's score by setup variant, with its chart.
fn by_variant<K: GameKit>(
    md: &mut String,
    dir: &Path,
    run: &RunSpec,
    games: &[Played<K>],
) -> Result<(), Error> {
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
    Ok(())
}

/// The ratings refitted over the first games, at up to 20 points, as a chart.
fn rating_curves(md: &mut String, dir: &Path, run: &RunSpec, f: &Fitted) -> Result<(), Error> {
    let (triples, model) = (&f.triples, &f.model);
    let n = run.players.len();
    // Rating curves: the fit over the first k games (in schedule order), at up to 20 points.
    let steps = 20.min(triples.len());
    if steps >= 2 && n >= 2 {
        let mut series: Vec<Vec<(f64, f64)>> = vec![Vec::new(); n];
        for s in 1..=steps {
            let k = triples.len() * s / steps;
            let r = fit_ratings(n, &triples[..k], model);
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
fn fit_line(fit: &ChiSquare) -> String {
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
