//! The bounded worker pool searches run on, apart from the server's threads: `workers` threads
//! (at most one search a core), a queue of at most `queue` waiting searches, and a refusal
//! ([`ApiError::Busy`], 503) beyond.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, Mutex};

use crate::ApiError;

type Job = Box<dyn FnOnce() + Send + 'static>;

/// Threads that run searches, with a bounded queue.
pub struct Pool {
    sender: SyncSender<Job>,
    workers: usize,
    queue: usize,
    /// Searches queued or running.
    busy: Arc<AtomicUsize>,
}

impl Pool {
    /// `workers` threads (at least 1) and room for `queue` waiting jobs.
    pub fn new(workers: usize, queue: usize) -> Pool {
        let workers = workers.max(1);
        let (sender, receiver) = sync_channel::<Job>(queue);
        let receiver = Arc::new(Mutex::new(receiver));
        for k in 0..workers {
            let receiver: Arc<Mutex<Receiver<Job>>> = Arc::clone(&receiver);
            std::thread::Builder::new()
                .name(format!("search-{k}"))
                .spawn(move || {
                    loop {
                        // The lock is held only while waiting for the next job.
                        let job = match receiver.lock() {
                            Ok(r) => r.recv(),
                            Err(_) => return,
                        };
                        match job {
                            // A panicking search is caught where the job is made.
                            Ok(job) => job(),
                            Err(_) => return,
                        }
                    }
                })
                .expect("spawns a search thread");
        }
        Pool {
            sender,
            workers,
            queue,
            busy: Arc::new(AtomicUsize::new(0)),
        }
    }

    /// Search threads.
    pub fn workers(&self) -> usize {
        self.workers
    }

    /// Searches waiting or running now.
    pub fn busy(&self) -> usize {
        self.busy.load(Ordering::SeqCst)
    }

    /// Queues `job`.
    ///
    /// # Errors
    /// [`ApiError::Busy`] when the queue is full.
    pub fn submit(&self, job: impl FnOnce() + Send + 'static) -> Result<(), ApiError> {
        let busy = Arc::clone(&self.busy);
        busy.fetch_add(1, Ordering::SeqCst);
        let counted = Arc::clone(&busy);
        let wrapped: Job = Box::new(move || {
            job();
            counted.fetch_sub(1, Ordering::SeqCst);
        });
        match self.sender.try_send(wrapped) {
            Ok(()) => Ok(()),
            Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => {
                busy.fetch_sub(1, Ordering::SeqCst);
                Err(ApiError::Busy {
                    workers: self.workers,
                    queued: self.queue,
                })
            }
        }
    }
}
