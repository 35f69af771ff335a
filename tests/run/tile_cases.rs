//! Tiles and two-dimensional grids: `examples/transpose.loom`, `examples/tiled_matmul.loom` and
//! a rectangular block (`tests/run/programs/tiles_8x32.loom`), on matrices whose sides are not
//! multiples of the tile, against references computed here in plain Rust.

use super::cases::Case;
use super::support::{array, bytes, close, exact, launch_grid, widen, Rng};
use loomc::target::host::{HostArg, HostProgram};

/// Matrix sides, from the problem size: a square-ish and a very flat one among them.
const SIDES: &[usize] = &[1, 15, 17, 40];

pub const CASES: &[Case] = &[
    Case {
        name: "transpose",
        file: "examples/transpose.loom",
        block_size: Some(256),
        sizes: SIDES,
        run: transpose,
    },
    Case {
        name: "tiled_matmul",
        file: "examples/tiled_matmul.loom",
        block_size: Some(256),
        sizes: SIDES,
        run: tiled_matmul,
    },
    Case {
        name: "programs/tiles_8x32",
        file: "tests/run/programs/tiles_8x32.loom",
        block_size: Some(256),
        sizes: SIDES,
        run: tiles_8x32,
    },
];

/// A grid of `rows x cols` blocks: (all of them, its columns).
fn grid(rows: usize, cols: usize) -> (u32, Option<u32>) {
    ((rows * cols) as u32, Some(cols as u32))
}

fn transpose(p: &HostProgram, _bs: u32, n: usize, rng: &mut Rng) -> Result<Vec<u8>, String> {
    let (rows, cols) = (n, 2 * n + 3);
    let mut a = rng.f32s(rows * cols, -8.0, 8.0);
    let mut out = vec![f32::NAN; rows * cols];
    let (blocks, grid_cols) = grid(rows.div_ceil(16), cols.div_ceil(16));
    launch_grid(
        p,
        "transposeMatrix",
        blocks,
        grid_cols,
        &mut [
            HostArg::I32(rows as i32),
            HostArg::I32(cols as i32),
            array("a", &mut a),
            array("out", &mut out),
        ],
    )
    .map_err(|e| e.to_string())?;
    let mut expected = vec![0.0f32; rows * cols];
    for i in 0..rows {
        for j in 0..cols {
            expected[j * rows + i] = a[i * cols + j];
        }
    }
    exact("out", &out, &expected)?;
    Ok(bytes(&out))
}

fn tiled_matmul(p: &HostProgram, _bs: u32, n: usize, rng: &mut Rng) -> Result<Vec<u8>, String> {
    let (rows, inner, cols) = (n, n + 5, 2 * n + 1);
    let mut a = rng.f32s(rows * inner, -1.0, 1.0);
    let mut b = rng.f32s(inner * cols, -1.0, 1.0);
    let mut c = vec![f32::NAN; rows * cols];
    let (blocks, grid_cols) = grid(rows.div_ceil(16), cols.div_ceil(16));
    launch_grid(
        p,
        "matmul",
        blocks,
        grid_cols,
        &mut [
            HostArg::I32(rows as i32),
            HostArg::I32(inner as i32),
            HostArg::I32(cols as i32),
            array("a", &mut a),
            array("b", &mut b),
            array("c", &mut c),
        ],
    )
    .map_err(|e| e.to_string())?;
    let mut expected = vec![0.0f64; rows * cols];
    for i in 0..rows {
        for j in 0..cols {
            expected[i * cols + j] = (0..inner)
                .map(|l| a[i * inner + l] as f64 * b[l * cols + j] as f64)
                .sum();
        }
    }
    close("c", &widen(&c), &expected, 1e-5, 1e-5)?;
    Ok(bytes(&c))
}

fn tiles_8x32(p: &HostProgram, _bs: u32, n: usize, rng: &mut Rng) -> Result<Vec<u8>, String> {
    let (rows, cols) = (2 * n + 1, n + 2);
    let mut a = rng.i32s(rows * cols, -1000, 1000);
    let mut out = vec![i32::MIN; rows * cols];
    let mut s = vec![i32::MIN; rows * cols];
    let (grid_rows, grid_cols) = (rows.div_ceil(8), cols.div_ceil(32));
    let (blocks, gc) = grid(grid_rows, grid_cols);
    launch_grid(
        p,
        "tiles8x32",
        blocks,
        gc,
        &mut [
            HostArg::I32(rows as i32),
            HostArg::I32(cols as i32),
            array("a", &mut a),
            array("out", &mut out),
            array("s", &mut s),
        ],
    )
    .map_err(|e| e.to_string())?;
    let mut expected_out = vec![0i32; rows * cols];
    let mut expected_s = vec![0i32; rows * cols];
    for i in 0..rows {
        for j in 0..cols {
            let v = a[i * cols + j];
            expected_out[j * rows + i] = v;
            let block = (i / 8) * grid_cols + j / 32;
            expected_s[i * cols + j] = v * 2
                + (i % 8) as i32 * 1000
                + (j % 32) as i32
                + block as i32 * 100_000
                + grid_rows as i32 * 10_000_000;
        }
    }
    exact("out", &out, &expected_out)?;
    exact("s", &s, &expected_s)?;
    let mut all = bytes(&out);
    all.extend(bytes(&s));
    Ok(all)
}
