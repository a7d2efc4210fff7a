//! Raw speed: random playouts of the spec's game, for the CLI's bench.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::game::{Game, Start};
use crate::{Action, Rules};

/// Plays `steps` uniformly random legal actions (duels included) in back-to-back lone games of
/// the spec's rules, all from one `ChaCha8Rng` seeded with `seed`, and returns the number of
/// games finished: a signature that equal seeds reproduce.
///
/// Nothing is allocated per step or per game (a finished game is re-dealt in place).
pub fn random_steps(steps: u64, seed: u64) -> u64 {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let layout = Rules::default().layout(2).expect("the spec's rules check");
    let mut game = Game::deal(layout, Start::default(), &mut rng);
    let mut finished = 0;
    for _ in 0..steps {
        if game.is_over() {
            finished += 1;
            game.restart(&mut rng);
        }
        let legal = game.legal();
        let k = (rng.next_u32() as u64 * legal.len() as u64) >> 32;
        let action = legal.nth(k as usize).unwrap_or(Action::N);
        game.play_unchecked(action, &mut rng);
    }
    finished
}
