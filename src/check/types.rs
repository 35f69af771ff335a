//! LOOM's semantic types, as the checker assigns them and code generation reads them.

use serde::Serialize;
use std::fmt;

/// The scalar types, one per PTX register type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Scalar {
    Int8,
    Int16,
    Int32,
    Int64,
    UInt8,
    UInt16,
    UInt32,
    UInt64,
    Float16,
    BFloat16,
    Float32,
    Float64,
    Bool,
}

impl Scalar {
    pub const ALL: [Scalar; 13] = [
        Scalar::Int8,
        Scalar::Int16,
        Scalar::Int32,
        Scalar::Int64,
        Scalar::UInt8,
        Scalar::UInt16,
        Scalar::UInt32,
        Scalar::UInt64,
        Scalar::Float16,
        Scalar::BFloat16,
        Scalar::Float32,
        Scalar::Float64,
        Scalar::Bool,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Scalar::Int8 => "Int8",
            Scalar::Int16 => "Int16",
            Scalar::UInt8 => "UInt8",
            Scalar::UInt16 => "UInt16",
            Scalar::Int32 => "Int32",
            Scalar::Int64 => "Int64",
            Scalar::UInt32 => "UInt32",
            Scalar::UInt64 => "UInt64",
            Scalar::Float16 => "Float16",
            Scalar::BFloat16 => "BFloat16",
            Scalar::Float32 => "Float32",
            Scalar::Float64 => "Float64",
            Scalar::Bool => "Bool",
        }
    }

    pub fn from_name(name: &str) -> Option<Scalar> {
        Scalar::ALL.into_iter().find(|s| s.name() == name)
    }

    pub fn is_integer(self) -> bool {
        matches!(
            self,
            Scalar::Int8
                | Scalar::Int16
                | Scalar::Int32
                | Scalar::Int64
                | Scalar::UInt8
                | Scalar::UInt16
                | Scalar::UInt32
                | Scalar::UInt64
        )
    }

    pub fn is_signed(self) -> bool {
        matches!(
            self,
            Scalar::Int8 | Scalar::Int16 | Scalar::Int32 | Scalar::Int64
        )
    }

    pub fn is_float(self) -> bool {
        matches!(
            self,
            Scalar::Float16 | Scalar::BFloat16 | Scalar::Float32 | Scalar::Float64
        )
    }

    pub fn is_numeric(self) -> bool {
        self.is_integer() || self.is_float()
    }

    /// The smallest and largest value of an integer type; `None` for the others.
    pub fn int_range(self) -> Option<(i128, i128)> {
        if !self.is_integer() {
            return None;
        }
        let bits = self.bits();
        Some(if self.is_signed() {
            (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
        } else {
            (0, (1i128 << bits) - 1)
        })
    }

    pub fn bits(self) -> u32 {
        match self {
            Scalar::Bool => 1,
            Scalar::Int8 | Scalar::UInt8 => 8,
            Scalar::Int16 | Scalar::UInt16 | Scalar::Float16 | Scalar::BFloat16 => 16,
            Scalar::Int32 | Scalar::UInt32 | Scalar::Float32 => 32,
            Scalar::Int64 | Scalar::UInt64 | Scalar::Float64 => 64,
        }
    }
}

/// Casts convert between numeric types, and between `Bool` and integers (`x != 0`, 0 or 1).
pub(super) fn cast_allowed(from: Scalar, to: Scalar) -> bool {
    from == to
        || (from.is_numeric() && to.is_numeric())
        || (from == Scalar::Bool && to.is_integer())
        || (from.is_integer() && to == Scalar::Bool)
}

/// Index of a record type in [`RecordTable`]. Records are structural: two record types with the
/// same fields in the same order are the same type and get the same id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct RecordId(pub u32);

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RecordField {
    pub name: String,
    pub ty: Ty,
}

#[derive(Debug, Default, Clone, Serialize)]
pub struct RecordTable {
    records: Vec<Vec<RecordField>>,
}

impl RecordTable {
    /// The id of the record with exactly these fields, creating it if it is new.
    pub fn intern(&mut self, fields: Vec<RecordField>) -> RecordId {
        if let Some(i) = self.records.iter().position(|r| *r == fields) {
            return RecordId(i as u32);
        }
        self.records.push(fields);
        RecordId(self.records.len() as u32 - 1)
    }

    pub fn fields(&self, id: RecordId) -> &[RecordField] {
        &self.records[id.0 as usize]
    }

    pub fn field(&self, id: RecordId, name: &str) -> Option<(usize, &RecordField)> {
        self.fields(id)
            .iter()
            .enumerate()
            .find(|(_, f)| f.name == name)
    }
}

/// A value's C layout, as a CUDA kernel takes a `struct` argument by value (docs/abi.md): fields
/// in declaration order, each at its natural alignment (a scalar's size; `Bool` one byte), the
/// size rounded up to the largest alignment. A nested record's fields are its leaves, named
/// with dots (`inner.x`), at their offsets in the whole.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CLayout {
    pub size: u64,
    pub align: u64,
    pub fields: Vec<(String, Scalar, u64)>,
}

/// The C layout of a kernel parameter of type `ty`: `Range` is `{ Int32 start; Int32 end }`,
/// a record its fields'. `None` for anything that has no C layout (arrays, vectors): no
/// record field has one of those types today.
pub fn c_layout(ty: &Ty, records: &RecordTable) -> Option<CLayout> {
    fn place(
        ty: &Ty,
        prefix: &str,
        records: &RecordTable,
        fields: &mut Vec<(String, Scalar, u64)>,
        base: u64,
    ) -> Option<(u64, u64)> {
        let members: Vec<(String, Ty)> = match ty {
            Ty::Scalar(s) => {
                let size = u64::from(s.bits().div_ceil(8));
                fields.push((prefix.to_string(), *s, base));
                return Some((size, size));
            }
            Ty::Range => vec![
                ("start".to_string(), Ty::INT32),
                ("end".to_string(), Ty::INT32),
            ],
            Ty::Record(id) => records
                .fields(*id)
                .iter()
                .map(|f| (f.name.clone(), f.ty.clone()))
                .collect(),
            _ => return None,
        };
        let (mut at, mut align) = (0u64, 1u64);
        for (name, member) in members {
            let name = if prefix.is_empty() {
                name
            } else {
                format!("{prefix}.{name}")
            };
            // The member's alignment first (a trial placement), then its place.
            let (_, member_align) = place(&member, &name, records, &mut Vec::new(), 0)?;
            at = at.next_multiple_of(member_align);
            let (size, _) = place(&member, &name, records, fields, base + at)?;
            at += size;
            align = align.max(member_align);
        }
        Some((at.next_multiple_of(align), align))
    }
    let mut fields = Vec::new();
    let (size, align) = place(ty, "", records, &mut fields, 0)?;
    Some(CLayout {
        size,
        align,
        fields,
    })
}

/// Where an array lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Space {
    /// A kernel's array parameter: `addrspace(1)`.
    Global,
    /// A `shared` declaration: `addrspace(3)`, one copy per block.
    Shared,
    /// A register vector of compile-time length, private to the block's threads.
    Local,
}

/// A length or array dimension as far as the checker knows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Len {
    /// Known at compile time (`BLOCKSIZE` is: it is folded to its value).
    Static(u64),
    /// Known only at run time (a dimension over `BLOCKS` or a scalar parameter, `range(a, b)`).
    Dynamic,
}

impl fmt::Display for Len {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Len::Static(n) => write!(f, "{n}"),
            Len::Dynamic => write!(f, "?"),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum Ty {
    Scalar(Scalar),
    /// `{Int32, Int32}`, half-open.
    Range,
    Record(RecordId),
    /// An array in memory: indexable, assignable element by element. One or two dimensions.
    Array {
        elem: Box<Ty>,
        dims: Vec<Len>,
        space: Space,
    },
    /// A block vector value: element `k` belongs to thread `k mod BLOCKSIZE`.
    Vector {
        elem: Box<Ty>,
        len: Len,
        /// A two-dimensional block vector (a *tile*) of `len / cols` rows of `cols` elements,
        /// row-major: element `(i, j)` is element `k = i * cols + j` (so, in a block of the
        /// tile's shape, it belongs to thread `(i, j)`). `None` for a one-dimensional vector.
        /// A tile's length is always known at compile time.
        cols: Option<u64>,
    },
    /// What a `func` without a result type returns, and what statements have.
    Unit,
    /// The type of an expression that already has an error: suppresses follow-on errors.
    Error,
}

impl Ty {
    pub const INT32: Ty = Ty::Scalar(Scalar::Int32);
    pub const BOOL: Ty = Ty::Scalar(Scalar::Bool);

    pub fn scalar(&self) -> Option<Scalar> {
        match self {
            Ty::Scalar(s) => Some(*s),
            _ => None,
        }
    }

    /// True for values that are one value for the whole block (everything but block vectors and
    /// memory arrays, which are spread over the threads).
    pub fn is_uniform(&self) -> bool {
        !matches!(self, Ty::Vector { .. } | Ty::Array { .. })
    }

    pub fn is_error(&self) -> bool {
        matches!(self, Ty::Error)
    }

    /// The element type of a vector or array, `self` for anything else.
    pub fn element(&self) -> &Ty {
        match self {
            Ty::Array { elem, .. } | Ty::Vector { elem, .. } => elem,
            other => other,
        }
    }

    /// Renders the type as the user writes it, for messages.
    pub fn display<'a>(&'a self, records: &'a RecordTable) -> TyDisplay<'a> {
        TyDisplay { ty: self, records }
    }
}

pub struct TyDisplay<'a> {
    ty: &'a Ty,
    records: &'a RecordTable,
}

impl fmt::Display for TyDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.ty {
            Ty::Scalar(s) => f.write_str(s.name()),
            Ty::Range => f.write_str("Range"),
            Ty::Record(id) => {
                f.write_str("{")?;
                for (i, field) in self.records.fields(*id).iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{}: {}", field.name, field.ty.display(self.records))?;
                }
                f.write_str("}")
            }
            Ty::Array { elem, dims, space } => {
                if *space == Space::Shared {
                    f.write_str("shared ")?;
                }
                write!(f, "{}[", elem.display(self.records))?;
                for (i, d) in dims.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{d}")?;
                }
                f.write_str("]")
            }
            Ty::Vector {
                elem,
                len: Len::Static(n),
                cols: Some(c),
            } if *c > 0 => {
                write!(f, "tile {}[{}, {c}]", elem.display(self.records), n / c)
            }
            Ty::Vector { elem, len, .. } => {
                write!(f, "block vector {}[{len}]", elem.display(self.records))
            }
            Ty::Unit => f.write_str("()"),
            Ty::Error => f.write_str("{error}"),
        }
    }
}

impl Len {
    /// The length of two vectors combined elementwise: `None` if both are known and differ.
    /// A length known only at run time is assumed to equal the other (it cannot be checked here).
    pub fn unify(self, other: Len) -> Option<Len> {
        match (self, other) {
            (Len::Static(a), Len::Static(b)) if a != b => None,
            (Len::Static(a), _) | (_, Len::Static(a)) => Some(Len::Static(a)),
            (Len::Dynamic, Len::Dynamic) => Some(Len::Dynamic),
        }
    }
}

impl Ty {
    pub const UNIT: Ty = Ty::Unit;

    /// The elements and length of a value that can stand where a block vector is expected: a block
    /// vector itself, or a one-dimensional array (every element of it). Ranges are handled by the
    /// checker, which knows their lengths.
    pub fn vector_view(&self) -> Option<(&Ty, Len)> {
        match self {
            Ty::Vector { elem, len, .. } => Some((elem, *len)),
            Ty::Array { elem, dims, .. } if dims.len() == 1 => Some((elem, dims[0])),
            // A two-dimensional array of compile-time shape is a tile: its elements row-major.
            Ty::Array { elem, dims, .. } => match dims.as_slice() {
                [Len::Static(r), Len::Static(c)] => Some((elem, Len::Static(r * c))),
                _ => None,
            },
            _ => None,
        }
    }

    /// The shape `(rows, cols)` of a tile: a two-dimensional block vector, or a two-dimensional
    /// array of compile-time shape used whole. `None` for everything else.
    pub fn tile_shape(&self) -> Option<(u64, u64)> {
        match self {
            Ty::Vector {
                len: Len::Static(n),
                cols: Some(c),
                ..
            } if *c > 0 => Some((n / c, *c)),
            Ty::Array { dims, .. } => match dims.as_slice() {
                [Len::Static(r), Len::Static(c)] => Some((*r, *c)),
                _ => None,
            },
            _ => None,
        }
    }

    pub fn vector(elem: Ty, len: Len) -> Ty {
        Ty::Vector {
            elem: Box::new(elem),
            len,
            cols: None,
        }
    }

    /// A tile of `rows` x `cols` elements.
    pub fn tile(elem: Ty, rows: u64, cols: u64) -> Ty {
        Ty::Vector {
            elem: Box::new(elem),
            len: Len::Static(rows.saturating_mul(cols)),
            cols: Some(cols),
        }
    }

    /// `self` (a block vector) with the shape of `shape` when that is a tile and the lengths
    /// agree: a one-dimensional vector combined elementwise with a tile takes its shape.
    pub fn with_shape_of(self, shape: Option<(u64, u64)>) -> Ty {
        match (self, shape) {
            (
                Ty::Vector {
                    elem,
                    len,
                    cols: None,
                },
                Some((r, c)),
            ) if len == Len::Static(r.saturating_mul(c)) => Ty::Vector {
                elem,
                len,
                cols: Some(c),
            },
            (ty, _) => ty,
        }
    }

    pub fn is_numeric(&self) -> bool {
        self.scalar().is_some_and(Scalar::is_numeric)
    }

    pub fn is_integer(&self) -> bool {
        self.scalar().is_some_and(Scalar::is_integer)
    }
}
