//! Each player's thinking time in a run: moves decided, mean and longest time a move, from the
//! clocks the game loop keeps (wall-clock time around each decision), and beside it the search
//! effort those moves bought (depth, nodes, the search's own measure), so that equal time can
//! be checked for equal work.

use std::fmt::Write as _;
use std::time::Duration;

use pjlab_core::GameKit;

use crate::runner::{Clock, Played};
use crate::schedule::{RunSpec, overrun_threshold};
use crate::table::Table;

/// Each player's clock over `games`, in the run's player order.
pub fn player_clocks<K: GameKit>(run: &RunSpec, games: &[Played<K>]) -> Vec<Clock> {
    let mut clocks = vec![Clock::default(); run.players.len()];
    for g in games {
        clocks[g.spec.first].merge(&g.clocks[0]);
        clocks[g.spec.second].merge(&g.clocks[1]);
    }
    clocks
}

fn ms(d: Duration) -> String {
    let ms = d.as_secs_f64() * 1000.0;
    if ms < 10.0 {
        format!("{ms:.2}")
    } else {
        format!("{ms:.0}")
    }
}

/// The report's "Time per move" section; nothing for records made before clocks were kept.
pub fn section<K: GameKit>(md: &mut String, run: &RunSpec, games: &[Played<K>]) {
    let clocks = player_clocks::<K>(run, games);
    if clocks.iter().all(|c| c.moves == 0) {
        return;
    }
    let _ = writeln!(md, "## Time per move\n");
    let _ = write!(
        md,
        "Wall-clock time around each decision, the random opening plies excluded."
    );
    let budget = run
        .time_per_move_ms
        .map(|b| Duration::from_secs_f64(b / 1000.0));
    let mut headers = vec!["player", "moves", "mean (ms)", "longest (ms)"];
    match budget {
        Some(b) => {
            let _ = writeln!(
                md,
                " Every agent had {} ms a move; a move over {} ms is an overrun.\n",
                ms(b),
                ms(overrun_threshold(b))
            );
            headers.push("overruns");
        }
        None => {
            let _ = writeln!(md, "\n");
        }
    }
    let effort = clocks.iter().any(Clock::searched);
    if effort {
        headers.extend(["mean depth", "mean nodes", "mean effort"]);
    }
    let mut table = Table::new(headers);
    for (p, c) in run.players.iter().zip(&clocks) {
        let mut row = vec![
            p.label.clone(),
            c.moves.to_string(),
            ms(c.mean()),
            ms(c.max),
        ];
        if budget.is_some() {
            let flag = if c.over > 0 { " **(over budget)**" } else { "" };
            row.push(format!("{}{flag}", c.over));
        }
        if effort {
            let mean = |sum: u64| sum as f64 / f64::from(c.moves.max(1));
            row.push(format!("{:.2}", mean(c.depth)));
            row.push(format!("{:.0}", mean(c.nodes)));
            row.push(format!("{:.2}", mean(c.effort)));
        }
        table.row(row);
    }
    let _ = writeln!(md, "{table}");
    if effort {
        let _ = writeln!(
            md,
            "Depth is the plies the search looked ahead (alpha-beta: its last completed \
             iteration; MCTS: its principal variation's length); effort is the search's own \
             measure (alpha-beta: the depth reached; MCTS: simulations). Agents that do not \
             search report none.\n"
        );
    }
}
