//! Long calls that Ctrl-C interrupts: the work runs on a worker thread with a stop flag while
//! the calling thread, the GIL released, wakes every [`POLL`] to run Python's signal handlers
//! (`py.check_signals()`). A handler that raises (`KeyboardInterrupt`) raises the stop flag and
//! the call returns that exception.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

/// How often the calling thread looks for a signal.
const POLL: Duration = Duration::from_millis(10);

/// The worker's stack: the main thread's usual 8 MiB, for deep searches.
const STACK: usize = 8 << 20;

/// The result `rx` brings, looking for signals while waiting; `Err` with the handler's
/// exception after raising `stop`, or `Ok(None)` when the worker ended without a result (it
/// panicked: the caller joins it to pass the panic on).
fn wait<T: Send>(py: Python<'_>, rx: Receiver<T>, stop: &AtomicBool) -> PyResult<Option<T>> {
    // Behind a mutex, so that the GIL-free closure may borrow it (a receiver is not `Sync`).
    let rx = Mutex::new(rx);
    loop {
        let next = py.detach(|| {
            rx.lock()
                .unwrap_or_else(PoisonError::into_inner)
                .recv_timeout(POLL)
        });
        match next {
            Ok(value) => return Ok(Some(value)),
            Err(RecvTimeoutError::Disconnected) => return Ok(None),
            Err(RecvTimeoutError::Timeout) => {
                if let Err(error) = py.check_signals() {
                    stop.store(true, Ordering::Relaxed);
                    return Err(error);
                }
            }
        }
    }
}

/// A worker that could not start.
fn no_thread(error: std::io::Error) -> PyErr {
    PyRuntimeError::new_err(format!("cannot start a worker thread: {error}"))
}

/// Passes a worker's panic on (PyO3 raises it as `PanicException`).
fn resume<T>(handle: JoinHandle<()>) -> T {
    match handle.join() {
        Err(panic) => std::panic::resume_unwind(panic),
        Ok(()) => unreachable!("a worker that returned sent its result"),
    }
}

/// Runs `work` on a worker thread borrowing the caller's data. On a signal whose handler
/// raises, raises the flag `work` is given, waits for `work` to return (it must watch the
/// flag) and returns the handler's exception; otherwise returns `work`'s result.
///
/// # Errors
/// The signal handler's exception (`KeyboardInterrupt`), or a worker that cannot start.
pub(crate) fn interruptible<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(&AtomicBool) -> T + Send,
) -> PyResult<T> {
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::sync_channel(1);
        let flag = &stop;
        let worker = std::thread::Builder::new()
            .stack_size(STACK)
            .spawn_scoped(scope, move || {
                let _ = tx.send(work(flag));
            })
            .map_err(no_thread)?;
        match wait(py, rx, &stop) {
            Ok(Some(value)) => Ok(value),
            Ok(None) => match worker.join() {
                Err(panic) => std::panic::resume_unwind(panic),
                Ok(()) => unreachable!("a worker that returned sent its result"),
            },
            Err(error) => {
                py.detach(|| {
                    let _ = worker.join();
                });
                Err(error)
            }
        }
    })
}

/// Runs `work`, which owns its data, on a worker thread. On a signal whose handler raises,
/// raises the flag `work` is given and returns the handler's exception at once: `work` goes on
/// in the background until it watches the flag or ends, and its result is dropped (what it
/// holds must be safe to use meanwhile: a mutex).
///
/// # Errors
/// The signal handler's exception (`KeyboardInterrupt`), or a worker that cannot start.
pub(crate) fn detached<T: Send + 'static>(
    py: Python<'_>,
    work: impl FnOnce(&Arc<AtomicBool>) -> T + Send + 'static,
) -> PyResult<T> {
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::sync_channel(1);
    let flag = Arc::clone(&stop);
    let worker = std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(move || {
            let _ = tx.send(work(&flag));
        })
        .map_err(no_thread)?;
    match wait(py, rx, &stop)? {
        Some(value) => Ok(value),
        None => resume(worker),
    }
}
