//! scripts/bench-static: LOOM's code against the CUDA references of `bench/cuda/`, without a
//! GPU, side by side in one run: compile time (`loomc --emit=ptx` against `nvcc --ptx`, the
//! median of several runs of each process), ptxas' registers, spills and shared memory, and the
//! SASS instruction counts (total, and in the longest loop) of both, assembled by the same ptxas.
//! A third column: clang 19 on the CUB-free sources of `bench/cuda/clang/` (hand-written warp
//! shuffles and one shared stage), the peer LOOM's code is held to (issue 14); skipped, saying
//! so, where clang 19 is not installed.
//!
//! Not a test: `scripts/bench-static [--save]` runs it (`cargo bench --bench static_compare`).
//! Environment: `LOOMC` (the loomc to time), `LOOM_NVCC`, `LOOM_CUOBJDUMP` (`.tools/env`),
//! `LOOM_CLANG` (optional: the clang 19 to use; else `clang-19` on the `PATH`).

#[path = "common/cuda_twins.rs"]
mod cuda_twins;
#[path = "common/machine.rs"]
mod machine;
#[path = "common/manifest.rs"]
mod manifest;

use cuda_twins::CLANG_FLAGS;
use loomc::target::sass::{count_sass, parse_ptxas_report, KernelResources, SassCounts};
use manifest::{Bench, BENCHES, BLOCK};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

const ARCH: &str = "sm_80";
const LOOMC_RUNS: usize = 11;
const NVCC_RUNS: usize = 5;
const CLANG_RUNS: usize = 5;
/// The notes below this line in a saved results file are kept when it is written again.
const NOTES_MARKER: &str = "<!-- notes: kept by scripts/bench-static -->";

struct Tools {
    loomc: PathBuf,
    nvcc: PathBuf,
    /// CUDA 13's ptxas, beside nvcc: it assembles both sides (LOOM's PTX 7.8 and nvcc's 9.x).
    ptxas: PathBuf,
    cuobjdump: PathBuf,
    cccl: PathBuf,
    /// clang 19, when installed.
    clang: Option<PathBuf>,
}

struct Side {
    compile_ms: f64,
    resources: KernelResources,
    sass: SassCounts,
}

struct Row<'a> {
    bench: &'a Bench,
    loom: Side,
    cuda: Side,
    clang: Option<Side>,
}

fn main() {
    if let Err(message) = run() {
        eprintln!("bench-static: {message}");
        std::process::exit(1);
    }
}

fn env_path(name: &str) -> Result<PathBuf, String> {
    std::env::var_os(name)
        .map(PathBuf::from)
        .filter(|p| p.is_file())
        .ok_or(format!(
            "{name} is unset or names no file (source .tools/env)"
        ))
}

fn run() -> Result<(), String> {
    let save = std::env::args().skip_while(|a| a != "--save").nth(1);
    let nvcc = env_path("LOOM_NVCC")?;
    let bin = nvcc.parent().ok_or("LOOM_NVCC has no folder")?;
    let tools = Tools {
        loomc: env_path("LOOMC")?,
        ptxas: bin.join("ptxas"),
        cccl: bin.join("../include/cccl"),
        cuobjdump: env_path("LOOM_CUOBJDUMP")?,
        nvcc,
        clang: find_clang(),
    };
    if tools.clang.is_none() {
        eprintln!(
            "bench-static: clang 19 is not installed (`clang-19` on the PATH or LOOM_CLANG; \
             scripts/setup installs it): the clang column is skipped"
        );
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let work = tempfile::tempdir().map_err(|e| e.to_string())?;
    let mut rows = Vec::new();
    for bench in BENCHES {
        eprintln!("bench-static: {}", bench.title);
        let loom_ptx = work.path().join(format!("{}.loom.ptx", bench.file));
        let cuda_ptx = work.path().join(format!("{}.cuda.ptx", bench.file));
        let loom_source = root.join(format!("bench/kernels/{}.loom", bench.file));
        let cuda_source = root.join(format!("bench/cuda/{}.cu", bench.file));
        let block = format!("--block-size={BLOCK}");
        let arch = format!("--arch={ARCH}");
        let mut loomc = Command::new(&tools.loomc);
        loomc
            .arg(&loom_source)
            .args(["--emit=ptx", &block, &arch, "-o"])
            .arg(&loom_ptx);
        let mut nvcc = Command::new(&tools.nvcc);
        nvcc.arg(format!("-arch={ARCH}"))
            .args(["--ptx", "-fmad=false", "-I"])
            .arg(&tools.cccl)
            .arg(&cuda_source)
            .arg("-o")
            .arg(&cuda_ptx);
        let loom = measure(
            &tools,
            &mut loomc,
            LOOMC_RUNS,
            &loom_ptx,
            bench,
            work.path(),
        )?;
        let cuda = measure(&tools, &mut nvcc, NVCC_RUNS, &cuda_ptx, bench, work.path())?;
        let clang = match &tools.clang {
            Some(clang_path) => {
                let clang_ptx = work.path().join(format!("{}.clang.ptx", bench.file));
                let twin = root.join(format!("bench/cuda/clang/{}.cu", bench.file));
                let mut clang = cuda_twins::clang_command(
                    clang_path,
                    &twin,
                    &clang_ptx,
                    cuda_twins::libdevice(&root).as_deref(),
                )?;
                Some(measure(
                    &tools,
                    &mut clang,
                    CLANG_RUNS,
                    &clang_ptx,
                    bench,
                    work.path(),
                )?)
            }
            None => None,
        };
        rows.push(Row {
            bench,
            loom,
            cuda,
            clang,
        });
    }
    let table = render(&rows);
    println!("{table}");
    if let Some(path) = save {
        let notes = std::fs::read_to_string(&path)
            .ok()
            .and_then(|old| {
                old.split_once(NOTES_MARKER)
                    .map(|(_, notes)| notes.to_string())
            })
            .unwrap_or_else(|| "\n".to_string());
        let text = format!(
            "{}\n{table}\n{NOTES_MARKER}{notes}",
            header(tools.clang.is_some())
        );
        std::fs::write(&path, text).map_err(|e| format!("{path}: {e}"))?;
        eprintln!("bench-static: written to {path}");
    }
    Ok(())
}

/// `LOOM_CLANG`, else `clang-19` on the `PATH`, if it runs.
fn find_clang() -> Option<PathBuf> {
    let clang = std::env::var_os("LOOM_CLANG")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("clang-19"));
    let runs = Command::new(&clang)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    runs.then_some(clang)
}

fn header(with_clang: bool) -> String {
    let date = machine::today();
    let clang = if with_clang {
        format!(
            "- *K*: clang 19 (`clang-19 {}`) on the CUB-free sources of `bench/cuda/clang/` (warp \
             shuffles and one shared stage, written by hand), assembled by the same ptxas. \
             Targets (issue 14): SASS at most clang's, registers at most clang's + 10%, no spills.\n",
            CLANG_FLAGS.join(" ")
        )
    } else {
        "- *K*: clang 19 was not installed: its columns are `-`.\n".to_string()
    };
    format!(
        "# bench-static: LOOM against nvcc + CUB and clang, {date}\n\n\
         Date: {date}. Device: none (static only: no kernel runs; ptxas and cuobjdump read the \
         PTX). Machine: {}. `{ARCH}`, {BLOCK} threads per block. \
         Written by `scripts/bench-static --save`; every number below was measured in that one run.\n\n\
         - compile: `loomc --emit=ptx` (release) against `nvcc -arch={ARCH} --ptx -fmad=false` on the \
         reference (and clang's compile, K), wall time of the whole process, median of {LOOMC_RUNS}, \
         {NVCC_RUNS} and {CLANG_RUNS} runs.\n\
         - registers, spills (stores + loads, bytes), shared memory (bytes): `ptxas -v` of CUDA 13.5 on \
         every PTX file.\n\
         - L: LOOM; C: nvcc + CUB on `bench/cuda/*.cu`; K: clang (below).\n\
         - SASS: `cuobjdump -sass` of those cubins; instructions without the NOP padding and the final \
         self-branch; *loop*: the instructions of the longest loop (a backward branch's target to the \
         branch), `-` where there is none.\n\
         - targets (issue #6): compile at least 20 times faster; registers at most the reference's + 10%; \
         no spills; SASS at most 1.15 times the reference's.\n{clang}",
        machine::description()
    )
}

/// Compiles `runs` times (the median wall time), then assembles and disassembles the result.
fn measure(
    tools: &Tools,
    compile: &mut Command,
    runs: usize,
    ptx: &Path,
    bench: &Bench,
    work: &Path,
) -> Result<Side, String> {
    let mut times = Vec::new();
    for _ in 0..runs {
        let start = Instant::now();
        let output = compile.output().map_err(|e| format!("{compile:?}: {e}"))?;
        times.push(start.elapsed().as_secs_f64() * 1e3);
        if !output.status.success() {
            return Err(format!(
                "{compile:?} failed:\n{}",
                String::from_utf8_lossy(&output.stderr)
            ));
        }
    }
    times.sort_by(f64::total_cmp);
    let cubin = ptx.with_extension("cubin");
    let assembled = Command::new(&tools.ptxas)
        .arg(format!("-arch={ARCH}"))
        .arg("-v")
        .arg(ptx)
        .arg("-o")
        .arg(&cubin)
        .current_dir(work)
        .output()
        .map_err(|e| format!("ptxas: {e}"))?;
    let report = String::from_utf8_lossy(&assembled.stderr);
    if !assembled.status.success() {
        return Err(format!("ptxas {}: {report}", ptx.display()));
    }
    let resources = parse_ptxas_report(&report)
        .into_iter()
        .find(|k| k.name == bench.kernel)
        .ok_or(format!(
            "ptxas reported no kernel {}: {report}",
            bench.kernel
        ))?;
    let dump = Command::new(&tools.cuobjdump)
        .arg("-sass")
        .arg(&cubin)
        .output()
        .map_err(|e| format!("cuobjdump: {e}"))?;
    let sass = count_sass(&String::from_utf8_lossy(&dump.stdout))
        .into_iter()
        .find(|f| f.name == bench.kernel)
        .ok_or(format!("no SASS for {}", bench.kernel))?;
    Ok(Side {
        compile_ms: times[times.len() / 2],
        resources,
        sass,
    })
}

fn render(rows: &[Row<'_>]) -> String {
    let mut out = String::from(
        "| kernel | loomc ms | nvcc ms | clang ms | faster (nvcc) | registers L / C / K | spills L / C / K | shared L / C / K | SASS L / C / K | L / C | L / K | loop L / C / K | targets missed (nvcc, #6) | targets missed (clang, #14) |\n\
         | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |\n",
    );
    for Row {
        bench,
        loom,
        cuda,
        clang,
    } in rows
    {
        let speedup = cuda.compile_ms / loom.compile_ms;
        let ratio = loom.sass.total as f64 / cuda.sass.total as f64;
        let mut missed = Vec::new();
        if speedup < 20.0 {
            missed.push(format!("compile {speedup:.1}x < 20x"));
        }
        missed.extend(resource_misses(loom, cuda));
        if ratio > 1.15 {
            missed.push(format!("SASS {ratio:.2}x > 1.15x"));
        }
        let dash = || "-".to_string();
        let clang_ratio = clang
            .as_ref()
            .map(|k| loom.sass.total as f64 / k.sass.total as f64);
        let clang_missed = clang.as_ref().map_or_else(dash, |k| {
            let mut missed = resource_misses(loom, k);
            if loom.sass.total > k.sass.total {
                missed.push(format!("SASS {} > {}", loom.sass.total, k.sass.total));
            }
            listed(missed)
        });
        let three = |f: &dyn Fn(&Side) -> String| {
            format!(
                "{} / {} / {}",
                f(loom),
                f(cuda),
                clang.as_ref().map_or_else(dash, f)
            )
        };
        let looped = |s: &Side| s.sass.main_loop.map_or_else(dash, |n| n.to_string());
        out.push_str(&format!(
            "| {} | {:.1} | {:.1} | {} | {speedup:.1}x | {} | {} | {} | {} | {ratio:.2} | {} | {} | {} | {clang_missed} |\n",
            bench.title,
            loom.compile_ms,
            cuda.compile_ms,
            clang
                .as_ref()
                .map_or_else(dash, |k| format!("{:.1}", k.compile_ms)),
            three(&|s| s.resources.registers.to_string()),
            three(&|s| spills(s).to_string()),
            three(&|s| s.resources.shared_bytes.to_string()),
            three(&|s| s.sass.total.to_string()),
            clang_ratio.map_or_else(dash, |r| format!("{r:.2}")),
            three(&looped),
            listed(missed),
        ));
    }
    out
}

fn spills(s: &Side) -> u64 {
    u64::from(s.resources.spill_stores) + u64::from(s.resources.spill_loads)
}

/// The register and spill targets against one peer: registers at most the peer's + 10%, none
/// spilled.
fn resource_misses(loom: &Side, peer: &Side) -> Vec<String> {
    let mut missed = Vec::new();
    if f64::from(loom.resources.registers) > 1.10 * f64::from(peer.resources.registers) {
        missed.push(format!(
            "registers {} > {:.1}",
            loom.resources.registers,
            1.10 * f64::from(peer.resources.registers)
        ));
    }
    if spills(loom) > 0 {
        missed.push("spills".to_string());
    }
    missed
}

fn listed(missed: Vec<String>) -> String {
    if missed.is_empty() {
        "none".to_string()
    } else {
        missed.join("; ")
    }
}
