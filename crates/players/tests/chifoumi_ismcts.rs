//! The information-set MCTS player: its spec, a duel it must call and one it must refuse from
//! what it saw the opponent pick up, its stop flag, and matches against the random player.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use pjlab_chifoumi::{Action, Bag, Cell, Game, Object, Player, Rules};
use pjlab_players::chifoumi::{IsmctsOptions, ismcts_player};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// A player by spec: `ismcts` here, the scripted ones from their crate (the lab's factory of
/// every Chifoumi player, names included, is `pjlab_players::chifoumi::build`).
fn player(spec: &str, rules: &Rules) -> Result<Box<dyn Player + Send>, String> {
    if spec.starts_with("ismcts") {
        let player = ismcts_player(spec, rules).map_err(|e| e.to_string())?;
        return Ok(Box::new(player));
    }
    pjlab_chifoumi::parse_player(spec).map_err(|e| e.to_string())
}

#[test]
fn specs_parse_and_refuse_bad_options() {
    let rules = Rules::default();
    let p = player("ismcts:sims=50,c=1.5", &rules).unwrap();
    assert_eq!(p.name(), "ismcts:sims=50,c=1.5,leaf=0.5,hidden=0.1,tie=0.1");
    assert_eq!(IsmctsOptions::parse("").unwrap(), IsmctsOptions::default());
    // A player's name is its spec: it builds the same player again.
    let tuned = player("ismcts:sims=7,c=0.5,leaf=0.25,hidden=0.2,tie=0.3", &rules).unwrap();
    assert_eq!(player(&tuned.name(), &rules).unwrap().name(), tuned.name());
    assert!(tuned.name().ends_with("tie=0.3"));
    for bad in [
        "ismcts:sims=0",
        "ismcts:leaf=2",
        "ismcts:tie=2",
        "ismcts:depth=3",
        "ismcts:sims",
    ] {
        assert!(player(bad, &rules).is_err(), "{bad}");
    }
    assert!(player("mcts", &rules).is_err());
}

/// Player 0 holds `mine` and watches player 1 pick up three Potions next to it; then, the
/// opponent in view, it chooses.
fn choice_after_watching_potions(mine: Bag, seed: u64) -> Action {
    let (game, mut me, mut rng) = watching_potions("ismcts:sims=400", mine, seed);
    me.act(&game.observation(0), game.legal(), &mut rng)
}

/// The game, the player `spec` names as player 0 and the generator, when player 0 holds
/// `mine` and has watched player 1 pick up three Potions next to it, the opponent in view.
fn watching_potions(
    spec: &str,
    mine: Bag,
    seed: u64,
) -> (Game, Box<dyn Player + Send>, ChaCha8Rng) {
    let rules = Rules::default();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game = Game::new(&rules, &mut rng).unwrap();
    for r in 0..20 {
        for c in 0..20 {
            game.set_object(Cell::new(r, c), None).unwrap();
        }
    }
    game.set_position(0, Cell::new(10, 8)).unwrap();
    game.set_position(1, Cell::new(10, 9)).unwrap();
    for c in 10..13 {
        game.set_object(Cell::new(10, c), Some(Object::Potion))
            .unwrap();
    }
    game.set_bag(0, mine);
    assert_eq!(game.to_move(), 0);
    let mut me = player(spec, &rules).unwrap();
    me.new_match();
    me.observe(&game.observation(0));
    for _ in 0..3 {
        for _ in 0..2 {
            game.play(Action::E, &mut rng).unwrap();
            me.observe(&game.observation(0));
        }
    }
    assert_eq!(
        game.bag(1),
        Bag::new(0, 3, 0),
        "the opponent took the Potions in view"
    );
    assert!(game.in_view() && game.legal().contains(Action::Duel));
    (game, me, rng)
}

#[test]
fn it_duels_a_bag_it_beats_and_flees_one_that_beats_it() {
    for seed in 0..5 {
        // Citrouille beats Potion: the duel is worth about +1.
        assert_eq!(
            choice_after_watching_potions(Bag::new(0, 0, 4), seed),
            Action::Duel,
            "seed {seed}"
        );
        // Potion beats Flamme: worth about -1.
        assert_ne!(
            choice_after_watching_potions(Bag::new(4, 0, 0), seed),
            Action::Duel,
            "seed {seed}"
        );
    }
}

#[test]
fn a_raised_stop_flag_ends_its_search_and_an_unraised_one_changes_nothing() {
    // Unraised: the same choice and the same draws as `act`.
    for seed in 0..3 {
        let (game, mut a, mut rng_a) = watching_potions("ismcts:sims=200", Bag::new(1, 1, 1), seed);
        let (_, mut b, mut rng_b) = watching_potions("ismcts:sims=200", Bag::new(1, 1, 1), seed);
        let (obs, legal) = (game.observation(0), game.legal());
        let never = AtomicBool::new(false);
        assert_eq!(
            a.act(&obs, legal, &mut rng_a),
            b.act_until(&obs, legal, &mut rng_b, &never),
            "seed {seed}"
        );
        assert_eq!(rng_a, rng_b, "seed {seed}");
    }
    // 400,000 iterations (about 20 s) end soon after another thread raises the flag.
    let (game, mut me, mut rng) = watching_potions("ismcts:sims=400000", Bag::new(1, 1, 1), 0);
    let stop = AtomicBool::new(false);
    let started = Instant::now();
    let action = std::thread::scope(|scope| {
        scope.spawn(|| {
            std::thread::sleep(Duration::from_millis(100));
            stop.store(true, Ordering::Relaxed);
        });
        me.act_until(&game.observation(0), game.legal(), &mut rng, &stop)
    });
    assert!(game.legal().contains(action));
    let took = started.elapsed();
    assert!(took < Duration::from_secs(5), "stopped after {took:?}");
}

#[test]
fn it_beats_the_random_player() {
    let rules = Rules {
        games: 4,
        max_rounds: 40,
        ..Rules::default()
    };
    let (mut won, mut lost) = (0, 0);
    for seed in 0..16u64 {
        let mut a = player("ismcts:sims=100", &rules).unwrap();
        let mut b = player("random", &rules).unwrap();
        let (a, b): (&mut dyn Player, &mut dyn Player) = (a.as_mut(), b.as_mut());
        let mut players = if seed % 2 == 0 { [a, b] } else { [b, a] };
        let r = pjlab_chifoumi::play_match(&rules, &mut players, seed / 2).unwrap();
        let me = (seed % 2) as usize;
        match r.winner {
            Some(w) if w == me => won += 1,
            Some(_) => lost += 1,
            None => {}
        }
    }
    assert!(won >= 2 * lost && won >= 9, "won {won}, lost {lost} of 16");
}

/// Seated in an arena (whose view counts the game in the arena's rounds), the search player
/// still searches: it calls duels, which a fallback to the first legal action never does.
#[test]
fn it_searches_in_an_arena_too() {
    use pjlab_chifoumi::ArenaRules;
    use pjlab_chifoumi::players::{ArenaSeat, play_arena};
    let rules = ArenaRules {
        players: 3,
        turns: 600,
        ..ArenaRules::default()
    };
    let mut called = 0;
    for seed in 0..3 {
        let mut seats: Vec<ArenaSeat> = ["ismcts:sims=30", "random", "greedy"]
            .iter()
            .map(|s| ArenaSeat::new(player(s, &rules.rules).unwrap()))
            .collect();
        let result = play_arena(&rules, &mut seats, seed).unwrap();
        called += result.duels.iter().filter(|d| d.duel.trigger == 0).count();
    }
    assert!(
        called > 0,
        "the search player called no duel in three arenas"
    );
}
