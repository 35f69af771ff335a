//! The CPU backend's throughput on saxpy and sumOfSquares at 2^22 and 2^24 Float32 elements,
//! beside a sequential Rust loop over the same data and, where `scripts/bench` provides them,
//! PoCL (the same kernels in OpenCL C, bench/opencl/) and NumPy (bench/numpy_kernels.py), all
//! interleaved in one run; each kernel also with a call (or stack) per thread and without the
//! bounds checks of global accesses, to show what they cost. Not a test: `scripts/bench` runs it
//! (release).
//!
//! saxpy also runs as a hand-written Rust loop on every core, the ceiling the memory bandwidth sets.
//!
//! For profiling one part: `LOOM_BENCH_ONLY=saxpy` (kernels, comma-separated) runs only those
//! tables, `LOOM_BENCH_HOW=TEXT` only the columns whose name contains TEXT (`=TEXT`: is TEXT;
//! `A|B`: either), and PoCL's, for the ratio (the modes are then not compared with each other),
//! `LOOM_BENCH_REPEATS=N` N rounds.

use loomc::diagnostics::SourceFiles;
use loomc::driver::{self, Emit, Options};
use loomc::target::host::{HostArg, HostOptions, HostProgram, LaunchShape};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdout, Command, Stdio};
use std::time::Instant;

/// saxpy written by hand for every core: the ceiling the memory bandwidth sets, which the kernels
/// (LOOM's and PoCL's) are measured against. Its threads are made once and kept between runs, as
/// LOOM's and PoCL's pools are; each run, core `c` updates the `c`-th contiguous part.
struct SaxpyOnEveryCore {
    job: std::sync::Arc<std::sync::Mutex<Option<SaxpyPart>>>,
    start: std::sync::Arc<std::sync::Barrier>,
    done: std::sync::Arc<std::sync::Barrier>,
    threads: Vec<std::thread::JoinHandle<()>>,
    cores: usize,
}

/// One run's arrays, as addresses (the threads only touch their own part of them).
#[derive(Clone, Copy)]
struct SaxpyPart {
    x: usize,
    y: usize,
    n: usize,
    a: f32,
}

impl SaxpyOnEveryCore {
    fn new(cores: usize) -> SaxpyOnEveryCore {
        let job = std::sync::Arc::new(std::sync::Mutex::new(None::<SaxpyPart>));
        let start = std::sync::Arc::new(std::sync::Barrier::new(cores));
        let done = std::sync::Arc::new(std::sync::Barrier::new(cores));
        let threads = (1..cores)
            .map(|core| {
                let (job, start, done) = (job.clone(), start.clone(), done.clone());
                std::thread::spawn(move || loop {
                    start.wait();
                    let Some(part) = *job.lock().expect("no panics") else {
                        return;
                    };
                    Self::part(part, core, cores);
                    done.wait();
                })
            })
            .collect();
        SaxpyOnEveryCore {
            job,
            start,
            done,
            threads,
            cores,
        }
    }

    fn run(&self, x: &[f32], y: &mut [f32], a: f32) {
        let part = SaxpyPart {
            x: x.as_ptr() as usize,
            y: y.as_mut_ptr() as usize,
            n: y.len().min(x.len()),
            a,
        };
        *self.job.lock().expect("no panics") = Some(part);
        self.start.wait();
        Self::part(part, 0, self.cores);
        self.done.wait();
    }

    /// Core `core`'s part: elements `n * core / cores ..`, cut at multiples of 16.
    fn part(job: SaxpyPart, core: usize, cores: usize) {
        let edge = |c: usize| (job.n * c / cores) & !15;
        let (lo, hi) = (
            edge(core),
            if core + 1 == cores {
                job.n
            } else {
                edge(core + 1)
            },
        );
        // SAFETY: `run` holds `x` and `y` borrowed until every core is done, and the parts do
        // not overlap.
        let (x, y) = unsafe {
            (
                std::slice::from_raw_parts((job.x as *const f32).add(lo), hi - lo),
                std::slice::from_raw_parts_mut((job.y as *mut f32).add(lo), hi - lo),
            )
        };
        for (y, x) in y.iter_mut().zip(x) {
            *y += job.a * x;
        }
    }
}

impl Drop for SaxpyOnEveryCore {
    fn drop(&mut self) {
        *self.job.lock().expect("no panics") = None;
        self.start.wait();
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}

/// The sizes, in elements.
const SIZES: [usize; 2] = [1 << 22, 1 << 24];
/// Threads per block (work-items per group), in every column.
const BLOCK: usize = 256;
const REPEATS: usize = 5;

fn program(file: &str, host: &HostOptions) -> Result<HostProgram, String> {
    let source = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
    let options = Options {
        emit: vec![Emit::Llvm],
        ..Options::default()
    };
    let compiled = driver::compile(&mut SourceFiles::default(), file, &source, &options);
    let ir = compiled
        .outputs
        .and_then(|o| o.into_iter().next())
        .map(|(_, ir)| ir)
        .ok_or(format!("{file} does not compile"))?;
    HostProgram::compile(&ir, host).map_err(|e| e.to_string())
}

/// A copy of `v` at a 4 KiB-aligned address, as bench/opencl/pocl_bench.c allocates PoCL's
/// arrays (`posix_memalign`): a `Vec` as large as these comes from `mmap` 16 bytes past a page
/// start, so every other 32-byte vector access of a loop over it straddles two cache lines, which
/// cost LOOM's saxpy a tenth of its time beside PoCL's aligned arrays. Every column gets its
/// arrays this way.
struct PageAligned {
    ptr: *mut f32,
    len: usize,
}

impl PageAligned {
    const LAYOUT_ALIGN: usize = 4096;

    fn copy_of(v: &[f32]) -> PageAligned {
        let layout = Self::layout(v.len());
        // SAFETY: the layout has a non-zero size (at least one page).
        let ptr = unsafe { std::alloc::alloc(layout) } as *mut f32;
        assert!(!ptr.is_null(), "out of memory for {} floats", v.len());
        // SAFETY: `ptr` has room for `v.len()` floats and does not overlap `v`.
        unsafe { std::ptr::copy_nonoverlapping(v.as_ptr(), ptr, v.len()) };
        PageAligned { ptr, len: v.len() }
    }

    fn layout(len: usize) -> std::alloc::Layout {
        std::alloc::Layout::from_size_align((len * 4).max(Self::LAYOUT_ALIGN), Self::LAYOUT_ALIGN)
            .expect("a valid layout")
    }
}

impl std::ops::Deref for PageAligned {
    type Target = [f32];
    fn deref(&self) -> &[f32] {
        // SAFETY: `ptr` holds `len` initialised floats, owned by `self`.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }
}

impl std::ops::DerefMut for PageAligned {
    fn deref_mut(&mut self) -> &mut [f32] {
        // SAFETY: as in `deref`, borrowed exclusively.
        unsafe { std::slice::from_raw_parts_mut(self.ptr, self.len) }
    }
}

impl PartialEq for PageAligned {
    fn eq(&self, other: &PageAligned) -> bool {
        **self == **other
    }
}

impl Drop for PageAligned {
    fn drop(&mut self) {
        // SAFETY: allocated in `copy_of` with this layout.
        unsafe { std::alloc::dealloc(self.ptr as *mut u8, Self::layout(self.len)) };
    }
}

fn bytes(v: &mut [f32]) -> &mut [u8] {
    // SAFETY: f32 is plain data; the byte view borrows `v` exclusively.
    unsafe { std::slice::from_raw_parts_mut(v.as_mut_ptr() as *mut u8, v.len() * 4) }
}

/// The CPU backend as it runs (threads of a block in one compiled loop where the kernel never
/// suspends, bounds checks on, versioned out of the loop where they cannot fail), with the
/// checks kept in the loop (no versioning), with one call per thread as before the loops, and
/// without the checks.
fn modes() -> [(&'static str, HostOptions); 4] {
    [
        ("CPU backend", HostOptions::default()),
        (
            "CPU backend, checks kept in loop",
            HostOptions {
                unversioned_loops: true,
                ..HostOptions::default()
            },
        ),
        (
            "CPU backend, a call per thread",
            HostOptions {
                per_thread_calls: true,
                ..HostOptions::default()
            },
        ),
        (
            "CPU backend, no bounds checks",
            HostOptions {
                skip_bounds_checks: true,
                ..HostOptions::default()
            },
        ),
    ]
}

/// One row of the table: `seconds` for `n` elements, and its speed relative to PoCL's where
/// PoCL ran.
fn row(name: &str, n: usize, how: &str, seconds: f64, pocl: Option<f64>) {
    let versus = pocl.map_or(String::new(), |p| format!("{:.2}", p / seconds));
    println!(
        "| {name:<12} | 2^{:<2} | {how:<31} | {:>9.2} | {:>11.1} | {versus:>7} |",
        n.trailing_zeros(),
        seconds * 1e3,
        n as f64 / seconds / 1e6
    );
}

/// A run: the seconds it took, measured by whoever ran it.
type Run<'a> = Box<dyn FnMut() -> Result<f64, String> + 'a>;

/// Times `f` here.
fn timed(f: impl FnOnce() -> Result<(), String>) -> Result<f64, String> {
    let t = Instant::now();
    f()?;
    Ok(t.elapsed().as_secs_f64())
}

/// Rounds of each table: `LOOM_BENCH_REPEATS`, else `REPEATS`.
fn repeats() -> usize {
    std::env::var("LOOM_BENCH_REPEATS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(REPEATS)
}

/// Best time of each of `runs`, interleaved (one run of each in turn, `REPEATS` rounds), so that
/// the load of a shared machine weighs on every column alike. Each round runs them in another
/// order, so that no column always runs first or after the same one: the LOOM column run after
/// PoCL's was about a tenth slower than the same code run after another LOOM column (saxpy,
/// 2026-12-07), and rotating the order (each round starting one column further on) still left
/// every column the same predecessor.
fn best_interleaved(runs: &mut [(&str, Run<'_>)]) -> Result<Vec<f64>, String> {
    let mut best = vec![f64::INFINITY; runs.len()];
    let repeats = repeats();
    // Each round runs the columns in an order of its own, drawn with a fixed seed: which column
    // runs just before another weighs on it (PoCL's process leaves the caches full of its arrays
    // and its threads busy), and a rotation keeps every column's predecessor the same.
    let mut order: Vec<usize> = (0..runs.len()).collect();
    let mut rng = fastrand::Rng::with_seed(0x5eed);
    for _ in 0..repeats {
        rng.shuffle(&mut order);
        for &column in &order {
            best[column] = best[column].min((runs[column].1)()?);
        }
    }
    Ok(best)
}

/// A program outside this one that runs the same kernels on the same inputs and times them
/// itself (bench/opencl/pocl_bench.c, bench/numpy_kernels.py), driven over a pipe so that its
/// runs interleave with the others: it prints a line naming itself, then answers each line
/// `KERNEL N` with the seconds one launch took.
struct Helper {
    child: Child,
    answers: BufReader<ChildStdout>,
    name: String,
}

impl Helper {
    /// The program named by the environment variable `var` (a command line, split at spaces),
    /// if it is set.
    fn start(var: &str) -> Result<Option<Helper>, String> {
        let Ok(command) = std::env::var(var) else {
            return Ok(None);
        };
        let mut words = command.split_whitespace();
        let program = words.next().ok_or(format!("{var} is empty"))?;
        let mut child = Command::new(program)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("{var}: {command}: {e}"))?;
        let mut answers = BufReader::new(child.stdout.take().expect("piped"));
        let mut name = String::new();
        answers
            .read_line(&mut name)
            .map_err(|e| format!("{command}: {e}"))?;
        if name.is_empty() {
            return Err(format!("{command} ended before naming itself"));
        }
        Ok(Some(Helper {
            child,
            answers,
            name: name.trim().to_string(),
        }))
    }

    fn run(&mut self, kernel: &str, n: usize) -> Result<f64, String> {
        let stdin = self.child.stdin.as_mut().expect("piped");
        writeln!(stdin, "{kernel} {n}").map_err(|e| format!("{}: {e}", self.name))?;
        stdin.flush().map_err(|e| format!("{}: {e}", self.name))?;
        let mut line = String::new();
        self.answers
            .read_line(&mut line)
            .map_err(|e| format!("{}: {e}", self.name))?;
        line.trim().parse().map_err(|_| {
            format!(
                "{} failed on {kernel} {n} (its message is above)",
                self.name
            )
        })
    }
}

impl Drop for Helper {
    fn drop(&mut self) {
        drop(self.child.stdin.take());
        let _ = self.child.wait();
    }
}

fn saxpy_launch(program: &HostProgram, x: &mut [f32], y: &mut [f32], a: f32) -> Result<(), String> {
    let n = x.len();
    let shape = LaunchShape {
        blocks: n.div_ceil(BLOCK) as u32,
        ..LaunchShape::default()
    };
    let mut args = [
        HostArg::I32(n as i32),
        HostArg::F32(a),
        HostArg::Array {
            name: "x".into(),
            data: bytes(x),
            elem_size: 4,
        },
        HostArg::Array {
            name: "y".into(),
            data: bytes(y),
            elem_size: 4,
        },
    ];
    program
        .launch("saxpy", &shape, &mut args)
        .map_err(|e| e.to_string())
}

fn squares_launch(program: &HostProgram, input: &mut [f32], out: &mut [f32]) -> Result<(), String> {
    let shape = LaunchShape {
        blocks: (input.len() / BLOCK) as u32,
        ..LaunchShape::default()
    };
    let mut args = [
        HostArg::Array {
            name: "in".into(),
            data: bytes(input),
            elem_size: 4,
        },
        HostArg::Array {
            name: "out".into(),
            data: bytes(out),
            elem_size: 4,
        },
    ];
    program
        .launch("sumOfSquares", &shape, &mut args)
        .map_err(|e| e.to_string())
}

fn main() -> Result<(), String> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut pocl = Helper::start("LOOM_BENCH_POCL")?;
    let mut numpy = Helper::start("LOOM_BENCH_NUMPY")?;
    println!(
        "saxpy and sumOfSquares, Float32, {BLOCK} threads per block, best of {} interleaved runs, {cores} cores",
        repeats()
    );
    println!();
    for (what, helper) in [("PoCL", &pocl), ("NumPy", &numpy)] {
        match helper {
            Some(h) => println!("- {what}: {}", h.name),
            None => println!("- {what}: not run (not installed)"),
        }
    }
    println!();
    println!("| kernel       | n    | how                             |   time ms | Melements/s | x PoCL  |");
    println!("|--------------|------|---------------------------------|----------:|------------:|--------:|");
    let [(checked_how, checked), (unversioned_how, unversioned), (per_thread_how, per_thread), (unchecked_how, unchecked)] =
        modes();
    let saxpy_checked = program("examples/saxpy.loom", &checked)?;
    let saxpy_unversioned = program("examples/saxpy.loom", &unversioned)?;
    let saxpy_per_thread = program("examples/saxpy.loom", &per_thread)?;
    let saxpy_unchecked = program("examples/saxpy.loom", &unchecked)?;
    // It synchronises (shuffles and a barrier): it is cut at its synchronisations into loops
    // over the threads (src/target/host/cut.rs); before the cut, its threads were compiled
    // coroutines (`no_cut`); in the per-thread mode they are stackful ones.
    let squares_checked = program("examples/sum_of_squares.loom", &checked)?;
    let squares_coroutines = program(
        "examples/sum_of_squares.loom",
        &HostOptions {
            no_cut: true,
            ..HostOptions::default()
        },
    )?;
    let squares_per_thread = program("examples/sum_of_squares.loom", &per_thread)?;
    // The cut regions' bounds checks kept in their loops (as before they were versioned).
    let squares_unversioned = program("examples/sum_of_squares.loom", &unversioned)?;
    let squares_unchecked = program("examples/sum_of_squares.loom", &unchecked)?;
    let a = 2.5f32;
    let on_every_core = SaxpyOnEveryCore::new(cores);
    for n in SIZES {
        // The inputs bench/opencl/pocl_bench.c and bench/numpy_kernels.py make too.
        let x: Vec<f32> = (0..n).map(|i| (i % 1000) as f32 * 1e-3).collect();
        let y0: Vec<f32> = (0..n).map(|i| 1.0 - (i % 7) as f32).collect();

        let aligned = |v: &Vec<f32>| PageAligned::copy_of(v);
        let (mut x1, mut y1) = (aligned(&x), aligned(&y0));
        let (mut x2, mut y2) = (aligned(&x), aligned(&y0));
        let (mut x3, mut y3) = (aligned(&x), aligned(&y0));
        let (mut x4, mut y4) = (aligned(&x), aligned(&y0));
        let (xr, mut yr) = (aligned(&x), aligned(&y0));
        let (xc, mut yc) = (aligned(&x), aligned(&y0));
        let mut runs: Vec<(&str, Run<'_>)> = vec![
            (
                checked_how,
                Box::new(|| timed(|| saxpy_launch(&saxpy_checked, &mut x1, &mut y1, a))),
            ),
            (
                unversioned_how,
                Box::new(|| timed(|| saxpy_launch(&saxpy_unversioned, &mut x4, &mut y4, a))),
            ),
            (
                per_thread_how,
                Box::new(|| timed(|| saxpy_launch(&saxpy_per_thread, &mut x3, &mut y3, a))),
            ),
            (
                unchecked_how,
                Box::new(|| timed(|| saxpy_launch(&saxpy_unchecked, &mut x2, &mut y2, a))),
            ),
            (
                "sequential Rust loop",
                Box::new(|| {
                    timed(|| {
                        for (y, x) in yr.iter_mut().zip(xr.iter()) {
                            *y += a * x;
                        }
                        Ok(())
                    })
                }),
            ),
            (
                "Rust loop on every core",
                Box::new(|| {
                    timed(|| {
                        on_every_core.run(&xc, &mut yc, a);
                        Ok(())
                    })
                }),
            ),
        ];
        if let Some(h) = pocl.as_mut() {
            runs.push(("PoCL (OpenCL C, all cores)", Box::new(|| h.run("saxpy", n))));
        }
        if let Some(h) = numpy.as_mut() {
            runs.push(("NumPy a * x + y", Box::new(|| h.run("saxpy", n))));
        }
        table("saxpy", n, &mut runs)?;
        drop(runs);
        // Every mode ran the same number of times on the same inputs.
        if every_column() && (y1 != y2 || y1 != y3 || y1 != y4 || y1 != yc) {
            return Err("saxpy disagrees between the modes".to_string());
        }

        let (mut in1, mut out1) = (aligned(&x), aligned(&vec![0f32; n / BLOCK]));
        let (mut in2, mut out2) = (aligned(&x), aligned(&vec![0f32; n / BLOCK]));
        let (mut in3, mut out3) = (aligned(&x), aligned(&vec![0f32; n / BLOCK]));
        let (mut in4, mut out4) = (aligned(&x), aligned(&vec![0f32; n / BLOCK]));
        let (mut in5, mut out5) = (aligned(&x), aligned(&vec![0f32; n / BLOCK]));
        let mut partial = vec![0f32; n / BLOCK];
        let mut runs: Vec<(&str, Run<'_>)> = vec![
            (
                checked_how,
                Box::new(|| timed(|| squares_launch(&squares_checked, &mut in1, &mut out1))),
            ),
            (
                unversioned_how,
                Box::new(|| timed(|| squares_launch(&squares_unversioned, &mut in5, &mut out5))),
            ),
            (
                "CPU backend, compiled coroutines",
                Box::new(|| timed(|| squares_launch(&squares_coroutines, &mut in4, &mut out4))),
            ),
            (
                "CPU backend, a stack per thread",
                Box::new(|| timed(|| squares_launch(&squares_per_thread, &mut in3, &mut out3))),
            ),
            (
                unchecked_how,
                Box::new(|| timed(|| squares_launch(&squares_unchecked, &mut in2, &mut out2))),
            ),
            (
                "sequential Rust loop",
                Box::new(|| {
                    timed(|| {
                        for (p, chunk) in partial.iter_mut().zip(xr.chunks(BLOCK)) {
                            *p = chunk.iter().map(|v| v * v).sum();
                        }
                        Ok(())
                    })
                }),
            ),
        ];
        if let Some(h) = pocl.as_mut() {
            runs.push((
                "PoCL (OpenCL C, all cores)",
                Box::new(|| h.run("sumOfSquares", n)),
            ));
        }
        if let Some(h) = numpy.as_mut() {
            runs.push((
                "NumPy (x*x).reshape(..).sum(1)",
                Box::new(|| h.run("sumOfSquares", n)),
            ));
        }
        table("sumOfSquares", n, &mut runs)?;
        drop(runs);
        let total_cpu: f64 = out1.iter().map(|v| *v as f64).sum();
        let total_ref: f64 = partial.iter().map(|v| *v as f64).sum();
        if every_column()
            && ((total_cpu - total_ref).abs() > 1e-4 * total_ref.abs()
                || out1 != out2
                || out1 != out3
                || out1 != out4
                || out1 != out5)
        {
            return Err(format!(
                "sumOfSquares disagrees: {total_cpu} vs {total_ref}"
            ));
        }
    }
    Ok(())
}

/// Whether every column runs (no `LOOM_BENCH_HOW`), so that the modes' results can be compared.
fn every_column() -> bool {
    std::env::var_os("LOOM_BENCH_HOW").is_none()
}

/// Runs `runs` interleaved and prints a row for each, with its speed relative to PoCL's; only
/// those `LOOM_BENCH_ONLY` and `LOOM_BENCH_HOW` ask for, where they are set.
fn table(kernel: &str, n: usize, runs: &mut Vec<(&str, Run<'_>)>) -> Result<(), String> {
    if let Ok(only) = std::env::var("LOOM_BENCH_ONLY") {
        if !only.split(',').any(|k| k == kernel) {
            return Ok(());
        }
    }
    if let Ok(how) = std::env::var("LOOM_BENCH_HOW") {
        let wanted = |h: &str| {
            how.split('|')
                .any(|alternative| match alternative.strip_prefix('=') {
                    Some(exact) => h == exact,
                    None => h.contains(alternative),
                })
        };
        runs.retain(|(h, _)| wanted(h) || h.starts_with("PoCL"));
    }
    let times = best_interleaved(runs)?;
    let pocl = runs
        .iter()
        .zip(&times)
        .find(|((how, _), _)| how.starts_with("PoCL"))
        .map(|(_, t)| *t);
    for ((how, _), t) in runs.iter().zip(&times) {
        row(kernel, n, how, *t, pocl);
    }
    Ok(())
}
