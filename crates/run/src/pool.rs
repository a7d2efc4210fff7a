//! Jobs on worker threads: each worker takes the next job, runs it with its own state, and
//! sends the result to the calling thread, which hands it on.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;

/// Worker threads for a run: `asked`, or one per core; at least one.
pub fn workers(asked: Option<usize>) -> usize {
    asked
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1)
}

/// The order finished items are handed on in.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Order {
    /// As they finish.
    #[default]
    Finished,
    /// In the jobs' order (an item waits for those before it; after a stop, what finished is
    /// handed on in order, gaps skipped).
    Scheduled,
}

/// Worker threads for a run's jobs.
#[derive(Copy, Clone, Debug)]
pub struct Pool<'a> {
    /// Threads (at least one runs).
    pub workers: usize,
    /// The order finished items are handed on in.
    pub order: Order,
    /// Raised (by Ctrl-C, by the caller), no job is started any more.
    pub stop: &'a AtomicBool,
}

impl Pool<'_> {
    /// Runs `jobs` on the pool's workers and hands each finished item to `on_done` on the
    /// calling thread. Worker `w` builds its state with `state(w)` once, then runs `work(state,
    /// job)` on every job it takes: `Ok(Some(item))` is a finished item, `Ok(None)` a job
    /// abandoned (the stop flag was raised while it ran; the worker quits), `Err` a failure,
    /// after which no job is started. Every finished item has been handed on when this
    /// returns. One worker runs on the calling thread, each job after the one before has been
    /// handed on: a stop that `on_done` raises (an SPRT that decides) then starts no further
    /// job, so a run of one worker plays the same jobs every time.
    ///
    /// # Errors
    /// The first failure.
    pub fn run<J, S, T, E>(
        &self,
        jobs: &[J],
        state: impl Fn(usize) -> S + Sync,
        work: impl Fn(&mut S, &J) -> Result<Option<T>, E> + Sync,
        on_done: &mut dyn FnMut(T),
    ) -> Result<(), E>
    where
        J: Sync,
        T: Send,
        E: Send,
    {
        if self.workers <= 1 {
            return self.run_here(jobs, state, work, on_done);
        }
        let next = AtomicUsize::new(0);
        let failed = AtomicBool::new(false);
        let (tx, rx) = channel::<(usize, Result<T, E>)>();
        let mut first_error = None;
        let mut waiting = BTreeMap::new();
        let mut due = 0;
        let stop = self.stop;
        std::thread::scope(|scope| {
            for worker in 0..self.workers.max(1) {
                let tx = tx.clone();
                let (next, failed, state, work) = (&next, &failed, &state, &work);
                scope.spawn(move || {
                    let mut state = state(worker);
                    loop {
                        if stop.load(Ordering::Relaxed) || failed.load(Ordering::Relaxed) {
                            return;
                        }
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(job) = jobs.get(i) else { return };
                        let result = match work(&mut state, job) {
                            Ok(Some(item)) => Ok(item),
                            Ok(None) => return,
                            Err(e) => {
                                failed.store(true, Ordering::Relaxed);
                                Err(e)
                            }
                        };
                        let last = result.is_err();
                        if tx.send((i, result)).is_err() || last {
                            return;
                        }
                    }
                });
            }
            drop(tx);
            for (i, result) in rx {
                match result {
                    Ok(item) if self.order == Order::Finished => on_done(item),
                    Ok(item) => {
                        waiting.insert(i, item);
                        while let Some(item) = waiting.remove(&due) {
                            on_done(item);
                            due += 1;
                        }
                    }
                    Err(e) => {
                        first_error.get_or_insert(e);
                    }
                }
            }
        });
        for item in waiting.into_values() {
            on_done(item);
        }
        first_error.map_or(Ok(()), Err)
    }

    /// [`Pool::run`] with one worker, on the calling thread.
    fn run_here<J, S, T, E>(
        &self,
        jobs: &[J],
        state: impl Fn(usize) -> S,
        work: impl Fn(&mut S, &J) -> Result<Option<T>, E>,
        on_done: &mut dyn FnMut(T),
    ) -> Result<(), E> {
        let mut state = state(0);
        for job in jobs {
            if self.stop.load(Ordering::Relaxed) {
                break;
            }
            match work(&mut state, job)? {
                Some(item) => on_done(item),
                None => break,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_worker_starts_no_job_after_on_done_raises_the_stop() {
        let jobs: Vec<u64> = (0..1000).collect();
        for _ in 0..20 {
            let stop = AtomicBool::new(false);
            let pool = Pool {
                workers: 1,
                order: Order::Finished,
                stop: &stop,
            };
            let mut got = Vec::new();
            pool.run(&jobs, |w| w, |_, &j| Ok::<_, ()>(Some(j)), &mut |x| {
                got.push(x);
                if x == 10 {
                    stop.store(true, Ordering::SeqCst);
                }
            })
            .unwrap();
            assert_eq!(got, (0..=10).collect::<Vec<_>>());
        }
    }

    #[test]
    fn every_item_is_handed_on_once_in_the_order_asked() {
        let stop = AtomicBool::new(false);
        let jobs: Vec<u64> = (0..200).collect();
        for workers in [1, 3, 8] {
            for order in [Order::Finished, Order::Scheduled] {
                let pool = Pool {
                    workers,
                    order,
                    stop: &stop,
                };
                let mut got = Vec::new();
                pool.run(&jobs, |w| w, |_, &j| Ok::<_, ()>(Some(j * 2)), &mut |x| {
                    got.push(x)
                })
                .unwrap();
                if order == Order::Scheduled {
                    assert_eq!(got, jobs.iter().map(|j| j * 2).collect::<Vec<_>>());
                }
                got.sort_unstable();
                assert_eq!(got, jobs.iter().map(|j| j * 2).collect::<Vec<_>>());
            }
        }
    }

    #[test]
    fn a_failure_or_a_stop_ends_the_run_and_keeps_what_finished() {
        let stop = AtomicBool::new(false);
        let pool = Pool {
            workers: 1,
            order: Order::Finished,
            stop: &stop,
        };
        let jobs: Vec<u32> = (0..10).collect();
        let mut got = Vec::new();
        let result = pool.run(
            &jobs,
            |_| (),
            |_, &j| {
                if j == 4 {
                    Err(format!("job {j}"))
                } else {
                    Ok(Some(j))
                }
            },
            &mut |x| got.push(x),
        );
        assert_eq!(result, Err("job 4".to_string()));
        assert_eq!(got, [0, 1, 2, 3]);
        // A job that sees the stop flag abandons itself; none starts after it.
        let mut got = Vec::new();
        pool.run(
            &jobs,
            |_| (),
            |_, &j| {
                if j == 3 {
                    stop.store(true, Ordering::SeqCst);
                    return Ok::<_, ()>(None);
                }
                Ok(Some(j))
            },
            &mut |x| got.push(x),
        )
        .unwrap();
        assert_eq!(got, [0, 1, 2]);
    }
}
