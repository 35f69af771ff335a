//! The `loomc` command line: exit statuses, outputs, standard input, diagnostic formats.

#[path = "support/mod.rs"]
mod support;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

const SAXPY: &str = "\
kernel saxpy(n: Int32, a: Float32, x: Float32[n], y: Float32[n])
  i: Int32 <- B * BLOCKSIZE
  if i < n then y[i] <- a * x[i] + y[i]
";

/// Two independent errors: an unknown name and a mismatched type.
const TWO_ERRORS: &str = "\
kernel k(x: Float32[THREADS])
  a: Int32 <- undefined_name
  b: Int32 <- 1.5
";

fn loomc(args: &[&str], dir: &Path, stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_loomc"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("loomc starts");
    let mut input = child.stdin.take().expect("stdin is piped");
    // A run that stops before reading its input (a usage error) closes the pipe first: what it
    // was not given does not matter then, and the test looks at its exit status.
    if let Err(e) = input.write_all(stdin.unwrap_or("").as_bytes()) {
        assert_eq!(
            e.kind(),
            std::io::ErrorKind::BrokenPipe,
            "stdin takes the source: {e}"
        );
    }
    drop(input);
    child.wait_with_output().expect("loomc finishes")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn writes_ptx_beside_the_input_name_by_default() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("saxpy.loom"), SAXPY).unwrap();
    let output = loomc(&["saxpy.loom"], dir.path(), None);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let ptx = std::fs::read_to_string(dir.path().join("saxpy.ptx")).unwrap();
    assert!(ptx.contains(".entry saxpy"), "{ptx}");
    assert!(
        ptx.contains(".target sm_80"),
        "the default --arch is sm_80: {ptx}"
    );
    support::assemble(&ptx, "sm_80").unwrap();
}

#[test]
fn reads_standard_input_and_writes_standard_output() {
    let dir = tempfile::tempdir().unwrap();
    let output = loomc(
        &["-", "--emit=llvm", "--arch=sm_90"],
        dir.path(),
        Some(SAXPY),
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let ir = String::from_utf8_lossy(&output.stdout);
    assert!(ir.contains("define") && ir.contains("@saxpy"), "{ir}");
    assert!(
        files_in(dir.path()).is_empty(),
        "nothing is written to disk"
    );
}

#[test]
fn several_emit_kinds_are_written_beside_the_output_path() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("k.loom"), SAXPY).unwrap();
    let output = loomc(
        &["k.loom", "--emit=llvm,ptx,ast", "-o", "build.ptx"],
        dir.path(),
        None,
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(
        files_in(dir.path()),
        ["build.ast.json", "build.ll", "build.ptx", "k.loom"]
    );
    let ll = std::fs::read_to_string(dir.path().join("build.ll")).unwrap();
    assert!(ll.contains("nvptx64-nvidia-cuda"), "{ll}");
}

#[test]
fn program_errors_exit_1_report_every_error_and_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bad.loom"), TWO_ERRORS).unwrap();
    let output = loomc(
        &["bad.loom", "-o", "bad.ptx", "--color=never"],
        dir.path(),
        None,
    );
    assert_eq!(output.status.code(), Some(1));
    let text = stderr(&output);
    assert!(text.contains("undefined_name"), "{text}");
    assert!(
        text.contains("bad.loom:2:"),
        "diagnostics name file and line: {text}"
    );
    assert!(
        text.contains("bad.loom:3:"),
        "the second, independent error is reported too: {text}"
    );
    assert!(text.contains("(2 errors)"), "{text}");
    assert_eq!(files_in(dir.path()), ["bad.loom"], "no partial output");
}

#[test]
fn json_diagnostics_carry_code_span_and_labels() {
    let dir = tempfile::tempdir().unwrap();
    let output = loomc(&["-", "--error-format=json"], dir.path(), Some(TWO_ERRORS));
    assert_eq!(output.status.code(), Some(1));
    let text = stderr(&output);
    let diagnostics: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert_eq!(diagnostics.len(), 2, "{text}");
    for d in &diagnostics {
        assert!(
            d["code"].as_str().is_some_and(|c| c.starts_with('E')),
            "{d}"
        );
        assert_eq!(d["severity"], "error");
        let label = &d["labels"][0];
        assert_eq!(label["file"], "<stdin>");
        assert!(label["line"].as_u64().unwrap() >= 2, "{d}");
        assert!(label["start"].as_u64() < label["end"].as_u64(), "{d}");
    }
}

#[test]
fn usage_errors_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["--emit=binary", "-"][..],
        &["-O7", "-"],
        &["--block-size=2048", "-"],
        &["--block-size=0", "-"],
        &[],
    ] {
        let output = loomc(args, dir.path(), Some(SAXPY));
        assert_eq!(
            output.status.code(),
            Some(2),
            "{args:?}: {}",
            stderr(&output)
        );
    }
    let missing = loomc(&["does-not-exist.loom"], dir.path(), None);
    assert_eq!(missing.status.code(), Some(2));
    assert!(stderr(&missing).contains("does-not-exist.loom"));
}

#[test]
fn an_unknown_arch_is_a_usage_error_with_a_diagnostic() {
    let dir = tempfile::tempdir().unwrap();
    for arch in ["--arch=sm_1", "--arch=sm_999"] {
        let output = loomc(&["-", arch, "--color=never"], dir.path(), Some(SAXPY));
        assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
        let text = stderr(&output);
        assert!(
            text.contains("error[E0801]") && text.contains(&arch[7..]),
            "{text}"
        );
        assert!(output.stdout.is_empty());
    }
}

#[test]
fn every_optimisation_level_and_arch_gives_ptx_that_ptxas_accepts() {
    let dir = tempfile::tempdir().unwrap();
    for level in ["-O0", "-O1", "-O2", "-O3"] {
        for arch in support::PTXAS_ARCHS {
            let arch_flag = format!("--arch={arch}");
            let output = loomc(
                &["-", level, &arch_flag, "--emit=ptx"],
                dir.path(),
                Some(SAXPY),
            );
            assert_eq!(
                output.status.code(),
                Some(0),
                "{level} {arch}: {}",
                stderr(&output)
            );
            let ptx = String::from_utf8_lossy(&output.stdout);
            assert!(ptx.contains(".entry saxpy"), "{ptx}");
            support::assemble(&ptx, arch).unwrap_or_else(|e| panic!("{level}: {e}"));
        }
    }
}

#[test]
fn explain_prints_the_long_explanation_of_a_code() {
    let dir = tempfile::tempdir().unwrap();
    let output = loomc(&["explain", "E0300"], dir.path(), None);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.starts_with("# E0300"), "{text}");
    for code in ["E0001", "e0851", "W0001", "E0805"] {
        let output = loomc(&["explain", code], dir.path(), None);
        assert_eq!(output.status.code(), Some(0), "{code}: {}", stderr(&output));
        let text = String::from_utf8_lossy(&output.stdout);
        assert!(
            text.starts_with(&format!("# {}: ", code.to_uppercase())),
            "{text}"
        );
    }
    let unknown = loomc(&["explain", "E4242"], dir.path(), None);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(
        stderr(&unknown).contains("E0300"),
        "lists the codes that have explanations"
    );
}

/// Every diagnostic code some stage of loomc defines.
fn defined_codes() -> Vec<&'static str> {
    [
        loomc::syntax::CODES,
        loomc::check::CODES,
        loomc::codegen::CODES,
        loomc::target::CODES,
        loomc::verify::CODES,
    ]
    .into_iter()
    .flatten()
    .copied()
    .collect()
}

#[test]
fn explain_says_what_became_of_a_retired_code() {
    let dir = tempfile::tempdir().unwrap();
    let out = loomc(&["explain", "E0113"], dir.path(), None);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("E0113 is no longer given by loomc") && text.contains("by value"),
        "{text}"
    );
    for (code, _) in loomc::diagnostics::RETIRED_CODES {
        assert!(
            !defined_codes().contains(code),
            "{code} is retired but still defined"
        );
        assert!(
            loomc::diagnostics::explanation(code).is_none(),
            "{code} is retired but has docs/errors/{code}.md"
        );
    }
}

#[test]
fn every_explanation_is_of_a_code_the_compiler_defines() {
    let defined = defined_codes();
    for code in loomc::diagnostics::explained_codes() {
        assert!(
            defined.contains(&code),
            "docs/errors/{code}.md explains no defined code"
        );
    }
}

#[test]
fn a_failed_compile_points_at_the_explanation() {
    let dir = tempfile::tempdir().unwrap();
    let source = "kernel k(x: Float32[THREADS])\n  if x[block(B)] > 0.0 then x[0] <- 1.0\n";
    let output = loomc(&["-", "--color=never"], dir.path(), Some(source));
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("try `loomc explain E0300`"),
        "{}",
        stderr(&output)
    );
}

/// The mode bits of a file, without its type.
fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o7777
}

fn file_type(path: &Path) -> std::fs::FileType {
    std::fs::symlink_metadata(path).unwrap().file_type()
}

#[test]
fn output_into_a_fifo_is_written_in_place_and_the_fifo_stays() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe");
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    // A FIFO's writer blocks until a reader opens it: read it on another thread.
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    let output = loomc(
        &["-", "-o", fifo.to_str().unwrap()],
        dir.path(),
        Some(SAXPY),
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let ptx = reader.join().unwrap();
    assert!(ptx.contains(".entry saxpy"), "{ptx}");
    assert!(file_type(&fifo).is_fifo(), "the FIFO is still a FIFO");
    assert_eq!(files_in(dir.path()), ["pipe"], "no temporary file left");
}

#[test]
fn output_into_a_character_device_is_written_in_place_and_the_device_stays() {
    use std::os::unix::fs::{FileTypeExt, MetadataExt};
    let dir = tempfile::tempdir().unwrap();
    let null = dir.path().join("null");
    // A second /dev/null (major 1, minor 3); making device nodes needs root (CAP_MKNOD).
    let made = Command::new("mknod")
        .args([null.to_str().unwrap(), "c", "1", "3"])
        .output()
        .expect("mknod runs");
    if !made.status.success() {
        eprintln!(
            "skipped: mknod is not permitted here ({}); the FIFO test covers writing in place",
            String::from_utf8_lossy(&made.stderr).trim()
        );
        return;
    }
    let device = std::fs::metadata(&null).unwrap().rdev();
    let output = loomc(
        &["-", "-o", null.to_str().unwrap()],
        dir.path(),
        Some(SAXPY),
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(file_type(&null).is_char_device(), "still a device node");
    assert_eq!(std::fs::metadata(&null).unwrap().rdev(), device);
    assert_eq!(files_in(dir.path()), ["null"], "no temporary file left");
}

#[test]
fn a_full_device_is_an_error_not_a_success() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().unwrap();
    if !Path::new("/dev/full").exists() {
        eprintln!("skipped: this system has no /dev/full");
        return;
    }
    let output = loomc(
        &["-", "-o", "/dev/full", "--error-format=json"],
        dir.path(),
        Some(SAXPY),
    );
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let diagnostic: serde_json::Value =
        serde_json::from_str(stderr(&output).trim()).expect("one JSON diagnostic");
    assert_eq!(diagnostic["code"], "E0805");
    assert!(
        diagnostic["message"]
            .as_str()
            .unwrap()
            .contains("/dev/full"),
        "{diagnostic}"
    );
    assert!(file_type(Path::new("/dev/full")).is_char_device());
}

#[test]
fn a_missing_output_directory_names_the_users_path() {
    let dir = tempfile::tempdir().unwrap();
    for format in ["--error-format=human", "--error-format=json"] {
        let output = loomc(
            &[
                "-",
                "-o",
                "build/saxpy",
                "--emit=llvm,ptx",
                format,
                "--color=never",
            ],
            dir.path(),
            Some(SAXPY),
        );
        assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
        let text = stderr(&output);
        assert!(
            !text.contains(".tmp") && !text.contains(".loomc-"),
            "{text}"
        );
        if format.ends_with("json") {
            let diagnostic: serde_json::Value =
                serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("{e}: {text}"));
            assert_eq!(diagnostic["code"], "E0805");
            let message = diagnostic["message"].as_str().unwrap();
            assert!(message.contains("`build/saxpy.ll`"), "{message}");
            assert!(message.contains("`build` does not exist"), "{message}");
        } else {
            assert!(
                text.contains("error[E0805]: cannot write `build/saxpy.ll`"),
                "{text}"
            );
            assert!(text.contains("mkdir -p build"), "{text}");
        }
        assert!(files_in(dir.path()).is_empty(), "nothing written");
    }
}

#[test]
fn outputs_are_created_with_the_umask_and_keep_an_existing_mode() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("k.loom"), SAXPY).unwrap();
    // The child inherits the umask; set it for the child alone through the shell.
    let run = |umask: &str, args: &str| {
        let status = Command::new("sh")
            .arg("-c")
            .arg(format!("umask {umask} && exec \"$0\" k.loom {args}"))
            .arg(env!("CARGO_BIN_EXE_loomc"))
            .current_dir(dir.path())
            .status()
            .unwrap();
        assert!(status.success());
    };
    run("022", "--emit=llvm,ptx -o a");
    assert_eq!(mode(&dir.path().join("a.ptx")), 0o644);
    assert_eq!(mode(&dir.path().join("a.ll")), 0o644);
    run("027", "-o b.ptx");
    assert_eq!(mode(&dir.path().join("b.ptx")), 0o640);
    // Rewriting an existing output keeps its mode, as `cc -o` does.
    std::fs::set_permissions(
        dir.path().join("a.ptx"),
        std::fs::Permissions::from_mode(0o664),
    )
    .unwrap();
    run("002", "-o a.ptx");
    assert_eq!(mode(&dir.path().join("a.ptx")), 0o664);
}

#[test]
fn several_kinds_on_standard_output_are_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["-", "--emit=llvm,ptx", "-o", "-"][..],
        &["-", "--emit=ast,metadata", "-o", "-"],
        // Standard input without -o writes to standard output too.
        &["-", "--emit=ast,metadata"],
    ] {
        let output = loomc(args, dir.path(), Some(SAXPY));
        assert_eq!(
            output.status.code(),
            Some(2),
            "{args:?}: {}",
            stderr(&output)
        );
        assert!(output.stdout.is_empty(), "{args:?}");
        let text = stderr(&output);
        assert!(text.contains("cannot share standard output"), "{text}");
        assert!(text.contains("-o PATH"), "the hint says what to do: {text}");
    }
    let one = loomc(
        &["-", "--emit=metadata", "-o", "-"],
        dir.path(),
        Some(SAXPY),
    );
    assert_eq!(one.status.code(), Some(0), "{}", stderr(&one));
    serde_json::from_slice::<serde_json::Value>(&one.stdout).expect("one kind parses");
}

#[test]
fn a_pipeline_that_deletes_the_kernels_is_a_diagnostic_not_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    for (passes, what) in [
        (
            "--passes=internalize,globaldce",
            "deleted the kernel `saxpy`",
        ),
        ("--passes=internalize", "made internal the kernel `saxpy`"),
    ] {
        let output = loomc(
            &["-", passes, "--color=never", "-o", "-"],
            dir.path(),
            Some(SAXPY),
        );
        assert_eq!(
            output.status.code(),
            Some(1),
            "{passes}: {}",
            stderr(&output)
        );
        let text = stderr(&output);
        assert!(
            text.contains("error[E0804]") && text.contains(what),
            "{text}"
        );
        assert!(text.contains("internalize<preserve-gv=saxpy>"), "{text}");
    }
    let kept = loomc(
        &[
            "-",
            "--passes=internalize<preserve-gv=saxpy>,globaldce",
            "-o",
            "-",
        ],
        dir.path(),
        Some(SAXPY),
    );
    assert_eq!(kept.status.code(), Some(0), "{}", stderr(&kept));
    assert!(String::from_utf8_lossy(&kept.stdout).contains(".entry saxpy"));
}

#[test]
fn a_negative_block_count_is_named_as_such() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("k.loom"), SAXPY).unwrap();
    for (blocks, says) in [
        ("-1", "a negative block count (-1)"),
        ("0", "at least 1 block"),
    ] {
        let output = loomc(
            &["run", "k.loom", "--kernel", "saxpy", "--blocks", blocks],
            dir.path(),
            None,
        );
        assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
        let text = stderr(&output);
        assert!(text.contains(says), "{text}");
        assert!(
            !text.contains("-- -1"),
            "no tip to pass it after `--`: {text}"
        );
    }
}

#[test]
fn help_explains_exit_statuses_and_error_formats() {
    let dir = tempfile::tempdir().unwrap();
    for args in [&["--help"][..], &["run", "--help"]] {
        let output = loomc(args, dir.path(), None);
        assert_eq!(output.status.code(), Some(0));
        let help = String::from_utf8_lossy(&output.stdout);
        for needle in [
            "Exit status:",
            "  2    usage error",
            "  101  internal",
            "--error-format",
        ] {
            assert!(help.contains(needle), "{args:?} lacks {needle}: {help}");
        }
    }
}

/// Under `--error-format=json` a successful run writes no human text to standard error (no
/// "ran ..." line, no progress), so a tool can parse every line of it as JSON.
#[test]
fn a_json_run_writes_only_json_to_standard_error() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("k.loom"), SAXPY).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_loomc"))
        .current_dir(dir.path())
        .env("LOOM_PROGRESS_AFTER_MS", "0")
        .args([
            "run",
            "k.loom",
            "--kernel",
            "saxpy",
            "--blocks",
            "2",
            "--arg",
            "n=100",
            "--arg",
            "a=2",
            "--out",
            "x=x.npy",
            "--out",
            "y=y.npy",
            "--error-format=json",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    for line in stderr(&output).lines().filter(|l| !l.trim().is_empty()) {
        assert!(
            serde_json::from_str::<serde_json::Value>(line).is_ok(),
            "not JSON: {line:?}"
        );
    }
}

#[test]
fn run_errors_follow_the_error_format() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("k.loom"), SAXPY).unwrap();
    std::fs::write(dir.path().join("bad.loom"), TWO_ERRORS).unwrap();
    let unknown = loomc(
        &[
            "run",
            "k.loom",
            "--kernel",
            "nope",
            "--blocks",
            "1",
            "--error-format=json",
        ],
        dir.path(),
        None,
    );
    assert_eq!(unknown.status.code(), Some(2), "{}", stderr(&unknown));
    let error: serde_json::Value = serde_json::from_str(stderr(&unknown).trim()).unwrap();
    assert!(
        error["message"].as_str().unwrap().contains("saxpy"),
        "lists the kernels: {error}"
    );
    let bad = loomc(
        &[
            "run",
            "bad.loom",
            "--kernel",
            "k",
            "--blocks",
            "1",
            "--error-format=json",
        ],
        dir.path(),
        None,
    );
    assert_eq!(bad.status.code(), Some(1), "{}", stderr(&bad));
    let lines: Vec<serde_json::Value> = stderr(&bad)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert!(lines
        .iter()
        .any(|d| d["code"].as_str().is_some_and(|c| c.starts_with('E'))));
}

/// Two kernels and a func only the first calls.
const TWO_KERNELS: &str = "\
func twice(x: Float32): Float32
  return 2.0 * x

kernel scale(x: Float32[THREADS])
  x[block(B)] <- twice /~ x[block(B)]

kernel clear(y: Float32[THREADS])
  y[block(B)] <- 0.0
";

/// A regular file under /dev (here /dev/shm, a memory file system) is an ordinary output: a
/// second compile replaces it. Only the names of open descriptors (`/dev/stdout`, `/dev/fd/N`,
/// `/proc/self/fd/N`) are written in place, appended to as the shell set them up.
#[test]
fn a_regular_file_under_dev_is_replaced_not_appended_to() {
    let shm = Path::new("/dev/shm");
    if !shm.is_dir() {
        eprintln!("SKIPPED a_regular_file_under_dev_is_replaced_not_appended_to: no /dev/shm");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("k.loom"), SAXPY).unwrap();
    let target = tempfile::Builder::new()
        .prefix("loomc-test-")
        .suffix(".ptx")
        .tempfile_in(shm)
        .unwrap();
    let path = target.path().to_str().unwrap().to_string();
    for _ in 0..2 {
        let output = loomc(&["k.loom", "-o", &path], dir.path(), None);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    }
    let ptx = std::fs::read_to_string(&path).unwrap();
    assert_eq!(ptx.matches(".entry saxpy").count(), 1, "{ptx}");
}

/// The kernel kept by `--kernel` may call the standard library: dropping the other kernels must
/// not move the boundary between the user's items and the library's (the library's first
/// `sum` overloads were once taken for user funcs, and a `Float32` sum failed to check).
#[test]
fn a_selected_kernel_calls_the_standard_library() {
    let dir = tempfile::tempdir().unwrap();
    let source = "kernel a(x: Float32[THREADS])\n  x[block(B)] <- 0.0\n\n\
                  kernel b(x: Float32[THREADS])\n  x[block(B)] <- 1.0\n\n\
                  kernel total(x: Float32[THREADS], o: Float32[BLOCKS])\n  o[B] <- sum /. x[block(B)]\n";
    std::fs::write(dir.path().join("three.loom"), source).unwrap();
    let output = loomc(
        &["three.loom", "--kernel", "total", "--emit=ptx", "-o", "-"],
        dir.path(),
        None,
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(String::from_utf8_lossy(&output.stdout).contains(".entry total"));
}

#[test]
fn kernel_selects_one_kernel_for_every_output_and_dump() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("two.loom"), TWO_KERNELS).unwrap();
    let output = loomc(
        &[
            "two.loom",
            "--kernel",
            "clear",
            "--emit=ast,llvm-raw,llvm,metadata,ptx",
            "-o",
            "out",
            "--print-after-all",
            "--print-dir",
            "dumps",
        ],
        dir.path(),
        None,
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let read = |name: &str| std::fs::read_to_string(dir.path().join(name)).unwrap();
    let ptx = read("out.ptx");
    assert!(
        ptx.contains(".entry clear") && !ptx.contains("scale"),
        "{ptx}"
    );
    for ir in [read("out.raw.ll"), read("out.ll")] {
        assert!(
            ir.contains("@clear") && !ir.contains("@scale") && !ir.contains("twice"),
            "{ir}"
        );
    }
    let metadata: serde_json::Value = serde_json::from_str(&read("out.json")).unwrap();
    let names: Vec<&str> = metadata["kernels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["clear"]);
    let ast = read("out.ast.json");
    assert!(
        ast.contains("\"clear\"") && !ast.contains("\"scale\""),
        "{ast}"
    );
    let dumps = files_in(&dir.path().join("dumps"));
    assert!(!dumps.is_empty());
    for dump in dumps {
        let text = read(&format!("dumps/{dump}"));
        assert!(!text.contains("scale"), "{dump} mentions the other kernel");
    }
    // The func comes along with the kernel that calls it.
    let scale = loomc(
        &["two.loom", "--kernel=scale", "--emit=llvm-raw", "-o", "-"],
        dir.path(),
        None,
    );
    assert_eq!(scale.status.code(), Some(0), "{}", stderr(&scale));
    let ir = String::from_utf8_lossy(&scale.stdout);
    assert!(
        ir.contains("@scale") && ir.contains("twice") && !ir.contains("@clear"),
        "{ir}"
    );
}

#[test]
fn an_unknown_kernel_is_a_usage_error_listing_the_kernels() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("two.loom"), TWO_KERNELS).unwrap();
    let output = loomc(
        &["two.loom", "--kernel", "sclae", "--color=never"],
        dir.path(),
        None,
    );
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    let text = stderr(&output);
    assert!(text.contains("error[E0806]: --kernel sclae"), "{text}");
    assert!(text.contains("its kernels: `scale`, `clear`"), "{text}");
    assert!(!text.contains("could not compile"), "{text}");
    assert_eq!(files_in(dir.path()), ["two.loom"], "nothing written");
    let json = loomc(
        &["two.loom", "--kernel", "x", "--error-format=json"],
        dir.path(),
        None,
    );
    assert_eq!(json.status.code(), Some(2));
    let diagnostic: serde_json::Value = serde_json::from_str(stderr(&json).trim()).unwrap();
    assert_eq!(diagnostic["code"], "E0806");
}

#[test]
fn interleave_source_puts_each_source_line_above_its_ptx() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("saxpy.loom"), SAXPY).unwrap();
    let output = loomc(
        &["saxpy.loom", "--interleave-source", "-o", "-"],
        dir.path(),
        None,
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let ptx = String::from_utf8_lossy(&output.stdout).into_owned();
    let lines: Vec<&str> = ptx.lines().map(str::trim).collect();
    let comment = |line: usize, text: &str| format!("// saxpy.loom:{line}: {text}");
    let statement = comment(3, "if i < n then y[i] <- a * x[i] + y[i]");
    let at = lines
        .iter()
        .position(|l| *l == statement)
        .unwrap_or_else(|| panic!("no `{statement}` in {ptx}"));
    assert!(lines[at + 1].starts_with(".loc\t1 3 "), "{ptx}");
    let index = comment(2, "i: Int32 <- B * BLOCKSIZE");
    let index_at = lines.iter().position(|l| *l == index).expect(&ptx);
    assert!(index_at < at, "in source order here: {ptx}");
    // The store of the statement comes after its comment: the code is under its line.
    let store = lines
        .iter()
        .position(|l| l.starts_with("st.global.f32"))
        .expect(&ptx);
    assert!(store > at, "{ptx}");
    // Still PTX: the comments are PTX comments, the directives stay.
    support::assemble(&ptx, "sm_80").unwrap();
}

#[test]
fn the_host_examples_bindings_are_what_emit_rust_makes() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (source, bindings) in [
        ("examples/saxpy.loom", "examples/host/src/saxpy.rs"),
        (
            "examples/sum_of_squares.loom",
            "examples/host/src/sum_of_squares.rs",
        ),
        ("examples/transpose.loom", "examples/host/src/transpose.rs"),
        (
            "tests/ui/ok/record_params.loom",
            "examples/host/src/record_params.rs",
        ),
    ] {
        let output = loomc(&[source, "--emit=rust", "-o", "-"], repo, None);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let generated = String::from_utf8_lossy(&output.stdout);
        let committed = std::fs::read_to_string(repo.join(bindings)).unwrap();
        assert!(
            generated == committed,
            "{bindings} is not what `loomc {source} --emit=rust` makes today: regenerate it \
             (scripts/loomc {source} --emit=rust -o {bindings})"
        );
    }
}

#[test]
fn emit_rust_gives_two_typed_methods_per_kernel() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("two.loom"), TWO_KERNELS).unwrap();
    let output = loomc(&["two.loom", "--emit=rust", "-o", "-"], dir.path(), None);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let rust = String::from_utf8_lossy(&output.stdout);
    for line in [
        "    /// `scale(x: Float32[THREADS])`: 256 threads per block; `blocks` blocks, on the \
         GPU's stream; returns when the kernel has finished.",
        "    pub fn scale(",
        "    pub fn scale_on(",
        "        stream: &Stream,",
        "        x: &mut DeviceBuffer<f32>,",
        "    pub fn clear(",
        "                KernelArg::Array(y),",
    ] {
        assert!(rust.lines().any(|l| l == line), "no `{line}` in {rust}");
    }
    assert!(rust.contains("pub const PTX: &str = \"//\\n// Generated by LLVM NVPTX Back-End"));
    // With --kernel, the bindings are for that kernel alone.
    let one = loomc(
        &["two.loom", "--kernel=clear", "--emit=rust", "-o", "-"],
        dir.path(),
        None,
    );
    let rust = String::from_utf8_lossy(&one.stdout);
    assert!(
        rust.contains("pub fn clear(") && !rust.contains("pub fn scale("),
        "{rust}"
    );
}

#[test]
fn emit_rust_launches_two_dimensional_grids_with_a_grid_shape() {
    let dir = tempfile::tempdir().unwrap();
    // `tile` names BROW and BCOL (metadata grid_dims 2): its methods take `grid: GridShape`;
    // `flat` keeps `blocks: u32`. (`grid` is a reserved name in LOOM: no parameter meets it.)
    let source = "kernel tile(g: Int32, n: Int32, out: Int32[n])\n  \
                  out[[BROW * GRIDCOLS + BCOL]] <- g\n\nkernel flat(out: Int32[BLOCKS])\n  out[B] <- 1\n";
    let output = loomc(&["-", "--emit=rust", "-o", "-"], dir.path(), Some(source));
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let rust = String::from_utf8(output.stdout).unwrap();
    let tile = rust.split("pub fn flat(").next().unwrap();
    for line in [
        "use loom_runtime::{DeviceBuffer, Gpu, GpuModule, GridShape, KernelArg, ModuleMetadata, \
         Scalar, Stream, Timing};",
        "    pub fn tile(",
        "        grid: GridShape,",
        "        g: i32,",
        "        gpu.launch_buffers_grid(",
        "        stream.launch_buffers_grid(",
    ] {
        assert!(tile.lines().any(|l| l == line), "no `{line}` in:\n{rust}");
    }
    let flat = rust.split("pub fn flat(").nth(1).unwrap();
    assert!(flat.contains("        blocks: u32,") && flat.contains("gpu.launch_buffers(\n"));
    assert!(!flat.contains("GridShape"), "{flat}");
}

#[test]
fn emit_rust_binds_records_as_repr_c_structs() {
    let dir = tempfile::tempdir().unwrap();
    // A named record (one struct wherever it appears), a Range (loom-runtime's), a record
    // written out in the parameter (named after kernel and parameter), and a nested record whose
    // leaves need a padding field to stay at the metadata's offsets.
    let source =
        "type Inner = {v: Float64, c: Int8}\ntype Outer = {a: Int8, inner: Inner, h: Float16}\n\
                  kernel k(o: Outer, r: Range, q: {x: Float32}, out: Float64[BLOCKS])\n  \
                  out[B] <- o.inner.v + Float64(r.start) + Float64(q.x)\n\
                  kernel m(o: Outer, out: Float64[BLOCKS])\n  out[B] <- o.inner.v\n";
    let output = loomc(&["-", "--emit=rust", "-o", "-"], dir.path(), Some(source));
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let rust = String::from_utf8(output.stdout).unwrap();
    for line in [
        "        o: Outer,",
        "        r: loom_runtime::Range,",
        "        q: KQ,",
        "                KernelArg::Record(o.into()),",
        "#[repr(C)]",
        "pub struct Outer {",
        "    pub a: i8,",
        "    pub inner_v: f64,",
        "    pub inner_c: i8,",
        "    pub _pad0: [u8; 7],",
        "    pub h: u16,",
        "pub struct KQ {",
        "    std::mem::size_of::<Outer>() == 32",
        "        && std::mem::offset_of!(Outer, h) == 24",
        "            .field(\"inner.v\", Scalar::Float64(r.inner_v))",
    ] {
        assert!(rust.lines().any(|l| l == line), "no `{line}` in:\n{rust}");
    }
    assert_eq!(rust.matches("pub struct Outer {").count(), 1, "{rust}");
    assert!(!rust.contains("pub struct Range"), "{rust}");
}

#[test]
fn emit_rust_binds_bool_parameters_and_clashing_names() {
    let dir = tempfile::tempdir().unwrap();
    // `gpu` and `blocks` are the bindings' own parameters, `self` cannot be a Rust name, `xLen`
    // and `x_len` are the same in snake case, and a kernel named `load` meets `Kernels::load`.
    let source = "kernel load(on: Bool, gpu: Int32, blocks: Int32, self: Int32, xLen: Int32, \
                  x_len: Int32, out: Int32[BLOCKS])\n  if on then out[B] <- gpu + blocks\n";
    let output = loomc(&["-", "--emit=rust", "-o", "-"], dir.path(), Some(source));
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let rust = String::from_utf8(output.stdout).unwrap();
    for line in [
        "    pub fn load_(",
        "    pub fn load__on(",
        "        on: bool,",
        "        gpu_: i32,",
        "        blocks_: i32,",
        "        self_: i32,",
        "        x_len: i32,",
        "        x_len_: i32,",
        "                KernelArg::Scalar(Scalar::Bool(on)),",
        "                KernelArg::Scalar(Scalar::Int32(gpu_)),",
    ] {
        assert!(rust.lines().any(|l| l == line), "no `{line}` in:\n{rust}");
    }
    // The LOOM signature stays in the doc comment.
    assert!(
        rust.contains("`load(on: Bool, gpu: Int32, blocks: Int32, self: Int32"),
        "{rust}"
    );
}

#[test]
fn dev_stdout_redirected_to_a_file_is_written_through_the_descriptor() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log.txt");
    std::fs::write(&log, "before\n").unwrap();
    // `loomc - -o /dev/stdout >> log.txt`: appended, the file neither replaced nor truncated.
    let appended = std::fs::OpenOptions::new().append(true).open(&log).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_loomc"))
        .args(["-", "-o", "/dev/stdout"])
        .current_dir(dir.path())
        .stdin(Stdio::piped())
        .stdout(appended)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(SAXPY.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(
        text.starts_with("before\n") && text.contains(".entry saxpy"),
        "{text}"
    );
    assert_eq!(files_in(dir.path()), ["log.txt"]);
}
