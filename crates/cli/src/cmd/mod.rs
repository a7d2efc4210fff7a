//! One module per subcommand.

pub mod bench;
pub mod chomp;
pub mod demo;
pub mod perft;
pub mod replay;
pub mod setup;
