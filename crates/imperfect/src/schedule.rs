//! A run's players by label and its schedule.

use pjlab_core::seed;

/// One scheduled unit of a run (a match, an arena).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchSpec {
    /// Its id, `0..` in schedule order.
    pub id: u64,
    /// The player index at each seat (seat 0 moves first in the first game).
    pub seats: Vec<usize>,
    /// The seed of its generator.
    pub seed: u64,
}

/// Labels for `specs`: each spec, with `#2`, `#3`... appended to its repeats.
pub fn labels(specs: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(specs.len());
    for spec in specs {
        let seen = specs[..out.len()].iter().filter(|s| *s == spec).count();
        out.push(if seen == 0 {
            spec.clone()
        } else {
            format!("{spec}#{}", seen + 1)
        });
    }
    out
}

/// The spec of a label (the label without its `#n` suffix).
pub fn spec_of(label: &str) -> &str {
    match label.rsplit_once('#') {
        Some((spec, n)) if n.parse::<u32>().is_ok() => spec,
        _ => label,
    }
}

/// Every pair of `players` indices, `(i, j)` with `i < j`, in order.
pub fn pairs(players: usize) -> Vec<(usize, usize)> {
    (0..players)
        .flat_map(|i| (i + 1..players).map(move |j| (i, j)))
        .collect()
}

/// `matches` matches for each of `pairs`, in order: consecutive matches (2k, 2k+1) share a seed
/// and swap seats, so both players meet the same first deal from both seats. Pair `p`'s k-th
/// seed is `mix2(seed, p + 1, k / 2)`.
pub fn paired(pairs: &[(usize, usize)], matches: u32, seed: u64) -> Vec<MatchSpec> {
    let mut out = Vec::new();
    for (pair, &(i, j)) in pairs.iter().enumerate() {
        for k in 0..u64::from(matches) {
            let seats = if k % 2 == 0 { vec![i, j] } else { vec![j, i] };
            out.push(MatchSpec {
                id: out.len() as u64,
                seats,
                seed: seed::mix2(seed, pair as u64 + 1, k / 2),
            });
        }
    }
    out
}

/// `count` units seating all `players` at once, unit k rotated by k places, its seed
/// `mix2(seed, 0, k)`.
pub fn rotated(players: usize, count: u32, seed: u64) -> Vec<MatchSpec> {
    (0..u64::from(count))
        .map(|k| MatchSpec {
            id: k,
            seats: (0..players).map(|s| (s + k as usize) % players).collect(),
            seed: seed::mix2(seed, 0, k),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_number_repeats_and_spec_of_drops_the_number() {
        let specs: Vec<String> = ["a", "b", "a", "a"].map(String::from).into();
        let labels = labels(&specs);
        assert_eq!(labels, ["a", "b", "a#2", "a#3"]);
        for (label, spec) in labels.iter().zip(&specs) {
            assert_eq!(spec_of(label), spec);
        }
        assert_eq!(spec_of("net:checkpoint=x#y"), "net:checkpoint=x#y");
    }

    #[test]
    fn paired_matches_swap_seats_on_a_shared_seed() {
        let schedule = paired(&pairs(3), 4, 9);
        assert_eq!(schedule.len(), 3 * 4);
        for (k, m) in schedule.iter().enumerate() {
            assert_eq!(m.id, k as u64);
        }
        for two in schedule.chunks(2) {
            assert_eq!(two[0].seed, two[1].seed);
            assert_eq!(two[0].seats, [two[1].seats[1], two[1].seats[0]]);
        }
        let seeds: std::collections::HashSet<u64> = schedule.iter().map(|m| m.seed).collect();
        assert_eq!(seeds.len(), 3 * 2, "one seed a pair of matches");
    }

    #[test]
    fn rotated_units_seat_every_player_once() {
        for m in rotated(5, 7, 1) {
            let mut seats = m.seats.clone();
            seats.sort_unstable();
            assert_eq!(seats, [0, 1, 2, 3, 4]);
            assert_eq!(m.seats[0], m.id as usize % 5);
        }
    }
}
