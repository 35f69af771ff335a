//! Typed device buffers that stay on the GPU across launches, and launches over them: what the
//! bindings `loomc --emit=rust` generates call (docs/running.md).
//!
//! A launch takes every array as `&mut DeviceBuffer<T>`, so passing one buffer twice is a
//! compile-time borrow error: the no-alias promise of a kernel's array parameters (loomc marks
//! them `noalias`) cannot be broken through this API. Before the launch each buffer's element
//! type and shape are checked against the kernel's metadata, and its length against its shape.

use crate::args::Scalar;
use crate::cuda::Gpu;
use crate::metadata::ScalarType;
use cudarc::driver::{
    CudaSlice, CudaStream, DeviceRepr, LaunchArgs, PushKernelArg, ValidAsZeroBits,
};
use std::sync::Arc;

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
    i32 => Int32, i64 => Int64, u32 => UInt32, u64 => UInt64, f32 => Float32, f64 => Float64,
    F16 => Float16, BF16 => BFloat16
);

/// A `Float16` element, as its encoding: Rust has no stable 16-bit float (`half::f16::to_bits`
/// and `crate::half::F16` convert). A type of its own, not `u16`, so that a buffer says which
/// of `UInt16`, `Float16` and `BFloat16` it holds.
#[repr(transparent)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct F16(pub u16);

/// A `BFloat16` element, as its encoding (the upper half of an `f32`'s bits).
#[repr(transparent)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BF16(pub u16);

// SAFETY: both are a `u16` (repr(transparent)), which the device reads as the 16-bit float's
// encoding, and for which zero bits are a value (+0.0).
unsafe impl cudarc::driver::DeviceRepr for F16 {}
unsafe impl cudarc::driver::ValidAsZeroBits for F16 {}
unsafe impl cudarc::driver::DeviceRepr for BF16 {}
unsafe impl cudarc::driver::ValidAsZeroBits for BF16 {}

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

/// One argument of [`Gpu::launch_buffers`] and [`crate::Stream::launch_buffers`].
pub enum KernelArg<'a> {
    Scalar(Scalar),
    Array(&'a mut dyn DeviceArray),
    /// A record or `Range` by value: its fields by name, packed at launch into the
    /// parameter's C layout (the generated bindings convert their `#[repr(C)]` structs).
    Record(crate::args::RecordArg),
}

/// A device buffer of any element type, as a launch sees it.
pub trait DeviceArray {
    fn element(&self) -> ScalarType;
    fn shape(&self) -> &[usize];
    /// The buffer's elements on the device (its allocation's size).
    fn device_len(&self) -> usize;
    /// Adds the buffer to a launch as the kernel's pointer parameter. Through cudarc, which
    /// makes the launch's stream wait for the buffer's earlier copies and launches on other
    /// streams, and later work wait for this launch.
    #[doc(hidden)]
    fn push_to<'a>(&'a mut self, launch: &mut LaunchArgs<'a>);
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

    fn push_to<'a>(&'a mut self, launch: &mut LaunchArgs<'a>) {
        launch.arg(&mut self.slice);
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
        upload(self.stream(), data, shape)
    }

    /// A new device buffer of `shape`, all zeros.
    pub fn zeros<T: Element>(&self, shape: &[usize]) -> Result<DeviceBuffer<T>, String> {
        zeros(self.stream(), shape)
    }

    /// Copies a device buffer back, after every launch on it before (on any stream).
    pub fn download<T: Element>(&self, buffer: &DeviceBuffer<T>) -> Result<Vec<T>, String> {
        download(self.stream(), buffer)
    }
}

pub(crate) fn upload<T: Element>(
    stream: &Arc<CudaStream>,
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
    let slice = stream.clone_htod(data).map_err(|e| format!("CUDA: {e}"))?;
    Ok(DeviceBuffer {
        slice,
        shape: shape.to_vec(),
    })
}

pub(crate) fn zeros<T: Element>(
    stream: &Arc<CudaStream>,
    shape: &[usize],
) -> Result<DeviceBuffer<T>, String> {
    let slice = stream
        .alloc_zeros(elements(shape)?)
        .map_err(|e| format!("CUDA: {e}"))?;
    Ok(DeviceBuffer {
        slice,
        shape: shape.to_vec(),
    })
}

/// Copies `buffer` back through `stream`; cudarc waits for the buffer's last write first,
/// on whichever stream it was made, and the copy returns when the data is on the host.
pub(crate) fn download<T: Element>(
    stream: &Arc<CudaStream>,
    buffer: &DeviceBuffer<T>,
) -> Result<Vec<T>, String> {
    stream
        .clone_dtoh(&buffer.slice)
        .map_err(|e| format!("CUDA: {e}"))
}
