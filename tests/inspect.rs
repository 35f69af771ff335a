//! The IR-inspection options (docs/optimising.md), through the `loomc` binary: each option's
//! output on standard error or the files it writes. One process per run, as LLVM's printing
//! options are process-wide.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn loomc(args: &[&str]) -> Output {
    loomc_env(args, &[])
}

fn loomc_env(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_loomc"));
    command.args(args).arg("--color=never").current_dir(repo());
    for (key, value) in env {
        command.env(key, value);
    }
    command.output().expect("loomc runs")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn succeeded(output: &Output) {
    assert_eq!(output.status.code(), Some(0), "{}", stderr(output));
}

fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

const SAXPY: &str = "examples/saxpy.loom";
const SUM_OF_SQUARES: &str = "examples/sum_of_squares.loom";

#[test]
fn emit_stages_are_written_in_order_of_the_pipeline() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("k");
    let run = loomc(&[
        SAXPY,
        "--emit=llvm-raw,llvm-loom,llvm",
        "-o",
        out.to_str().unwrap(),
    ]);
    succeeded(&run);
    assert_eq!(files_in(dir.path()), ["k.ll", "k.loom.ll", "k.raw.ll"]);
    let read = |ext: &str| std::fs::read_to_string(dir.path().join(format!("k.{ext}"))).unwrap();
    let (raw, optimised) = (read("raw.ll"), read("ll"));
    // As generated, the checked loads each compare the index; the optimiser merges the tests.
    assert!(raw.matches("icmp ult").count() > optimised.matches("icmp ult").count());
    assert!(!raw.contains("range("), "{raw}");
    assert!(optimised.contains("range("), "{optimised}");
}

#[test]
fn print_after_names_loom_and_llvm_passes() {
    let run = loomc(&[
        SAXPY,
        "--print-after=loom-lower,instcombine",
        "--print-before=loom-link-libdevice",
        "-o",
        "-",
    ]);
    succeeded(&run);
    let err = stderr(&run);
    let lower = err.find("; *** IR Dump After loom-lower ***").expect(&err);
    let link = err
        .find("; *** IR Dump Before loom-link-libdevice ***")
        .expect(&err);
    let instcombine = err
        .find("*** IR Dump After InstCombinePass on saxpy ***")
        .expect(&err);
    assert!(lower < link && link < instcombine, "{err}");
    assert!(!err.contains("SROAPass"), "only the named passes: {err}");
    assert!(stdout(&run).contains(".entry saxpy"));
}

#[test]
fn print_after_all_to_a_directory_numbers_every_pass_in_pipeline_order() {
    let dir = tempfile::tempdir().unwrap();
    let dumps = dir.path().join("dumps");
    let run = loomc(&[
        SAXPY,
        "--print-after-all",
        "--print-dir",
        dumps.to_str().unwrap(),
        "-o",
        "-",
    ]);
    succeeded(&run);
    assert!(
        !stderr(&run).contains("IR Dump"),
        "nothing on stderr: {}",
        stderr(&run)
    );
    let files = files_in(&dumps);
    let numbers: Vec<usize> = files
        .iter()
        .map(|f| f[..3].parse().unwrap_or_else(|_| panic!("{f}")))
        .collect();
    assert_eq!(numbers, (0..files.len()).collect::<Vec<_>>(), "{files:?}");
    let position = |needle: &str| {
        files
            .iter()
            .position(|f| f.contains(needle))
            .unwrap_or_else(|| panic!("no {needle} in {files:?}"))
    };
    // The kernel IR's passes first, then code generation's module.
    assert_eq!(position("after-kir-lower"), 0);
    assert!(position("after-kir-register-vectors") < position("after-loom-lower"));
    assert!(position("after-loom-link-libdevice") < position("after-InstCombinePass-saxpy"));
    assert!(position("after-InstCombinePass") < position("after-loom-verify-kernels"));
    assert!(position("after-loom-verify-kernels") < position("nvptx-machine-passes"));
    let first = std::fs::read_to_string(dumps.join(&files[0])).unwrap();
    assert!(first.starts_with("; *** IR Dump After kir-lower ***\n"));
    assert!(first.contains("kernel saxpy"));
    let lowered =
        std::fs::read_to_string(dumps.join(&files[position("after-loom-lower")])).unwrap();
    assert!(lowered.starts_with("; *** IR Dump After loom-lower ***\n"));
    assert!(lowered.contains("define void @saxpy"));
}

#[test]
fn print_changed_keeps_only_passes_that_changed_the_module() {
    let dir = tempfile::tempdir().unwrap();
    let all = dir.path().join("all");
    let changed = dir.path().join("changed");
    for (flag, dumps) in [("--print-after-all", &all), ("--print-changed", &changed)] {
        succeeded(&loomc(&[
            SAXPY,
            flag,
            "--print-dir",
            dumps.to_str().unwrap(),
            "-o",
            "-",
        ]));
    }
    let (all, changed_files) = (files_in(&all), files_in(&changed));
    assert!(
        changed_files.len() >= 3 && changed_files.len() < all.len() / 2,
        "{changed_files:?}"
    );
    // loom-verify-ir and the kernel verifier are analyses: they never change the module.
    assert!(!changed_files.iter().any(|f| f.contains("verify")));
    // Consecutive kept dumps differ (each is the whole module after its pass).
    let bodies: Vec<String> = changed_files
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(changed.join(f)).unwrap();
            text.split_once('\n').unwrap().1.to_string()
        })
        .collect();
    assert!(bodies.windows(2).all(|w| w[0] != w[1]));
    let on_stderr = loomc(&[SAXPY, "--print-changed", "-o", "-"]);
    succeeded(&on_stderr);
    let err = stderr(&on_stderr);
    assert!(err.contains("*** IR Dump After loom-verify-ir omitted because no change ***"));
    assert!(err.contains("*** IR Dump After InstCombinePass on saxpy ***"));
}

#[test]
fn passes_replaces_the_optimiser_pipeline() {
    let custom = loomc(&[SAXPY, "--passes=function(sroa)", "--emit=llvm", "-o", "-"]);
    succeeded(&custom);
    let ir = stdout(&custom);
    // Code generation makes two index checks (the store's, and one for both reads: they share
    // a range and a length); -O3 folds the reads' into the store's, sroa alone does not.
    assert!(ir.matches("icmp ult").count() >= 2, "{ir}");
    let optimised = stdout(&loomc(&[SAXPY, "--emit=llvm", "-o", "-"]));
    assert_eq!(optimised.matches("icmp ult").count(), 1, "{optimised}");
    for bad in ["--passes=instcombin", "--passes=function(sroa"] {
        let run = loomc(&[SAXPY, bad, "-o", "-"]);
        assert_eq!(run.status.code(), Some(2), "{bad}: {}", stderr(&run));
        assert!(stderr(&run).contains("LLVM refused it"), "{}", stderr(&run));
    }
    let unknown = loomc(&[SAXPY, "--print-after=loom-nonsense", "-o", "-"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(
        stderr(&unknown).contains("loom-link-libdevice"),
        "lists LOOM's passes"
    );
}

#[test]
fn time_passes_times_every_stage() {
    let run = loomc(&[SUM_OF_SQUARES, "--time-passes", "-o", "-"]);
    succeeded(&run);
    let err = stderr(&run);
    let mut last = 0;
    for stage in [
        "parse",
        "check",
        "lower",
        "verify",
        "link-libdevice",
        "optimise",
        "thread-guards",
        "verify-kernels",
        "nvptx",
        "total",
    ] {
        let at = err
            .find(&format!("%  {stage}\n"))
            .unwrap_or_else(|| panic!("no {stage}: {err}"));
        assert!(at >= last, "{stage} out of order: {err}");
        last = at;
    }
}

#[test]
fn sass_and_resource_usage_come_from_ptxas() {
    if std::env::var_os("LOOM_PTXAS").is_none() {
        panic!("LOOM_PTXAS is unset: run under scripts/test (source .tools/env)");
    }
    let run = loomc(&[SUM_OF_SQUARES, "--emit=sass", "--resource-usage", "-o", "-"]);
    succeeded(&run);
    let sass = stdout(&run);
    assert!(sass.contains("Function : sumOfSquares"), "{sass}");
    assert!(
        sass.contains("SHFL.DOWN") && sass.contains("BAR.SYNC"),
        "{sass}"
    );
    let err = stderr(&run);
    let row = err
        .lines()
        .find(|l| l.starts_with("sumOfSquares "))
        .unwrap_or_else(|| panic!("{err}"));
    assert!(row.contains("% ("), "the table shows the occupancy: {row}");
    let json = loomc(&[SUM_OF_SQUARES, "--resource-usage=json", "-o", "-"]);
    succeeded(&json);
    let report = json_report(&stderr(&json), "resource-usage");
    assert_eq!(report["arch"], "sm_80");
    let kernel = &report["kernels"][0];
    assert_eq!(kernel["name"], "sumOfSquares");
    assert_eq!(kernel["block_size"], 256);
    assert!(kernel["registers"].as_u64().unwrap() > 0, "{kernel}");
    // One shared slot per warp for the partial sums (8 warps of 4 bytes), one barrier, no
    // spills, no local memory; the parameters live in constant bank 0.
    assert_eq!(kernel["shared_bytes"], 8 * 4, "{kernel}");
    assert_eq!(kernel["barriers"], 1);
    for zero in [
        "spill_store_bytes",
        "spill_load_bytes",
        "local_bytes",
        "stack_frame_bytes",
    ] {
        assert_eq!(kernel[zero], 0, "{zero}: {kernel}");
    }
    assert!(kernel["constant_bytes"].as_u64().unwrap() >= 16, "{kernel}");
    // Few registers and 32 bytes of shared memory: 8 blocks of 8 warps fill an sm_80 SM.
    let occupancy = &kernel["occupancy"];
    assert_eq!(occupancy["fraction"], 1.0, "{kernel}");
    assert_eq!(occupancy["blocks_per_sm"], 8);
    assert_eq!(occupancy["max_warps"], 64);
}

/// The one JSON object on standard error whose `"report"` is `name`.
fn json_report(err: &str, name: &str) -> serde_json::Value {
    err.lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap_or_else(|e| panic!("{e}: {l}"))
        })
        .find(|v| v["report"] == name)
        .unwrap_or_else(|| panic!("no {name} report: {err}"))
}

#[test]
fn the_occupancy_follows_the_block_size_and_the_arch() {
    if std::env::var_os("LOOM_PTXAS").is_none() {
        panic!("LOOM_PTXAS is unset: run under scripts/test (source .tools/env)");
    }
    let occupancy = |args: &[&str]| {
        let mut all = vec![SAXPY, "--resource-usage=json", "-o", "-"];
        all.extend_from_slice(args);
        let run = loomc(&all);
        succeeded(&run);
        json_report(&stderr(&run), "resource-usage")["kernels"][0].clone()
    };
    // Blocks of one warp: the SM's 32-block limit leaves half its 64 warps idle on sm_80.
    let small = occupancy(&["--block-size=32"]);
    assert_eq!(small["block_size"], 32);
    assert_eq!(small["occupancy"]["blocks_per_sm"], 32, "{small}");
    assert_eq!(small["occupancy"]["fraction"], 0.5, "{small}");
    assert_eq!(small["occupancy"]["limited_by"], "blocks");
    // sm_75 holds 32 warps per SM: 1024 threads is one block.
    let turing = occupancy(&["--block-size=1024", "--arch=sm_75"]);
    assert_eq!(turing["occupancy"]["max_warps"], 32, "{turing}");
    assert_eq!(turing["occupancy"]["blocks_per_sm"], 1, "{turing}");
}

#[test]
fn time_passes_json_has_every_stage_and_each_llvm_pass() {
    let run = loomc(&[SUM_OF_SQUARES, "--time-passes=json", "-o", "-"]);
    succeeded(&run);
    let report = json_report(&stderr(&run), "time-passes");
    let stages: Vec<&str> = report["stages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        stages,
        [
            "parse",
            "check",
            "kir",
            "lower",
            "verify",
            "link-libdevice",
            "optimise",
            "thread-guards",
            "verify-kernels",
            "nvptx"
        ]
    );
    let passes: Vec<&str> = report["llvm_passes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    for pass in ["InstCombinePass", "SROAPass", "AlwaysInlinerPass"] {
        assert!(passes.contains(&pass), "{pass} not in {passes:?}");
    }
    assert!(report["total_ms"].as_f64().unwrap() > 0.0);
    // The table form lists LLVM's passes too.
    let table = stderr(&loomc(&[SAXPY, "--time-passes", "-o", "-"]));
    assert!(table.contains("LLVM's optimiser: time per pass"), "{table}");
    assert!(table.contains("InstCombinePass"), "{table}");
}

#[test]
fn missing_nvidia_tools_are_a_diagnostic() {
    let empty = tempfile::tempdir().unwrap();
    let nowhere = empty.path().join("ptxas");
    let run = loomc_env(
        &[SAXPY, "--emit=sass", "-o", "-"],
        &[
            ("LOOM_PTXAS", nowhere.to_str().unwrap()),
            ("PATH", empty.path().to_str().unwrap()),
        ],
    );
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    let err = stderr(&run);
    assert!(err.contains("error[E0803]"), "{err}");
    assert!(stdout(&run).is_empty());
}

#[test]
fn an_unwritable_dump_directory_is_a_diagnostic() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("plain-file");
    std::fs::write(&file, "").unwrap();
    let inside = file.join("dumps");
    let run = loomc(&[
        SAXPY,
        "--print-after-all",
        "--print-dir",
        inside.to_str().unwrap(),
        "-o",
        "-",
    ]);
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    assert!(stderr(&run).contains("error[E0804]"), "{}", stderr(&run));
    let alone = loomc(&[SAXPY, "--print-dir", "x", "-o", "-"]);
    assert_eq!(
        alone.status.code(),
        Some(2),
        "--print-dir alone is a usage error"
    );
}

#[test]
fn sass_holds_only_the_disassembly_not_the_tools_warnings() {
    if std::env::var_os("LOOM_PTXAS").is_none() {
        panic!("LOOM_PTXAS is unset: run under scripts/test (source .tools/env)");
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("saxpy.sass");
    let run = loomc(&[SAXPY, "--emit=sass", "-o", out.to_str().unwrap()]);
    succeeded(&run);
    let sass = std::fs::read_to_string(&out).unwrap();
    assert!(sass.contains("Function : saxpy"), "{sass}");
    assert!(!sass.to_ascii_lowercase().contains("warning"), "{sass}");
}

#[test]
fn an_arch_the_disassembler_dropped_is_blamed_on_the_tool_being_too_new() {
    if std::env::var_os("LOOM_PTXAS").is_none() {
        panic!("LOOM_PTXAS is unset: run under scripts/test (source .tools/env)");
    }
    let run = loomc(&[SAXPY, "--emit=sass", "--arch=sm_50", "-o", "-"]);
    if run.status.success() {
        eprintln!("skipped: the installed disassembler still supports sm_50");
        return;
    }
    let err = stderr(&run);
    assert!(err.contains("error[E0803]"), "{err}");
    assert!(err.contains("too new for `sm_50`"), "{err}");
    assert!(!err.contains("too old"), "{err}");
}

/// The dumps `--print-changed --print-dir` writes for saxpy, and the file names.
fn changed_in_a_directory(dumps: &Path) -> Vec<String> {
    succeeded(&loomc(&[
        SAXPY,
        "--print-changed",
        "--print-dir",
        dumps.to_str().unwrap(),
        "-o",
        "-",
    ]));
    files_in(dumps)
}

#[test]
fn print_changed_in_a_directory_lists_what_the_standard_error_form_lists() {
    let dir = tempfile::tempdir().unwrap();
    let files = changed_in_a_directory(&dir.path().join("d"));
    // loomc's own temporary marks around the optimiser are no change of AlwaysInlinerPass.
    assert!(
        !files.iter().any(|f| f.contains("AlwaysInliner")),
        "{files:?}"
    );
    let on_stderr = stderr(&loomc(&[SAXPY, "--print-changed", "-o", "-"]));
    let listed = |text: &str, needle: &str| text.contains(needle);
    assert!(!listed(
        &on_stderr,
        "IR Dump After AlwaysInlinerPass on [module] ***"
    ));
    // Every IR pass the standard-error form shows as changed has its own file.
    for line in on_stderr.lines() {
        let Some(rest) = line.strip_prefix("*** IR Dump After ") else {
            continue;
        };
        if rest.contains("omitted because no change") || rest.contains('(') {
            continue;
        }
        let class = rest.split(' ').next().unwrap();
        assert!(
            files.iter().any(|f| f.contains(&format!("-after-{class}"))),
            "{class} changed the module on stderr but has no dump: {files:?}"
        );
    }
    // The machine passes that changed the function are kept, as on standard error.
    let machine = files
        .iter()
        .find(|f| f.ends_with("nvptx-machine-passes.txt"))
        .unwrap_or_else(|| panic!("no machine-pass dump: {files:?}"));
    let machine = std::fs::read_to_string(dir.path().join("d").join(machine)).unwrap();
    for line in on_stderr.lines().filter(|l| l.contains(") on saxpy ***")) {
        let pass = line.split('(').nth(1).unwrap().split(')').next().unwrap();
        let kept = machine.contains(&format!("({pass}) ***"));
        assert_eq!(
            kept,
            !line.contains("omitted because no change"),
            "{pass}: {line}"
        );
    }
}

#[test]
fn a_reused_dump_directory_holds_only_the_new_run() {
    let dir = tempfile::tempdir().unwrap();
    let dumps = dir.path().join("d");
    std::fs::create_dir(&dumps).unwrap();
    std::fs::write(dumps.join("099-after-OldPass-k.ll"), "stale").unwrap();
    std::fs::write(dumps.join("notes.txt"), "mine").unwrap();
    let files = changed_in_a_directory(&dumps);
    assert!(!files.iter().any(|f| f.contains("OldPass")), "{files:?}");
    assert!(files.contains(&"notes.txt".to_string()), "other files stay");
    let again = changed_in_a_directory(&dumps);
    assert_eq!(files, again, "a second run leaves exactly its own dumps");
}

#[test]
fn the_print_dir_help_names_files_the_run_writes() {
    let help = stdout(&loomc(&["--help"]));
    let start = help.find("--print-dir").expect("--print-dir in --help");
    let text = &help[start..];
    let named: Vec<&str> = text
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|n| n.ends_with(".ll") || n.ends_with(".kir"))
        .collect();
    assert!(named.len() >= 3, "{text}");
    let dir = tempfile::tempdir().unwrap();
    let dumps = dir.path().join("d");
    succeeded(&loomc(&[
        SAXPY,
        "--print-after-all",
        "--print-dir",
        dumps.to_str().unwrap(),
        "-o",
        "-",
    ]));
    let files = files_in(&dumps);
    for name in named {
        assert!(
            files.iter().any(|f| f == name),
            "help names {name}: {files:?}"
        );
    }
}

#[test]
fn printing_around_a_pass_that_never_runs_is_a_usage_error() {
    for args in [
        &["--emit=llvm-raw", "--print-after=instcombine"][..],
        &["--emit=llvm-loom", "--print-before=loom-verify-kernels"],
        &["--emit=llvm-raw", "--passes=function(sroa)"],
        &["--emit=ast", "--print-after=loom-lower"],
    ] {
        let mut all = vec![SAXPY, "-o", "-"];
        all.extend_from_slice(args);
        let run = loomc(&all);
        assert_eq!(run.status.code(), Some(2), "{args:?}: {}", stderr(&run));
        assert!(stderr(&run).contains("never runs"), "{}", stderr(&run));
    }
    // LOOM's passes before the optimiser do run with --emit=llvm-raw.
    let raw = loomc(&[
        SAXPY,
        "--emit=llvm-raw",
        "--print-after=loom-lower",
        "-o",
        "-",
    ]);
    succeeded(&raw);
    assert!(stderr(&raw).contains("IR Dump After loom-lower"));
}

#[test]
fn print_changed_diff_shows_each_change_as_a_unified_diff() {
    let run = loomc(&[SAXPY, "--print-changed=diff", "-o", "-"]);
    succeeded(&run);
    let err = stderr(&run);
    // LLVM's passes: its own diff form (`opt -print-changed=diff`).
    let instcombine = err
        .find("*** IR Dump After InstCombinePass on saxpy ***\n")
        .unwrap_or_else(|| panic!("{err}"));
    let after = &err[instcombine..];
    let section = &after[..after[1..]
        .find("*** IR Dump")
        .map_or(after.len(), |e| e + 1)];
    assert!(
        section.lines().any(|l| l.starts_with('-')) && section.lines().any(|l| l.starts_with('+')),
        "{section}"
    );
    // In a directory, LOOM's and LLVM's changes are diffs against the dump before them.
    let dir = tempfile::tempdir().unwrap();
    let dumps = dir.path().join("d");
    succeeded(&loomc(&[
        SAXPY,
        "--print-changed=diff",
        "--print-dir",
        dumps.to_str().unwrap(),
        "-o",
        "-",
    ]));
    let files = files_in(&dumps);
    let read = |f: &str| std::fs::read_to_string(dumps.join(f)).unwrap();
    // The first dump of each kind of IR is whole: the kernel IR's, then the LLVM module's.
    assert!(
        read(&files[0]).contains("kernel saxpy"),
        "the first dump is whole"
    );
    let lowered = files
        .iter()
        .find(|f| f.contains("after-loom-lower"))
        .unwrap_or_else(|| panic!("{files:?}"));
    assert!(
        read(lowered).contains("define void @saxpy"),
        "the module's first dump is whole"
    );
    let diff = read(
        files
            .iter()
            .find(|f| f.contains("InstCombinePass"))
            .unwrap_or_else(|| panic!("{files:?}")),
    );
    let mut lines = diff.lines();
    assert!(lines
        .next()
        .unwrap()
        .contains("IR Dump After InstCombinePass"));
    assert_eq!(lines.next(), Some("--- before"), "{diff}");
    assert_eq!(lines.next(), Some("+++ after"), "{diff}");
    assert!(diff.lines().any(|l| l.starts_with("@@ ")), "{diff}");
    assert!(diff.len() < read(lowered).len(), "a diff, not the module");
    let bad = loomc(&[SAXPY, "--print-changed=sideways", "-o", "-"]);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn interleave_source_in_sass_names_each_line_with_its_text() {
    if std::env::var_os("LOOM_NVDISASM").is_none() {
        eprintln!("skipped: LOOM_NVDISASM is unset (cuobjdump prints no line information)");
        return;
    }
    let run = loomc(&[SAXPY, "--interleave-source", "--emit=sass", "-o", "-"]);
    succeeded(&run);
    let sass = stdout(&run);
    let marker = "//## File \"examples/saxpy.loom\", line 5: y[[current]] <- a * x[[current]] + y[[current]]";
    let at = sass.find(marker).unwrap_or_else(|| panic!("{sass}"));
    // Machine code follows the line it came from.
    let next = sass[at..].lines().nth(1).unwrap();
    assert!(next.trim_start().starts_with("/*0"), "{next}");
}
