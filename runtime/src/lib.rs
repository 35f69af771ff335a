//! loom-runtime: what a host program needs to run LOOM kernels, without LLVM.
//!
//! - `metadata`: the JSON `loomc --emit=metadata` writes (the calling convention, docs/abi.md);
//! - `args`: arguments checked against it (types, array shapes) with errors naming the parameter;
//! - `buffers`: typed device buffers that stay on the GPU across launches;
//! - `stream`: launches over them, waited for or issued on CUDA streams (what `loomc --emit=rust`
//!   bindings call);
//! - `cuda`: loading PTX and launching through cudarc's driver API, loaded at run time, so that
//!   programs build and their non-GPU paths run on machines without CUDA.

#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

pub mod args;
pub mod bindings;
pub mod buffers;
pub mod cuda;
pub mod half;
pub mod metadata;
pub mod stream;

pub use args::{ArgShape, PackedRecord, Range, RecordArg, Scalar};
pub use buffers::{DeviceArray, DeviceBuffer, Element, KernelArg, BF16, F16};
pub use cuda::{driver_present, Gpu, GpuArg, GpuModule, Timing};
pub use metadata::{
    FieldMetadata, GridShape, KernelMetadata, ModuleMetadata, ParamKind, ScalarType,
};
pub use stream::Stream;
