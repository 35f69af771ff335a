//! A distributed `for` over `range(lo, hi)` at bounds whose difference passes `i32::MAX` or
//! wraps in 32 bits (src/codegen/distribute.rs: the trip count is `max(hi - lo, 0)` in 64 bits
//! when the bounds are not known to keep it inside `i32`). A 32-bit `hi - lo` ran
//! `range(-10, i32::MAX)` not at all and the empty `range(1, i32::MIN)` `i32::MAX` times. Each
//! case checks the first and the last `TAIL` iterations; the longest runs `2^32 - 1`
//! iterations (a few seconds), sizes no case file can allocate.

use super::support::{array, compile, launch};
use libtest_mimic::{Failed, Trial};
use loomc::target::host::HostArg;
use loomc::target::OptLevel;

const FILE: &str = "tests/run/programs/distributed_loop_bounds.loom";

/// How many of the first and of the last iterations are checked: more than the largest block, so
/// that every thread's first and last iteration are among them.
const TAIL: usize = 2048;

/// What `head` and `tail` hold before the launch: no iteration of any case writes it.
const UNTOUCHED: i32 = 0x5eed;

/// `(BLOCKSIZE, lo, hi)`: ranges of more than `i32::MAX` iterations, empty ranges whose 32-bit
/// difference wraps to a positive count, and ordinary ones for contrast.
const CASES: [(u32, i32, i32); 6] = [
    (256, -10, i32::MAX),
    (1000, i32::MIN, i32::MAX),
    (1024, -1, i32::MAX),
    (256, 1, i32::MIN),
    (256, 5, 3),
    (256, -3 * TAIL as i32, 3 * TAIL as i32),
];

/// `(BLOCKSIZE, hi)` for `range(1, hi)`, whose start is a literal (another lowering).
const FROM_ONE: [(u32, i32); 2] = [(256, i32::MIN), (1024, i32::MAX)];

pub fn trials() -> Vec<Trial> {
    let any = CASES.iter().map(|&(bs, lo, hi)| {
        Trial::test(
            format!("distributed_loop_bounds/bs{bs}/lo{lo}/hi{hi}"),
            move || first_and_last_iterations(bs, Start::Parameter(lo), hi),
        )
    });
    let from_one = FROM_ONE.iter().map(|&(bs, hi)| {
        Trial::test(
            format!("distributed_loop_bounds/bs{bs}/from_one/hi{hi}"),
            move || first_and_last_iterations(bs, Start::LiteralOne, hi),
        )
    });
    any.chain(from_one).collect()
}

/// Where a case's range starts: at a kernel parameter (`distributedEnds`) or at the literal 1
/// (`distributedFromOne`).
#[derive(Clone, Copy)]
enum Start {
    Parameter(i32),
    LiteralOne,
}

/// One block runs `range(lo, hi)`; `head` gets iterations `lo ..` and `tail` iterations `.. hi`
/// (each its index), or stays untouched when the range is empty.
fn first_and_last_iterations(bs: u32, start: Start, hi: i32) -> Result<(), Failed> {
    let program = compile(FILE, bs, OptLevel::O3, false)?;
    let mut head = vec![UNTOUCHED; TAIL];
    let mut tail = vec![UNTOUCHED; TAIL];
    let mut args = vec![
        HostArg::I32(hi),
        HostArg::I32(TAIL as i32),
        array("head", &mut head),
        array("tail", &mut tail),
    ];
    let (kernel, lo) = match start {
        Start::LiteralOne => ("distributedFromOne", 1),
        Start::Parameter(lo) => {
            args.insert(0, HostArg::I32(lo));
            ("distributedEnds", lo)
        }
    };
    launch(&program, kernel, 1, &mut args).map_err(|e| e.to_string())?;
    drop(args);
    let trips = (i64::from(hi) - i64::from(lo)).max(0);
    let expected = |first: i64| -> Vec<i32> {
        (0..TAIL as i64)
            .map(|j| match first + j {
                i if i >= i64::from(lo) && i < i64::from(hi) => i as i32,
                _ => UNTOUCHED,
            })
            .collect()
    };
    let (want_head, want_tail) = if trips == 0 {
        (vec![UNTOUCHED; TAIL], vec![UNTOUCHED; TAIL])
    } else {
        (
            expected(i64::from(lo)),
            expected(i64::from(hi) - TAIL as i64),
        )
    };
    let wrong = |got: &[i32], want: &[i32]| -> Vec<(usize, i32, i32)> {
        got.iter()
            .zip(want)
            .enumerate()
            .filter(|(_, (g, w))| g != w)
            .map(|(j, (g, w))| (j, *g, *w))
            .take(5)
            .collect()
    };
    let (head_wrong, tail_wrong) = (wrong(&head, &want_head), wrong(&tail, &want_tail));
    if head_wrong.is_empty() && tail_wrong.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "range({lo}, {hi}) at BLOCKSIZE {bs}, {trips} iterations: (position, got, want) \
             wrong in head {head_wrong:?}, in tail {tail_wrong:?}"
        )
        .into())
    }
}
