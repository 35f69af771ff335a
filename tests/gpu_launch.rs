//! `tests/ui/ok/row_max.loom` compiled by loomc (PTX and metadata), its PTX assembled by ptxas,
//! its arguments checked by `loom-runtime` against the metadata, and, when a GPU is present,
//! launched through `loom-runtime` and compared with a reference. Without a GPU everything up to
//! the launch still runs, and the launch is skipped with a message.

#[path = "support/mod.rs"]
mod support;

use loom_runtime::args::{check, scratch_arrays, ArgShape, Scalar};
use loom_runtime::{driver_present, Gpu, GpuArg, ModuleMetadata, ScalarType};
use loomc::diagnostics::SourceFiles;
use loomc::driver::{self, Emit, Options};
use std::io::Write;

const PROGRAM: &str = "tests/ui/ok/row_max.loom";

/// `(PTX, metadata)` of `PROGRAM` as loomc emits them.
fn compile_row_max() -> (String, String) {
    compile(PROGRAM)
}

/// `(PTX, metadata)` of `program` as loomc emits them.
fn compile(program: &str) -> (String, String) {
    let source = std::fs::read_to_string(support::repo_root().join(program)).unwrap();
    let options = Options {
        emit: vec![Emit::Ptx, Emit::Metadata],
        ..Options::default()
    };
    let mut files = SourceFiles::default();
    let compilation = driver::compile(&mut files, program, &source, &options);
    let outputs = compilation
        .outputs
        .unwrap_or_else(|| panic!("{program} does not compile: {:?}", compilation.diagnostics));
    let output = |kind: Emit| {
        outputs
            .iter()
            .find(|(emit, _)| *emit == kind)
            .map(|(_, text)| text.clone())
            .unwrap_or_else(|| panic!("loomc emitted no {kind:?} for {program}"))
    };
    (output(Emit::Ptx), output(Emit::Metadata))
}

#[test]
fn gpu_launch_matches_a_reference() {
    let (ptx, json) = compile_row_max();
    if let Err(rejected) = support::assemble(&ptx, "sm_80") {
        panic!("{PROGRAM}: {rejected}");
    }
    let metadata = ModuleMetadata::from_json(&json).unwrap();
    // The runtime's own tests read this file as loomc's metadata for rowMax: keep it true.
    let fixture =
        std::fs::read_to_string(support::repo_root().join("runtime/tests/row_max.json")).unwrap();
    assert_eq!(
        ModuleMetadata::from_json(&fixture).unwrap(),
        metadata,
        "runtime/tests/row_max.json is no longer what loomc emits for {PROGRAM}"
    );

    let (rows, cols) = (3usize, 1000usize);
    let a: Vec<f32> = (0..rows * cols)
        .map(|i| ((i * 7919) % 1013) as f32 - 500.0)
        .collect();
    let shapes = [
        ArgShape::Scalar(Scalar::Int32(rows as i32)),
        ArgShape::Scalar(Scalar::Int32(cols as i32)),
        ArgShape::Array {
            element: ScalarType::Float32,
            shape: vec![rows, cols],
        },
        ArgShape::Array {
            element: ScalarType::Float32,
            shape: vec![rows],
        },
    ];
    check(metadata.kernel("rowMax").unwrap(), rows as u32, &shapes).unwrap();

    if !driver_present() {
        // Shown even under the harness's output capture, which only captures `print!`.
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED the launch of gpu_launch_matches_a_reference: no CUDA driver on this \
             machine ({PROGRAM} compiled, assembled and its arguments checked)"
        );
        return;
    }
    let gpu = Gpu::open(0).unwrap();
    let module = gpu.load(&ptx, metadata).unwrap();
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

/// A kernel with a scratch row (`a`, assigned again): its metadata lists the scratch array
/// after the kernel's parameters, a caller passes the four others only, and `loom-runtime`
/// allocates the scratch array itself, `BLOCKS` rows of `cols` elements.
#[test]
fn gpu_launch_allocates_scratch_rows() {
    const SCRATCH: &str = "tests/run/programs/scratch_rows.loom";
    let (ptx, json) = compile(SCRATCH);
    if let Err(rejected) = support::assemble(&ptx, "sm_80") {
        panic!("{SCRATCH}: {rejected}");
    }
    let metadata = ModuleMetadata::from_json(&json).unwrap();
    let kernel = metadata.kernel("reassigned").unwrap();
    let names: Vec<(&str, bool)> = kernel
        .params
        .iter()
        .map(|p| (p.name.as_str(), p.is_passed()))
        .collect();
    assert_eq!(
        names,
        [
            ("rows", true),
            ("cols", true),
            ("x", true),
            ("out", true),
            ("a.scratch", false)
        ]
    );
    let (rows, cols) = (3usize, 1000usize);
    let array = || ArgShape::Array {
        element: ScalarType::Float32,
        shape: vec![rows, cols],
    };
    let shapes = [
        ArgShape::Scalar(Scalar::Int32(rows as i32)),
        ArgShape::Scalar(Scalar::Int32(cols as i32)),
        array(),
        array(),
    ];
    assert_eq!(
        scratch_arrays(kernel, rows as u32, &shapes).unwrap(),
        [(ScalarType::Float32, rows * cols)]
    );
    let mut with_scratch = shapes.to_vec();
    with_scratch.push(array());
    assert!(check(kernel, rows as u32, &with_scratch)
        .unwrap_err()
        .contains("takes 4 arguments (rows, cols, x, out), not 5"));

    // The generated bindings take the same four.
    let bindings = loom_runtime::bindings::rust_source(&metadata, &ptx);
    assert!(bindings.contains(
        "`reassigned(rows: Int32, cols: Int32, x: Float32[rows, cols], out: Float32[rows, cols])`"
    ));
    assert!(!bindings.contains("a.scratch: "));

    if !driver_present() {
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED the launch of gpu_launch_allocates_scratch_rows: no CUDA driver on this \
             machine ({SCRATCH} compiled, assembled and its arguments checked)"
        );
        return;
    }
    let gpu = Gpu::open(0).unwrap();
    let module = gpu.load(&ptx, metadata.clone()).unwrap();
    let x: Vec<f32> = (0..rows * cols).map(|i| (i % 97) as f32 - 48.0).collect();
    let mut x_bytes: Vec<u8> = x.iter().flat_map(|v| v.to_le_bytes()).collect();
    let mut out = vec![0u8; rows * cols * 4];
    let array_arg = |data| GpuArg::Array {
        shape: vec![rows, cols],
        element: ScalarType::Float32,
        data,
    };
    gpu.launch(
        &module,
        "reassigned",
        rows as u32,
        &mut [
            GpuArg::Scalar(Scalar::Int32(rows as i32)),
            GpuArg::Scalar(Scalar::Int32(cols as i32)),
            array_arg(&mut x_bytes),
            array_arg(&mut out),
        ],
    )
    .unwrap();
    for (i, v) in x.iter().enumerate() {
        let got = f32::from_le_bytes(out[i * 4..i * 4 + 4].try_into().unwrap());
        let a = v * 2.0 + 1.0;
        assert_eq!(got, a * a, "element {i}");
    }
}
