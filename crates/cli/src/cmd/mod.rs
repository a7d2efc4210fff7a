//! One module per subcommand.

pub mod analyse;
pub mod arena;
pub mod bench;
pub mod chomp;
pub mod demo;
pub mod export;
pub mod game;
pub mod perft;
pub mod play;
pub mod replay;
pub mod setup;
pub mod train;
pub mod ugi;

/// Builds an agent of the game of kit `K` from its spec: `net:checkpoint=<dir>,...` (a network
/// trained on that game, see `pjlab_train::agent::net_agent`) or any spec of
/// `pjlab_agents::build`.
pub fn agent<K: pjlab_core::GameKit>(
    spec: &str,
    seed: u64,
) -> anyhow::Result<Box<dyn pjlab_agents::Agent<K::Game>>> {
    if spec == "net" || spec.starts_with("net:") {
        Ok(Box::new(pjlab_train::agent::net_agent::<K>(spec, seed)?))
    } else {
        Ok(pjlab_agents::build::<K>(spec, seed)?)
    }
}
