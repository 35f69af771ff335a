//! Runs many inputs through the compiler on worker threads with a known stack, and watches the
//! clock: an input that runs past its limit is a hang, reported with what reproduces it before
//! the process exits (a thread stuck in the compiler cannot be stopped any other way).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What a worker is running: the index of its input and when it started.
type Running = Option<(usize, Instant)>;

/// The stack `loomc` compiles on (`COMPILER_STACK_BYTES` in src/main.rs): an input that needs
/// more overflows the binary.
pub const STACK_BYTES: usize = 64 << 20;

pub struct Pool {
    pub threads: usize,
    /// Longer than this on one input is a hang.
    pub limit: Duration,
    /// Stop after this many failures (the first ones are the useful ones).
    pub max_failures: usize,
}

impl Default for Pool {
    fn default() -> Pool {
        Pool {
            threads: std::env::var("LOOM_FUZZ_THREADS")
                .ok()
                .and_then(|t| t.parse().ok())
                .unwrap_or_else(|| {
                    std::thread::available_parallelism().map_or(2, |n| n.get().min(4))
                }),
            // A hang is an input that never ends; a big generated program under the sanitizer in
            // a debug build has taken 66 s.
            limit: Duration::from_secs(300),
            max_failures: std::env::var("LOOM_FUZZ_MAX_FAILURES")
                .ok()
                .and_then(|t| t.parse().ok())
                .unwrap_or(5),
        }
    }
}

/// What running the inputs found.
pub struct Outcome {
    pub ran: usize,
    pub failures: Vec<String>,
}

impl Pool {
    /// Runs `job(i)` for `i` in `0..count` (or until `deadline`), on worker threads. `describe(i)`
    /// says how to reproduce input `i` (its seed); a failure's message includes it.
    pub fn run<J, D>(&self, count: usize, deadline: Option<Instant>, job: J, describe: D) -> Outcome
    where
        J: Fn(usize) -> Result<(), String> + Send + Sync + 'static,
        D: Fn(usize) -> String + Send + Sync + 'static,
    {
        let job = Arc::new(job);
        let describe = Arc::new(describe);
        let next = Arc::new(AtomicUsize::new(0));
        let ran = Arc::new(AtomicUsize::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let failures = Arc::new(Mutex::new(Vec::new()));
        let current: Arc<Mutex<Vec<Running>>> = Arc::new(Mutex::new(vec![None; self.threads]));
        let mut workers = Vec::new();
        for worker in 0..self.threads {
            let (job, describe, next, ran, stop, failures, current) = (
                job.clone(),
                describe.clone(),
                next.clone(),
                ran.clone(),
                stop.clone(),
                failures.clone(),
                current.clone(),
            );
            let max_failures = self.max_failures;
            let handle = std::thread::Builder::new()
                .name(format!("fuzz-{worker}"))
                .stack_size(STACK_BYTES)
                .spawn(move || loop {
                    if stop.load(Ordering::Relaxed) || deadline.is_some_and(|d| Instant::now() > d)
                    {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= count {
                        break;
                    }
                    current.lock().unwrap()[worker] = Some((i, Instant::now()));
                    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job(i)))
                        .unwrap_or_else(|panic| Err(format!("panic: {}", panic_message(&panic))));
                    current.lock().unwrap()[worker] = None;
                    ran.fetch_add(1, Ordering::Relaxed);
                    if let Err(message) = result {
                        let mut failures = failures.lock().unwrap();
                        failures.push(format!("{}\n{message}", describe(i)));
                        if failures.len() >= max_failures {
                            stop.store(true, Ordering::Relaxed);
                        }
                    }
                })
                .expect("spawn a fuzz worker");
            workers.push(handle);
        }
        // Watch for hangs while the workers run.
        while workers.iter().any(|w| !w.is_finished()) {
            std::thread::sleep(Duration::from_millis(50));
            for (i, started) in current.lock().unwrap().iter().flatten() {
                if started.elapsed() > self.limit {
                    eprintln!(
                        "HANG: input ran for more than {:?}\n{}",
                        self.limit,
                        describe(*i)
                    );
                    std::process::exit(1);
                }
            }
        }
        for worker in workers {
            let _ = worker.join();
        }
        let failures = std::mem::take(&mut *failures.lock().unwrap());
        Outcome {
            ran: ran.load(Ordering::Relaxed),
            failures,
        }
    }
}

pub fn panic_message(panic: &Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = panic.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic without a message".to_string()
    }
}

/// Runs `f` on a fresh thread with `loomc`'s stack size: a stack overflow there would abort the
/// whole test binary, so the inputs that could cause one (deep nesting) must stay within it.
pub fn on_compiler_stack<T: Send + 'static>(
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, String> {
    std::thread::Builder::new()
        .stack_size(STACK_BYTES)
        .spawn(f)
        .map_err(|e| e.to_string())?
        .join()
        .map_err(|panic| format!("panic: {}", panic_message(&panic)))
}
