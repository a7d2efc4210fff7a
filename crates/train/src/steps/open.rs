//! Opening a run directory for training.

use pjlab_core::GameKit;
use pjlab_run::dir::{Manifest, PROVENANCE_KEY, RunDir, RunKind, RunLock};

use crate::Error;
use crate::config::RunConfig;
use crate::options::RunOptions;

/// A run directory opened for training: locked, its sub-directories made, its manifest
/// written, its configuration checked against the one it was started with and written, this
/// invocation's provenance appended. Holds the lock until dropped.
pub(crate) struct OpenRun {
    _lock: RunLock,
    /// Key-value pairs for the footers of the Parquet files the run writes.
    pub(crate) footer: Vec<(String, String)>,
}

/// Opens `options.out` for a run of `config` (see [`OpenRun`]).
pub(crate) fn open_run<K: GameKit>(
    config: &RunConfig<K>,
    options: &RunOptions,
) -> Result<OpenRun, Error> {
    let run = RunDir::create(&options.out)?;
    let lock = run.lock("pjlab train")?;
    for sub in ["games", "positions", "checkpoints", "plots"] {
        run.sub_dir(sub)?;
    }
    run.check_resume(
        crate::options::run_config::<K>(run.path())?,
        config,
        |previous, config| previous.iterations = config.iterations,
        "`iterations`",
    )?;
    run.write_manifest(&Manifest::new(RunKind::Training, K::INFO.name))?;
    run.write_config(&config.to_toml())?;
    let provenance = run.append_provenance(&options.provenance)?;
    Ok(OpenRun {
        _lock: lock,
        footer: vec![(PROVENANCE_KEY.to_string(), provenance)],
    })
}
