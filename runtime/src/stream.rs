//! Launches over device buffers, on a GPU's own stream or on streams of the host's choosing.
//!
//! [`Gpu::launch_buffers`] is the simple form: it launches on the GPU's stream, waits for the
//! kernel and says how long it ran. A [`Stream`] is the form for overlapping work, as with
//! `cudaStream_t`: its copies and launches run in the order they were issued and return at once,
//! and work on different streams may run at the same time. Buffers carry their own ordering
//! (cudarc records an event for each buffer's last read and write), so a launch on one stream
//! that uses a buffer another stream is still writing waits for that write; nothing is shared
//! without it. `Stream::synchronize` waits for everything issued on the stream. Kernels on a
//! two-dimensional grid launch with a [`crate::GridShape`] (`launch_buffers_grid`); the forms
//! with a number of blocks refuse them.

use crate::args::{self, ArgShape, Scalar};
use crate::buffers::{self, DeviceBuffer, Element, KernelArg};
use crate::cuda::{Gpu, GpuModule, Timing};
use crate::metadata::GridShape;
use cudarc::driver::{CudaEvent, CudaStream, LaunchConfig, PushKernelArg};
use std::sync::Arc;

/// A CUDA stream of one GPU (`Gpu::new_stream`).
pub struct Stream {
    stream: Arc<CudaStream>,
}

impl Gpu {
    /// A new stream on this GPU, independent of its own and of every other.
    pub fn new_stream(&self) -> Result<Stream, String> {
        let stream = self.context().new_stream().map_err(cuda_error)?;
        Ok(Stream { stream })
    }

    /// Launches `kernel` of `module` over `blocks` blocks of the kernel's own block size, with
    /// `args` checked against its metadata first (count, scalar types, element types, shapes for
    /// this launch, buffer lengths), on this GPU's stream; returns when the kernel has finished,
    /// with its time between two CUDA events. The buffers stay on the device.
    pub fn launch_buffers(
        &self,
        module: &GpuModule,
        kernel: &str,
        blocks: u32,
        args: &mut [KernelArg<'_>],
    ) -> Result<Timing, String> {
        module
            .metadata()
            .kernel(kernel)?
            .require_one_dimensional_grid()?;
        self.launch_buffers_grid(module, kernel, GridShape::blocks(blocks), args)
    }

    /// [`Gpu::launch_buffers`] over a grid of `grid.rows` rows of `grid.cols` blocks
    /// (`gridDim = (cols, rows, 1)`): a kernel that names `BROW`, `BCOL`, `GRIDROWS` or
    /// `GRIDCOLS` (metadata `grid_dims: 2`); a one-dimensional one takes one row.
    pub fn launch_buffers_grid(
        &self,
        module: &GpuModule,
        kernel: &str,
        grid: GridShape,
        args: &mut [KernelArg<'_>],
    ) -> Result<Timing, String> {
        let event = || {
            self.context()
                .new_event(Some(cudarc::driver::sys::CUevent_flags::CU_EVENT_DEFAULT))
                .map_err(cuda_error)
        };
        let (start, end) = (event()?, event()?);
        enqueue(
            self.stream(),
            module,
            kernel,
            grid,
            args,
            Some((&start, &end)),
        )?;
        end.synchronize().map_err(cuda_error)?;
        start
            .elapsed_ms(&end)
            .map(|kernel_ms| Timing { kernel_ms })
            .map_err(cuda_error)
    }
}

impl Stream {
    /// [`Gpu::launch_buffers`] on this stream: the same checks, then the launch is issued and
    /// this returns without waiting for it.
    pub fn launch_buffers(
        &self,
        module: &GpuModule,
        kernel: &str,
        blocks: u32,
        args: &mut [KernelArg<'_>],
    ) -> Result<(), String> {
        module
            .metadata()
            .kernel(kernel)?
            .require_one_dimensional_grid()?;
        self.launch_buffers_grid(module, kernel, GridShape::blocks(blocks), args)
    }

    /// [`Gpu::launch_buffers_grid`] on this stream: a two-dimensional grid, issued without
    /// waiting.
    pub fn launch_buffers_grid(
        &self,
        module: &GpuModule,
        kernel: &str,
        grid: GridShape,
        args: &mut [KernelArg<'_>],
    ) -> Result<(), String> {
        enqueue(&self.stream, module, kernel, grid, args, None)
    }

    /// Copies `data` to a new device buffer of `shape` on this stream.
    pub fn upload<T: Element>(
        &self,
        data: &[T],
        shape: &[usize],
    ) -> Result<DeviceBuffer<T>, String> {
        buffers::upload(&self.stream, data, shape)
    }

    /// A new device buffer of `shape`, all zeros, on this stream.
    pub fn zeros<T: Element>(&self, shape: &[usize]) -> Result<DeviceBuffer<T>, String> {
        buffers::zeros(&self.stream, shape)
    }

    /// Copies a device buffer back through this stream, after the buffer's last write on any
    /// stream; returns when the data is on the host.
    pub fn download<T: Element>(&self, buffer: &DeviceBuffer<T>) -> Result<Vec<T>, String> {
        buffers::download(&self.stream, buffer)
    }

    /// Waits until everything issued on this stream has finished.
    pub fn synchronize(&self) -> Result<(), String> {
        self.stream.synchronize().map_err(cuda_error)
    }
}

/// Checks `args` against `kernel`'s metadata and issues the launch over `grid` on `stream`,
/// between the two events of `timed` when given.
fn enqueue(
    stream: &Arc<CudaStream>,
    module: &GpuModule,
    kernel: &str,
    grid: GridShape,
    args: &mut [KernelArg<'_>],
    timed: Option<(&CudaEvent, &CudaEvent)>,
) -> Result<(), String> {
    let meta = module.metadata().kernel(kernel)?;
    let grid_dim = meta.grid_dim(grid)?;
    let blocks = meta.block_count(grid)?;
    let shapes: Vec<ArgShape> = args
        .iter()
        .map(|arg| match arg {
            KernelArg::Scalar(s) => ArgShape::Scalar(*s),
            KernelArg::Array(buffer) => ArgShape::Array {
                element: buffer.element(),
                shape: buffer.shape().to_vec(),
            },
            KernelArg::Record(record) => ArgShape::Record(record.clone()),
        })
        .collect();
    let scratch_arrays = args::scratch_arrays(meta, blocks, &shapes)?;
    let passed = || meta.params.iter().filter(|p| p.is_passed());
    for (param, arg) in passed().zip(args.iter()) {
        if let KernelArg::Array(buffer) = arg {
            let element = buffer.element();
            let bytes = buffer.device_len() * element.size();
            args::check_data_length(&param.name, element, buffer.shape(), bytes)?;
        }
    }
    let function = module
        .cuda_module()
        .load_function(kernel)
        .map_err(|e| format!("kernel `{kernel}`: {e}"))?;
    // Records packed into their layouts: the driver copies each one's bytes from its address.
    let mut packed = Vec::new();
    for (param, arg) in passed().zip(args.iter()) {
        if let KernelArg::Record(record) = arg {
            packed.push(record.pack(&param.name, &param.kind)?);
        }
    }
    let mut packed = packed.iter();
    let mut launch = stream.launch_builder(&function);
    for arg in args.iter_mut() {
        match arg {
            KernelArg::Record(_) => {
                if let Some(record) = packed.next() {
                    _ = launch.arg(record.first_word());
                }
            }
            KernelArg::Array(buffer) => buffer.push_to(&mut launch),
            KernelArg::Scalar(Scalar::Int8(v)) => _ = launch.arg(&*v),
            KernelArg::Scalar(Scalar::Int16(v)) => _ = launch.arg(&*v),
            KernelArg::Scalar(Scalar::UInt8(v)) => _ = launch.arg(&*v),
            KernelArg::Scalar(Scalar::UInt16(v)) => _ = launch.arg(&*v),
            KernelArg::Scalar(Scalar::Int32(v)) => _ = launch.arg(&*v),
            KernelArg::Scalar(Scalar::Int64(v)) => _ = launch.arg(&*v),
            KernelArg::Scalar(Scalar::UInt32(v)) => _ = launch.arg(&*v),
            KernelArg::Scalar(Scalar::UInt64(v)) => _ = launch.arg(&*v),
            KernelArg::Scalar(Scalar::Float16(v)) => _ = launch.arg(&*v),
            KernelArg::Scalar(Scalar::BFloat16(v)) => _ = launch.arg(&*v),
            KernelArg::Scalar(Scalar::Float32(v)) => _ = launch.arg(&*v),
            KernelArg::Scalar(Scalar::Float64(v)) => _ = launch.arg(&*v),
            KernelArg::Scalar(Scalar::Bool(v)) => _ = launch.arg(&*v),
        }
    }
    // The scratch arrays after the passed parameters (docs/abi.md): freed when the stream
    // has finished with them (cudarc frees a slice in stream order).
    let mut scratch = Vec::new();
    for (element, elements) in scratch_arrays {
        scratch.push(
            stream
                .alloc_zeros::<u8>((elements * element.size()).max(1))
                .map_err(cuda_error)?,
        );
    }
    for buffer in &scratch {
        _ = launch.arg(buffer);
    }
    let config = LaunchConfig {
        grid_dim,
        block_dim: meta.block_dim(),
        shared_mem_bytes: 0,
    };
    if let Some((start, _)) = timed {
        start.record(stream).map_err(cuda_error)?;
    }
    // SAFETY: the arguments were checked against the kernel's metadata: one per parameter, of
    // its type; arrays are live device buffers of their declared shape and length.
    unsafe { launch.launch(config) }.map_err(cuda_error)?;
    if let Some((_, end)) = timed {
        end.record(stream).map_err(cuda_error)?;
    }
    Ok(())
}

fn cuda_error(e: cudarc::driver::DriverError) -> String {
    format!("CUDA: {e}")
}
