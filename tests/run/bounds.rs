//! Bounds checks on the CPU backend, with and without `--sanitize`: an unchecked index outside
//! its array ends `loomc run` with exit status 1 and a report naming the kernel, block, thread,
//! source line, array and index; never an abort, a hang or a corrupted host, and no output file.
//! The same for the arrays of shared memory. The programs are in `tests/run/bounds/`.

use super::support::repo_root;
use libtest_mimic::{Failed, Trial};
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Far longer than any of these runs takes; past it the run counts as hung.
const HANG: Duration = Duration::from_secs(120);

/// Indices of a 4-element array, all outside it: near, far, negative, and past any allocation.
const BAD_INDICES: [i64; 7] = [4, 5, 100, 100_000, -1, -3, 100_000_000];

/// Plain runs of these kernels (no barrier) are compiled loops over a block's threads; with
/// `--one-call-per-thread`, one call per thread; with `--sanitize`, coroutines.
const MODES: [(&str, &[&str]); 3] = [
    ("plain", &[]),
    ("calls", &["--one-call-per-thread"]),
    ("sanitize", &["--sanitize"]),
];

pub fn trials() -> Vec<Trial> {
    let mut trials = Vec::new();
    for (mode, flags) in MODES {
        for k in BAD_INDICES {
            trials.push(Trial::test(format!("bounds/{mode}/read/k={k}"), move || {
                expect_stop(
                    &["oob_read.loom", "--kernel", "peek"],
                    &[&format!("k={k}")],
                    &["a", "out"],
                    flags,
                    &[
                        "kernel `peek` stopped: out-of-bounds read of 4 bytes by thread 0 of block 0",
                        "oob_read.loom:4:",
                        &format!("index {k} of `a`, an array of 4 elements"),
                    ],
                )
            }));
            trials.push(Trial::test(format!("bounds/{mode}/write/k={k}"), move || {
                expect_stop(
                    &["oob_write.loom", "--kernel", "poke"],
                    &[&format!("k={k}")],
                    &["a"],
                    flags,
                    &[
                        "kernel `poke` stopped: out-of-bounds write of 4 bytes by thread 0 of block 0",
                        "oob_write.loom:3:",
                        &format!("index {k} of `a`, an array of 4 elements"),
                    ],
                )
            }));
        }
        trials.push(Trial::test(
            format!("bounds/{mode}/reduction_past_the_end"),
            move || {
                expect_stop(
                    &[
                        "sum_past_the_end.loom",
                        "--kernel",
                        "blockSums",
                        "--blocks",
                        "40",
                    ],
                    &["n=1000"],
                    &["x", "out"],
                    flags,
                    &[
                        "kernel `blockSums` stopped: out-of-bounds read of 4 bytes by thread 232 of block 3",
                        "sum_past_the_end.loom:7:",
                        "index 1000 of `x`, an array of 1000 elements",
                    ],
                )
            },
        ));
        for k in BAD_INDICES {
            for (kernel, access, line) in [("sharedPeek", "read", 10), ("sharedPoke", "write", 17)]
            {
                let name = format!("bounds/{mode}/shared_{access}/k={k}");
                trials.push(Trial::test(name, move || {
                    expect_stop(
                        &["shared_oob.loom", "--kernel", kernel],
                        &[&format!("k={k}")],
                        &["out"],
                        flags,
                        &[
                            &format!("kernel `{kernel}` stopped: out-of-bounds {access} of 4 bytes by thread 0 of block 0"),
                            &format!("shared_oob.loom:{line}:"),
                            &format!("index {k} of `t`, an array of 4 elements in shared memory"),
                        ],
                    )
                }));
            }
        }
        trials.push(Trial::test(format!("bounds/{mode}/in_range"), move || {
            in_range(flags)
        }));
        trials.push(Trial::test(
            format!("bounds/{mode}/slice_past_the_end"),
            move || {
                expect_stop(
                    &[
                        "slice_past_the_end.loom",
                        "--kernel",
                        "double",
                        "--blocks",
                        "40",
                    ],
                    &["n=1000"],
                    &["x", "y"],
                    flags,
                    &[
                        "kernel `double` stopped: out-of-bounds read of 4 bytes by thread 232 of block 3",
                        "slice_past_the_end.loom:5:",
                        "index 1000 of `x`, an array of 1000 elements",
                    ],
                )
            },
        ));
    }
    trials
}

/// Runs `loomc run tests/run/bounds/<program>` with `--arg`s and arrays `outs` (all given with
/// `--out`, so zeros), waiting at most `HANG`.
fn run(
    program: &[&str],
    scalars: &[&str],
    outs: &[&str],
    flags: &[&str],
    dir: &Path,
) -> Result<(Option<i32>, String), Failed> {
    let mut args: Vec<String> = vec!["run".into()];
    let file = repo_root().join("tests/run/bounds").join(program[0]);
    args.push(file.display().to_string());
    args.extend(program[1..].iter().map(|s| s.to_string()));
    if !program.contains(&"--blocks") {
        args.extend(["--blocks".into(), "1".into()]);
    }
    for s in scalars {
        args.extend(["--arg".into(), s.to_string()]);
    }
    for name in outs {
        let path = dir.join(format!("{name}.npy"));
        args.extend(["--out".into(), format!("{name}={}", path.display())]);
    }
    args.extend(flags.iter().map(|s| s.to_string()));
    let mut child = Command::new(env!("CARGO_BIN_EXE_loomc"))
        .args(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break status;
        }
        if started.elapsed() > HANG {
            let _ = child.kill();
            return Err(format!("`loomc {}` hung", args.join(" ")).into());
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut stderr = String::new();
    if let Some(mut pipe) = child.stderr.take() {
        pipe.read_to_string(&mut stderr)
            .map_err(|e| e.to_string())?;
    }
    Ok((status.code(), stderr))
}

fn expect_stop(
    program: &[&str],
    scalars: &[&str],
    outs: &[&str],
    flags: &[&str],
    expected: &[&str],
) -> Result<(), Failed> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let (code, stderr) = run(program, scalars, outs, flags, dir.path())?;
    if code != Some(1) {
        return Err(format!("exit status {code:?}, not 1: {stderr}").into());
    }
    for part in expected {
        if !stderr.contains(part) {
            return Err(format!("the report lacks `{part}`: {stderr}").into());
        }
    }
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .map_err(|e| e.to_string())?
        .flatten()
        .map(|e| e.file_name())
        .collect();
    if !left.is_empty() {
        return Err(format!("the failed run left output behind: {left:?}").into());
    }
    Ok(())
}

/// The checks stop nothing that stays inside the array: every index of `a` reads and writes.
fn in_range(flags: &[&str]) -> Result<(), Failed> {
    for k in 0..4 {
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let arg = format!("k={k}");
        for (program, outs) in [
            (["oob_read.loom", "--kernel", "peek"], &["a", "out"][..]),
            (["oob_write.loom", "--kernel", "poke"], &["a"][..]),
            (["shared_oob.loom", "--kernel", "sharedPeek"], &["out"][..]),
            (["shared_oob.loom", "--kernel", "sharedPoke"], &["out"][..]),
        ] {
            let (code, stderr) = run(&program, &[&arg], outs, flags, dir.path())?;
            if code != Some(0) {
                return Err(
                    format!("{} with k = {k}: status {code:?}: {stderr}", program[0]).into(),
                );
            }
        }
        let written: Vec<f32> = npyz::NpyFile::new(
            std::fs::File::open(dir.path().join("a.npy")).map_err(|e| e.to_string())?,
        )
        .map_err(|e| e.to_string())?
        .into_vec()
        .map_err(|e| e.to_string())?;
        let mut expected = vec![0f32; 4];
        expected[k] = 1.0;
        if written != expected {
            return Err(format!("poke with k = {k} wrote {written:?}").into());
        }
    }
    Ok(())
}
