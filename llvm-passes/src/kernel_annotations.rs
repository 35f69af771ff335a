//! Reads and checks `!nvvm.annotations`, the metadata by which NVPTX learns which functions are
//! kernels (`.entry`) and their launch bounds (`.reqntid`, `.maxntid`).
//!
//! LLVM's verifier accepts any metadata here; the NVPTX backend then silently ignores an entry
//! that names no function, and emits a kernel whose bounds no launch can meet. Checking them
//! before emission turns both into findings.

use inkwell::module::Module;
use inkwell::values::{BasicMetadataValueEnum, FunctionValue};

/// The most threads a block may have on every architecture LLVM 19's NVPTX targets.
pub const MAX_THREADS_PER_BLOCK: u64 = 1024;

/// One kernel as the annotations describe it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernelAnnotation {
    pub function: String,
    /// `reqntidx` (exact threads per block in x) if annotated.
    pub required_threads: Option<u64>,
    /// `reqntidy` and `reqntidz`, if annotated.
    pub required_threads_yz: [Option<u64>; 2],
    /// `maxntidx` if annotated.
    pub max_threads: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnnotationProblem {
    /// An annotation's first operand is not a function of this module.
    NotAFunction { key: String },
    /// A kernel must return `void`.
    KernelReturnsValue { function: String },
    /// A thread bound of 0 or above [`MAX_THREADS_PER_BLOCK`].
    ThreadBoundOutOfRange {
        function: String,
        key: String,
        value: u64,
    },
    /// `reqntidx` above `maxntidx`: no launch can satisfy both.
    RequiredAboveMaximum {
        function: String,
        required: u64,
        max: u64,
    },
    /// An annotation key without an integer value.
    MalformedEntry { function: String, key: String },
}

impl std::fmt::Display for AnnotationProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AnnotationProblem::NotAFunction { key } => write!(
                f,
                "nvvm.annotations: `{key}` entry does not name a function"
            ),
            AnnotationProblem::KernelReturnsValue { function } => {
                write!(f, "kernel `{function}` must return void")
            }
            AnnotationProblem::ThreadBoundOutOfRange {
                function,
                key,
                value,
            } => {
                write!(
                    f,
                    "kernel `{function}`: `{key}` is {value}, outside 1..={MAX_THREADS_PER_BLOCK}"
                )
            }
            AnnotationProblem::RequiredAboveMaximum {
                function,
                required,
                max,
            } => {
                write!(
                    f,
                    "kernel `{function}`: reqntidx {required} exceeds maxntidx {max}"
                )
            }
            AnnotationProblem::MalformedEntry { function, key } => {
                write!(
                    f,
                    "kernel `{function}`: annotation `{key}` has no integer value"
                )
            }
        }
    }
}

/// The kernels of `module`, or every problem in its annotations.
pub fn kernel_annotations(
    module: &Module<'_>,
) -> Result<Vec<KernelAnnotation>, Vec<AnnotationProblem>> {
    let mut kernels: Vec<(FunctionValue<'_>, KernelAnnotation)> = Vec::new();
    let mut problems = Vec::new();
    for node in module.get_global_metadata("nvvm.annotations") {
        let operands = node.get_node_values().unwrap_or_default();
        let function = operands.first().and_then(|v| as_function(module, v));
        // Entries are `{function, key, value, key, value, ...}`.
        for pair in operands.get(1..).unwrap_or(&[]).chunks(2) {
            let key = pair.first().and_then(metadata_string).unwrap_or_default();
            let Some(function) = function else {
                problems.push(AnnotationProblem::NotAFunction { key });
                continue;
            };
            let name = function.get_name().to_string_lossy().into_owned();
            let index = match kernels.iter().position(|(f, _)| *f == function) {
                Some(i) => i,
                None => {
                    kernels.push((
                        function,
                        KernelAnnotation {
                            function: name.clone(),
                            required_threads: None,
                            required_threads_yz: [None, None],
                            max_threads: None,
                        },
                    ));
                    kernels.len() - 1
                }
            };
            let value = pair.get(1).and_then(integer);
            let annotation = &mut kernels[index].1;
            match (key.as_str(), value) {
                (_, None) => problems.push(AnnotationProblem::MalformedEntry {
                    function: name,
                    key,
                }),
                ("kernel", Some(_)) => {}
                ("reqntidx", Some(v)) => annotation.required_threads = Some(v),
                ("reqntidy", Some(v)) => annotation.required_threads_yz[0] = Some(v),
                ("reqntidz", Some(v)) => annotation.required_threads_yz[1] = Some(v),
                ("maxntidx", Some(v)) => annotation.max_threads = Some(v),
                // Other keys (reqntidy, minctasm, ...) are NVPTX's business.
                (_, Some(_)) => {}
            }
        }
    }
    for (function, kernel) in &kernels {
        check_kernel(*function, kernel, &mut problems);
    }
    if problems.is_empty() {
        Ok(kernels.into_iter().map(|(_, k)| k).collect())
    } else {
        Err(problems)
    }
}

fn check_kernel(
    function: FunctionValue<'_>,
    kernel: &KernelAnnotation,
    problems: &mut Vec<AnnotationProblem>,
) {
    let name = || kernel.function.clone();
    if function.get_type().get_return_type().is_some() {
        problems.push(AnnotationProblem::KernelReturnsValue { function: name() });
    }
    for (key, bound) in [
        ("reqntidx", kernel.required_threads),
        ("reqntidy", kernel.required_threads_yz[0]),
        ("reqntidz", kernel.required_threads_yz[1]),
        ("maxntidx", kernel.max_threads),
    ] {
        if let Some(value) = bound.filter(|v| *v == 0 || *v > MAX_THREADS_PER_BLOCK) {
            problems.push(AnnotationProblem::ThreadBoundOutOfRange {
                function: name(),
                key: key.to_string(),
                value,
            });
        }
    }
    if let (Some(required), Some(max)) = (kernel.required_threads, kernel.max_threads) {
        if required > max {
            problems.push(AnnotationProblem::RequiredAboveMaximum {
                function: name(),
                required,
                max,
            });
        }
    }
}

fn as_function<'ctx>(
    module: &Module<'ctx>,
    value: &BasicMetadataValueEnum<'ctx>,
) -> Option<FunctionValue<'ctx>> {
    let BasicMetadataValueEnum::PointerValue(pointer) = value else {
        return None;
    };
    let name = pointer.get_name().to_str().ok()?;
    let function = module.get_function(name)?;
    (function.as_global_value().as_pointer_value() == *pointer).then_some(function)
}

fn metadata_string(value: &BasicMetadataValueEnum<'_>) -> Option<String> {
    match value {
        BasicMetadataValueEnum::MetadataValue(m) => m
            .get_string_value()
            .map(|s| String::from_utf8_lossy(s).into_owned()),
        _ => None,
    }
}

fn integer(value: &BasicMetadataValueEnum<'_>) -> Option<u64> {
    match value {
        BasicMetadataValueEnum::IntValue(i) => i.get_zero_extended_constant(),
        _ => None,
    }
}
