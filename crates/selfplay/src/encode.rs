//! Network inputs: the [`Encoder`] trait (in `pjlab-core`) and the games' encoders, each in its
//! game's crate, re-exported here for the self-play and training code.

pub use pjlab_chomp::ChompEncoder;
pub use pjlab_core::{Encoder, EncoderId};
pub use pjlab_pijersi::PijersiEncoder;
