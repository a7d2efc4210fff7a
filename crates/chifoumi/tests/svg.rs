//! The position picture: every cell drawn once (walls dark), every object's letter, both
//! players' discs.

use pjlab_chifoumi::{Cell, Game, Rules};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

#[test]
fn every_cell_object_and_player_is_drawn() {
    let rules = Rules::default();
    for seed in 0..5u64 {
        let game = Game::new(&rules, &mut ChaCha8Rng::seed_from_u64(seed)).unwrap();
        let svg = pjlab_chifoumi::svg::svg(&game);
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"), "{svg}");
        let cells = (0..game.height())
            .flat_map(|r| (0..game.width()).map(move |c| Cell::new(r as u8, c as u8)));
        let (mut walls, mut objects) = (0, 0);
        for cell in cells {
            walls += usize::from(game.is_wall(cell));
            objects += usize::from(game.object_at(cell).is_some());
        }
        let count = |needle: &str| svg.matches(needle).count();
        assert_eq!(count(r##"fill="#444""##), walls, "seed {seed}");
        assert_eq!(count(r##"stroke="#ddd""##), game.width() * game.height());
        assert_eq!(count(r#"font-weight="bold""#), objects, "seed {seed}");
        assert_eq!(count("<circle"), 2);
        assert_eq!(
            count(r#"stroke-dasharray="4 3""#),
            2,
            "a visibility square each"
        );
    }
}
