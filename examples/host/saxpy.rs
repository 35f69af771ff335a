//! A host program that runs LOOM's saxpy on a GPU with loom-runtime (no LLVM, no loomc at run
//! time): it loads the PTX and metadata loomc wrote, checks its arguments against the metadata,
//! launches, times the kernel and checks the result.
//!
//! ```text
//! scripts/loomc examples/saxpy.loom --emit=ptx,metadata -o build/saxpy
//! cargo run -p loom-runtime --example saxpy -- build/saxpy.ptx build/saxpy.json 1000000
//! ```

use loom_runtime::{driver_present, Gpu, GpuArg, ModuleMetadata, Scalar, ScalarType};

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().collect();
    let [_, ptx_path, metadata_path, n] = args.as_slice() else {
        return Err("usage: saxpy SAXPY.ptx SAXPY.json N".to_string());
    };
    let n: usize = n.parse().map_err(|e| format!("N: {e}"))?;
    let ptx = std::fs::read_to_string(ptx_path).map_err(|e| format!("{ptx_path}: {e}"))?;
    let metadata =
        std::fs::read_to_string(metadata_path).map_err(|e| format!("{metadata_path}: {e}"))?;
    let metadata = ModuleMetadata::from_json(&metadata)?;
    if !driver_present() {
        return Err(
            "no CUDA driver on this machine: run the kernel with `loomc run --device cpu` instead"
                .to_string(),
        );
    }
    let block_size = metadata.kernel("saxpy")?.block_size as usize;
    let gpu = Gpu::open(0)?;
    let module = gpu.load(&ptx, metadata)?;
    let a = 2.5f32;
    let x: Vec<f32> = (0..n).map(|i| (i % 100) as f32 * 0.25).collect();
    let y: Vec<f32> = (0..n).map(|i| 1.0 - (i % 7) as f32).collect();
    let mut x_bytes: Vec<u8> = x.iter().flat_map(|v| v.to_le_bytes()).collect();
    let mut y_bytes: Vec<u8> = y.iter().flat_map(|v| v.to_le_bytes()).collect();
    let blocks = n.div_ceil(block_size) as u32;
    let timing = gpu.launch(
        &module,
        "saxpy",
        blocks,
        &mut [
            GpuArg::Scalar(Scalar::Int32(n as i32)),
            GpuArg::Scalar(Scalar::Float32(a)),
            GpuArg::Array {
                shape: vec![n],
                element: ScalarType::Float32,
                data: &mut x_bytes,
            },
            GpuArg::Array {
                shape: vec![n],
                element: ScalarType::Float32,
                data: &mut y_bytes,
            },
        ],
    )?;
    let worst = y_bytes
        .chunks_exact(4)
        .zip(x.iter().zip(&y))
        .map(|(b, (x, y))| (f32::from_le_bytes([b[0], b[1], b[2], b[3]]) - (a * x + y)).abs())
        .fold(0f32, f32::max);
    println!(
        "saxpy on {}: {n} elements in {:.3} ms, largest difference from the host {worst:e}",
        gpu.name(),
        timing.kernel_ms
    );
    if worst > 1e-4 {
        return Err("the GPU's result differs from the host's".to_string());
    }
    Ok(())
}
