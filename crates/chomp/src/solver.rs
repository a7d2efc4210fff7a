//! The exact solver: the kernel (the set of P-positions) of the game graph.
//!
//! Diagrams are ranked densely by the combinatorial number system: row `i` (0-based) of length
//! `a_i` contributes `C(a_i + m - 1 - i, m - i)`, and the ranks of the `C(m+n, m)` diagrams are
//! exactly `0..C(m+n, m)`. The rank is a sum over rows and grows when any row grows, so every
//! successor of a diagram has a smaller rank. One pass in increasing rank order therefore
//! decides each diagram from already decided ones: it is P unless some bite leads to a P. Bites
//! in one column are visited from the bottom row up, each successor's rank one subtraction
//! away from the previous one. The P-positions are kept as one bit per rank (5 MB for 14 x 14).

use crate::{Error, check_size};

/// The P/N status of every diagram inside an `m x n` bar.
pub struct Solver {
    rows: usize,
    cols: usize,
    /// `weight[i][x]` = C(x + m - 1 - i, m - i): the rank contribution of row `i` of length `x`.
    weight: Vec<Vec<u64>>,
    /// Bit `r` set when the diagram of rank `r` is a P-position (a loss for the player to move).
    p: Vec<u64>,
    p_count: u64,
}

fn binomial(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    (0..k).fold(1u64, |acc, i| acc * (n - i) / (i + 1))
}

impl Solver {
    /// Solves the `rows x cols` bar.
    ///
    /// # Errors
    /// [`Error::Size`] outside 1x1..16x16.
    pub fn new(rows: usize, cols: usize) -> Result<Solver, Error> {
        check_size(rows, cols)?;
        let m = rows as u64;
        let weight: Vec<Vec<u64>> = (0..rows)
            .map(|i| {
                (0..=cols as u64)
                    .map(|x| binomial(x + m - 1 - i as u64, m - i as u64))
                    .collect()
            })
            .collect();
        let total = binomial((rows + cols) as u64, m);
        let mut solver = Solver {
            rows,
            cols,
            weight,
            p: vec![0; total.div_ceil(64) as usize],
            p_count: 0,
        };
        solver.solve(total);
        Ok(solver)
    }

    fn solve(&mut self, total: u64) {
        let (m, n) = (self.rows, self.cols);
        // The diagram as a strictly increasing combination b[0] < ... < b[m-1] of 0..m+n,
        // row i having length b[m-1-i] - (m-1-i); colex order is rank order.
        let mut b: Vec<usize> = (0..m).collect();
        let mut lengths = vec![0usize; m];
        for rank in 0..total {
            for (i, len) in lengths.iter_mut().enumerate() {
                *len = b[m - 1 - i] - (m - 1 - i);
            }
            if lengths[0] > 0 && !self.has_p_successor(&lengths, rank) {
                self.p[(rank / 64) as usize] |= 1 << (rank % 64);
                self.p_count += 1;
            }
            // Next combination in colex order.
            let mut j = 0;
            while j + 1 < m && b[j] + 1 == b[j + 1] {
                j += 1;
            }
            if j + 1 == m && b[j] + 1 >= m + n {
                break;
            }
            b[j] += 1;
            for (k, v) in b.iter_mut().enumerate().take(j) {
                *v = k;
            }
        }
    }

    /// Whether some bite from the diagram `lengths` (of rank `rank`) leads to a P-position.
    #[inline]
    fn has_p_successor(&self, lengths: &[usize], rank: u64) -> bool {
        let mut height = lengths.iter().filter(|&&a| a > 0).count();
        for c in 0..lengths[0] {
            while height > 0 && lengths[height - 1] <= c {
                height -= 1;
            }
            // Bite at (r, c) cuts rows r..height down to c.
            let mut delta = 0;
            for r in (0..height).rev() {
                if r == 0 && c == 0 {
                    break; // the poison
                }
                delta += self.weight[r][lengths[r]] - self.weight[r][c];
                if self.is_p_rank(rank - delta) {
                    return true;
                }
            }
        }
        false
    }

    #[inline(always)]
    fn is_p_rank(&self, rank: u64) -> bool {
        self.p[(rank / 64) as usize] >> (rank % 64) & 1 == 1
    }

    /// Rows of the bar.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Columns of the bar.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Number of diagrams inside the bar, the empty one included: C(m+n, m).
    pub fn positions(&self) -> u64 {
        binomial((self.rows + self.cols) as u64, self.rows as u64)
    }

    /// Number of P-positions among the non-empty diagrams ("poison only" is one).
    pub fn p_positions(&self) -> u64 {
        self.p_count
    }

    /// The dense rank of a diagram given by its row lengths (missing rows are empty).
    ///
    /// # Panics
    /// If `lengths` is not a diagram inside the bar (longer than the rows, a row longer than the
    /// columns or than the row above).
    pub fn rank(&self, lengths: &[usize]) -> u64 {
        assert!(lengths.len() <= self.rows, "more rows than the bar");
        let mut rank = 0;
        for (i, &a) in lengths.iter().enumerate() {
            assert!(
                a <= self.cols && (i == 0 || a <= lengths[i - 1]),
                "not a diagram"
            );
            rank += self.weight[i][a];
        }
        rank
    }

    /// Whether the diagram is a loss for the player to move.
    ///
    /// # Panics
    /// As [`Solver::rank`].
    pub fn is_p(&self, lengths: &[usize]) -> bool {
        !lengths.is_empty() && lengths[0] > 0 && self.is_p_rank(self.rank(lengths))
    }

    /// Every winning move of the diagram, 1-based `(row, col)`, sorted.
    ///
    /// # Panics
    /// As [`Solver::rank`].
    pub fn winning_moves(&self, lengths: &[usize]) -> Vec<(usize, usize)> {
        let mut moves = Vec::new();
        for (r, &len) in lengths.iter().enumerate() {
            for c in 0..len {
                if r == 0 && c == 0 {
                    continue;
                }
                let after: Vec<usize> = lengths
                    .iter()
                    .enumerate()
                    .map(|(i, &a)| if i >= r { a.min(c) } else { a })
                    .collect();
                if self.is_p(&after) {
                    moves.push((r + 1, c + 1));
                }
            }
        }
        moves
    }

    /// The full bar's row lengths.
    pub fn full(&self) -> Vec<usize> {
        vec![self.cols; self.rows]
    }
}
