//! Pearson's chi-square test of homogeneity.

use statrs::distribution::{ChiSquared, ContinuousCDF};

/// A chi-square test's result.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ChiSquare {
    /// The statistic.
    pub statistic: f64,
    /// Degrees of freedom.
    pub df: usize,
    /// The probability of a statistic at least this large if the rows do not differ.
    pub p_value: f64,
}

/// Pearson's chi-square test of homogeneity: do the rows of a contingency table (here: setup
/// variants, with columns White win / draw / Black win) come from one distribution? Rows and
/// columns with no counts are left out; `None` when fewer than two of either remain.
pub fn homogeneity(table: &[Vec<f64>]) -> Option<ChiSquare> {
    let rows: Vec<&Vec<f64>> = table
        .iter()
        .filter(|r| r.iter().sum::<f64>() > 0.0)
        .collect();
    let width = rows.first()?.len();
    let columns: Vec<usize> = (0..width)
        .filter(|&j| rows.iter().map(|r| r[j]).sum::<f64>() > 0.0)
        .collect();
    if rows.len() < 2 || columns.len() < 2 {
        return None;
    }
    let total: f64 = rows.iter().map(|r| r.iter().sum::<f64>()).sum();
    let mut statistic = 0.0;
    for r in &rows {
        let row_total: f64 = r.iter().sum();
        for &j in &columns {
            let column_total: f64 = rows.iter().map(|r| r[j]).sum();
            let expected = row_total * column_total / total;
            statistic += (r[j] - expected).powi(2) / expected;
        }
    }
    let df = (rows.len() - 1) * (columns.len() - 1);
    let p_value = ChiSquared::new(df as f64).ok()?.sf(statistic);
    Some(ChiSquare {
        statistic,
        df,
        p_value,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn chi_square_matches_hand_computation_and_closed_form() {
        // Rows (30, 10, 20) and (20, 10, 30): expected 25/10/25 each; statistic
        // 4 * 25 / 25 = 4 with 2 degrees of freedom, whose survival function is exp(-x / 2).
        let test = homogeneity(&[vec![30.0, 10.0, 20.0], vec![20.0, 10.0, 30.0]]).unwrap();
        assert_eq!(test.df, 2);
        assert!((test.statistic - 4.0).abs() < 1e-12);
        assert!(
            (test.p_value - (-2.0f64).exp()).abs() < 1e-9,
            "{}",
            test.p_value
        );
        // An empty column is left out (one degree of freedom then); one row is no test.
        let test = homogeneity(&[vec![5.0, 0.0, 5.0], vec![5.0, 0.0, 5.0]]).unwrap();
        assert_eq!(test.df, 1);
        assert!(test.statistic.abs() < 1e-12 && (test.p_value - 1.0).abs() < 1e-9);
        assert!(homogeneity(&[vec![1.0, 2.0, 3.0]]).is_none());
    }
}
