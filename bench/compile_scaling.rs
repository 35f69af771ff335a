//! scripts/bench-compile: how compile time grows with a kernel's length. The huge kernel of
//! `tests/fuzz/big_kernel.rs` at 1,250 to 10,000 statements (1 MB of source at the last),
//! through `loomc --time-passes` at the default `-O3` (per stage: loomc's own, then LLVM's
//! optimiser and NVPTX back end) and at `-O0`, and its CUDA twin through clang 19 at `-O3`, the
//! same LLVM behind another front end.
//!
//! Not a test: `scripts/bench-compile [--save]` runs it (`cargo bench --bench compile_scaling`).
//! Environment: `LOOMC` (the loomc to time), `LOOM_CLANG` (default
//! `/usr/lib/llvm-19/bin/clang`; its column is empty without one).

#[path = "../tests/fuzz/big_kernel.rs"]
mod big_kernel;
#[path = "../tests/fuzz/blowup_shapes.rs"]
mod blowup_shapes;
#[path = "common/machine.rs"]
mod machine;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

const SIZES: [usize; 4] = [1_250, 2_500, 5_000, 10_000];

/// One size's times, in milliseconds.
struct Row {
    statements: usize,
    bytes: usize,
    /// parse, check, lower, verify IR.
    front: f64,
    verify_kernels: f64,
    /// Every stage but LLVM's.
    own: f64,
    optimise: f64,
    nvptx: f64,
    total_o3: f64,
    total_o0: f64,
    clang_o3: Option<f64>,
}

fn main() {
    if let Err(message) = run() {
        eprintln!("bench-compile: {message}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), String> {
    let save = std::env::args().skip_while(|a| a != "--save").nth(1);
    let loomc = std::env::var_os("LOOMC")
        .map(PathBuf::from)
        .filter(|p| p.is_file())
        .ok_or("LOOMC is unset or names no file")?;
    let clang = std::env::var_os("LOOM_CLANG")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/lib/llvm-19/bin/clang"));
    let clang = clang.is_file().then_some(clang);
    let work = tempfile::tempdir().map_err(|e| e.to_string())?;
    // A first, untimed run of each tool, so that loading it from disk is not counted.
    let warm_up = work.path().join("warm-up.loom");
    std::fs::write(&warm_up, big_kernel::loom(10)).map_err(|e| e.to_string())?;
    timed(
        Command::new(&loomc)
            .arg(&warm_up)
            .arg("-o")
            .arg(work.path().join("warm-up.ptx")),
    )?;
    if let Some(clang) = &clang {
        clang_ms(clang, work.path(), 10)?;
    }
    let mut rows = Vec::new();
    for statements in SIZES {
        eprintln!("bench-compile: {statements} statements");
        let source = big_kernel::loom(statements);
        let input = work.path().join(format!("big{statements}.loom"));
        std::fs::write(&input, &source).map_err(|e| e.to_string())?;
        let output = work.path().join("big.ptx");
        let (report, total_o3) = timed(
            Command::new(&loomc)
                .arg(&input)
                .args(["--time-passes", "-o"])
                .arg(&output),
        )?;
        let stage = |name: &str| stage_ms(&report, name);
        let front = ["parse", "check", "kir", "lower", "verify"]
            .iter()
            .map(|s| stage(s))
            .sum::<Result<f64, String>>()?;
        let (_, total_o0) = timed(
            Command::new(&loomc)
                .arg(&input)
                .args(["-O0", "-o"])
                .arg(&output),
        )?;
        let clang_o3 = match &clang {
            Some(clang) => Some(clang_ms(clang, work.path(), statements)?),
            None => None,
        };
        let verify_kernels = stage("verify-kernels")?;
        rows.push(Row {
            statements,
            bytes: source.len(),
            front,
            verify_kernels,
            own: front + stage("link-libdevice")? + verify_kernels,
            optimise: stage("optimise")?,
            nvptx: stage("nvptx")?,
            total_o3,
            total_o0,
            clang_o3,
        });
    }
    let mut table = render(&rows);
    table.push_str(&shapes_table(&loomc, work.path())?);
    println!("{table}");
    if let Some(path) = save {
        std::fs::write(&path, format!("{}\n{table}", header()))
            .map_err(|e| format!("{path}: {e}"))?;
        eprintln!("bench-compile: written to {path}");
    }
    Ok(())
}

/// The shapes that once grew exponentially (`blowup_shapes.rs`), each at a quarter of the size
/// the issue named and at that size: the whole process's wall time, which must stay under a
/// second, and its exit status (the malformed literals end in E0011 errors).
fn shapes_table(loomc: &Path, work: &Path) -> Result<String, String> {
    let mut text = String::from(
        "\n| shape | size | exit | whole process ms |\n| --- | ---: | ---: | ---: |\n",
    );
    for (name, shape, size, _) in blowup_shapes::SHAPES {
        for n in [size / 4, size] {
            eprintln!("bench-compile: {name} {n}");
            let input = work.join(format!("{name}{n}.loom"));
            std::fs::write(&input, shape(n)).map_err(|e| e.to_string())?;
            let start = Instant::now();
            let status = Command::new(loomc)
                .arg(&input)
                .arg("-o")
                .arg(work.join("shape.ptx"))
                .output()
                .map_err(|e| e.to_string())?
                .status;
            let ms = start.elapsed().as_secs_f64() * 1000.0;
            let exit = status
                .code()
                .map_or("signal".to_string(), |c| c.to_string());
            text.push_str(&format!("| {name} | {n} | {exit} | {} |\n", format_ms(ms)));
        }
    }
    Ok(text)
}

/// Runs a command that must succeed; its standard error and wall time in milliseconds.
fn timed(command: &mut Command) -> Result<(String, f64), String> {
    let start = Instant::now();
    let output = command.output().map_err(|e| format!("{command:?}: {e}"))?;
    let ms = start.elapsed().as_secs_f64() * 1000.0;
    let stderr = String::from_utf8_lossy(&output.stderr).to_string();
    if !output.status.success() {
        return Err(format!("{command:?} failed:\n{stderr}"));
    }
    Ok((stderr, ms))
}

/// One stage's time from `--time-passes`' report (`   84.488 ms   4.7%  parse`).
fn stage_ms(report: &str, name: &str) -> Result<f64, String> {
    report
        .lines()
        .find_map(
            |line| match line.split_whitespace().collect::<Vec<_>>()[..] {
                [time, "ms", _, stage] if stage == name => time.parse::<f64>().ok(),
                _ => None,
            },
        )
        .ok_or(format!(
            "no `{name}` in the --time-passes report:\n{report}"
        ))
}

fn clang_ms(clang: &Path, work: &Path, statements: usize) -> Result<f64, String> {
    let source = work.join(format!("big{statements}.cu"));
    std::fs::write(&source, big_kernel::cuda(statements)).map_err(|e| e.to_string())?;
    let (_, ms) = timed(
        Command::new(clang)
            .args(["-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_80"])
            .args(["-nocudainc", "-nocudalib", "-O3", "-S", "-o"])
            .arg(work.join("big.cu.ptx"))
            .arg(&source),
    )?;
    Ok(ms)
}

fn render(rows: &[Row]) -> String {
    let mut text = String::from(
        "| statements | source KB | parse to IR verify ms | verify-kernels ms | loomc's stages ms | LLVM optimise ms | NVPTX ms | total -O3 ms | total -O0 ms | clang -O3 (CUDA twin) ms |\n\
         | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n",
    );
    let cells = |r: &Row| {
        [
            r.front,
            r.verify_kernels,
            r.own,
            r.optimise,
            r.nvptx,
            r.total_o3,
            r.total_o0,
            r.clang_o3.unwrap_or(f64::NAN),
        ]
    };
    for r in rows {
        let times: Vec<String> = cells(r).iter().map(|ms| format_ms(*ms)).collect();
        text.push_str(&format!(
            "| {} | {} | {} |\n",
            r.statements,
            r.bytes / 1024,
            times.join(" | ")
        ));
    }
    // How much each column grows when the kernel doubles: 2 is linear, 4 quadratic.
    if let [.., before, last] = rows {
        let growth: Vec<String> = cells(before)
            .iter()
            .zip(cells(last))
            .map(|(b, l)| {
                if b.is_nan() || l.is_nan() {
                    "-".to_string()
                } else {
                    format!("{:.1}x", l / b)
                }
            })
            .collect();
        text.push_str(&format!(
            "| growth {} to {} | | {} |\n",
            before.statements,
            last.statements,
            growth.join(" | ")
        ));
    }
    text
}

fn format_ms(ms: f64) -> String {
    if ms.is_nan() {
        "-".to_string()
    } else {
        format!("{ms:.0}")
    }
}

fn header() -> String {
    let date = machine::today();
    format!(
        "# bench-compile: compile time against kernel length, {date}\n\n\
         Machine: {}. Written by `scripts/bench-compile --save`; one run of each.\n\n\
         - The kernel: `tests/fuzz/big_kernel.rs` (a quarter each of scalar statements, once-per-block \
         stores, uniform `if`s around once-per-block stores, vector statements over a row).\n\
         - Stage times from `loomc --time-passes` at the default `-O3` with the kernel verifier; \
         *loomc's stages*: all but LLVM's optimiser and NVPTX back end. Totals: wall time of the process.\n\
         - clang: `clang -x cuda --cuda-device-only --cuda-gpu-arch=sm_80 -O3 -S` on the kernel's CUDA twin \
         (`big_kernel::cuda`), the same LLVM 19.\n\
         - The last row: each column's growth from the kernel of half the length (2x is linear, 4x \
         quadratic).\n\
         - The second table: shapes that once took exponential time (`tests/fuzz/blowup_shapes.rs`), \
         whole-process wall time at the default options.\n",
        machine::description()
    )
}
