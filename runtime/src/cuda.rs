//! Launching on an NVIDIA GPU through cudarc's driver API: load the PTX, check the arguments
//! against the metadata, copy arrays to the device, launch with exactly `BLOCKSIZE` threads per
//! block, time the kernel with CUDA events, copy arrays back.

use crate::args::{self, ArgShape, Scalar};
use crate::metadata::{GridShape, KernelMetadata, ModuleMetadata, ParamKind};
use cudarc::driver::{CudaContext, CudaModule, CudaSlice, CudaStream, LaunchConfig, PushKernelArg};
use std::sync::Arc;

/// Whether a CUDA driver can be loaded on this machine. cudarc panics on its first call without
/// one, so every entry point asks this first.
pub fn driver_present() -> bool {
    // SAFETY: only tries to open the driver library.
    unsafe { cudarc::driver::sys::is_culib_present() }
}

/// One argument of a GPU launch; arrays are copied in before and out after.
#[derive(Debug)]
pub enum GpuArg<'a> {
    Scalar(Scalar),
    Array {
        shape: Vec<usize>,
        element: crate::metadata::ScalarType,
        data: &'a mut [u8],
    },
    /// A record or `Range`, passed by value (packed at launch into the parameter's layout).
    Record(crate::args::RecordArg),
}

pub struct Gpu {
    context: Arc<CudaContext>,
    stream: Arc<CudaStream>,
}

pub struct GpuModule {
    module: Arc<CudaModule>,
    metadata: ModuleMetadata,
}

/// What a launch measured.
#[derive(Debug, Clone, Copy)]
pub struct Timing {
    /// Kernel time between two CUDA events around the launch.
    pub kernel_ms: f32,
}

impl Gpu {
    /// The GPU `ordinal`, or a clear error when there is no driver or no such GPU.
    pub fn open(ordinal: usize) -> Result<Gpu, String> {
        if !driver_present() {
            return Err(
                "no CUDA driver on this machine (libcuda could not be loaded): a GPU launch needs \
                 an NVIDIA GPU and its driver"
                    .to_string(),
            );
        }
        let context =
            CudaContext::new(ordinal).map_err(|e| format!("cannot open GPU {ordinal}: {e}"))?;
        let stream = context.default_stream();
        Ok(Gpu { context, stream })
    }

    pub fn name(&self) -> String {
        self.context
            .name()
            .unwrap_or_else(|_| "unknown GPU".to_string())
    }

    pub fn load(&self, ptx: &str, metadata: ModuleMetadata) -> Result<GpuModule, String> {
        let module = self
            .context
            .load_module(cudarc::nvrtc::Ptx::from_src(ptx))
            .map_err(|e| format!("the driver rejected the PTX: {e}"))?;
        Ok(GpuModule { module, metadata })
    }

    /// Launches `kernel` over `blocks` blocks; arrays are updated in place.
    pub fn launch(
        &self,
        module: &GpuModule,
        kernel: &str,
        blocks: u32,
        args: &mut [GpuArg<'_>],
    ) -> Result<Timing, String> {
        module
            .metadata
            .kernel(kernel)?
            .require_one_dimensional_grid()?;
        self.launch_grid(module, kernel, GridShape::blocks(blocks), args)
    }

    /// Launches `kernel` over a grid of `grid.rows` rows of `grid.cols` blocks (a kernel on a
    /// two-dimensional grid; a one-dimensional one takes one row); arrays are updated in place.
    pub fn launch_grid(
        &self,
        module: &GpuModule,
        kernel: &str,
        grid: GridShape,
        args: &mut [GpuArg<'_>],
    ) -> Result<Timing, String> {
        let meta: &KernelMetadata = module.metadata.kernel(kernel)?;
        let grid_dim = meta.grid_dim(grid)?;
        let blocks = meta.block_count(grid)?;
        let shapes: Vec<ArgShape> = args
            .iter()
            .map(|a| match a {
                GpuArg::Scalar(s) => ArgShape::Scalar(*s),
                GpuArg::Array { shape, element, .. } => ArgShape::Array {
                    element: *element,
                    shape: shape.clone(),
                },
                GpuArg::Record(record) => ArgShape::Record(record.clone()),
            })
            .collect();
        let scratch_arrays = args::scratch_arrays(meta, blocks, &shapes)?;
        let passed = || meta.params.iter().filter(|p| p.is_passed());
        for (param, arg) in passed().zip(args.iter()) {
            if let GpuArg::Array {
                shape,
                element,
                data,
            } = arg
            {
                args::check_data_length(&param.name, *element, shape, data.len())?;
            }
        }
        let function = module
            .module
            .load_function(kernel)
            .map_err(|e| format!("kernel `{kernel}`: {e}"))?;
        let fail = |e: cudarc::driver::DriverError| format!("CUDA: {e}");
        let mut device: Vec<Option<CudaSlice<u8>>> = Vec::new();
        for arg in args.iter() {
            device.push(match arg {
                GpuArg::Array { data, .. } => {
                    Some(self.stream.clone_htod(&data[..]).map_err(fail)?)
                }
                GpuArg::Scalar(_) | GpuArg::Record(_) => None,
            });
        }
        let start = self
            .context
            .new_event(Some(cudarc::driver::sys::CUevent_flags::CU_EVENT_DEFAULT))
            .map_err(fail)?;
        let end = self
            .context
            .new_event(Some(cudarc::driver::sys::CUevent_flags::CU_EVENT_DEFAULT))
            .map_err(fail)?;
        // Records packed into their layouts; the driver copies each one's bytes from its
        // address (the parameter's size, from the PTX).
        let mut packed = Vec::new();
        for (param, arg) in passed().zip(args.iter()) {
            packed.push(match arg {
                GpuArg::Record(record) => Some(record.pack(&param.name, &param.kind)?),
                _ => None,
            });
        }
        let mut builder = self.stream.launch_builder(&function);
        for ((arg, buffer), packed) in args.iter().zip(&device).zip(&packed) {
            if let Some(record) = packed {
                builder.arg(record.first_word());
                continue;
            }
            match (arg, buffer) {
                (_, Some(buffer)) => builder.arg(buffer),
                (GpuArg::Scalar(Scalar::Int8(v)), None) => builder.arg(v),
                (GpuArg::Scalar(Scalar::Int16(v)), None) => builder.arg(v),
                (GpuArg::Scalar(Scalar::UInt8(v)), None) => builder.arg(v),
                (GpuArg::Scalar(Scalar::UInt16(v)), None) => builder.arg(v),
                (GpuArg::Scalar(Scalar::Int32(v)), None) => builder.arg(v),
                (GpuArg::Scalar(Scalar::Int64(v)), None) => builder.arg(v),
                (GpuArg::Scalar(Scalar::UInt32(v)), None) => builder.arg(v),
                (GpuArg::Scalar(Scalar::UInt64(v)), None) => builder.arg(v),
                (GpuArg::Scalar(Scalar::Float16(v)), None) => builder.arg(v),
                (GpuArg::Scalar(Scalar::BFloat16(v)), None) => builder.arg(v),
                (GpuArg::Scalar(Scalar::Float32(v)), None) => builder.arg(v),
                (GpuArg::Scalar(Scalar::Float64(v)), None) => builder.arg(v),
                (GpuArg::Scalar(Scalar::Bool(v)), None) => builder.arg(v),
                (GpuArg::Array { .. } | GpuArg::Record(_), None) => builder.arg(&0u64),
            };
        }
        // The scratch arrays after the passed parameters (docs/abi.md), for this launch only.
        let mut scratch = Vec::new();
        for (element, elements) in scratch_arrays {
            scratch.push(
                self.stream
                    .alloc_zeros::<u8>((elements * element.size()).max(1))
                    .map_err(fail)?,
            );
        }
        for buffer in &scratch {
            builder.arg(buffer);
        }
        let config = LaunchConfig {
            grid_dim,
            block_dim: meta.block_dim(),
            shared_mem_bytes: 0,
        };
        start.record(&self.stream).map_err(fail)?;
        // SAFETY: the arguments were checked against the kernel's metadata: one per parameter,
        // of its type, arrays of its shape.
        unsafe { builder.launch(config) }.map_err(fail)?;
        end.record(&self.stream).map_err(fail)?;
        end.synchronize().map_err(fail)?;
        let kernel_ms = start.elapsed_ms(&end).map_err(fail)?;
        for (arg, buffer) in args.iter_mut().zip(&device) {
            if let (GpuArg::Array { data, .. }, Some(buffer)) = (arg, buffer) {
                self.stream
                    .memcpy_dtoh(buffer, &mut data[..])
                    .map_err(fail)?;
            }
        }
        self.stream.synchronize().map_err(fail)?;
        Ok(Timing { kernel_ms })
    }
}

impl Gpu {
    /// The stream every copy and launch of this GPU goes through, in order.
    pub(crate) fn stream(&self) -> &Arc<CudaStream> {
        &self.stream
    }

    pub(crate) fn context(&self) -> &Arc<CudaContext> {
        &self.context
    }
}

impl GpuModule {
    /// The loaded module, for launches.
    pub(crate) fn cuda_module(&self) -> &Arc<CudaModule> {
        &self.module
    }

    pub fn metadata(&self) -> &ModuleMetadata {
        &self.metadata
    }

    /// The kernel's parameters, for hosts that build arguments from metadata.
    pub fn params(&self, kernel: &str) -> Result<Vec<(String, ParamKind)>, String> {
        Ok(self
            .metadata
            .kernel(kernel)?
            .params
            .iter()
            .map(|p| (p.name.clone(), p.kind.clone()))
            .collect())
    }
}
