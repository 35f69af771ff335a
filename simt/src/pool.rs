//! The OS threads that run a launch's blocks, kept from one launch to the next (as PoCL keeps
//! its threads), instead of spawning the workers and mapping their coroutine stacks
//! (`block::Worker`) afresh for every launch: with the pool (and the launch's counters on cache
//! lines of their own), saxpy over 2^22 elements, about a millisecond a launch, went from 0.59
//! to 0.71 of PoCL's speed in the CPU benchmark's interleaved rounds.
//!
//! The launching thread is one of the workers; the others come from the pool, which grows to the
//! largest number a launch asked for. One launch has the pool at a time: a launch that finds it
//! busy (the tests launch from several threads at once) spawns threads of its own for its
//! duration, as every launch did before the pool.

use std::any::Any;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, OnceLock, TryLockError};
use std::time::{Duration, Instant};

/// What every worker of a launch runs.
pub(crate) type Work<'a> = dyn Fn() + Sync + 'a;

/// How long a pool thread that has finished its part watches for the next launch before it
/// sleeps: launches that follow each other closely (a benchmark's rounds, `loomc run --repeat`)
/// then start without waking a sleeping thread, and an idle pool costs nothing after it.
const WATCH: Duration = Duration::from_micros(200);

/// Runs `work` on `workers` OS threads at once, the calling one among them, and returns when
/// every one has finished. A panic in any of them is raised again here, once all have finished.
pub(crate) fn run(workers: usize, work: &Work<'_>) {
    if workers <= 1 {
        return work();
    }
    let pool = POOL.get_or_init(Pool::default);
    // (A launch that panicked leaves the lock poisoned, and the pool as good as before.)
    let _turn = match pool.turn.try_lock() {
        Ok(turn) => turn,
        Err(TryLockError::Poisoned(turn)) => turn.into_inner(),
        Err(TryLockError::WouldBlock) => return run_scoped(workers, work),
    };
    if pool.grow(workers - 1).is_err() {
        return run_scoped(workers, work);
    }
    pool.start(workers - 1, work);
    let mine = panic::catch_unwind(AssertUnwindSafe(work));
    let theirs = pool.finish();
    if let Some(payload) = mine.err().or(theirs) {
        panic::resume_unwind(payload);
    }
}

/// `work` on threads spawned for this launch alone.
fn run_scoped(workers: usize, work: &Work<'_>) {
    std::thread::scope(|scope| {
        for _ in 1..workers {
            scope.spawn(work);
        }
        work();
    });
}

static POOL: OnceLock<Pool> = OnceLock::new();

#[derive(Default)]
struct Pool {
    /// Held by the launch that has the pool.
    turn: Mutex<()>,
    state: Mutex<State>,
    /// `State::generation`, also outside the lock: what a watching thread polls.
    generation: AtomicU64,
    /// Signalled when a launch starts.
    started: Condvar,
    /// Signalled when the last pool thread of a launch finishes its part.
    finished: Condvar,
}

#[derive(Default)]
struct State {
    /// The current launch's work; its lifetime is the launch's, which waits until `running` is 0
    /// before it returns (and so before the work goes out of scope).
    work: Option<ErasedWork>,
    /// Pool threads `0..helpers` take part in the current launch.
    helpers: usize,
    /// Counts the launches, so that a pool thread runs each one once.
    generation: u64,
    /// Pool threads of the current launch that have not finished their part.
    running: usize,
    /// The first panic of a pool thread in the current launch.
    panic: Option<Box<dyn Any + Send>>,
    /// Pool threads spawned so far.
    threads: usize,
}

/// A launch's work with its lifetime erased.
#[derive(Clone, Copy)]
struct ErasedWork(*const Work<'static>);
// SAFETY: the work is `Sync`, and a pool thread runs it only while the launch waits for it.
unsafe impl Send for ErasedWork {}

impl Pool {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Spawns pool threads until there are `helpers`.
    fn grow(&'static self, helpers: usize) -> std::io::Result<()> {
        let mut state = self.lock();
        while state.threads < helpers {
            let index = state.threads;
            std::thread::Builder::new()
                .name(format!("loom-simt-{index}"))
                .spawn(move || self.serve(index))?;
            state.threads += 1;
        }
        Ok(())
    }

    fn start(&self, helpers: usize, work: &Work<'_>) {
        // SAFETY: only the lifetime changes; `finish` waits for every pool thread that runs the
        // work, and the launch calls it before `work` goes out of scope (also when it panics).
        let erased = unsafe { std::mem::transmute::<*const Work<'_>, *const Work<'static>>(work) };
        let mut state = self.lock();
        state.work = Some(ErasedWork(erased));
        state.helpers = helpers;
        state.running = helpers;
        state.generation += 1;
        self.generation.store(state.generation, Ordering::Release);
        self.started.notify_all();
    }

    /// Waits until every pool thread of the launch has finished its part; the first panic among
    /// them, if one panicked.
    fn finish(&self) -> Option<Box<dyn Any + Send>> {
        let mut state = self.lock();
        while state.running > 0 {
            state = self.finished.wait(state).unwrap_or_else(|p| p.into_inner());
        }
        state.work = None;
        state.panic.take()
    }

    /// Pool thread `index`: runs its part of every launch that asks for it.
    fn serve(&self, index: usize) {
        let mut seen = 0;
        loop {
            self.watch(seen);
            let Some(work) = self.next_part(index, &mut seen) else {
                continue;
            };
            // SAFETY: the launch waits in `finish` until this part is done.
            let outcome = panic::catch_unwind(AssertUnwindSafe(|| unsafe { (*work.0)() }));
            let mut state = self.lock();
            if let Err(payload) = outcome {
                state.panic.get_or_insert(payload);
            }
            state.running -= 1;
            if state.running == 0 {
                self.finished.notify_one();
            }
        }
    }

    /// Polls for a launch after generation `seen` for a short while (`WATCH`).
    fn watch(&self, seen: u64) {
        let since = Instant::now();
        while self.generation.load(Ordering::Acquire) == seen && since.elapsed() < WATCH {
            std::hint::spin_loop();
        }
    }

    /// Sleeps until a launch after generation `seen` starts; its work if pool thread `index`
    /// takes part in it.
    fn next_part(&self, index: usize, seen: &mut u64) -> Option<ErasedWork> {
        let mut state = self.lock();
        while state.generation == *seen {
            state = self.started.wait(state).unwrap_or_else(|p| p.into_inner());
        }
        *seen = state.generation;
        state.work.filter(|_| index < state.helpers)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;
    use std::sync::atomic::AtomicUsize;

    #[test]
    fn every_worker_runs_the_work_once_on_its_own_thread() {
        for workers in [1, 2, 5, 3] {
            let runs = AtomicUsize::new(0);
            let threads = Mutex::new(HashSet::new());
            run(workers, &|| {
                runs.fetch_add(1, Ordering::Relaxed);
                threads.lock().unwrap().insert(std::thread::current().id());
            });
            assert_eq!(runs.into_inner(), workers);
            assert_eq!(threads.into_inner().unwrap().len(), workers);
        }
    }

    #[test]
    fn launches_from_several_threads_at_once_all_run() {
        std::thread::scope(|scope| {
            for _ in 0..4 {
                scope.spawn(|| {
                    for _ in 0..50 {
                        let runs = AtomicUsize::new(0);
                        run(3, &|| {
                            runs.fetch_add(1, Ordering::Relaxed);
                        });
                        assert_eq!(runs.into_inner(), 3);
                    }
                });
            }
        });
    }

    #[test]
    fn a_panic_in_a_pool_thread_reaches_the_launch_after_all_have_finished() {
        let caller = std::thread::current().id();
        let finished = AtomicUsize::new(0);
        let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
            run(3, &|| {
                if std::thread::current().id() != caller {
                    panic!("a worker panicked");
                }
                std::thread::sleep(Duration::from_millis(20));
                finished.fetch_add(1, Ordering::Relaxed);
            })
        }));
        assert!(outcome.is_err());
        assert_eq!(finished.into_inner(), 1);
        // The pool still works.
        let runs = AtomicUsize::new(0);
        run(3, &|| {
            runs.fetch_add(1, Ordering::Relaxed);
        });
        assert_eq!(runs.into_inner(), 3);
    }
}
