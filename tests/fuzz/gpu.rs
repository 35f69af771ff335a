//! The generated programs on a GPU, against the CPU backend. When a CUDA driver and a GPU are
//! there, every program's PTX (`-O3`, the first block size) runs on GPU 0 over the same inputs
//! and must give what the CPU backend gave for the same IR: integers exactly, floats within the
//! tolerance of two block sizes (ptxas fuses multiplies and adds, and libdevice's math is not the
//! host's). Without one the comparison is skipped, and each run says so.

use loom_runtime::{Gpu, GpuArg, ModuleMetadata, Scalar};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

/// GPU 0, opened on first use; `Err` says why there is none. One launch at a time: the workers
/// share it.
fn device() -> &'static Result<Mutex<Gpu>, String> {
    static DEVICE: OnceLock<Result<Mutex<Gpu>, String>> = OnceLock::new();
    DEVICE.get_or_init(|| Gpu::open(0).map(Mutex::new))
}

/// Whether generated programs also run on a GPU.
pub fn present() -> bool {
    device().is_ok()
}

/// What a run prints about the GPU comparison.
pub fn status() -> String {
    match device() {
        Ok(gpu) => match gpu.lock() {
            Ok(gpu) => format!("every program also ran on {}", gpu.name()),
            Err(_) => "the GPU's lock was poisoned by a panic".to_string(),
        },
        Err(_) if !loom_runtime::driver_present() => {
            "GPU comparison skipped: no CUDA driver on this machine".to_string()
        }
        Err(why) => format!("GPU comparison skipped: {why}"),
    }
}

/// One array argument: its bytes and its shape.
pub struct ArrayArg<'a> {
    pub data: &'a mut [u8],
    pub shape: Vec<usize>,
}

/// Launches `kernel` of `ptx` over `blocks` blocks with `scalar`, `arrays` and `records` (in
/// parameter order: `w: Range`, then the record `p` where the kernel takes one); arrays are
/// updated in place.
pub fn launch(
    ptx: &str,
    metadata: &str,
    kernel: &str,
    blocks: u32,
    scalar: Scalar,
    arrays: Vec<ArrayArg<'_>>,
    records: Vec<loom_runtime::RecordArg>,
) -> Result<(), String> {
    let gpu = device().as_ref().map_err(Clone::clone)?;
    let waited = Instant::now();
    let gpu = gpu
        .lock()
        .map_err(|_| "the GPU's lock was poisoned".to_string())?;
    let held = Progress::start(waited);
    let metadata = ModuleMetadata::from_json(metadata)?;
    // Generated kernels' arrays have the scalar parameter's element type.
    let element = scalar.ty();
    let module = gpu.load(ptx, metadata)?;
    let mut args = vec![GpuArg::Scalar(scalar)];
    args.extend(arrays.into_iter().map(|a| GpuArg::Array {
        shape: a.shape,
        element,
        data: a.data,
    }));
    // The kernel's last parameters, `w: Range` and `p`, where it has them.
    args.extend(records.into_iter().map(GpuArg::Record));
    let launched = gpu.launch(&module, kernel, blocks, &mut args).map(|_| ());
    held.finish();
    launched
}

/// Every hundredth launch prints how many ran and where the time went: the first GPU run (on an
/// H100, 2026-11-27) went past its 240 s with nothing printed, so a cut-off log must say how far
/// it got and whether the workers queue for the one GPU (the module is the driver's to JIT-compile
/// from PTX, under the lock).
struct Progress {
    locked: Instant,
    waited_us: u64,
}

static LAUNCHES: AtomicU64 = AtomicU64::new(0);
static WAITED_US: AtomicU64 = AtomicU64::new(0);
static HELD_US: AtomicU64 = AtomicU64::new(0);

impl Progress {
    fn start(waited: Instant) -> Progress {
        Progress {
            locked: Instant::now(),
            waited_us: waited.elapsed().as_micros() as u64,
        }
    }

    fn finish(self) {
        let held = HELD_US.fetch_add(self.locked.elapsed().as_micros() as u64, Ordering::Relaxed);
        let waited = WAITED_US.fetch_add(self.waited_us, Ordering::Relaxed);
        let n = LAUNCHES.fetch_add(1, Ordering::Relaxed) + 1;
        if n % 100 == 0 {
            eprintln!(
                "gpu: {n} programs launched; {:.1} s loading and running, {:.1} s waiting for the GPU",
                held as f64 / 1e6,
                waited as f64 / 1e6
            );
        }
    }
}
