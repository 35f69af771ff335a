//! A host program over the typed bindings `loomc --emit=rust` generates (docs/running.md):
//! saxpy and sumOfSquares on GPU 0, with the arrays uploaded once and kept on the device across
//! launches, transposeMatrix on a two-dimensional grid (on the GPU's stream and on a stream
//! of its own), and a kernel taking a `Range` and a record by value, each result checked against a reference computed here. Without a CUDA driver it
//! says so and exits 0, so that it builds and runs in CI on machines without a GPU.
//!
//! `src/saxpy.rs`, `src/sum_of_squares.rs` and `src/transpose.rs` are generated (tests/cli.rs
//! checks they are what loomc makes today):
//!
//! ```text
//! scripts/loomc examples/saxpy.loom --emit=rust -o examples/host/src/saxpy.rs
//! scripts/loomc examples/sum_of_squares.loom --emit=rust -o examples/host/src/sum_of_squares.rs
//! scripts/loomc examples/transpose.loom --emit=rust -o examples/host/src/transpose.rs
//! scripts/loomc tests/ui/ok/record_params.loom --emit=rust -o examples/host/src/record_params.rs
//! cargo run -p loom-host-example
//! ```

// Generated: kept as loomc writes them, so that the test that they are current compares text.
#[rustfmt::skip]
mod saxpy;
#[rustfmt::skip]
mod sum_of_squares;
#[rustfmt::skip]
mod transpose;
#[rustfmt::skip]
mod record_params;

use loom_runtime::{driver_present, Gpu, GridShape};
use std::process::ExitCode;

fn main() -> ExitCode {
    match run() {
        Ok(Ran::OnGpu) => ExitCode::SUCCESS,
        Ok(Ran::Skipped(why)) => {
            println!("skipped: {why}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

enum Ran {
    OnGpu,
    Skipped(&'static str),
}

fn run() -> Result<Ran, String> {
    if !driver_present() {
        return Ok(Ran::Skipped(
            "no CUDA driver on this machine: the host example needs an NVIDIA GPU",
        ));
    }
    let gpu = Gpu::open(0)?;
    println!("GPU: {}", gpu.name());
    run_saxpy(&gpu)?;
    run_saxpy_on_two_streams(&gpu)?;
    run_sum_of_squares(&gpu)?;
    run_transpose(&gpu)?;
    run_record_params(&gpu)?;
    Ok(Ran::OnGpu)
}

/// `y <- a * x + y` twice on the same device buffers: the second launch sees the first's `y`.
fn run_saxpy(gpu: &Gpu) -> Result<(), String> {
    let kernels = saxpy::Kernels::load(gpu)?;
    let n = 1_000_003usize;
    let a = 2.5f32;
    let x: Vec<f32> = (0..n).map(|i| (i % 100) as f32 * 0.25).collect();
    let y: Vec<f32> = (0..n).map(|i| 1.0 - (i % 7) as f32).collect();
    let mut x_device = gpu.upload(&x, &[n])?;
    let mut y_device = gpu.upload(&y, &[n])?;
    let blocks = n.div_ceil(256) as u32;
    let count = i32::try_from(n).map_err(|e| e.to_string())?;
    for _ in 0..2 {
        let timing = kernels.saxpy(gpu, blocks, count, a, &mut x_device, &mut y_device)?;
        println!("saxpy: n = {n}, kernel {:.3} ms", timing.kernel_ms);
    }
    let result = gpu.download(&y_device)?;
    let worst = result
        .iter()
        .zip(x.iter().zip(&y))
        .map(|(got, (x, y))| (got - (a * x + (a * x + y))).abs())
        .fold(0f32, f32::max);
    if worst > 1e-3 {
        return Err(format!("saxpy: largest error {worst}"));
    }
    println!("saxpy: matches the reference (largest error {worst})");
    Ok(())
}

/// Two saxpys issued on two streams, which may overlap: the same `x` (uploaded on the first
/// stream; the second waits for that copy), each its own `y` and `a`.
fn run_saxpy_on_two_streams(gpu: &Gpu) -> Result<(), String> {
    let kernels = saxpy::Kernels::load(gpu)?;
    let (first, second) = (gpu.new_stream()?, gpu.new_stream()?);
    let n = 300_007usize;
    let x: Vec<f32> = (0..n).map(|i| (i % 31) as f32).collect();
    let y: Vec<f32> = vec![1.0; n];
    let mut x_device = first.upload(&x, &[n])?;
    let mut y_first = first.upload(&y, &[n])?;
    let mut y_second = second.upload(&y, &[n])?;
    let blocks = n.div_ceil(256) as u32;
    let count = i32::try_from(n).map_err(|e| e.to_string())?;
    kernels.saxpy_on(&first, blocks, count, 2.0, &mut x_device, &mut y_first)?;
    kernels.saxpy_on(&second, blocks, count, -1.0, &mut x_device, &mut y_second)?;
    let (got_first, got_second) = (first.download(&y_first)?, second.download(&y_second)?);
    for (i, x) in x.iter().enumerate() {
        let (want_first, want_second) = (2.0 * x + 1.0, 1.0 - x);
        if got_first[i] != want_first || got_second[i] != want_second {
            return Err(format!(
                "saxpy on two streams: element {i}: {} and {}, expected {want_first} and \
                 {want_second}",
                got_first[i], got_second[i]
            ));
        }
    }
    println!("saxpy on two streams: both match the reference");
    Ok(())
}

/// One partial sum of squares per block of 256.
fn run_sum_of_squares(gpu: &Gpu) -> Result<(), String> {
    let kernels = sum_of_squares::Kernels::load(gpu)?;
    let blocks = 1000usize;
    let threads = blocks * 256;
    let input: Vec<f32> = (0..threads)
        .map(|i| ((i * 7919) % 1013) as f32 / 1013.0)
        .collect();
    let mut input_device = gpu.upload(&input, &[threads])?;
    let mut sums_device = gpu.zeros::<f32>(&[blocks])?;
    let timing = kernels.sum_of_squares(gpu, blocks as u32, &mut input_device, &mut sums_device)?;
    println!(
        "sumOfSquares: {blocks} blocks, kernel {:.3} ms",
        timing.kernel_ms
    );
    let sums = gpu.download(&sums_device)?;
    for (block, (got, chunk)) in sums.iter().zip(input.chunks(256)).enumerate() {
        let expected: f64 = chunk.iter().map(|v| f64::from(*v) * f64::from(*v)).sum();
        if (f64::from(*got) - expected).abs() > 1e-3 * expected.max(1.0) {
            return Err(format!(
                "sumOfSquares: block {block}: {got}, expected {expected}"
            ));
        }
    }
    println!("sumOfSquares: matches the reference");
    Ok(())
}

/// A 1000 x 777 transpose through 16 x 16 tiles: block (BROW, BCOL) of a grid of
/// `cdiv(1000, 16)` rows and `cdiv(777, 16)` columns of blocks, launched through the bindings'
/// `GridShape` form on the GPU's stream, and again on a stream of its own.
fn run_transpose(gpu: &Gpu) -> Result<(), String> {
    let kernels = transpose::Kernels::load(gpu)?;
    let (rows, cols) = (1000usize, 777usize);
    let a: Vec<f32> = (0..rows * cols).map(|i| i as f32).collect();
    let mut a_device = gpu.upload(&a, &[rows, cols])?;
    let mut out_device = gpu.zeros::<f32>(&[cols, rows])?;
    let grid = GridShape {
        rows: rows.div_ceil(16) as u32,
        cols: cols.div_ceil(16) as u32,
    };
    let (r, c) = (rows as i32, cols as i32);
    let timing = kernels.transpose_matrix(gpu, grid, r, c, &mut a_device, &mut out_device)?;
    println!(
        "transpose: {rows} x {cols} on a {} x {} grid, kernel {:.3} ms",
        grid.rows, grid.cols, timing.kernel_ms
    );
    let stream = gpu.new_stream()?;
    let mut again = stream.zeros::<f32>(&[cols, rows])?;
    kernels.transpose_matrix_on(&stream, grid, r, c, &mut a_device, &mut again)?;
    for (what, result) in [
        ("on the GPU's stream", gpu.download(&out_device)?),
        ("on a stream", stream.download(&again)?),
    ] {
        for (k, got) in result.iter().enumerate() {
            let (j, i) = (k / rows, k % rows);
            if *got != a[i * cols + j] {
                return Err(format!(
                    "transpose {what}: out[{j}, {i}] = {got}, expected {}",
                    a[i * cols + j]
                ));
            }
        }
    }
    println!("transpose: both launches match the reference");
    Ok(())
}

/// A `Range` (`loom_runtime::Range`) and a record (the bindings' `#[repr(C)]` struct
/// `Affine`, whose layout the bindings assert when they compile) passed by value: `y = scale *
/// x + shift`, and each block's `c` is `bias` plus the sum of `k` over the window plus its
/// length.
fn run_record_params(gpu: &Gpu) -> Result<(), String> {
    let kernels = record_params::Kernels::load(gpu)?;
    let n = 1000usize;
    let x: Vec<f32> = (0..n).map(|i| (i % 10) as f32).collect();
    let k: Vec<i32> = (0..n).map(|i| (i % 7) as i32 - 3).collect();
    let mut x_device = gpu.upload(&x, &[n])?;
    let mut k_device = gpu.upload(&k, &[n])?;
    let mut y_device = gpu.zeros::<f32>(&[n])?;
    let blocks = n.div_ceil(256);
    let mut c_device = gpu.zeros::<i64>(&[blocks])?;
    let window = loom_runtime::Range { start: 5, end: 905 };
    let f = record_params::Affine {
        scale: 2.0,
        shift: 0.5,
        on: true,
        bias: 1 << 40,
    };
    kernels.window(
        gpu,
        blocks as u32,
        n as i32,
        window,
        f,
        &mut x_device,
        &mut k_device,
        &mut y_device,
        &mut c_device,
    )?;
    let (y, c) = (gpu.download(&y_device)?, gpu.download(&c_device)?);
    for (i, (got, x)) in y.iter().zip(&x).enumerate() {
        if *got != 2.0 * x + 0.5 {
            return Err(format!(
                "record params: y[{i}] = {got}, expected {}",
                2.0 * x + 0.5
            ));
        }
    }
    let window_sum: i64 = k[5..905].iter().map(|v| i64::from(*v)).sum();
    let expected = (1i64 << 40) + window_sum + 900;
    if let Some(got) = c.iter().find(|c| **c != expected) {
        return Err(format!("record params: c = {got}, expected {expected}"));
    }
    println!("record params: a Range and a record by value match the reference");
    Ok(())
}

#[cfg(test)]
mod tests {
    /// Runs both kernels on a GPU when there is one; says it skipped otherwise.
    #[test]
    fn runs_on_a_gpu_or_says_it_skipped() {
        match super::run() {
            Ok(super::Ran::OnGpu) => {}
            Ok(super::Ran::Skipped(why)) => {
                eprintln!("SKIPPED runs_on_a_gpu_or_says_it_skipped: {why}")
            }
            Err(e) => panic!("{e}"),
        }
    }
}
