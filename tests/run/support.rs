//! What every execution test needs: compile a LOOM file for the CPU backend, random inputs,
//! arrays as bytes, and comparisons with a stated tolerance.

use loomc::diagnostics::SourceFiles;
use loomc::driver::{self, Emit, Options};
use loomc::target::host::{HostArg, HostOptions, HostProgram, LaunchShape, RunError};
use loomc::target::Libdevice;
use loomc::target::OptLevel;
use std::path::Path;

pub fn repo_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The optimised NVPTX IR of `file` (relative to the repository), for sm_80.
pub fn nvptx_ir(file: &str, block_size: u32, opt: OptLevel) -> Result<String, String> {
    nvptx_ir_for(file, block_size, opt, "sm_80")
}

/// The optimised NVPTX IR of `file` for the architecture `arch`.
pub fn nvptx_ir_for(
    file: &str,
    block_size: u32,
    opt: OptLevel,
    arch: &str,
) -> Result<String, String> {
    let source =
        std::fs::read_to_string(repo_root().join(file)).map_err(|e| format!("{file}: {e}"))?;
    let options = Options {
        emit: vec![Emit::Llvm],
        opt,
        arch: arch.to_string(),
        block_size,
        // libdevice's bodies are PTX; the CPU backend binds `__nv_*` to host math instead.
        libdevice: Libdevice::Declare,
        ..Options::default()
    };
    let mut files = SourceFiles::default();
    let compilation = driver::compile(&mut files, file, &source, &options);
    let messages: Vec<String> = compilation
        .diagnostics
        .iter()
        .map(|d| format!("[{}] {}", d.code, d.message))
        .collect();
    let outputs = compilation
        .outputs
        .ok_or_else(|| format!("{file} does not compile: {}", messages.join("; ")))?;
    outputs
        .into_iter()
        .find(|(emit, _)| *emit == Emit::Llvm)
        .map(|(_, ir)| ir)
        .ok_or_else(|| "no LLVM IR".to_string())
}

pub fn compile(
    file: &str,
    block_size: u32,
    opt: OptLevel,
    sanitize: bool,
) -> Result<HostProgram, String> {
    compile_with(
        file,
        block_size,
        opt,
        &HostOptions {
            sanitize,
            ..HostOptions::default()
        },
    )
}

pub fn compile_with(
    file: &str,
    block_size: u32,
    opt: OptLevel,
    options: &HostOptions,
) -> Result<HostProgram, String> {
    let ir = nvptx_ir(file, block_size, opt)?;
    HostProgram::compile(&ir, options).map_err(|e| format!("{file}: {e}"))
}

/// One launch of a case: a build, the size `n`, the seed its inputs are drawn from; the bytes it
/// checks.
pub type LaunchAt<'a> = dyn Fn(&HostProgram, usize, u64) -> Result<Vec<u8>, String> + 'a;

/// Which of a case's block sizes also run the slower, faithful builds in
/// `same_bits_in_every_build`: a third of them, a different third for each case (chosen by its
/// label), and all of a case with fewer than three. Every case and every block size keeps
/// some, and the suite's time goes to the fast builds `loomc run` uses. `LOOM_RUN_FAITHFUL=1`
/// runs them at every block size.
pub fn faithful_sample(label: &str, block_sizes: &[u32], bs: u32) -> bool {
    if block_sizes.len() < 3 || std::env::var_os("LOOM_RUN_FAITHFUL").is_some() {
        return true;
    }
    // FNV-1a: stable from run to run, unlike the standard library's hasher.
    let hash = label.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    let at = block_sizes.iter().position(|&s| s == bs).unwrap_or(0) as u64;
    (hash.wrapping_add(at)) % 3 == 0
}

/// Runs `file`'s kernel at every size of `sizes` (size `i` drawing its inputs from seed
/// `0x5eed ^ (bs << 32) ^ i`, the same in every build) compiled at `-O0` and at `-O3`, the fast
/// builds `loomc run` uses; with `faithful`, also where it runs as compiled threads (loops over
/// a block's threads, compiled coroutines) at `-O3` with a call (and a stack) per thread, and
/// where a kernel that synchronises is cut into loops over its threads, at `-O3` with compiled
/// coroutines instead: every build must give the same bits. `run` launches one build at one
/// size and returns the bytes it checks; `label` names the case in failures.
pub fn same_bits_in_every_build(
    label: &str,
    file: &str,
    bs: u32,
    faithful: bool,
    sizes: &[usize],
    run: &LaunchAt<'_>,
) -> Result<(), String> {
    let compile = |opt, options: &HostOptions| {
        compile_with(file, bs, opt, options).map_err(|e| format!("{label}: {e}"))
    };
    let o0 = compile(OptLevel::O0, &HostOptions::default())?;
    let o3 = compile(OptLevel::O3, &HostOptions::default())?;
    let per_thread = match faithful && (o3.has_thread_loops() || o3.has_compiled_coroutines()) {
        true => Some(compile(
            OptLevel::O3,
            &HostOptions {
                per_thread_calls: true,
                ..HostOptions::default()
            },
        )?),
        false => None,
    };
    // Where a kernel that synchronises runs cut into loops over its threads (`host/cut.rs`),
    // its compiled coroutines too.
    let coroutines = match faithful && !o3.cut_kernels().is_empty() {
        true => Some(compile(
            OptLevel::O3,
            &HostOptions {
                no_cut: true,
                ..HostOptions::default()
            },
        )?),
        false => None,
    };
    for (i, &n) in sizes.iter().enumerate() {
        let seed = 0x5eed ^ ((bs as u64) << 32) ^ i as u64;
        let at = |opt: &str, e: String| format!("{label} at -{opt}, n = {n}, block size {bs}: {e}");
        let bits0 = run(&o0, n, seed).map_err(|e| at("O0", e))?;
        let bits3 = run(&o3, n, seed).map_err(|e| at("O3", e))?;
        if bits0 != bits3 {
            return Err(at("O0 and -O3", "the results differ".to_string()));
        }
        if let Some(per_thread) = &per_thread {
            let bits = run(per_thread, n, seed).map_err(|e| at("O3 (a call per thread)", e))?;
            if bits != bits3 {
                return Err(at(
                    "O3",
                    "compiled threads and a call per thread give different results".to_string(),
                ));
            }
        }
        if let Some(coroutines) = &coroutines {
            let bits = run(coroutines, n, seed).map_err(|e| at("O3 (compiled coroutines)", e))?;
            if bits != bits3 {
                return Err(at(
                    "O3",
                    "the kernel cut at its synchronisations and its compiled coroutines give different results"
                        .to_string(),
                ));
            }
        }
    }
    Ok(())
}

pub fn launch(
    program: &HostProgram,
    kernel: &str,
    blocks: u32,
    args: &mut [HostArg<'_>],
) -> Result<(), RunError> {
    launch_grid(program, kernel, blocks, None, args)
}

/// [`launch`] on a grid of `blocks` blocks in rows of `grid_cols` (a two-dimensional grid) when
/// given.
pub fn launch_grid(
    program: &HostProgram,
    kernel: &str,
    blocks: u32,
    grid_cols: Option<u32>,
    args: &mut [HostArg<'_>],
) -> Result<(), RunError> {
    program.launch(
        kernel,
        &LaunchShape {
            blocks,
            grid_cols,
            block_size: None,
            dynamic_shared_bytes: 0,
            progress: None,
        },
        args,
    )
}

/// A small seeded generator (SplitMix64): the same inputs on every run and at every -O.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in [lo, hi).
    pub fn f32_in(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * ((self.next_u64() >> 40) as f32 / (1u64 << 24) as f32)
    }

    pub fn i32_in(&mut self, lo: i32, hi: i32) -> i32 {
        lo + (self.next_u64() % (hi - lo) as u64) as i32
    }

    pub fn f32s(&mut self, n: usize, lo: f32, hi: f32) -> Vec<f32> {
        (0..n).map(|_| self.f32_in(lo, hi)).collect()
    }

    pub fn i32s(&mut self, n: usize, lo: i32, hi: i32) -> Vec<i32> {
        (0..n).map(|_| self.i32_in(lo, hi)).collect()
    }
}

/// An array argument over `data`, named for sanitizer reports.
pub fn array<'a, T: Copy>(name: &str, data: &'a mut [T]) -> HostArg<'a> {
    let len = std::mem::size_of_val(data);
    // SAFETY: `T` is a plain number type; the bytes alias `data` exclusively for `'a`.
    let bytes = unsafe { std::slice::from_raw_parts_mut(data.as_mut_ptr() as *mut u8, len) };
    HostArg::Array {
        name: name.to_string(),
        data: bytes,
        elem_size: std::mem::size_of::<T>(),
    }
}

/// The bytes of `data`, for comparing runs bit for bit.
pub fn bytes<T: Copy>(data: &[T]) -> Vec<u8> {
    // SAFETY: `T` is a plain number type.
    unsafe { std::slice::from_raw_parts(data.as_ptr() as *const u8, std::mem::size_of_val(data)) }
        .to_vec()
}

/// Floats agree within `rel` of the larger magnitude, or `abs` absolutely (for results near 0).
pub fn close(what: &str, got: &[f64], expected: &[f64], rel: f64, abs: f64) -> Result<(), String> {
    if got.len() != expected.len() {
        return Err(format!(
            "{what}: {} results, expected {}",
            got.len(),
            expected.len()
        ));
    }
    for (i, (g, e)) in got.iter().zip(expected).enumerate() {
        let tolerance = abs.max(rel * g.abs().max(e.abs()));
        if (g - e).is_nan() || (g - e).abs() > tolerance {
            return Err(format!(
                "{what}[{i}] = {g}, expected {e} (tolerance {tolerance:e})"
            ));
        }
    }
    Ok(())
}

pub fn exact<T: PartialEq + std::fmt::Debug>(
    what: &str,
    got: &[T],
    expected: &[T],
) -> Result<(), String> {
    if got.len() != expected.len() {
        return Err(format!(
            "{what}: {} results, expected {}",
            got.len(),
            expected.len()
        ));
    }
    match got.iter().zip(expected).position(|(g, e)| g != e) {
        None => Ok(()),
        Some(i) => Err(format!(
            "{what}[{i}] = {:?}, expected {:?}",
            got[i], expected[i]
        )),
    }
}
