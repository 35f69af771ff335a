//! scripts/bench-gpu's harness: every benchmark of `bench/`, LOOM's kernel and the CUDA
//! reference, run in this one process on the same random inputs, their outputs compared, then
//! timed with CUDA events around each launch (warm-up first, the median of many, input sets
//! rotated so that no launch finds its inputs in L2), against a device-to-device copy measured
//! in the same run. Needs the CUDA driver and the files scripts/bench-gpu builds (no LLVM, no
//! Rust):
//!
//! ```text
//! bench-gpu --dir target/bench-gpu [--elements 67108864] [--runs 50] [--only saxpy] [--out F]
//! ```

mod plan;

use cudarc::driver::{
    CudaContext, CudaFunction, CudaSlice, CudaStream, LaunchConfig, PushKernelArg,
};
use loom_runtime::ModuleMetadata;
use plan::{Arg, Bench, Plan, BENCHES, BLOCK};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Input sets rotated between launches: each buffer of 2^26 elements is already larger than
/// any L2, and the rotation keeps even the small ones (`x` of mul-matr-vec) from staying warm
/// across launches.
const INPUT_SETS: u64 = 3;
const WARMUP: usize = 3;

#[derive(Debug, Clone, PartialEq)]
struct Options {
    dir: PathBuf,
    elements: usize,
    runs: usize,
    only: Option<String>,
    out: Option<PathBuf>,
    /// Check the files and every launch against LOOM's metadata, without a GPU.
    check_only: bool,
}

const USAGE: &str =
    "usage: bench-gpu --dir DIR [--elements N] [--runs N] [--only KERNEL_FILE] [--out FILE.md] [--check-only]";

fn parse_args(args: &[String]) -> Result<Options, String> {
    let mut options = Options {
        dir: PathBuf::new(),
        elements: 1 << 26,
        runs: 50,
        only: None,
        out: None,
        check_only: false,
    };
    let mut dir = None;
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value\n{USAGE}"));
        match flag.as_str() {
            "--dir" => dir = Some(PathBuf::from(value()?)),
            "--elements" => {
                options.elements = value()?.parse().map_err(|e| format!("--elements: {e}"))?
            }
            "--runs" => {
                options.runs = value()?.parse().map_err(|e| format!("--runs: {e}"))?;
                if options.runs == 0 {
                    return Err("--runs must be at least 1".to_string());
                }
            }
            "--only" => {
                let name = value()?.clone();
                if !BENCHES.iter().any(|b| b.file == name) {
                    let known: Vec<&str> = BENCHES.iter().map(|b| b.file).collect();
                    return Err(format!(
                        "--only {name}: benchmarks are {}",
                        known.join(", ")
                    ));
                }
                options.only = Some(name);
            }
            "--out" => options.out = Some(PathBuf::from(value()?)),
            "--check-only" => options.check_only = true,
            "-h" | "--help" => return Err(USAGE.to_string()),
            other => return Err(format!("unknown argument `{other}`\n{USAGE}")),
        }
    }
    options.dir = dir.ok_or(format!("--dir is required\n{USAGE}"))?;
    if options.elements < (1 << 26) {
        eprintln!(
            "bench-gpu: note: {} elements, fewer than the 2^26 the results are quoted for",
            options.elements
        );
    }
    Ok(options)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let options = match parse_args(&args) {
        Ok(options) => options,
        Err(message) => {
            eprintln!("bench-gpu: {message}");
            std::process::exit(2);
        }
    };
    if options.check_only {
        match check_only(&options) {
            Ok(()) => println!(
                "bench-gpu: every launch matches LOOM's metadata and every module is in {}",
                options.dir.display()
            ),
            Err(message) => {
                eprintln!("bench-gpu: {message}");
                std::process::exit(1);
            }
        }
        return;
    }
    if !loom_runtime::driver_present() {
        println!(
            "bench-gpu: no GPU here (the CUDA driver library could not be loaded): nothing was \
             measured. Run scripts/bench-gpu on a machine with an NVIDIA GPU and its driver."
        );
        return;
    }
    if let Err(message) = run(&options) {
        eprintln!("bench-gpu: {message}");
        std::process::exit(1);
    }
}

/// What one benchmark measured.
struct Measured {
    title: &'static str,
    elements: usize,
    loom_ms: f64,
    cuda_ms: f64,
    bytes: f64,
}

fn run(options: &Options) -> Result<(), String> {
    let context = CudaContext::new(0).map_err(|e| format!("cannot open GPU 0: {e}"))?;
    let stream = context.default_stream();
    let device = context.name().unwrap_or_else(|_| "unknown GPU".to_string());
    eprintln!("bench-gpu: {device}");
    let copy_gbs = copy_bandwidth(&context, &stream, options)?;
    let mut rows = Vec::new();
    for bench in BENCHES
        .iter()
        .filter(|b| options.only.as_deref().is_none_or(|o| o == b.file))
    {
        eprintln!("bench-gpu: {}", bench.title);
        rows.push(run_bench(&context, &stream, bench, options)?);
    }
    let table = render(&device, copy_gbs, options, &rows);
    println!("{table}");
    if let Some(out) = &options.out {
        std::fs::write(out, &table).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    Ok(())
}

fn fail(e: cudarc::driver::DriverError) -> String {
    format!("CUDA: {e}")
}

/// GB/s of `cuMemcpyDtoD` over a buffer as large as the benchmarks' inputs (bytes read +
/// bytes written), the median of `runs`.
fn copy_bandwidth(
    context: &Arc<CudaContext>,
    stream: &Arc<CudaStream>,
    options: &Options,
) -> Result<f64, String> {
    let bytes = options.elements * 4;
    let source = stream.alloc_zeros::<u8>(bytes).map_err(fail)?;
    let mut target = stream.alloc_zeros::<u8>(bytes).map_err(fail)?;
    let mut times = Vec::new();
    for i in 0..WARMUP + options.runs {
        let ms = timed(context, stream, || {
            stream.memcpy_dtod(&source, &mut target).map_err(fail)
        })?;
        if i >= WARMUP {
            times.push(ms);
        }
    }
    let ms = plan::median(&mut times);
    Ok(2.0 * bytes as f64 / (ms * 1e-3) / 1e9)
}

/// Milliseconds between two events recorded around `work` on `stream`.
fn timed(
    context: &Arc<CudaContext>,
    stream: &Arc<CudaStream>,
    work: impl FnOnce() -> Result<(), String>,
) -> Result<f32, String> {
    let flags = Some(cudarc::driver::sys::CUevent_flags::CU_EVENT_DEFAULT);
    let start = context.new_event(flags).map_err(fail)?;
    let end = context.new_event(flags).map_err(fail)?;
    start.record(stream).map_err(fail)?;
    work()?;
    end.record(stream).map_err(fail)?;
    end.synchronize().map_err(fail)?;
    start.elapsed_ms(&end).map_err(fail)
}

fn load(context: &Arc<CudaContext>, path: &Path, kernel: &str) -> Result<CudaFunction, String> {
    let image = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let module = context
        .load_module(cudarc::nvrtc::Ptx::from_binary(image))
        .map_err(|e| format!("{}: the driver refused it: {e}", path.display()))?;
    module
        .load_function(kernel)
        .map_err(|e| format!("{}: no kernel {kernel}: {e}", path.display()))
}

fn launch(
    stream: &Arc<CudaStream>,
    function: &CudaFunction,
    plan: &Plan,
    buffers: &[CudaSlice<u8>],
) -> Result<(), String> {
    let mut builder = stream.launch_builder(function);
    for arg in &plan.args {
        match arg {
            Arg::I32(v) => builder.arg(v),
            Arg::F32(v) => builder.arg(v),
            Arg::Buffer(i) => builder.arg(&buffers[*i]),
        };
    }
    let config = LaunchConfig {
        grid_dim: (plan.blocks, 1, 1),
        block_dim: (BLOCK, 1, 1),
        shared_mem_bytes: 0,
    };
    // SAFETY: the arguments follow the kernel's parameters: LOOM's were checked against its
    // metadata, and the CUDA reference has the same signature (bench/cuda/).
    unsafe { builder.launch(config) }.map_err(fail)?;
    Ok(())
}

/// Device buffers for input set `set` (outputs zeroed).
fn upload(stream: &Arc<CudaStream>, plan: &Plan, set: u64) -> Result<Vec<CudaSlice<u8>>, String> {
    plan.buffers
        .iter()
        .enumerate()
        .map(|(i, buffer)| match buffer.input {
            Some(_) => stream
                .clone_htod(&plan::random_bytes(buffer, set * 16 + i as u64))
                .map_err(fail),
            None => stream.alloc_zeros::<u8>(buffer.bytes()).map_err(fail),
        })
        .collect()
}

/// The plan of `bench`, its arguments checked against LOOM's metadata, and its module files.
fn prepare(bench: &Bench, options: &Options) -> Result<(Plan, PathBuf, PathBuf), String> {
    let plan = plan::plan(bench, options.elements)?;
    let file = |suffix: &str| options.dir.join(format!("{}.{suffix}", bench.file));
    let metadata = std::fs::read_to_string(file("loom.json"))
        .map_err(|e| format!("{}: {e}", file("loom.json").display()))?;
    let metadata = ModuleMetadata::from_json(&metadata)?;
    loom_runtime::args::check(
        metadata.kernel(bench.kernel)?,
        plan.blocks,
        &plan::shapes(&plan),
    )
    .map_err(|e| format!("{}: {e}", bench.title))?;
    if metadata.kernel(bench.kernel)?.block_size != BLOCK {
        return Err(format!("{}: LOOM's block size is not {BLOCK}", bench.title));
    }
    let (loom, cuda) = (file("loom.cubin"), file("cuda.cubin"));
    for path in [&loom, &cuda] {
        if !path.is_file() {
            return Err(format!(
                "{} is missing: run scripts/bench-gpu",
                path.display()
            ));
        }
    }
    Ok((plan, loom, cuda))
}

fn check_only(options: &Options) -> Result<(), String> {
    for bench in BENCHES
        .iter()
        .filter(|b| options.only.as_deref().is_none_or(|o| o == b.file))
    {
        prepare(bench, options)?;
    }
    Ok(())
}

fn run_bench(
    context: &Arc<CudaContext>,
    stream: &Arc<CudaStream>,
    bench: &Bench,
    options: &Options,
) -> Result<Measured, String> {
    let (plan, loom_file, cuda_file) = prepare(bench, options)?;
    let loom = load(context, &loom_file, bench.kernel)?;
    let cuda = load(context, &cuda_file, bench.kernel)?;

    // The same inputs for both, then every checked output compared.
    let mut outputs = Vec::new();
    for function in [&loom, &cuda] {
        let buffers = upload(stream, &plan, 0)?;
        launch(stream, function, &plan, &buffers)?;
        stream.synchronize().map_err(fail)?;
        let mut checked = Vec::new();
        for (i, buffer) in plan.buffers.iter().enumerate() {
            if buffer.check.is_some() {
                checked.push(stream.clone_dtoh(&buffers[i]).map_err(fail)?);
            }
        }
        outputs.push(checked);
    }
    let checked = plan
        .buffers
        .iter()
        .filter_map(|b| b.check.map(|t| (b.elem, t)));
    for ((elem, tolerance), (l, c)) in checked.zip(outputs[0].iter().zip(&outputs[1])) {
        if let Some((index, a, b)) = plan::first_difference(elem, l, c, tolerance) {
            return Err(format!(
                "{}: LOOM and CUDA differ at element {index}: {a} against {b}",
                bench.title
            ));
        }
    }

    // Timing: launches alternate between LOOM and CUDA, each on the next input set.
    let sets: Vec<Vec<CudaSlice<u8>>> = (0..INPUT_SETS)
        .map(|set| upload(stream, &plan, set))
        .collect::<Result<_, _>>()?;
    let (mut loom_times, mut cuda_times) = (Vec::new(), Vec::new());
    for i in 0..WARMUP + options.runs {
        for (function, times) in [(&loom, &mut loom_times), (&cuda, &mut cuda_times)] {
            let buffers = &sets[i % sets.len()];
            let ms = timed(context, stream, || launch(stream, function, &plan, buffers))?;
            if i >= WARMUP {
                times.push(ms);
            }
        }
    }
    Ok(Measured {
        title: bench.title,
        elements: plan
            .buffers
            .iter()
            .map(plan::Buffer::len)
            .max()
            .unwrap_or(0),
        loom_ms: plan::median(&mut loom_times),
        cuda_ms: plan::median(&mut cuda_times),
        bytes: plan.bytes,
    })
}

fn render(device: &str, copy_gbs: f64, options: &Options, rows: &[Measured]) -> String {
    let mut out = format!(
        "Device: {device}. Device-to-device copy: {copy_gbs:.0} GB/s (read + write). Median of \
         {} launches after {WARMUP} warm-up, {INPUT_SETS} input sets rotated, {BLOCK} threads \
         per block; outputs of LOOM and CUDA compared before timing.\n\n\
         | kernel | elements | LOOM ms | CUDA ms | LOOM GB/s | CUDA GB/s | LOOM / copy | CUDA / copy | LOOM / CUDA time |\n\
         | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n",
        options.runs
    );
    for r in rows {
        let gbs = |ms: f64| r.bytes / (ms * 1e-3) / 1e9;
        out.push_str(&format!(
            "| {} | {} | {:.4} | {:.4} | {:.0} | {:.0} | {:.0}% | {:.0}% | {:.2} |\n",
            r.title,
            r.elements,
            r.loom_ms,
            r.cuda_ms,
            gbs(r.loom_ms),
            gbs(r.cuda_ms),
            100.0 * gbs(r.loom_ms) / copy_gbs,
            100.0 * gbs(r.cuda_ms) / copy_gbs,
            r.loom_ms / r.cuda_ms
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn arguments() {
        let options = parse_args(&args(&["--dir", "d", "--runs", "7", "--only", "saxpy"])).unwrap();
        assert_eq!(options.dir, PathBuf::from("d"));
        assert_eq!(options.runs, 7);
        assert_eq!(options.elements, 1 << 26);
        assert_eq!(options.only.as_deref(), Some("saxpy"));
        assert!(parse_args(&args(&[])).unwrap_err().contains("--dir"));
        assert!(parse_args(&args(&["--dir", "d", "--runs", "0"])).is_err());
        assert!(parse_args(&args(&["--dir", "d", "--only", "nope"])).is_err());
        assert!(parse_args(&args(&["--dir"])).is_err());
        assert!(parse_args(&args(&["--dir", "d", "--bogus"])).is_err());
    }

    #[test]
    fn table_reports_bandwidth_fraction_and_ratio() {
        let options = parse_args(&args(&["--dir", "d"])).unwrap();
        let rows = [Measured {
            title: "saxpy",
            elements: 1 << 26,
            loom_ms: 1.0,
            cuda_ms: 0.8,
            bytes: 2e9,
        }];
        let table = render("Test GPU", 4000.0, &options, &rows);
        // 2e9 bytes in 1 ms is 2000 GB/s, half the copy's 4000.
        assert!(
            table.contains(
                "| saxpy | 67108864 | 1.0000 | 0.8000 | 2000 | 2500 | 50% | 62% | 1.25 |"
            ),
            "{table}"
        );
    }
}
