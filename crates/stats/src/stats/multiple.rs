//! Many tests at once: Holm's step-down adjustment of a family's p-values.

/// Holm's step-down adjustment of `p` (each adjusted p-value in the input's order): the
/// smallest times the family's size, the next times one less and never below the one before,
/// each capped at 1. A family's claims hold together at level alpha where their adjusted
/// values are below it.
pub fn holm(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| p[a].total_cmp(&p[b]));
    let mut adjusted = vec![0.0; m];
    let mut running: f64 = 0.0;
    for (rank, &i) in order.iter().enumerate() {
        running = running.max(((m - rank) as f64 * p[i]).min(1.0));
        adjusted[i] = running;
    }
    adjusted
}

#[cfg(test)]
mod tests {
    use super::holm;

    #[test]
    fn holm_matches_its_definition_on_a_small_family() {
        // Sorted 0.01, 0.02, 0.04: 3 x 0.01, max(0.03, 2 x 0.02), max(0.04, 1 x 0.04).
        let adjusted = holm(&[0.04, 0.01, 0.02]);
        let expected = [0.04, 0.03, 0.04];
        for (a, e) in adjusted.iter().zip(expected) {
            assert!((a - e).abs() < 1e-12, "{adjusted:?}");
        }
        // Sorted 0.8, 0.9: 2 x 0.8 capped at 1, then max(1, 0.9).
        assert_eq!(holm(&[0.9, 0.8]), vec![1.0, 1.0]);
        assert_eq!(holm(&[0.02, 0.5]), vec![0.04, 0.5]);
    }
}
