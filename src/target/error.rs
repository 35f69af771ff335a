//! Target errors, as data.

use crate::diagnostics::{Diagnostic, INTERNAL_ERROR};

/// Every diagnostic id this stage can produce.
pub const CODES: &[&str] = &[
    UNKNOWN_ARCH,
    LIBDEVICE,
    NVIDIA_TOOL,
    crate::inspect::INSPECT,
    OUTPUT,
    crate::select::UNKNOWN_KERNEL,
];

/// `--arch` names no architecture loomc targets.
pub const UNKNOWN_ARCH: &str = "E0801";

/// The program calls a math function that needs NVIDIA's libdevice, and it cannot be loaded.
pub const LIBDEVICE: &str = "E0802";

/// `--emit=sass` or `--resource-usage` needs NVIDIA's ptxas, cuobjdump or nvdisasm, and it is
/// missing or failed.
pub const NVIDIA_TOOL: &str = "E0803";

/// An output (`-o`) cannot be written: a missing directory, a full disk, a directory named.
pub const OUTPUT: &str = "E0805";

#[derive(Debug, Clone)]
pub enum TargetError {
    UnknownArch {
        arch: String,
        known: Vec<&'static str>,
    },
    /// LLVM could not make a target machine (a broken LLVM build: NVPTX missing).
    NoTargetMachine { arch: String, llvm_message: String },
    /// LLVM's optimiser refused the pipeline or failed.
    OptimiserFailed {
        pipeline: String,
        llvm_message: String,
    },
    /// The NVPTX backend failed to emit PTX.
    EmissionFailed { llvm_message: String },
    /// libdevice is needed (for `function`) but could not be read or linked.
    Libdevice {
        function: String,
        path: Option<String>,
        problem: String,
    },
    /// An NVIDIA tool (`ptxas`, `cuobjdump`, `nvdisasm`) is missing or failed.
    NvidiaTool {
        tool: String,
        problem: String,
        help: String,
    },
}

impl From<TargetError> for Diagnostic {
    fn from(error: TargetError) -> Diagnostic {
        match error {
            TargetError::UnknownArch { arch, known } => {
                Diagnostic::error(UNKNOWN_ARCH, format!("unknown GPU architecture `{arch}`"))
                    .note(format!("loomc targets: {}", known.join(", ")))
                    .help("pass one of them with `--arch`, for example `--arch sm_80`")
            }
            TargetError::NoTargetMachine { arch, llvm_message } => Diagnostic::error(
                INTERNAL_ERROR,
                format!(
                    "LLVM could not create an NVPTX target machine for `{arch}`: {llvm_message}"
                ),
            )
            .note("this is a bug in loomc (or an LLVM built without the NVPTX target)"),
            TargetError::OptimiserFailed {
                pipeline,
                llvm_message,
            } => Diagnostic::error(
                INTERNAL_ERROR,
                format!("LLVM's optimiser failed running `{pipeline}`: {llvm_message}"),
            )
            .note("this is a bug in loomc"),
            TargetError::Libdevice {
                function,
                path,
                problem,
            } => {
                let d = Diagnostic::error(
                    LIBDEVICE,
                    format!("cannot link NVIDIA's libdevice, needed for `{function}`: {problem}"),
                )
                .note("exp, exp2, log, log2, sin, cos, pow and rsqrt come from libdevice.10.bc, which the CUDA toolkit ships (scripts/setup installs it)");
                match path {
                    Some(path) => d.note(format!("libdevice was looked for at `{path}`")),
                    None => d,
                }
                .help(
                    "run scripts/setup, or set LOOM_LIBDEVICE to the path of libdevice.10.bc",
                )
            }
            TargetError::EmissionFailed { llvm_message } => Diagnostic::error(
                INTERNAL_ERROR,
                format!("the NVPTX backend failed to emit PTX: {llvm_message}"),
            )
            .note("this is a bug in loomc"),
            TargetError::NvidiaTool {
                tool,
                problem,
                help,
            } => Diagnostic::error(
                NVIDIA_TOOL,
                format!("cannot run NVIDIA's `{tool}`: {problem}"),
            )
            .note("--emit=sass and --resource-usage assemble the PTX with ptxas and disassemble it with cuobjdump or nvdisasm; loomc does not ship them")
            .help(help),
        }
    }
}
