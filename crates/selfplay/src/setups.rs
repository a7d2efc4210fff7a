//! Where self-play games start: the [`Setups`] trait and the weighted [`SetupMix`] (in
//! `pjlab-core`), and the games' own setups.

pub use pjlab_chomp::ChompSetups;
pub use pjlab_core::{SetupMix, Setups, Start};

/// Pijersi setups drawn from weighted variants (`classic:1,half-random:4,...`).
pub type PijersiSetups = SetupMix<pjlab_pijersi::Variant>;
