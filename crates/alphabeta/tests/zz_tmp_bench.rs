#![allow(missing_docs)]
use pjlab_abalone::{AbaloneEval, AbaloneWeights, Color, Position, Variant};
use pjlab_alphabeta::{Engine, Limits, Options};
use pjlab_core::{Game, Outcome};
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

fn play(
    a: &AbaloneWeights,
    b: &AbaloneWeights,
    start: &Position,
    a_black: bool,
    depth: u32,
) -> f64 {
    let mut ea = Engine::new(AbaloneEval::new(a.clone()), Options::default());
    let mut eb = Engine::new(AbaloneEval::new(b.clone()), Options::default());
    let mut p = start.clone();
    for _ in 0..400 {
        if p.outcome().is_some() {
            break;
        }
        let a_moves = (p.color_to_move() == Color::Black) == a_black;
        let r = if a_moves {
            ea.search(&p, &Limits::depth(depth))
        } else {
            eb.search(&p, &Limits::depth(depth))
        };
        p.play_unchecked(r.best_move.unwrap());
    }
    let a_side = if a_black { Color::Black } else { Color::White };
    match p.outcome() {
        Some(Outcome::Win(s)) if s == a_side.side() => 1.0,
        Some(Outcome::Win(_)) => 0.0,
        _ => {
            // adjudicate by ejections
            let d = i32::from(p.ejected(a_side)) - i32::from(p.ejected(a_side.other()));
            if d > 0 {
                0.75
            } else if d < 0 {
                0.25
            } else {
                0.5
            }
        }
    }
}

fn parse(spec: &str) -> AbaloneWeights {
    let mut w = AbaloneWeights::default();
    for kv in spec.split(',').filter(|s| !s.is_empty()) {
        let (k, v) = kv.split_once('=').unwrap();
        let v: i32 = v.parse().unwrap();
        match k {
            "marble" => w.marble = v,
            "danger" => w.danger = v,
            "centre" => w.centre = v,
            "cohesion" => w.cohesion = v,
            "edge" => w.edge = v,
            "draw" => w.draw_counter = v,
            _ => panic!(),
        }
    }
    w
}

#[test]
fn bench() {
    let base_spec = std::env::var("BASE").unwrap_or_default();
    let base = parse(&base_spec);
    let cands = std::env::var("CANDS").unwrap_or_default();
    let depth: u32 = std::env::var("D")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2);
    let per: usize = std::env::var("N")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(6);
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let mut starts = Vec::new();
    let mut moves = Vec::new();
    for v in [
        Variant::Standard,
        Variant::BelgianDaisy,
        Variant::GermanDaisy,
    ] {
        for _ in 0..per {
            let mut p = v.start();
            for _ in 0..4 {
                p.legal_moves(&mut moves);
                p.play_unchecked(*moves.choose(&mut rng).unwrap());
            }
            starts.push(p);
        }
    }
    for spec in cands.split(';') {
        let w = parse(&format!("{base_spec},{spec}"));
        let mut score = 0.0;
        let mut n = 0;
        let mut decisive = 0;
        for s in &starts {
            for a_black in [true, false] {
                let r = play(&base, &w, s, a_black, depth);
                if r == 0.0 || r == 1.0 {
                    decisive += 1;
                }
                score += r;
                n += 1;
            }
        }
        println!("base [{base_spec}] vs [{spec}]: {score}/{n} ({decisive} decisive) depth {depth}");
    }
}
