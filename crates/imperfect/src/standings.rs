//! The report's sections that every run of matches between players has: each player's match
//! score (wins + draws / 2) with its Wilson 95% interval, its mean points a match and its Elo
//! rating ([`match_scores`]); with more than two players, the cross table ([`cross`]) and each
//! pair's matches with an interval ([`pairs`]).

use std::fmt::Write as _;

use pjlab_stats::stats::{RatingModel, Wdl, fit_ratings, mean_interval};
use pjlab_stats::table::{Table, cross_table};

/// How a game's report names what its runs play.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Words {
    /// One unit (`match`).
    pub unit: &'static str,
    /// Several (`matches`).
    pub units: &'static str,
    /// When a unit is drawn (`equal points and equal duels triggered`).
    pub drawn: &'static str,
}

/// Each player's results in a run of two-seat units.
#[derive(Clone, Debug, PartialEq)]
pub struct Standings {
    /// Each player's results, from its own view.
    pub results: Vec<Wdl>,
    /// The points of each of its units.
    pub points: Vec<Vec<f64>>,
    /// `cross[i][j]`: i's results against j.
    pub cross: Vec<Vec<Wdl>>,
    /// Each unit as the ratings read it: (seat 0's player, seat 1's player, seat 0's result).
    pub meetings: Vec<(usize, usize, i8)>,
}

impl Standings {
    /// No unit yet, for `players` players.
    pub fn new(players: usize) -> Standings {
        Standings {
            results: vec![Wdl::default(); players],
            points: vec![Vec::new(); players],
            cross: vec![vec![Wdl::default(); players]; players],
            meetings: Vec::new(),
        }
    }

    /// Adds a unit between players `seats` whose seat 0 got `result` (+1, 0, -1) and each seat
    /// `points`.
    pub fn add(&mut self, seats: [usize; 2], result: i8, points: [f64; 2]) {
        self.meetings.push((seats[0], seats[1], result));
        for s in 0..2 {
            let (me, other) = (seats[s], seats[1 - s]);
            let mine = if s == 0 { result } else { -result };
            self.results[me].add(mine);
            self.cross[me][other].add(mine);
            self.points[me].push(points[s]);
        }
    }

    /// The players, best match score first (ties in the run's order).
    pub fn order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.results.len()).collect();
        order.sort_by(|&a, &b| self.results[b].score().total_cmp(&self.results[a].score()));
        order
    }
}

/// `rows` under `headers` as a Markdown table, and a blank line.
pub fn table(out: &mut String, headers: &[&str], rows: Vec<Vec<String>>) {
    let mut table = Table::new(headers.iter().copied());
    for row in rows {
        table.row(row);
    }
    let _ = writeln!(out, "{table}");
}

/// The section of match scores (`## Match scores`), players in `order`: units, W-D-L, score %
/// with its Wilson interval, points a unit, and the rating (BayesElo's model with draws, no
/// first-move term: the first mover alternates within a unit).
pub fn match_scores(
    out: &mut String,
    words: &Words,
    names: &[String],
    standings: &Standings,
    order: &[usize],
) {
    let model = RatingModel {
        fit_advantage: false,
        ..RatingModel::default()
    };
    let meetings = &standings.meetings;
    let ratings = (!meetings.is_empty()).then(|| fit_ratings(names.len(), meetings, &model));
    let _ = write!(
        out,
        "## {} scores\n\nA {} won counts 1, drawn 1/2 ({}); 95% Wilson intervals. Ratings: Elo, \
         mean 0, 95% intervals from the whole observed information (the draw parameter fitted \
         jointly).\n\n",
        capital(words.unit),
        words.unit,
        words.drawn
    );
    let rows: Vec<Vec<String>> = order
        .iter()
        .map(|&i| {
            let s = &standings.results[i];
            let (lo, hi) = s.interval();
            let (pts, _, _) = mean_interval(&standings.points[i]);
            let rating = ratings.as_ref().map_or("-".into(), |r| {
                format!("{:+.0} ± {:.0}", r.elo[i], r.half_width(i))
            });
            vec![
                names[i].clone(),
                s.games().to_string(),
                format!("{}-{}-{}", s.wins, s.draws, s.losses),
                format!("{:.1}", 100.0 * s.score()),
                format!("{:.1} to {:.1}", 100.0 * lo, 100.0 * hi),
                format!("{pts:+.2}"),
                rating,
            ]
        })
        .collect();
    let per = format!("points / {}", words.unit);
    let headers = [
        "player",
        words.units,
        "W-D-L",
        "score %",
        "95% interval",
        &per,
        "rating",
    ];
    table(out, &headers, rows);
}

/// The cross table (`## Cross table`): each row player's match score % against each column
/// player, players in `order`.
pub fn cross(
    out: &mut String,
    words: &Words,
    names: &[String],
    cross: &[Vec<Wdl>],
    order: &[usize],
) {
    let _ = write!(
        out,
        "## Cross table\n\nThe row player's {} score % against the column player ({} in \
         brackets).\n\n",
        words.unit, words.units
    );
    let labels: Vec<String> = order.iter().map(|&i| names[i].clone()).collect();
    let table = cross_table("player", &labels, |a, b| {
        let (i, j) = (order[a], order[b]);
        let w = &cross[i][j];
        if i == j || w.games() == 0 {
            "-".into()
        } else {
            format!("{:.0} ({})", 100.0 * w.score(), w.games())
        }
    });
    let _ = writeln!(out, "{table}");
}

/// Each pair's units with an interval (`## Pairs`), from the view of the player earlier in
/// `order`.
pub fn pairs(
    out: &mut String,
    words: &Words,
    names: &[String],
    cross: &[Vec<Wdl>],
    order: &[usize],
) {
    let _ = write!(
        out,
        "## Pairs\n\nEach pair's {} from the view of the player named first (the higher in the \
         {} scores); 95% Wilson intervals.\n\n",
        words.units, words.unit
    );
    let mut rows = Vec::new();
    for (k, &i) in order.iter().enumerate() {
        for &j in &order[k + 1..] {
            let w = &cross[i][j];
            if w.games() == 0 {
                continue;
            }
            let (lo, hi) = w.interval();
            rows.push(vec![
                format!("{} vs {}", names[i], names[j]),
                w.games().to_string(),
                format!("{}-{}-{}", w.wins, w.draws, w.losses),
                format!("{:.1}", 100.0 * w.score()),
                format!("{:.1} to {:.1}", 100.0 * lo, 100.0 * hi),
            ]);
        }
    }
    table(
        out,
        &["pair", words.units, "W-D-L", "score %", "95% interval"],
        rows,
    );
}

/// `word` with its first letter in capitals.
fn capital(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}
