//! Why the CPU backend cannot compile or launch a kernel. These are errors about the IR or the
//! launch, not about a LOOM program's source, so they are messages rather than diagnostics.

use std::fmt;

#[derive(Debug, Clone, PartialEq)]
pub enum HostError {
    /// The IR text does not parse.
    Parse(String),
    /// An `llvm.nvvm.*` intrinsic the SIMT runtime does not implement.
    UnsupportedIntrinsic { name: String, function: String },
    /// A function the IR declares that neither the runtime nor LLVM provides.
    UnresolvedFunction { name: String },
    /// An intrinsic or runtime call with types the calling convention cannot carry.
    UnsupportedSignature { name: String, why: String },
    /// Shared memory used in a form the lowering cannot relocate.
    SharedMemory(String),
    /// LLVM failed: verifier, target or JIT.
    Llvm(String),
    /// The module has no kernel by that name.
    NoSuchKernel { name: String, known: Vec<String> },
    /// The arguments do not fit the kernel's parameters.
    Arguments(String),
    /// The launch's shape is invalid (block size, grid).
    Launch(String),
}

impl fmt::Display for HostError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HostError::Parse(message) => write!(f, "cannot read the LLVM IR: {message}"),
            HostError::UnsupportedIntrinsic { name, function } => write!(
                f,
                "the CPU backend does not implement the NVVM intrinsic `{name}` (called in `{function}`)"
            ),
            HostError::UnresolvedFunction { name } => write!(
                f,
                "the kernel calls `{name}`, which the CPU backend does not provide"
            ),
            HostError::UnsupportedSignature { name, why } => {
                write!(f, "cannot call `{name}` on the CPU backend: {why}")
            }
            HostError::SharedMemory(message) => {
                write!(f, "cannot place shared memory for the CPU backend: {message}")
            }
            HostError::Llvm(message) => write!(f, "LLVM failed on the CPU backend: {message}"),
            HostError::NoSuchKernel { name, known } => {
                write!(f, "no kernel named `{name}`")?;
                if known.is_empty() {
                    write!(f, " (the module has no kernels)")
                } else {
                    write!(f, " (kernels: {})", known.join(", "))
                }
            }
            HostError::Arguments(message) | HostError::Launch(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for HostError {}
