//! Scripted players: the spec parser, their defining behaviours, a round robin.

use pjlab_chifoumi::players::{CounterPlayer, ObserverPlayer, expected_value, play_game};
use pjlab_chifoumi::{
    Action, ActionSet, Bag, Cell, Duel, DuelOdds, Error, Game, Object, Player, Rules, parse_player,
    play_match,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

const SPECS: [&str; 10] = [
    "random",
    "focused:F",
    "focused:P",
    "focused:C",
    "greedy",
    "avoider",
    "counter",
    "counter-reset",
    "observer",
    "lurker",
];

#[test]
fn specs_parse_and_name_themselves() {
    for spec in SPECS {
        assert_eq!(parse_player(spec).unwrap().name(), spec);
    }
    for bad in [
        "",
        "randm",
        "focused",
        "focused:X",
        "focused:FF",
        "greedy:3",
        "observer:x",
    ] {
        assert!(
            matches!(parse_player(bad), Err(Error::PlayerSpec { .. })),
            "{bad:?}"
        );
    }
}

#[test]
fn round_robin_plays_legal_matches() {
    let rules = Rules {
        games: 4,
        ..Rules::default()
    };
    for (i, a) in SPECS.iter().enumerate() {
        for b in &SPECS[i..] {
            let (mut pa, mut pb) = (parse_player(a).unwrap(), parse_player(b).unwrap());
            let result = play_match(&rules, &mut [pa.as_mut(), pb.as_mut()], i as u64).unwrap();
            assert_eq!(result.games.len(), 4);
            assert_eq!(result.score[0], -result.score[1]);
        }
    }
}

/// Plays `games` lone games of `a` against `b` and returns the final states.
fn games(a: &str, b: &str, n: u64) -> Vec<Game> {
    (0..n)
        .map(|seed| {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut choices = ChaCha8Rng::seed_from_u64(seed + 1000);
            let mut game = Game::new(&Rules::default(), &mut rng).unwrap();
            let (mut pa, mut pb) = (parse_player(a).unwrap(), parse_player(b).unwrap());
            play_game(
                &mut game,
                &mut [pa.as_mut(), pb.as_mut()],
                &mut rng,
                &mut choices,
            )
            .unwrap();
            game
        })
        .collect()
}

#[test]
fn avoider_stays_empty_and_never_duels() {
    for game in games("avoider", "greedy", 60) {
        assert_eq!(game.bag(0), Bag::EMPTY, "\n{game}");
        if let Some(pjlab_chifoumi::GameEnd::Duel(d)) = game.end() {
            assert_eq!(d.trigger, 1);
        }
    }
    // Its duel value is exactly 0 against any bag.
    for b in [
        Bag::EMPTY,
        Bag::new(5, 0, 0),
        Bag::new(1, 2, 3),
        Bag::new(0, 7, 1),
    ] {
        assert_eq!(
            DuelOdds::new(Bag::EMPTY, b).value(),
            pjlab_chifoumi::Ratio::ZERO
        );
    }
}

#[test]
fn lurker_keeps_to_two_cells_and_calls_more_duels() {
    use pjlab_chifoumi::{Cell, GameEnd};
    // On a map without objects it steps between its cell and the one paired with it
    // (rows 2k and 2k+1), and calls the duel whenever the opponent is in view on its turn.
    let rules = Rules::default();
    for seed in 0..10 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut game = Game::new(&rules, &mut rng).unwrap();
        for r in 0..20 {
            for c in 0..20 {
                game.set_object(Cell::new(r, c), None).unwrap();
            }
        }
        let start = game.position(0);
        let partner = Cell::new(start.row ^ 1, start.col);
        let mut lurker = parse_player("lurker").unwrap();
        while !game.is_over() {
            let p = game.to_move();
            let legal = game.legal();
            let a = if p == 0 {
                let obs = game.observation(0);
                lurker.observe(&obs);
                let a = lurker.act(&obs, legal, &mut rng);
                assert_eq!(a == Action::Duel, legal.contains(Action::Duel));
                a
            } else {
                let moves: Vec<Action> = legal.iter().filter(|a| a.is_move()).collect();
                moves[rand::RngExt::random_range(&mut rng, 0..moves.len())]
            };
            game.play(a, &mut rng).unwrap();
            let at = game.position(0);
            assert!(at == start || at == partner, "{at:?} from {start:?}");
        }
    }
    // Against random on the spec's map, it calls more of the duels than random does: random
    // walks into its view more often than it walks into random's.
    let (mut mine, mut theirs) = (0, 0);
    for game in games("lurker", "random", 400) {
        if let Some(GameEnd::Duel(d)) = game.end() {
            if d.trigger == 0 {
                mine += 1;
            } else {
                theirs += 1;
            }
        }
    }
    assert!(
        mine > theirs * 5 / 4,
        "lurker {mine} duels called, random {theirs}"
    );
    // Its empty bag draws uniformly, so each of its duels is won, drawn and lost with
    // probability exactly 1/3 against any bag: only the tie-break is left to play for.
    let third = pjlab_chifoumi::Ratio::new(1, 3);
    for b in [Bag::new(9, 0, 0), Bag::new(1, 2, 3), Bag::new(0, 7, 1)] {
        let odds = DuelOdds::new(Bag::EMPTY, b);
        assert_eq!(
            (odds.win, odds.draw, odds.loss),
            (third, third, third),
            "{b:?}"
        );
    }
}

#[test]
fn focused_holds_only_its_type_and_duels_in_view() {
    let mut collected = 0;
    for game in games("focused:P", "avoider", 60) {
        let bag = game.bag(0);
        assert_eq!(
            (bag.count(Object::Flamme), bag.count(Object::Citrouille)),
            (0, 0),
            "\n{game}"
        );
        collected += bag.count(Object::Potion);
        if let Some(pjlab_chifoumi::GameEnd::Duel(d)) = game.end() {
            assert_eq!(d.trigger, 0);
        }
    }
    assert!(collected > 30, "it does collect ({collected})");
}

#[test]
fn greedy_collects_more_than_random() {
    let total = |spec: &str| -> u32 {
        games(spec, "avoider", 40)
            .iter()
            .map(|g| g.bag(0).total())
            .sum()
    };
    assert!(total("greedy") > total("random"));
}

/// An observation at the end of game `game` of a match whose duel revealed `draws` (the
/// observer is player 0 and triggered).
fn end_of_game(game: u16, draws: [Object; 2]) -> pjlab_chifoumi::Observation {
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let mut obs = Game::new(&Rules::default(), &mut rng)
        .unwrap()
        .observation(0);
    obs.info.game = game;
    obs.duel = Some(Duel {
        trigger: 0,
        target: 1,
        draws,
    });
    obs.over = true;
    obs
}

#[test]
fn counter_targets_what_beats_the_majority() {
    use Object::*;
    let mut plain = CounterPlayer::new(false);
    let mut reset = CounterPlayer::new(true);
    assert_eq!(plain.target(), None);
    // The opponent draws P, P (a draw of equal types and a win), then loses with F.
    let history = [[Potion, Potion], [Citrouille, Potion], [Potion, Flamme]];
    for (g, draws) in history.into_iter().enumerate() {
        plain.observe(&end_of_game(g as u16, draws));
        reset.observe(&end_of_game(g as u16, draws));
        plain.observe(&end_of_game(g as u16, draws)); // seen twice, counted once
    }
    assert_eq!(
        plain.target(),
        Some(Citrouille),
        "P is the majority, C beats it"
    );
    assert_eq!(
        reset.target(),
        None,
        "the opponent's bag was reset when it lost"
    );
    reset.observe(&end_of_game(3, [Potion, Flamme]));
    assert_eq!(reset.target(), None);
    reset.observe(&end_of_game(4, [Flamme, Flamme]));
    assert_eq!(reset.target(), Some(Potion));
}

#[test]
fn observer_value_matches_the_exact_odds_and_decides_the_duel() {
    for (a, b) in [
        ((4, 1, 0), (0, 3, 2)),
        ((2, 1, 1), (0, 0, 1)),
        ((0, 0, 0), (3, 1, 0)),
    ] {
        let (a, b) = (Bag::new(a.0, a.1, a.2), Bag::new(b.0, b.1, b.2));
        let exact = DuelOdds::new(a, b).value().to_f64();
        let float = expected_value(a, b.counts().map(f64::from));
        assert!((exact - float).abs() < 1e-12);
    }
    // In view with a one-Potion bag against an unknown (uniform) opponent: value 0, no duel.
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut game = Game::new(
        &Rules {
            zone_objects: 0,
            random_objects: 0,
            ..Rules::default()
        },
        &mut rng,
    )
    .unwrap();
    game.set_position(0, Cell::new(5, 5)).unwrap();
    game.set_position(1, Cell::new(6, 6)).unwrap();
    game.set_bag(0, Bag::new(0, 1, 0));
    let mut observer = ObserverPlayer::default();
    let obs = game.observation(0);
    observer.observe(&obs);
    let action = observer.act(&obs, game.legal(), &mut rng);
    assert_ne!(action, Action::Duel);
    let legal: ActionSet = game.legal();
    assert!(legal.contains(action));
    // It flees: the distance to the opponent grows.
    let mut after = game.clone();
    after.play(action, &mut rng).unwrap();
    assert!(after.position(0).manhattan(after.position(1)) > 2);
}

/// Intents always answer a legal action; `Duel` exactly when the duel is legal; `Collect` walks
/// the shortest path to the object it wants; `Flee` never comes closer when it can step away.
#[test]
fn intents_act_legally_and_as_named() {
    use pjlab_chifoumi::players::Intent;
    use pjlab_chifoumi::{Action, Cell, Knowledge, Object};
    use rand::RngExt;
    let rules = Rules::default();
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for seed in 0..20 {
        let mut game = Game::new(&rules, &mut ChaCha8Rng::seed_from_u64(seed)).unwrap();
        let mut known = Knowledge::default();
        while !game.is_over() {
            let p = game.to_move();
            let obs = game.observation(p);
            known.update(&obs);
            let legal = game.legal();
            for intent in Intent::ALL {
                assert_eq!(
                    intent.allowed(legal),
                    intent != Intent::Duel || game.in_view()
                );
                let a = intent.act(&obs, &known, legal, &mut rng);
                assert!(legal.contains(a), "{intent:?} gave {a}");
                assert_eq!(
                    a == Action::Duel,
                    intent == Intent::Duel && legal.contains(Action::Duel)
                );
                if intent == Intent::Flee && game.in_view() {
                    let opp = game.position(1 - p);
                    let d = |c: Cell| c.chebyshev(opp);
                    let mut next = game.clone();
                    next.play(a, &mut ChaCha8Rng::seed_from_u64(0)).unwrap();
                    let best = Action::MOVES
                        .into_iter()
                        .filter(|&m| legal.contains(m))
                        .map(|m| {
                            let mut g = game.clone();
                            g.play(m, &mut ChaCha8Rng::seed_from_u64(0)).unwrap();
                            d(g.position(p))
                        })
                        .max()
                        .unwrap();
                    assert_eq!(d(next.position(p)), best, "flee keeps the farthest");
                }
            }
            let legal_moves: Vec<Action> = legal.iter().filter(|a| a.is_move()).collect();
            let a = legal_moves[rng.random_range(0..legal_moves.len())];
            game.play(a, &mut rng).unwrap();
            known.update(&game.observation(p));
        }
    }
    // Collect(F) with a Flamme two cells east (in view) and a Potion off the straight path:
    // two steps east take it.
    let mut game = Game::new(&rules, &mut ChaCha8Rng::seed_from_u64(3)).unwrap();
    for r in 0..20 {
        for c in 0..20 {
            game.set_object(Cell::new(r, c), None).unwrap();
        }
    }
    game.set_position(0, Cell::new(10, 5)).unwrap();
    game.set_position(1, Cell::new(0, 19)).unwrap();
    game.set_object(Cell::new(10, 7), Some(Object::Flamme))
        .unwrap();
    game.set_object(Cell::new(9, 6), Some(Object::Potion))
        .unwrap();
    let mut known = Knowledge::default();
    for _ in 0..2 {
        let obs = game.observation(0);
        known.update(&obs);
        let a = Intent::Collect(Object::Flamme).act(&obs, &known, game.legal(), &mut rng);
        assert_eq!(a, Action::E);
        game.play(a, &mut rng).unwrap();
        game.play(Action::S, &mut rng).unwrap(); // the opponent walks away
    }
    assert_eq!(game.bag(0).count(Object::Flamme), 1);
}
