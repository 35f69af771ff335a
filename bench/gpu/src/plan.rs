//! What each benchmark launches: its buffers (random inputs, outputs), its arguments in ABI
//! order, the bytes it must move, and how its outputs are compared. No GPU here, so all of it
//! is tested on any machine.

#[path = "../../common/manifest.rs"]
mod manifest;

pub use manifest::{Bench, BENCHES, BLOCK};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Elem {
    F32,
    F64,
    I32,
}

impl Elem {
    pub fn size(self) -> usize {
        match self {
            Elem::F32 | Elem::I32 => 4,
            Elem::F64 => 8,
        }
    }

    pub fn runtime(self) -> loom_runtime::ScalarType {
        match self {
            Elem::F32 => loom_runtime::ScalarType::Float32,
            Elem::F64 => loom_runtime::ScalarType::Float64,
            Elem::I32 => loom_runtime::ScalarType::Int32,
        }
    }
}

/// How an output of LOOM and one of CUDA may differ.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Tolerance {
    /// Bit for bit: the same IEEE operations in the same order, or integers.
    Exact,
    /// `|a - b| <= abs + rel * max(|a|, |b|)`: sums in another order.
    Close { abs: f64, rel: f64 },
}

#[derive(Debug, Clone, PartialEq)]
pub struct Buffer {
    pub elem: Elem,
    /// Dimensions, row-major (one for vectors).
    pub shape: Vec<usize>,
    /// Random inputs in `[lo, hi)`, rotated between launches; `None`: an output, zeroed.
    pub input: Option<(f64, f64)>,
    /// Compared between LOOM and CUDA after a launch on the same inputs.
    pub check: Option<Tolerance>,
}

impl Buffer {
    pub fn len(&self) -> usize {
        self.shape.iter().product()
    }

    pub fn bytes(&self) -> usize {
        self.len() * self.elem.size()
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Arg {
    I32(i32),
    F32(f32),
    /// A buffer, by index.
    Buffer(usize),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    pub blocks: u32,
    pub buffers: Vec<Buffer>,
    pub args: Vec<Arg>,
    /// Bytes the kernel must read and write at least once: the numerator of its GB/s.
    pub bytes: f64,
}

fn input(elem: Elem, len: usize, lo: f64, hi: f64) -> Buffer {
    Buffer {
        elem,
        shape: vec![len],
        input: Some((lo, hi)),
        check: None,
    }
}

fn output(elem: Elem, shape: Vec<usize>, check: Tolerance) -> Buffer {
    Buffer {
        elem,
        shape,
        input: None,
        check: Some(check),
    }
}

/// The launch of `bench` over `elements` elements (rounded to whole blocks; matrices square-ish
/// with `rows × cols = elements`).
pub fn plan(bench: &Bench, elements: usize) -> Result<Plan, String> {
    let block = BLOCK as usize;
    if elements < block || elements % block != 0 || i32::try_from(elements).is_err() {
        return Err(format!(
            "--elements must be a multiple of {block} below 2^31, not {elements}"
        ));
    }
    let n = elements;
    let ni = n as i32;
    let blocks = (n / block) as u32;
    // Rows of 2^k columns for the matrix kernels: as square as the power of two allows.
    let cols = 1usize << (n.trailing_zeros().div_ceil(2)).min(n.ilog2());
    let rows = n / cols;
    let f4 = 4.0;
    let reduce = Tolerance::Close {
        abs: 1e-3,
        rel: 1e-4,
    };
    // `(n, x[n], y[n])`: one array in, one of the same length and type out.
    let map = |elem: Elem, (lo, hi): (f64, f64), tolerance| Plan {
        blocks,
        buffers: vec![input(elem, n, lo, hi), output(elem, vec![n], tolerance)],
        args: vec![Arg::I32(ni), Arg::Buffer(0), Arg::Buffer(1)],
        bytes: (2 * elem.size() * n) as f64,
    };
    let plan = match bench.file {
        "vectoradd" => Plan {
            blocks,
            buffers: vec![
                input(Elem::F32, n, -1.0, 1.0),
                input(Elem::F32, n, -1.0, 1.0),
                output(Elem::F32, vec![n], Tolerance::Exact),
            ],
            args: vec![Arg::I32(ni), Arg::Buffer(0), Arg::Buffer(1), Arg::Buffer(2)],
            bytes: 3.0 * f4 * n as f64,
        },
        "saxpy" => {
            let mut y = input(Elem::F32, n, -1.0, 1.0);
            y.check = Some(Tolerance::Exact);
            Plan {
                blocks,
                buffers: vec![input(Elem::F32, n, -1.0, 1.0), y],
                args: vec![Arg::I32(ni), Arg::F32(2.5), Arg::Buffer(0), Arg::Buffer(1)],
                bytes: 3.0 * f4 * n as f64,
            }
        }
        "scalar_prod" => Plan {
            blocks,
            buffers: vec![
                input(Elem::F32, n, -1.0, 1.0),
                input(Elem::F32, n, -1.0, 1.0),
                output(Elem::F32, vec![blocks as usize], reduce),
            ],
            args: vec![Arg::I32(ni), Arg::Buffer(0), Arg::Buffer(1), Arg::Buffer(2)],
            bytes: f4 * (2.0 * n as f64 + f64::from(blocks)),
        },
        "mul_matr_vec" => Plan {
            blocks: rows as u32,
            buffers: vec![
                Buffer {
                    shape: vec![rows, cols],
                    ..input(Elem::F32, n, -1.0, 1.0)
                },
                input(Elem::F32, cols, -1.0, 1.0),
                output(
                    Elem::F32,
                    vec![rows],
                    Tolerance::Close {
                        abs: 1e-2,
                        rel: 1e-4,
                    },
                ),
            ],
            args: vec![
                Arg::I32(rows as i32),
                Arg::I32(cols as i32),
                Arg::Buffer(0),
                Arg::Buffer(1),
                Arg::Buffer(2),
            ],
            bytes: f4 * (n + cols + rows) as f64,
        },
        "newton_sqrt" => map(Elem::F32, (0.01, 100.0), Tolerance::Exact),
        "sum_of_squares" => Plan {
            blocks,
            buffers: vec![
                input(Elem::F32, n, -1.0, 1.0),
                output(Elem::F32, vec![blocks as usize], reduce),
            ],
            args: vec![Arg::Buffer(0), Arg::Buffer(1)],
            bytes: f4 * (n as f64 + f64::from(blocks)),
        },
        "prefix_sum" => map(Elem::I32, (-1000.0, 1000.0), Tolerance::Exact),
        "suffix_sum" => map(
            Elem::F64,
            (-1.0, 1.0),
            Tolerance::Close {
                abs: 1e-10,
                rel: 1e-12,
            },
        ),
        "row_max" => Plan {
            blocks: rows as u32,
            buffers: vec![
                Buffer {
                    shape: vec![rows, cols],
                    ..input(Elem::F32, n, -1.0, 1.0)
                },
                output(Elem::F32, vec![rows], Tolerance::Exact),
            ],
            args: vec![
                Arg::I32(rows as i32),
                Arg::I32(cols as i32),
                Arg::Buffer(0),
                Arg::Buffer(1),
            ],
            bytes: f4 * (n + rows) as f64,
        },
        other => return Err(format!("no launch plan for benchmark `{other}`")),
    };
    Ok(plan)
}

/// The argument shapes loom-runtime checks against LOOM's metadata.
pub fn shapes(plan: &Plan) -> Vec<loom_runtime::ArgShape> {
    plan.args
        .iter()
        .map(|arg| match arg {
            Arg::I32(v) => loom_runtime::ArgShape::Scalar(loom_runtime::Scalar::Int32(*v)),
            Arg::F32(v) => loom_runtime::ArgShape::Scalar(loom_runtime::Scalar::Float32(*v)),
            Arg::Buffer(i) => {
                let b = &plan.buffers[*i];
                loom_runtime::ArgShape::Array {
                    element: b.elem.runtime(),
                    shape: b.shape.clone(),
                }
            }
        })
        .collect()
}

/// Random bytes for `buffer`: SplitMix64 seeded per buffer and set, so every run of the harness
/// (and LOOM and CUDA within it) sees the same inputs.
pub fn random_bytes(buffer: &Buffer, seed: u64) -> Vec<u8> {
    let (lo, hi) = buffer.input.unwrap_or((0.0, 0.0));
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xD1B5_4A32_D192_ED03;
    let mut next = move || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        let unit = (z ^ (z >> 31)) as f64 / u64::MAX as f64;
        lo + (hi - lo) * unit
    };
    let mut bytes = Vec::with_capacity(buffer.bytes());
    for _ in 0..buffer.len() {
        match buffer.elem {
            Elem::F32 => bytes.extend_from_slice(&(next() as f32).to_le_bytes()),
            Elem::F64 => bytes.extend_from_slice(&next().to_le_bytes()),
            Elem::I32 => bytes.extend_from_slice(&(next().floor() as i32).to_le_bytes()),
        }
    }
    bytes
}

/// The first element where LOOM's output (`loom`) and CUDA's (`cuda`) differ beyond `tolerance`:
/// its index and both values.
pub fn first_difference(
    elem: Elem,
    loom: &[u8],
    cuda: &[u8],
    tolerance: Tolerance,
) -> Option<(usize, f64, f64)> {
    if loom.len() != cuda.len() {
        return Some((0, loom.len() as f64, cuda.len() as f64));
    }
    let size = elem.size();
    let value = |b: &[u8]| -> f64 {
        match elem {
            Elem::F32 => f64::from(f32::from_le_bytes([b[0], b[1], b[2], b[3]])),
            Elem::I32 => f64::from(i32::from_le_bytes([b[0], b[1], b[2], b[3]])),
            Elem::F64 => f64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]),
        }
    };
    loom.chunks_exact(size)
        .zip(cuda.chunks_exact(size))
        .enumerate()
        .find_map(|(i, (l, c))| {
            let (a, b) = (value(l), value(c));
            let same = match tolerance {
                Tolerance::Exact => l == c,
                Tolerance::Close { abs, rel } => (a - b).abs() <= abs + rel * a.abs().max(b.abs()),
            };
            (!same).then_some((i, a, b))
        })
}

/// The median of `times` (milliseconds); `NaN` for none.
pub fn median(times: &mut [f32]) -> f64 {
    if times.is_empty() {
        return f64::NAN;
    }
    times.sort_by(f32::total_cmp);
    f64::from(times[times.len() / 2])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bench_has_a_plan_whose_buffers_the_args_name() {
        for bench in BENCHES {
            let plan = plan(bench, 1 << 26).unwrap();
            assert!(plan.bytes >= 4.0 * (1u64 << 26) as f64, "{}", bench.file);
            assert!(plan.buffers.iter().any(|b| b.check.is_some()));
            for arg in &plan.args {
                if let Arg::Buffer(i) = arg {
                    assert!(*i < plan.buffers.len());
                }
            }
            let largest = plan.buffers.iter().map(Buffer::len).max().unwrap();
            assert_eq!(largest, 1 << 26, "{}: at least 2^26 elements", bench.file);
        }
        let matvec = plan(&BENCHES[3], 1 << 26).unwrap();
        assert_eq!(matvec.buffers[0].shape, vec![8192, 8192]);
        assert_eq!(matvec.blocks, 8192);
        assert!(plan(&BENCHES[0], 1000).is_err());
    }

    #[test]
    fn shapes_follow_the_abi_order() {
        let saxpy = plan(&BENCHES[1], 1024).unwrap();
        let shapes = shapes(&saxpy);
        assert_eq!(shapes.len(), 4);
        assert!(matches!(
            shapes[1],
            loom_runtime::ArgShape::Scalar(loom_runtime::Scalar::Float32(_))
        ));
    }

    #[test]
    fn inputs_are_reproducible_and_in_range() {
        let buffer = input(Elem::F32, 1000, 0.01, 100.0);
        let a = random_bytes(&buffer, 7);
        assert_eq!(a, random_bytes(&buffer, 7));
        assert_ne!(a, random_bytes(&buffer, 8));
        assert!(a
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .all(|v| (0.01..=100.0).contains(&v)));
        let ints = random_bytes(&input(Elem::I32, 100, -1000.0, 1000.0), 1);
        assert!(ints.chunks_exact(4).any(|b| b != [0, 0, 0, 0]));
    }

    #[test]
    fn differences_respect_the_tolerance() {
        let f = |v: &[f32]| -> Vec<u8> { v.iter().flat_map(|x| x.to_le_bytes()).collect() };
        let close = Tolerance::Close {
            abs: 1e-3,
            rel: 1e-4,
        };
        assert_eq!(
            first_difference(
                Elem::F32,
                &f(&[1.0, 2.0]),
                &f(&[1.0, 2.0]),
                Tolerance::Exact
            ),
            None
        );
        assert_eq!(
            first_difference(Elem::F32, &f(&[1.0, 2.0]), &f(&[1.0, 2.0005]), close),
            None
        );
        assert_eq!(
            first_difference(Elem::F32, &f(&[1.0, 2.0]), &f(&[1.0, 2.1]), close).map(|d| d.0),
            Some(1)
        );
        assert!(first_difference(Elem::F32, &f(&[0.0]), &f(&[-0.0]), Tolerance::Exact).is_some());
        assert!(first_difference(Elem::F32, &f(&[0.0]), &f(&[0.0, 1.0]), close).is_some());
    }

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 3.0, 2.0]), 3.0);
        assert!(median(&mut []).is_nan());
    }
}
