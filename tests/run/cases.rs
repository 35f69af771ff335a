//! One case per program: how to launch it on random inputs of a given size, and a reference
//! computed here, independently of loomc, in plain Rust. Each returns the bytes of its outputs so
//! that the harness can compare `-O0` with `-O3` bit for bit.

use super::atomic_cases;
use super::elementwise_cases;
use super::grid_cases;
use super::support::{array, bytes, exact, launch, Rng};
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
        name: "mul_matr_vec",
        file: "bench/kernels/mul_matr_vec.loom",
        block_size: None,
        sizes: ELEMENTS,
        run: mul_matr_vec,
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
    // The first maximum of each block (tests/run/elementwise_cases.rs).
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
