//! Block-stride loops up to `i32::MAX` iterations, at block sizes that are and are not powers of
//! two: the latch adds the block size first and compares the sum, unsigned, with the length
//! (src/codegen/body.rs, `block_stride_loop`). Near `i32::MAX` the sum passes
//! `i32::MAX` by up to `BLOCKSIZE - 1`: a signed compare there would go round again from a
//! negative counter, a 32-bit wrap would stop early. Each launch runs every iteration once
//! (about two billion in all for the largest `n`, a second or so), and checks the last ones.

use super::support::{array, compile, launch};
use libtest_mimic::{Failed, Trial};
use loomc::target::host::HostArg;
use loomc::target::OptLevel;

const FILE: &str = "tests/run/programs/stride_loop_ends.loom";

/// How many of the last iterations are checked: more than the largest block, so every thread's
/// last iteration is among them.
const TAIL: usize = 2048;

/// `(BLOCKSIZE, n)`: `n` at `i32::MAX` and just below it, where the last step's sum passes
/// `i32::MAX` by different amounts, and a small `n` for contrast.
const CASES: [(u32, i32); 8] = [
    (2, i32::MAX),
    (3, i32::MAX),
    (255, i32::MAX - 1),
    (256, i32::MAX),
    (1000, i32::MAX - 999),
    (1023, i32::MAX - 500),
    (1024, i32::MAX),
    (1000, 2 * TAIL as i32 + 7),
];

pub fn trials() -> Vec<Trial> {
    CASES
        .iter()
        .map(|&(bs, n)| {
            Trial::test(format!("stride_loop_ends/bs{bs}/n{n}"), move || {
                last_iterations_run_once(bs, n)
            })
        })
        .collect()
}

/// One block runs `range(0, n)`; iteration `i >= n - TAIL` writes `i + 1` at `i - (n - TAIL)`.
fn last_iterations_run_once(bs: u32, n: i32) -> Result<(), Failed> {
    let program = compile(FILE, bs, OptLevel::O3, false)?;
    let mut tail = vec![0i32; TAIL];
    launch(
        &program,
        "strideEnds",
        1,
        &mut [
            HostArg::I32(n),
            HostArg::I32(TAIL as i32),
            array("tail", &mut tail),
        ],
    )
    .map_err(|e| e.to_string())?;
    let first = n - TAIL as i32;
    let wrong: Vec<(usize, i32)> = tail
        .iter()
        .enumerate()
        .filter(|&(j, &got)| got != first + j as i32 + 1)
        .map(|(j, &got)| (j, got))
        .take(5)
        .collect();
    if wrong.is_empty() {
        Ok(())
    } else {
        Err(format!("n = {n}, BLOCKSIZE {bs}: (position, value) wrong: {wrong:?}").into())
    }
}
