//! Deep nesting and large inputs, through the `loomc` binary: at the parser's limits (128 levels
//! of nesting on a line, 64 levels of blocks) and past them, and along paths the limits do not
//! cover (a long chain of binary operators, a long `else if` chain), every input must end in exit
//! 0 or 1. A stack overflow kills a process: here it is loomc's, reported as a signal.
//! Large inputs must compile in time roughly linear in their size: the whole pipeline at `-O0`,
//! and loomc's own stages (all but LLVM's optimiser and NVPTX back end) at the default `-O3`.
//! LLVM's -O3 is superlinear on such a kernel, in loomc as in clang (docs/testing.md,
//! `scripts/bench-compile`).

use crate::big_kernel;
use crate::blowup_shapes;
use libtest_mimic::{Failed, Trial};
use std::io::Read;
use std::process::{Command, Stdio};
use std::time::Duration;

/// Compiles `source` with the binary; returns the exit status, the processor time the process
/// used (user and system, its threads together) and its standard error. Processor time, not
/// wall time: on a machine shared with other jobs a compile waits for a core, and wall time then
/// says more about the neighbours than about loomc's growth.
fn loomc(source: &str, extra: &[&str]) -> Result<(i32, Duration, String), Failed> {
    let dir = tempfile::tempdir()?;
    let input = dir.path().join("big.loom");
    std::fs::write(&input, source)?;
    let mut child = Command::new(env!("CARGO_BIN_EXE_loomc"))
        .arg(&input)
        .args(extra)
        .arg("-o")
        .arg(dir.path().join("big.ptx"))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()?;
    let mut stderr_pipe = child.stderr.take().ok_or("no standard error pipe")?;
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr_pipe.read_to_string(&mut text);
        text
    });
    let (status, took) = wait_with_cpu_time(child.id())?;
    let stderr = reader
        .join()
        .map_err(|_| "the standard error reader panicked")?;
    match status {
        Some(code) => Ok((code, took, stderr)),
        None => Err("loomc was killed by a signal: a stack overflow?".into()),
    }
}

/// Waits for process `pid`: its exit code (`None` if a signal ended it) and the processor time
/// it used, from `wait4`, which reports it for that one child (the tests of this harness run
/// side by side, so the process-wide counts of `getrusage(RUSAGE_CHILDREN)` would mix them).
fn wait_with_cpu_time(pid: u32) -> Result<(Option<i32>, Duration), Failed> {
    let pid = libc::pid_t::try_from(pid)?;
    let mut status: libc::c_int = 0;
    // SAFETY: `rusage` is plain data that wait4 fills; zeroes are a valid value of it.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `pid` is our own child, not yet waited for (std's handle never waits for it: the
    // caller drops it unwaited, which std allows); the pointers are to live locals.
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    if waited != pid {
        return Err(format!("wait4: {}", std::io::Error::last_os_error()).into());
    }
    let time = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
    };
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    Ok((code, time(usage.ru_utime) + time(usage.ru_stime)))
}

/// Exit 0 or 1, and the diagnostic `code` if one is given.
fn behaves(source: &str, expect_code: Option<&str>) -> Result<(), Failed> {
    let (code, _, stderr) = loomc(source, &[])?;
    let head: String = stderr.chars().take(2000).collect();
    match (code, expect_code) {
        (0, None) => Ok(()),
        (1, Some(c)) if stderr.contains(c) => Ok(()),
        (1, None) if !stderr.contains("internal compiler error") => Ok(()),
        _ => Err(format!("exit {code}, expected {expect_code:?}:\n{head}").into()),
    }
}

const HEAD: &str = "kernel k(s: Int32, x: Int32[THREADS], out: Int32[BLOCKS])\n";

fn parens(depth: usize) -> String {
    format!(
        "{HEAD}  out[B] <- {}s{}\n",
        "(".repeat(depth),
        ")".repeat(depth)
    )
}

/// `depth` nested maps: `f /~ f /~ ... x[block(B)]`, reduced.
fn maps(depth: usize) -> String {
    format!(
        "func f(a: Int32): Int32\n  return a + 1\n{HEAD}  out[B] <- sum /. ({}x[block(B)])\n",
        "f /~ ".repeat(depth)
    )
}

fn prefix_ops(depth: usize) -> String {
    format!("{HEAD}  out[B] <- {}s\n", "~ ".repeat(depth))
}

fn nested_ifs(depth: usize) -> String {
    let mut text = HEAD.to_string();
    text.push_str("  t: Int32 <- 0\n");
    for level in 0..depth {
        let indent = "  ".repeat(level + 1);
        match level % 3 {
            0 => text.push_str(&format!("{indent}if s > {level}\n")),
            1 => text.push_str(&format!("{indent}for i{level}: Int32 <- range(0, 2)\n")),
            _ => text.push_str(&format!("{indent}while t < {level}\n")),
        }
        text.push_str(&format!("{indent}  t <- t + 1\n"));
    }
    text.push_str("  out[B] <- t\n");
    text
}

fn one_line_ifs(depth: usize) -> String {
    format!(
        "{HEAD}  t: Int32 <- 0\n  {}t <- 1\n  out[B] <- t\n",
        (0..depth)
            .map(|i| format!("if s > {i} then "))
            .collect::<String>()
    )
}

fn operator_chain(terms: usize) -> String {
    let chain: Vec<String> = (0..terms).map(|i| format!("{}", i % 7)).collect();
    format!("{HEAD}  out[B] <- s + {}\n", chain.join(" + "))
}

fn else_if_chain(links: usize) -> String {
    let mut text = HEAD.to_string();
    text.push_str("  t: Int32 <- 0\n  if s == 0\n    t <- 1\n");
    for i in 1..links {
        text.push_str(&format!("  else if s == {i}\n    t <- {}\n", i % 100));
    }
    text.push_str("  out[B] <- t\n");
    text
}

pub fn trials() -> Vec<Trial> {
    let nesting: Vec<(&str, String, Option<&str>)> = vec![
        ("parens_128", parens(127), None),
        ("parens_200", parens(200), Some("E0013")),
        ("maps_120", maps(120), None),
        ("maps_200", maps(200), Some("E0013")),
        ("prefix_ops_127", prefix_ops(127), None),
        ("prefix_ops_1000", prefix_ops(1000), Some("E0013")),
        ("blocks_63", nested_ifs(63), None),
        ("blocks_100", nested_ifs(100), Some("E0013")),
        ("one_line_ifs_120", one_line_ifs(120), None),
        ("one_line_ifs_300", one_line_ifs(300), Some("E0013")),
        ("operator_chain_9999", operator_chain(9_999), None),
        (
            "operator_chain_20000",
            operator_chain(20_000),
            Some("E0013"),
        ),
        ("else_if_chain_3000", else_if_chain(3000), None),
    ];
    let mut trials: Vec<Trial> = nesting
        .into_iter()
        .map(|(name, source, code)| {
            Trial::test(format!("nesting::{name}"), move || behaves(&source, code))
        })
        .collect();
    trials.push(Trial::test("large::linear", || linear(&["-O0"])));
    for (name, shape, size, code) in blowup_shapes::SHAPES {
        trials.push(Trial::test(format!("large::{name}_linear"), move || {
            shape_linear(shape, size, code)
        }));
    }
    trials.push(Trial::test(
        "large::linear_loomc_stages_at_o3",
        linear_own_stages,
    ));
    trials
}

fn linear(options: &[&str]) -> Result<(), Failed> {
    let [(small, _), (large, _)] = compile_small_and_large(options)?;
    check_linear(
        &format!("loomc {options:?}"),
        small,
        large,
        Duration::from_secs(1),
    )
}

/// Parse, check, lowering and the verifiers at the default `-O3` (`--emit=llvm`: the NVPTX
/// back end is LLVM's, like the optimiser whose time is left out).
fn linear_own_stages() -> Result<(), Failed> {
    let [(_, small), (_, large)] = compile_small_and_large(&["--emit=llvm", "--time-passes"])?;
    check_linear(
        "loomc's own stages at -O3",
        own_stages(&small)?,
        own_stages(&large)?,
        Duration::from_millis(250),
    )
}

/// Compiles the 2,500- and the 10,000-statement kernel (over 1 MB) with `options`; both must
/// succeed. Their wall times and standard error.
fn compile_small_and_large(options: &[&str]) -> Result<[(Duration, String); 2], Failed> {
    let large = big_kernel::loom(10_000);
    if large.len() < 1_000_000 {
        return Err(format!("the large kernel is only {} bytes", large.len()).into());
    }
    let mut runs = Vec::new();
    for (statements, source) in [(2_500, big_kernel::loom(2_500)), (10_000, large)] {
        let (code, took, stderr) = loomc(&source, options)?;
        if code != 0 {
            return Err(format!("the {statements}-statement kernel: exit {code}\n{stderr}").into());
        }
        runs.push((took, stderr));
    }
    let [small, large]: [(Duration, String); 2] = runs.try_into().map_err(|_| "two runs")?;
    Ok([small, large])
}

/// A quarter of the size, then the whole: linear time is 4x, quadratic 16x; allow 8x (plus
/// `slack`, for process start and the standard library) for noise on shared cores.
fn check_linear(
    what: &str,
    small: Duration,
    large: Duration,
    slack: Duration,
) -> Result<(), Failed> {
    check_linear_sizes(what, ["2,500 statements", "10,000"], small, large, slack)
}

/// [`check_linear`] for sizes named `sizes` (the second four times the first).
fn check_linear_sizes(
    what: &str,
    sizes: [&str; 2],
    small: Duration,
    large: Duration,
    slack: Duration,
) -> Result<(), Failed> {
    let [small_size, large_size] = sizes;
    println!("{what}: {small_size}: {small:?}; {large_size}: {large:?}");
    if large > small * 8 + slack {
        return Err(format!(
            "{what}: not linear: {small:?} for {small_size}, {large:?} for {large_size}"
        )
        .into());
    }
    Ok(())
}

/// The time of the stages `--time-passes` reports, but for LLVM's (`optimise`, `nvptx`).
fn own_stages(report: &str) -> Result<Duration, Failed> {
    let mut milliseconds = 0.0;
    let mut stages = 0;
    // The stage table comes first; LLVM's per-pass table after it is not loomc's.
    let stage_table = report
        .split("===== LLVM's optimiser")
        .next()
        .unwrap_or(report);
    for line in stage_table.lines() {
        // `   84.488 ms   4.7%  parse`
        if let [time, "ms", _, stage] = line.split_whitespace().collect::<Vec<_>>().as_slice() {
            if !matches!(*stage, "optimise" | "nvptx" | "total") {
                milliseconds += time.parse::<f64>()?;
                stages += 1;
            }
        }
    }
    if stages < 5 {
        return Err(format!("--time-passes reported {stages} of loomc's stages:\n{report}").into());
    }
    Ok(Duration::from_secs_f64(milliseconds / 1000.0))
}

/// A shape that once grew exponentially (`blowup_shapes.rs`), at a quarter of its size and at
/// its size: it must end as expected both times, and loomc's own stages (or, when it stops at a
/// diagnostic, the whole process) must grow about linearly.
fn shape_linear(shape: fn(usize) -> String, size: usize, code: Option<&str>) -> Result<(), Failed> {
    let mut times = Vec::new();
    for n in [size / 4, size] {
        let source = shape(n);
        let (exit, took, stderr) = loomc(&source, &["--time-passes"])?;
        let head: String = stderr.chars().take(2000).collect();
        let time = match (exit, code) {
            (0, None) => own_stages(&stderr)?,
            (1, Some(c)) if stderr.contains(c) && !stderr.contains("internal compiler error") => {
                took
            }
            _ => return Err(format!("size {n}: exit {exit}, expected {code:?}:\n{head}").into()),
        };
        times.push(time);
    }
    check_linear_sizes(
        "this shape",
        [&format!("size {}", size / 4), &format!("size {size}")],
        times[0],
        times[1],
        Duration::from_millis(300),
    )
}
