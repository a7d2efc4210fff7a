//! The three object types, a player's bag, and the duel: exact odds and a sampled draw.

use std::fmt;
use std::ops::{Add, Mul, Neg, Sub};

use rand::{Rng, RngExt};

/// An object type: the rock, paper and scissors of the game.
///
/// Potion beats Flamme, Flamme beats Citrouille, Citrouille beats Potion.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Object {
    /// Flamme, written `F` (rock).
    Flamme = 0,
    /// Potion, written `P` (paper).
    Potion = 1,
    /// Citrouille, written `C` (scissors).
    Citrouille = 2,
}

impl Object {
    /// The three types in index order `F`, `P`, `C`.
    pub const ALL: [Object; 3] = [Object::Flamme, Object::Potion, Object::Citrouille];

    /// 0, 1, 2 for `F`, `P`, `C`: an index into per-type arrays.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The type with this index (`None` above 2).
    #[inline]
    pub fn from_index(index: usize) -> Option<Object> {
        Object::ALL.get(index).copied()
    }

    /// Whether `self` beats `other`.
    #[inline]
    pub fn beats(self, other: Object) -> bool {
        other.beaten_by() == self
    }

    /// The type that beats `self` (`F` -> `P`, `P` -> `C`, `C` -> `F`).
    #[inline]
    pub fn beaten_by(self) -> Object {
        Object::ALL[(self.index() + 1) % 3]
    }

    /// The letter `F`, `P` or `C`.
    pub fn letter(self) -> char {
        ['F', 'P', 'C'][self.index()]
    }

    /// The type written with this letter (upper case).
    pub fn from_letter(letter: char) -> Option<Object> {
        match letter {
            'F' => Some(Object::Flamme),
            'P' => Some(Object::Potion),
            'C' => Some(Object::Citrouille),
            _ => None,
        }
    }
}

impl fmt::Display for Object {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A player's bag: how many objects of each type it holds.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bag {
    counts: [u16; 3],
}

const _: () = assert!(std::mem::size_of::<Bag>() == 6);

impl Bag {
    /// The empty bag.
    pub const EMPTY: Bag = Bag { counts: [0; 3] };

    /// A bag of `f` Flammes, `p` Potions and `c` Citrouilles.
    pub const fn new(f: u16, p: u16, c: u16) -> Bag {
        Bag { counts: [f, p, c] }
    }

    /// How many objects of type `object` it holds.
    #[inline]
    pub fn count(self, object: Object) -> u16 {
        self.counts[object.index()]
    }

    /// The counts in `F`, `P`, `C` order.
    #[inline]
    pub fn counts(self) -> [u16; 3] {
        self.counts
    }

    /// How many objects it holds in all.
    #[inline]
    pub fn total(self) -> u32 {
        self.counts.iter().map(|&c| c as u32).sum()
    }

    /// Whether it holds nothing.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.counts == [0; 3]
    }

    /// Adds one object (saturating at `u16::MAX`).
    #[inline]
    pub fn add(&mut self, object: Object) {
        let c = &mut self.counts[object.index()];
        *c = c.saturating_add(1);
    }

    /// The type held most, ties broken in `F`, `P`, `C` order; `None` when empty.
    pub fn majority(self) -> Option<Object> {
        let best = (0..3).max_by_key(|&i| (self.counts[i], 3 - i))?;
        (self.counts[best] > 0).then(|| Object::ALL[best])
    }

    /// The draw weights: the counts, or 1 each for an empty bag (it draws uniformly).
    #[inline]
    fn weights(self) -> [u64; 3] {
        if self.is_empty() {
            [1; 3]
        } else {
            self.counts.map(u64::from)
        }
    }

    /// Draws one type with probability proportional to the counts (uniformly when empty).
    /// The bag itself is not changed (a duel reveals, it does not consume).
    pub fn draw<R: Rng + ?Sized>(self, rng: &mut R) -> Object {
        let w = self.weights();
        let total = w[0] + w[1] + w[2];
        let r = rng.random_range(0..total);
        if r < w[0] {
            Object::Flamme
        } else if r < w[0] + w[1] {
            Object::Potion
        } else {
            Object::Citrouille
        }
    }
}

impl fmt::Display for Bag {
    /// `F2 P0 C1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b, c] = self.counts;
        write!(f, "F{a} P{b} C{c}")
    }
}

/// An exact rational number, always in lowest terms with a positive denominator.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ratio {
    num: i64,
    den: i64,
}

fn gcd(mut a: i64, mut b: i64) -> i64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.abs()
}

impl Ratio {
    /// Zero.
    pub const ZERO: Ratio = Ratio { num: 0, den: 1 };

    /// `num / den` in lowest terms.
    ///
    /// # Panics
    /// When `den` is 0.
    pub fn new(num: i64, den: i64) -> Ratio {
        assert!(den != 0, "zero denominator");
        let g = gcd(num, den).max(1) * den.signum();
        Ratio {
            num: num / g,
            den: den / g,
        }
    }

    /// The numerator (carries the sign).
    pub fn numer(self) -> i64 {
        self.num
    }

    /// The denominator (positive).
    pub fn denom(self) -> i64 {
        self.den
    }

    /// The nearest `f64` (for display and heuristics, never for the rules).
    pub fn to_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }
}

impl Add for Ratio {
    type Output = Ratio;
    fn add(self, o: Ratio) -> Ratio {
        Ratio::new(self.num * o.den + o.num * self.den, self.den * o.den)
    }
}

impl Sub for Ratio {
    type Output = Ratio;
    fn sub(self, o: Ratio) -> Ratio {
        self + (-o)
    }
}

impl Neg for Ratio {
    type Output = Ratio;
    fn neg(self) -> Ratio {
        Ratio {
            num: -self.num,
            den: self.den,
        }
    }
}

impl Mul for Ratio {
    type Output = Ratio;
    fn mul(self, o: Ratio) -> Ratio {
        Ratio::new(self.num * o.num, self.den * o.den)
    }
}

impl fmt::Display for Ratio {
    /// `8/25`, `-1/4`, `0`, `1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den == 1 {
            write!(f, "{}", self.num)
        } else {
            write!(f, "{}/{}", self.num, self.den)
        }
    }
}

/// The exact distribution of a duel's result from the first bag's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct DuelOdds {
    /// Probability that the first bag's draw beats the second's.
    pub win: Ratio,
    /// Probability of equal draws.
    pub draw: Ratio,
    /// Probability that the second bag's draw beats the first's.
    pub loss: Ratio,
}

impl DuelOdds {
    /// The exact odds of a duel between bags `a` and `b`, from `a`'s point of view.
    pub fn new(a: Bag, b: Bag) -> DuelOdds {
        let (wa, wb) = (a.weights(), b.weights());
        let den = (wa.iter().sum::<u64>() * wb.iter().sum::<u64>()) as i64;
        let (mut win, mut draw, mut loss) = (0u64, 0u64, 0u64);
        for x in Object::ALL {
            for y in Object::ALL {
                let n = wa[x.index()] * wb[y.index()];
                if x == y {
                    draw += n;
                } else if x.beats(y) {
                    win += n;
                } else {
                    loss += n;
                }
            }
        }
        DuelOdds {
            win: Ratio::new(win as i64, den),
            draw: Ratio::new(draw as i64, den),
            loss: Ratio::new(loss as i64, den),
        }
    }

    /// The expected value for the first bag: `win - loss` (+1 a win, -1 a loss).
    pub fn value(self) -> Ratio {
        self.win - self.loss
    }
}

/// The revealed result of a duel: both draws, who triggered it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Duel {
    /// The player who chose `DUEL`.
    pub trigger: u8,
    /// The player it was fought against.
    pub target: u8,
    /// The trigger's draw and the target's draw, in that order.
    pub draws: [Object; 2],
}

impl Duel {
    /// Draws both bags (the trigger's first) and records the result.
    pub fn fight<R: Rng + ?Sized>(trigger: u8, target: u8, bags: [Bag; 2], rng: &mut R) -> Duel {
        let first = bags[0].draw(rng);
        let second = bags[1].draw(rng);
        Duel {
            trigger,
            target,
            draws: [first, second],
        }
    }

    /// The winner (`trigger` or `target`), `None` on equal draws.
    pub fn winner(self) -> Option<u8> {
        let [a, b] = self.draws;
        if a.beats(b) {
            Some(self.trigger)
        } else if b.beats(a) {
            Some(self.target)
        } else {
            None
        }
    }

    /// The loser, `None` on equal draws.
    pub fn loser(self) -> Option<u8> {
        self.winner().map(|w| {
            if w == self.trigger {
                self.target
            } else {
                self.trigger
            }
        })
    }

    /// The value for `player`: +1 won, -1 lost, 0 drawn or not in the duel.
    pub fn value_for(self, player: u8) -> i32 {
        match self.winner() {
            Some(w) if w == player => 1,
            Some(_) if player == self.trigger || player == self.target => -1,
            _ => 0,
        }
    }

    /// What `player` drew, if it fought.
    pub fn draw_of(self, player: u8) -> Option<Object> {
        if player == self.trigger {
            Some(self.draws[0])
        } else if player == self.target {
            Some(self.draws[1])
        } else {
            None
        }
    }
}
