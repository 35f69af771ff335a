//! The runtime without a GPU: metadata as loomc writes it, argument checks that name the
//! parameter; and, when a GPU is present, a launch checked against a reference (skipped with a
//! message otherwise).

use loom_runtime::args::{check, check_data_length, ArgShape, Scalar};
use loom_runtime::{driver_present, Gpu, GpuArg, ModuleMetadata, ScalarType};
use std::io::Write;

/// Says so on the terminal even under the test harness's output capture (which only captures
/// `print!` and `eprint!`).
fn skip(why: &str) {
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED gpu_launch_matches_a_reference: {why}"
    );
}

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

#[test]
fn gpu_launch_matches_a_reference() {
    if !driver_present() {
        skip("no CUDA driver on this machine");
        return;
    }
    let Ok(ptx) = std::env::var("LOOM_ROW_MAX_PTX") else {
        skip("set LOOM_ROW_MAX_PTX to the PTX of tests/ui/ok/row_max.loom");
        return;
    };
    let ptx = std::fs::read_to_string(ptx).unwrap();
    let gpu = Gpu::open(0).unwrap();
    let module = gpu
        .load(&ptx, ModuleMetadata::from_json(ROW_MAX).unwrap())
        .unwrap();
    let (rows, cols) = (3usize, 1000usize);
    let a: Vec<f32> = (0..rows * cols)
        .map(|i| ((i * 7919) % 1013) as f32 - 500.0)
        .collect();
    let mut a_bytes: Vec<u8> = a.iter().flat_map(|v| v.to_le_bytes()).collect();
    let mut out = vec![0u8; rows * 4];
    let timing = gpu
        .launch(
            &module,
            "rowMax",
            rows as u32,
            &mut [
                GpuArg::Scalar(Scalar::Int32(rows as i32)),
                GpuArg::Scalar(Scalar::Int32(cols as i32)),
                GpuArg::Array {
                    shape: vec![rows, cols],
                    element: ScalarType::Float32,
                    data: &mut a_bytes,
                },
                GpuArg::Array {
                    shape: vec![rows],
                    element: ScalarType::Float32,
                    data: &mut out,
                },
            ],
        )
        .unwrap();
    for r in 0..rows {
        let got = f32::from_le_bytes(out[r * 4..r * 4 + 4].try_into().unwrap());
        let expected = a[r * cols..(r + 1) * cols]
            .iter()
            .copied()
            .fold(f32::NEG_INFINITY, f32::max);
        assert_eq!(got, expected, "row {r}");
    }
    eprintln!("rowMax on {}: {:.3} ms", gpu.name(), timing.kernel_ms);
}
