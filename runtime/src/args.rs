//! Arguments checked against a kernel's metadata before any launch: count, scalar types,
//! array element types and shapes, with errors that name the parameter.

use crate::metadata::{
    BinOp, DimExpr, FieldMetadata, KernelMetadata, ParamKind, ParamMetadata, ScalarType,
};
use std::collections::HashMap;

/// A scalar argument's value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Scalar {
    Int8(i8),
    Int16(i16),
    UInt8(u8),
    UInt16(u16),
    Int32(i32),
    Int64(i64),
    UInt32(u32),
    UInt64(u64),
    /// The encoding (binary16): Rust has no stable 16-bit float.
    Float16(u16),
    /// The encoding (the upper half of an `f32`).
    BFloat16(u16),
    Float32(f32),
    Float64(f64),
    Bool(bool),
}

impl Scalar {
    pub fn ty(self) -> ScalarType {
        match self {
            Scalar::Int8(_) => ScalarType::Int8,
            Scalar::Int16(_) => ScalarType::Int16,
            Scalar::UInt8(_) => ScalarType::UInt8,
            Scalar::UInt16(_) => ScalarType::UInt16,
            Scalar::Int32(_) => ScalarType::Int32,
            Scalar::Int64(_) => ScalarType::Int64,
            Scalar::UInt32(_) => ScalarType::UInt32,
            Scalar::UInt64(_) => ScalarType::UInt64,
            Scalar::Float16(_) => ScalarType::Float16,
            Scalar::BFloat16(_) => ScalarType::BFloat16,
            Scalar::Float32(_) => ScalarType::Float32,
            Scalar::Float64(_) => ScalarType::Float64,
            Scalar::Bool(_) => ScalarType::Bool,
        }
    }

    fn as_i64(self) -> Option<i64> {
        match self {
            Scalar::Int8(v) => Some(v as i64),
            Scalar::Int16(v) => Some(v as i64),
            Scalar::UInt8(v) => Some(v as i64),
            Scalar::UInt16(v) => Some(v as i64),
            Scalar::Int32(v) => Some(v as i64),
            Scalar::Int64(v) => Some(v),
            Scalar::UInt32(v) => Some(v as i64),
            Scalar::UInt64(v) => i64::try_from(v).ok(),
            _ => None,
        }
    }

    /// Parses `text` as a value of `ty` (for command lines).
    pub fn parse(ty: ScalarType, text: &str) -> Result<Scalar, String> {
        // "an Int32", "a UInt32": the article follows the sound.
        let article = if ty.name().starts_with("Int") {
            "an"
        } else {
            "a"
        };
        let bad = |_| format!("`{text}` is not {article} {}", ty.name());
        Ok(match ty {
            ScalarType::Int8 => Scalar::Int8(
                text.parse()
                    .map_err(|e: std::num::ParseIntError| bad(e.to_string()))?,
            ),
            ScalarType::Int16 => Scalar::Int16(
                text.parse()
                    .map_err(|e: std::num::ParseIntError| bad(e.to_string()))?,
            ),
            ScalarType::UInt8 => Scalar::UInt8(
                text.parse()
                    .map_err(|e: std::num::ParseIntError| bad(e.to_string()))?,
            ),
            ScalarType::UInt16 => Scalar::UInt16(
                text.parse()
                    .map_err(|e: std::num::ParseIntError| bad(e.to_string()))?,
            ),
            ScalarType::Int32 => Scalar::Int32(
                text.parse()
                    .map_err(|e: std::num::ParseIntError| bad(e.to_string()))?,
            ),
            ScalarType::Int64 => Scalar::Int64(
                text.parse()
                    .map_err(|e: std::num::ParseIntError| bad(e.to_string()))?,
            ),
            ScalarType::UInt32 => Scalar::UInt32(
                text.parse()
                    .map_err(|e: std::num::ParseIntError| bad(e.to_string()))?,
            ),
            ScalarType::UInt64 => Scalar::UInt64(
                text.parse()
                    .map_err(|e: std::num::ParseIntError| bad(e.to_string()))?,
            ),
            ScalarType::Float16 => Scalar::Float16(
                parse_half(crate::half::F16, text).ok_or_else(|| bad(String::new()))?,
            ),
            ScalarType::BFloat16 => Scalar::BFloat16(
                parse_half(crate::half::BF16, text).ok_or_else(|| bad(String::new()))?,
            ),
            ScalarType::Float32 => Scalar::Float32(
                text.parse()
                    .map_err(|e: std::num::ParseFloatError| bad(e.to_string()))?,
            ),
            ScalarType::Float64 => Scalar::Float64(
                text.parse()
                    .map_err(|e: std::num::ParseFloatError| bad(e.to_string()))?,
            ),
            ScalarType::Bool => match text {
                "true" | "1" => Scalar::Bool(true),
                "false" | "0" => Scalar::Bool(false),
                _ => return Err(format!("`{text}` is not a Bool (true or false)")),
            },
        })
    }
}

/// A 16-bit float from a command line: a decimal rounded once (as a LOOM literal is), or what
/// Rust's `f64` parser accepts besides (`inf`, `NaN`) converted.
fn parse_half(format: crate::half::Format, text: &str) -> Option<u16> {
    let (sign, magnitude) = match text.strip_prefix('-') {
        Some(rest) => (0x8000, rest),
        None => (0, text.strip_prefix('+').unwrap_or(text)),
    };
    match format.from_decimal(magnitude) {
        Some(bits) => Some(sign | bits),
        None => text.parse::<f64>().ok().map(|v| format.from_f64(v)),
    }
}

impl Scalar {
    /// The value's bytes as the kernel reads them: little-endian, at its width (`Bool` one byte,
    /// 1 for true; a 16-bit float its encoding).
    pub fn to_le_bytes(self) -> Vec<u8> {
        match self {
            Scalar::Int8(v) => v.to_le_bytes().to_vec(),
            Scalar::Int16(v) => v.to_le_bytes().to_vec(),
            Scalar::UInt8(v) => v.to_le_bytes().to_vec(),
            Scalar::UInt16(v) => v.to_le_bytes().to_vec(),
            Scalar::Int32(v) => v.to_le_bytes().to_vec(),
            Scalar::Int64(v) => v.to_le_bytes().to_vec(),
            Scalar::UInt32(v) => v.to_le_bytes().to_vec(),
            Scalar::UInt64(v) => v.to_le_bytes().to_vec(),
            Scalar::Float16(v) | Scalar::BFloat16(v) => v.to_le_bytes().to_vec(),
            Scalar::Float32(v) => v.to_le_bytes().to_vec(),
            Scalar::Float64(v) => v.to_le_bytes().to_vec(),
            Scalar::Bool(v) => vec![u8::from(v)],
        }
    }
}

/// A record (or `Range`) argument: its fields by name, packed into the parameter's C layout
/// when it is checked against the metadata ([`RecordArg::pack`]). Every field of the record
/// must be given, once, with its type.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RecordArg {
    fields: Vec<(String, Scalar)>,
}

impl RecordArg {
    pub fn new() -> RecordArg {
        RecordArg::default()
    }

    /// Adds field `name` (a nested record's field is `inner.x`, as the metadata names it).
    pub fn field(mut self, name: impl Into<String>, value: Scalar) -> RecordArg {
        self.fields.push((name.into(), value));
        self
    }

    pub fn fields(&self) -> &[(String, Scalar)] {
        &self.fields
    }

    /// The argument's bytes in the layout of record parameter `param` (`kind` must be a
    /// [`ParamKind::Record`]): each field at its offset, padding zero. An error names the
    /// missing, unknown, repeated or ill-typed field and lists the record's fields.
    pub fn pack(&self, param: &str, kind: &ParamKind) -> Result<PackedRecord, String> {
        let ParamKind::Record {
            size,
            align,
            fields,
            ..
        } = kind
        else {
            return Err(format!("parameter `{param}` is not a record"));
        };
        let listed = || describe_fields(fields);
        for (i, (name, _)) in self.fields.iter().enumerate() {
            if !fields.iter().any(|f| f.name == *name) {
                return Err(format!(
                    "record parameter `{param}` has no field `{name}` (its fields: {})",
                    listed()
                ));
            }
            if self.fields[..i].iter().any(|(n, _)| n == name) {
                return Err(format!(
                    "record parameter `{param}`: field `{name}` is given twice (its fields: {})",
                    listed()
                ));
            }
        }
        let size = usize::try_from(*size).map_err(|_| format!("parameter `{param}` is too big"))?;
        if *align > 8 || !align.is_power_of_two() {
            return Err(format!(
                "record parameter `{param}` has alignment {align}; this runtime packs up to 8"
            ));
        }
        let mut words = vec![0u64; size.div_ceil(8)];
        // SAFETY: `words` holds at least `size` bytes; u8 has no alignment or validity needs.
        let bytes = unsafe { std::slice::from_raw_parts_mut(words.as_mut_ptr() as *mut u8, size) };
        for field in fields {
            let value = self
                .fields
                .iter()
                .find(|(n, _)| *n == field.name)
                .map(|(_, v)| *v)
                .ok_or_else(|| {
                    format!(
                        "record parameter `{param}` needs field `{}` (its fields: {})",
                        field.name,
                        listed()
                    )
                })?;
            if value.ty() != field.ty {
                return Err(format!(
                    "record parameter `{param}`: field `{}` is {}, not {} (its fields: {})",
                    field.name,
                    field.ty.name(),
                    value.ty().name(),
                    listed()
                ));
            }
            let at = usize::try_from(field.offset).unwrap_or(usize::MAX);
            let encoded = value.to_le_bytes();
            let end = at
                .checked_add(encoded.len())
                .filter(|end| *end <= size)
                .ok_or_else(|| {
                    format!(
                        "record parameter `{param}`: field `{}` lies outside its {size} bytes",
                        field.name
                    )
                })?;
            bytes[at..end].copy_from_slice(&encoded);
        }
        Ok(PackedRecord { words, size })
    }
}

/// `x: Float32, y: Float32`: a record's fields for error messages.
pub fn describe_fields(fields: &[FieldMetadata]) -> String {
    fields
        .iter()
        .map(|f| format!("{}: {}", f.name, f.ty.name()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A record argument in its C layout, in a buffer aligned to 8 bytes (every field's alignment
/// divides 8): what a launch passes the address of.
#[derive(Debug, Clone, PartialEq)]
pub struct PackedRecord {
    words: Vec<u64>,
    size: usize,
}

impl PackedRecord {
    pub fn bytes(&self) -> &[u8] {
        // SAFETY: `words` holds at least `size` initialised bytes.
        unsafe { std::slice::from_raw_parts(self.words.as_ptr() as *const u8, self.size) }
    }

    /// The first word, whose address is the record's (for a launch's parameter array).
    pub fn first_word(&self) -> &u64 {
        static EMPTY: u64 = 0;
        self.words.first().unwrap_or(&EMPTY)
    }
}

/// A LOOM `Range` (`{ Int32 start; Int32 end }`, half-open) as a kernel argument: what the
/// generated bindings take for a `Range` parameter.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Range {
    pub start: i32,
    pub end: i32,
}

impl From<Range> for RecordArg {
    fn from(r: Range) -> RecordArg {
        RecordArg::new()
            .field("start", Scalar::Int32(r.start))
            .field("end", Scalar::Int32(r.end))
    }
}

/// An argument as the checker sees it: a scalar's value, an array's element type and shape,
/// or a record's fields.
#[derive(Debug, Clone, PartialEq)]
pub enum ArgShape {
    Scalar(Scalar),
    Array {
        element: ScalarType,
        shape: Vec<usize>,
    },
    Record(RecordArg),
}

/// The dimensions of every array parameter for a launch of `blocks` blocks with these scalar
/// arguments (by parameter name); `None` for scalars.
pub fn array_dims(
    kernel: &KernelMetadata,
    blocks: u32,
    scalars: &HashMap<String, Scalar>,
) -> Result<Vec<Option<Vec<usize>>>, String> {
    let mut out = Vec::new();
    for param in &kernel.params {
        match &param.kind {
            ParamKind::Scalar { .. } | ParamKind::Record { .. } => out.push(None),
            ParamKind::Array { dims, .. } | ParamKind::Scratch { dims, .. } => {
                let mut shape = Vec::new();
                for dim in dims {
                    let value =
                        eval(&dim.expr, kernel.block_size, blocks, scalars).map_err(|why| {
                            format!(
                                "parameter `{}`: cannot compute dimension `{}`: {why}",
                                param.name, dim.text
                            )
                        })?;
                    let value = usize::try_from(value)
                        .ok()
                        .filter(|v| *v <= i32::MAX as usize)
                        .ok_or_else(|| {
                            format!(
                                "parameter `{}`: dimension `{}` is {value}; a dimension is 0 to {}",
                                param.name,
                                dim.text,
                                i32::MAX
                            )
                        })?;
                    shape.push(value);
                }
                out.push(Some(shape));
            }
        }
    }
    Ok(out)
}

/// Checks that an array argument's data holds exactly its declared shape's elements: a buffer
/// shorter than the shape would let the kernel read or write past it on the device.
pub fn check_data_length(
    name: &str,
    element: ScalarType,
    shape: &[usize],
    bytes: usize,
) -> Result<(), String> {
    let elements = shape
        .iter()
        .try_fold(1usize, |n, d| n.checked_mul(*d))
        .ok_or_else(|| format!("parameter `{name}`: shape {shape:?} has too many elements"))?;
    let expected = elements
        .checked_mul(element.size())
        .ok_or_else(|| format!("parameter `{name}`: shape {shape:?} has too many bytes"))?;
    if bytes == expected {
        return Ok(());
    }
    Err(format!(
        "parameter `{name}`: shape {shape:?} of {} needs {expected} bytes ({elements} elements), \
         but its data has {bytes}",
        element.name()
    ))
}

/// The scratch arrays of a launch of `blocks` blocks with these arguments (checked), in
/// parameter order after the passed ones: each one's element type and number of elements.
pub fn scratch_arrays(
    kernel: &KernelMetadata,
    blocks: u32,
    args: &[ArgShape],
) -> Result<Vec<(ScalarType, usize)>, String> {
    let scalars = check(kernel, blocks, args)?;
    let dims = array_dims(kernel, blocks, &scalars)?;
    let mut out = Vec::new();
    for (param, dims) in kernel.params.iter().zip(dims) {
        if let (ParamKind::Scratch { element, .. }, Some(dims)) = (&param.kind, dims) {
            let elements = dims
                .iter()
                .try_fold(1usize, |n, d| n.checked_mul(*d))
                .filter(|n| n.checked_mul(element.size()).is_some())
                .ok_or_else(|| {
                    format!(
                        "the scratch array of `{}` ({dims:?} elements) is too large",
                        param.name
                    )
                })?;
            out.push((*element, elements));
        }
    }
    Ok(out)
}

/// Checks `args` against `kernel` for a launch of `blocks` blocks: one per passed parameter
/// ([`ParamMetadata::is_passed`]). Returns the scalar arguments by name.
pub fn check(
    kernel: &KernelMetadata,
    blocks: u32,
    args: &[ArgShape],
) -> Result<HashMap<String, Scalar>, String> {
    let passed: Vec<&ParamMetadata> = kernel.params.iter().filter(|p| p.is_passed()).collect();
    if args.len() != passed.len() {
        return Err(format!(
            "kernel `{}` takes {} arguments ({}), not {}",
            kernel.name,
            passed.len(),
            passed
                .iter()
                .map(|p| p.name.as_str())
                .collect::<Vec<_>>()
                .join(", "),
            args.len()
        ));
    }
    let mut scalars = HashMap::new();
    for (param, arg) in passed.iter().copied().zip(args) {
        match (&param.kind, arg) {
            (ParamKind::Scalar { ty }, ArgShape::Scalar(value)) if value.ty() == *ty => {
                scalars.insert(param.name.clone(), *value);
            }
            (ParamKind::Scalar { ty }, ArgShape::Scalar(value)) => {
                return Err(format!(
                    "parameter `{}` is {}, not {}",
                    param.name,
                    ty.name(),
                    value.ty().name()
                ))
            }
            (ParamKind::Scalar { ty }, ArgShape::Array { .. }) => {
                return Err(format!(
                    "parameter `{}` is a scalar {}, not an array",
                    param.name,
                    ty.name()
                ))
            }
            (ParamKind::Array { .. }, ArgShape::Scalar(_)) => {
                return Err(format!(
                    "parameter `{}` is an array, not a scalar",
                    param.name
                ))
            }
            (ParamKind::Array { element, .. }, ArgShape::Array { element: got, .. })
                if got != element =>
            {
                return Err(format!(
                    "parameter `{}` holds {} elements, not {}",
                    param.name,
                    element.name(),
                    got.name()
                ))
            }
            (ParamKind::Array { .. }, ArgShape::Array { .. }) => {}
            (kind @ ParamKind::Record { .. }, ArgShape::Record(record)) => {
                record.pack(&param.name, kind)?;
            }
            (ParamKind::Record { fields, .. }, _) => {
                return Err(format!(
                    "parameter `{}` is a record ({}), not {}",
                    param.name,
                    describe_fields(fields),
                    if matches!(arg, ArgShape::Scalar(_)) {
                        "a scalar"
                    } else {
                        "an array"
                    }
                ))
            }
            (ParamKind::Scalar { ty }, ArgShape::Record(_)) => {
                return Err(format!(
                    "parameter `{}` is a scalar {}, not a record",
                    param.name,
                    ty.name()
                ))
            }
            (ParamKind::Array { .. }, ArgShape::Record(_)) => {
                return Err(format!(
                    "parameter `{}` is an array, not a record",
                    param.name
                ))
            }
            // Not among the passed parameters.
            (ParamKind::Scratch { .. }, _) => {}
        }
    }
    let dims = array_dims(kernel, blocks, &scalars)?;
    let passed_dims = kernel
        .params
        .iter()
        .zip(dims)
        .filter(|(p, _)| p.is_passed());
    for ((param, expected), arg) in passed_dims.zip(args) {
        let (ArgShape::Array { shape, .. }, Some(expected)) = (arg, expected) else {
            continue;
        };
        if *shape != expected {
            let texts: Vec<&str> = match &param.kind {
                ParamKind::Array { dims, .. } | ParamKind::Scratch { dims, .. } => {
                    dims.iter().map(|d| d.text.as_str()).collect()
                }
                ParamKind::Scalar { .. } | ParamKind::Record { .. } => Vec::new(),
            };
            return Err(format!(
                "parameter `{}` must have shape {:?} ([{}] with BLOCKS = {blocks}), not {:?}",
                param.name,
                expected,
                texts.join(", "),
                shape
            ));
        }
    }
    Ok(scalars)
}

/// Evaluates a dimension exactly (in i64); overflow is an error rather than a wrapped size.
pub fn eval(
    expr: &DimExpr,
    block_size: u32,
    blocks: u32,
    scalars: &HashMap<String, Scalar>,
) -> Result<i64, String> {
    let go = |e: &DimExpr| eval(e, block_size, blocks, scalars);
    let overflow = || "it overflows".to_string();
    Ok(match expr {
        DimExpr::Const { value } => *value,
        DimExpr::Param { name } => scalars
            .get(name)
            .and_then(|s| s.as_i64())
            .ok_or_else(|| format!("no integer argument `{name}`"))?,
        DimExpr::Blocks => blocks as i64,
        DimExpr::BlockSize => block_size as i64,
        DimExpr::Threads => blocks as i64 * block_size as i64,
        DimExpr::Neg { arg } => go(arg)?.checked_neg().ok_or_else(overflow)?,
        DimExpr::Cast { to, arg } => wrap(go(arg)?, *to),
        DimExpr::Binary { bin, lhs, rhs } => {
            let (a, b) = (go(lhs)?, go(rhs)?);
            match bin {
                BinOp::Add => a.checked_add(b).ok_or_else(overflow)?,
                BinOp::Sub => a.checked_sub(b).ok_or_else(overflow)?,
                BinOp::Mul => a.checked_mul(b).ok_or_else(overflow)?,
                BinOp::Div if b == 0 => 0,
                BinOp::Div => a.checked_div(b).ok_or_else(overflow)?,
                BinOp::Rem if b == 0 => a,
                BinOp::Rem => a.checked_rem(b).ok_or_else(overflow)?,
                BinOp::Shl => a.checked_shl((b & 63) as u32).ok_or_else(overflow)?,
                BinOp::Shr => a >> (b & 63),
                BinOp::And => a & b,
                BinOp::Or => a | b,
                BinOp::Xor => a ^ b,
            }
        }
        DimExpr::Opaque => return Err("loomc could not describe it".to_string()),
    })
}

/// `v` cast to the integer type `to` as the kernel casts it: its low bits, sign-extended for a
/// signed type (a 64-bit type keeps `v`).
fn wrap(v: i64, to: ScalarType) -> i64 {
    match to {
        ScalarType::Int8 => v as i8 as i64,
        ScalarType::Int16 => v as i16 as i64,
        ScalarType::Int32 => v as i32 as i64,
        ScalarType::UInt8 => v as u8 as i64,
        ScalarType::UInt16 => v as u16 as i64,
        ScalarType::UInt32 => v as u32 as i64,
        _ => v,
    }
}
