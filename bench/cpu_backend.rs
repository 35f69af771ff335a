//! The CPU backend's throughput on saxpy and sumOfSquares at 2^24 elements, beside a sequential
//! Rust loop over the same data, in one run; each kernel with and without the bounds checks of
//! global accesses, to show what they cost. Not a test: `scripts/bench` runs it (release).

use loomc::diagnostics::SourceFiles;
use loomc::driver::{self, Emit, Options};
use loomc::target::host::{HostArg, HostOptions, HostProgram, LaunchShape};
use std::time::Instant;

const N: usize = 1 << 24;
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

fn bytes(v: &mut [f32]) -> &mut [u8] {
    // SAFETY: f32 is plain data; the byte view borrows `v` exclusively.
    unsafe { std::slice::from_raw_parts_mut(v.as_mut_ptr() as *mut u8, v.len() * 4) }
}

/// The CPU backend as it runs (threads of a block in one compiled loop where the kernel never
/// suspends, bounds checks on), with one call per thread as before the loops, and without the
/// checks.
fn modes() -> [(&'static str, HostOptions); 3] {
    [
        ("CPU backend", HostOptions::default()),
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

fn row(name: &str, how: &str, seconds: f64) {
    println!(
        "| {name:<13} | {how:<31} | {:>10.2} | {:>12.1} |",
        seconds * 1e3,
        N as f64 / seconds / 1e6
    );
}

/// Best time of each of `runs`, interleaved (one run of each in turn, `REPEATS` rounds), so that
/// the load of a shared machine weighs on every column alike.
fn best_interleaved(
    runs: &mut [&mut dyn FnMut() -> Result<(), String>],
) -> Result<Vec<f64>, String> {
    let mut best = vec![f64::INFINITY; runs.len()];
    for _ in 0..REPEATS {
        for (run, best) in runs.iter_mut().zip(&mut best) {
            let t = Instant::now();
            run()?;
            *best = best.min(t.elapsed().as_secs_f64());
        }
    }
    Ok(best)
}

fn saxpy_launch(
    program: &HostProgram,
    x: &mut [f32],
    y: &mut [f32],
    a: f32,
    bs: usize,
) -> Result<(), String> {
    let shape = LaunchShape {
        blocks: N.div_ceil(bs) as u32,
        ..LaunchShape::default()
    };
    let mut args = [
        HostArg::I32(N as i32),
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

fn squares_launch(
    program: &HostProgram,
    input: &mut [f32],
    out: &mut [f32],
    bs: usize,
) -> Result<(), String> {
    let shape = LaunchShape {
        blocks: (N / bs) as u32,
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
    println!("CPU backend vs a sequential Rust loop, {N} elements (2^24), best of {REPEATS} interleaved runs, {cores} cores\n");
    println!("| kernel        | how                             |    time ms | Melements/s |");
    println!("|---------------|---------------------------------|-----------:|------------:|");
    let x: Vec<f32> = (0..N).map(|i| (i % 1000) as f32 * 1e-3).collect();
    let y0: Vec<f32> = (0..N).map(|i| 1.0 - (i % 7) as f32).collect();
    let a = 2.5f32;
    let bs = 256usize;
    let [(checked_how, checked), (per_thread_how, per_thread), (unchecked_how, unchecked)] =
        modes();

    let saxpy_checked = program("examples/saxpy.loom", &checked)?;
    let saxpy_per_thread = program("examples/saxpy.loom", &per_thread)?;
    let saxpy_unchecked = program("examples/saxpy.loom", &unchecked)?;
    let (mut x1, mut y1) = (x.clone(), y0.clone());
    let (mut x2, mut y2) = (x.clone(), y0.clone());
    let (mut x3, mut y3) = (x.clone(), y0.clone());
    let mut yr = y0.clone();
    let times = best_interleaved(&mut [
        &mut || saxpy_launch(&saxpy_checked, &mut x1, &mut y1, a, bs),
        &mut || saxpy_launch(&saxpy_per_thread, &mut x3, &mut y3, a, bs),
        &mut || saxpy_launch(&saxpy_unchecked, &mut x2, &mut y2, a, bs),
        &mut || {
            for (y, x) in yr.iter_mut().zip(&x) {
                *y += a * x;
            }
            Ok(())
        },
    ])?;
    row("saxpy", checked_how, times[0]);
    row("saxpy", per_thread_how, times[1]);
    row("saxpy", unchecked_how, times[2]);
    row("saxpy", "sequential Rust loop", times[3]);
    // Every mode ran the same number of times on the same inputs.
    if y1 != y2 || y1 != y3 {
        return Err("saxpy disagrees between the modes".to_string());
    }

    // It synchronises (shuffles and a barrier): its threads are compiled coroutines, or, in
    // the per-thread mode, stackful ones.
    let squares_checked = program("examples/sum_of_squares.loom", &checked)?;
    let squares_per_thread = program("examples/sum_of_squares.loom", &per_thread)?;
    let squares_unchecked = program("examples/sum_of_squares.loom", &unchecked)?;
    let (mut in1, mut out1) = (x.clone(), vec![0f32; N / bs]);
    let (mut in2, mut out2) = (x.clone(), vec![0f32; N / bs]);
    let (mut in3, mut out3) = (x.clone(), vec![0f32; N / bs]);
    let mut partial = vec![0f32; N / bs];
    let times = best_interleaved(&mut [
        &mut || squares_launch(&squares_checked, &mut in1, &mut out1, bs),
        &mut || squares_launch(&squares_per_thread, &mut in3, &mut out3, bs),
        &mut || squares_launch(&squares_unchecked, &mut in2, &mut out2, bs),
        &mut || {
            for (p, chunk) in partial.iter_mut().zip(x.chunks(bs)) {
                *p = chunk.iter().map(|v| v * v).sum();
            }
            Ok(())
        },
    ])?;
    row("sumOfSquares", checked_how, times[0]);
    row("sumOfSquares", "CPU backend, a stack per thread", times[1]);
    row("sumOfSquares", unchecked_how, times[2]);
    row("sumOfSquares", "sequential Rust loop", times[3]);
    let total_cpu: f64 = out1.iter().map(|v| *v as f64).sum();
    let total_ref: f64 = partial.iter().map(|v| *v as f64).sum();
    if (total_cpu - total_ref).abs() > 1e-4 * total_ref.abs() || out1 != out2 || out1 != out3 {
        return Err(format!(
            "sumOfSquares disagrees: {total_cpu} vs {total_ref}"
        ));
    }
    Ok(())
}
