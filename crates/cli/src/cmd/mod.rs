//! One module per subcommand.

pub mod analyse;
pub mod arena;
pub mod atlas;
pub mod bench;
pub mod chifoumi;
pub mod chomp;
pub mod demo;
pub mod export;
pub mod game;
pub mod nnue;
pub mod perft;
pub mod play;
pub mod replay;
pub mod report;
pub mod selfplay;
pub mod serve;
pub mod setup;
pub mod show;
pub mod train;
pub mod ugi;

/// Raised by the first Ctrl-C (or SIGTERM) once [`install_stop_signal`] ran.
pub static STOP: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Makes the first Ctrl-C or SIGTERM raise [`STOP`] and print `what_happens`; a second one
/// quits at once (exit code 130).
pub fn install_stop_signal(what_happens: &'static str) {
    use std::sync::atomic::Ordering;
    let _ = ctrlc::set_handler(move || {
        if STOP.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
        eprintln!("\nstopping: {what_happens} (Ctrl-C again to quit at once)");
    });
}

/// Builds an agent of the game of kit `K` from its spec: `net:checkpoint=<dir>,...` (a network
/// trained on that game, see `pjlab_players::net_agent`) or any spec of
/// `pjlab_agents::build`.
pub fn agent<K: pjlab_core::GameKit>(
    spec: &str,
    seed: u64,
) -> anyhow::Result<Box<dyn pjlab_agents::Agent<K::Game>>> {
    Ok(pjlab_players::build::<K>(spec, seed)?)
}

/// This invocation's provenance: the build (from the build script), the machine, the command
/// line and the start time.
pub fn provenance() -> pjlab_core::Provenance {
    let (cpu, cores) = pjlab_core::provenance::machine();
    pjlab_core::Provenance {
        version: env!("CARGO_PKG_VERSION").into(),
        commit: env!("PJLAB_COMMIT").into(),
        dirty: env!("PJLAB_DIRTY") == "true",
        profile: env!("PJLAB_PROFILE").into(),
        features: env!("PJLAB_FEATURES").into(),
        cpu,
        cores,
        command: command_line(),
        started: chrono::Utc::now().format("%Y-%m-%dT%H:%M:%SZ").to_string(),
        load_start: pjlab_core::provenance::load_average(),
        load_end: None,
    }
}

/// The command line as typed, arguments with spaces quoted.
pub fn command_line() -> String {
    std::env::args()
        .map(|a| {
            if a.is_empty() || a.contains(char::is_whitespace) {
                format!("'{a}'")
            } else {
                a
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}
