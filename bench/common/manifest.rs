//! The benchmark kernels: each in LOOM (`bench/kernels/`) and as a CUDA C++ reference
//! (`bench/cuda/`), with the same entry name and parameters. Shared by `bench/static_compare.rs`
//! (scripts/bench-static) and the GPU harness (`bench/gpu/`, scripts/bench-gpu).

/// Threads per block of every benchmark: LOOM's `--block-size` and the references' `BLOCK`.
pub const BLOCK: u32 = 256;

pub struct Bench {
    /// The file stem under `bench/kernels/` (`.loom`) and `bench/cuda/` (`.cu`).
    pub file: &'static str,
    /// The kernel's entry name in both PTX files.
    pub kernel: &'static str,
    /// The seed's or the name for it.
    pub title: &'static str,
}

pub const BENCHES: &[Bench] = &[
    Bench {
        file: "vectoradd",
        kernel: "vectorAdd",
        title: "vectoradd",
    },
    Bench {
        file: "saxpy",
        kernel: "saxpy",
        title: "saxpy",
    },
    Bench {
        file: "scalar_prod",
        kernel: "scalarProd",
        title: "scalar-prod",
    },
    Bench {
        file: "mul_matr_vec",
        kernel: "mulMatrVec",
        title: "mul-matr-vec",
    },
    Bench {
        file: "newton_sqrt",
        kernel: "newtonSqrt",
        title: "newton-sqrt",
    },
    Bench {
        file: "sum_of_squares",
        kernel: "sumOfSquares",
        title: "sumOfSquares",
    },
    Bench {
        file: "prefix_sum",
        kernel: "prefixSum",
        title: "block prefix sum",
    },
    Bench {
        file: "suffix_sum",
        kernel: "suffixSum",
        title: "block suffix sum",
    },
    Bench {
        file: "row_max",
        kernel: "rowMax",
        title: "rowMax",
    },
];
