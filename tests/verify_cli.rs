//! `loomc verify FILE.ll|FILE.bc` and `--no-verify`: the kernel verifier from the command line.

#[path = "support/mutation.rs"]
mod mutation;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn corpus(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("llvm-passes/tests/verify")
        .join(name)
}

fn verify(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_loomc"))
        .arg("verify")
        .args(args)
        .output()
        .expect("loomc runs")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn a_race_is_an_error_with_both_threads() {
    let path = corpus("raw_shared_no_barrier.ll");
    let output = verify(&[path.to_str().unwrap(), "--color=never", "--single-block"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let text = stderr(&output);
    assert!(
        text.contains("error[E0851]: data race on shared `s`"),
        "{text}"
    );
    assert!(text.contains("thread 1 writes bytes 4..8 of `s`"), "{text}");
    assert!(text.contains("thread 0 reads bytes 4..8 of `s`"), "{text}");
    assert!(text.contains("1 error, 0 warnings"), "{text}");
}

#[test]
fn a_divergent_barrier_names_the_threads() {
    let path = corpus("barrier_under_tid_lt_16.ll");
    let output = verify(&[path.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    let text = stderr(&output);
    assert!(
        text.contains("error[E0850]: barrier not reached by every thread"),
        "{text}"
    );
    assert!(
        text.contains("thread 0 reaches it; thread 16 does not"),
        "{text}"
    );
}

#[test]
fn a_clean_kernel_exits_zero() {
    let path = corpus("reduction_tree_interleaved.ll");
    let output = verify(&[path.to_str().unwrap(), "--single-block"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(stderr(&output).contains("0 errors, 0 warnings"));
}

#[test]
fn warnings_alone_exit_zero() {
    let path = corpus("index_loaded_from_memory.ll");
    let output = verify(&[path.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(stderr(&output).contains("warning[E0852]"));
}

#[test]
fn the_block_size_option_decides() {
    // s[tid] and s[tid + 64] meet in blocks of more than 64 threads.
    let path = corpus("block_size_from_option.ll");
    let unknown = verify(&[path.to_str().unwrap(), "--single-block"]);
    assert_eq!(unknown.status.code(), Some(1), "{}", stderr(&unknown));
    assert!(stderr(&unknown).contains("in any block of at least 65 threads"));
    let given = verify(&[
        path.to_str().unwrap(),
        "--block-size",
        "64",
        "--single-block",
    ]);
    assert_eq!(given.status.code(), Some(0), "{}", stderr(&given));
    let bad = verify(&[path.to_str().unwrap(), "--block-size", "64,64"]);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn a_race_between_blocks_names_two_blocks() {
    let path = corpus("global_slot_written_by_every_block.ll");
    let output = verify(&[path.to_str().unwrap(), "--block-size", "256"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let text = stderr(&output);
    assert!(
        text.contains(
            "error[E0851]: data race on global `%p`: write-after-write between two blocks"
        ),
        "{text}"
    );
    assert!(
        text.contains("thread 0 of block 0 writes bytes 0..4 of `%p`, while thread 0 of block 1"),
        "{text}"
    );
    // Launched as one block, no block races with another.
    let single = verify(&[
        path.to_str().unwrap(),
        "--block-size",
        "256",
        "--single-block",
    ]);
    assert_eq!(single.status.code(), Some(0), "{}", stderr(&single));
}

#[test]
fn json_diagnostics() {
    let path = corpus("all_threads_write_s0.ll");
    let output = verify(&[path.to_str().unwrap(), "--error-format=json"]);
    assert_eq!(output.status.code(), Some(1));
    let line = stderr(&output);
    let first = line.lines().next().unwrap_or("");
    let value: serde_json::Value = serde_json::from_str(first).expect("one JSON object per line");
    assert_eq!(value["code"], "E0851");
    assert_eq!(value["severity"], "error");
}

#[test]
fn print_analysis() {
    let path = corpus("raw_shared_with_barrier.ll");
    let output = verify(&[path.to_str().unwrap(), "--print-analysis", "--single-block"]);
    assert_eq!(output.status.code(), Some(0));
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("kernel @k: 256x1x1 threads"), "{text}");
    assert!(
        text.contains("interval 1 after call void @llvm.nvvm.barrier0()"),
        "{text}"
    );
}

#[test]
fn bitcode_and_unreadable_input() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(corpus("raw_shared_no_barrier.ll")).unwrap();
    let context = inkwell::context::Context::create();
    let buffer =
        inkwell::memory_buffer::MemoryBuffer::create_from_memory_range_copy(text.as_bytes(), "k");
    let module = context.create_module_from_ir(buffer).unwrap();
    let bitcode = dir.path().join("k.bc");
    assert!(module.write_bitcode_to_path(&bitcode));
    let output = verify(&[bitcode.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("E0851"));

    let garbage = dir.path().join("garbage.ll");
    std::fs::write(&garbage, "this is not IR").unwrap();
    let output = verify(&[garbage.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("is not LLVM IR"));

    let missing = verify(&[dir.path().join("missing.ll").to_str().unwrap()]);
    assert_eq!(missing.status.code(), Some(2));
}

/// IR with debug locations into a source file on disk: the diagnostic shows the source lines.
#[test]
fn external_ir_is_reported_in_source_terms() {
    let dir = tempfile::tempdir().unwrap();
    let source = "__global__ void k(float *out) {\n  __shared__ float s[256];\n  s[threadIdx.x] = 1.0f;\n  out[threadIdx.x] = s[threadIdx.x + 1];\n}\n";
    std::fs::write(dir.path().join("k.cu"), source).unwrap();
    let ir = format!(
        r#"target triple = "nvptx64-nvidia-cuda"
@s = internal addrspace(3) global [257 x float] undef, align 4
define void @k(ptr %out) !dbg !5 {{
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !8
  %i = zext i32 %t to i64
  %p = getelementptr inbounds [257 x float], ptr addrspace(3) @s, i64 0, i64 %i
  store float 1.0, ptr addrspace(3) %p, align 4, !dbg !8
  %j = add nuw nsw i64 %i, 1
  %q = getelementptr inbounds [257 x float], ptr addrspace(3) @s, i64 0, i64 %j
  %v = load float, ptr addrspace(3) %q, align 4, !dbg !9
  %o = getelementptr inbounds float, ptr %out, i64 %i
  store float %v, ptr %o, align 4, !dbg !9
  ret void
}}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
!llvm.dbg.cu = !{{!0}}
!llvm.module.flags = !{{!2}}
!nvvm.annotations = !{{!3, !4}}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "k.cu", directory: "{dir}")
!2 = !{{i32 2, !"Debug Info Version", i32 3}}
!3 = !{{ptr @k, !"kernel", i32 1}}
!4 = !{{ptr @k, !"reqntidx", i32 256}}
!5 = distinct !DISubprogram(name: "k", scope: !1, file: !1, line: 1, type: !6, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{{}}
!8 = !DILocation(line: 3, column: 3, scope: !5)
!9 = !DILocation(line: 4, column: 3, scope: !5)
"#,
        dir = dir.path().display()
    );
    let path = dir.path().join("k.ll");
    std::fs::write(&path, ir).unwrap();
    let output = verify(&[path.to_str().unwrap(), "--color=never"]);
    let text = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{text}");
    assert!(text.contains("k.cu:3:3"), "{text}");
    assert!(text.contains("s[threadIdx.x] = 1.0f;"), "{text}");
    assert!(
        text.contains("out[threadIdx.x] = s[threadIdx.x + 1];"),
        "{text}"
    );
}

/// `--no-verify` skips the verifier: a seeded race compiles.
#[test]
fn no_verify_skips_the_check() {
    use loomc::diagnostics::SourceFiles;
    use loomc::driver::{Emit, Options};
    use mutation::{compile_mutated, Mutation};
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/sum_of_squares.loom");
    let source = std::fs::read_to_string(&path).unwrap();
    let mut options = Options {
        emit: vec![Emit::Ptx],
        ..Options::default()
    };
    let removed = [Mutation::RemoveBarrier(0)];
    let checked = compile_mutated(
        &mut SourceFiles::default(),
        "s.loom",
        &source,
        &options,
        &removed,
    );
    assert!(checked.outputs.is_none());
    assert!(checked.diagnostics.iter().any(|d| d.code == "E0851"));
    options.verify.enabled = false;
    let unchecked = compile_mutated(
        &mut SourceFiles::default(),
        "s.loom",
        &source,
        &options,
        &removed,
    );
    assert!(unchecked.outputs.is_some());
    assert!(unchecked
        .diagnostics
        .iter()
        .all(|d| !d.code.starts_with("E085")));

    // And on the command line.
    let output = Command::new(env!("CARGO_BIN_EXE_loomc"))
        .arg(&path)
        .args(["--no-verify", "-o", "-"])
        .output()
        .expect("loomc runs");
    assert_eq!(output.status.code(), Some(0));
}
