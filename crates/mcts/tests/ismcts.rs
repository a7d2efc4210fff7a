//! Information-set MCTS against closed forms: a hidden card guessed with known odds, and Nim
//! (nothing hidden) where the winning moves are the multiples of three; and the stop flag.

use pjlab_core::ImperfectGame;
use std::sync::atomic::{AtomicBool, Ordering};

use pjlab_mcts::{IsmctsConfig, ZeroLeaf, ismcts, ismcts_until};
use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[derive(Debug)]
struct Illegal;
impl std::fmt::Display for Illegal {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("illegal")
    }
}
impl std::error::Error for Illegal {}

/// A card in 0..3 dealt with odds 6:3:1, which the only player cannot see; it guesses once and
/// wins +1 if right, -1 if wrong.
#[derive(Clone, Debug)]
struct Guess {
    card: usize,
    guess: Option<usize>,
}

const ODDS: [f64; 3] = [0.6, 0.3, 0.1];

fn deal<R: Rng + ?Sized>(rng: &mut R) -> usize {
    let u: f64 = rng.random();
    if u < ODDS[0] {
        0
    } else if u < ODDS[0] + ODDS[1] {
        1
    } else {
        2
    }
}

impl ImperfectGame for Guess {
    type Observation = Option<usize>;
    type Error = Illegal;
    fn name(&self) -> &'static str {
        "guess"
    }
    fn num_players(&self) -> usize {
        1
    }
    fn num_actions(&self) -> usize {
        3
    }
    fn current_player(&self) -> Option<usize> {
        self.guess.is_none().then_some(0)
    }
    fn legal_actions(&self, out: &mut Vec<usize>) {
        out.clear();
        if self.guess.is_none() {
            out.extend(0..3);
        }
    }
    fn play<R: Rng + ?Sized>(&mut self, a: usize, rng: &mut R) -> Result<(), Illegal> {
        if a >= 3 || self.guess.is_some() {
            return Err(Illegal);
        }
        self.play_unchecked(a, rng);
        Ok(())
    }
    fn play_unchecked<R: Rng + ?Sized>(&mut self, a: usize, _: &mut R) {
        self.guess = Some(a);
    }
    fn is_terminal(&self) -> bool {
        self.guess.is_some()
    }
    fn returns(&self, _: usize) -> f32 {
        match self.guess {
            Some(g) if g == self.card => 1.0,
            Some(_) => -1.0,
            None => 0.0,
        }
    }
    fn observation(&self, _: usize) -> Option<usize> {
        self.guess
    }
    fn observation_tensor_len(&self) -> usize {
        1
    }
    fn observation_tensor(&self, _: usize, out: &mut [f32]) {
        out[0] = self.guess.map_or(-1.0, |g| g as f32);
    }
    fn resample<R: Rng + ?Sized>(&self, _: usize, _: &[Option<usize>], rng: &mut R) -> Guess {
        Guess {
            card: deal(rng),
            guess: self.guess,
        }
    }
}

#[test]
fn the_guess_follows_the_odds_and_values_match_the_closed_form() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let truth = Guess {
        card: 2,
        guess: None,
    };
    let config = IsmctsConfig {
        iterations: 6000,
        exploration: 0.7,
    };
    let result = ismcts(
        0,
        &config,
        |r| truth.resample(0, &[], r),
        &mut ZeroLeaf,
        &mut rng,
    );
    assert_eq!(
        result.best,
        Some(0),
        "the likeliest card, whatever the true one"
    );
    for &(action, visits, value) in &result.children {
        // Closed form: 2 P(card) - 1; tolerance 4 standard errors of a +-1 mean.
        let expected = 2.0 * ODDS[action] - 1.0;
        let tolerance = 4.0 / (visits as f64).sqrt();
        assert!(
            (value as f64 - expected).abs() < tolerance,
            "action {action}: {value} against {expected} over {visits} visits"
        );
    }
}

/// Nim with one heap: take 1 or 2 (actions 0 and 1); who takes the last object wins.
#[derive(Clone, Debug)]
struct Nim {
    heap: u8,
    to_move: usize,
}

impl ImperfectGame for Nim {
    type Observation = (u8, usize);
    type Error = Illegal;
    fn name(&self) -> &'static str {
        "nim"
    }
    fn num_players(&self) -> usize {
        2
    }
    fn num_actions(&self) -> usize {
        2
    }
    fn current_player(&self) -> Option<usize> {
        (self.heap > 0).then_some(self.to_move)
    }
    fn legal_actions(&self, out: &mut Vec<usize>) {
        out.clear();
        out.extend((0..2).filter(|&a| a < self.heap as usize));
    }
    fn play<R: Rng + ?Sized>(&mut self, a: usize, rng: &mut R) -> Result<(), Illegal> {
        if a >= 2 || a >= self.heap as usize {
            return Err(Illegal);
        }
        self.play_unchecked(a, rng);
        Ok(())
    }
    fn play_unchecked<R: Rng + ?Sized>(&mut self, a: usize, _: &mut R) {
        self.heap -= a as u8 + 1;
        self.to_move = 1 - self.to_move;
    }
    fn is_terminal(&self) -> bool {
        self.heap == 0
    }
    fn returns(&self, p: usize) -> f32 {
        if self.heap > 0 {
            0.0
        } else if p != self.to_move {
            1.0
        } else {
            -1.0
        }
    }
    fn observation(&self, _: usize) -> (u8, usize) {
        (self.heap, self.to_move)
    }
    fn observation_tensor_len(&self) -> usize {
        1
    }
    fn observation_tensor(&self, _: usize, out: &mut [f32]) {
        out[0] = self.heap as f32;
    }
    fn resample<R: Rng + ?Sized>(&self, _: usize, _: &[(u8, usize)], _: &mut R) -> Nim {
        self.clone()
    }
}

#[test]
fn nim_moves_to_a_multiple_of_three() {
    let config = IsmctsConfig {
        iterations: 3000,
        exploration: 0.7,
    };
    for heap in 1..=11u8 {
        if heap % 3 == 0 {
            continue; // lost whatever the move
        }
        for player in 0..2 {
            let nim = Nim {
                heap,
                to_move: player,
            };
            let mut rng = ChaCha8Rng::seed_from_u64(heap as u64);
            let result = ismcts(player, &config, |_| nim.clone(), &mut ZeroLeaf, &mut rng);
            let take = result.best.unwrap() as u8 + 1;
            assert_eq!((heap - take) % 3, 0, "heap {heap}: took {take}");
        }
    }
}

#[test]
fn a_raised_stop_flag_ends_the_search_at_the_next_iteration() {
    let nim = Nim {
        heap: 11,
        to_move: 0,
    };
    let config = IsmctsConfig {
        iterations: 1_000_000,
        exploration: 0.7,
    };
    let visits = |result: &pjlab_mcts::IsmctsResult| -> u32 {
        result.children.iter().map(|&(_, v, _)| v).sum()
    };
    // Raised while the 10th determinization is drawn: that iteration is the last.
    let stop = AtomicBool::new(false);
    let mut drawn = 0;
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let sample = |_: &mut ChaCha8Rng| {
        drawn += 1;
        if drawn == 10 {
            stop.store(true, Ordering::Relaxed);
        }
        nim.clone()
    };
    let result = ismcts_until(0, &config, sample, &mut ZeroLeaf, &mut rng, &stop);
    assert_eq!(visits(&result), 10);
    // Raised before it starts: one iteration, so that there is an answer.
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let result = ismcts_until(0, &config, |_| nim.clone(), &mut ZeroLeaf, &mut rng, &stop);
    assert_eq!(visits(&result), 1);
    assert!(result.best.is_some());
    // Never raised: the plain search, draw for draw.
    let config = IsmctsConfig {
        iterations: 500,
        ..config
    };
    let (mut a, mut b) = (ChaCha8Rng::seed_from_u64(2), ChaCha8Rng::seed_from_u64(2));
    let unraised = AtomicBool::new(false);
    let until = ismcts_until(
        0,
        &config,
        |_| nim.clone(),
        &mut ZeroLeaf,
        &mut a,
        &unraised,
    );
    assert_eq!(
        until,
        ismcts(0, &config, |_| nim.clone(), &mut ZeroLeaf, &mut b)
    );
    assert_eq!(a, b);
}
