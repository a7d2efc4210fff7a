//! The rules of `shared/specs/abalone.md` on hand-built positions. Every expectation (position
//! texts after a move, legality, move counts) is worked out by hand from the spec. The file
//! follows the spec section by section so that it can be read against it in one sitting, which
//! is why it stays one file past 500 lines.

use pjlab_abalone::notation::{self, parse_game};
use pjlab_abalone::{Broadside, Cell, Color, Direction, Error, Move, Position, Seat, Variant};
use pjlab_core::{Outcome, Side};

/// Reads a position text, panicking with the text on failure.
fn pos(text: &str) -> Position {
    Position::from_text(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// A cell by name.
fn cell(name: &str) -> Cell {
    Cell::parse(name).unwrap_or_else(|| panic!("no cell {name}"))
}

/// Plays the space-separated `moves` from `text`, each checked, and returns the text after.
fn after(text: &str, moves: &str) -> String {
    let mut position = pos(text);
    for mv in moves.split_whitespace() {
        let parsed = position
            .parse_move(mv)
            .unwrap_or_else(|e| panic!("{mv} in {position}: {e}"));
        position.play(parsed).unwrap();
    }
    position.to_string()
}

/// Asserts that `mv` is refused in `text` as an illegal move (not as bad notation), that
/// `why_illegal` agrees, that playing it changes nothing, and returns the reason.
fn refused(text: &str, mv: &str) -> String {
    let position = pos(text);
    let reason = match position.parse_move(mv) {
        Err(Error::IllegalMove { reason, .. }) => reason,
        other => panic!("{mv} in {text}: expected an illegal move, got {other:?}"),
    };
    let parsed = notation::parse_move(mv).unwrap();
    assert_eq!(position.why_illegal(parsed), Some(reason.clone()));
    let mut copy = position.clone();
    assert!(copy.play(parsed).is_err());
    assert_eq!(copy, position, "a refused move changed the position");
    reason
}

/// The legal moves of `text`, as sorted notation strings.
fn moves_of(text: &str) -> Vec<String> {
    let mut moves = Vec::new();
    pos(text).legal_moves(&mut moves);
    let mut names: Vec<String> = moves.iter().map(Move::to_string).collect();
    names.sort();
    names
}

/// In-line moves of 1, 2 and 3 marbles move the run from the trailing marble one step.
#[test]
fn inline_moves_of_one_two_three_marbles() {
    let row = "5/6/7/8/2bbb4/8/7/6/5 b 0 0 0 1"; // Black E3 E4 E5
    assert_eq!(after(row, "e3e4"), "5/6/7/8/3bbb3/8/7/6/5 w 0 0 1 1");
    assert_eq!(after(row, "e4e5"), "5/6/7/8/2b1bb3/8/7/6/5 w 0 0 1 1");
    assert_eq!(after(row, "e5e6"), "5/6/7/8/2bb1b3/8/7/6/5 w 0 0 1 1");
    assert_eq!(after(row, "e5e4"), "5/6/7/8/1bbb5/8/7/6/5 w 0 0 1 1");
    // Along a diagonal: C3 D4 E5 north-east to D4 E5 F6.
    let diagonal = "5/6/7/8/4b4/3b4/2b4/6/5 b 0 0 0 1";
    assert_eq!(after(diagonal, "c3d4"), "5/6/7/4b3/4b4/3b4/7/6/5 w 0 0 1 1");
    assert_eq!(
        pos(row).parse_move("e3e4").unwrap(),
        Move::Inline {
            trailing: cell("e3"),
            dir: Direction::East
        }
    );
}

/// A 4th own marble in the run makes the in-line move impossible; three of the four may move.
#[test]
fn fourth_own_marble_blocks() {
    let four = "5/6/7/8/1bbbb4/8/7/6/5 b 0 0 0 1"; // Black E2 E3 E4 E5
    assert!(refused(four, "e2e3").contains("at most 3"));
    assert!(refused(four, "e5e4").contains("at most 3"));
    assert_eq!(after(four, "e3e4"), "5/6/7/8/1b1bbb3/8/7/6/5 w 0 0 1 1");
    assert_eq!(after(four, "e4e3"), "5/6/7/8/bbb1b4/8/7/6/5 w 0 0 1 1");
}

/// Pushes 2 vs 1, 3 vs 1 and 3 vs 2 move the opponents one step ahead of the group.
#[test]
fn pushes_with_superior_numbers() {
    let two_one = "5/6/7/8/2bbw4/8/7/6/5 b 0 0 0 1";
    assert_eq!(after(two_one, "e3e4"), "5/6/7/8/3bbw3/8/7/6/5 w 0 0 1 1");
    let three_one = "5/6/7/8/1bbbw4/8/7/6/5 b 0 0 0 1";
    assert_eq!(after(three_one, "e2e3"), "5/6/7/8/2bbbw3/8/7/6/5 w 0 0 1 1");
    let three_two = "5/6/7/8/bbbww4/8/7/6/5 b 0 0 0 1";
    let pushed = pos(&after(three_two, "e1e2"));
    assert_eq!(pushed.to_string(), "5/6/7/8/1bbbww3/8/7/6/5 w 0 0 1 1");
    assert_eq!(
        pushed.seat_at(cell("e5")),
        Some(Seat::first_of(Color::White))
    );
    assert_eq!(
        pushed.seat_at(cell("e6")),
        Some(Seat::first_of(Color::White))
    );
    assert_eq!(
        pushed.seat_at(cell("e4")),
        Some(Seat::first_of(Color::Black))
    );
    // White pushing south-west: G5 F4 push E3 to D2; the move number grows after White.
    let white = "5/6/2w4/2w5/2b6/8/7/6/5 w 0 0 0 1";
    assert_eq!(after(white, "g5f4"), "5/6/7/2w5/2w6/1b6/7/6/5 b 0 0 1 2");
}

/// Equal numbers block (1v1, 2v2, 3v3), and so do more opponents than movers.
#[test]
fn equal_numbers_block() {
    let one_one = "5/6/7/8/3bw4/8/7/6/5 b 0 0 0 1";
    assert!(refused(one_one, "e4e5").contains("more marbles"));
    // The lone E4 keeps its 5 other steps.
    assert_eq!(pos(one_one).count_moves(), 5);
    assert!(refused("5/6/7/8/2bbww3/8/7/6/5 b 0 0 0 1", "e3e4").contains("more marbles"));
    assert!(refused("5/6/7/8/1bbbwww2/8/7/6/5 b 0 0 0 1", "e2e3").contains("more marbles"));
    assert!(refused("5/6/7/8/2bbwww2/8/7/6/5 b 0 0 0 1", "e3e4").contains("more marbles"));
}

/// An own marble right behind the opponents blocks the push; one further away does not.
#[test]
fn sandwiched_opponents_block() {
    // b b w b: blocked.
    let sandwich = "5/6/7/8/1bbwb4/8/7/6/5 b 0 0 0 1";
    assert!(refused(sandwich, "e2e3").contains("blocked"));
    // b b w _ b: a push.
    let gap = "5/6/7/8/1bbw1b3/8/7/6/5 b 0 0 0 1";
    assert_eq!(after(gap, "e2e3"), "5/6/7/8/2bbwb3/8/7/6/5 w 0 0 1 1");
    // b b b w w b: blocked; b b b w w _ b: a push.
    assert!(refused("5/6/7/8/bbbwwb3/8/7/6/5 b 0 0 0 1", "e1e2").contains("blocked"));
    assert_eq!(
        after("5/6/7/8/bbbww1b2/8/7/6/5 b 0 0 0 1", "e1e2"),
        "5/6/7/8/1bbbwwb2/8/7/6/5 w 0 0 1 1"
    );
}

/// A push off each of the six edges ejects the last opponent: the ejection is counted for the
/// pusher and the quiet-plies counter restarts.
#[test]
fn ejection_off_every_edge() {
    // (edge, direction, position, move, position after)
    let cases = [
        // East off the diagonal-9 edge: G7 G8 push G9.
        (
            "5/6/4bbw/8/9/8/7/6/5 b 0 0 37 5",
            "g7g8",
            "5/6/5bb/8/9/8/7/6/5 w 1 0 0 5",
        ),
        // North-east off row I: White G6 H7 push Black I8.
        (
            "3b1/3w2/3w3/8/9/8/7/6/5 w 0 0 37 5",
            "g6h7",
            "3w1/3w2/7/8/9/8/7/6/5 b 0 1 0 6",
        ),
        // North-west off the E1-I5 edge: E3 F3 push G3.
        (
            "5/6/w6/1b6/2b6/8/7/6/5 b 0 0 37 5",
            "e3f3",
            "5/6/b6/1b6/9/8/7/6/5 w 1 0 0 5",
        ),
        // West off the diagonal-1 edge: C4 C3 C2 push C1.
        (
            "5/6/7/8/9/8/wbbb3/6/5 b 0 0 37 5",
            "c4c3",
            "5/6/7/8/9/8/bbb4/6/5 w 1 0 0 5",
        ),
        // South-west off row A: C4 B3 push A2.
        (
            "5/6/7/8/9/8/3b3/2b3/1w3 b 0 0 37 5",
            "c4b3",
            "5/6/7/8/9/8/7/2b3/1b3 w 1 0 0 5",
        ),
        // South-east off the A5-E9 edge, 3 vs 2: G7 F7 E7 push D7 C7, C7 goes off.
        (
            "5/6/4b2/5b2/6b2/6w1/6w/6/5 b 0 0 37 5",
            "g7f7",
            "5/6/7/5b2/6b2/6b1/6w/6/5 w 1 0 0 5",
        ),
    ];
    let mut directions = Vec::new();
    for (before, mv, expected) in cases {
        let start = pos(before);
        let mover = start.color_to_move();
        let parsed = start.parse_move(mv).unwrap();
        let Move::Inline { dir, .. } = parsed else {
            panic!("{mv} is not in-line")
        };
        directions.push(dir);
        let mut next = start.clone();
        next.play(parsed).unwrap();
        assert_eq!(next.to_string(), expected, "{mv} in {before}");
        assert_eq!(next.ejected(mover), 1, "{mv}");
        assert_eq!(next.ejected(mover.other()), 0, "{mv}");
        assert_eq!(next.quiet_plies(), 0, "{mv}");
        assert_eq!(
            next.marbles(mover.other()).count_ones() + 1,
            start.marbles(mover.other()).count_ones(),
            "{mv}"
        );
        assert_eq!(next.outcome(), None);
    }
    directions.sort();
    assert_eq!(directions, Direction::ALL.to_vec());
}

/// The sixth ejection wins the game, for either side; nothing more may be played.
#[test]
fn six_ejections_win() {
    let black = pos("5/6/4bbw/8/9/8/7/6/5 b 5 0 37 20");
    assert_eq!(black.outcome(), None);
    let mut won = black.clone();
    won.play(black.parse_move("g7g8").unwrap()).unwrap();
    assert_eq!(won.to_string(), "5/6/5bb/8/9/8/7/6/5 w 6 0 0 20");
    assert_eq!(won.ejected(Color::Black), 6);
    assert_eq!(won.outcome(), Some(Outcome::Win(Side::First)));
    assert_eq!(won.winner(), Some(Color::Black));
    assert_eq!(won.count_moves(), 0);
    let mut moves = vec![Move::Pass];
    won.legal_moves(&mut moves);
    assert!(moves.is_empty());
    assert!(won.parse_move("g8g7").is_err());
    assert!(won.parse_move("pass").is_err());

    let mut white = pos("3b1/3w2/3w3/8/9/8/7/6/5 w 0 5 37 20");
    white.play(white.parse_move("g6h7").unwrap()).unwrap();
    assert_eq!(white.to_string(), "3w1/3w2/7/8/9/8/7/6/5 b 0 6 0 21");
    assert_eq!(white.outcome(), Some(Outcome::Win(Side::Second)));
}

/// No marble may move itself off the board, alone or in a group.
#[test]
fn no_self_ejection() {
    let corner = "5/6/7/8/9/8/7/6/b4 b 0 0 0 1"; // Black A1 alone
    assert_eq!(moves_of(corner), ["a1a2", "a1b1", "a1b2"]);
    assert_eq!(pos(corner).count_moves(), 3);
    for dir in [Direction::West, Direction::SouthWest, Direction::SouthEast] {
        let mv = Move::Inline {
            trailing: cell("a1"),
            dir,
        };
        let reason = pos(corner).why_illegal(mv).expect("off the board");
        assert!(reason.contains("off the board"), "{reason}");
    }
    // A1 A2: A2 westwards would push A1 off; broadsides towards row 0 leave the board.
    let pair = "5/6/7/8/9/8/7/6/bb3 b 0 0 0 1";
    assert_eq!(
        moves_of(pair),
        [
            "a1a2", "a1a2b1", "a1a2b2", "a1b1", "a1b2", "a2a3", "a2b2", "a2b3"
        ]
    );
    assert_eq!(pos(pair).count_moves(), 8);
    let west = Move::Inline {
        trailing: cell("a2"),
        dir: Direction::West,
    };
    assert!(pos(pair).why_illegal(west).is_some());
    let south = Move::Broadside(Broadside {
        first: cell("a1"),
        axis: Direction::East,
        len: 2,
        dir: Direction::SouthEast,
    });
    assert!(pos(pair).why_illegal(south).is_some());
}

/// A single step counts once; a line of three has 6 in-line, 12 single and 12 broadside moves.
#[test]
fn move_counts_by_hand() {
    let centre = "5/6/7/8/4b4/8/7/6/5 b 0 0 0 1";
    assert_eq!(
        moves_of(centre),
        ["e5d4", "e5d5", "e5e4", "e5e6", "e5f5", "e5f6"]
    );
    let line = "5/6/7/8/3bbb3/8/7/6/5 b 0 0 0 1"; // E4 E5 E6
    assert_eq!(pos(line).count_moves(), 30);
    assert_eq!(moves_of(line).len(), 30);
}

/// Broadsides of 2 and 3 marbles need every destination empty and never push; both end orders
/// read as one move, written with the ends in notation order.
#[test]
fn broadside_moves() {
    let three = "5/6/7/8/5bbb1/8/7/6/5 b 0 0 0 1"; // E6 E7 E8
    assert_eq!(after(three, "e6e8f6"), "5/6/7/4bbb1/9/8/7/6/5 w 0 0 1 1");
    let forward = pos(three).parse_move("e6e8f6").unwrap();
    let backward = pos(three).parse_move("e8e6f8").unwrap();
    assert_eq!(forward, backward);
    assert_eq!(pos(three).parse_move("E8E6F8").unwrap(), forward);
    assert_eq!(backward.to_string(), "e6e8f6");
    assert_eq!(
        forward,
        Move::Broadside(Broadside {
            first: cell("e6"),
            axis: Direction::East,
            len: 3,
            dir: Direction::NorthWest
        })
    );
    assert_eq!(after(three, "e8e6d8"), "5/6/7/8/9/5bbb/7/6/5 w 0 0 1 1");

    let two = "5/6/7/8/9/1bb5/7/6/5 b 0 0 0 1"; // D2 D3
    assert_eq!(after(two, "d2d3e3"), "5/6/7/8/2bb5/8/7/6/5 w 0 0 1 1");
    let reversed = pos(two).parse_move("d3d2e4").unwrap();
    assert_eq!(reversed.to_string(), "d2d3e3");
    assert_eq!(
        notation::parse_move("d4d2e4").unwrap().to_string(),
        "d2d4e2"
    );

    // An opponent or an own marble on one destination blocks the whole broadside.
    let opponent = "5/6/7/5w2/5bbb1/8/7/6/5 b 0 0 0 1"; // White F7
    assert!(refused(opponent, "e6e8f6").contains("f7"));
    let own = "5/6/7/6b1/5bbb1/8/7/6/5 b 0 0 0 1"; // Black F8
    assert!(refused(own, "e6e8f6").contains("f8"));
    // A hole in the line, and a broadside along its own line.
    assert!(refused("5/6/7/8/5b1b1/8/7/6/5 b 0 0 0 1", "e6e8f6").contains("e7"));
    assert!(matches!(
        notation::parse_move("e6e8e7"),
        Err(Error::MoveText { .. })
    ));
}

/// The no-ejection counter draws at 100 quiet plies by default; `draw=N` and `draw=none`
/// change it, an ejection restarts it, `maxplies=N` caps the game.
#[test]
fn draw_counter_and_ply_cap() {
    let quiet = "5/6/7/8/3b5/8/7/6/5 b 0 0 99 1"; // Black E4
    assert_eq!(pos(quiet).outcome(), None);
    let drawn = pos(&after(quiet, "e4e5"));
    assert_eq!(drawn.to_string(), "5/6/7/8/4b4/8/7/6/5 w 0 0 100 1");
    assert_eq!(drawn.outcome(), Some(Outcome::Draw));
    assert_eq!(drawn.count_moves(), 0);

    let never = pos(&after(&format!("{quiet} draw=none"), "e4e5"));
    assert_eq!(
        never.to_string(),
        "5/6/7/8/4b4/8/7/6/5 w 0 0 100 1 draw=none"
    );
    assert_eq!(never.outcome(), None);
    let later = pos(&after(&format!("{quiet} draw=120"), "e4e5"));
    assert_eq!(later.outcome(), None);
    assert_eq!(
        later.to_string(),
        "5/6/7/8/4b4/8/7/6/5 w 0 0 100 1 draw=120"
    );
    let sooner = pos(&after("5/6/7/8/3b5/8/7/6/5 b 0 0 4 1 draw=5", "e4e5"));
    assert_eq!(sooner.outcome(), Some(Outcome::Draw));
    assert_eq!(pos(&format!("{quiet} draw=100")), pos(quiet));

    // An ejection on the 100th ply restarts the counter instead.
    let eject = pos(&after("5/6/4bbw/8/9/8/7/6/5 b 0 0 99 1", "g7g8"));
    assert_eq!(eject.quiet_plies(), 0);
    assert_eq!(eject.outcome(), None);

    // Move 10, Black to move is ply 18; the cap of 20 draws after White's move 10.
    let capped = "5/6/7/8/3b5/8/7/6/4w b 0 0 0 10 maxplies=20";
    let one = pos(&after(capped, "e4e5"));
    assert_eq!(one.outcome(), None);
    let two = pos(&after(capped, "e4e5 a5a4"));
    assert_eq!(
        two.to_string(),
        "5/6/7/8/4b4/8/7/6/3w1 b 0 0 2 11 maxplies=20"
    );
    assert_eq!(two.outcome(), Some(Outcome::Draw));
    let at_cap = pos("5/6/7/8/3b5/8/7/6/4w b 0 0 0 10 maxplies=18");
    assert_eq!(at_cap.outcome(), Some(Outcome::Draw));
}

/// A two-player side with no legal move has exactly one move, `pass`.
#[test]
fn two_player_pass() {
    // White A1 boxed in by Black A2 B1 B2: every step is 1 vs 1 or off the board.
    let boxed = "5/6/7/8/9/8/7/bb4/wb3 w 0 0 0 1";
    let mut moves = Vec::new();
    pos(boxed).legal_moves(&mut moves);
    assert_eq!(moves, [Move::Pass]);
    assert_eq!(pos(boxed).count_moves(), 1);
    assert_eq!(pos(boxed).parse_move("pass").unwrap(), Move::Pass);
    assert_eq!(Move::Pass.to_string(), "pass");
    assert_eq!(after(boxed, "pass"), "5/6/7/8/9/8/7/bb4/wb3 b 0 0 1 2");
    // Black, with moves, may not pass.
    assert!(refused("5/6/7/8/9/8/7/bb4/wb3 b 0 0 1 2", "pass").contains("pass"));
}

/// Doubles: a seat's move that brings its marble next to the partner's daisy makes the junction.
#[test]
fn doubles_junction_by_own_move() {
    let apart = "4x/6/7/8/3b1d3/8/7/6/w4 0 - - 0 0 0 1"; // b E4, d E6
    assert!(!pos(apart).junction(Color::Black));
    let joined = pos(&after(apart, "e4e5"));
    assert_eq!(joined.to_string(), "4x/6/7/8/4bd3/8/7/6/w4 1 b - 0 0 1 1");
    assert!(joined.junction(Color::Black));
    assert!(!joined.junction(Color::White));
}

/// Doubles: an opponent's push that brings two daisies of a colour together makes its junction.
#[test]
fn doubles_junction_by_opponent_push() {
    // Seat 1's w E2 E3 push seat 0's b E4 to E5, next to seat 2's d E6.
    let before = "5/6/7/8/1wwb1d3/8/7/6/5 1 - - 0 0 0 1";
    let pushed = pos(&after(before, "e2e3"));
    assert_eq!(pushed.to_string(), "5/6/7/8/2wwbd3/8/7/6/5 2 b - 0 0 1 2");
    assert!(pushed.junction(Color::Black));
    assert!(!pushed.junction(Color::White));
}

/// Doubles: a seat with no legal move passes, and the turn goes to the next seat in the order.
#[test]
fn doubles_seat_without_moves_passes() {
    // Seat 1's w A1 is boxed in; seat 3's x I9 is not seat 1's to move before the junction.
    let boxed = "4x/6/7/8/9/8/7/bb4/wb3 1 - - 0 0 0 1";
    assert_eq!(moves_of(boxed), ["pass"]);
    assert_eq!(pos(boxed).count_moves(), 1);
    assert_eq!(after(boxed, "pass"), "4x/6/7/8/9/8/7/bb4/wb3 2 - - 0 0 1 2");
    assert_eq!(
        after(&format!("{boxed} order=0321"), "pass"),
        "4x/6/7/8/9/8/7/bb4/wb3 0 - - 0 0 1 2 order=0321"
    );
    // After White's junction the x on I9 may move: its three steps, and no pass.
    let joined = "4x/6/7/8/9/8/7/bb4/wb3 1 - w 0 0 0 1";
    assert_eq!(moves_of(joined), ["i9h8", "i9h9", "i9i8"]);
}

/// Doubles: the partner's marbles are refused before the colour's junction, allowed after it.
#[test]
fn doubles_partner_marbles_need_the_junction() {
    let before = "5/6/7/8/4d4/8/7/6/b4 0 - - 0 0 0 1"; // b A1, d E5
    assert!(refused(before, "e5e6").contains("partner"));
    assert_eq!(moves_of(before), ["a1a2", "a1b1", "a1b2"]);
    let made = "5/6/7/8/4d4/8/7/6/b4 0 b - 0 0 0 1";
    assert_eq!(pos(made).count_moves(), 9);
    assert_eq!(after(made, "e5e6"), "5/6/7/8/5d3/8/7/6/b4 1 b - 0 0 1 1");
}

/// Doubles: the seat order of the rules (0123 or 0321); the move number grows after White seats.
#[test]
fn doubles_seat_order_and_move_number() {
    // b A1, d A5, w I9, x I5.
    let text = "x3w/6/7/8/9/8/7/6/b3d 0 - - 0 0 0 1";
    let play = |text: &str, moves: &[&str]| -> Vec<(usize, u16)> {
        let mut position = pos(text);
        let mut seen = Vec::new();
        for mv in moves {
            position.play(position.parse_move(mv).unwrap()).unwrap();
            seen.push((position.seat().index(), position.move_number()));
        }
        seen
    };
    assert_eq!(
        play(text, &["a1b1", "i9h9", "a5b6", "i5h4"]),
        [(1, 1), (2, 2), (3, 2), (0, 3)]
    );
    assert_eq!(
        after(text, "a1b1 i9h9 a5b6 i5h4"),
        "5/x4w/7/8/9/8/7/b4d/5 0 - - 0 0 4 3"
    );
    let counter = format!("{text} order=0321");
    assert_eq!(
        play(&counter, &["a1b1", "i5h4", "a5b6", "i9h9"]),
        [(3, 1), (2, 2), (1, 2), (0, 3)]
    );
    assert_eq!(
        after(&counter, "a1b1 i5h4 a5b6 i9h9"),
        "5/x4w/7/8/9/8/7/b4d/5 0 - - 0 0 4 3 order=0321"
    );
    // The variants: after seat 0's c3d4 from the doubles start, seat 1 or seat 3 moves.
    let start = "doubles".parse::<Variant>().unwrap().start();
    assert_eq!(
        start.to_string(),
        "ww1dd/wwwddd/1ww1dd1/8/9/8/1bb1xx1/bbbxxx/bb1xx 0 - - 0 0 0 1"
    );
    assert_eq!(
        after(&start.to_string(), "c3d4"),
        "ww1dd/wwwddd/1ww1dd1/8/9/3b4/1b2xx1/bbbxxx/bb1xx 1 - - 0 0 1 1"
    );
    let start = "doubles-0321".parse::<Variant>().unwrap().start();
    assert_eq!(
        after(&start.to_string(), "c3d4"),
        "ww1dd/wwwddd/1ww1dd1/8/9/3b4/1b2xx1/bbbxxx/bb1xx 3 - - 0 0 1 1 order=0321"
    );
}

/// Doubles: a marble's seat label travels with it when it moves or is pushed.
#[test]
fn doubles_labels_travel_with_marbles() {
    // Seat 0 moves d E3 and b E4 (junction made) and pushes x E5.
    let mixed = "5/6/7/8/2dbx4/8/7/6/5 0 b - 0 0 0 1";
    let pushed = pos(&after(mixed, "e3e4"));
    assert_eq!(pushed.to_string(), "5/6/7/8/3dbx3/8/7/6/5 1 b - 0 0 1 1");
    assert_eq!(pushed.seat_at(cell("e4")), Seat::new(2));
    assert_eq!(pushed.seat_at(cell("e5")), Seat::new(0));
    assert_eq!(pushed.seat_at(cell("e6")), Seat::new(3));
    // Seat 3's x E1 E2 E3 push d E4 and b E5, 3 vs 2.
    assert_eq!(
        after("5/6/7/8/xxxdb4/8/7/6/5 3 b - 0 0 0 1", "e1e2"),
        "5/6/7/8/1xxxdb3/8/7/6/5 0 b - 0 0 1 2"
    );
}

/// The spec's example: from the Belgian daisy the opening is legal, and move 3 is a 3 vs 2 push.
#[test]
fn belgian_daisy_opening() {
    let start = Variant::BelgianDaisy.start();
    let line = "1.a1b2 i5h5 2.a2b3 i6h6 3.c2c3 g4g5";
    let record = parse_game(line, &start).unwrap();
    assert_eq!(record.moves.len(), 6);
    // After Black's 3.c2c3: C2 C3 C4 pushed C5 C6 to C3 C4 C5 / C6 C7.
    let mut third = start.clone();
    for &mv in &record.moves[..5] {
        third.play(mv).unwrap();
    }
    let black = Some(Seat::first_of(Color::Black));
    let white = Some(Seat::first_of(Color::White));
    let row_c: Vec<Option<Seat>> = (1..=7)
        .map(|d| third.seat_at(cell(&format!("c{d}"))))
        .collect();
    assert_eq!(row_c, [None, None, black, black, black, white, white]);
    let end = record.final_position();
    assert_eq!(
        end.to_string(),
        "3bb/wwwbbb/2wwwbb/3w4/9/3b4/2bbbww/bbbwww/3ww b 0 0 6 4"
    );
    let row_g: Vec<Option<Seat>> = (3..=9)
        .map(|d| end.seat_at(cell(&format!("g{d}"))))
        .collect();
    assert_eq!(row_g, [None, None, white, white, white, black, black]);
}

/// The same opening is illegal from the standard start: the error names the c2c3 token.
#[test]
fn belgian_opening_fails_from_standard() {
    let start = Variant::Standard.start();
    let one_line = parse_game("1.a1b2 i5h5 2.a2b3 i6h6 3.c2c3 g4g5", &start);
    match one_line {
        Err(Error::Game {
            line: 1,
            column: 25,
            reason,
        }) => assert!(reason.contains("c2c3"), "{reason}"),
        other => panic!("{other:?}"),
    }
    let lines = parse_game("1.a1b2 i5h5\n2.a2b3 i6h6\n3. c2c3 g4g5\n", &start);
    match lines {
        Err(Error::Game {
            line: 3,
            column: 4,
            reason,
        }) => assert!(reason.contains("c2"), "{reason}"),
        other => panic!("{other:?}"),
    }
}

/// The spec's reverse line: playing back with White to move differs from the daisy start on
/// exactly C5, C7, G7 and G9 (the notation is not reversible).
#[test]
fn reverse_line_is_not_reversible() {
    let end = pos("3bb/wwwbbb/2wwwbb/3w4/9/3b4/2bbbww/bbbwww/3ww w 0 0 6 4");
    let record = parse_game("4... g7g6 5.c5c4 g6h6 6.c4b3 f5g5 7.d4c3", &end).unwrap();
    let back = record.final_position();
    assert_eq!(
        back.to_string(),
        "ww1bb/wwwbbb/1ww2bb/8/9/8/1bb2ww/bbbwww/bb1ww w 0 0 12 7"
    );
    let plain = parse_game("g7g6 c5c4 g6h6 c4b3 f5g5 d4c3", &end).unwrap();
    assert_eq!(plain.moves, record.moves);
    let daisy = Variant::BelgianDaisy.start();
    let differ: Vec<String> = Cell::all()
        .filter(|&c| back.seat_at(c) != daisy.seat_at(c))
        .map(|c| c.to_string())
        .collect();
    assert_eq!(differ, ["c5", "c7", "g7", "g9"]);
    assert_eq!(back.pieces().count(), 28);
    assert_eq!(daisy.pieces().count(), 28);
}
