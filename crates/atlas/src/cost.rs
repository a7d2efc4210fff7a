//! What a cell's games cost, in seconds of one core.
//!
//! The records keep the wall-clock time of every move. Summed, they are the cell's CPU time
//! only on an otherwise idle machine: an atlas played at the lowest priority beside other work
//! waits for the processor, and a run paused (`kill -STOP`) counts the pause in the move it
//! interrupted. The estimate here takes the large waits out. It takes each player's median rate
//! of work (nodes searched a second, or the search's own effort where it counts no nodes) for
//! its rate on a free core, which holds when most of its moves ran on one. A move that ran at
//! under half that rate, and lost more than 10 ms by it, waited: it counts its work at the
//! median rate instead of its time. Every other move counts its own time, so a cheap move's
//! fixed costs, which no node count sees, are not taken for waits. Moves are not tied to the
//! session or processor that played them, so a cell played on two processors is timed at a
//! median between their rates, and a cell played under load for most of its moves keeps most
//! of its waits.

use std::collections::BTreeMap;

use pjlab_arena::{MoveEffort, Played};
use pjlab_core::GameKit;
use pjlab_stats::stats::median;

/// The cost of `games`: (the wall-clock seconds of their moves, summed; the seconds they take
/// on an idle core, estimated from each player's median rate of work).
///
/// A player that counts no work (it does not search) has its moves over twice their median
/// time (and over it by more than 10 ms) counted at the median time; games recorded before
/// moves were timed count their recorded time.
pub(crate) fn cell_seconds<K: GameKit>(games: &[Played<K>]) -> (f64, f64) {
    let wall: f64 = games
        .iter()
        .flat_map(|g| g.clocks.iter())
        .map(|c| c.total.as_secs_f64())
        .sum();
    let mut untimed = 0.0;
    for g in games.iter().filter(|g| g.efforts.is_empty()) {
        untimed += g.clocks.iter().map(|c| c.total.as_secs_f64()).sum::<f64>();
    }
    let moves = games.iter().flat_map(|g| {
        g.efforts.iter().map(|e| {
            let player = if e.side == 0 {
                g.spec.first
            } else {
                g.spec.second
            };
            (player, e)
        })
    });
    (wall, untimed + idle_seconds(moves))
}

/// The seconds the moves (each with the index of the player that made it) take on an idle
/// core: each player's at its own median rate.
fn idle_seconds<'a>(moves: impl Iterator<Item = (usize, &'a MoveEffort)>) -> f64 {
    let mut by_player: BTreeMap<usize, Vec<&MoveEffort>> = BTreeMap::new();
    for (player, m) in moves {
        by_player.entry(player).or_default().push(m);
    }
    by_player.values().map(|m| player_seconds(m)).sum()
}

/// A move that ran at under this share of its player's median rate waited for the processor
/// (if it lost more than [`LOST`] by it).
const WAITED: f64 = 0.5;

/// The least time, in seconds, that a move must have lost to count as one that waited.
const LOST: f64 = 0.010;

/// One player's moves on an idle core, in seconds.
fn player_seconds(moves: &[&MoveEffort]) -> f64 {
    let nodes: u64 = moves.iter().map(|m| m.nodes).sum();
    let work = |m: &MoveEffort| (if nodes > 0 { m.nodes } else { m.effort }) as f64;
    let rate = |m: &MoveEffort| work(m) / m.spent.as_secs_f64();
    let mut rates: Vec<f64> = moves
        .iter()
        .filter(|m| work(m) > 0.0 && !m.spent.is_zero())
        .map(|m| rate(m))
        .collect();
    if let Some(median_rate) = median(&mut rates) {
        return moves
            .iter()
            .map(|m| {
                let (spent, idle) = (m.spent.as_secs_f64(), work(m) / median_rate);
                let waited = work(m) > 0.0 && !m.spent.is_zero() && rate(m) < WAITED * median_rate;
                if waited && spent - idle > LOST {
                    idle
                } else {
                    spent
                }
            })
            .sum();
    }
    // No work counted: a move over twice the median time (and over it by more than `LOST`)
    // counts the median time.
    let mut times: Vec<f64> = moves.iter().map(|m| m.spent.as_secs_f64()).collect();
    let Some(median_time) = median(&mut times) else {
        return 0.0;
    };
    times
        .iter()
        .map(|&t| {
            if t > median_time / WAITED && t - median_time > LOST {
                median_time
            } else {
                t
            }
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use pjlab_pijersi::{PijersiKit, Variant};

    use pjlab_arena::{Clock, Ending, GameSpec, PlayedGame};

    use super::*;

    fn mv(nodes: u64, effort: u64, ms: u64) -> MoveEffort {
        MoveEffort {
            side: 0,
            spent: Duration::from_millis(ms),
            depth: 0,
            nodes,
            effort,
        }
    }

    /// A game between players `first` and `second` with these moves, each side's clock the
    /// sum of its moves' times (or `clocks_ms` where no move was timed).
    fn game(
        first: usize,
        second: usize,
        efforts: Vec<MoveEffort>,
        clocks_ms: [u64; 2],
    ) -> Played<PijersiKit> {
        let spec = GameSpec {
            id: 0,
            pair: 0,
            variant: Variant::Classic,
            setup: 0,
            opening_seed: 0,
            first,
            second,
        };
        let mut clocks = [Clock::default(); 2];
        for (side, clock) in clocks.iter_mut().enumerate() {
            clock.total = Duration::from_millis(clocks_ms[side]);
            for e in efforts.iter().filter(|e| usize::from(e.side) == side) {
                clock.total += e.spent;
            }
        }
        PlayedGame {
            start: spec.start(),
            spec,
            moves: Vec::new(),
            result: 0,
            ending: Ending::Rules,
            forfeit: None,
            clocks,
            efforts,
        }
    }

    fn on(side: u8, m: MoveEffort) -> MoveEffort {
        MoveEffort { side, ..m }
    }

    #[test]
    fn a_cell_s_moves_are_timed_by_the_player_that_made_them() {
        // Player 0 searches a million nodes a second, player 1 a hundred thousand. In the
        // second game player 1 moves first: timing by side would put three fast moves and two
        // slow ones together, and the slow ones would count as waits.
        let a = game(
            0,
            1,
            (1..=3)
                .flat_map(|k| {
                    [
                        on(0, mv(k * 100_000, 0, k * 100)),
                        on(1, mv(10_000, 0, 100)),
                    ]
                })
                .collect(),
            [0, 0],
        );
        let b = game(
            1,
            0,
            vec![on(0, mv(20_000, 0, 200)), on(0, mv(30_000, 0, 300))],
            [0, 0],
        );
        // A game recorded before moves were timed: its clocks, 1.5 s and 2.5 s, count as they are.
        let c = game(0, 1, Vec::new(), [1_500, 2_500]);
        let (wall, idle) = cell_seconds::<PijersiKit>(&[a, b, c]);
        assert!(close(wall, 0.6 + 0.3 + 0.5 + 4.0), "{wall}");
        assert!(close(idle, 0.6 / 1.0 + 80_000.0 / 1e5 + 4.0), "{idle}");
    }

    #[test]
    fn a_cheap_move_s_fixed_cost_is_not_taken_for_a_wait() {
        // A million nodes a second, and one move of 1,000 nodes in 5 ms: a fifth of the rate,
        // but it lost 4 ms, under the 10 ms a wait must lose, so it keeps its time.
        let mut moves: Vec<MoveEffort> = (1..=5).map(|k| mv(k * 100_000, 0, k * 100)).collect();
        moves.push(mv(1_000, 0, 5));
        let idle = idle_seconds(moves.iter().map(|m| (0, m)));
        assert!(close(idle, 1.5 + 0.005), "{idle}");
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-9 * b.abs().max(1.0)
    }

    #[test]
    fn a_paused_or_slowed_move_does_not_count_its_wait() {
        // A million nodes a second on a free core: moves of 100,000 to 900,000 nodes.
        let mut moves: Vec<MoveEffort> = (1..=9).map(|k| mv(k * 100_000, 0, k * 100)).collect();
        // One move paused for an hour, one slowed ten times by other work: each counts its
        // nodes at the median rate.
        moves.push(mv(500_000, 0, 3_600_000 + 500));
        moves.push(mv(400_000, 0, 4_000));
        let nodes: u64 = moves.iter().map(|m| m.nodes).sum();
        let wall: f64 = moves.iter().map(|m| m.spent.as_secs_f64()).sum();
        let idle = idle_seconds(moves.iter().map(|m| (0, m)));
        assert!(close(idle, nodes as f64 / 1e6), "{idle}");
        assert!(wall > 3_600.0 && idle < 6.0);
        // A move at 0.6 times the median rate (a costlier position) keeps its own time.
        moves.push(mv(300_000, 0, 500));
        let idle = idle_seconds(moves.iter().map(|m| (0, m)));
        assert!(close(idle, nodes as f64 / 1e6 + 0.5), "{idle}");
    }

    #[test]
    fn each_player_is_timed_at_its_own_rate() {
        // Player 0 searches a million nodes a second, player 1 a hundred thousand; one median
        // over both would time one of them wrongly.
        let fast: Vec<MoveEffort> = (1..=5).map(|k| mv(k * 200_000, 0, k * 200)).collect();
        let slow: Vec<MoveEffort> = (1..=3).map(|k| mv(k * 50_000, 0, k * 500)).collect();
        let moves = fast
            .iter()
            .map(|m| (0, m))
            .chain(slow.iter().map(|m| (1, m)));
        let expected = 3_000_000.0 / 1e6 + 300_000.0 / 1e5;
        assert!(close(idle_seconds(moves), expected));
    }

    #[test]
    fn without_nodes_the_effort_is_the_work_and_without_either_the_median_time() {
        // Simulations: 10,000 a second.
        let sims: Vec<MoveEffort> = [(1_000, 100), (2_000, 200), (3_000, 30_000)]
            .iter()
            .map(|&(e, ms)| mv(0, e, ms))
            .collect();
        assert!(close(idle_seconds(sims.iter().map(|m| (0, m))), 0.6));
        // No work counted: the move over twice the median time (0.2 s) counts 0.2 s.
        let plain: Vec<MoveEffort> = [100, 200, 9_000].iter().map(|&ms| mv(0, 0, ms)).collect();
        assert!(close(idle_seconds(plain.iter().map(|m| (0, m))), 0.5));
    }
}
