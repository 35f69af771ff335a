//! The CPU backend's throughput on saxpy and sumOfSquares at 2^24 elements, beside a sequential
//! Rust loop over the same data, in one run; each kernel with and without the bounds checks of
//! global accesses, to show what they cost. Not a test: `scripts/bench` runs it (release).

use loomc::diagnostics::SourceFiles;
use loomc::driver::{self, Emit, Options};
use loomc::target::host::{HostArg, HostOptions, HostProgram, LaunchShape};
use std::time::Instant;

const N: usize = 1 << 24;
const REPEATS: usize = 3;

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

/// Best of `REPEATS` runs, in seconds.
fn best(mut f: impl FnMut() -> Result<(), String>) -> Result<f64, String> {
    let mut best = f64::INFINITY;
    for _ in 0..REPEATS {
        let t = Instant::now();
        f()?;
        best = best.min(t.elapsed().as_secs_f64());
    }
    Ok(best)
}

/// The CPU backend as it runs (bounds checks on), and without the checks.
fn modes() -> [(&'static str, HostOptions); 2] {
    [
        ("CPU backend (SIMT)", HostOptions::default()),
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
        "| {name:<13} | {how:<28} | {:>10.2} | {:>12.1} |",
        seconds * 1e3,
        N as f64 / seconds / 1e6
    );
}

fn main() -> Result<(), String> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!("CPU backend vs a sequential Rust loop, {N} elements (2^24), best of {REPEATS}, {cores} cores\n");
    println!("| kernel        | how                          |    time ms | Melements/s |");
    println!("|---------------|------------------------------|-----------:|------------:|");
    let x: Vec<f32> = (0..N).map(|i| (i % 1000) as f32 * 1e-3).collect();
    let y0: Vec<f32> = (0..N).map(|i| 1.0 - (i % 7) as f32).collect();
    let a = 2.5f32;
    let bs = 256usize;

    for (how, options) in modes() {
        let saxpy = program("examples/saxpy.loom", &options)?;
        let (mut xs, mut ys) = (x.clone(), y0.clone());
        let t = best(|| {
            let shape = LaunchShape {
                blocks: N.div_ceil(bs) as u32,
                block_size: None,
                dynamic_shared_bytes: 0,
                progress: None,
            };
            let mut args = [
                HostArg::I32(N as i32),
                HostArg::F32(a),
                HostArg::Array {
                    name: "x".into(),
                    data: bytes(&mut xs),
                    elem_size: 4,
                },
                HostArg::Array {
                    name: "y".into(),
                    data: bytes(&mut ys),
                    elem_size: 4,
                },
            ];
            saxpy
                .launch("saxpy", &shape, &mut args)
                .map_err(|e| e.to_string())
        })?;
        row("saxpy", how, t);
    }
    let mut yr = y0.clone();
    let t = best(|| {
        for (y, x) in yr.iter_mut().zip(&x) {
            *y += a * x;
        }
        Ok(())
    })?;
    row("saxpy", "sequential Rust loop", t);

    let mut out = vec![0f32; N / bs];
    for (how, options) in modes() {
        let squares = program("examples/sum_of_squares.loom", &options)?;
        let mut input = x.clone();
        let t = best(|| {
            let shape = LaunchShape {
                blocks: (N / bs) as u32,
                block_size: None,
                dynamic_shared_bytes: 0,
                progress: None,
            };
            let mut args = [
                HostArg::Array {
                    name: "in".into(),
                    data: bytes(&mut input),
                    elem_size: 4,
                },
                HostArg::Array {
                    name: "out".into(),
                    data: bytes(&mut out),
                    elem_size: 4,
                },
            ];
            squares
                .launch("sumOfSquares", &shape, &mut args)
                .map_err(|e| e.to_string())
        })?;
        row("sumOfSquares", how, t);
    }
    let mut partial = vec![0f32; N / bs];
    let t = best(|| {
        for (p, chunk) in partial.iter_mut().zip(x.chunks(bs)) {
            *p = chunk.iter().map(|v| v * v).sum();
        }
        Ok(())
    })?;
    row("sumOfSquares", "sequential Rust loop", t);
    let total_gpu: f64 = out.iter().map(|v| *v as f64).sum();
    let total_ref: f64 = partial.iter().map(|v| *v as f64).sum();
    if (total_gpu - total_ref).abs() > 1e-4 * total_ref.abs() {
        return Err(format!(
            "sumOfSquares disagrees: {total_gpu} vs {total_ref}"
        ));
    }
    Ok(())
}
