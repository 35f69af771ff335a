//! Execution tests on the CPU backend: every example and canonical program runs on random inputs
//! of several sizes (some not multiples of `BLOCKSIZE`) at block sizes 2, 16, 32, 64, 256 and 1024,
//! against a reference: a case file under `run/cases/` (`run/files.rs`: its launches, inputs and
//! reference are directives, docs/testing.md "Run cases"), or, where the reference is an
//! algorithm on 16-bit floats, a Rust case (`run/half_cases.rs`); `-O0` and `-O3` must give the
//! same bits. `run/sanitizer.rs` plants bugs and checks the sanitizer's reports; `run/bounds.rs`
//! checks that out-of-bounds accesses stop a run cleanly in every mode; `run/stride_loop_ends.rs`
//! runs block-stride loops up to `i32::MAX` iterations, `run/distributed_loop_bounds.rs`
//! distributed `for` loops over ranges of up to `2^32 - 1` iterations and empty ones.
//!
//! One named test per program and block size: `cargo test --test run -- saxpy/bs64`.

#[path = "run/bounds.rs"]
mod bounds;
#[path = "run/cli.rs"]
mod cli;
#[path = "run/distributed_loop_bounds.rs"]
mod distributed_loop_bounds;
#[path = "run/files.rs"]
mod files;
#[path = "run/grid_cases.rs"]
mod grid_cases;
#[path = "run/half_cases.rs"]
mod half_cases;
#[path = "support/header.rs"]
mod header;
#[path = "support/mutation.rs"]
mod mutation;
#[path = "run/number_cases.rs"]
mod number_cases;
#[path = "run/reference.rs"]
mod reference;
#[path = "run/sanitizer.rs"]
mod sanitizer;
#[path = "run/stride_loop_ends.rs"]
mod stride_loop_ends;
#[path = "run/support.rs"]
mod support;

use libtest_mimic::{Arguments, Failed, Trial};
use loomc::target::host::HostProgram;

// Below 32, a block is part of one warp: collectives shuffle within the block's own lanes only.
const BLOCK_SIZES: [u32; 6] = [2, 16, 32, 64, 256, 1024];

fn main() {
    let args = Arguments::from_args();
    let mut trials = Vec::new();
    for case in half_cases::CASES {
        let sizes: Vec<u32> = match case.block_size {
            Some(fixed) => vec![fixed],
            None => BLOCK_SIZES.to_vec(),
        };
        for bs in sizes {
            trials.push(Trial::test(format!("{}/bs{bs}", case.name), move || {
                run_case(case, bs)
            }));
        }
    }
    trials.extend(files::trials());
    trials.extend(files::self_tests());
    trials.push(Trial::test(
        "every_example_and_ok_program_has_a_case",
        every_program_has_a_case,
    ));
    trials.extend(sanitizer::trials());
    trials.extend(cli::trials());
    trials.extend(number_cases::trials());
    trials.extend(half_cases::trials());
    trials.extend(bounds::trials());
    trials.extend(grid_cases::trials());
    trials.extend(stride_loop_ends::trials());
    trials.extend(distributed_loop_bounds::trials());
    libtest_mimic::run(&args, trials).exit();
}

fn run_case(case: &half_cases::Case, bs: u32) -> Result<(), Failed> {
    let run = |program: &HostProgram, n: usize, seed: u64| {
        (case.run)(program, bs, n, &mut support::Rng::new(seed))
    };
    let faithful = match case.block_size {
        Some(_) => true,
        None => support::faithful_sample(case.name, &BLOCK_SIZES, bs),
    };
    Ok(support::same_bits_in_every_build(
        case.file, case.file, bs, faithful, case.sizes, &run,
    )?)
}

/// A new example or canonical program must come with an execution case.
fn every_program_has_a_case() -> Result<(), Failed> {
    let in_files: Vec<String> = files::specs()
        .into_iter()
        .flatten()
        .map(|spec| spec.program)
        .collect();
    let mut missing = Vec::new();
    for dir in ["examples", "tests/ui/ok"] {
        let entries =
            std::fs::read_dir(support::repo_root().join(dir)).map_err(|e| e.to_string())?;
        for entry in entries.flatten() {
            let path = format!("{dir}/{}", entry.file_name().to_string_lossy());
            if path.ends_with(".loom")
                && !half_cases::CASES.iter().any(|c| c.file == path)
                && !in_files.contains(&path)
            {
                missing.push(path);
            }
        }
    }
    if missing.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "programs without an execution case (a file under {}): {missing:?}",
            files::DIR
        )
        .into())
    }
}
