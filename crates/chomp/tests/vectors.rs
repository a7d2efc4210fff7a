//! The solver against `../shared/vectors/chomp` and against an independent brute force.

use std::collections::HashMap;

use pjlab_chomp::{Chomp, Solver};
use pjlab_conformance::{parse_count, read_vector};
use pjlab_core::Game;
use pjlab_core::testkit::{PlayoutConfig, check_random_playouts};

/// `(1,2)->(1,)` or `(4,9)->(10, 10, 10, 8, ...); (5,6)->(...)` as moves and the lengths left.
fn parse_moves(cell: &str) -> Vec<((usize, usize), Vec<usize>)> {
    if cell.trim() == "-" {
        return Vec::new();
    }
    cell.split(';')
        .map(|item| {
            let (mv, left) = item.split_once("->").expect("move->lengths");
            let nums = |s: &str| -> Vec<usize> {
                s.trim()
                    .trim_matches(|c| c == '(' || c == ')')
                    .split(',')
                    .filter(|x| !x.trim().is_empty())
                    .map(|x| x.trim().parse().unwrap())
                    .collect()
            };
            let mv = nums(mv);
            ((mv[0], mv[1]), nums(left))
        })
        .collect()
}

fn table_rows(file: &str) -> Vec<Vec<String>> {
    read_vector(file)
        .lines()
        .filter(|l| {
            l.starts_with("| ")
                && !l.contains("---")
                && !l.starts_with("| m")
                && !l.starts_with("| n ")
        })
        .map(|l| {
            l.trim_matches('|')
                .split('|')
                .map(|c| c.trim().to_string())
                .collect()
        })
        .collect()
}

fn bite(lengths: &[usize], (row, col): (usize, usize)) -> Vec<usize> {
    lengths
        .iter()
        .enumerate()
        .map(|(i, &a)| if i + 1 >= row { a.min(col - 1) } else { a })
        .collect()
}

#[test]
fn every_rectangle_up_to_12_by_12() {
    let rows = table_rows("chomp/rect_table.md");
    assert!(rows.len() > 90, "{} rows read", rows.len());
    for row in rows {
        let (m, n) = row[0].split_once('x').unwrap();
        let (m, n): (usize, usize) = (m.parse().unwrap(), n.parse().unwrap());
        let solver = Solver::new(m, n).unwrap();
        assert_eq!(solver.positions(), parse_count(&row[1]), "{m}x{n} diagrams");
        assert_eq!(
            solver.p_positions(),
            parse_count(&row[2]),
            "{m}x{n} P-positions"
        );
        let expected = parse_moves(&row[4]);
        let full = solver.full();
        let moves = solver.winning_moves(&full);
        assert_eq!(
            moves,
            expected.iter().map(|e| e.0).collect::<Vec<_>>(),
            "{m}x{n} winning moves"
        );
        for (mv, left) in expected {
            assert_eq!(bite(&full, mv), left, "{m}x{n} {mv:?}");
        }
    }
}

#[test]
fn three_rows_up_to_100() {
    let rows = table_rows("chomp/three_row_table.md");
    assert_eq!(rows.len(), 100);
    for row in rows {
        let n: usize = row[0].parse().unwrap();
        if n > 16 {
            continue; // the bar is at most 16 wide
        }
        let solver = Solver::new(3, n).unwrap();
        assert_eq!(solver.positions(), parse_count(&row[1]));
        assert_eq!(solver.p_positions(), parse_count(&row[2]), "3x{n}");
        let expected = parse_moves(&format!("{}->{}", row[3], row[4]));
        assert_eq!(
            solver.winning_moves(&solver.full()),
            vec![expected[0].0],
            "3x{n}"
        );
    }
}

#[test]
fn p_position_matrix_up_to_7_by_7() {
    let text = read_vector("chomp/matrix7.md");
    let table = text.split("\n\n").find(|t| t.contains("| m \\ n")).unwrap();
    for line in table
        .lines()
        .filter(|l| l.starts_with("| ") && !l.contains("m \\ n") && !l.contains("---"))
    {
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        let m: usize = cells[0].parse().unwrap();
        for (k, count) in cells[1..].iter().enumerate() {
            assert_eq!(
                Solver::new(m, k + 1).unwrap().p_positions(),
                parse_count(count),
                "{m}x{}",
                k + 1
            );
        }
    }
}

/// Independent brute force over the game API: status and Grundy value of every reachable
/// position, memoised by position text.
fn grundy(position: &Chomp, memo: &mut HashMap<Vec<usize>, u32>) -> u32 {
    if let Some(&g) = memo.get(&position.lengths()) {
        return g;
    }
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    let mut seen = vec![false; moves.len() + 1];
    for mv in moves {
        let mut child = position.clone();
        child.play(mv).unwrap();
        let g = grundy(&child, memo) as usize;
        if g < seen.len() {
            seen[g] = true;
        }
    }
    let g = seen.iter().position(|&s| !s).unwrap() as u32;
    memo.insert(position.lengths(), g);
    g
}

#[test]
fn solver_agrees_with_brute_force_on_small_bars() {
    let rect: HashMap<String, u32> = table_rows("chomp/rect_table.md")
        .into_iter()
        .map(|r| (r[0].clone(), r[3].parse().unwrap()))
        .collect();
    for m in 1..=5 {
        for n in 1..=6 {
            let solver = Solver::new(m, n).unwrap();
            let mut memo = HashMap::new();
            let g = grundy(&Chomp::new(m, n).unwrap(), &mut memo);
            assert_eq!(g, rect[&format!("{m}x{n}")], "Grundy of the full {m}x{n}");
            // Every reachable position: P exactly when its Grundy value is 0, and the winning
            // moves are exactly the bites to a Grundy-0 position.
            let mut p = 0;
            for (lengths, &g) in &memo {
                assert_eq!(solver.is_p(lengths), g == 0, "{m}x{n} {lengths:?}");
                p += (g == 0) as u64;
                let winning: Vec<(usize, usize)> = solver.winning_moves(lengths);
                for (r, c) in &winning {
                    assert_eq!(memo[&bite(lengths, (*r, *c))], 0);
                }
                assert_eq!(winning.is_empty(), g == 0);
            }
            // Every non-empty diagram is reachable from the full bar.
            assert_eq!(p, solver.p_positions(), "{m}x{n}");
        }
    }
}

#[test]
fn generic_suite() {
    for (m, n) in [(1, 1), (2, 3), (4, 5), (7, 7), (16, 16)] {
        let report = check_random_playouts(&Chomp::new(m, n).unwrap(), &PlayoutConfig::default());
        assert!(report.finished_games == 20, "{m}x{n}: {report:?}");
    }
}

#[test]
fn text_errors_do_not_panic() {
    for bad in [
        "",
        "3x4",
        "3x4:4,4,5:1",
        "3x4:4,5,4:1",
        "0x4:1:1",
        "17x2:1:1",
        "3x4:0,0,0:1",
        "3x4:4,4,4:3",
        "ax4:1,1,1:1",
    ] {
        assert!(Chomp::from_text(bad).is_err(), "{bad}");
    }
    let c = Chomp::new(3, 4).unwrap();
    for bad in [
        "",
        "1,1",
        "0,1",
        "4,1",
        "x",
        "1,5",
        "99999999999999999999,1",
    ] {
        assert!(c.parse_move(bad).is_err(), "{bad}");
    }
    assert!(Solver::new(0, 3).is_err());
    assert!(Solver::new(3, 17).is_err());
}
