//! The API over a real socket: legal moves against the rules crates, errors, limits, searches
//! (streamed, stopped, abandoned), the pool's bound, and the `--runs` path checks.

mod common;

use std::collections::BTreeSet;

use common::{Events, get, json, post, raw, server};
use pjlab_core::Game;
use serde_json::{Value, json};

/// The legal moves of `position` by the rules crate, as texts.
fn rules_moves<G: Game>(position: &G) -> BTreeSet<String> {
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    moves.iter().map(|&m| position.move_to_text(m)).collect()
}

fn api_moves(addr: std::net::SocketAddr, body: &Value) -> BTreeSet<String> {
    let (status, answer) = post(addr, "/api/v1/legal", body);
    assert_eq!(status, 200, "{answer}");
    answer["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn legal_moves_agree_with_the_rules_along_random_games() {
    let addr = server(1, 4, None);
    // Pijersi from a seeded random setup, Abalone from the standard start and in doubles: at
    // every ply the API's moves are the rules crate's; the next move is drawn from them.
    let pijersi = pjlab_core::SetupVariant::start(
        "full-random".parse::<pjlab_pijersi::Variant>().unwrap(),
        7,
    );
    walk(
        addr,
        json!({"game": "pijersi", "variant": "full-random", "seed": 7}),
        pijersi,
        40,
    );
    let standard = pjlab_abalone::Position::from_text(
        post(addr, "/api/v1/state", &json!({"game": "abalone"})).1["position"]
            .as_str()
            .unwrap(),
    )
    .unwrap();
    walk(addr, json!({"game": "abalone"}), standard, 30);
    let doubles: pjlab_abalone::Position =
        pjlab_core::SetupVariant::start("doubles".parse::<pjlab_abalone::Variant>().unwrap(), 0);
    walk(
        addr,
        json!({"game": "abalone", "variant": "doubles"}),
        doubles,
        30,
    );
}

fn walk<G: Game>(addr: std::net::SocketAddr, mut at: Value, mut position: G, plies: usize) {
    let mut rng = 12345u64;
    let mut moves: Vec<String> = Vec::new();
    for ply in 0..plies {
        at["moves"] = json!(moves);
        let expected = rules_moves(&position);
        assert_eq!(api_moves(addr, &at), expected, "ply {ply}");
        let (_, state) = post(addr, "/api/v1/state", &at);
        assert_eq!(state["position"], json!(position.to_text()));
        assert_eq!(state["seat"], json!(position.seat()));
        if position.outcome().is_some() {
            assert!(expected.is_empty());
            return;
        }
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let pick = expected
            .iter()
            .nth((rng >> 33) as usize % expected.len())
            .unwrap()
            .clone();
        position
            .play(position.parse_move(&pick).ok().unwrap())
            .ok()
            .unwrap();
        moves.push(pick);
    }
}

#[test]
fn bad_requests_get_json_errors_with_4xx() {
    let addr = server(1, 2, None);
    let start = json!({"game": "pijersi"});
    let cases: Vec<(&str, Value, u16)> = vec![
        ("/api/v1/legal", json!({}), 400),
        ("/api/v1/legal", json!({"game": "go"}), 400),
        (
            "/api/v1/legal",
            json!({"game": "pijersi", "colour": "red"}),
            400,
        ),
        (
            "/api/v1/legal",
            json!({"game": "pijersi", "position": "not a psn"}),
            400,
        ),
        (
            "/api/v1/legal",
            json!({"game": "pijersi", "moves": ["a1a1"]}),
            400,
        ),
        (
            "/api/v1/legal",
            json!({"game": "pijersi", "variant": "hexagonal"}),
            400,
        ),
        (
            "/api/v1/legal",
            json!({"game": "pijersi", "moves": vec!["a4b5"; 3000]}),
            400,
        ),
        ("/api/v1/bestmove", json!({"game": "pijersi"}), 422),
        (
            "/api/v1/bestmove",
            json!({"game": "pijersi", "player": "ugi:cmd=/bin/sh"}),
            422,
        ),
        (
            "/api/v1/bestmove",
            json!({"game": "pijersi", "player": "chess-engine"}),
            422,
        ),
        (
            "/api/v1/bestmove",
            json!({"game": "pijersi", "player": "random", "depth": 0}),
            400,
        ),
        (
            "/api/v1/bestmove",
            json!({"game": "pijersi", "player": "random", "movetime_ms": 3_600_000}),
            400,
        ),
        (
            "/api/v1/bestmove",
            json!({"game": "pijersi", "position": "R-5/7/6/7/6/7/r-5 b 0 1", "player": "random"}),
            400,
        ),
        (
            "/api/v1/record",
            json!({"game": "pijersi", "record": "1 z9-z8"}),
            400,
        ),
        ("/api/v1/stop", json!({}), 400),
        ("/api/v1/runs/game", json!({"path": "x"}), 404),
        ("/api/v1/nothing", start.clone(), 404),
    ];
    for (path, body, status) in cases {
        let (got, answer) = post(addr, path, &body);
        assert_eq!(got, status, "{path} {body}: {answer}");
        assert!(
            answer["error"].as_str().is_some_and(|e| !e.is_empty()),
            "{answer}"
        );
    }
    // Not JSON, not sent as JSON, too large, addressed to another host.
    let send = |head: &str, body: &[u8]| {
        let request = format!(
            "POST /api/v1/legal HTTP/1.1\r\n{head}Content-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        );
        let (status, answer) = raw(addr, &request, body);
        (status, json(&answer))
    };
    let json_head = "Host: 127.0.0.1\r\nContent-Type: application/json\r\n";
    assert_eq!(send(json_head, b"{not json").0, 400);
    assert_eq!(
        send(
            "Host: 127.0.0.1\r\nContent-Type: text/plain\r\n",
            br#"{"game":"pijersi"}"#
        )
        .0,
        415
    );
    let huge = format!(
        r#"{{"game":"pijersi","position":"{}"}}"#,
        "x".repeat(100_000)
    );
    let (status, answer) = send(json_head, huge.as_bytes());
    assert_eq!(status, 413, "{answer}");
    let (status, answer) = send(
        "Host: attacker.example:8040\r\nContent-Type: application/json\r\n",
        br#"{"game":"pijersi"}"#,
    );
    assert_eq!(status, 421, "{answer}");
    // The server still answers.
    assert_eq!(get(addr, "/api/v1/health").0, 200);
}

#[test]
fn bestmove_answers_a_legal_move_and_the_page_is_served() {
    let addr = server(2, 4, None);
    let (status, health) = get(addr, "/api/v1/health");
    assert_eq!(status, 200);
    assert_eq!(json(&health)["api"], 1);
    let (status, page) = get(addr, "/");
    assert_eq!(status, 200);
    assert!(String::from_utf8_lossy(&page).contains("<script src=\"/app.js\""));
    assert_eq!(get(addr, "/app.js").0, 200);
    for (game, moves) in [
        ("pijersi", vec!["a4b5c4"]),
        ("abalone", vec![]),
        ("chomp", vec![]),
    ] {
        let at = json!({"game": game, "moves": moves, "player": "alphabeta:depth=2"});
        let (status, answer) = post(addr, "/api/v1/bestmove", &at);
        assert_eq!(status, 200, "{answer}");
        let legal = api_moves(addr, &json!({"game": game, "moves": at["moves"]}));
        let mv = answer["move"].as_str().unwrap();
        assert!(legal.contains(mv), "{game}: {mv}");
        assert_eq!(answer["pv"][0], json!(mv));
        assert!(
            answer["score"]["win_probability"].as_f64().is_some(),
            "{answer}"
        );
    }
}

#[test]
fn a_stream_reports_and_stops_on_request() {
    let addr = server(1, 2, None);
    let mut events = Events::open(
        addr,
        &json!({"game": "pijersi", "player": "alphabeta", "movetime_ms": 60000}),
    )
    .unwrap();
    let (name, start) = events.next().unwrap();
    assert_eq!(name, "start");
    let id = start["id"].as_u64().unwrap();
    // Wait for a first report, then stop: the search ends with a move.
    let (name, info) = events.next().unwrap();
    assert_eq!(name, "info", "{info}");
    let (status, answer) = post(addr, "/api/v1/stop", &json!({ "id": id }));
    assert_eq!((status, answer["stopped"].clone()), (200, json!(true)));
    let done = loop {
        match events.next() {
            Some((name, data)) if name == "done" => break data,
            Some((name, _)) if name == "info" => {}
            other => panic!("{other:?}"),
        }
    };
    let legal = api_moves(addr, &json!({"game": "pijersi"}));
    assert!(legal.contains(done["move"].as_str().unwrap()));
    // The id is forgotten once the stream ends.
    drop(events);
    poll_idle(addr);
    assert_eq!(
        post(addr, "/api/v1/stop", &json!({ "id": id })).1["stopped"],
        json!(false)
    );
}

/// Waits until no search runs (a search that never stops fails the test by its timeout).
fn poll_idle(addr: std::net::SocketAddr) {
    loop {
        let (_, health) = get(addr, "/api/v1/health");
        if json(&health)["searches"] == json!(0) {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

#[test]
fn a_search_stops_when_its_client_goes_away_and_the_pool_is_bounded() {
    // One worker, one place in the queue: a running search, a waiting one, then 503.
    let addr = server(1, 1, None);
    let long = json!({"game": "abalone", "player": "alphabeta", "movetime_ms": 60000});
    let mut running = Events::open(addr, &long).unwrap();
    assert_eq!(running.next().unwrap().0, "start");
    assert_eq!(running.next().unwrap().0, "info"); // it runs
    let mut waiting = Events::open(addr, &long).unwrap();
    assert_eq!(waiting.next().unwrap().0, "start");
    let (status, answer) = post(addr, "/api/v1/bestmove", &long);
    assert_eq!(status, 503, "{answer}");
    assert!(answer["error"].as_str().unwrap().contains("busy"));
    // Both clients leave: the running search stops, the waiting one never runs.
    running.stream.shutdown(std::net::Shutdown::Both).unwrap();
    waiting.stream.shutdown(std::net::Shutdown::Both).unwrap();
    drop((running, waiting));
    poll_idle(addr);
    // The worker is free again: a quick search answers.
    let quick = json!({"game": "abalone", "player": "alphabeta:depth=1"});
    assert_eq!(post(addr, "/api/v1/bestmove", &quick).0, 200);
}

#[test]
fn concurrent_games_stay_apart() {
    let addr = server(2, 64, None);
    // Eight clients, each a game of its own against depth-1 alpha-beta: every answer legal in
    // that client's own position.
    let handles: Vec<_> = (0..8u64)
        .map(|k| {
            std::thread::spawn(move || {
                let mut moves: Vec<String> = Vec::new();
                let at = |moves: &Vec<String>| {
                    json!({"game": "pijersi", "variant": "full-random", "seed": k, "moves": moves,
                           "player": "alphabeta:depth=1", "player_seed": k})
                };
                for _ in 0..12 {
                    let legal = api_moves(addr, &at(&moves));
                    if legal.is_empty() {
                        break;
                    }
                    let (status, answer) = post(addr, "/api/v1/bestmove", &at(&moves));
                    assert_eq!(status, 200, "{answer}");
                    let mv = answer["move"].as_str().unwrap().to_string();
                    assert!(legal.contains(&mv), "client {k}: {mv}");
                    moves.push(mv);
                }
                moves.len()
            })
        })
        .collect();
    for h in handles {
        assert!(h.join().unwrap() > 0);
    }
}

#[test]
fn records_round_trip() {
    let addr = server(1, 2, None);
    for (game, first) in [("pijersi", "a4b5c4"), ("abalone", "a1b2")] {
        let reply = api_moves(addr, &json!({"game": game, "moves": [first]}));
        let moves = json!([first, reply.iter().next().unwrap()]);
        let (status, state) = post(
            addr,
            "/api/v1/state",
            &json!({"game": game, "moves": moves}),
        );
        assert_eq!(status, 200, "{state}");
        let record = state["record"].as_str().unwrap();
        let (status, read) = post(
            addr,
            "/api/v1/record",
            &json!({"game": game, "record": record}),
        );
        assert_eq!(status, 200, "{read}");
        assert_eq!(read["moves"], state["moves"]);
        assert_eq!(read["position"], state["position"]);
    }
}

#[test]
fn runs_files_stay_inside_the_directory() {
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret.txt"), "1 a4-b5\n").unwrap();
    let runs = tempfile::tempdir().unwrap();
    let sub = runs.path().join("match");
    std::fs::create_dir(&sub).unwrap();
    // A real Pijersi record, written by the API itself.
    let addr0 = server(1, 1, None);
    let reply = api_moves(addr0, &json!({"game": "pijersi", "moves": ["a4b5c4"]}));
    let moves = json!(["a4b5c4", reply.iter().next().unwrap()]);
    let (_, state) = post(
        addr0,
        "/api/v1/state",
        &json!({"game": "pijersi", "moves": moves}),
    );
    std::fs::write(sub.join("game.txt"), state["record"].as_str().unwrap()).unwrap();
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(
            outside.path().join("secret.txt"),
            runs.path().join("link.txt"),
        )
        .unwrap();
        std::os::unix::fs::symlink(outside.path(), runs.path().join("linkdir")).unwrap();
    }
    let addr = server(1, 1, Some(runs.path().to_path_buf()));
    let (status, listing) = get(addr, "/api/v1/runs");
    assert_eq!(status, 200);
    assert_eq!(json(&listing)["files"], json!(["match/game.txt"]));
    let (status, game) = post(
        addr,
        "/api/v1/runs/game",
        &json!({"path": "match/game.txt"}),
    );
    assert_eq!(status, 200, "{game}");
    assert_eq!(game["moves"], moves);
    let secret = outside.path().join("secret.txt");
    for bad in [
        "../secret.txt".to_string(),
        "match/../../secret.txt".to_string(),
        secret.display().to_string(),
        "link.txt".to_string(),
        "linkdir/secret.txt".to_string(),
    ] {
        let (status, answer) = post(addr, "/api/v1/runs/game", &json!({ "path": bad }));
        assert!(status == 400 || status == 404, "{bad}: {status} {answer}");
        assert!(answer["error"].is_string());
        assert!(
            !answer.to_string().contains("a4-b5"),
            "{bad} leaked: {answer}"
        );
    }
    let (status, _) = post(
        addr,
        "/api/v1/runs/game",
        &json!({"path": "match/game.txt", "index": 3}),
    );
    assert_eq!(status, 404);
}

#[test]
fn rank_puts_a_winning_move_first() {
    let addr = server(1, 2, None);
    // White's rock on f1 wins by reaching row g; Black's scissors on g6 is far from row a.
    let psn = "5s-/R-6/6/7/6/7/6 w 0 5";
    let (status, ranked) = post(
        addr,
        "/api/v1/rank",
        &json!({"game": "pijersi", "position": psn, "depth": 2, "count": 50}),
    );
    assert_eq!(status, 200, "{ranked}");
    let position = pjlab_pijersi::Position::from_text(psn).unwrap();
    let all = rules_moves(&position);
    let moves = ranked["moves"].as_array().unwrap();
    assert_eq!(moves.len(), all.len().min(50));
    let first = moves[0]["move"].as_str().unwrap();
    let after = position.after(position.parse_move(first).ok().unwrap());
    assert_eq!(
        after.outcome(),
        Some(pjlab_core::Outcome::Win(pjlab_core::Side::First)),
        "{first} should win at once: {ranked}"
    );
    assert_eq!(moves[0]["score"]["mate_plies"], json!(1));
    for m in moves {
        assert!(all.contains(m["move"].as_str().unwrap()), "{m}");
    }
    let (status, _) = post(
        addr,
        "/api/v1/rank",
        &json!({"game": "pijersi", "depth": 9}),
    );
    assert_eq!(status, 400);
}

#[test]
fn a_runs_parquet_game_opens_and_replays_by_the_rules() {
    // A committed match's games, as `pjlab show` reads them.
    let source = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../experiments/balance-opening-plies/classic/games.parquet");
    let runs = tempfile::tempdir().unwrap();
    std::fs::create_dir(runs.path().join("match")).unwrap();
    std::fs::copy(&source, runs.path().join("match/games.parquet")).unwrap();
    let addr = server(1, 1, Some(runs.path().to_path_buf()));
    let (_, listing) = get(addr, "/api/v1/runs");
    assert_eq!(json(&listing)["files"], json!(["match/games.parquet"]));
    let (status, game) = post(
        addr,
        "/api/v1/runs/game",
        &json!({"path": "match/games.parquet", "index": 1}),
    );
    assert_eq!(status, 200, "{game}");
    assert_eq!(game["game"], json!("pijersi"));
    assert!(game["count"].as_u64().unwrap() > 1);
    // The moves replay from the start by the rules crate to the position the API shows.
    let mut position = pjlab_pijersi::Position::from_text(game["start"].as_str().unwrap()).unwrap();
    let moves = game["moves"].as_array().unwrap();
    assert!(!moves.is_empty());
    for mv in moves {
        let mv = position.parse_move(mv.as_str().unwrap()).ok().unwrap();
        position.play(mv).ok().unwrap();
    }
    assert_eq!(game["position"], json!(position.to_text()));
}
