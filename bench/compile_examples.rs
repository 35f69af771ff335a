//! scripts/bench-compile's second part: each example's whole-process compile time to PTX, beside
//! clang 19 and NVRTC compiling the same algorithm in CUDA on the same run.
//!
//! The programs: the benchmark kernels (`bench/kernels/*.loom`, whose CUB-free CUDA twins are
//! `bench/cuda/clang/*.cu`) and the examples (`examples/*.loom`, whose twins are there too, by
//! the example's name; the grid-wide ones share `grid_lookback.h`). Every tool is timed as a process from start to exit, PTX written to a file, which is
//! what a build system pays: loomc at its default `-O3` with the kernel verifier; clang with
//! bench-static's flags; NVRTC through `bench/nvrtc/nvrtc_ptx.c`, a small program that loads
//! libnvrtc, compiles and writes the PTX (NVRTC is a library: this is what a program using it
//! pays). Runs interleave the tools so that a busy machine slows all of them alike; the table
//! gives the median and the fastest of them.
//!
//! Not a test: `scripts/bench-compile [--save]` runs it (`cargo bench --bench compile_examples`).
//! Environment: `LOOMC` (the loomc to time), `LOOM_CLANG` (default `/usr/lib/llvm-19/bin/clang`),
//! `LOOM_NVRTC` (libnvrtc.so, set by scripts/setup's `.tools/env`), `LOOM_BENCH_RUNS` (default
//! 21), `LOOMC_BEFORE` (optional: an earlier loomc, timed in turn with the others, for a change's
//! before and after on one run). A column whose tool is missing is empty, and the run says so.

#[path = "common/cuda_twins.rs"]
mod cuda_twins;
#[path = "common/machine.rs"]
mod machine;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// The benchmark kernels' block size (`bench/common/manifest.rs`' BLOCK).
const BENCH_BLOCK: &str = "256";

struct Program {
    name: String,
    loom: PathBuf,
    /// `--block-size` for loomc, where the program does not say it.
    block_size: Option<&'static str>,
    twin: Option<PathBuf>,
}

/// The times of one tool on one program, in milliseconds.
#[derive(Default)]
struct Times(Vec<f64>);

impl Times {
    fn median(&self) -> f64 {
        let mut sorted = self.0.clone();
        sorted.sort_by(f64::total_cmp);
        sorted.get(sorted.len() / 2).copied().unwrap_or(f64::NAN)
    }

    fn fastest(&self) -> f64 {
        self.0.iter().copied().reduce(f64::min).unwrap_or(f64::NAN)
    }
}

struct Tools {
    loomc: PathBuf,
    clang: Option<PathBuf>,
    /// The compiled `nvrtc_ptx` driver and the library it loads.
    nvrtc: Option<(PathBuf, PathBuf)>,
    /// `LOOMC_BEFORE`: an earlier loomc to compare with.
    before: Option<PathBuf>,
    /// libdevice.10.bc, which clang links into a twin that calls its functions (`__nv_expf`),
    /// as loomc and NVRTC link them: `LOOM_LIBDEVICE`, else scripts/setup's copy.
    libdevice: Option<PathBuf>,
}

fn main() {
    if let Err(message) = run() {
        eprintln!("bench-compile: {message}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), String> {
    let save = std::env::args().skip_while(|a| a != "--save").nth(1);
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let runs: usize = std::env::var("LOOM_BENCH_RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(21);
    let work = tempfile::tempdir().map_err(|e| e.to_string())?;
    let tools = find_tools(&root, work.path())?;
    let programs = programs(&root)?;
    let mut rows = Vec::new();
    for program in &programs {
        eprintln!("bench-compile: {}", program.name);
        let out = work.path().join("out.ptx");
        let mut loomc = Command::new(&tools.loomc);
        loomc.arg(&program.loom).arg("-o").arg(&out);
        if let Some(bs) = program.block_size {
            loomc.args(["--block-size", bs]);
        }
        let clang = match (&tools.clang, &program.twin) {
            (Some(clang), Some(twin)) => {
                match cuda_twins::clang_command(clang, twin, &out, tools.libdevice.as_deref()) {
                    Ok(command) => Some(command),
                    Err(message) => {
                        eprintln!("bench-compile: {message}: no clang time");
                        None
                    }
                }
            }
            _ => None,
        };
        let nvrtc = match (&tools.nvrtc, &program.twin) {
            (Some((driver, library)), Some(twin)) => {
                Some(cuda_twins::nvrtc_command(driver, library, twin, &out))
            }
            _ => None,
        };
        let before = tools.before.as_ref().map(|before| {
            let mut c = Command::new(before);
            c.args(loomc.get_args());
            c
        });
        let mut commands: Vec<Option<Command>> = vec![Some(loomc), clang, nvrtc, before];
        let mut times: Vec<Times> = (0..commands.len()).map(|_| Times::default()).collect();
        // One untimed run of each, so that reading it from disk is not counted.
        for command in commands.iter_mut().flatten() {
            timed(command)?;
        }
        for _ in 0..runs {
            for (command, times) in commands.iter_mut().zip(&mut times) {
                if let Some(command) = command {
                    times.0.push(timed(command)?);
                }
            }
        }
        rows.push((program.name.clone(), times));
    }
    let start = process_start(&tools.loomc, runs)?;
    let start_before = tools.before.as_ref().map(|b| process_start(b, runs));
    let table = render(&rows, &start, start_before.transpose()?.as_ref());
    println!("{table}");
    if let Some(path) = save {
        std::fs::write(&path, format!("{}\n{table}", header(runs)))
            .map_err(|e| format!("{path}: {e}"))?;
        eprintln!("bench-compile: written to {path}");
    }
    Ok(())
}

fn find_tools(root: &Path, work: &Path) -> Result<Tools, String> {
    let loomc = std::env::var_os("LOOMC")
        .map(PathBuf::from)
        .filter(|p| p.is_file())
        .ok_or("LOOMC is unset or names no file")?;
    let clang = std::env::var_os("LOOM_CLANG")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/lib/llvm-19/bin/clang"));
    let clang = clang.is_file().then_some(clang);
    if clang.is_none() {
        eprintln!("bench-compile: no clang 19 (scripts/setup installs it): its column is empty");
    }
    let nvrtc = match std::env::var_os("LOOM_NVRTC").map(PathBuf::from) {
        Some(library) if library.is_file() => {
            Some((cuda_twins::build_nvrtc_driver(root, work)?, library))
        }
        _ => {
            eprintln!(
                "bench-compile: LOOM_NVRTC names no libnvrtc (scripts/setup installs it): \
                 NVRTC's column is empty"
            );
            None
        }
    };
    let before = std::env::var_os("LOOMC_BEFORE").map(PathBuf::from);
    if let Some(before) = before.as_ref().filter(|p| !p.is_file()) {
        return Err(format!("LOOMC_BEFORE names no file: {}", before.display()));
    }
    Ok(Tools {
        loomc: fresh_copy(&loomc, &work.join("loomc"))?,
        clang,
        nvrtc,
        before: before
            .map(|b| fresh_copy(&b, &work.join("loomc-before")))
            .transpose()?,
        libdevice: cuda_twins::libdevice(root),
    })
}

/// The benchmark kernels, then the examples; each with its CUDA twin where one exists.
fn programs(root: &Path) -> Result<Vec<Program>, String> {
    let mut programs = Vec::new();
    for (dir, block_size) in [("bench/kernels", Some(BENCH_BLOCK)), ("examples", None)] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
            .map_err(|e| format!("{dir}: {e}"))?
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "loom"))
            .collect();
        files.sort();
        for loom in files {
            let stem = loom.file_stem().unwrap_or_default().to_string_lossy();
            programs.push(Program {
                name: format!("{dir}/{stem}"),
                twin: cuda_twins::twin_of(root, &stem),
                block_size,
                loom,
            });
        }
    }
    Ok(programs)
}

/// loomc's start and exit with nothing to compile (`--version`): the floor under every row.
fn process_start(loomc: &Path, runs: usize) -> Result<Times, String> {
    let mut times = Times::default();
    let mut version = Command::new(loomc);
    version.arg("--version");
    timed(&mut version)?;
    for _ in 0..runs {
        times.0.push(timed(&mut version)?);
    }
    Ok(times)
}

/// A copy of the program at `from`, written at `to`, to time instead of the original: the same
/// bytes written by the linker start slower than when written in one piece (loomc's saxpy 11.7
/// ms against 10.0, median of 21 interleaved runs, 1,055 page faults against 1,023, 2026-12-07),
/// so a `target/release/loomc` timed against a copied `LOOMC_BEFORE` looked 2 to 6 % slower
/// than it was. Copies are what an installed loomc is, too.
fn fresh_copy(from: &Path, to: &Path) -> Result<PathBuf, String> {
    std::fs::copy(from, to).map_err(|e| format!("copying {}: {e}", from.display()))?;
    Ok(to.to_path_buf())
}

/// Runs a command that must succeed; its wall time in milliseconds.
fn timed(command: &mut Command) -> Result<f64, String> {
    let start = Instant::now();
    let output = command.output().map_err(|e| format!("{command:?}: {e}"))?;
    let ms = start.elapsed().as_secs_f64() * 1000.0;
    if !output.status.success() {
        return Err(format!(
            "{command:?} failed:\n{}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    Ok(ms)
}

/// The table; with `before`, two more columns: the earlier loomc's times and now / before.
fn render(rows: &[(String, Vec<Times>)], start: &Times, start_before: Option<&Times>) -> String {
    let before = start_before.is_some();
    let (before_head, before_rule) = match before {
        true => (" loomc before ms | loomc / before |", " ---: | ---: |"),
        false => ("", ""),
    };
    let mut text = format!(
        "| program | loomc ms | clang 19 ms | NVRTC ms | loomc / clang | loomc / NVRTC |{before_head}\n\
         | --- | ---: | ---: | ---: | ---: | ---: |{before_rule}\n",
    );
    for (name, times) in rows {
        let cell = |t: &Times| {
            if t.0.is_empty() {
                "-".to_string()
            } else {
                format!("{:.1} ({:.1})", t.median(), t.fastest())
            }
        };
        let ratio = |other: &Times| {
            if other.0.is_empty() {
                "-".to_string()
            } else {
                format!("{:.2}", times[0].median() / other.median())
            }
        };
        let before_cells = match before {
            true => format!(" {} | {} |", cell(&times[3]), ratio(&times[3])),
            false => String::new(),
        };
        text.push_str(&format!(
            "| {name} | {} | {} | {} | {} | {} |{before_cells}\n",
            cell(&times[0]),
            cell(&times[1]),
            cell(&times[2]),
            ratio(&times[1]),
            ratio(&times[2]),
        ));
    }
    text.push_str(&format!(
        "| loomc --version (process start) | {:.1} ({:.1}) | | | | |{}\n",
        start.median(),
        start.fastest(),
        start_before
            .map(|b| format!(
                " {:.1} ({:.1}) | {:.2} |",
                b.median(),
                b.fastest(),
                start.median() / b.median()
            ))
            .unwrap_or_default()
    ));
    text
}

fn header(runs: usize) -> String {
    format!(
        "# bench-compile: whole-process compile time per example, {}\n\n\
         Machine: {}. Written by `scripts/bench-compile --save` (`bench/compile_examples.rs`).\n\n\
         - Each cell: median (fastest) wall time of {runs} runs of the whole process, source file \
         to PTX file; the tools' runs interleave.\n\
         - loomc: default `-O3`, kernel verifier on; bench kernels at `--block-size 256`.\n\
         - clang 19: `-x cuda --cuda-device-only -nocudainc -nocudalib --cuda-gpu-arch=sm_80 -O3 \
         -ffp-contract=off -S` on the CUB-free twin in `bench/cuda/clang/` (with \
         `-Xclang -mlink-builtin-bitcode -Xclang libdevice.10.bc` where the twin calls libdevice).\n\
         - NVRTC 13.5 (pip wheel): `bench/nvrtc/nvrtc_ptx.c` loads libnvrtc, compiles the same twin \
         with `-arch=compute_80 -fmad=false -default-device` and writes the PTX.\n\
         - `-`: no CUDA twin of that name, or the tool is not installed.\n",
        machine::today(),
        machine::description()
    )
}
