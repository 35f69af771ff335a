//! The harness binary without a GPU: usage errors, and a clear message (exit 0) when no CUDA
//! driver is present; on a machine with one, missing modules are an error naming the file.

use std::process::Command;

fn harness(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_loom-bench-gpu"))
        .args(args)
        .output()
        .expect("the harness runs")
}

#[test]
fn usage_errors_exit_2() {
    let none = harness(&[]);
    assert_eq!(none.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&none.stderr).contains("--dir is required"));
    assert_eq!(
        harness(&["--dir", "x", "--only", "nope"]).status.code(),
        Some(2)
    );
}

#[test]
fn without_a_gpu_it_says_so_and_exits_cleanly() {
    let dir = tempfile_dir();
    let run = harness(&["--dir", &dir]);
    if loom_runtime::driver_present() {
        assert_eq!(run.status.code(), Some(1));
        assert!(String::from_utf8_lossy(&run.stderr).contains(".loom.json"));
    } else {
        assert_eq!(run.status.code(), Some(0));
        assert!(String::from_utf8_lossy(&run.stdout).contains("no GPU here"));
    }
    let check = harness(&["--dir", &dir, "--check-only"]);
    assert_eq!(check.status.code(), Some(1), "no modules built in {dir}");
}

/// An empty directory of this test's own (no modules in it).
fn tempfile_dir() -> String {
    let dir = std::env::temp_dir().join(format!("bench-gpu-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    dir.display().to_string()
}
