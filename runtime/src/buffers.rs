//! Typed device buffers that stay on the GPU across launches, and launches over them: what the
//! bindings `loomc --emit=rust` generates call (docs/running.md).
//!
//! A launch takes every array as `&mut DeviceBuffer<T>`, so passing one buffer twice is a
//! compile-time borrow error: the no-alias promise of a kernel's array parameters (loomc marks
//! them `noalias`) cannot be broken through this API. Before the launch each buffer's element
//! type and shape are checked against the kernel's metadata, and its length against its shape.

use crate::args::{self, ArgShape, Scalar};
use crate::cuda::{Gpu, GpuModule, Timing};
use crate::metadata::ScalarType;
use cudarc::driver::{CudaSlice, DevicePtr, DeviceRepr, ValidAsZeroBits};

/// An element type a LOOM array can hold on the device.
pub trait Element: DeviceRepr + ValidAsZeroBits + Copy + Default + Unpin + 'static {
    const TYPE: ScalarType;
}

macro_rules! element {
    ($($rust:ty => $loom:ident),*) => {
        $(impl Element for $rust {
            const TYPE: ScalarType = ScalarType::$loom;
        })*
    };
}

element!(
    i8 => Int8, i16 => Int16, u8 => UInt8, u16 => UInt16,
    i32 => Int32, i64 => Int64, u32 => UInt32, u64 => UInt64, f32 => Float32, f64 => Float64
);

/// An array on the device with its shape (row-major, as LOOM lays out `T[rows, cols]`).
pub struct DeviceBuffer<T: Element> {
    slice: CudaSlice<T>,
    shape: Vec<usize>,
}

impl<T: Element> DeviceBuffer<T> {
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.shape.iter().product()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// One argument of [`Gpu::launch_buffers`].
pub enum KernelArg<'a> {
    Scalar(Scalar),
    Array(&'a mut dyn DeviceArray),
}

/// A device buffer of any element type, as a launch sees it.
pub trait DeviceArray {
    fn element(&self) -> ScalarType;
    fn shape(&self) -> &[usize];
    /// The buffer's elements on the device (its allocation's size).
    fn device_len(&self) -> usize;
    /// The device address, for the kernel's pointer parameter.
    fn address(&self, gpu: &Gpu) -> u64;
}

impl<T: Element> DeviceArray for DeviceBuffer<T> {
    fn element(&self) -> ScalarType {
        T::TYPE
    }

    fn shape(&self) -> &[usize] {
        &self.shape
    }

    fn device_len(&self) -> usize {
        self.slice.len()
    }

    fn address(&self, gpu: &Gpu) -> u64 {
        // One stream: the launch is ordered after every earlier copy on it.
        let (address, _sync) = self.slice.device_ptr(gpu.stream());
        address
    }
}

fn elements(shape: &[usize]) -> Result<usize, String> {
    shape
        .iter()
        .try_fold(1usize, |n, d| n.checked_mul(*d))
        .ok_or_else(|| format!("shape {shape:?} has too many elements"))
}

impl Gpu {
    /// Copies `data` to a new device buffer of `shape`; its length must be the shape's.
    pub fn upload<T: Element>(
        &self,
        data: &[T],
        shape: &[usize],
    ) -> Result<DeviceBuffer<T>, String> {
        let expected = elements(shape)?;
        if data.len() != expected {
            return Err(format!(
                "{} elements for a buffer of shape {shape:?}, which holds {expected}",
                data.len()
            ));
        }
        let slice = self
            .stream()
            .clone_htod(data)
            .map_err(|e| format!("CUDA: {e}"))?;
        Ok(DeviceBuffer {
            slice,
            shape: shape.to_vec(),
        })
    }

    /// A new device buffer of `shape`, all zeros.
    pub fn zeros<T: Element>(&self, shape: &[usize]) -> Result<DeviceBuffer<T>, String> {
        let slice = self
            .stream()
            .alloc_zeros(elements(shape)?)
            .map_err(|e| format!("CUDA: {e}"))?;
        Ok(DeviceBuffer {
            slice,
            shape: shape.to_vec(),
        })
    }

    /// Copies a device buffer back (after every launch before it on this GPU's stream).
    pub fn download<T: Element>(&self, buffer: &DeviceBuffer<T>) -> Result<Vec<T>, String> {
        self.stream()
            .clone_dtoh(&buffer.slice)
            .map_err(|e| format!("CUDA: {e}"))
    }

    /// Launches `kernel` of `module` over `blocks` blocks of the kernel's own block size, with
    /// `args` checked against its metadata first (count, scalar types, element types, shapes for
    /// this launch, buffer lengths). The buffers stay on the device.
    pub fn launch_buffers(
        &self,
        module: &GpuModule,
        kernel: &str,
        blocks: u32,
        args: &mut [KernelArg<'_>],
    ) -> Result<Timing, String> {
        let meta = module.metadata().kernel(kernel)?;
        if blocks == 0 {
            return Err(format!(
                "kernel `{kernel}`: the grid needs at least 1 block"
            ));
        }
        let shapes: Vec<ArgShape> = args
            .iter()
            .map(|arg| match arg {
                KernelArg::Scalar(s) => ArgShape::Scalar(*s),
                KernelArg::Array(buffer) => ArgShape::Array {
                    element: buffer.element(),
                    shape: buffer.shape().to_vec(),
                },
            })
            .collect();
        args::check(meta, blocks, &shapes)?;
        for (param, arg) in meta.params.iter().zip(args.iter()) {
            if let KernelArg::Array(buffer) = arg {
                let element = buffer.element();
                let bytes = buffer.device_len() * element.size();
                args::check_data_length(&param.name, element, buffer.shape(), bytes)?;
            }
        }
        let launch_args: Vec<LaunchArg> = args
            .iter()
            .map(|arg| match arg {
                KernelArg::Scalar(s) => LaunchArg::Scalar(*s),
                KernelArg::Array(buffer) => LaunchArg::Address(buffer.address(self)),
            })
            .collect();
        self.launch_raw(module, meta, blocks, &launch_args)
    }
}

/// A kernel argument as the driver receives it.
pub(crate) enum LaunchArg {
    Scalar(Scalar),
    /// A device pointer.
    Address(u64),
}
