//! The runtime without a GPU: metadata as loomc writes it, argument checks that name the
//! parameter. The GPU launch is tested in loomc's `tests/gpu_launch.rs`, which compiles the
//! kernel it launches (this crate has no compiler) and checks that `row_max.json` is still what
//! loomc emits.

use loom_runtime::args::{check, ArgShape, Scalar};
use loom_runtime::{ModuleMetadata, ScalarType};

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
