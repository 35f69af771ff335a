//! Robustness: no input crashes the compiler, and random well-typed programs agree across
//! optimisation levels and block sizes on the CPU backend (docs/testing.md).
//!
//! Trials (each named, so `cargo test --test fuzz crash::` runs a part):
//! - `crash::chars`, `crash::tokens`, `crash::mutations`: arbitrary characters, token sequences and
//!   mutations of the repository's `.loom` files through the whole pipeline, in process;
//! - `nesting::*`, `large::*`: deep nesting at and past the parser's limits, long operator chains
//!   and `else if` chains, a 1 MB source, a 10,000-statement kernel (time roughly linear), all
//!   through the `loomc` binary, so that a stack overflow is an exit status, not a dead harness;
//! - `generated::differential`: generated programs through the checker, ptxas and the CPU
//!   backend at `-O0`/`-O3` and two block sizes;
//! - `generated::record_header`, `generated::record_packing`: the header of a program with a
//!   record parameter reads back, and the harness packs that record as the compiler's metadata
//!   lays it out;
//! - `regressions::<file>`: every file under `tests/regressions/`; a generated one starts with
//!   `--! differential: T L [block-size-dependent] [range-param] [record-param={...}]`, the
//!   kernel's shape: element type, row length, whether block sizes are compared, whether it takes
//!   `w: Range`, and the type of its record parameter `p` (`{a:Int8,k:Int32,n:{v:Float64,f:Bool}}`,
//!   written as the generator wrote it; files without one take none);
//! - `campaign` (only with `LOOM_FUZZ_SECONDS`): the long run `scripts/fuzz` starts.
//!
//! Environment: `LOOM_FUZZ_SEED` (base seed, default 0), `LOOM_FUZZ_PROGRAMS` (default 2000),
//! `LOOM_FUZZ_INPUTS` (crash inputs of each kind, default 7000), `LOOM_FUZZ_ONE=SEED` (check the
//! one generated program of that seed and print it), `LOOM_FUZZ_SAVE=1` (write shrunk failures to
//! `tests/regressions/`), `LOOM_FUZZ_DUMP=DIR` (write the generated programs, `SEED.loom`, into
//! `DIR` and check nothing: a corpus for comparing two builds of loomc).

#[path = "support/mod.rs"]
mod support;

// Its CUDA twin is the compile-time benchmark's (bench/compile_scaling.rs).
#[allow(dead_code)]
#[path = "fuzz/big_kernel.rs"]
mod big_kernel;
#[path = "fuzz/blowup_shapes.rs"]
mod blowup_shapes;
#[path = "fuzz/crash.rs"]
mod crash;
#[path = "fuzz/differential.rs"]
mod differential;
#[path = "fuzz/generator.rs"]
mod generator;
#[path = "fuzz/gpu.rs"]
mod gpu;
#[path = "fuzz/large.rs"]
mod large;
#[path = "fuzz/pool.rs"]
mod pool;
#[path = "fuzz/shrink.rs"]
mod shrink;

use differential::{Config, Failure, Kind};
use fastrand::Rng;
use libtest_mimic::{Arguments, Failed, Trial};
use pool::Pool;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let args = Arguments::from_args();
    let seed = env_u64("LOOM_FUZZ_SEED", 0);
    let programs = env_u64("LOOM_FUZZ_PROGRAMS", 2000) as usize;
    let inputs = env_u64("LOOM_FUZZ_INPUTS", 7000) as usize;
    let mut trials = vec![
        Trial::test("crash::chars", move || {
            crash_trial("chars", seed, inputs, None).map(|_| ())
        }),
        Trial::test("crash::tokens", move || {
            crash_trial("tokens", seed, inputs, None).map(|_| ())
        }),
        Trial::test("crash::mutations", move || {
            crash_trial("mutations", seed, inputs, None).map(|_| ())
        }),
        Trial::test("generated::differential", move || {
            generated_trial(seed, programs, None).map(|_| ())
        }),
    ];
    trials.push(Trial::test("generated::record_header", record_header_cases));
    trials.push(Trial::test("generated::record_packing", move || {
        record_packing_cases(seed)
    }));
    trials.extend(large::trials());
    if let Ok(dir) = std::env::var("LOOM_FUZZ_DUMP") {
        trials.push(Trial::test("generated::dump", move || {
            dump_programs(&PathBuf::from(dir), seed, programs)
        }));
    }
    if let Ok(one) = std::env::var("LOOM_FUZZ_ONE") {
        trials.push(Trial::test("generated::one", move || {
            let seed: u64 = one.parse().map_err(|_| "LOOM_FUZZ_ONE takes a seed")?;
            let program = generator::generate(seed);
            println!("{}", program.source);
            // LOOM_FUZZ_REPEAT=N checks it N times in this process and prints each outcome: a
            // failure that comes and goes is itself a bug (state kept between compilations).
            let repeat = env_u64("LOOM_FUZZ_REPEAT", 1).max(1);
            let mut outcomes = std::collections::BTreeMap::new();
            let mut last = Ok(());
            for _ in 0..repeat {
                last = check_generated(seed, &program.source, &program.shape, true)
                    .map_err(|f| format!("{:?}: {}", f.kind, f.message));
                let key = match &last {
                    Ok(()) => "ok".to_string(),
                    Err(e) => e.lines().next().unwrap_or("").to_string(),
                };
                *outcomes.entry(key).or_insert(0usize) += 1;
            }
            if repeat > 1 {
                for (outcome, count) in &outcomes {
                    println!("{count} x {outcome}");
                }
            }
            // Shrunk as a failure of a run would be (and saved with LOOM_FUZZ_SAVE=1), so that
            // a seed of an open bug (which runs only count) can be turned into a small file.
            last.map_err(|e| match shrinking() {
                true => format!("{e}\n{}", shrink_seed(seed)),
                false => e,
            })
            .map_err(Failed::from)
        }));
    }
    trials.push(Trial::test(
        "regressions::open_bug_verdict",
        open_bug_verdict_cases,
    ));
    trials.push(Trial::test(
        "regressions::generator_seeds",
        generator_seed_cases,
    ));
    for path in support::files_with_extension("tests/regressions", "loom") {
        let name = format!("regressions::{}", path.display());
        trials.push(Trial::test(name, move || regression(&path)));
    }
    if let Ok(seconds) = std::env::var("LOOM_FUZZ_SECONDS") {
        let seconds: u64 = seconds.parse().unwrap_or(60);
        trials.push(Trial::test("campaign", move || campaign(seed, seconds)));
    }
    libtest_mimic::run(&args, trials).exit();
}

// ----- crash hunting -----

/// The seed of crash input `i` of `kind`.
fn input_seed(kind: &str, base: u64, i: usize) -> u64 {
    let salt = kind
        .bytes()
        .fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(b as u64));
    base.wrapping_mul(1_000_003)
        .wrapping_add(salt << 32)
        .wrapping_add(i as u64)
}

/// The input of `kind` for `seed`.
fn crash_input(kind: &str, seed: u64, corpus: &[(String, String)]) -> (String, String) {
    let mut rng = Rng::with_seed(seed);
    match kind {
        "chars" => (String::new(), crash::random_chars(&mut rng)),
        "tokens" => (String::new(), crash::random_tokens(&mut rng)),
        _ => {
            let (name, text) = &corpus[rng.usize(..corpus.len())];
            (
                format!(" (a mutation of {name})"),
                crash::mutate(text, &mut rng),
            )
        }
    }
}

/// Runs `count` crash inputs of `kind`; returns how many ran.
fn crash_trial(
    kind: &'static str,
    base: u64,
    count: usize,
    deadline: Option<Instant>,
) -> Result<usize, Failed> {
    let corpus = Arc::new(crash::corpus());
    let options = crash::ptx_options();
    let job_corpus = corpus.clone();
    let outcome = Pool::default().run(
        count,
        deadline,
        move |i| {
            let seed = input_seed(kind, base, i);
            let (_, source) = crash_input(kind, seed, &job_corpus);
            crash::compile_behaves(&source, &options).map(|_| ())
        },
        move |i| {
            let seed = input_seed(kind, base, i);
            let (origin, source) = crash_input(kind, seed, &corpus);
            format!(
                "crash input `{kind}` seed {seed}{origin} \
                 (reproduce: LOOM_FUZZ_SEED={base} cargo test --test fuzz crash::{kind}):\n\
                 ----\n{source}\n----"
            )
        },
    );
    report(outcome.ran, outcome.failures, |failure| {
        save_crash(kind, failure)
    })
}

/// Writes the generated programs of seeds `base ..` into `dir`, one file each.
fn dump_programs(dir: &std::path::Path, base: u64, count: usize) -> Result<(), Failed> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for seed in base..base + count as u64 {
        let path = dir.join(format!("{seed}.loom"));
        std::fs::write(&path, generator::generate(seed).source)
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}

/// Shrinks and saves a crash input when `LOOM_FUZZ_SAVE` is set; returns the note to print.
fn save_crash(kind: &str, failure: &str) -> String {
    let Some(source) = failure
        .split_once("\n----\n")
        .and_then(|(_, rest)| rest.rsplit_once("\n----").map(|(s, _)| s.to_string()))
    else {
        return String::new();
    };
    let crashes = |s: &str| {
        let s = s.to_string();
        pool::on_compiler_stack(move || crash::compile_behaves(&s, &crash::ptx_options()))
            .map_or(true, |r| r.is_err())
    };
    if !crashes(&source) {
        return String::new();
    }
    let shrunk = shrink::shrink(&source, crashes, 2000);
    let first_line = failure.lines().next().unwrap_or("").to_string();
    let text = format!("--! expect: no-crash\n-- shrunk from {first_line}\n{shrunk}");
    save(&format!("crash_{kind}"), &text)
}

fn save(stem: &str, text: &str) -> String {
    let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    });
    let note = format!("shrunk:\n{text}");
    if std::env::var_os("LOOM_FUZZ_SAVE").is_none() {
        return note;
    }
    let path = support::repo_root()
        .join("tests/regressions")
        .join(format!("{stem}_{:016x}.loom", hash));
    match std::fs::create_dir_all(path.parent().unwrap_or(&path))
        .and_then(|_| std::fs::write(&path, text))
    {
        Ok(()) => format!("{note}\nsaved as {}", path.display()),
        Err(e) => format!("{note}\ncould not save {}: {e}", path.display()),
    }
}

fn report(
    ran: usize,
    failures: Vec<String>,
    shrink_and_save: impl Fn(&str) -> String,
) -> Result<usize, Failed> {
    println!("ran {ran} inputs, {} failed", failures.len());
    if failures.is_empty() {
        return Ok(ran);
    }
    let mut message = format!("{} of {ran} inputs failed:\n", failures.len());
    for (n, failure) in failures.iter().enumerate() {
        // Printed before shrinking, which may take long: the seed is on record whatever happens.
        println!("failure: {failure}");
        message.push_str(failure);
        message.push('\n');
        // Shrinking costs hundreds of compilations: only the first failure, in CI, and none
        // with LOOM_FUZZ_SHRINK=0.
        if shrinking() && (n == 0 || std::env::var_os("LOOM_FUZZ_SAVE").is_some()) {
            message.push_str(&shrink_and_save(failure));
            message.push('\n');
        }
    }
    Err(message.into())
}

// ----- generated programs -----

fn check_generated(
    seed: u64,
    source: &str,
    shape: &generator::Shape,
    ptxas: bool,
) -> Result<(), Failure> {
    differential::check(
        source,
        shape,
        &Config {
            block_sizes: differential::block_sizes(seed),
            ptxas,
            input_seed: seed,
        },
    )
}

/// A failure of a kind the open bugs of docs/testing.md give: E0811 on a static length. (The
/// kernel verifier's findings on loomc's output were counted here too, while the slice's seeds
/// 1349 and 1682 were its open bugs; both are fixed, with regression files, and the slice now
/// fails on a verifier finding like on any other failure.)
fn open_bug(failure: &Failure) -> bool {
    failure.signature() == (Kind::Rejected, Some("E0811".to_string()))
}

/// Program `i` of the run from `base`.
fn program_seed(base: u64, i: usize) -> u64 {
    base.wrapping_mul(1_000_003).wrapping_add(i as u64)
}

/// ptxas costs a process per program: every fourth program's PTX goes through it.
const PTXAS_EVERY: usize = 4;

/// Whether the open bugs' kinds of failure (`open_bug`) fail the run. They are loomc bugs, but
/// the open ones (docs/testing.md) would fail every run until fixed: by default they are counted
/// and their seeds printed; `LOOM_FUZZ_STRICT_VERIFY=1` makes them failures.
fn strict_verify() -> bool {
    std::env::var_os("LOOM_FUZZ_STRICT_VERIFY").is_some()
}

fn generated_trial(base: u64, count: usize, deadline: Option<Instant>) -> Result<usize, Failed> {
    let verifier_seeds = Arc::new(std::sync::Mutex::new(Vec::new()));
    let found = verifier_seeds.clone();
    let records = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counted = records.clone();
    let scratch = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counted_scratch = scratch.clone();
    let outcome = Pool::default().run(
        count,
        deadline,
        move |i| {
            let seed = program_seed(base, i);
            let program = generator::generate(seed);
            if program.shape.record_param.is_some() {
                counted.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
            if program.shape.scratch_rows > 0 {
                counted_scratch.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
            let ptxas = i % PTXAS_EVERY == 0;
            match check_generated(seed, &program.source, &program.shape, ptxas) {
                Err(f) if open_bug(&f) && !strict_verify() => {
                    let code = f.signature().1.unwrap_or_else(|| format!("{:?}", f.kind));
                    found.lock().unwrap().push(format!("{seed} ({code})"));
                    Ok(())
                }
                result => result.map_err(|f| format!("{:?}: {}", f.kind, f.message)),
            }
        },
        move |i| {
            let seed = program_seed(base, i);
            format!(
                "generated program seed {seed} (reproduce: LOOM_FUZZ_ONE={seed} cargo test \
                 --test fuzz generated::one)"
            )
        },
    );
    println!("{}", gpu::status());
    println!(
        "{} of the programs took a record parameter",
        records.load(std::sync::atomic::Ordering::Relaxed)
    );
    println!(
        "{} of the programs stored a vector variable in a scratch row",
        scratch.load(std::sync::atomic::Ordering::Relaxed)
    );
    let verifier_seeds = std::mem::take(&mut *verifier_seeds.lock().unwrap());
    if !verifier_seeds.is_empty() {
        println!(
            "{} of {} programs met an open bug (E0811: \
             docs/testing.md; LOOM_FUZZ_STRICT_VERIFY=1 fails on them); seeds: {}",
            verifier_seeds.len(),
            outcome.ran,
            verifier_seeds.join(", ")
        );
    }
    report(outcome.ran, outcome.failures, shrink_generated)
}

/// Shrinks the program a failure names and saves it when `LOOM_FUZZ_SAVE` is set.
fn shrink_generated(failure: &str) -> String {
    failure
        .strip_prefix("generated program seed ")
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|s| s.parse::<u64>().ok())
        .map_or_else(String::new, shrink_seed)
}

/// Whether failures are shrunk (`LOOM_FUZZ_SHRINK=0` turns it off).
fn shrinking() -> bool {
    std::env::var("LOOM_FUZZ_SHRINK").map_or(true, |v| v != "0")
}

/// Shrinks the generated program of `seed`, which fails, and saves it when `LOOM_FUZZ_SAVE` is
/// set; returns the note to print.
fn shrink_seed(seed: u64) -> String {
    let program = generator::generate(seed);
    let Err(original) = check_generated(seed, &program.source, &program.shape, true) else {
        return "(passes when run again)".to_string();
    };
    let shape = program.shape;
    let same = |s: &str| {
        let s = s.to_string();
        let shape = shape.clone();
        let signature = original.signature();
        let crash = signature.0 == Kind::Crash;
        pool::on_compiler_stack(move || {
            let ptxas = signature.0 == Kind::Ptxas;
            matches!(check_generated(seed, &s, &shape, ptxas), Err(f) if f.signature() == signature)
        })
        .unwrap_or(crash)
    };
    let shrunk = shrink::shrink(&program.source, same, 400);
    let [first, second] = differential::block_sizes(seed);
    // The file carries what the check ran with (block sizes, input seed), so that it fails the
    // same way when `regressions::` runs it on its own.
    let text = format!(
        "{shrunk}--! block-sizes: {first} {second}\n--! input-seed: {seed}\n\
         -- expected: compiles, ptxas accepts it, -O0 = -O3 and block sizes {first} and {second} agree\n\
         -- found by the generator (seed {seed}): {:?}: {}\n",
        original.kind,
        original.message.lines().next().unwrap_or("")
    );
    let reproduces = {
        let text = text.clone();
        let signature = original.signature();
        pool::on_compiler_stack(
            move || matches!(regression_check(&text), Some(Err(f)) if f.signature() == signature),
        )
        .unwrap_or(false)
    };
    if !reproduces {
        return format!("shrunk, but the file does not fail the same way on its own:\n{text}");
    }
    save("generated", &text)
}

// ----- record parameters -----

/// The header of a generated program reads back as its shape (the record parameter's type
/// included), old headers still parse, a malformed `record-param=` does not, and the harness's
/// C layout of a nested record is the one tests/codegen/record_params_ptx.loom checks in the PTX.
fn record_header_cases() -> Result<(), Failed> {
    use generator::{parse_header, Field, RecordType, Ty};
    let mut records = 0;
    for seed in 0..600 {
        let program = generator::generate(seed);
        if parse_header(&program.source).as_ref() != Some(&program.shape) {
            return Err(format!("seed {seed}: the header does not read back as its shape").into());
        }
        records += usize::from(program.shape.record_param.is_some());
    }
    if !(100..=300).contains(&records) {
        return Err(
            format!("{records} of 600 programs take a record parameter, not a third").into(),
        );
    }
    let old = parse_header("--! differential: Float16 200 range-param\n")
        .ok_or("an old header does not parse")?;
    if old.record_param.is_some() || !old.range_param || old.len != 200 {
        return Err(format!("an old header parses as {old:?}").into());
    }
    for bad in [
        "{a:Int32",
        "{a:Int33}",
        "{a:Int32,}",
        "{:Int32}",
        "{a:{v:Bool}",
    ] {
        let header = format!("--! differential: Int32 7 range-param record-param={bad}");
        if parse_header(&header).is_some() {
            return Err(format!("`{header}` parses").into());
        }
    }
    let outer = RecordType::parse("{a:Int8,inner:{v:Float64,c:Int8},h:Float16}")
        .ok_or("a nested record does not parse")?;
    let layout = outer.layout();
    let offsets: Vec<(&str, usize)> = layout
        .leaves
        .iter()
        .map(|l| (l.name.as_str(), l.offset))
        .collect();
    let want = [("a", 0), ("inner.v", 8), ("inner.c", 16), ("h", 24)];
    if (layout.size, layout.align, offsets.as_slice()) != (32, 8, want.as_slice()) {
        return Err(format!("the C layout of {} is {layout:?}", outer.header()).into());
    }
    let flat = RecordType {
        fields: vec![
            ("x".into(), Field::Num(Ty::F32)),
            ("flag".into(), Field::Bool),
            ("n".into(), Field::Num(Ty::I32)),
        ],
    };
    let layout = flat.layout();
    let offsets: Vec<usize> = layout.leaves.iter().map(|l| l.offset).collect();
    if (layout.size, layout.align, offsets) != (12, 4, vec![0, 4, 8]) {
        return Err(format!("the C layout of {} is {layout:?}", flat.header()).into());
    }
    Ok(())
}

/// The record parameters of the first 40 generated programs that take one: the harness's
/// packing (the CPU backend's bytes) and the runtime's (the GPU's, from the fields' names)
/// against the compiler's metadata, field by field.
fn record_packing_cases(base: u64) -> Result<(), Failed> {
    let (mut checked, mut leaves, mut nested) = (0, 0, 0);
    for i in 0..2000 {
        if checked == 40 {
            break;
        }
        let seed = program_seed(base, i);
        let program = generator::generate(seed);
        let Some(record) = program.shape.record_param.clone() else {
            continue;
        };
        nested += usize::from(record.header().matches('{').count() > 1);
        let outcome = pool::on_compiler_stack(move || {
            differential::check_record_packing(&program.source, &record, seed)
        })?;
        leaves += outcome.map_err(|e| format!("seed {seed}: {e}"))?;
        checked += 1;
    }
    println!("{checked} record parameters ({nested} nested, {leaves} fields) packed as the metadata says");
    if checked < 40 || nested == 0 {
        return Err(format!("only {checked} record parameters, {nested} nested").into());
    }
    Ok(())
}

// ----- regression files -----

/// A file under `tests/regressions/`: `--! differential: T L [FLAGS]` (a generated program:
/// the full differential check, with the block sizes of `--! block-sizes: A B` or 32 and 128),
/// or `--! expect: no-crash` (compiles or gets diagnostics).
fn regression(path: &PathBuf) -> Result<(), Failed> {
    let source = std::fs::read_to_string(support::repo_root().join(path))?;
    if generator::parse_header(&source).is_some() {
        // `--! open-bug: KIND`: a program that shows an open bug (docs/testing.md) must still
        // fail that way; once it passes, the bug is fixed and the line goes.
        let open_bug = source
            .lines()
            .find_map(|l| l.strip_prefix("--! open-bug: "))
            .map(|kind| kind.trim().to_string());
        let result = pool::on_compiler_stack(move || {
            open_bug_verdict(
                regression_check(&source).unwrap_or(Ok(())),
                open_bug.as_deref(),
            )
        })?;
        return result.map_err(Failed::from);
    }
    if source.starts_with("--! expect: no-crash") {
        let result = pool::on_compiler_stack(move || {
            crash::compile_behaves(&source, &crash::ptx_options()).map(|_| ())
        })?;
        return result.map_err(Failed::from);
    }
    Err("a regression file starts with `--! differential: T L` or `--! expect: no-crash`".into())
}

/// Seeds whose programs broke a documented limit of the language until the generator learnt to
/// keep to it (a generator bug, not a loomc one, so no regression file: the shrunk program is
/// one loomc rightly rejects). Each must now pass the whole check, with its open-bug kinds
/// failing too. 7000096: `out[B] <- sum /: out[[B, range(1, 258)]]`, an assignment reading its
/// own target, 257 elements at block size 4 (65 a thread: E0811).
const GENERATOR_BUG_SEEDS: [u64; 1] = [7000096];

fn generator_seed_cases() -> Result<(), Failed> {
    for seed in GENERATOR_BUG_SEEDS {
        let program = generator::generate(seed);
        let outcome = pool::on_compiler_stack(move || {
            check_generated(seed, &program.source, &program.shape, true)
                .map_err(|f| format!("seed {seed}: {:?}: {}", f.kind, f.message))
        })?;
        outcome?;
    }
    Ok(())
}

/// A regression file's verdict: without `--! open-bug` it must pass; with `--! open-bug: KIND` it
/// must still fail with that kind, and passing says the bug is fixed.
fn open_bug_verdict(outcome: Result<(), Failure>, open_bug: Option<&str>) -> Result<(), String> {
    match (outcome, open_bug) {
        (Err(f), Some(kind)) if format!("{:?}", f.kind) == kind => Ok(()),
        (Ok(()), Some(kind)) => Err(format!(
            "passes: the open bug ({kind}) no longer shows; remove `--! open-bug` and move the \
             bug to the fixed ones in docs/testing.md"
        )),
        (outcome, _) => outcome.map_err(|f| format!("{:?}: {}", f.kind, f.message)),
    }
}

/// [`open_bug_verdict`] in each of its cases (no regression file is an open bug at all times).
fn open_bug_verdict_cases() -> Result<(), Failed> {
    let failing = |kind| {
        Err(Failure {
            kind,
            message: "E0851".into(),
        })
    };
    let cases = [
        (
            open_bug_verdict(failing(Kind::Verifier), Some("Verifier")).is_ok(),
            "a file that still shows its open bug passes",
        ),
        (
            open_bug_verdict(Ok(()), Some("Verifier")).is_err_and(|e| e.contains("no longer")),
            "a file whose open bug is gone fails, saying so",
        ),
        (
            open_bug_verdict(failing(Kind::Sanitizer), Some("Verifier")).is_err(),
            "a file that fails another way than its open bug fails",
        ),
        (
            open_bug_verdict(Ok(()), None).is_ok(),
            "a file without open bug that passes passes",
        ),
        (
            open_bug_verdict(failing(Kind::Verifier), None).is_err(),
            "a file without open bug that fails fails",
        ),
    ];
    match cases.iter().find(|(holds, _)| !holds) {
        Some((_, what)) => Err(format!("open-bug verdict wrong: {what}").into()),
        None => Ok(()),
    }
}

/// The differential check of a generated regression file, with the block sizes of its
/// `--! block-sizes: A B` (default 32 and 128) and the inputs of its `--! input-seed: N` (default
/// 0); `None` if it is not one.
fn regression_check(source: &str) -> Option<Result<(), Failure>> {
    let shape = generator::parse_header(source)?;
    let header = |key: &str| -> Vec<u64> {
        source
            .lines()
            .find_map(|l| l.strip_prefix(key))
            .map(|rest| {
                rest.split_whitespace()
                    .filter_map(|w| w.parse().ok())
                    .collect()
            })
            .unwrap_or_default()
    };
    let sizes = header("--! block-sizes:");
    let config = Config {
        block_sizes: [
            sizes.first().map_or(32, |s| *s as u32),
            sizes.get(1).map_or(128, |s| *s as u32),
        ],
        ptxas: true,
        input_seed: header("--! input-seed:").first().copied().unwrap_or(0),
    };
    Some(differential::check(source, &shape, &config))
}

// ----- the long campaign -----

/// Rounds of generated programs and crash inputs from fresh seeds until `seconds` have passed;
/// failures are shrunk and saved (`LOOM_FUZZ_SAVE`), and the counts printed.
fn campaign(base: u64, seconds: u64) -> Result<(), Failed> {
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let (mut programs, mut inputs, mut failed_rounds) = (0usize, 0usize, Vec::new());
    let mut round = 0u64;
    while Instant::now() < deadline {
        let seed = base.wrapping_add(1 + round).wrapping_mul(0x9e37_79b9);
        round += 1;
        match generated_trial(seed, 200, Some(deadline)) {
            Ok(n) => programs += n,
            Err(e) => {
                programs += 200;
                // Printed at once: a campaign cut short still leaves its findings in the log.
                println!("FAILED: {}", e.message().unwrap_or(""));
                failed_rounds.push(format!(
                    "programs from {seed}: {}",
                    e.message().unwrap_or("")
                ));
            }
        }
        for kind in ["chars", "tokens", "mutations"] {
            match crash_trial(kind, seed, 1000, Some(deadline)) {
                Ok(n) => inputs += n,
                Err(e) => {
                    inputs += 1000;
                    println!("FAILED: {}", e.message().unwrap_or(""));
                    failed_rounds
                        .push(format!("{kind} from {seed}: {}", e.message().unwrap_or("")));
                }
            }
        }
        println!(
            "campaign: {:.0} s, {programs} programs, {inputs} inputs, {} failing rounds",
            seconds as f64
                - deadline
                    .saturating_duration_since(Instant::now())
                    .as_secs_f64(),
            failed_rounds.len()
        );
    }
    println!("campaign done: {programs} generated programs, {inputs} crash inputs");
    if failed_rounds.is_empty() {
        Ok(())
    } else {
        Err(failed_rounds.join("\n\n").into())
    }
}
