//! Times of a run's launches, and a progress line on standard error while a long launch goes on.

use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long a run's launches go before they report their progress; `LOOM_PROGRESS_AFTER_MS`
/// changes it (the tests set it to 0, to see the report without a long kernel).
fn quiet_for() -> Duration {
    std::env::var("LOOM_PROGRESS_AFTER_MS")
        .ok()
        .and_then(|ms| ms.parse().ok())
        .map_or(Duration::from_secs(1), Duration::from_millis)
}
/// `LOOM_IO_TIMES`: `loomc run` prints how long it took to read each `--in` file and to write
/// each `--out` file on standard error (for `bench/npy_io.py`).
pub fn io_times() -> bool {
    std::env::var_os("LOOM_IO_TIMES").is_some()
}

/// One `LOOM_IO_TIMES` line: `npy read x: 67108864 bytes in 21.345 ms`.
pub fn report_io(what: &str, name: &str, bytes: usize, took: Duration) {
    eprintln!(
        "npy {what} {name}: {bytes} bytes in {:.3} ms",
        took.as_secs_f64() * 1e3
    );
}

/// How often the progress line is rewritten after that.
const EVERY: Duration = Duration::from_millis(500);

/// "0.123 ms", or for several runs "best 0.120 ms, mean 0.131 ms over 5 runs".
pub fn describe(seconds: &[f64]) -> String {
    let ms = |s: f64| format!("{:.3} ms", s * 1e3);
    match seconds {
        [one] => ms(*one),
        _ => {
            let best = seconds.iter().copied().fold(f64::INFINITY, f64::min);
            let mean = seconds.iter().sum::<f64>() / seconds.len().max(1) as f64;
            format!(
                "best {}, mean {} over {} runs",
                ms(best),
                ms(mean),
                seconds.len()
            )
        }
    }
}

/// The blocks of all the launches of a run that have completed, shown while they run.
pub struct Progress {
    kernel: String,
    total: u64,
    done: Arc<AtomicU32>,
    /// Blocks of the launches before the current one.
    before: AtomicU64,
    started: Instant,
    /// Printed at all (see [`Progress::new`]).
    shown: bool,
}

impl Progress {
    /// `shown`: whether progress is printed at all (not under `--error-format=json`, where
    /// standard error holds JSON only).
    pub fn new(kernel: &str, blocks: u32, repeat: u32, shown: bool) -> Progress {
        Progress {
            shown,
            kernel: kernel.to_string(),
            total: blocks as u64 * repeat as u64,
            done: Arc::new(AtomicU32::new(0)),
            before: AtomicU64::new(0),
            started: Instant::now(),
        }
    }

    /// The counter a launch advances, reset for a new launch.
    pub fn counter(&self) -> Arc<AtomicU32> {
        let finished = self.done.swap(0, Ordering::Relaxed) as u64;
        self.before.fetch_add(finished, Ordering::Relaxed);
        self.done.clone()
    }

    /// Runs `launches`, printing the progress every `EVERY` once the run is `quiet_for()` old;
    /// returns their result (the watcher is woken as soon as they end, and also when they
    /// panic).
    pub fn watch<R>(&self, launches: impl FnOnce() -> R) -> R {
        let finished = AtomicBool::new(false);
        std::thread::scope(|scope| {
            let watcher = scope.spawn(|| {
                let mut shown = false;
                let mut next = self.started + quiet_for();
                loop {
                    let ended = finished.load(Ordering::Acquire);
                    // Once the run is old enough: every EVERY while the launch lasts, and when it
                    // ends if nothing was shown yet, so that a run past the threshold always
                    // shows where it got to (a short launch ends before the first wake-up).
                    if self.shown && Instant::now() >= next && (!ended || !shown) {
                        next = Instant::now() + EVERY;
                        let done = self.before.load(Ordering::Relaxed)
                            + self.done.load(Ordering::Relaxed) as u64;
                        eprint!(
                            "\rrunning `{}`: {done} of {} blocks ({:.0}%), {:.1} s",
                            self.kernel,
                            self.total,
                            done as f64 * 100.0 / self.total.max(1) as f64,
                            self.started.elapsed().as_secs_f64()
                        );
                        let _ = std::io::stderr().flush();
                        shown = true;
                    }
                    if ended {
                        break;
                    }
                    std::thread::park_timeout(Duration::from_millis(20));
                }
                if shown {
                    eprintln!();
                }
            });
            // Ends the watcher however `launch` ends, so that the scope never waits on it.
            struct Finish<'a> {
                finished: &'a AtomicBool,
                watcher: &'a std::thread::Thread,
            }
            impl Drop for Finish<'_> {
                fn drop(&mut self) {
                    self.finished.store(true, Ordering::Release);
                    self.watcher.unpark();
                }
            }
            let _finish = Finish {
                finished: &finished,
                watcher: watcher.thread(),
            };
            launches()
        })
    }
}
