//! One module per subcommand.

pub mod analyse;
pub mod bench;
pub mod chomp;
pub mod demo;
pub mod perft;
pub mod play;
pub mod replay;
pub mod setup;
pub mod train;
