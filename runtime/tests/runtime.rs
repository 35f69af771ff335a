//! The runtime without a GPU: metadata as loomc writes it, argument checks that name the
//! parameter. The GPU launch is tested in loomc's `tests/gpu_launch.rs`, which compiles the
//! kernel it launches (this crate has no compiler) and checks that `row_max.json` is still what
//! loomc emits.

use loom_runtime::args::{check, check_data_length, ArgShape, Scalar};
use loom_runtime::{driver_present, Gpu, ModuleMetadata, ScalarType};
use std::io::Write;

/// Metadata of `kernel rowMax(rows: Int32, cols: Int32, a: Float32[rows, cols], out: Float32[rows])`
/// as `loomc --emit=metadata` writes it.
const ROW_MAX: &str = include_str!("row_max.json");

#[test]
fn metadata_round_trips_and_names_its_kernels() {
    let m = ModuleMetadata::from_json(ROW_MAX).unwrap();
    assert_eq!(ModuleMetadata::from_json(&m.to_json()).unwrap(), m);
    assert_eq!(m.kernel("rowMax").unwrap().block_size, 256);
    assert_eq!(
        m.kernel("nope").unwrap_err(),
        "no kernel named `nope` (kernels: rowMax)"
    );
    let wrong = ROW_MAX.replace("\"format\": 1", "\"format\": 9");
    assert!(ModuleMetadata::from_json(&wrong)
        .unwrap_err()
        .contains("format 9"));
}

#[test]
fn arguments_are_checked_against_the_metadata() {
    let m = ModuleMetadata::from_json(ROW_MAX).unwrap();
    let k = m.kernel("rowMax").unwrap();
    let array = |shape: Vec<usize>| ArgShape::Array {
        element: ScalarType::Float32,
        shape,
    };
    let good = [
        ArgShape::Scalar(Scalar::Int32(3)),
        ArgShape::Scalar(Scalar::Int32(5)),
        array(vec![3, 5]),
        array(vec![3]),
    ];
    check(k, 3, &good).unwrap();
    let mut bad = good.clone();
    bad[2] = array(vec![5, 3]);
    assert_eq!(
        check(k, 3, &bad).unwrap_err(),
        "parameter `a` must have shape [3, 5] ([rows, cols] with BLOCKS = 3), not [5, 3]"
    );
    bad = good.clone();
    bad[3] = ArgShape::Array {
        element: ScalarType::Int32,
        shape: vec![3],
    };
    assert_eq!(
        check(k, 3, &bad).unwrap_err(),
        "parameter `out` holds Float32 elements, not Int32"
    );
    bad = good.clone();
    bad[0] = ArgShape::Scalar(Scalar::Int64(3));
    assert_eq!(
        check(k, 3, &bad).unwrap_err(),
        "parameter `rows` is Int32, not Int64"
    );
    assert!(check(k, 3, &good[..3])
        .unwrap_err()
        .contains("takes 4 arguments (rows, cols, a, out), not 3"));
    bad = good.clone();
    bad[0] = ArgShape::Scalar(Scalar::Int32(-3));
    assert!(check(k, 3, &bad)
        .unwrap_err()
        .contains("parameter `a`: dimension `rows` is -3"));
}

#[test]
fn array_data_must_hold_its_declared_shape() {
    check_data_length("a", ScalarType::Float32, &[3, 5], 3 * 5 * 4).unwrap();
    assert_eq!(
        check_data_length("a", ScalarType::Float32, &[3, 5], 14 * 4).unwrap_err(),
        "parameter `a`: shape [3, 5] of Float32 needs 60 bytes (15 elements), but its data has 56"
    );
    assert!(
        check_data_length("b", ScalarType::Float64, &[usize::MAX, 2], 0)
            .unwrap_err()
            .contains("too many elements")
    );
}

#[test]
fn the_missing_driver_message_speaks_to_a_library_user() {
    if driver_present() {
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED the_missing_driver_message_speaks_to_a_library_user: a CUDA driver is present"
        );
        return;
    }
    let message = Gpu::open(0).err().expect("no driver, no GPU");
    assert!(message.contains("no CUDA driver"), "{message}");
    assert!(
        !message.contains("--device"),
        "a library has no command line: {message}"
    );
}

/// Metadata of `kernel bytes(n: Int16, a: UInt8[UInt8(n)], b: Int8[n])`, as loomc writes it.
const SMALL_INTEGERS: &str = include_str!("small_integers.json");

#[test]
fn small_integer_arguments_and_casts_in_dimensions() {
    let m = ModuleMetadata::from_json(SMALL_INTEGERS).unwrap();
    let k = m.kernel("bytes").unwrap();
    let bytes = |element, len| ArgShape::Array {
        element,
        shape: vec![len],
    };
    // `UInt8(n)` keeps the low 8 bits, as the kernel computes it: 300 is 44.
    let n = Scalar::parse(ScalarType::Int16, "300").unwrap();
    assert_eq!(n, Scalar::Int16(300));
    let good = [
        ArgShape::Scalar(n),
        bytes(ScalarType::UInt8, 44),
        bytes(ScalarType::Int8, 300),
    ];
    check(k, 1, &good).unwrap();
    let mut bad = good.clone();
    bad[1] = bytes(ScalarType::UInt8, 300);
    assert!(check(k, 1, &bad)
        .unwrap_err()
        .contains("parameter `a` must have shape [44]"));
    bad = good.clone();
    bad[2] = bytes(ScalarType::UInt8, 300);
    assert_eq!(
        check(k, 1, &bad).unwrap_err(),
        "parameter `b` holds Int8 elements, not UInt8"
    );
    assert_eq!(ScalarType::Int16.size(), 2);
    assert_eq!(ScalarType::UInt8.size(), 1);
    assert!(Scalar::parse(ScalarType::Int8, "128").is_err());
    assert_eq!(
        Scalar::parse(ScalarType::UInt16, "65535").unwrap(),
        Scalar::UInt16(65535)
    );
}

/// A kernel on a two-dimensional grid of two-dimensional blocks (`@blocksize(16, 16)`, naming
/// `BROW`/`BCOL`): `blockDim = (cols, rows, 1)` and `gridDim = (cols, rows, 1)`; one on a
/// one-dimensional grid takes one row only; a grid of no blocks is refused.
#[test]
fn two_dimensional_grids_and_blocks_give_cuda_dimensions() {
    use loom_runtime::GridShape;
    let tiled = ROW_MAX.replace(
        "\"block_size\": 256,",
        "\"block_size\": 256,\n      \"block_shape\": [16, 16],\n      \"grid_dims\": 2,",
    );
    let m = ModuleMetadata::from_json(&tiled).unwrap();
    let k = m.kernel("rowMax").unwrap();
    assert_eq!(k.block_dim(), (16, 16, 1));
    assert_eq!(k.grid_dim(GridShape { rows: 3, cols: 4 }), Ok((4, 3, 1)));
    assert!(k
        .require_one_dimensional_grid()
        .unwrap_err()
        .contains("launch_grid"));
    assert!(k.grid_dim(GridShape { rows: 0, cols: 4 }).is_err());
    let plain = ModuleMetadata::from_json(ROW_MAX).unwrap();
    let k = plain.kernel("rowMax").unwrap();
    assert_eq!(k.block_dim(), (256, 1, 1));
    assert_eq!(k.grid_dim(GridShape::blocks(7)), Ok((7, 1, 1)));
    assert!(k
        .grid_dim(GridShape { rows: 2, cols: 3 })
        .unwrap_err()
        .contains("one-dimensional grid"));
    assert_eq!(
        GridShape {
            rows: 1 << 16,
            cols: 1 << 16
        }
        .total(),
        None
    );
}

/// A 16-bit float argument is a decimal rounded once (as a LOOM literal is), or what Rust's
/// float parser takes besides (`inf`); anything else is an error that names the type.
#[test]
fn sixteen_bit_float_arguments_round_once() {
    use ScalarType::{BFloat16, Float16};
    let parse = |ty, text| Scalar::parse(ty, text);
    assert_eq!(parse(Float16, "0.1"), Ok(Scalar::Float16(0x2e66)));
    assert_eq!(parse(Float16, "-65504"), Ok(Scalar::Float16(0xfbff)));
    // Just above the midpoint 1 + 2^-11, which it is as an f64: up, once.
    assert_eq!(
        parse(Float16, "1.00048828125000001"),
        Ok(Scalar::Float16(0x3c01))
    );
    assert_eq!(parse(Float16, "inf"), Ok(Scalar::Float16(0x7c00)));
    assert_eq!(parse(BFloat16, "1.5"), Ok(Scalar::BFloat16(0x3fc0)));
    assert_eq!(parse(BFloat16, "+2"), Ok(Scalar::BFloat16(0x4000)));
    assert!(parse(BFloat16, "one")
        .unwrap_err()
        .contains("is not a BFloat16"));
}

/// `loomc --emit=metadata` of `tests/ui/ok/record_params.loom`'s parameters `r: Range` and
/// `f: {scale: Float32, shift: Float32, on: Bool, bias: Int64}`.
const RECORDS: &str = r#"{
  "format": 1, "source": "record_params.loom", "target": { "arch": "sm_80", "ptx_version": "7.8" },
  "kernels": [ { "name": "window", "block_size": 256, "static_shared_bytes": 0, "params": [
    { "name": "r", "kind": "record", "record": "Range", "size": 8, "align": 4, "fields": [
      { "name": "start", "type": "Int32", "offset": 0 }, { "name": "end", "type": "Int32", "offset": 4 } ] },
    { "name": "f", "kind": "record", "record": "Affine", "size": 24, "align": 8, "fields": [
      { "name": "scale", "type": "Float32", "offset": 0 }, { "name": "shift", "type": "Float32", "offset": 4 },
      { "name": "on", "type": "Bool", "offset": 8 }, { "name": "bias", "type": "Int64", "offset": 16 } ] }
  ] } ] }"#;

#[test]
fn records_are_packed_in_their_c_layout_and_checked_by_field() {
    use loom_runtime::{Range, RecordArg};
    let metadata = ModuleMetadata::from_json(RECORDS).unwrap();
    assert_eq!(
        ModuleMetadata::from_json(&metadata.to_json()).unwrap(),
        metadata
    );
    let kernel = metadata.kernel("window").unwrap();
    let range: RecordArg = Range { start: 3, end: -2 }.into();
    let packed = range.pack("r", &kernel.params[0].kind).unwrap();
    assert_eq!(packed.bytes(), [3, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff]);
    let f = RecordArg::new()
        .field("bias", Scalar::Int64(-1))
        .field("on", Scalar::Bool(true))
        .field("shift", Scalar::Float32(1.0))
        .field("scale", Scalar::Float32(-2.0));
    let packed = f.pack("f", &kernel.params[1].kind).unwrap();
    let mut expected = vec![0u8; 24];
    expected[0..4].copy_from_slice(&(-2.0f32).to_le_bytes());
    expected[4..8].copy_from_slice(&1.0f32.to_le_bytes());
    expected[8] = 1;
    expected[16..24].copy_from_slice(&(-1i64).to_le_bytes());
    assert_eq!(packed.bytes(), expected);
    assert_eq!(
        (packed.first_word() as *const u64 as usize) % 8,
        0,
        "aligned for any field"
    );
    let args = |f: RecordArg| vec![ArgShape::Record(range.clone()), ArgShape::Record(f)];
    check(kernel, 1, &args(f.clone())).unwrap();
    for (bad, says) in [
        (
            RecordArg::new().field("scale", Scalar::Float32(1.0)),
            "needs field `shift` (its fields: scale: Float32, shift: Float32, on: Bool, bias: Int64)",
        ),
        (
            f.clone().field("z", Scalar::Int32(1)),
            "record parameter `f` has no field `z`",
        ),
        (
            f.clone().field("on", Scalar::Bool(false)),
            "field `on` is given twice",
        ),
        (
            RecordArg::new()
                .field("scale", Scalar::Float32(1.0))
                .field("shift", Scalar::Float32(1.0))
                .field("on", Scalar::Int32(1))
                .field("bias", Scalar::Int64(1)),
            "field `on` is Bool, not Int32",
        ),
    ] {
        let error = check(kernel, 1, &args(bad)).unwrap_err();
        assert!(error.contains(says), "{error}");
    }
    let error = check(
        kernel,
        1,
        &[ArgShape::Scalar(Scalar::Int32(1)), ArgShape::Record(f)],
    )
    .unwrap_err();
    assert!(
        error.contains("`r` is a record (start: Int32, end: Int32), not a scalar"),
        "{error}"
    );
}
