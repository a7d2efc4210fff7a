//! The text drawing of a state.

use pjlab_chifoumi::{Cell, Game, Object, Rules};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

#[test]
fn drawing_shows_the_grid_bags_and_players() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let game = Game::new(&Rules::default(), &mut rng).unwrap();
    let text = game.to_string();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2 + 20);
    assert!(lines[1].starts_with("bag 1: F0 P0 C0"));
    let grid = &lines[2..];
    for (r, line) in grid.iter().enumerate() {
        for (c, ch) in line.chars().enumerate() {
            let cell = Cell::new(r as u8, c as u8);
            let expected = if cell == game.position(0) {
                '1'
            } else if cell == game.position(1) {
                '2'
            } else {
                game.object_at(cell).map_or('.', Object::letter)
            };
            assert_eq!(ch, expected, "{cell}");
        }
    }
    let count = |ch| {
        grid.iter()
            .flat_map(|l| l.chars())
            .filter(|&c| c == ch)
            .count()
    };
    assert_eq!((count('F'), count('P'), count('C')), (10, 10, 10));
}
