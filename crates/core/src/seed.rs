//! Seeds derived from a run's seed: one SplitMix64 finaliser ([`finalize`]) and the three ways
//! the lab mixes a seed with the numbers that name one use of it.
//!
//! The three derivations give different seeds for the same numbers, and committed experiments
//! depend on each, so none may change: every call site names the one it has always used.
//!
//! - [`stream`]: seed `k` of a numbered stream (the arena's games, openings and agents).
//!   **Use it in new code**: streams keep unrelated uses apart by their number alone.
//! - [`mix2`]: a seed mixed with two numbers (Chifoumi runs' matches, the Chifoumi trainer).
//! - [`mix3`]: a seed mixed with three numbers (the board-game trainer's iterations, workers
//!   and purposes).
//!
//! # Example
//! ```
//! use pjlab_core::seed;
//! // Seeds 0, 1, 2... of stream 4 under the run's seed 7: independent-looking, reproducible.
//! let seeds: Vec<u64> = (0..3).map(|k| seed::stream(7, 4, k)).collect();
//! assert_eq!(seeds, (0..3).map(|k| seed::stream(7, 4, k)).collect::<Vec<_>>());
//! assert_ne!(seeds[0], seeds[1]);
//! ```

/// The golden-ratio increment of SplitMix64 (2^64 / phi, odd).
pub const GOLDEN: u64 = 0x9e37_79b9_7f4a_7c15;

/// SplitMix64's finaliser: a bijection of `u64` in which every input bit affects every output
/// bit.
pub const fn finalize(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Seed number `k` of stream `stream` under `seed`: the stream's own seed is the finalised
/// `seed ^ finalize(stream + GOLDEN)`, and its `k`-th seed the finalised sum of that and `k`.
/// The arena's derivation (schedules, openings, agents); the one to use in new code.
pub const fn stream(seed: u64, stream: u64, k: u64) -> u64 {
    finalize(finalize(seed ^ finalize(stream.wrapping_add(GOLDEN))).wrapping_add(k))
}

/// `seed` mixed with `a` and `b` (each times an odd constant) and finalised: Chifoumi runs'
/// derivation (each match's seed from the run's seed, pair and match number; the Chifoumi
/// trainer's iterations).
pub const fn mix2(seed: u64, a: u64, b: u64) -> u64 {
    finalize(seed ^ a.wrapping_mul(GOLDEN) ^ b.wrapping_mul(0xd1b5_4a32_d192_ed03))
}

/// `seed` mixed with `a`, `b` and `c` (each times an odd constant) and finalised: the
/// board-game trainer's derivation (iteration, worker, purpose).
pub const fn mix3(seed: u64, a: u64, b: u64, c: u64) -> u64 {
    finalize(
        seed ^ a.wrapping_mul(GOLDEN)
            ^ b.wrapping_mul(0xbf58_476d_1ce4_e5b9)
            ^ c.wrapping_mul(0x94d0_49bb_1331_11eb),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    // The three derivations as they were written before they shared the finaliser.
    fn arena_mix(mut x: u64) -> u64 {
        x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        x ^ (x >> 31)
    }

    fn arena_derive(seed: u64, stream: u64, k: u64) -> u64 {
        arena_mix(
            arena_mix(seed ^ arena_mix(stream.wrapping_add(0x9e37_79b9_7f4a_7c15))).wrapping_add(k),
        )
    }

    fn chifoumi_derive(seed: u64, a: u64, b: u64) -> u64 {
        let mut z =
            seed ^ a.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ b.wrapping_mul(0xd1b5_4a32_d192_ed03);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn train_mix(seed: u64, iteration: u32, worker: u64, tag: u64) -> u64 {
        let mut z = seed
            ^ u64::from(iteration).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ worker.wrapping_mul(0xBF58_476D_1CE4_E5B9)
            ^ tag.wrapping_mul(0x94D0_49BB_1331_11EB);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    #[test]
    fn each_derivation_gives_the_seeds_it_always_gave() {
        let numbers = [0, 1, 2, 3, 7, 1000, u64::MAX - 1, u64::MAX, GOLDEN];
        for &s in &numbers {
            for &a in &numbers {
                for &b in &numbers {
                    assert_eq!(stream(s, a, b), arena_derive(s, a, b));
                    assert_eq!(mix2(s, a, b), chifoumi_derive(s, a, b));
                    let it = a as u32;
                    assert_eq!(mix3(s, u64::from(it), b, 5), train_mix(s, it, b, 5));
                }
            }
        }
        // Pinned values, so that a change to the finaliser itself fails too.
        assert_eq!(finalize(0), 0);
        assert_eq!(finalize(1), 0x5692_161d_100b_05e5);
        assert_eq!(stream(1, 0, 0), 0x45ce_c29c_d9a2_4e4b);
        assert_eq!(stream(1, 4, 0), 0x4431_ab8c_7660_b083);
    }

    #[test]
    fn the_derivations_differ() {
        assert_ne!(stream(1, 2, 3), mix2(1, 2, 3));
        assert_ne!(mix2(1, 2, 3), mix3(1, 2, 3, 0));
    }
}
