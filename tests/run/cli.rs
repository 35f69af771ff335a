//! `loomc run` end to end: `.npy` arrays in and out, results against a reference, and argument
//! errors that name the parameter.

use super::support::Rng;
use libtest_mimic::{Failed, Trial};
use npyz::WriterBuilder;
use std::path::Path;
use std::process::Command;

pub fn trials() -> Vec<Trial> {
    vec![
        Trial::test("cli/run_round_trips_npy", round_trip),
        Trial::test("cli/run_rejects_wrong_dtype_and_shape", rejects),
        Trial::test("cli/metadata_is_what_the_runtime_reads", metadata_snapshot),
        Trial::test("cli/run_rejects_bad_launch_sizes", rejects_launch_sizes),
        Trial::test("cli/run_checks_output_paths_first", checks_output_paths),
        Trial::test(
            "cli/run_out_files_follow_the_compile_writer_rules",
            out_files_follow_the_compile_writer_rules,
        ),
        Trial::test(
            "cli/run_refuses_an_output_too_big_for_memory",
            refuses_huge_output,
        ),
        Trial::test("cli/run_repeat_times_launches_on_the_same_inputs", repeats),
        Trial::test("cli/run_reports_progress", reports_progress),
        Trial::test("cli/run_rejects_a_truncated_npy", rejects_truncated_npy),
        Trial::test("cli/run_io_times_each_npy_file", io_times),
        Trial::test("cli/run_on_a_two_dimensional_grid", two_dimensional_grid),
        Trial::test(
            "cli/run_takes_range_and_record_arguments",
            range_and_record_arguments,
        ),
        Trial::test("cli/run_allocates_scratch_rows", scratch_rows),
    ]
}

/// `reassigned` of `tests/run/programs/scratch_rows.loom` stores `a` in a scratch row: the run
/// allocates the scratch array itself (`out` as the reference says), and naming it is a usage
/// error that says what it is.
fn scratch_rows() -> Result<(), Failed> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let (rows, cols) = (3usize, 700usize);
    let x: Vec<f32> = (0..rows * cols)
        .map(|i| (i % 89) as f32 * 0.25 - 11.0)
        .collect();
    write_f32_shaped(&dir.path().join("x.npy"), &x, &[rows as u64, cols as u64])?;
    let file = super::support::repo_root().join("tests/run/programs/scratch_rows.loom");
    let (x_arg, out_arg, scratch_arg) = (
        format!("x={}", dir.path().join("x.npy").display()),
        format!("out={}", dir.path().join("out.npy").display()),
        format!("a.scratch={}", dir.path().join("s.npy").display()),
    );
    let run = |extra: &[&str]| {
        let mut args = vec![
            "run",
            file.to_str().unwrap_or_default(),
            "--kernel",
            "reassigned",
            "--blocks",
            "3",
            "--arg",
            "rows=3",
            "--arg",
            "cols=700",
            "--in",
            &x_arg,
            "--out",
            &out_arg,
        ];
        args.extend_from_slice(extra);
        loomc(&args)
    };
    let out = run(&[])?;
    if !out.status.success() {
        return Err(format!(
            "exit {:?}: {}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        )
        .into());
    }
    let got = read_f32(&dir.path().join("out.npy"))?;
    for (i, (g, v)) in got.iter().zip(&x).enumerate() {
        let a = v * 2.0 + 1.0;
        if *g != a * a {
            return Err(format!("out[{i}] = {g}, expected {}", a * a).into());
        }
    }
    if got.len() != x.len() {
        return Err(format!("out has {} elements, not {}", got.len(), x.len()).into());
    }
    let named = run(&["--out", &scratch_arg])?;
    expect_usage_error(
        &named,
        "is the scratch array loomc added for the vector variable `a`",
        "--out of the scratch array",
    )
}

/// `loomc run examples/saxpy.loom` over `n` elements with x and y from `dir` (written with
/// `x`, `y`), `extra` arguments last.
fn saxpy(dir: &Path, n: usize, extra: &[&str]) -> Result<std::process::Output, Failed> {
    let mut rng = Rng::new(5);
    write_f32(&dir.join("x.npy"), &rng.f32s(n, -5.0, 5.0))?;
    write_f32(&dir.join("y.npy"), &rng.f32s(n, -5.0, 5.0))?;
    let file = super::support::repo_root().join("examples/saxpy.loom");
    let (x, y, n_arg) = (
        format!("x={}", dir.join("x.npy").display()),
        format!("y={}", dir.join("y.npy").display()),
        format!("n={n}"),
    );
    let mut args = vec![
        "run",
        file.to_str().unwrap_or_default(),
        "--kernel",
        "saxpy",
        "--arg",
        &n_arg,
        "--arg",
        "a=1.5",
        "--in",
        &x,
        "--in",
        &y,
    ];
    args.extend_from_slice(extra);
    loomc(&args)
}

fn expect_usage_error(out: &std::process::Output, says: &str, what: &str) -> Result<(), Failed> {
    let stderr = String::from_utf8_lossy(&out.stderr);
    if out.status.code() != Some(2) || !stderr.contains(says) {
        return Err(format!(
            "{what}: expected exit status 2 and `{says}`, got {:?}: {stderr}",
            out.status.code()
        )
        .into());
    }
    Ok(())
}

fn rejects_launch_sizes() -> Result<(), Failed> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let out_arg = format!("y={}", dir.path().join("out.npy").display());
    for (blocks, says) in [
        ("0", "a grid's number of blocks must be at least 1, not 0"),
        ("-1", "a grid's number of blocks must be at least 1, not -1"),
        (
            "3000000000",
            "a grid's number of blocks is at most 2147483647, not 3000000000",
        ),
        (
            "1e9",
            "a grid's number of blocks is a whole number from 1 to 2147483647, not `1e9`",
        ),
    ] {
        let out = saxpy(dir.path(), 10, &["--blocks", blocks, "--out", &out_arg])?;
        expect_usage_error(&out, says, &format!("--blocks {blocks}"))?;
    }
    let out = saxpy(dir.path(), 10, &["--blocks", "1", "--repeat", "0"])?;
    expect_usage_error(&out, "--repeat must be at least 1, not 0", "--repeat 0")?;
    let out = saxpy(dir.path(), 10, &["--blocks", "1", "--block-size", "2048"])?;
    expect_usage_error(&out, "2048 is not in 1..=1024", "--block-size 2048")?;
    // A negative size argument makes a negative dimension.
    let out = saxpy(dir.path(), 10, &["--blocks", "1", "--arg", "n=-4"])?;
    expect_usage_error(&out, "dimension `n` is -4; a dimension is 0 to", "n = -4")?;
    if dir.path().join("out.npy").exists() {
        return Err("a rejected run wrote its output".into());
    }
    Ok(())
}

/// Every `--out` path is checked before the kernel runs, and a failed run leaves no file.
fn checks_output_paths() -> Result<(), Failed> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let good = format!("y={}", dir.path().join("out.npy").display());
    let missing = dir.path().join("no/such/dir/y.npy");
    let out = saxpy(
        dir.path(),
        10,
        &[
            "--blocks",
            "1",
            "--out",
            &format!("y={}", missing.display()),
        ],
    )?;
    expect_usage_error(
        &out,
        "there is no directory",
        "--out into a missing directory",
    )?;
    let out = saxpy(
        dir.path(),
        10,
        &[
            "--blocks",
            "1",
            "--out",
            &format!("y={}", dir.path().display()),
        ],
    )?;
    expect_usage_error(&out, "that is a directory", "--out onto a directory")?;
    // A run rejected after the outputs were prepared (x has the wrong length) writes nothing,
    // and leaves no temporary file; tests/run/bounds.rs does the same for a kernel that fails.
    write_f32(&dir.path().join("short.npy"), &[1.0; 3])?;
    let short = format!("x={}", dir.path().join("short.npy").display());
    let out = saxpy(
        dir.path(),
        10,
        &["--blocks", "1", "--in", &short, "--out", &good],
    )?;
    if out.status.success() {
        return Err("a run with a short x succeeded".into());
    }
    let left: Vec<String> = std::fs::read_dir(dir.path())
        .map_err(|e| e.to_string())?
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| !["x.npy", "y.npy", "short.npy"].contains(&name.as_str()))
        .collect();
    if !left.is_empty() {
        return Err(format!("failed runs left files behind: {left:?}").into());
    }
    Ok(())
}

fn refuses_huge_output() -> Result<(), Failed> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let file = super::support::repo_root().join("tests/run/programs/huge_output.loom");
    let out_arg = format!("a={}", dir.path().join("a.npy").display());
    // No machine has 8 TB free; 80 GB was once the first size here, and a GPU machine with
    // 128 GB of memory ran it, writing an 80 GB .npy for minutes.
    for (n, needs) in [("1000000", "8.0 TB"), ("2000000000", "32.0 EB")] {
        let out = loomc(&[
            "run",
            file.to_str().unwrap_or_default(),
            "--kernel",
            "fill",
            "--blocks",
            "1",
            "--arg",
            &format!("n={n}"),
            "--out",
            &out_arg,
        ])?;
        let says = format!("parameter `a` (Float64[n, n], shape [{n}, {n}]) needs {needs}");
        expect_usage_error(&out, &says, &format!("n = {n}"))?;
    }
    Ok(())
}

/// `--out` as `-o`: a new file gets the umask's mode (as a file the test creates itself), a
/// rewritten file keeps its mode, a symbolic link stays a link with its target rewritten, and a
/// FIFO is written in place and stays a FIFO.
fn out_files_follow_the_compile_writer_rules() -> Result<(), Failed> {
    use std::os::unix::fs::{FileTypeExt, PermissionsExt};
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let path = |name: &str| dir.path().join(name);
    let mode = |p: &Path| -> Result<u32, Failed> {
        Ok(std::fs::metadata(p)
            .map_err(|e| e.to_string())?
            .permissions()
            .mode()
            & 0o777)
    };
    let out = |name: &str| format!("y={}", path(name).display());
    let run = |target: &str| -> Result<(), Failed> {
        let ran = saxpy(dir.path(), 10, &["--blocks", "1", "--out", &out(target)])?;
        if !ran.status.success() {
            return Err(format!("--out {target}: {}", String::from_utf8_lossy(&ran.stderr)).into());
        }
        Ok(())
    };
    // A new file.
    std::fs::write(path("reference"), b"").map_err(|e| e.to_string())?;
    run("new.npy")?;
    if mode(&path("new.npy"))? != mode(&path("reference"))? {
        return Err(format!(
            "a new --out file has mode {:o}, a file made here {:o}",
            mode(&path("new.npy"))?,
            mode(&path("reference"))?
        )
        .into());
    }
    // A rewritten file keeps its mode.
    std::fs::write(path("kept.npy"), b"old").map_err(|e| e.to_string())?;
    std::fs::set_permissions(path("kept.npy"), std::fs::Permissions::from_mode(0o640))
        .map_err(|e| e.to_string())?;
    run("kept.npy")?;
    if mode(&path("kept.npy"))? != 0o640 || read_f32(&path("kept.npy"))?.len() != 10 {
        return Err("a rewritten --out file lost its mode 640 or was not rewritten".into());
    }
    // A symbolic link stays a link; its target gets the array.
    std::fs::write(path("real.npy"), b"old").map_err(|e| e.to_string())?;
    std::os::unix::fs::symlink("real.npy", path("link.npy")).map_err(|e| e.to_string())?;
    run("link.npy")?;
    let link = std::fs::symlink_metadata(path("link.npy")).map_err(|e| e.to_string())?;
    if !link.file_type().is_symlink() || read_f32(&path("real.npy"))?.len() != 10 {
        return Err("--out through a symbolic link replaced the link or missed its target".into());
    }
    // A FIFO is written in place: read it on another thread, as its writer blocks until then.
    let made = std::process::Command::new("mkfifo")
        .arg(path("pipe"))
        .status()
        .map_err(|e| e.to_string())?;
    if !made.success() {
        return Err("mkfifo failed".into());
    }
    let fifo = path("pipe");
    let reader = std::thread::spawn(move || std::fs::read(fifo).map(|bytes| bytes.len()));
    run("pipe")?;
    let read = reader
        .join()
        .map_err(|_| "the FIFO reader panicked")?
        .map_err(|e| e.to_string())?;
    let still_fifo = std::fs::symlink_metadata(path("pipe"))
        .map_err(|e| e.to_string())?
        .file_type()
        .is_fifo();
    if read < 10 * 4 || !still_fifo {
        return Err(
            format!("--out into a FIFO: {read} bytes read, still a FIFO: {still_fifo}").into(),
        );
    }
    Ok(())
}

fn read_f32(path: &Path) -> Result<Vec<f32>, Failed> {
    Ok(
        npyz::NpyFile::new(std::fs::File::open(path).map_err(|e| e.to_string())?)
            .map_err(|e| e.to_string())?
            .into_vec()
            .map_err(|e| e.to_string())?,
    )
}

/// `examples/transpose.loom` on a grid of 3 x 2 blocks (`--blocks 3x2`: rows x columns) over a
/// 40 x 30 matrix (not a multiple of the 16 x 16 tile): `out` is its transpose; the metadata
/// says the kernel's block shape and grid; `--blocks 2x2` for a kernel on a one-dimensional grid
/// is a usage error.
fn two_dimensional_grid() -> Result<(), Failed> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let (rows, cols) = (40usize, 30usize);
    let a: Vec<f32> = (0..rows * cols).map(|i| i as f32 * 0.5 - 3.0).collect();
    write_f32_shaped(&dir.path().join("a.npy"), &a, &[rows as u64, cols as u64])?;
    let file = super::support::repo_root().join("examples/transpose.loom");
    let (a_arg, out_arg) = (
        format!("a={}", dir.path().join("a.npy").display()),
        format!("out={}", dir.path().join("out.npy").display()),
    );
    let args = [
        "run",
        file.to_str().unwrap_or_default(),
        "--kernel",
        "transposeMatrix",
        "--blocks",
        "3x2",
        "--arg",
        "rows=40",
        "--arg",
        "cols=30",
        "--in",
        &a_arg,
        "--out",
        &out_arg,
    ];
    let run = loomc(&args)?;
    if !run.status.success() {
        return Err(format!("loomc run failed: {}", String::from_utf8_lossy(&run.stderr)).into());
    }
    let out = read_f32(&dir.path().join("out.npy"))?;
    let expected: Vec<f32> = (0..cols * rows)
        .map(|k| a[(k % rows) * cols + k / rows])
        .collect();
    if out != expected {
        return Err("the transposed matrix differs from the reference".into());
    }
    let metadata = loomc(&[
        file.to_str().unwrap_or_default(),
        "--emit=metadata",
        "-o",
        "-",
    ])?;
    let text = String::from_utf8_lossy(&metadata.stdout);
    let json: serde_json::Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let kernel = &json["kernels"][0];
    if kernel["block_shape"] != serde_json::json!([16, 16]) || kernel["grid_dims"] != 2 {
        return Err(format!("metadata without the block shape and grid: {kernel}").into());
    }
    let saxpy = super::support::repo_root().join("examples/saxpy.loom");
    let (x, y) = (
        format!("x={}", dir.path().join("x.npy").display()),
        format!("y={}", dir.path().join("y.npy").display()),
    );
    let one_d = loomc(&[
        "run",
        saxpy.to_str().unwrap_or_default(),
        "--kernel",
        "saxpy",
        "--blocks",
        "2x2",
        "--arg",
        "n=10",
        "--arg",
        "a=1",
        "--out",
        &x,
        "--out",
        &y,
    ])?;
    expect_usage_error(
        &one_d,
        "one-dimensional grid",
        "--blocks 2x2 for a 1-D kernel",
    )
}

/// `--repeat 3` runs three times from the same inputs: y = a x + y once, not three times.
fn repeats() -> Result<(), Failed> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let once = format!("y={}", dir.path().join("once.npy").display());
    let thrice = format!("y={}", dir.path().join("thrice.npy").display());
    let out = saxpy(dir.path(), 1000, &["--blocks", "4", "--out", &once])?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned().into());
    }
    let out = saxpy(
        dir.path(),
        1000,
        &[
            "--blocks",
            "4",
            "--out",
            &thrice,
            "--repeat",
            "3",
            "--no-verify",
        ],
    )?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success()
        || !stderr.contains("over 3 runs")
        || !stderr.contains("JIT compilation")
        || !stderr.contains("not counted")
    {
        return Err(format!("--repeat 3: {stderr}").into());
    }
    let (a, b) = (
        read_f32(&dir.path().join("once.npy"))?,
        read_f32(&dir.path().join("thrice.npy"))?,
    );
    if a.iter()
        .map(|v| v.to_bits())
        .ne(b.iter().map(|v| v.to_bits()))
    {
        return Err("--repeat 3 does not give the result of one run".into());
    }
    Ok(())
}

fn reports_progress() -> Result<(), Failed> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let mut rng = Rng::new(5);
    write_f32(&dir.path().join("x.npy"), &rng.f32s(1000, -5.0, 5.0))?;
    let file = super::support::repo_root().join("examples/saxpy.loom");
    let x = format!("x={}", dir.path().join("x.npy").display());
    let y = format!("y={}", dir.path().join("y.npy").display());
    let out = Command::new(env!("CARGO_BIN_EXE_loomc"))
        .env("LOOM_PROGRESS_AFTER_MS", "0")
        .args([
            "run",
            file.to_str().unwrap_or_default(),
            "--kernel",
            "saxpy",
            "--blocks",
            "4",
            "--arg",
            "n=1000",
            "--arg",
            "a=2",
            "--in",
            &x,
            "--out",
            &y,
            "--repeat",
            "40",
        ])
        .output()
        .map_err(|e| e.to_string())?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success()
        || !stderr.contains("running `saxpy`: ")
        || !stderr.contains(" of 160 blocks")
    {
        return Err(format!("no progress report: {stderr}").into());
    }
    Ok(())
}

/// `LOOM_IO_TIMES=1`: a line for each `.npy` read and written (`bench/npy_io.py` reads them);
/// without it, none.
fn io_times() -> Result<(), Failed> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let mut rng = Rng::new(5);
    write_f32(&dir.path().join("x.npy"), &rng.f32s(1000, -5.0, 5.0))?;
    write_f32(&dir.path().join("y.npy"), &rng.f32s(1000, -5.0, 5.0))?;
    let file = super::support::repo_root().join("examples/saxpy.loom");
    let arg = |name: &str, file: &str| format!("{name}={}", dir.path().join(file).display());
    let (x, y, out) = (arg("x", "x.npy"), arg("y", "y.npy"), arg("y", "out.npy"));
    let args = [
        "run",
        file.to_str().unwrap_or_default(),
        "--kernel",
        "saxpy",
        "--blocks",
        "4",
        "--arg",
        "n=1000",
        "--arg",
        "a=2",
        "--in",
        &x,
        "--in",
        &y,
        "--out",
        &out,
    ];
    let timed = Command::new(env!("CARGO_BIN_EXE_loomc"))
        .env("LOOM_IO_TIMES", "1")
        .args(args)
        .output()
        .map_err(|e| e.to_string())?;
    let stderr = String::from_utf8_lossy(&timed.stderr);
    let lines: Vec<&str> = stderr.lines().filter(|l| l.starts_with("npy ")).collect();
    let shapes = [
        ("npy read x: 4000 bytes in ", " ms"),
        ("npy read y: 4000 bytes in ", " ms"),
        ("npy write y: 4000 bytes in ", " ms"),
        ("npy rename y: 0 bytes in ", " ms"),
    ];
    let fits = |line: &str, (start, end): (&str, &str)| {
        line.strip_prefix(start)
            .and_then(|rest| rest.strip_suffix(end))
            .is_some_and(|ms| ms.parse::<f64>().is_ok())
    };
    if !timed.status.success()
        || lines.len() != shapes.len()
        || !lines.iter().zip(shapes).all(|(l, s)| fits(l, s))
    {
        return Err(format!("LOOM_IO_TIMES=1: {stderr}").into());
    }
    let quiet = loomc(&args)?;
    let stderr = String::from_utf8_lossy(&quiet.stderr);
    if !quiet.status.success() || stderr.contains("npy ") {
        return Err(format!("without LOOM_IO_TIMES: {stderr}").into());
    }
    Ok(())
}

fn rejects_truncated_npy() -> Result<(), Failed> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let path = dir.path().join("x.npy");
    write_f32(&path, &[1.0; 10])?;
    let bytes = std::fs::read(&path).map_err(|e| e.to_string())?;
    std::fs::write(&path, &bytes[..bytes.len() - 6]).map_err(|e| e.to_string())?;
    let file = super::support::repo_root().join("examples/saxpy.loom");
    let x = format!("x={}", path.display());
    let out = loomc(&[
        "run",
        file.to_str().unwrap_or_default(),
        "--kernel",
        "saxpy",
        "--blocks",
        "1",
        "--arg",
        "n=10",
        "--arg",
        "a=1",
        "--in",
        &x,
        "--out",
        &format!("y={}", dir.path().join("y.npy").display()),
    ])?;
    expect_usage_error(
        &out,
        "is truncated: its shape [10] needs 40 bytes of data, it has 34",
        "a truncated file",
    )
}

fn write_f32(path: &Path, values: &[f32]) -> Result<(), Failed> {
    write_f32_shaped(path, values, &[values.len() as u64])
}

fn write_f32_shaped(path: &Path, values: &[f32], shape: &[u64]) -> Result<(), Failed> {
    let mut out = std::fs::File::create(path).map_err(|e| e.to_string())?;
    let mut writer = npyz::WriteOptions::<f32>::new()
        .default_dtype()
        .shape(shape)
        .writer(&mut out)
        .begin_nd()
        .map_err(|e| e.to_string())?;
    writer
        .extend(values.iter().copied())
        .map_err(|e| e.to_string())?;
    writer.finish().map_err(|e| e.to_string())?;
    Ok(())
}

fn loomc(args: &[&str]) -> Result<std::process::Output, Failed> {
    Ok(Command::new(env!("CARGO_BIN_EXE_loomc"))
        .args(args)
        .output()
        .map_err(|e| e.to_string())?)
}

fn round_trip() -> Result<(), Failed> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let n = 1000usize;
    let mut rng = Rng::new(99);
    let x = rng.f32s(n, -5.0, 5.0);
    let y = rng.f32s(n, -5.0, 5.0);
    let (xp, yp, outp) = (
        dir.path().join("x.npy"),
        dir.path().join("y.npy"),
        dir.path().join("out.npy"),
    );
    write_f32(&xp, &x)?;
    write_f32(&yp, &y)?;
    let file = super::support::repo_root().join("examples/saxpy.loom");
    let (x_arg, y_arg, out_arg) = (
        format!("x={}", xp.display()),
        format!("y={}", yp.display()),
        format!("y={}", outp.display()),
    );
    let out = loomc(&[
        "run",
        &file.display().to_string(),
        "--kernel",
        "saxpy",
        "--blocks",
        "4",
        "--block-size",
        "256",
        "--arg",
        "n=1000",
        "--arg",
        "a=1.5",
        "--in",
        &x_arg,
        "--in",
        &y_arg,
        "--out",
        &out_arg,
    ])?;
    if !out.status.success() {
        return Err(format!("loomc run failed: {}", String::from_utf8_lossy(&out.stderr)).into());
    }
    let npy = npyz::NpyFile::new(std::fs::File::open(&outp).map_err(|e| e.to_string())?)
        .map_err(|e| e.to_string())?;
    if npy.shape() != [n as u64] {
        return Err(format!("out.npy has shape {:?}", npy.shape()).into());
    }
    let got: Vec<f32> = npy.into_vec().map_err(|e| e.to_string())?;
    let expected: Vec<f64> = x
        .iter()
        .zip(&y)
        .map(|(x, y)| (1.5 * x + y) as f64)
        .collect();
    let got: Vec<f64> = got.iter().map(|v| *v as f64).collect();
    super::support::close("out", &got, &expected, 1e-6, 1e-5)?;
    Ok(())
}

fn rejects() -> Result<(), Failed> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let xp = dir.path().join("x.npy");
    write_f32(&xp, &[1.0; 10])?;
    let file = super::support::repo_root().join("tests/ui/ok/prefix_sum.loom");
    let x_arg = format!("x={}", xp.display());
    // prefixSum's x is Int32[n]: a Float32 file is the wrong dtype.
    let out = loomc(&[
        "run",
        &file.display().to_string(),
        "--kernel",
        "prefixSum",
        "--blocks",
        "1",
        "--arg",
        "n=10",
        "--in",
        &x_arg,
        "--out",
        "out=unused.npy",
    ])?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    if out.status.code() != Some(2)
        || !stderr.contains("parameter `x` holds Int32 (dtype <i4), but")
        || !stderr.contains("has dtype <f4")
    {
        return Err(format!(
            "wrong dtype not rejected clearly (status {:?}): {stderr}",
            out.status.code()
        )
        .into());
    }
    // saxpy's x is Float32[n]: ten elements for n = 12 is the wrong shape.
    let file = super::support::repo_root().join("examples/saxpy.loom");
    let out = loomc(&[
        "run",
        &file.display().to_string(),
        "--kernel",
        "saxpy",
        "--blocks",
        "1",
        "--arg",
        "n=12",
        "--arg",
        "a=1",
        "--in",
        &x_arg,
        "--out",
        "y=unused.npy",
    ])?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    if out.status.code() != Some(2)
        || !stderr.contains("parameter `x` must have shape [12] ([n] with BLOCKS = 1), not [10]")
    {
        return Err(format!(
            "wrong shape not rejected clearly (status {:?}): {stderr}",
            out.status.code()
        )
        .into());
    }
    if Path::new("unused.npy").exists() {
        return Err("a rejected run wrote its output".into());
    }
    // Without a GPU, --device cuda says so.
    if !loom_runtime::driver_present() {
        let out = loomc(&[
            "run",
            &file.display().to_string(),
            "--kernel",
            "saxpy",
            "--blocks",
            "1",
            "--arg",
            "n=10",
            "--arg",
            "a=1",
            "--in",
            &x_arg,
            "--out",
            "y=unused.npy",
            "--device",
            "cuda",
        ])?;
        let stderr = String::from_utf8_lossy(&out.stderr);
        if out.status.code() != Some(1) || !stderr.contains("no CUDA driver on this machine") {
            return Err(format!(
                "--device cuda without a GPU (status {:?}): {stderr}",
                out.status.code()
            )
            .into());
        }
    }
    Ok(())
}

/// `runtime/tests/row_max.json` is what the runtime's tests read: it must stay what loomc writes.
fn metadata_snapshot() -> Result<(), Failed> {
    let root = super::support::repo_root();
    let out = loomc(&["tests/ui/ok/row_max.loom", "--emit=metadata", "-o", "-"]).and_then(|o| {
        if o.status.success() {
            Ok(o)
        } else {
            Err(String::from_utf8_lossy(&o.stderr).into_owned().into())
        }
    })?;
    let expected = std::fs::read_to_string(root.join("runtime/tests/row_max.json"))
        .map_err(|e| e.to_string())?;
    if String::from_utf8_lossy(&out.stdout) != expected {
        return Err("loomc --emit=metadata of tests/ui/ok/row_max.loom differs from runtime/tests/row_max.json".into());
    }
    let metadata = loom_runtime::ModuleMetadata::from_json(&expected)?;
    if metadata.kernels[0].params.len() != 4 {
        return Err("rowMax has 4 parameters".into());
    }
    Ok(())
}

/// `--arg r=2..7` for a `Range`, `--arg f.scale=2` for each field of a record; a missing, unknown,
/// repeated or ill-typed field is a usage error that lists the record's fields.
fn range_and_record_arguments() -> Result<(), Failed> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let file = super::support::repo_root().join("tests/ui/ok/record_params.loom");
    let file = file.display().to_string();
    let (y, c) = (dir.path().join("y.npy"), dir.path().join("c.npy"));
    let (y_arg, c_arg) = (format!("y={}", y.display()), format!("c={}", c.display()));
    let fields = ["f.scale=2", "f.shift=1.5", "f.on=true", "f.bias=100"];
    let run = |extra: &[&str], with_fields: &[&str]| {
        let mut args = vec![
            "run",
            &file,
            "--kernel",
            "window",
            "--blocks",
            "2",
            "--block-size",
            "32",
            "--arg",
            "n=40",
            "--out",
            "x=/dev/null",
            "--out",
            "k=/dev/null",
            "--out",
            &y_arg,
            "--out",
            &c_arg,
        ];
        for f in with_fields {
            args.extend(["--arg", f]);
        }
        args.extend_from_slice(extra);
        loomc(&args)
    };
    let out = run(&["--arg", "r=2..7"], &fields)?;
    if !out.status.success() {
        return Err(format!("loomc run failed: {}", String::from_utf8_lossy(&out.stderr)).into());
    }
    // x and k are zeros: y = 2 * 0 + 1.5, c = 100 + 0 + (7 - 2).
    if read_f32(&y)? != vec![1.5f32; 40] {
        return Err(format!("y = {:?}", read_f32(&y)?).into());
    }
    let npy = npyz::NpyFile::new(std::fs::File::open(&c).map_err(|e| e.to_string())?)
        .map_err(|e| e.to_string())?;
    let got: Vec<i64> = npy.into_vec().map_err(|e| e.to_string())?;
    if got != vec![105i64; 2] {
        return Err(format!("c = {got:?}").into());
    }
    // The Range's fields one by one are the same argument.
    let out = run(&["--arg", "r.start=2", "--arg", "r.end=7"], &fields)?;
    if !out.status.success() {
        return Err(format!("r.start, r.end: {}", String::from_utf8_lossy(&out.stderr)).into());
    }
    let listed = "--arg f.scale=Float32 --arg f.shift=Float32 --arg f.on=Bool --arg f.bias=Int64";
    for (extra, with_fields, says) in [
        (&["--arg", "r=2..7"][..], &fields[..3], "needs field `bias`"),
        (
            &["--arg", "r=2..7", "--arg", "f.z=1"][..],
            &fields[..],
            "has no field `z`",
        ),
        (
            &["--arg", "r=2..7", "--arg", "f.bias=1"][..],
            &fields[..],
            "field `bias` is given twice",
        ),
        (
            &["--arg", "r=2..7"][..],
            &["f.scale=2", "f.shift=1", "f.on=maybe", "f.bias=1"][..],
            "`maybe` is not a Bool",
        ),
        (
            &["--arg", "r=2..7", "--arg", "f=1"][..],
            &fields[..],
            "is a record: give each field",
        ),
        (
            &[][..],
            &fields[..],
            "record parameter `r` needs a value: --arg r=START..END",
        ),
        (
            &["--arg", "r=7"][..],
            &fields[..],
            "is a Range: --arg r=START..END",
        ),
        (
            &["--arg", "r=2..7", "--arg", "n.x=1"][..],
            &fields[..],
            "is not a record",
        ),
    ] {
        let out = run(extra, with_fields)?;
        expect_usage_error(&out, says, &format!("{extra:?} {with_fields:?}"))?;
        let stderr = String::from_utf8_lossy(&out.stderr);
        if says.contains("field")
            && !stderr.contains("f.scale")
            && !stderr.contains("scale: Float32")
        {
            return Err(
                format!("{extra:?}: the error lists no fields ({listed}): {stderr}").into(),
            );
        }
    }
    Ok(())
}
