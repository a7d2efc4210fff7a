//! Observations never leak; knowledge and resampling agree with the truth.
#![allow(clippy::needless_range_loop)] // players are indices into several arrays at once

use pjlab_chifoumi::{Bag, Cell, Game, Knowledge, Object, Observation, Rules};
use pjlab_core::ImperfectGame;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn random_action(game: &Game, rng: &mut ChaCha8Rng) -> pjlab_chifoumi::Action {
    let legal = game.legal();
    legal.nth(rng.random_range(0..legal.len())).unwrap()
}

/// Changes everything `player` cannot perceive: the opponent's bag, every cell out of its
/// window (objects added, removed, changed), the opponent's cell when out of view.
fn perturb(game: &Game, player: usize, rng: &mut ChaCha8Rng) -> Game {
    let mut out = game.clone();
    let opp = 1 - player;
    out.set_bag(
        opp,
        Bag::new(
            rng.random_range(0..9),
            rng.random_range(0..9),
            rng.random_range(0..9),
        ),
    );
    let me = game.position(player);
    let far = |c: Cell| c.chebyshev(me) > game.radius();
    if far(game.position(opp)) {
        loop {
            let c = Cell::new(rng.random_range(0..20), rng.random_range(0..20));
            if far(c) && out.set_position(opp, c).is_ok() {
                break;
            }
        }
    }
    for row in 0..20 {
        for col in 0..20 {
            let c = Cell::new(row, col);
            if far(c) && c != out.position(opp) {
                let object = Object::from_index(rng.random_range(0..4));
                out.set_object(c, object).unwrap();
            }
        }
    }
    out
}

/// Random playouts; at every turn, for each player: the perturbed state gives the same
/// observation and tensor; the opponent's view does change (so the check can fail); the
/// resampled state gives the player the same observation, and resampling the perturbed state
/// with the same generator gives the same state.
#[test]
fn observations_never_leak() {
    let rules = Rules::default();
    let mut rng = ChaCha8Rng::seed_from_u64(2024);
    let mut opponent_saw_change = 0;
    let mut checks = 0;
    for _ in 0..40 {
        let mut game = Game::new(&rules, &mut rng).unwrap();
        let mut history: [Vec<Observation>; 2] =
            [vec![game.observation(0)], vec![game.observation(1)]];
        while !game.is_over() {
            for p in 0..2 {
                let other = perturb(&game, p, &mut rng);
                assert_eq!(
                    other.observation(p),
                    game.observation(p),
                    "\n{game}\n{other}"
                );
                let n = game.observation_tensor_len();
                let (mut t1, mut t2) = (vec![0.0; n], vec![0.0; n]);
                ImperfectGame::observation_tensor(&game, p, &mut t1);
                ImperfectGame::observation_tensor(&other, p, &mut t2);
                assert_eq!(t1, t2);
                opponent_saw_change += (other.observation(1 - p) != game.observation(1 - p)) as u32;
                let seed = rng.random::<u64>();
                let r1 = game.resample(p, &history[p], &mut ChaCha8Rng::seed_from_u64(seed));
                let r2 = other.resample(p, &history[p], &mut ChaCha8Rng::seed_from_u64(seed));
                assert_eq!(
                    r1, r2,
                    "resampling depends only on what player {p} perceives"
                );
                assert_eq!(r1.observation(p), game.observation(p));
                assert_eq!(r1.turn(), game.turn());
                checks += 1;
            }
            let a = random_action(&game, &mut rng);
            game.play(a, &mut rng).unwrap();
            for p in 0..2 {
                history[p].push(game.observation(p));
            }
        }
    }
    assert!(checks > 1000);
    assert!(
        opponent_saw_change * 10 > checks * 9,
        "the perturbation is visible to the other"
    );
}

/// Chance lives only in duels: moves played with different generators give the same state.
#[test]
fn moves_do_not_read_the_generator() {
    let rules = Rules::default();
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    let mut a = Game::new(&rules, &mut rng).unwrap();
    let mut b = a.clone();
    let (mut g1, mut g2) = (ChaCha8Rng::seed_from_u64(1), ChaCha8Rng::seed_from_u64(2));
    for _ in 0..150 {
        let mut legal = a.legal();
        legal.remove(pjlab_chifoumi::Action::Duel);
        let act = legal.nth(rng.random_range(0..legal.len())).unwrap();
        a.play(act, &mut g1).unwrap();
        b.play(act, &mut g2).unwrap();
        assert_eq!(a, b);
        if a.is_over() {
            break;
        }
    }
}

/// The pickups a player's knowledge witnesses are exactly the opponent's pickups made inside
/// its window, counted from the full states.
#[test]
fn knowledge_witnesses_pickups_in_view() {
    let rules = Rules {
        radius: 3,
        ..Rules::default()
    };
    let mut rng = ChaCha8Rng::seed_from_u64(77);
    let mut total = 0;
    for _ in 0..200 {
        let mut game = Game::new(&rules, &mut rng).unwrap();
        let mut known = [Knowledge::default(), Knowledge::default()];
        let mut truth = [Bag::EMPTY; 2];
        for p in 0..2 {
            known[p].update(&game.observation(p));
        }
        while !game.is_over() {
            let mover = game.to_move();
            let before = game.bag(mover);
            let mut legal = game.legal();
            legal.remove(pjlab_chifoumi::Action::Duel);
            let a = legal.nth(rng.random_range(0..legal.len())).unwrap();
            game.play(a, &mut rng).unwrap();
            let watcher = 1 - mover;
            for o in Object::ALL {
                let seen = game.position(mover).chebyshev(game.position(watcher)) <= 3;
                if game.bag(mover).count(o) > before.count(o) && seen {
                    truth[watcher].add(o);
                    total += 1;
                }
            }
            for p in 0..2 {
                known[p].update(&game.observation(p));
            }
        }
        for p in 0..2 {
            assert_eq!(known[p].witnessed(), truth[p]);
        }
    }
    assert!(total > 20, "pickups in view were exercised ({total})");
}

/// The resampled states are valid: objects only on free cells, players off objects, the
/// opponent's bag at least what was witnessed, never-seen objects conserved under the
/// default prior.
#[test]
fn resampled_states_are_consistent() {
    let rules = Rules::default();
    let mut rng = ChaCha8Rng::seed_from_u64(31);
    for _ in 0..30 {
        let mut game = Game::new(&rules, &mut rng).unwrap();
        let mut history = vec![game.observation(0)];
        let mut known = Knowledge::default();
        known.update(&game.observation(0));
        while !game.is_over() {
            let r = game.resample(0, &history, &mut rng);
            assert_eq!(r.observation(0), game.observation(0));
            for p in 0..2 {
                assert_eq!(r.object_at(r.position(p)), None);
            }
            let opp = r.bag(1).counts();
            for (o, w) in opp.iter().zip(known.witnessed().counts()) {
                assert!(*o >= w);
            }
            // Everything dealt is on the grid or in a bag (the default prior hides nothing).
            let (left, mine) = (r.objects_left().counts(), r.bag(0).counts());
            for t in 0..3 {
                assert_eq!(left[t] + mine[t] + opp[t], 10, "\n{r}");
            }
            let mut legal = game.legal();
            legal.remove(pjlab_chifoumi::Action::Duel);
            let a = legal.nth(rng.random_range(0..legal.len())).unwrap();
            game.play(a, &mut rng).unwrap();
            history.push(game.observation(0));
            known.update(&game.observation(0));
        }
    }
}

/// A player handed only its observations rebuilds a state that shows it the same thing, and
/// resamples from that state exactly as from the true one's observation (same generator, same
/// draw), so a player never needs the true state.
#[test]
fn a_state_rebuilt_from_an_observation_shows_the_same_and_resamples_the_same() {
    let rules = Rules::default();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for game_no in 0..20 {
        let mut game = Game::new(&rules, &mut rng).unwrap();
        let mut known = [Knowledge::default(), Knowledge::default()];
        let mut turns = 0;
        while !game.is_over() && turns < 60 {
            for p in 0..2 {
                known[p].update(&game.observation(p));
                let obs = game.observation(p);
                let rebuilt = Game::from_observation(&rules, &obs).unwrap();
                assert_eq!(rebuilt.observation(p), obs, "game {game_no} turn {turns}");
                let prior = pjlab_chifoumi::OpponentPrior::default();
                let seed = rng.random::<u64>();
                let a =
                    game.resample_with(p, &known[p], prior, &mut ChaCha8Rng::seed_from_u64(seed));
                let b = rebuilt.resample_with(
                    p,
                    &known[p],
                    prior,
                    &mut ChaCha8Rng::seed_from_u64(seed),
                );
                assert_eq!(a, b);
            }
            let a = random_action(&game, &mut rng);
            game.play(a, &mut rng).unwrap();
            turns += 1;
        }
    }
    let other = Rules {
        radius: 3,
        ..Rules::default()
    };
    let obs = Game::new(&rules, &mut rng).unwrap().observation(0);
    assert!(
        Game::from_observation(&other, &obs).is_err(),
        "another radius"
    );
}
