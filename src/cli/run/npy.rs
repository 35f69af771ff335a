//! `.npy` arrays for `loomc run`: read with their element type and shape checked against a
//! parameter, written back in the parameter's type and shape.

use loom_runtime::ScalarType;
use npyz::WriterBuilder;
use std::io::BufReader;
use std::path::Path;

/// NumPy's type string for a LOOM element type (little-endian, as every host LOOM runs on).
pub fn descr(ty: ScalarType) -> &'static str {
    match ty {
        ScalarType::Int32 => "<i4",
        ScalarType::Int64 => "<i8",
        ScalarType::UInt32 => "<u4",
        ScalarType::UInt64 => "<u8",
        ScalarType::Float32 => "<f4",
        ScalarType::Float64 => "<f8",
        ScalarType::Bool => "|b1",
    }
}

/// An array as bytes in the kernel's layout (row-major, little-endian), with its shape.
pub struct Array {
    pub shape: Vec<usize>,
    pub bytes: Vec<u8>,
}

/// Reads `path` as an array of `ty` for parameter `param`; a different dtype is an error that
/// names the parameter (the shape is checked against the launch later).
pub fn read(path: &Path, param: &str, ty: ScalarType) -> Result<Array, String> {
    let fail =
        |e: std::io::Error| format!("parameter `{param}`: cannot read `{}`: {e}", path.display());
    let file = std::fs::File::open(path).map_err(fail)?;
    let npy = npyz::NpyFile::new(BufReader::new(file)).map_err(fail)?;
    let dtype = match npy.dtype() {
        npyz::DType::Plain(ts) => ts.to_string(),
        other => format!("{other:?}"),
    };
    let expected = descr(ty);
    let same = dtype == expected || (ty == ScalarType::Bool && dtype == "|b1");
    if !same {
        return Err(format!(
            "parameter `{param}` holds {} (dtype {expected}), but `{}` has dtype {dtype}",
            ty.name(),
            path.display()
        ));
    }
    if npy.order() == npyz::Order::Fortran {
        return Err(format!(
            "parameter `{param}`: `{}` is in Fortran order; LOOM arrays are row-major (save it with numpy.ascontiguousarray)",
            path.display()
        ));
    }
    let shape: Vec<usize> = npy.shape().iter().map(|d| *d as usize).collect();
    let bytes = match ty {
        ScalarType::Int32 => to_bytes(npy.into_vec::<i32>().map_err(fail)?),
        ScalarType::Int64 => to_bytes(npy.into_vec::<i64>().map_err(fail)?),
        ScalarType::UInt32 => to_bytes(npy.into_vec::<u32>().map_err(fail)?),
        ScalarType::UInt64 => to_bytes(npy.into_vec::<u64>().map_err(fail)?),
        ScalarType::Float32 => to_bytes(npy.into_vec::<f32>().map_err(fail)?),
        ScalarType::Float64 => to_bytes(npy.into_vec::<f64>().map_err(fail)?),
        ScalarType::Bool => npy
            .into_vec::<bool>()
            .map_err(fail)?
            .into_iter()
            .map(u8::from)
            .collect(),
    };
    Ok(Array { shape, bytes })
}

fn to_bytes<T: Copy>(values: Vec<T>) -> Vec<u8> {
    let size = std::mem::size_of::<T>();
    // SAFETY: `T` is a plain number type; its bytes are read once and copied.
    let raw =
        unsafe { std::slice::from_raw_parts(values.as_ptr() as *const u8, values.len() * size) };
    raw.to_vec()
}

fn from_bytes<T: Copy + Default>(bytes: &[u8]) -> Vec<T> {
    let size = std::mem::size_of::<T>();
    bytes
        .chunks_exact(size)
        .map(|chunk| {
            let mut value = T::default();
            // SAFETY: `chunk` has exactly `size_of::<T>()` bytes and `T` is a plain number type.
            unsafe {
                std::ptr::copy_nonoverlapping(chunk.as_ptr(), &mut value as *mut T as *mut u8, size)
            };
            value
        })
        .collect()
}

/// Writes `array` as elements of `ty` to `path`.
pub fn write(path: &Path, ty: ScalarType, array: &Array) -> Result<(), String> {
    let fail = |e: std::io::Error| format!("cannot write `{}`: {e}", path.display());
    let shape: Vec<u64> = array.shape.iter().map(|d| *d as u64).collect();
    let file = std::fs::File::create(path).map_err(fail)?;
    let mut out = std::io::BufWriter::new(file);
    macro_rules! write_as {
        ($t:ty, $values:expr) => {{
            let mut writer = npyz::WriteOptions::<$t>::new()
                .default_dtype()
                .shape(&shape)
                .writer(&mut out)
                .begin_nd()
                .map_err(fail)?;
            writer.extend($values).map_err(fail)?;
            writer.finish().map_err(fail)?;
        }};
    }
    match ty {
        ScalarType::Int32 => write_as!(i32, from_bytes::<i32>(&array.bytes)),
        ScalarType::Int64 => write_as!(i64, from_bytes::<i64>(&array.bytes)),
        ScalarType::UInt32 => write_as!(u32, from_bytes::<u32>(&array.bytes)),
        ScalarType::UInt64 => write_as!(u64, from_bytes::<u64>(&array.bytes)),
        ScalarType::Float32 => write_as!(f32, from_bytes::<f32>(&array.bytes)),
        ScalarType::Float64 => write_as!(f64, from_bytes::<f64>(&array.bytes)),
        ScalarType::Bool => write_as!(
            bool,
            array.bytes.iter().map(|b| *b != 0).collect::<Vec<_>>()
        ),
    }
    Ok(())
}
