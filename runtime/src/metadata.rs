//! Kernel metadata: what `loomc --emit=metadata` writes and every host reads to launch a kernel
//! correctly (docs/abi.md). Serialised as JSON with serde.

use serde::{Deserialize, Serialize};

/// The format version; a host refuses metadata of another version.
pub const FORMAT: u32 = 1;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModuleMetadata {
    pub format: u32,
    /// The `.loom` file it was compiled from.
    pub source: String,
    pub target: PtxTarget,
    pub kernels: Vec<KernelMetadata>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PtxTarget {
    /// `sm_80`, ...
    pub arch: String,
    /// The PTX ISA version of the module (`.version`), e.g. `7.8`.
    pub ptx_version: String,
}

/// A launch's grid: `rows` rows of `cols` blocks (`gridDim = (cols, rows, 1)`, so `BROW` is
/// `ctaid.y` and `BCOL` is `ctaid.x`); a one-dimensional grid of `n` blocks is one row of `n`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GridShape {
    pub rows: u32,
    pub cols: u32,
}

impl GridShape {
    /// `n` blocks in one row.
    pub fn blocks(n: u32) -> GridShape {
        GridShape { rows: 1, cols: n }
    }

    /// Every block of the grid (`BLOCKS`), if that fits 32 bits.
    pub fn total(self) -> Option<u32> {
        self.rows.checked_mul(self.cols)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KernelMetadata {
    /// The PTX entry's name.
    pub name: String,
    /// Threads per block, required exactly (`.reqntid`): all of them, `rows * cols` for a
    /// two-dimensional block.
    pub block_size: u32,
    /// A two-dimensional block's shape `[rows, cols]` (`.reqntid cols, rows, 1`: launch with
    /// `blockDim = (cols, rows, 1)`); absent for a one-dimensional block.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub block_shape: Option<[u32; 2]>,
    /// 2 for a kernel launched on a two-dimensional grid (`gridDim = (cols, rows, 1)`); absent
    /// (1) for a one-dimensional grid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grid_dims: Option<u32>,
    /// Bytes of static shared memory per block.
    pub static_shared_bytes: u64,
    /// In ABI order: one PTX parameter each.
    pub params: Vec<ParamMetadata>,
}

impl KernelMetadata {
    /// `blockDim`: `(cols, rows, 1)` for a two-dimensional block, `(block_size, 1, 1)`
    /// otherwise.
    /// An error for a kernel that needs a two-dimensional grid launched with a number of
    /// blocks (`gridDim = (blocks, 1, 1)`, which would give every block `BROW = 0`): such a
    /// kernel takes a [`GridShape`] (`Gpu::launch_grid`).
    pub fn require_one_dimensional_grid(&self) -> Result<(), String> {
        match self.grid_dims {
            Some(d) if d > 1 => Err(format!(
                "kernel `{}` runs on a two-dimensional grid: launch it with a grid of rows and columns (`Gpu::launch_grid`, `loomc run --blocks ROWSxCOLS`)",
                self.name
            )),
            _ => Ok(()),
        }
    }

    /// `gridDim` for `grid`: `(cols, rows, 1)`; an error for a grid of several rows given to a
    /// kernel on a one-dimensional grid (its blocks know only `B`, `ctaid.x`), or of no blocks.
    pub fn grid_dim(&self, grid: GridShape) -> Result<(u32, u32, u32), String> {
        if grid.rows == 0 || grid.cols == 0 {
            return Err(format!(
                "kernel `{}`: the grid needs at least 1 block",
                self.name
            ));
        }
        if grid.rows > 1 && self.grid_dims.unwrap_or(1) < 2 {
            return Err(format!(
                "kernel `{}` runs on a one-dimensional grid (it names none of `BROW`, `BCOL`, `GRIDROWS`, `GRIDCOLS`): launch it with a number of blocks",
                self.name
            ));
        }
        Ok((grid.cols, grid.rows, 1))
    }

    /// The number of blocks of `grid` (`BLOCKS`), which must fit in 32 bits.
    pub fn block_count(&self, grid: GridShape) -> Result<u32, String> {
        grid.total().ok_or_else(|| {
            format!(
                "kernel `{}`: a grid of {}x{} blocks has more than 2^32",
                self.name, grid.rows, grid.cols
            )
        })
    }

    pub fn block_dim(&self) -> (u32, u32, u32) {
        match self.block_shape {
            Some([rows, cols]) => (cols, rows, 1),
            None => (self.block_size, 1, 1),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ParamMetadata {
    pub name: String,
    #[serde(flatten)]
    pub kind: ParamKind,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum ParamKind {
    /// Passed by value.
    Scalar {
        #[serde(rename = "type")]
        ty: ScalarType,
    },
    /// Passed as a 64-bit pointer into `address_space` (1: global), elements contiguous and
    /// row-major; the dimensions are not passed.
    Array {
        element: ScalarType,
        address_space: u32,
        dims: Vec<Dim>,
    },
    /// A record (or a `Range`) passed by value, as CUDA passes a `struct`: `size` bytes at
    /// alignment `align` (`.param .align A .b8 k_param_i[S]`), each field at its offset in the
    /// C layout. A nested record's fields are listed as its leaves, named with dots
    /// (`inner.x`), at their offsets in the whole.
    Record {
        /// The record type's name (`Range`, or the alias the parameter is declared with);
        /// absent for a record type written out in the parameter.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        record: Option<String>,
        size: u64,
        align: u64,
        fields: Vec<FieldMetadata>,
    },
    /// A per-block scratch array that loomc added (after the kernel's own parameters) for the
    /// vector variable `variable`, which it can neither keep in registers nor recompute:
    /// `dims` are `[BLOCKS, length]`. Passed as an array is; the host allocates it for each
    /// launch (any contents) and the caller never passes it (docs/abi.md).
    Scratch {
        variable: String,
        element: ScalarType,
        address_space: u32,
        dims: Vec<Dim>,
    },
}

impl ParamMetadata {
    /// Whether the caller passes this parameter: every one but the scratch arrays the host
    /// allocates itself.
    pub fn is_passed(&self) -> bool {
        !matches!(self.kind, ParamKind::Scratch { .. })
    }
}

/// One field of a record parameter: its (dotted) name, type and byte offset.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FieldMetadata {
    pub name: String,
    #[serde(rename = "type")]
    pub ty: ScalarType,
    pub offset: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ScalarType {
    Int8,
    Int16,
    UInt8,
    UInt16,
    Int32,
    Int64,
    UInt32,
    UInt64,
    /// IEEE binary16.
    Float16,
    /// bfloat16: the upper half of a `Float32`.
    BFloat16,
    Float32,
    Float64,
    /// One byte, non-zero meaning true.
    Bool,
}

impl ScalarType {
    pub fn size(self) -> usize {
        match self {
            ScalarType::Bool | ScalarType::Int8 | ScalarType::UInt8 => 1,
            ScalarType::Int16 | ScalarType::UInt16 | ScalarType::Float16 | ScalarType::BFloat16 => {
                2
            }
            ScalarType::Int32 | ScalarType::UInt32 | ScalarType::Float32 => 4,
            ScalarType::Int64 | ScalarType::UInt64 | ScalarType::Float64 => 8,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            ScalarType::Int8 => "Int8",
            ScalarType::Int16 => "Int16",
            ScalarType::UInt8 => "UInt8",
            ScalarType::UInt16 => "UInt16",
            ScalarType::Int32 => "Int32",
            ScalarType::Int64 => "Int64",
            ScalarType::UInt32 => "UInt32",
            ScalarType::UInt64 => "UInt64",
            ScalarType::Float16 => "Float16",
            ScalarType::BFloat16 => "BFloat16",
            ScalarType::Float32 => "Float32",
            ScalarType::Float64 => "Float64",
            ScalarType::Bool => "Bool",
        }
    }

    pub fn is_integer(self) -> bool {
        matches!(
            self,
            ScalarType::Int8
                | ScalarType::Int16
                | ScalarType::UInt8
                | ScalarType::UInt16
                | ScalarType::Int32
                | ScalarType::Int64
                | ScalarType::UInt32
                | ScalarType::UInt64
        )
    }
}

/// One dimension: its source text and an expression a host can evaluate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Dim {
    pub text: String,
    pub expr: DimExpr,
}

/// A dimension expression over literals, the launch (`BLOCKS`, `BLOCKSIZE`, `THREADS`) and
/// earlier integer parameters. Integer arithmetic as in LOOM: `x / 0` is 0, `x % 0` is `x`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "lowercase")]
pub enum DimExpr {
    Const {
        value: i64,
    },
    Param {
        name: String,
    },
    Blocks,
    BlockSize,
    Threads,
    Neg {
        arg: Box<DimExpr>,
    },
    Binary {
        bin: BinOp,
        lhs: Box<DimExpr>,
        rhs: Box<DimExpr>,
    },
    /// A cast between integer types: the low bits, as the kernel computes it.
    Cast {
        to: ScalarType,
        arg: Box<DimExpr>,
    },
    /// A form loomc can compile but not describe (a `func` call): hosts cannot check it.
    Opaque,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    And,
    Or,
    Xor,
}

impl ModuleMetadata {
    pub fn from_json(text: &str) -> Result<ModuleMetadata, String> {
        let metadata: ModuleMetadata =
            serde_json::from_str(text).map_err(|e| format!("invalid kernel metadata: {e}"))?;
        if metadata.format != FORMAT {
            return Err(format!(
                "kernel metadata has format {}, this runtime reads format {FORMAT}",
                metadata.format
            ));
        }
        Ok(metadata)
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
    }

    pub fn kernel(&self, name: &str) -> Result<&KernelMetadata, String> {
        self.kernels.iter().find(|k| k.name == name).ok_or_else(|| {
            let known: Vec<&str> = self.kernels.iter().map(|k| k.name.as_str()).collect();
            format!("no kernel named `{name}` (kernels: {})", known.join(", "))
        })
    }
}
