//! Writes the fuzz targets' seed corpus, `crates/fuzz/corpus/TARGET/`, from the shared vectors
//! (`../shared/vectors`, or `PJLAB_VECTORS`), the committed configs, maps, network files and
//! records, and games played here from fixed seeds. Each file is named by a hash of its bytes,
//! so running it again adds nothing new.
//!
//!   cargo run --release -p pjlab-fuzz --example seed_corpus [POSITIONS.parquet]
//!
//! A positions table is not committed anywhere in the repository; pass one (a training run's
//! `positions/iter-0001.parquet`, as `scripts/fuzz.sh corpus` makes) to seed that target.

use std::path::{Path, PathBuf};

use pjlab_core::Game;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let vectors = std::env::var_os("PJLAB_VECTORS")
        .map_or_else(|| root.join("../shared/vectors"), PathBuf::from);
    let out = root.join("crates/fuzz/corpus");
    let mut rng = ChaCha8Rng::seed_from_u64(66);
    let put = |target: &str, bytes: &[u8]| {
        let dir = out.join(target);
        std::fs::create_dir_all(&dir).expect("corpus directory");
        let name = format!("{:016x}", fnv(bytes));
        std::fs::write(dir.join(name), bytes).expect("corpus file");
    };
    let read = |path: PathBuf| {
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    };

    // Pijersi: the recorded games of the shared vectors.
    let games = read(vectors.join("pijersi/recorded_games.jsonl"));
    for line in games.lines().take(20) {
        let game: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        let psn = game["start_psn"].as_str().expect("start_psn");
        put("pijersi_position", psn.as_bytes());
        let start = pjlab_pijersi::Position::from_text(psn).expect("a vector's PSN");
        let mut position = start.clone();
        let mut moves = Vec::new();
        for (ply, text) in game["ugi_moves"]
            .as_array()
            .expect("ugi_moves")
            .iter()
            .enumerate()
        {
            let mv = position
                .parse_move(text.as_str().expect("a move"))
                .expect("a vector's move");
            if ply % 7 == 0 {
                put("pijersi_position", position.to_text().as_bytes());
            }
            moves.push(mv);
            position.play(mv).expect("legal");
        }
        let record = pjlab_pijersi::notation::write_game(&start, &moves).expect("a record");
        put("pijersi_record", record.as_bytes());
    }
    // Pijersi moves in scripted positions: the script's own setup, every legal move's texts.
    for variant in 0..3u8 {
        let script = [variant, 0, 0, 0, 1, 0];
        let position = pjlab_pijersi::Variant::ALL[usize::from(variant)].setup(1);
        let mut moves = Vec::new();
        position.legal_moves(&mut moves);
        for &mv in moves.iter().step_by(9) {
            let ugi = position.move_to_text(mv);
            put("pijersi_move", &[&script[..], ugi.as_bytes()].concat());
            let rulebook = pjlab_pijersi::notation::move_notation(&position, mv);
            put(
                "pijersi_notation_move",
                &[&script[..], rulebook.as_bytes()].concat(),
            );
        }
    }

    // Abalone: every start, positions and games of seeded random play.
    for (i, variant) in pjlab_abalone::Variant::ALL.into_iter().enumerate() {
        let start = variant.start();
        put("abalone_position", start.to_text().as_bytes());
        let (moves, visited) = random_game(&start, 60, &mut rng);
        for p in visited.iter().step_by(15) {
            put("abalone_position", p.to_text().as_bytes());
        }
        let record = pjlab_abalone::notation::write_game(&start, &moves).expect("a record");
        put(
            "abalone_record",
            &[&[i as u8][..], record.as_bytes()].concat(),
        );
        let mut legal = Vec::new();
        start.legal_moves(&mut legal);
        for &mv in legal.iter().step_by(5) {
            put(
                "abalone_move",
                &[&[i as u8, 0][..], start.move_to_text(mv).as_bytes()].concat(),
            );
        }
    }

    // Specs, setup mixes, Chifoumi players: as the README and configs write them.
    for spec in [
        "random",
        "greedy",
        "alphabeta:depth=4",
        "alphabeta:time=1s",
        "alphabeta:eval=nnue:net.nnue,time=100ms",
        "net:checkpoint=runs/quick,sims=400",
        "net:checkpoint=ck,reuse=1,batch=8,cpuct=2.5",
        "mcts:sims=800,cpuct=1.5",
    ] {
        put("agent_spec", spec.as_bytes());
    }
    for config in std::fs::read_dir(root.join("configs")).expect("configs") {
        let path = config.expect("a config").path();
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        for line in text
            .lines()
            .filter(|l| l.trim_start().starts_with("setups"))
        {
            if let Some(value) = line.split('"').nth(1) {
                put("setup_mix", value.as_bytes());
            }
        }
    }
    for name in ["alphabeta.toml", "alphabeta-abalone.toml"] {
        put(
            "eval_weights",
            read(root.join("configs").join(name)).as_bytes(),
        );
    }
    for player in pjlab_chifoumi::players::SCRIPTED_SPECS
        .iter()
        .chain(&["focused", "focused:R"])
    {
        put("chifoumi_player", player.as_bytes());
    }

    // Chifoumi: the committed maps, and records of seeded random games.
    for map in std::fs::read_dir(root.join("crates/chifoumi/maps")).expect("maps") {
        put("chifoumi_map", read(map.expect("a map").path()).as_bytes());
    }
    put(
        "chifoumi_map",
        pjlab_chifoumi::Rules::default().map.to_text().as_bytes(),
    );
    for seed in 0..6u64 {
        put("chifoumi_record", chifoumi_record(seed).as_bytes());
    }

    // Files: the smallest committed network files and game tables, a given positions table.
    for path in [
        "experiments/nnue-generations/abalone-factors/gen-001/net.nnue",
        "experiments/nnue-generations/abalone-factors/gen-002/net.nnue",
    ] {
        put(
            "nnue_file",
            &std::fs::read(root.join(path)).expect("a network file"),
        );
    }
    for path in [
        "experiments/balance-chomp/games.parquet",
        "experiments/balance-opening-plies/classic/games.parquet",
    ] {
        let bytes = std::fs::read(root.join(path)).expect("a games table");
        put("games_parquet", &bytes);
        // Another schema, for the positions reader's refusal.
        put("positions_parquet", &bytes);
    }
    if let Some(path) = std::env::args().nth(1) {
        put(
            "positions_parquet",
            &std::fs::read(path).expect("the positions table"),
        );
    }

    // Scripts for the play targets: seeded random bytes of a few lengths.
    for (target, lengths) in [
        ("pijersi_play", [8, 40, 120, 300]),
        ("abalone_play", [4, 30, 80, 200]),
        ("nnue_accumulator", [8, 40, 120, 300]),
    ] {
        for length in lengths {
            let script: Vec<u8> = (0..length).map(|_| rng.random()).collect();
            put(target, &script);
        }
    }
}

/// Plays `plies` seeded random moves from `start`: the moves and the positions before each.
fn random_game<G: Game>(start: &G, plies: usize, rng: &mut ChaCha8Rng) -> (Vec<G::Move>, Vec<G>) {
    let mut position = start.clone();
    let (mut moves, mut visited, mut legal) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..plies {
        position.legal_moves(&mut legal);
        if legal.is_empty() {
            break;
        }
        visited.push(position.clone());
        let mv = legal[rng.random_range(0..legal.len())];
        moves.push(mv);
        position.play_unchecked(mv);
    }
    (moves, visited)
}

/// A random Chifoumi game under the default rules, as a record's text.
fn chifoumi_record(seed: u64) -> String {
    let rules = pjlab_chifoumi::Rules::default();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game = pjlab_chifoumi::Game::new(&rules, &mut rng).expect("the default rules check");
    let mut choices = ChaCha8Rng::seed_from_u64(seed + 100);
    let mut actions = Vec::new();
    while !game.is_over() && actions.len() < 200 {
        let legal: Vec<_> = game.legal().iter().collect();
        let action = legal[choices.random_range(0..legal.len())];
        game.play(action, &mut rng).expect("a legal action");
        actions.push(action);
    }
    pjlab_chifoumi::GameRecord { seed, actions }.to_string()
}

/// FNV-1a, 64 bits: the corpus files' names.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}
