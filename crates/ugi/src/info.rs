//! The `info` lines of a search, in either [`ScoreFormat`].

use pjlab_agents::{Decision, Score};
use pjlab_core::Game;

use crate::options::{NATSEL_WIN, ScoreFormat};

/// A forced result in `plies` as UGI's moves of the side to move: a win in 1 or 2 plies is
/// mate 1, in 3 or 4 plies mate 2; losses are negative.
fn mate_moves(plies: i32) -> i32 {
    let moves = (plies.abs() + 1) / 2;
    if plies >= 0 { moves } else { -moves }
}

/// A score as Natural Selection prints it: one integer, centi-units (an MCTS value times
/// 1,000), a forced result [`NATSEL_WIN`] less its plies (0 for an agent without a score).
pub(crate) fn natsel_score(score: Option<Score>) -> i32 {
    match score {
        Some(Score::Centi(c)) => c.clamp(-(NATSEL_WIN - 1_000), NATSEL_WIN - 1_000),
        Some(Score::Value(v)) => (v * 1000.0).round() as i32,
        Some(Score::Mate(plies)) if plies >= 0 => NATSEL_WIN - plies.min(999),
        Some(Score::Mate(plies)) => -(NATSEL_WIN - (-plies).min(999)),
        None => 0,
    }
}

/// The `info` line of a search from `root` (see the crate's docs for the score).
pub(crate) fn info_line<G: Game>(
    root: &G,
    decision: &Decision<G::Move>,
    format: ScoreFormat,
) -> String {
    let ms = decision.elapsed.as_millis().max(1);
    let score = match (format, decision.score) {
        (ScoreFormat::Natsel, score) => format!(" score {}", natsel_score(score)),
        (_, Some(Score::Centi(c))) => format!(" score cp {c}"),
        (_, Some(Score::Value(v))) => format!(" score cp {}", (v * 1000.0).round() as i32),
        (_, Some(Score::Mate(plies))) => format!(" score mate {}", mate_moves(plies)),
        (_, None) => String::new(),
    };
    let mut line = format!(
        "info depth {}{score} nodes {} nps {} time {}",
        decision.depth,
        decision.nodes,
        u128::from(decision.nodes) * 1000 / ms,
        decision.elapsed.as_millis()
    );
    if !decision.pv.is_empty() {
        line.push_str(" pv ");
        line.push_str(&root.line_to_text(&decision.pv).join(" "));
    }
    line
}

/// What a search prints, in its format. In [`ScoreFormat::Ugi`] every report is a line. In
/// [`ScoreFormat::Natsel`] a report waits until a deeper one comes (a later report at the same
/// depth or shallower replaces it, shown at the depth it replaced), and [`InfoLines::finish`]
/// prints the final result last, so depths strictly increase and the last line holds the
/// search's answer, as pijersi-certu requires.
pub(crate) struct InfoLines<M> {
    format: ScoreFormat,
    /// The depth of the last line printed (natsel).
    printed: Option<u32>,
    /// The report waiting for a deeper one (natsel), with the depth it is shown at.
    held: Option<(u32, Decision<M>)>,
}

impl<M: Clone> InfoLines<M> {
    /// Lines of one search.
    pub(crate) fn new(format: ScoreFormat) -> InfoLines<M> {
        InfoLines {
            format,
            printed: None,
            held: None,
        }
    }

    /// The least depth the next line may show.
    fn floor(&self) -> u32 {
        self.printed.map_or(0, |d| d + 1)
    }

    /// A report of the search: the lines to print now.
    pub(crate) fn report<G: Game<Move = M>>(
        &mut self,
        root: &G,
        decision: &Decision<M>,
    ) -> Vec<String> {
        if self.format == ScoreFormat::Ugi {
            return vec![info_line(root, decision, self.format)];
        }
        let mut out = Vec::new();
        let depth = match self.held.take() {
            Some((depth, previous)) if decision.depth > depth => {
                out.push(self.shown(root, previous, depth));
                decision.depth
            }
            Some((depth, _)) => depth,
            None => decision.depth.max(self.floor()),
        };
        self.held = Some((depth, decision.clone()));
        out
    }

    /// The end of the search with its final decision: the lines to print before `bestmove`.
    pub(crate) fn finish<G: Game<Move = M>>(
        &mut self,
        root: &G,
        decision: &Decision<M>,
    ) -> Vec<String> {
        if self.format == ScoreFormat::Ugi {
            return Vec::new();
        }
        let depth = match self.held.take() {
            Some((depth, _)) if decision.depth <= depth => depth,
            _ => decision.depth.max(self.floor()),
        };
        vec![self.shown(root, decision.clone(), depth)]
    }

    /// A natsel line of `decision`, shown at `depth`.
    fn shown<G: Game<Move = M>>(
        &mut self,
        root: &G,
        mut decision: Decision<M>,
        depth: u32,
    ) -> String {
        self.printed = Some(depth);
        decision.depth = depth;
        info_line(root, &decision, self.format)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pjlab_pijersi::Position;

    fn decision(depth: u32, centi: i32) -> Decision<pjlab_pijersi::Move> {
        Decision {
            best_move: None,
            score: Some(Score::Centi(centi)),
            pv: Vec::new(),
            effort: u64::from(depth),
            depth,
            nodes: 10,
            elapsed: std::time::Duration::from_millis(5),
            forfeit: None,
        }
    }

    #[test]
    fn natsel_lines_deepen_strictly_and_end_with_the_answer() {
        let root = Position::default();
        let mut lines = InfoLines::new(ScoreFormat::Natsel);
        let mut all = Vec::new();
        // Two reports at depth 1, one at 2, a shallower one, then the final answer at 2.
        for (d, c) in [(1, 5), (1, 7), (2, -3), (1, 40), (3, 11)] {
            all.extend(lines.report(&root, &decision(d, c)));
        }
        all.extend(lines.finish(&root, &decision(2, 12)));
        let depths: Vec<&str> = all.iter().map(|l| l.split(' ').nth(2).unwrap()).collect();
        let scores: Vec<&str> = all.iter().map(|l| l.split(' ').nth(4).unwrap()).collect();
        assert_eq!(depths, ["1", "2", "3"], "{all:?}");
        // Each depth shows its latest report; the last line is the final result.
        assert_eq!(scores, ["7", "40", "12"], "{all:?}");
        assert!(all.iter().all(|l| l.starts_with("info depth ")));
    }

    #[test]
    fn natsel_scores_are_bare_integers() {
        assert_eq!(natsel_score(Some(Score::Centi(-37))), -37);
        assert_eq!(natsel_score(Some(Score::Value(0.25))), 250);
        assert_eq!(natsel_score(Some(Score::Mate(3))), NATSEL_WIN - 3);
        assert_eq!(natsel_score(Some(Score::Mate(-2))), -(NATSEL_WIN - 2));
        assert_eq!(natsel_score(None), 0);
        // A win in more plies scores lower, but above any evaluation.
        assert!(natsel_score(Some(Score::Mate(9))) < natsel_score(Some(Score::Mate(1))));
        assert!(natsel_score(Some(Score::Centi(i32::MAX))) < natsel_score(Some(Score::Mate(999))));
    }

    #[test]
    fn ugi_lines_print_every_report() {
        let root = Position::default();
        let mut lines = InfoLines::new(ScoreFormat::Ugi);
        assert_eq!(
            lines.report(&root, &decision(1, 5)),
            ["info depth 1 score cp 5 nodes 10 nps 2000 time 5"]
        );
        assert_eq!(lines.report(&root, &decision(1, 6)).len(), 1);
        assert!(lines.finish(&root, &decision(1, 6)).is_empty());
        let mate = Decision {
            score: Some(Score::Mate(-3)),
            ..decision(4, 0)
        };
        assert!(lines.report(&root, &mate)[0].contains(" score mate -2 "));
    }
}
