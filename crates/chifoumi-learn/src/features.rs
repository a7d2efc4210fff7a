//! What the learned player sees: its observation's tensor and a [`Memory`] of the match (kept
//! in the rules crate, beside the players that share it).

pub use pjlab_chifoumi::players::{MEMORY_LEN, Memory, input_len};
