//! The transposition table: one entry per slot, indexed by the low bits of the position's hash.

/// What a stored score says about the true value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    Empty,
    /// The true value.
    Exact,
    /// At least the score (a beta cutoff).
    Lower,
    /// At most the score (no move raised alpha).
    Upper,
}

#[derive(Copy, Clone, Debug)]
pub(crate) struct Entry<M> {
    pub key: u64,
    pub mv: Option<M>,
    pub score: i32,
    pub depth: i16,
    pub bound: Bound,
}

/// A fixed-size table; its size is set in MiB and rounded down to a power of two of entries.
#[derive(Clone, Debug)]
pub(crate) struct Tt<M> {
    entries: Vec<Entry<M>>,
    mask: usize,
}

impl<M: Copy> Tt<M> {
    /// A table of at most `mib` MiB (0: no table).
    pub fn new(mib: usize) -> Tt<M> {
        let bytes = mib.saturating_mul(1 << 20);
        let fit = bytes / std::mem::size_of::<Entry<M>>();
        let n = if fit == 0 {
            0
        } else {
            1usize << (usize::BITS - 1 - fit.leading_zeros())
        };
        Tt {
            entries: vec![Self::EMPTY; n],
            mask: n.wrapping_sub(1),
        }
    }

    const EMPTY: Entry<M> = Entry {
        key: 0,
        mv: None,
        score: 0,
        depth: -1,
        bound: Bound::Empty,
    };

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn clear(&mut self) {
        self.entries.fill(Self::EMPTY);
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<&Entry<M>> {
        if self.entries.is_empty() {
            return None;
        }
        let entry = &self.entries[key as usize & self.mask];
        (entry.bound != Bound::Empty && entry.key == key).then_some(entry)
    }

    /// Stores unless the slot holds a deeper result for the same position.
    #[inline]
    pub fn store(&mut self, key: u64, mv: Option<M>, score: i32, depth: i16, bound: Bound) {
        if self.entries.is_empty() {
            return;
        }
        let slot = &mut self.entries[key as usize & self.mask];
        if slot.key != key || depth >= slot.depth || bound == Bound::Exact {
            let mv = mv.or(if slot.key == key { slot.mv } else { None });
            *slot = Entry {
                key,
                mv,
                score,
                depth,
                bound,
            };
        }
    }
}
