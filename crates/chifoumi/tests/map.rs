//! Map files: typed errors with line and column, never a panic; round trips.

use pjlab_chifoumi::{Cell, Error, Map, MapErrorKind, Object, Rules};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn fault(text: &str) -> (usize, usize, MapErrorKind) {
    let e = Map::parse(text).expect_err(text);
    (e.line, e.column, e.kind)
}

#[test]
fn broken_maps_give_line_and_column() {
    assert_eq!(
        fault("....\n..x.\n"),
        (2, 3, MapErrorKind::UnexpectedChar('x'))
    );
    // Comments and blank lines count in the line numbers.
    assert_eq!(
        fault("; title\n\n....\n...\n"),
        (
            4,
            4,
            MapErrorKind::RaggedRow {
                expected: 4,
                found: 3
            }
        )
    );
    assert_eq!(fault(&".".repeat(33)), (1, 1, MapErrorKind::TooLarge));
    assert_eq!(fault(&"..\n".repeat(33)), (33, 1, MapErrorKind::TooLarge));
    assert_eq!(fault("; only a comment\n").2, MapErrorKind::Empty);
    assert_eq!(fault("").2, MapErrorKind::Empty);
    let e = Map::parse("..\n.f\n").unwrap_err();
    assert_eq!(
        e.to_string(),
        "map line 2, column 2: unexpected character 'f'"
    );
    let as_error: Error = e.into();
    assert!(matches!(as_error, Error::Map(_)));
}

#[test]
fn random_text_never_panics() {
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    let alphabet = ['.', '#', 'F', 'P', 'C', '\n', ';', ' ', 'x', '\r', 'é'];
    for _ in 0..5000 {
        let len = rng.random_range(0..80);
        let text: String = (0..len)
            .map(|_| alphabet[rng.random_range(0..alphabet.len())])
            .collect();
        if let Ok(map) = Map::parse(&text) {
            // Whatever parses, the rules either accept or refuse with a typed error.
            let rules = Rules {
                map,
                ..Rules::default()
            };
            let _ = rules.check(2);
        }
    }
}

#[test]
fn parse_reads_walls_and_zones() {
    let map = Map::parse(include_str!("../maps/pillars.txt")).unwrap();
    assert_eq!((map.width(), map.height()), (12, 10));
    assert!(map.is_wall(Cell::new(2, 4)));
    assert!(!map.is_wall(Cell::new(2, 3)));
    assert_eq!(map.zone(Cell::new(0, 0)), Some(Object::Flamme));
    assert_eq!(map.zone(Cell::new(9, 11)), Some(Object::Potion));
    assert_eq!(map.zone(Cell::new(0, 11)), Some(Object::Citrouille));
    assert_eq!(Map::parse(&map.to_text()).unwrap(), map);
    // Without zone letters the spec's zones apply.
    let open = Map::parse(&format!("{}\n", ".".repeat(20)).repeat(20)).unwrap();
    assert_eq!(open, Map::default());
    assert_eq!(
        open.zone(Cell::new(2, 2)),
        Some(Object::Flamme),
        "row 3, column 3 (1-based)"
    );
    assert_eq!(open.zone(Cell::new(1, 2)), None);
    assert_eq!(open.zone(Cell::new(17, 17)), Some(Object::Citrouille));
}
