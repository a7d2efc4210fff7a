//! Setup variants: the classic setup and the random families of the random-setup study.
//!
//! Every random choice comes from `ChaCha8Rng::seed_from_u64(seed)`, so a `(variant, seed)` pair
//! names one setup forever. The four small variants can also be enumerated in a fixed order;
//! drawing one of them picks a uniform index into that enumeration.
//!
//! ```
//! use pjlab_pijersi::Variant;
//! let v: Variant = "pijersi-24".parse()?;
//! assert_eq!(v.enumerate()?.len(), 24);
//! assert_eq!(v.setup(7), v.setup(7));
//! # Ok::<(), pjlab_pijersi::Error>(())
//! ```

use std::fmt;
use std::str::FromStr;

use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::Error;
use crate::piece::{Color, Piece, Role};
use crate::position::{Position, Rules, Setup};

/// A family of starting setups.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Variant {
    /// The rulebook's setup.
    Classic,
    /// White's and Black's 14 cubes shuffled independently.
    FullRandom,
    /// White's 14 cubes shuffled, Black placed by central symmetry.
    HalfRandom,
    /// Row a as two orders XYZ, X'Y'Z' of R,P,S with X' != X; row b by triangle completion.
    Pijersi24,
    /// As pijersi-24 with X' = X allowed (classic is one of the 36).
    Pijersi36,
    /// Four independent orders of R,P,S on a1..a3, a4..a6, b1..b3, b5..b7.
    Pijersi1296,
    /// Each wing (a1..a3 + b1..b3, a4..a6 + b5..b7) an arrangement of R,R,P,P,S,S.
    Pijersi8100,
}

/// White's setup cells other than b4, in filling order: a1..a6, b1, b2, b3, b5, b6, b7.
const WHITE_CELLS: [usize; 12] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12];
/// b4, where White's starting stack stands.
const WHITE_STACK: usize = 9;

/// The six orders of R,P,S, in lexicographic order of role index.
const ORDERS: [[Role; 3]; 6] = {
    use Role::{Paper as P, Rock as R, Scissors as S};
    [
        [R, P, S],
        [R, S, P],
        [P, R, S],
        [P, S, R],
        [S, R, P],
        [S, P, R],
    ]
};

/// White's side of a setup: the 12 single cubes in [`WHITE_CELLS`] order and the b4 stack.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Side {
    cubes: [Role; 12],
    top: Role,
    bottom: Role,
}

impl Side {
    fn with_wise_stack(cubes: [Role; 12]) -> Side {
        Side {
            cubes,
            top: Role::Wise,
            bottom: Role::Wise,
        }
    }

    /// Row a as `left ++ right` (two orders XYZ), row b by triangle completion.
    fn triangles(left: [Role; 3], right: [Role; 3]) -> Side {
        let [x, y, z] = left;
        let [x2, y2, z2] = right;
        Side::with_wise_stack([x, y, z, x2, y2, z2, y, z, x, z2, x2, y2])
    }

    /// 14 cubes in drawing order: the first two form the stack (a wise goes to the bottom),
    /// the other twelve fill [`WHITE_CELLS`].
    fn drawn(cubes: [Role; 14]) -> Side {
        let (mut bottom, mut top) = (cubes[0], cubes[1]);
        if top == Role::Wise && bottom != Role::Wise {
            std::mem::swap(&mut bottom, &mut top);
        }
        let mut rest = [Role::Rock; 12];
        rest.copy_from_slice(&cubes[2..]);
        Side {
            cubes: rest,
            top,
            bottom,
        }
    }

    fn random(rng: &mut ChaCha8Rng) -> Side {
        use Role::{Paper as P, Rock as R, Scissors as S, Wise as W};
        let mut cubes = [R, R, R, R, P, P, P, P, S, S, S, S, W, W];
        cubes.shuffle(rng);
        Side::drawn(cubes)
    }

    /// Places this side for `color`: White on its own cells, Black on their central images.
    fn place(&self, setup: &mut Setup, color: Color) {
        let cell = |i: usize| match color {
            Color::White => i,
            Color::Black => 44 - i,
        };
        for (k, &role) in self.cubes.iter().enumerate() {
            setup.board[cell(WHITE_CELLS[k])] = Some(Piece::cube(color, role));
        }
        setup.board[cell(WHITE_STACK)] = Some(Piece::stack(color, self.top, self.bottom));
    }
}

fn position(white: &Side, black: &Side) -> Position {
    let mut setup = Setup::empty();
    white.place(&mut setup, Color::White);
    black.place(&mut setup, Color::Black);
    Position::from_setup(&setup, Rules::EndOfTurn).expect("setups hold 14 legal cubes a side")
}

/// The classic start: `s-p-r-s-p-r-/p-r-s-wwr-s-p-/6/7/6/P-S-R-WWS-R-P-/R-P-S-R-P-S- w 0 1`.
pub fn classic() -> Position {
    let side = Side::triangles(ORDERS[0], ORDERS[0]);
    position(&side, &side)
}

/// The 90 arrangements of R,R,P,P,S,S in lexicographic order.
fn wing_arrangements() -> Vec<[Role; 6]> {
    let mut out = Vec::with_capacity(90);
    let mut current = [Role::Rock; 6];
    fn go(k: usize, counts: &mut [u8; 3], current: &mut [Role; 6], out: &mut Vec<[Role; 6]>) {
        if k == 6 {
            out.push(*current);
            return;
        }
        for (r, role) in Role::FIGHTERS.into_iter().enumerate() {
            if counts[r] > 0 {
                counts[r] -= 1;
                current[k] = role;
                go(k + 1, counts, current, out);
                counts[r] += 1;
            }
        }
    }
    go(0, &mut [2, 2, 2], &mut current, &mut out);
    out
}

impl Variant {
    /// Every variant, in the order of the docs.
    pub const ALL: [Variant; 7] = [
        Variant::Classic,
        Variant::FullRandom,
        Variant::HalfRandom,
        Variant::Pijersi24,
        Variant::Pijersi36,
        Variant::Pijersi1296,
        Variant::Pijersi8100,
    ];

    /// The variant's name as the command line spells it.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Classic => "classic",
            Variant::FullRandom => "full-random",
            Variant::HalfRandom => "half-random",
            Variant::Pijersi24 => "pijersi-24",
            Variant::Pijersi36 => "pijersi-36",
            Variant::Pijersi1296 => "pijersi-1296",
            Variant::Pijersi8100 => "pijersi-8100",
        }
    }

    /// Number of distinct setups of an enumerable variant (raw, not divided by the 6 renamings
    /// of R, P, S); `None` for the random-shuffle variants.
    pub const fn count(self) -> Option<usize> {
        match self {
            Variant::Classic => Some(1),
            Variant::Pijersi24 => Some(24),
            Variant::Pijersi36 => Some(36),
            Variant::Pijersi1296 => Some(1296),
            Variant::Pijersi8100 => Some(8100),
            Variant::FullRandom | Variant::HalfRandom => None,
        }
    }

    /// Whether Black's setup is White's by central symmetry.
    pub const fn is_symmetric(self) -> bool {
        !matches!(self, Variant::FullRandom)
    }

    /// The setup named by `seed`.
    pub fn setup(self, seed: u64) -> Position {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        match self.count() {
            Some(n) => self.nth(rng.random_range(0..n)).expect("index below count"),
            None => {
                let white = Side::random(&mut rng);
                let black = if self == Variant::FullRandom {
                    Side::random(&mut rng)
                } else {
                    white
                };
                position(&white, &black)
            }
        }
    }

    /// The `index`-th setup of an enumerable variant.
    ///
    /// # Errors
    /// [`Error::Variant`] for a random-shuffle variant or an index past the end.
    pub fn nth(self, index: usize) -> Result<Position, Error> {
        let count = self.count().ok_or_else(|| {
            Error::Variant(format!("{} setups cannot be enumerated", self.name()))
        })?;
        if index >= count {
            return Err(Error::Variant(format!(
                "{} has {count} setups, index {index} is past the end",
                self.name()
            )));
        }
        let side = match self {
            Variant::Classic => Side::triangles(ORDERS[0], ORDERS[0]),
            Variant::Pijersi36 => Side::triangles(ORDERS[index / 6], ORDERS[index % 6]),
            Variant::Pijersi24 => {
                let left = ORDERS[index / 4];
                let right = ORDERS.iter().filter(|o| o[0] != left[0]).nth(index % 4);
                Side::triangles(left, *right.expect("4 orders start with another role"))
            }
            Variant::Pijersi1296 => {
                let o = |k: u32| ORDERS[index / 6usize.pow(k) % 6];
                let (a, b, c, d) = (o(3), o(2), o(1), o(0));
                Side::with_wise_stack([
                    a[0], a[1], a[2], b[0], b[1], b[2], c[0], c[1], c[2], d[0], d[1], d[2],
                ])
            }
            Variant::Pijersi8100 => {
                let wings = wing_arrangements();
                let (l, r) = (wings[index / 90], wings[index % 90]);
                Side::with_wise_stack([
                    l[0], l[1], l[2], r[0], r[1], r[2], l[3], l[4], l[5], r[3], r[4], r[5],
                ])
            }
            Variant::FullRandom | Variant::HalfRandom => unreachable!("count() is None"),
        };
        Ok(position(&side, &side))
    }

    /// Every setup of an enumerable variant, in index order.
    ///
    /// # Errors
    /// [`Error::Variant`] for a random-shuffle variant.
    pub fn enumerate(self) -> Result<Vec<Position>, Error> {
        let count = self.count().ok_or_else(|| {
            Error::Variant(format!("{} setups cannot be enumerated", self.name()))
        })?;
        (0..count).map(|i| self.nth(i)).collect()
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Variant {
    type Err = Error;

    fn from_str(name: &str) -> Result<Variant, Error> {
        Variant::ALL
            .into_iter()
            .find(|v| v.name() == name)
            .ok_or_else(|| Error::UnknownVariant(name.to_string()))
    }
}

/// White's rows (a and b) of a setup, e.g. `RPS RPS / PSR WW SRP`.
pub fn layout(start: &Position) -> String {
    let board = start.board_psn();
    let rows: Vec<&str> = board.split('/').collect();
    let cells = |row: &str| -> Vec<String> {
        let chars: Vec<char> = row.chars().collect();
        let mut out = Vec::new();
        let mut i = 0;
        while i < chars.len() {
            if let Some(d) = chars[i].to_digit(10) {
                out.extend((0..d).map(|_| ".".to_string()));
                i += 1;
            } else {
                let pair: String = chars[i..(i + 2).min(chars.len())].iter().collect();
                out.push(pair.trim_end_matches('-').to_string());
                i += 2;
            }
        }
        out
    };
    let (Some(b), Some(a)) = (rows.get(rows.len().wrapping_sub(2)), rows.last()) else {
        return board;
    };
    let (a, b) = (cells(a), cells(b));
    if a.len() != 6 || b.len() != 7 {
        return board;
    }
    format!(
        "{} {} / {} {} {}",
        a[..3].concat(),
        a[3..].concat(),
        b[..3].concat(),
        b[3],
        b[4..].concat()
    )
}

/// The class of a layout under renamings of R, P, S: its smallest image under the permutations
/// given (`all`: the 6 renamings the rule seed divides by; otherwise the 3 cyclic ones, the only
/// renamings that keep who captures whom).
pub fn renaming_class(layout: &str, all: bool) -> String {
    const CYCLIC: [[char; 3]; 3] = [['R', 'P', 'S'], ['P', 'S', 'R'], ['S', 'R', 'P']];
    const SWAPS: [[char; 3]; 3] = [['P', 'R', 'S'], ['S', 'P', 'R'], ['R', 'S', 'P']];
    let images = CYCLIC.iter().chain(if all { &SWAPS[..] } else { &[] });
    images
        .map(|to| {
            layout
                .chars()
                .map(|c| match c {
                    'R' => to[0],
                    'P' => to[1],
                    'S' => to[2],
                    other => other,
                })
                .collect::<String>()
        })
        .min()
        .unwrap_or_default()
}

/// A layout (`abc def / ghi WW jkl`, White's rows a / b) turned left to right: `fed cba / lkj
/// WW ihg`. `None` for a layout not of that shape.
pub fn mirrored_layout(layout: &str) -> Option<String> {
    let (a, b) = layout.split_once(" / ")?;
    let a: Vec<&str> = a.split(' ').collect();
    let b: Vec<&str> = b.split(' ').collect();
    let single = |part: &&str| part.len() == 3;
    if a.len() != 2 || b.len() != 3 || !a.iter().all(single) || !single(&b[0]) || !single(&b[2]) {
        return None;
    }
    let rev = |part: &str| part.chars().rev().collect::<String>();
    Some(format!(
        "{} {} / {} {} {}",
        rev(a[1]),
        rev(a[0]),
        rev(b[2]),
        b[1],
        rev(b[0])
    ))
}

/// The class of setups that are the same game as `layout`: its smallest image under the 3
/// cyclic renamings of R, P, S and the left-right mirror of the board, the symmetries of the
/// rules that keep a setup a setup (`tests/symmetry.rs`). A swap of two roles reverses who
/// captures whom, so it is not among them. A layout [`mirrored_layout`] cannot turn (a stack
/// outside b4) gets its class under the cyclic renamings alone.
pub fn game_class(layout: &str) -> String {
    let cyclic = renaming_class(layout, false);
    match mirrored_layout(layout) {
        Some(mirror) => cyclic.min(renaming_class(&mirror, false)),
        None => cyclic,
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;
    use crate::geometry::Cell;

    #[test]
    fn classic_matches_the_spec() {
        assert_eq!(
            classic().to_string(),
            "s-p-r-s-p-r-/p-r-s-wwr-s-p-/6/7/6/P-S-R-WWS-R-P-/R-P-S-R-P-S- w 0 1"
        );
    }

    #[test]
    fn wing_arrangements_are_the_90_distinct_ones() {
        let wings = wing_arrangements();
        assert_eq!(wings.len(), 90);
        assert_eq!(wings.iter().collect::<HashSet<_>>().len(), 90);
        for w in &wings {
            for role in Role::FIGHTERS {
                assert_eq!(w.iter().filter(|&&r| r == role).count(), 2);
            }
        }
    }

    #[test]
    fn drawn_stack_puts_a_wise_at_the_bottom() {
        use Role::{Rock as R, Wise as W};
        let mut cubes = [R; 14];
        cubes[1] = W;
        let side = Side::drawn(cubes);
        assert_eq!((side.top, side.bottom), (R, W));
    }

    #[test]
    fn cells_of_the_setup_rows() {
        for (k, &i) in WHITE_CELLS.iter().enumerate() {
            let cell = Cell::new(i).unwrap();
            assert_eq!(cell.row(), if k < 6 { 0 } else { 1 });
        }
        assert_eq!(Cell::new(WHITE_STACK).unwrap().to_string(), "b4");
    }

    #[test]
    fn layouts_and_renaming_classes() {
        let classic = Variant::Classic.setup(0);
        assert_eq!(layout(&classic), "RPS RPS / PSR WW SRP");
        // The cyclic images of a layout share its class; a transposition only under all six.
        let l = "RPS SRP / PSR WW PRS";
        let rotated = "PSR RPS / SRP WW SPR";
        let swapped: String = l
            .chars()
            .map(|c| match c {
                'R' => 'P',
                'P' => 'R',
                other => other,
            })
            .collect();
        assert_eq!(renaming_class(l, false), renaming_class(rotated, false));
        assert_ne!(renaming_class(l, false), renaming_class(&swapped, false));
        assert_eq!(renaming_class(l, true), renaming_class(&swapped, true));
        // pijersi-24 has 24 setups: 8 classes under the cyclic renamings, 4 under all six.
        let setups = Variant::Pijersi24.enumerate().unwrap();
        for (all, classes) in [(false, 8), (true, 4)] {
            let found: std::collections::HashSet<String> = setups
                .iter()
                .map(|s| renaming_class(&layout(s), all))
                .collect();
            assert_eq!(found.len(), classes);
        }
    }

    #[test]
    fn a_mirrored_layout_is_the_mirrored_setups_layout() {
        for s in Variant::Pijersi36.enumerate().unwrap() {
            assert_eq!(mirrored_layout(&layout(&s)), Some(layout(&s.mirrored())));
        }
        // Half-random setups: any stack on b4, wise cubes anywhere.
        let stacks: HashSet<String> = (0..50)
            .map(|seed| {
                let s = Variant::HalfRandom.setup(seed);
                let l = layout(&s);
                assert_eq!(mirrored_layout(&l), Some(layout(&s.mirrored())), "{l}");
                l.split(' ').nth(4).unwrap().to_string()
            })
            .collect();
        assert!(stacks.len() > 1, "only the stacks {stacks:?}");
        // A layout of another shape is not turned, and its class is the cyclic renamings'.
        for odd in ["RPS / PSR", "RPSR PS / PSR WW SRP", ""] {
            assert_eq!(mirrored_layout(odd), None);
            assert_eq!(game_class(odd), renaming_class(odd, false));
        }
    }
}
