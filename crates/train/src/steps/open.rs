//! Opening a run directory for training.

use pjlab_core::GameKit;
use pjlab_run::dir::{OpenRun, Opener, RunKind};

use crate::Error;
use crate::config::RunConfig;
use crate::options::RunOptions;

/// Opens `options.out` for a run of `config` on `pjlab-run`'s [`Opener`]: locked, its
/// sub-directories made, its configuration checked against the one it was started with (only
/// `iterations` may change) and written, its manifest written, this invocation's provenance
/// appended. The run holds the lock until dropped; its footer goes into the Parquet files it
/// writes.
pub(crate) fn open_run<K: GameKit>(
    config: &RunConfig<K>,
    options: &RunOptions,
) -> Result<OpenRun, Error> {
    let mut opening = Opener::new(RunKind::Training, K::INFO.name, "pjlab train")
        .sub_dirs(&["games", "positions", "checkpoints", "plots"])
        .provenance(&options.provenance)
        .lock(&options.out)?;
    let previous = crate::options::run_config::<K>(opening.dir().path())?;
    opening.resume_config::<_, Error>(
        previous,
        config,
        config.to_toml(),
        |previous, config| previous.iterations = config.iterations,
        "`iterations`",
    )?;
    Ok(opening.commit()?)
}
