//! One case per program: how to launch it on random inputs of a given size, and a reference
//! computed here, independently of loomc, in plain Rust. Each returns the bytes of its outputs so
//! that the harness can compare `-O0` with `-O3` bit for bit.

use super::atomic_cases;
use super::elementwise_cases;
use super::grid_cases;
use super::support::{array, bytes, close, exact, launch, widen, Rng};
use loomc::target::host::{HostArg, HostProgram};

pub type Run = fn(&HostProgram, u32, usize, &mut Rng) -> Result<Vec<u8>, String>;

pub struct Case {
    pub name: &'static str,
    pub file: &'static str,
    /// `Some` when the program fixes `@blocksize`.
    pub block_size: Option<u32>,
    /// Problem sizes (elements, or blocks for once-per-block programs).
    pub sizes: &'static [usize],
    pub run: Run,
}

const ELEMENTS: &[usize] = &[1, 31, 1000, 4097];

pub const CASES: &[Case] = &[
    Case {
        name: "shift_left",
        file: "examples/shift_left.loom",
        block_size: None,
        sizes: ELEMENTS,
        run: shift_left,
    },
    Case {
        name: "shift_left1",
        file: "examples/shift_left1.loom",
        block_size: None,
        sizes: ELEMENTS,
        run: shift_left1,
    },
    Case {
        name: "sum_of_squares",
        file: "examples/sum_of_squares.loom",
        block_size: None,
        sizes: ELEMENTS,
        run: sum_of_squares,
    },
    Case {
        name: "row_max",
        file: "examples/row_max.loom",
        block_size: None,
        sizes: ELEMENTS,
        run: row_max,
    },
    Case {
        name: "softmax",
        file: "examples/softmax.loom",
        block_size: None,
        sizes: ELEMENTS,
        run: softmax,
    },
    Case {
        name: "recomputed_scan",
        file: "tests/run/programs/recomputed_scan.loom",
        block_size: None,
        sizes: ELEMENTS,
        run: recomputed_scan,
    },
    Case {
        name: "run_time_vector_recomputed",
        file: "tests/ui/ok/run_time_vector_recomputed.loom",
        block_size: None,
        sizes: ELEMENTS,
        run: run_time_vector_recomputed,
    },
    Case {
        name: "row_two_statements",
        file: "tests/ui/ok/row_two_statements.loom",
        block_size: None,
        sizes: ELEMENTS,
        run: row_two_statements,
    },
    Case {
        name: "row_sum_small_block",
        file: "tests/ui/ok/row_sum_small_block.loom",
        block_size: Some(2),
        sizes: ELEMENTS,
        run: row_sum_small_block,
    },
    Case {
        name: "mul_matr_vec",
        file: "bench/kernels/mul_matr_vec.loom",
        block_size: None,
        sizes: ELEMENTS,
        run: mul_matr_vec,
    },
    Case {
        name: "saxpy",
        file: "examples/saxpy.loom",
        block_size: None,
        sizes: ELEMENTS,
        run: saxpy,
    },
    Case {
        name: "collatz",
        file: "examples/collatz.loom",
        block_size: None,
        sizes: &[1, 31, 100],
        run: collatz,
    },
    Case {
        name: "scalar_control",
        file: "tests/ui/ok/scalar_control.loom",
        block_size: None,
        sizes: &[1, 31, 100],
        run: scalar_control,
    },
    Case {
        name: "dot_product",
        file: "tests/ui/ok/dot_product.loom",
        block_size: None,
        sizes: ELEMENTS,
        run: dot_product,
    },
    Case {
        name: "matvec",
        file: "tests/ui/ok/matvec.loom",
        block_size: None,
        sizes: ELEMENTS,
        run: matvec,
    },
    Case {
        name: "newton_sqrt",
        file: "tests/ui/ok/newton_sqrt.loom",
        block_size: None,
        sizes: ELEMENTS,
        run: newton_sqrt,
    },
    Case {
        name: "prefix_sum",
        file: "tests/ui/ok/prefix_sum.loom",
        block_size: None,
        sizes: ELEMENTS,
        run: prefix_sum,
    },
    Case {
        name: "suffix_sum",
        file: "tests/ui/ok/suffix_sum.loom",
        block_size: None,
        sizes: ELEMENTS,
        run: suffix_sum,
    },
    Case {
        name: "elementwise",
        file: "tests/ui/ok/elementwise.loom",
        block_size: Some(128),
        sizes: ELEMENTS,
        run: elementwise,
    },
    Case {
        name: "ok/shift_left",
        file: "tests/ui/ok/shift_left.loom",
        block_size: None,
        sizes: ELEMENTS,
        run: shift_left,
    },
    Case {
        name: "ok/shift_left1",
        file: "tests/ui/ok/shift_left1.loom",
        block_size: None,
        sizes: ELEMENTS,
        run: shift_left1,
    },
    Case {
        name: "ok/sum_of_squares",
        file: "tests/ui/ok/sum_of_squares.loom",
        block_size: None,
        sizes: ELEMENTS,
        run: sum_of_squares,
    },
    Case {
        name: "ok/row_max",
        file: "tests/ui/ok/row_max.loom",
        block_size: None,
        sizes: ELEMENTS,
        run: row_max,
    },
    Case {
        name: "ok/saxpy",
        file: "tests/ui/ok/saxpy.loom",
        block_size: None,
        sizes: ELEMENTS,
        run: saxpy,
    },
    Case {
        name: "first_nonzero",
        file: "tests/run/programs/first_nonzero.loom",
        block_size: None,
        sizes: ELEMENTS,
        run: first_nonzero,
    },
    Case {
        name: "row_func_arg",
        file: "tests/run/programs/row_func_arg.loom",
        block_size: None,
        sizes: ELEMENTS,
        run: row_func_arg,
    },
    Case {
        name: "shared_func_arg",
        file: "tests/run/programs/shared_func_arg.loom",
        block_size: None,
        sizes: ELEMENTS,
        run: shared_func_arg,
    },
    Case {
        name: "indexed_vectors",
        file: "tests/run/programs/indexed_vectors.loom",
        block_size: None,
        sizes: ELEMENTS,
        run: indexed_vectors,
    },
    Case {
        name: "scatter_stores",
        file: "tests/run/programs/scatter_stores.loom",
        block_size: None,
        sizes: ELEMENTS,
        run: scatter_stores,
    },
    Case {
        name: "scatter_2d",
        file: "tests/run/programs/scatter_2d.loom",
        block_size: None,
        sizes: ELEMENTS,
        run: scatter_2d,
    },
    Case {
        name: "mixed_scans",
        file: "tests/run/programs/mixed_scans.loom",
        block_size: None,
        sizes: ELEMENTS,
        run: mixed_scans,
    },
    Case {
        name: "row_slice_store",
        file: "tests/run/programs/row_slice_store.loom",
        block_size: None,
        sizes: ELEMENTS,
        run: row_slice_store,
    },
    Case {
        name: "math_libdevice",
        file: "tests/codegen/math_libdevice.loom",
        block_size: None,
        sizes: ELEMENTS,
        run: math_libdevice,
    },
    // The atomics (tests/run/atomic_cases.rs).
    Case {
        name: "histogram",
        file: "examples/histogram.loom",
        block_size: None,
        sizes: ELEMENTS,
        run: atomic_cases::histogram,
    },
    // The grid-wide collectives and the bitonic sort (tests/run/grid_cases.rs).
    Case {
        name: "grid_sum",
        file: "examples/grid_sum.loom",
        block_size: None,
        sizes: ELEMENTS,
        run: grid_cases::grid_sum,
    },
    Case {
        name: "exclusive_scan",
        file: "examples/exclusive_scan.loom",
        block_size: None,
        sizes: ELEMENTS,
        run: grid_cases::exclusive_scan,
    },
    Case {
        name: "compaction",
        file: "examples/compaction.loom",
        block_size: None,
        sizes: ELEMENTS,
        run: grid_cases::compaction,
    },
    Case {
        name: "grid_programs",
        file: "tests/run/programs/grid.loom",
        block_size: None,
        sizes: ELEMENTS,
        run: grid_cases::grid_programs,
    },
    Case {
        name: "bitonic_sort",
        file: "examples/bitonic_sort.loom",
        block_size: None,
        sizes: ELEMENTS,
        run: grid_cases::bitonic_sort,
    },
    Case {
        name: "atomics",
        file: "tests/run/programs/atomics.loom",
        block_size: None,
        sizes: ELEMENTS,
        run: atomic_cases::atomics,
    },
    // Elementwise calls of funcs on block vectors (tests/run/elementwise_cases.rs).
    Case {
        name: "elementwise_call",
        file: "tests/run/programs/elementwise_call.loom",
        block_size: None,
        sizes: ELEMENTS,
        run: elementwise_cases::elementwise_call,
    },
    Case {
        name: "argmax",
        file: "examples/argmax.loom",
        block_size: None,
        sizes: ELEMENTS,
        run: elementwise_cases::argmax,
    },
];

fn blocks_for(n: usize, bs: u32) -> usize {
    n.div_ceil(bs as usize).max(1)
}

fn shift(
    p: &HostProgram,
    kernel: &str,
    bs: u32,
    n: usize,
    rng: &mut Rng,
) -> Result<Vec<u8>, String> {
    let blocks = blocks_for(n, bs);
    let len = blocks * bs as usize;
    let mut input = rng.f32s(len, -10.0, 10.0);
    let mut out = rng.f32s(len, 100.0, 200.0);
    let expected: Vec<f32> = (0..len)
        .map(|i| {
            if i >= bs as usize {
                input[i - bs as usize]
            } else {
                0.0
            }
        })
        .collect();
    launch(
        p,
        kernel,
        blocks as u32,
        &mut [array("in", &mut input), array("out", &mut out)],
    )
    .map_err(|e| e.to_string())?;
    exact("out", &out, &expected)?;
    Ok(bytes(&out))
}

fn shift_left(p: &HostProgram, bs: u32, n: usize, rng: &mut Rng) -> Result<Vec<u8>, String> {
    shift(p, "shiftLeft", bs, n, rng)
}

fn shift_left1(p: &HostProgram, bs: u32, n: usize, rng: &mut Rng) -> Result<Vec<u8>, String> {
    shift(p, "shiftLeft1", bs, n, rng)
}

fn sum_of_squares(p: &HostProgram, bs: u32, n: usize, rng: &mut Rng) -> Result<Vec<u8>, String> {
    let blocks = blocks_for(n, bs);
    let bs = bs as usize;
    let mut input = rng.f32s(blocks * bs, -2.0, 2.0);
    let mut out = vec![f32::NAN; blocks];
    let expected: Vec<f64> = input
        .chunks(bs)
        .map(|c| c.iter().map(|x| (*x as f64) * (*x as f64)).sum())
        .collect();
    launch(
        p,
        "sumOfSquares",
        blocks as u32,
        &mut [array("in", &mut input), array("out", &mut out)],
    )
    .map_err(|e| e.to_string())?;
    // f32 sums of at most 1024 positive terms: relative error well under 1e-5.
    close("out", &widen(&out), &expected, 1e-5, 0.0)?;
    Ok(bytes(&out))
}

fn row_max(p: &HostProgram, _bs: u32, n: usize, rng: &mut Rng) -> Result<Vec<u8>, String> {
    let (rows, cols) = (3usize, n);
    let mut a = rng.f32s(rows * cols, -100.0, 100.0);
    if cols > 1 {
        // maxNum ignores a NaN unless every element is one (stdlib/reduce.loom); f32::max too.
        a[cols] = f32::NAN;
    }
    let mut out = vec![f32::NAN; rows];
    let expected: Vec<f32> = a
        .chunks(cols)
        .map(|r| r.iter().copied().fold(f32::NEG_INFINITY, f32::max))
        .collect();
    launch(
        p,
        "rowMax",
        rows as u32,
        &mut [
            HostArg::I32(rows as i32),
            HostArg::I32(cols as i32),
            array("a", &mut a),
            array("out", &mut out),
        ],
    )
    .map_err(|e| e.to_string())?;
    exact("out", &out, &expected)?;
    Ok(bytes(&out))
}

/// Softmax of each row, one row per block, over a run-time row length (`e` is recomputed at
/// each use). The reference works in f64; the kernel's `exp` and its sum round in f32.
fn softmax(p: &HostProgram, _bs: u32, n: usize, rng: &mut Rng) -> Result<Vec<u8>, String> {
    let (rows, cols) = (3usize, n);
    let mut a = rng.f32s(rows * cols, -20.0, 20.0);
    let mut out = vec![f32::NAN; rows * cols];
    let mut expected = Vec::with_capacity(rows * cols);
    for row in a.chunks(cols) {
        let m = row.iter().copied().fold(f32::NEG_INFINITY, f32::max) as f64;
        let e: Vec<f64> = row.iter().map(|&x| (x as f64 - m).exp()).collect();
        let total: f64 = e.iter().sum();
        expected.extend(e.iter().map(|v| v / total));
    }
    launch(
        p,
        "softmax",
        rows as u32,
        &mut [
            HostArg::I32(rows as i32),
            HostArg::I32(cols as i32),
            array("a", &mut a),
            array("out", &mut out),
        ],
    )
    .map_err(|e| e.to_string())?;
    // exp within a few ulp and an f32 sum of at most 4097 positive terms: relative error well
    // under 1e-4; terms that underflow to zero in f32 are below 1e-30 in f64.
    close("out", &widen(&out), &expected, 1e-4, 1e-30)?;
    Ok(bytes(&out))
}

/// Recomputed vectors over the whole array, in one block: `y = 2x + 1`, and
/// `out[0] = (0 + 1 + 2) * sum(2x + 1) + max(2x)` (float sums: within a relative tolerance).
fn run_time_vector_recomputed(
    p: &HostProgram,
    _bs: u32,
    n: usize,
    rng: &mut Rng,
) -> Result<Vec<u8>, String> {
    let mut x = rng.f32s(n, -1.0, 1.0);
    let mut y = vec![f32::NAN; n];
    let mut out = vec![f32::NAN; 1];
    let s: Vec<f64> = x.iter().map(|&v| f64::from(v * 2.0 + 1.0)).collect();
    let max_r = x
        .iter()
        .map(|&v| f64::from(v * 2.0))
        .fold(f64::NEG_INFINITY, f64::max);
    let total = 3.0 * s.iter().sum::<f64>() + max_r;
    launch(
        p,
        "k",
        1,
        &mut [
            HostArg::I32(n as i32),
            array("x", &mut x),
            array("y", &mut y),
            array("out", &mut out),
        ],
    )
    .map_err(|e| e.to_string())?;
    close("y", &widen(&y), &s, 0.0, 0.0)?;
    // The sums run over up to 4,097 elements of magnitude up to 3: absolute error, not relative.
    close("out", &widen(&out), &[total], 1e-4, 1e-2)?;
    let mut result = bytes(&y);
    result.extend(bytes(&out));
    Ok(result)
}

/// `3 * (inclusive prefix sum of x)` over the whole array, in one block, from a recomputed
/// scan used twice in one statement.
fn recomputed_scan(p: &HostProgram, _bs: u32, n: usize, rng: &mut Rng) -> Result<Vec<u8>, String> {
    let mut x = rng.i32s(n, -1_000_000, 1_000_000);
    let mut out = vec![i32::MIN; n];
    let mut acc = 0i32;
    let expected: Vec<i32> = x
        .iter()
        .map(|&v| {
            acc = acc.wrapping_add(v);
            acc.wrapping_mul(3)
        })
        .collect();
    launch(
        p,
        "recomputedScan",
        1,
        &mut [
            HostArg::I32(n as i32),
            array("x", &mut x),
            array("out", &mut out),
        ],
    )
    .map_err(|e| e.to_string())?;
    exact("out", &out, &expected)?;
    Ok(bytes(&out))
}

/// y = A x, one row per block (`sum /.` over a run-time length: each thread's accumulator starts
/// from `-0.0`). The reference adds in LOOM's documented order (reduce.rs), so it must agree bit
/// for bit: each thread its elements `t, t + BLOCKSIZE, ...` in turn, then a shuffle-down tree
/// within each warp, then one over the warps' results.
fn mul_matr_vec(p: &HostProgram, bs: u32, n: usize, rng: &mut Rng) -> Result<Vec<u8>, String> {
    let (rows, cols, bs) = (3usize, n, bs as usize);
    let mut a = rng.f32s(rows * cols, -10.0, 10.0);
    let mut x = rng.f32s(cols, -10.0, 10.0);
    let mut y = vec![f32::NAN; rows];
    let width = bs.min(32);
    let expected: Vec<f32> = a
        .chunks(cols)
        .map(|row| {
            let threads: Vec<f32> = (0..bs)
                .map(|t| {
                    (t..cols)
                        .step_by(bs)
                        .fold(-0.0, |acc, j| acc + row[j] * x[j])
                })
                .collect();
            let warps: Vec<f32> = threads.chunks(width).map(shuffle_down_tree).collect();
            shuffle_down_tree(&warps)
        })
        .collect();
    launch(
        p,
        "mulMatrVec",
        rows as u32,
        &mut [
            HostArg::I32(rows as i32),
            HostArg::I32(cols as i32),
            array("a", &mut a),
            array("x", &mut x),
            array("y", &mut y),
        ],
    )
    .map_err(|e| e.to_string())?;
    exact("y", &y, &expected)?;
    Ok(bytes(&y))
}

/// Lane 0's value after `v[i] += v[i + offset]` for offsets 1, 2, 4, ... (all lanes at once).
fn shuffle_down_tree(lanes: &[f32]) -> f32 {
    let mut v = lanes.to_vec();
    let mut offset = 1;
    while offset < v.len() {
        // Ascending: v[i + offset] is still the value from before this step.
        for i in 0..v.len() - offset {
            v[i] += v[i + offset];
        }
        offset *= 2;
    }
    v[0]
}

fn saxpy(p: &HostProgram, bs: u32, n: usize, rng: &mut Rng) -> Result<Vec<u8>, String> {
    let a = rng.f32_in(-3.0, 3.0);
    let mut x = rng.f32s(n, -10.0, 10.0);
    let mut y = rng.f32s(n, -10.0, 10.0);
    // Rust rounds `a * x` and then the sum, as LOOM does by default (no contraction into an fma:
    // docs/language.md), so the CPU backend and the PTX give these bits exactly.
    let expected: Vec<f32> = x.iter().zip(&y).map(|(x, y)| a * x + y).collect();
    launch(
        p,
        "saxpy",
        blocks_for(n, bs) as u32,
        &mut [
            HostArg::I32(n as i32),
            HostArg::F32(a),
            array("x", &mut x),
            array("y", &mut y),
        ],
    )
    .map_err(|e| e.to_string())?;
    exact("y", &y, &expected)?;
    Ok(bytes(&y))
}

fn collatz_steps(mut n: i64) -> i32 {
    let mut steps = 0;
    while n != 1 {
        n = if n % 2 == 0 { n / 2 } else { 3 * n + 1 };
        steps += 1;
    }
    steps
}

fn collatz(p: &HostProgram, _bs: u32, blocks: usize, rng: &mut Rng) -> Result<Vec<u8>, String> {
    let first = rng.i32_in(1, 1_000_000) as i64;
    let mut out = vec![-1i32; blocks];
    let expected: Vec<i32> = (0..blocks)
        .map(|b| collatz_steps(first + b as i64))
        .collect();
    launch(
        p,
        "collatz",
        blocks as u32,
        &mut [HostArg::I64(first), array("out", &mut out)],
    )
    .map_err(|e| e.to_string())?;
    exact("out", &out, &expected)?;
    Ok(bytes(&out))
}

fn scalar_control(
    p: &HostProgram,
    _bs: u32,
    blocks: usize,
    rng: &mut Rng,
) -> Result<Vec<u8>, String> {
    let n = rng.i32_in(-1000, 1000);
    let mut out = vec![-1i32; blocks];
    let mut half = vec![f32::NAN; blocks];
    let clamp = |x: i32| x.clamp(2, 7);
    let steps = |start: i32| collatz_steps(start as i64);
    let mut expected_out = Vec::new();
    let mut expected_half = Vec::new();
    for b in 0..blocks as i32 {
        let mut total: i32 = (0..10).map(clamp).sum();
        let k = (total as i64) << 2;
        if k > 100 && b != 0 {
            total += 1;
        }
        expected_out.push(total + n + steps(b + 1));
        expected_half.push(total as f32 / 2.0);
    }
    launch(
        p,
        "scalars",
        blocks as u32,
        &mut [
            HostArg::I32(n),
            array("out", &mut out),
            array("half", &mut half),
        ],
    )
    .map_err(|e| e.to_string())?;
    exact("out", &out, &expected_out)?;
    exact("half", &half, &expected_half)?;
    let mut all = bytes(&out);
    all.extend(bytes(&half));
    Ok(all)
}

/// Partial sums of products per block, with the tolerance scaled by the sum of magnitudes.
fn check_dot_like(what: &str, got: &[f32], pairs: &[Vec<(f32, f32)>]) -> Result<(), String> {
    for (i, (g, terms)) in got.iter().zip(pairs).enumerate() {
        let e: f64 = terms.iter().map(|(a, b)| *a as f64 * *b as f64).sum();
        let magnitude: f64 = terms
            .iter()
            .map(|(a, b)| (*a as f64 * *b as f64).abs())
            .sum();
        let tolerance = 1e-5 * magnitude + 1e-6;
        if ((*g as f64) - e).abs() > tolerance {
            return Err(format!(
                "{what}[{i}] = {g}, expected {e} (tolerance {tolerance:e})"
            ));
        }
    }
    Ok(())
}

fn dot_product(p: &HostProgram, bs: u32, n: usize, rng: &mut Rng) -> Result<Vec<u8>, String> {
    let blocks = blocks_for(n, bs);
    let mut x = rng.f32s(n, -1.0, 1.0);
    let mut y = rng.f32s(n, -1.0, 1.0);
    let mut partial = vec![f32::NAN; blocks];
    let pairs: Vec<Vec<(f32, f32)>> = (0..blocks)
        .map(|b| {
            (b * bs as usize..((b + 1) * bs as usize).min(n))
                .map(|i| (x[i], y[i]))
                .collect()
        })
        .collect();
    launch(
        p,
        "dot",
        blocks as u32,
        &mut [
            HostArg::I32(n as i32),
            array("x", &mut x),
            array("y", &mut y),
            array("partial", &mut partial),
        ],
    )
    .map_err(|e| e.to_string())?;
    check_dot_like("partial", &partial, &pairs)?;
    Ok(bytes(&partial))
}

fn matvec(p: &HostProgram, _bs: u32, n: usize, rng: &mut Rng) -> Result<Vec<u8>, String> {
    let (rows, cols) = (4usize, n);
    let mut a = rng.f32s(rows * cols, -1.0, 1.0);
    let mut x = rng.f32s(cols, -1.0, 1.0);
    let mut y = vec![f32::NAN; rows];
    let pairs: Vec<Vec<(f32, f32)>> = a
        .chunks(cols)
        .map(|row| row.iter().copied().zip(x.iter().copied()).collect())
        .collect();
    launch(
        p,
        "matvec",
        rows as u32,
        &mut [
            HostArg::I32(rows as i32),
            HostArg::I32(cols as i32),
            array("a", &mut a),
            array("x", &mut x),
            array("y", &mut y),
        ],
    )
    .map_err(|e| e.to_string())?;
    check_dot_like("y", &y, &pairs)?;
    Ok(bytes(&y))
}

fn newton_sqrt(p: &HostProgram, bs: u32, n: usize, rng: &mut Rng) -> Result<Vec<u8>, String> {
    let mut x = rng.f32s(n, 0.5, 100.0);
    let mut out = vec![f32::NAN; n];
    let expected: Vec<f64> = x.iter().map(|v| (*v as f64).sqrt()).collect();
    launch(
        p,
        "newtonSqrt",
        blocks_for(n, bs) as u32,
        &mut [
            HostArg::I32(n as i32),
            array("x", &mut x),
            array("out", &mut out),
        ],
    )
    .map_err(|e| e.to_string())?;
    // 20 Newton steps from (x + 1) / 2 converge to the f32 square root within a few ulps.
    close("out", &widen(&out), &expected, 1e-6, 0.0)?;
    Ok(bytes(&out))
}

fn prefix_sum(p: &HostProgram, bs: u32, n: usize, rng: &mut Rng) -> Result<Vec<u8>, String> {
    let mut x = rng.i32s(n, -1_000_000, 1_000_000);
    let mut out = vec![i32::MIN; n];
    let mut expected = vec![0i32; n];
    for block in (0..n).collect::<Vec<_>>().chunks(bs as usize) {
        let mut acc = 0i32;
        for &i in block {
            acc = acc.wrapping_add(x[i]);
            expected[i] = acc;
        }
    }
    launch(
        p,
        "prefixSum",
        blocks_for(n, bs) as u32,
        &mut [
            HostArg::I32(n as i32),
            array("x", &mut x),
            array("out", &mut out),
        ],
    )
    .map_err(|e| e.to_string())?;
    exact("out", &out, &expected)?;
    Ok(bytes(&out))
}

fn suffix_sum(p: &HostProgram, bs: u32, n: usize, rng: &mut Rng) -> Result<Vec<u8>, String> {
    let mut x: Vec<f64> = (0..n).map(|_| rng.f32_in(-1.0, 1.0) as f64 * 1e3).collect();
    let mut out = vec![f64::NAN; n];
    let mut expected = vec![0f64; n];
    for block in (0..n).collect::<Vec<_>>().chunks(bs as usize) {
        let mut acc = 0f64;
        for &i in block.iter().rev() {
            acc += x[i];
            expected[i] = acc;
        }
    }
    launch(
        p,
        "suffixSum",
        blocks_for(n, bs) as u32,
        &mut [
            HostArg::I32(n as i32),
            array("x", &mut x),
            array("out", &mut out),
        ],
    )
    .map_err(|e| e.to_string())?;
    // Float64 sums of at most 1024 terms of magnitude 1e3, in another grouping.
    close("out", &out, &expected, 1e-12, 1e-9)?;
    Ok(bytes(&out))
}

fn elementwise(p: &HostProgram, bs: u32, n: usize, rng: &mut Rng) -> Result<Vec<u8>, String> {
    let blocks = blocks_for(n, bs);
    let bs = bs as usize;
    let mut x = rng.f32s(n, -1.0, 1.0);
    let mut ix = rng.i32s(n, -50, 50);
    let mut out = vec![f32::NAN; n];
    let mut stats = vec![f64::NAN; blocks];
    let t = |i: usize| if i < n && x[i] > 0.0 { x[i] } else { 0.0 };
    let expected_out: Vec<f64> = (0..n).map(|i| (2.0 * t(i) + ix[i] as f32) as f64).collect();
    let expected_stats: Vec<f64> = (0..blocks)
        .map(|b| {
            let slice = b * bs..(b + 1) * bs;
            let max = slice
                .clone()
                .map(|i| t(i) as f64)
                .fold(f64::NEG_INFINITY, f64::max);
            let min = slice
                .map(|i| if i < n { ix[i] } else { 0 })
                .min()
                .unwrap_or(0);
            max + min as f64
        })
        .collect();
    launch(
        p,
        "activations",
        blocks as u32,
        &mut [
            HostArg::I32(n as i32),
            array("x", &mut x),
            array("ix", &mut ix),
            array("out", &mut out),
            array("stats", &mut stats),
        ],
    )
    .map_err(|e| e.to_string())?;
    close("out", &widen(&out), &expected_out, 1e-6, 1e-6)?;
    close("stats", &stats, &expected_stats, 1e-12, 0.0)?;
    let mut all = bytes(&out);
    all.extend(bytes(&stats));
    Ok(all)
}

fn first_nonzero(p: &HostProgram, bs: u32, n: usize, rng: &mut Rng) -> Result<Vec<u8>, String> {
    let blocks = blocks_for(n, bs);
    let bs = bs as usize;
    // Mostly zeros, so that which non-zero comes first matters.
    let mut x: Vec<i32> = (0..n)
        .map(|_| {
            if rng.next_u64() % 10 < 7 {
                0
            } else {
                rng.i32_in(-9, 10)
            }
        })
        .collect();
    let first = |range: std::ops::Range<usize>| range.map(|i| x[i]).find(|v| *v != 0).unwrap_or(0);
    let expected_reduce: Vec<i32> = (0..blocks)
        .map(|b| first(b * bs..((b + 1) * bs).min(n)))
        .collect();
    let expected_scan: Vec<i32> = (0..n).map(|i| first((i / bs) * bs..i + 1)).collect();
    let expected_suffix: Vec<i32> = (0..n)
        .map(|i| first(i..((i / bs + 1) * bs).min(n)))
        .collect();
    let mut reduce = vec![i32::MIN; blocks];
    let mut scan = vec![i32::MIN; n];
    let mut suffix = vec![i32::MIN; n];
    let nn = HostArg::I32(n as i32);
    launch(
        p,
        "firstNonzeroReduce",
        blocks as u32,
        &mut [nn, array("x", &mut x), array("out", &mut reduce)],
    )
    .map_err(|e| e.to_string())?;
    launch(
        p,
        "firstNonzeroScan",
        blocks as u32,
        &mut [
            HostArg::I32(n as i32),
            array("x", &mut x),
            array("out", &mut scan),
        ],
    )
    .map_err(|e| e.to_string())?;
    launch(
        p,
        "firstNonzeroSuffix",
        blocks as u32,
        &mut [
            HostArg::I32(n as i32),
            array("x", &mut x),
            array("out", &mut suffix),
        ],
    )
    .map_err(|e| e.to_string())?;
    exact("reduce", &reduce, &expected_reduce)?;
    exact("scan", &scan, &expected_scan)?;
    exact("suffix", &suffix, &expected_suffix)?;
    let mut all = bytes(&reduce);
    all.extend(bytes(&scan));
    all.extend(bytes(&suffix));
    Ok(all)
}

/// Stores into part of each row, `n` wide: the second half of `x`'s row into the first of `head`'s,
/// and the row doubled into `shifted` from column `s` on, where only the columns inside the row
/// are written (`s` may be negative or past the middle).
fn row_slice_store(p: &HostProgram, _bs: u32, n: usize, rng: &mut Rng) -> Result<Vec<u8>, String> {
    let rows = 3usize;
    let s = rng.i32_in(-(n as i32), n as i32 + 1);
    let mut x = rng.i32s(rows * n, -1000, 1000);
    let mut head = vec![i32::MIN; rows * n];
    let mut shifted = vec![i32::MIN; rows * n];
    let (mut expected_head, mut expected_shifted) = (head.clone(), shifted.clone());
    let half = n / 2;
    for b in 0..rows {
        let row = b * n;
        for c in 0..half {
            expected_head[row + c] = x[row + n - half + c];
        }
        for k in 0..n as i64 {
            let c = i64::from(s) + k;
            if (0..n as i64).contains(&c) {
                expected_shifted[row + c as usize] = x[row + k as usize].wrapping_mul(2);
            }
        }
    }
    launch(
        p,
        "rowSliceStore",
        rows as u32,
        &mut [
            HostArg::I32(n as i32),
            HostArg::I32(s),
            array("x", &mut x),
            array("head", &mut head),
            array("shifted", &mut shifted),
        ],
    )
    .map_err(|e| e.to_string())?;
    exact("head", &head, &expected_head)?;
    exact(
        &format!("shifted from column {s}"),
        &shifted,
        &expected_shifted,
    )?;
    let mut all = bytes(&head);
    all.extend(bytes(&shifted));
    Ok(all)
}

/// The standard library's math functions, which the GPU takes from libdevice and the CPU backend
/// from the host's libm.
fn math_libdevice(p: &HostProgram, bs: u32, n: usize, rng: &mut Rng) -> Result<Vec<u8>, String> {
    let threads = blocks_for(n, bs) * bs as usize;
    // Positive inputs, so that `sqrt` and `log` are defined.
    let mut x = rng.f32s(threads, 0.1, 4.0);
    let mut y: Vec<f64> = rng
        .f32s(threads, 0.1, 4.0)
        .into_iter()
        .map(f64::from)
        .collect();
    let mut out = vec![f32::NAN; threads];
    let mut out64 = vec![f64::NAN; threads];
    let expected: Vec<f64> = x
        .iter()
        .map(|&e| (e.sqrt() + 2.0f32.mul_add(1.0, e) + e.floor() + e.exp() + e.sin()) as f64)
        .collect();
    let expected64: Vec<f64> = y
        .iter()
        .map(|&e| e.sqrt() + e.ceil() + e.abs() + e.ln() + 3.0f64.powf(e))
        .collect();
    launch(
        p,
        "math",
        blocks_for(n, bs) as u32,
        &mut [
            array("x", &mut x),
            array("y", &mut y),
            array("out", &mut out),
            array("out64", &mut out64),
        ],
    )
    .map_err(|e| e.to_string())?;
    // libdevice and the host's libm each round within a few ulp of the true value.
    close("out", &widen(&out), &expected, 1e-5, 1e-6)?;
    close("out64", &out64, &expected64, 1e-12, 1e-12)?;
    let mut result = bytes(&out);
    result.extend(bytes(&out64));
    Ok(result)
}

/// Each row doubled, then one added, in place: two statements on the same run-time-length row.
fn row_two_statements(
    p: &HostProgram,
    _bs: u32,
    n: usize,
    rng: &mut Rng,
) -> Result<Vec<u8>, String> {
    let (rows, cols) = (3usize, n);
    let mut a = rng.f32s(rows * cols, -100.0, 100.0);
    let expected: Vec<f32> = a.iter().map(|v| v * 2.0 + 1.0).collect();
    launch(
        p,
        "rowTwice",
        rows as u32,
        &mut [
            HostArg::I32(rows as i32),
            HostArg::I32(cols as i32),
            array("a", &mut a),
        ],
    )
    .map_err(|e| e.to_string())?;
    exact("a", &a, &expected)?;
    Ok(bytes(&a))
}

/// The sum of each row in blocks of 2 threads. Float sums depend on the order of combining:
/// compared within a tolerance (in f64) rather than bit for bit.
fn row_sum_small_block(
    p: &HostProgram,
    _bs: u32,
    n: usize,
    rng: &mut Rng,
) -> Result<Vec<u8>, String> {
    let (rows, cols) = (3usize, n);
    let mut x = rng.f32s(rows * cols, -10.0, 10.0);
    let mut o = vec![f32::NAN; rows];
    let expected: Vec<f64> = x
        .chunks(cols)
        .map(|r| r.iter().map(|v| f64::from(*v)).sum())
        .collect();
    launch(
        p,
        "rowSum",
        rows as u32,
        &mut [
            HostArg::I32(rows as i32),
            HostArg::I32(cols as i32),
            array("x", &mut x),
            array("o", &mut o),
        ],
    )
    .map_err(|e| e.to_string())?;
    let got: Vec<f64> = o.iter().map(|v| f64::from(*v)).collect();
    close("o", &got, &expected, 1e-4, 1e-3)?;
    Ok(bytes(&o))
}

/// Rows of 2-D arrays passed to a func: `o[r][j] = 3 ca[r][j] + cb[r][j]`, and `s[r]` the sum of
/// row `r + 1`'s values (zero for the last row: a checked row outside the array is empty); `h[r]`
/// row `r + 1`'s first element (zero for the last row) plus the sum of the first half of `cb`'s
/// row `r`.
fn row_func_arg(p: &HostProgram, _bs: u32, n: usize, rng: &mut Rng) -> Result<Vec<u8>, String> {
    let (rows, cols) = (3usize, n);
    let mut ca = rng.i32s(rows * cols, -1000, 1000);
    let mut cb = rng.i32s(rows * cols, -1000, 1000);
    let mut o = vec![i32::MIN; rows * cols];
    let mut s = vec![i32::MIN; rows];
    let mut h = vec![i32::MIN; rows];
    let expected_h: Vec<i32> = (0..rows)
        .map(|r| {
            let next = if r + 1 < rows { ca[(r + 1) * cols] } else { 0 };
            let half = cb[r * cols..r * cols + cols / 2]
                .iter()
                .fold(0i32, |acc, v| acc.wrapping_add(*v));
            next.wrapping_add(half)
        })
        .collect();
    let packed: Vec<i32> = ca
        .iter()
        .zip(&cb)
        .map(|(a, b)| a.wrapping_mul(3).wrapping_add(*b))
        .collect();
    let expected_s: Vec<i32> = (0..rows)
        .map(|r| match packed.chunks(cols).nth(r + 1) {
            Some(row) => row.iter().fold(0i32, |acc, v| acc.wrapping_add(*v)),
            None => 0,
        })
        .collect();
    launch(
        p,
        "rowFuncArg",
        rows as u32,
        &mut [
            HostArg::I32(cols as i32),
            array("ca", &mut ca),
            array("cb", &mut cb),
            array("o", &mut o),
            array("s", &mut s),
            array("h", &mut h),
        ],
    )
    .map_err(|e| e.to_string())?;
    exact("o", &o, &packed)?;
    exact("s", &s, &expected_s)?;
    exact("h", &h, &expected_h)?;
    let mut all = bytes(&o);
    all.extend(bytes(&s));
    all.extend(bytes(&h));
    Ok(all)
}

/// `shared` arrays passed to funcs (tests/run/programs/shared_func_arg.loom): block `b`'s tile
/// holds `x[b * bs ..]`, zero past `n`; a read outside the tile is zero.
fn shared_func_arg(p: &HostProgram, bs: u32, n: usize, rng: &mut Rng) -> Result<Vec<u8>, String> {
    let bs = bs as usize;
    let blocks = blocks_for(n, bs as u32);
    let mut x = rng.i32s(n, -1000, 1000);
    let mut rot = vec![i32::MIN; n];
    let mut win = vec![i32::MIN; n];
    let mut ends = vec![i32::MIN; blocks];
    let tile = |b: usize, j: i64| -> i32 {
        if j < 0 || j >= bs as i64 {
            return 0;
        }
        x.get(b * bs + j as usize).copied().unwrap_or(0)
    };
    let expected_rot: Vec<i32> = (0..n)
        .map(|i| tile(i / bs, ((i % bs + 1) % bs) as i64))
        .collect();
    let expected_win: Vec<i32> = (0..n)
        .map(|i| {
            let (b, j) = (i / bs, (i % bs) as i64);
            tile(b, j - 1) + tile(b, j) + tile(b, j + 1)
        })
        .collect();
    let expected_ends: Vec<i32> = (0..blocks)
        .map(|b| tile(b, 0) + tile(b, bs as i64 - 1))
        .collect();
    launch(
        p,
        "sharedFuncArg",
        blocks as u32,
        &mut [
            HostArg::I32(n as i32),
            array("x", &mut x),
            array("rot", &mut rot),
            array("win", &mut win),
            array("ends", &mut ends),
        ],
    )
    .map_err(|e| e.to_string())?;
    exact("rot", &rot, &expected_rot)?;
    exact("win", &win, &expected_win)?;
    exact("ends", &ends, &expected_ends)?;
    let mut all = bytes(&rot);
    all.extend(bytes(&win));
    all.extend(bytes(&ends));
    Ok(all)
}

/// Indexed vectors (tests/run/programs/indexed_vectors.loom). Small whole numbers, so that the
/// scan's sums are exact in any order.
fn indexed_vectors(p: &HostProgram, bs: u32, n: usize, rng: &mut Rng) -> Result<Vec<u8>, String> {
    let bs = bs as usize;
    let blocks = blocks_for(n, bs as u32);
    let mut x: Vec<f32> = rng
        .i32s(n, -100, 100)
        .into_iter()
        .map(|v| v as f32)
        .collect();
    let mut out = vec![f32::NAN; n];
    let mut ends = vec![f32::NAN; blocks];
    let tile = |b: usize, j: usize| -> f32 { x.get(b * bs + j).copied().unwrap_or(0.0) };
    let expected_out: Vec<f32> = (0..n)
        .map(|i| {
            let (b, j) = (i / bs, i % bs);
            tile(b, (j + 1) % bs) * 2.0 + (tile(b, bs - 1 - j) + 1.0)
        })
        .collect();
    let expected_ends: Vec<f32> = (0..blocks)
        .map(|b| (0..bs).map(|j| tile(b, j)).sum::<f32>() + 5.0)
        .collect();
    launch(
        p,
        "indexedVectors",
        blocks as u32,
        &mut [
            HostArg::I32(n as i32),
            array("x", &mut x),
            array("out", &mut out),
            array("ends", &mut ends),
        ],
    )
    .map_err(|e| e.to_string())?;
    exact("out", &out, &expected_out)?;
    exact("ends", &ends, &expected_ends)?;
    let mut all = bytes(&out);
    all.extend(bytes(&ends));
    Ok(all)
}

/// Scatter stores (tests/run/programs/scatter_stores.loom): a checked scatter through a shifted
/// permutation, a block reversed and rotated through a shared tile, per-block compaction.
fn scatter_stores(p: &HostProgram, bs: u32, n: usize, rng: &mut Rng) -> Result<Vec<u8>, String> {
    let bs = bs as usize;
    let blocks = blocks_for(n, bs as u32);
    let s = rng.i32_in(-(n as i32) / 2, n as i32 / 2 + 1);
    let q = rng.i32_in(0, bs as i32);
    // A permutation of 0..n (Fisher-Yates).
    let mut perm: Vec<i32> = (0..n as i32).collect();
    for i in (1..n).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        perm.swap(i, j);
    }
    let mut x = rng.i32s(n, -1000, 1000);
    let mut moved = vec![i32::MIN; n];
    let mut rev = vec![i32::MIN; n];
    let mut rot = vec![i32::MIN; n];
    let mut kept = vec![i32::MIN; n];
    let (mut e_moved, mut e_rev, mut e_rot, mut e_kept) =
        (moved.clone(), rev.clone(), rot.clone(), kept.clone());
    for (i, &to) in perm.iter().enumerate() {
        let to = i64::from(to) + i64::from(s);
        if (0..n as i64).contains(&to) {
            e_moved[to as usize] = x[i];
        }
    }
    // `x[[i]]`: zero outside the array.
    let xz = |i: usize| if i < n { x[i] } else { 0 };
    for b in 0..blocks {
        let first = b * bs;
        let tile: Vec<i32> = (0..bs).map(|k| xz(first + bs - 1 - k)).collect();
        let mut rotated = vec![0; bs];
        for (k, v) in tile.iter().enumerate() {
            rotated[(k + q as usize) % bs] = v.wrapping_add(1);
        }
        let mut count = 0usize;
        for k in 0..bs {
            if first + k < n {
                e_rev[first + k] = tile[k];
                e_rot[first + k] = rotated[k];
            }
            if xz(first + k) > 0 {
                count += 1;
                if first + count - 1 < n {
                    e_kept[first + count - 1] = xz(first + k);
                }
            }
        }
    }
    launch(
        p,
        "scatterStores",
        blocks as u32,
        &mut [
            HostArg::I32(n as i32),
            HostArg::I32(s),
            HostArg::I32(q),
            array("perm", &mut perm),
            array("x", &mut x),
            array("moved", &mut moved),
            array("rev", &mut rev),
            array("rot", &mut rot),
            array("kept", &mut kept),
        ],
    )
    .map_err(|e| e.to_string())?;
    exact(&format!("moved (shift {s})"), &moved, &e_moved)?;
    exact("rev", &rev, &e_rev)?;
    exact(&format!("rot (by {q})"), &rot, &e_rot)?;
    exact("kept", &kept, &e_kept)?;
    let mut all = bytes(&moved);
    for v in [&rev, &rot, &kept] {
        all.extend(bytes(v));
    }
    Ok(all)
}

/// Scatter stores into 2-D arrays (tests/run/programs/scatter_2d.loom), one block per row of `x`:
/// row `b` rotated by `q` within its row, stored as column `b`, and stored rotated into column
/// `b`, doubled.
fn scatter_2d(p: &HostProgram, _bs: u32, n: usize, rng: &mut Rng) -> Result<Vec<u8>, String> {
    let (rows, cols) = (3usize, n);
    let q = rng.i32_in(0, cols as i32) as usize;
    let mut x = rng.i32s(rows * cols, -1000, 1000);
    let mut row_rot = vec![i32::MIN; rows * cols];
    let mut col_of = vec![i32::MIN; cols * rows];
    let mut by_index = vec![i32::MIN; cols * rows];
    let (mut e_row_rot, mut e_col_of, mut e_by_index) =
        (row_rot.clone(), col_of.clone(), by_index.clone());
    for b in 0..rows {
        for k in 0..cols {
            let v = x[b * cols + k];
            e_row_rot[b * cols + (k + q) % cols] = v;
            e_col_of[k * rows + b] = v;
            e_by_index[((k + q) % cols) * rows + b] = v.wrapping_mul(2);
        }
    }
    launch(
        p,
        "scatter2d",
        rows as u32,
        &mut [
            HostArg::I32(cols as i32),
            HostArg::I32(q as i32),
            array("x", &mut x),
            array("rowRot", &mut row_rot),
            array("colOf", &mut col_of),
            array("byIndex", &mut by_index),
        ],
    )
    .map_err(|e| e.to_string())?;
    exact(&format!("rowRot (by {q})"), &row_rot, &e_row_rot)?;
    exact("colOf", &col_of, &e_col_of)?;
    exact(&format!("byIndex (by {q})"), &by_index, &e_by_index)?;
    let mut all = bytes(&row_rot);
    all.extend(bytes(&col_of));
    all.extend(bytes(&by_index));
    Ok(all)
}

/// Left and right scans in one statement over `3 * BLOCKSIZE + 5` elements per block
/// (tests/run/programs/mixed_scans.loom); `x[[i]]` is zero past `n`, inside the last window.
fn mixed_scans(p: &HostProgram, bs: u32, n: usize, rng: &mut Rng) -> Result<Vec<u8>, String> {
    let window = 3 * bs as usize + 5;
    let blocks = n.div_ceil(window);
    let mut x = rng.i32s(n, -1000, 1000);
    let mut both = vec![i32::MIN; n];
    let mut spread = vec![i32::MIN; blocks];
    let mut nested = vec![i32::MIN; n];
    let (mut e_both, mut e_spread, mut e_nested) = (both.clone(), spread.clone(), nested.clone());
    // Inclusive scans of `xs` with `f`, left to right and right to left.
    let left = |xs: &[i32], f: fn(i32, i32) -> i32| -> Vec<i32> {
        let mut out: Vec<i32> = Vec::with_capacity(xs.len());
        for &v in xs {
            out.push(out.last().map_or(v, |&acc| f(acc, v)));
        }
        out
    };
    let right = |xs: &[i32], f: fn(i32, i32) -> i32| -> Vec<i32> {
        let mut out = vec![0; xs.len()];
        let mut acc: Option<i32> = None;
        for k in (0..xs.len()).rev() {
            let v = acc.map_or(xs[k], |a| f(xs[k], a));
            out[k] = v;
            acc = Some(v);
        }
        out
    };
    let add: fn(i32, i32) -> i32 = i32::wrapping_add;
    for (b, spread_b) in e_spread.iter_mut().enumerate() {
        let first = b * window;
        let xs: Vec<i32> = (first..first + window)
            .map(|i| if i < n { x[i] } else { 0 })
            .collect();
        let prefix_sum = left(&xs, add);
        let suffix_max = right(&xs, |a, b| a.max(b));
        let prefix_max = left(&xs, |a, b| a.max(b));
        let suffix_min = right(&xs, |a, b| a.min(b));
        let suffix_of_prefix = right(&prefix_sum, add);
        *spread_b = (0..window).fold(0i32, |acc, k| {
            acc.wrapping_add(prefix_max[k].wrapping_sub(suffix_min[k]))
        });
        for k in 0..window {
            if first + k < n {
                e_both[first + k] = prefix_sum[k].wrapping_sub(suffix_max[k]);
                e_nested[first + k] = suffix_of_prefix[k];
            }
        }
    }
    launch(
        p,
        "mixedScans",
        blocks as u32,
        &mut [
            HostArg::I32(n as i32),
            array("x", &mut x),
            array("both", &mut both),
            array("spread", &mut spread),
            array("nested", &mut nested),
        ],
    )
    .map_err(|e| e.to_string())?;
    exact("both", &both, &e_both)?;
    exact("spread", &spread, &e_spread)?;
    exact("nested", &nested, &e_nested)?;
    let mut all = bytes(&both);
    all.extend(bytes(&spread));
    all.extend(bytes(&nested));
    Ok(all)
}
