//! Setup variants: counts, membership, reproducibility and symmetry.

use std::collections::HashSet;

use pjlab_pijersi::{Cell, Color, Piece, Position, Role, Variant};

fn board(position: &Position) -> String {
    position.board_psn()
}

#[test]
fn enumerations_have_the_spec_counts_and_are_distinct() {
    for (variant, count) in [
        (Variant::Classic, 1),
        (Variant::Pijersi24, 24),
        (Variant::Pijersi36, 36),
        (Variant::Pijersi1296, 1296),
        (Variant::Pijersi8100, 8100),
    ] {
        let all = variant.enumerate().unwrap();
        assert_eq!(all.len(), count, "{variant}");
        let distinct: HashSet<String> = all.iter().map(board).collect();
        assert_eq!(distinct.len(), count, "{variant} has repeated setups");
    }
    assert!(Variant::HalfRandom.enumerate().is_err());
    assert!(Variant::FullRandom.nth(0).is_err());
    assert!(Variant::Pijersi24.nth(24).is_err());
}

#[test]
fn classic_is_one_of_the_36_and_none_of_the_24() {
    let classic = board(&Position::default());
    let in36 = Variant::Pijersi36
        .enumerate()
        .unwrap()
        .iter()
        .filter(|p| board(p) == classic)
        .count();
    let in24 = Variant::Pijersi24
        .enumerate()
        .unwrap()
        .iter()
        .filter(|p| board(p) == classic)
        .count();
    assert_eq!((in36, in24), (1, 0));
    // The 24 are exactly the 36 without X' = X (a1 and a4 differ).
    let b24: HashSet<String> = Variant::Pijersi24
        .enumerate()
        .unwrap()
        .iter()
        .map(board)
        .collect();
    let b36: HashSet<String> = Variant::Pijersi36
        .enumerate()
        .unwrap()
        .iter()
        .filter(|p| {
            let a1 = p.piece_at(Cell::parse("a1").unwrap());
            let a4 = p.piece_at(Cell::parse("a4").unwrap());
            a1 != a4
        })
        .map(board)
        .collect();
    assert_eq!(b24, b36);
}

fn role_at(p: &Position, name: &str) -> Role {
    p.piece_at(Cell::parse(name).unwrap()).unwrap().top
}

fn third(a: Role, b: Role) -> Role {
    *Role::FIGHTERS
        .iter()
        .find(|&&r| r != a && r != b)
        .expect("two distinct fighters")
}

#[test]
fn triangle_completion_of_the_24_and_36() {
    for p in Variant::Pijersi36.enumerate().unwrap() {
        assert_eq!(
            role_at(&p, "b2"),
            third(role_at(&p, "a1"), role_at(&p, "a2"))
        );
        assert_eq!(
            role_at(&p, "b3"),
            third(role_at(&p, "a2"), role_at(&p, "a3"))
        );
        assert_eq!(
            role_at(&p, "b5"),
            third(role_at(&p, "a4"), role_at(&p, "a5"))
        );
        assert_eq!(
            role_at(&p, "b6"),
            third(role_at(&p, "a5"), role_at(&p, "a6"))
        );
        // Each wing holds two of each fighter.
        for wing in [
            ["a1", "a2", "a3", "b1", "b2", "b3"],
            ["a4", "a5", "a6", "b5", "b6", "b7"],
        ] {
            for role in Role::FIGHTERS {
                assert_eq!(wing.iter().filter(|c| role_at(&p, c) == role).count(), 2);
            }
        }
    }
}

#[test]
fn every_setup_holds_each_sides_fourteen_cubes() {
    let mut positions: Vec<Position> = Variant::Pijersi8100.enumerate().unwrap();
    positions.extend((0..200).map(|s| Variant::FullRandom.setup(s)));
    positions.extend((0..200).map(|s| Variant::HalfRandom.setup(s)));
    for p in positions {
        for color in [Color::White, Color::Black] {
            let mut counts = [0; 4];
            for cell in Cell::all() {
                let Some(Piece {
                    color: c,
                    top,
                    bottom,
                }) = p.piece_at(cell)
                else {
                    continue;
                };
                if c != color {
                    continue;
                }
                counts[top as usize] += 1;
                if let Some(b) = bottom {
                    counts[b as usize] += 1;
                }
                let home = if color == Color::White {
                    [0, 1]
                } else {
                    [6, 5]
                };
                assert!(
                    home.contains(&cell.row()),
                    "{p}: {cell} outside the home rows"
                );
            }
            assert_eq!(counts, [4, 4, 4, 2], "{p}");
        }
        let stack_cells: Vec<String> = Cell::all()
            .filter(|&c| p.piece_at(c).is_some_and(|x| x.is_stack()))
            .map(|c| c.to_string())
            .collect();
        assert_eq!(stack_cells, ["b4", "f4"], "{p}");
    }
}

#[test]
fn same_seed_same_setup_and_seeds_cover_the_small_variants() {
    for variant in Variant::ALL {
        for seed in [0, 1, 42, u64::MAX] {
            assert_eq!(variant.setup(seed), variant.setup(seed), "{variant} {seed}");
        }
    }
    let half: HashSet<String> = (0..50)
        .map(|s| board(&Variant::HalfRandom.setup(s)))
        .collect();
    assert!(
        half.len() > 45,
        "half-random repeats too often: {} of 50",
        half.len()
    );
    for variant in [Variant::Pijersi24, Variant::Pijersi36] {
        let all: HashSet<String> = variant.enumerate().unwrap().iter().map(board).collect();
        let drawn: HashSet<String> = (0..2000).map(|s| board(&variant.setup(s))).collect();
        assert_eq!(drawn, all, "{variant}: seeds do not reach every setup");
    }
}

#[test]
fn central_symmetry_where_the_spec_says_so() {
    let mirror_ok = |p: &Position| {
        Cell::all().all(|c| {
            let a = p.piece_at(c);
            let b = p.piece_at(c.rotated());
            match (a, b) {
                (None, None) => true,
                (Some(x), Some(y)) => x.color != y.color && x.top == y.top && x.bottom == y.bottom,
                _ => false,
            }
        })
    };
    for variant in Variant::ALL {
        let positions: Vec<Position> = (0..100).map(|s| variant.setup(s)).collect();
        let symmetric = positions.iter().filter(|p| mirror_ok(p)).count();
        if variant.is_symmetric() {
            assert_eq!(symmetric, positions.len(), "{variant}");
        } else {
            assert!(symmetric < 5, "full-random should rarely be symmetric");
        }
    }
}
