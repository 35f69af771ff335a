//! `.npy` arrays for `loomc run`: read with their element type and shape checked against a
//! parameter, written back in the parameter's type and shape.

use super::bytes::Bytes;
use loom_runtime::ScalarType;
use std::io::{BufReader, Read, Write};
use std::path::Path;

/// NumPy's type string for a LOOM element type (little-endian, as every host LOOM runs on).
pub fn descr(ty: ScalarType) -> &'static str {
    match ty {
        ScalarType::Int8 => "|i1",
        ScalarType::Int16 => "<i2",
        ScalarType::UInt8 => "|u1",
        ScalarType::UInt16 => "<u2",
        ScalarType::Int32 => "<i4",
        ScalarType::Int64 => "<i8",
        ScalarType::UInt32 => "<u4",
        ScalarType::UInt64 => "<u8",
        ScalarType::Float16 => "<f2",
        // NumPy has no bfloat16: the arrays travel as their encodings, `uint16` (ml_dtypes'
        // `bfloat16` arrays convert with `.view(numpy.uint16)` and back).
        ScalarType::BFloat16 => "<u2",
        ScalarType::Float32 => "<f4",
        ScalarType::Float64 => "<f8",
        ScalarType::Bool => "|b1",
    }
}

/// An array as bytes in the kernel's layout (row-major, little-endian), with its shape.
#[derive(Clone)]
pub struct Array {
    pub shape: Vec<usize>,
    pub bytes: Bytes,
}

/// Reads `path` as an array of `ty` for parameter `param`; a different dtype is an error that
/// names the parameter (the shape is checked against the launch later). The data is one bulk
/// read: the dtypes LOOM accepts are little-endian, the host's order, so the file's bytes are
/// the kernel's.
pub fn read(path: &Path, param: &str, ty: ScalarType) -> Result<Array, String> {
    let fail =
        |e: std::io::Error| format!("parameter `{param}`: cannot read `{}`: {e}", path.display());
    let file = std::fs::File::open(path).map_err(fail)?;
    let mut reader = BufReader::new(file);
    let header = npyz::NpyHeader::from_reader(&mut reader).map_err(fail)?;
    let dtype = match header.dtype() {
        npyz::DType::Plain(ts) => ts.to_string(),
        other => format!("{other:?}"),
    };
    let expected = descr(ty);
    if dtype != expected {
        return Err(format!(
            "parameter `{param}` holds {} (dtype {expected}), but `{}` has dtype {dtype}",
            ty.name(),
            path.display()
        ));
    }
    if header.order() == npyz::Order::Fortran {
        return Err(format!(
            "parameter `{param}`: `{}` is in Fortran order; LOOM arrays are row-major (save it with numpy.ascontiguousarray)",
            path.display()
        ));
    }
    let shape: Vec<usize> = header.shape().iter().map(|d| *d as usize).collect();
    let len = shape
        .iter()
        .try_fold(ty.size(), |n, d| n.checked_mul(*d))
        .ok_or_else(|| {
            format!(
                "parameter `{param}`: `{}` has an impossible shape {shape:?}",
                path.display()
            )
        })?;
    let mut bytes = Bytes::zeroed(len).ok_or_else(|| {
        format!(
            "parameter `{param}`: `{}` holds {len} bytes, more than this machine can allocate",
            path.display()
        )
    })?;
    // Fresh zeroed pages (no memset), then the data straight from the file into them: what the
    // header read left in the reader's buffer, then reads of the rest.
    let buffered = reader.buffer().len().min(len);
    bytes[..buffered].copy_from_slice(&reader.buffer()[..buffered]);
    let mut filled = buffered;
    let file = reader.get_mut();
    while filled < len {
        match file.read(&mut bytes[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(fail(e)),
        }
    }
    if filled != len {
        return Err(format!(
            "parameter `{param}`: `{}` is truncated: its shape {shape:?} needs {len} bytes of data, it has {filled}",
            path.display()
        ));
    }
    if ty == ScalarType::Bool {
        // NumPy writes 0 and 1; any other byte is still true.
        bytes.iter_mut().for_each(|b| *b = u8::from(*b != 0));
    }
    Ok(Array { shape, bytes })
}

/// The `.npy` (version 1.0) header for `shape` and `descr`: the magic, the version, the
/// dictionary's length and the dictionary, padded with spaces and a newline so that the data
/// starts at a multiple of 64 bytes, as NumPy writes it.
fn header(descr: &str, shape: &[usize]) -> Vec<u8> {
    let dims = match shape {
        [one] => format!("({one},)"),
        _ => format!(
            "({})",
            shape
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let mut dict = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {dims}, }}");
    let prefix = 10; // magic (6), version (2), length (2)
    let total = (prefix + dict.len() + 1).div_ceil(64) * 64;
    dict.push_str(&" ".repeat(total - prefix - dict.len() - 1));
    dict.push('\n');
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"\x93NUMPY\x01\x00");
    out.extend_from_slice(&(dict.len() as u16).to_le_bytes());
    out.extend_from_slice(dict.as_bytes());
    out
}

/// Writes `array` as elements of `ty` to `out` (a new file): the header, then the bytes as they
/// are, in one write.
pub fn write(out: &mut impl Write, ty: ScalarType, array: &Array) -> std::io::Result<()> {
    out.write_all(&header(descr(ty), &array.shape))?;
    if ty == ScalarType::Bool {
        // NumPy's booleans are the bytes 0 and 1.
        let normalised: Vec<u8> = array.bytes.iter().map(|b| u8::from(*b != 0)).collect();
        out.write_all(&normalised)?;
    } else {
        out.write_all(&array.bytes)?;
    }
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_files_read_back_with_npyz() {
        let array = Array {
            shape: vec![2, 3],
            bytes: (0..6i32)
                .flat_map(|v| (v * 7 - 3).to_le_bytes())
                .collect::<Vec<u8>>()
                .into(),
        };
        let mut file = Vec::new();
        write(&mut file, ScalarType::Int32, &array).unwrap();
        assert_eq!(
            (file.len() - 24) % 64,
            0,
            "the data starts at a multiple of 64"
        );
        let npy = npyz::NpyFile::new(&file[..]).unwrap();
        assert_eq!(npy.shape(), &[2, 3]);
        assert_eq!(npy.into_vec::<i32>().unwrap(), vec![-3, 4, 11, 18, 25, 32]);
        let mut scalar = Vec::new();
        let one = Array {
            shape: vec![],
            bytes: 2.5f64.to_le_bytes().to_vec().into(),
        };
        write(&mut scalar, ScalarType::Float64, &one).unwrap();
        let npy = npyz::NpyFile::new(&scalar[..]).unwrap();
        assert_eq!(npy.shape(), &[] as &[u64]);
        assert_eq!(npy.into_vec::<f64>().unwrap(), vec![2.5]);
        let flags = Array {
            shape: vec![3],
            bytes: vec![0, 2, 1].into(),
        };
        let mut bools = Vec::new();
        write(&mut bools, ScalarType::Bool, &flags).unwrap();
        let npy = npyz::NpyFile::new(&bools[..]).unwrap();
        assert_eq!(npy.into_vec::<bool>().unwrap(), vec![false, true, true]);
    }

    const EVERY_TYPE: [ScalarType; 13] = [
        ScalarType::Int8,
        ScalarType::Int16,
        ScalarType::UInt8,
        ScalarType::UInt16,
        ScalarType::Int32,
        ScalarType::Int64,
        ScalarType::UInt32,
        ScalarType::UInt64,
        ScalarType::Float16,
        ScalarType::BFloat16,
        ScalarType::Float32,
        ScalarType::Float64,
        ScalarType::Bool,
    ];

    /// A file holding `data` under a header of NumPy's form with this dictionary.
    fn file_with(dict: &str, data: &[u8]) -> tempfile::NamedTempFile {
        let mut dict = dict.to_string();
        while (10 + dict.len() + 1) % 64 != 0 {
            dict.push(' ');
        }
        dict.push('\n');
        let mut file = tempfile::NamedTempFile::new().unwrap();
        file.write_all(b"\x93NUMPY\x01\x00").unwrap();
        file.write_all(&(dict.len() as u16).to_le_bytes()).unwrap();
        file.write_all(dict.as_bytes()).unwrap();
        file.write_all(data).unwrap();
        file.flush().unwrap();
        file
    }

    /// Every element type, written and read back through files: the same shape and bytes, and
    /// the header NumPy writes (its dtype, row-major). Large enough that the data is read past
    /// the header's buffer, and asks for huge pages (`zeroed`).
    #[test]
    fn every_type_round_trips_through_a_file() {
        for ty in EVERY_TYPE {
            let block: Vec<u8> = (0..4093usize)
                .map(|i| match ty {
                    ScalarType::Bool => u8::from(i % 3 == 0),
                    _ => (i.wrapping_mul(2_654_435_761) >> 13) as u8,
                })
                .collect();
            for shape in [vec![], vec![7], vec![3, 5], vec![1 << 20, 5]] {
                let len = shape.iter().product::<usize>() * ty.size();
                let mut bytes = block.repeat(len.div_ceil(block.len()));
                bytes.truncate(len);
                let array = Array {
                    shape: shape.clone(),
                    bytes: bytes.into(),
                };
                let mut file = tempfile::NamedTempFile::new().unwrap();
                write(file.as_file_mut(), ty, &array).unwrap();
                let header =
                    npyz::NpyHeader::from_reader(std::fs::File::open(file.path()).unwrap())
                        .unwrap();
                let npyz::DType::Plain(dtype) = header.dtype() else {
                    panic!("{ty:?}: not a plain dtype");
                };
                assert_eq!(dtype.to_string(), descr(ty), "{ty:?}");
                assert_eq!(header.order(), npyz::Order::C, "{ty:?}");
                let back = read(file.path(), "x", ty).unwrap();
                assert_eq!(back.shape, shape, "{ty:?} {shape:?}");
                assert!(
                    back.bytes == array.bytes,
                    "{ty:?} {shape:?}: the bytes differ"
                );
            }
        }
    }

    /// Files NumPy writes (`np.save`) read as the kernel's bytes; Bool bytes other than 0 and 1
    /// read as true (1).
    #[test]
    fn numpy_headers_read() {
        let data: Vec<u8> = (1..=24).collect();
        let f16 = file_with(
            "{'descr': '<f2', 'fortran_order': False, 'shape': (3, 4), }",
            &data,
        );
        let array = read(f16.path(), "h", ScalarType::Float16).unwrap();
        assert_eq!(
            (array.shape, array.bytes.to_vec()),
            (vec![3, 4], data.clone())
        );
        let bools = file_with(
            "{'descr': '|b1', 'fortran_order': False, 'shape': (4,), }",
            &[0, 1, 2, 255],
        );
        let array = read(bools.path(), "b", ScalarType::Bool).unwrap();
        assert_eq!(array.bytes, vec![0, 1, 1, 1]);
    }

    /// Big-endian data and Fortran order are refused, naming the parameter and the file; so is a
    /// file shorter than its shape, saying how many bytes it has.
    #[test]
    fn big_endian_fortran_order_and_short_files_are_refused() {
        let data = [0u8; 24];
        let big = file_with(
            "{'descr': '>f4', 'fortran_order': False, 'shape': (6,), }",
            &data,
        );
        let error = read(big.path(), "x", ScalarType::Float32).err().unwrap();
        assert!(
            error.contains("parameter `x` holds Float32 (dtype <f4)")
                && error.contains("has dtype >f4"),
            "{error}"
        );
        let fortran = file_with(
            "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }",
            &data,
        );
        let error = read(fortran.path(), "x", ScalarType::Float32)
            .err()
            .unwrap();
        assert!(
            error.contains("parameter `x`") && error.contains("is in Fortran order"),
            "{error}"
        );
        let short = file_with(
            "{'descr': '<f4', 'fortran_order': False, 'shape': (7,), }",
            &data,
        );
        let error = read(short.path(), "x", ScalarType::Float32).err().unwrap();
        assert!(
            error.contains("needs 28 bytes of data, it has 24"),
            "{error}"
        );
    }
}
