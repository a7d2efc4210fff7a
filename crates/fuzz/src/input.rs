//! Reading fuzz inputs: text with replacement, and scripts of choices.

use std::borrow::Cow;

/// The bytes as text: invalid UTF-8 replaced, so that every input reaches a parser.
pub(crate) fn text(data: &[u8]) -> Cow<'_, str> {
    String::from_utf8_lossy(data)
}

/// A fuzz input read as a sequence of choices; past its end every choice is 0.
#[derive(Clone, Debug)]
pub struct Script<'a> {
    bytes: &'a [u8],
}

impl<'a> Script<'a> {
    /// A script over `bytes`.
    pub fn new(bytes: &'a [u8]) -> Script<'a> {
        Script { bytes }
    }

    /// Whether every byte has been read.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The next byte (0 past the end).
    pub fn byte(&mut self) -> u8 {
        match self.bytes.split_first() {
            Some((&b, rest)) => {
                self.bytes = rest;
                b
            }
            None => 0,
        }
    }

    /// A choice in `0..n` (`n` > 0) from the next byte.
    pub fn choose(&mut self, n: usize) -> usize {
        usize::from(self.byte()) % n
    }

    /// A seed from the next four bytes.
    pub fn seed(&mut self) -> u64 {
        (0..4).fold(0, |acc, _| acc << 8 | u64::from(self.byte()))
    }

    /// What is left, as bytes.
    pub fn rest(self) -> &'a [u8] {
        self.bytes
    }
}
