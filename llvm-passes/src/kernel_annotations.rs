//! Reads and checks `!nvvm.annotations`, the metadata by which NVPTX learns which functions are
//! kernels (`.entry`) and their launch bounds (`.reqntid`, `.maxntid`).
//!
//! LLVM's verifier accepts any metadata here; the NVPTX backend then silently ignores an entry
//! that names no function, and emits a kernel whose bounds no launch can meet. Checking them
//! before emission turns both into findings.

use inkwell::module::Module;
use inkwell::values::{AsValueRef, FunctionValue, MetadataValue};
use llvm_sys::core::{
    LLVMConstIntGetZExtValue, LLVMGetMDNodeNumOperands, LLVMGetMDNodeOperands, LLVMGetMDString,
    LLVMIsAConstantInt, LLVMIsAFunction, LLVMIsAMDString,
};
use llvm_sys::prelude::LLVMValueRef;

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
        let operands = node_operands(node);
        let function = match operands.first() {
            Some(Operand::Function(f)) => Some(*f),
            _ => None,
        };
        // Entries are `{function, key, value, key, value, ...}`.
        for pair in operands.get(1..).unwrap_or(&[]).chunks(2) {
            let key = match pair.first() {
                Some(Operand::Str(s)) => s.clone(),
                _ => String::new(),
            };
            // Textures, surfaces, samplers and managed variables are annotations of global
            // variables, not of kernels: NVPTX reads them, the verifier has nothing to check.
            if OF_GLOBAL_VARIABLES.contains(&key.as_str()) {
                continue;
            }
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
            let value = match pair.get(1) {
                Some(Operand::Int(v)) => Some(*v),
                _ => None,
            };
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

/// The keys of `!nvvm.annotations` entries that name a global variable, not a function.
const OF_GLOBAL_VARIABLES: [&str; 4] = ["texture", "surface", "sampler", "managed"];

/// One operand of an annotation entry, as far as the checks care.
enum Operand<'ctx> {
    Function(FunctionValue<'ctx>),
    Str(String),
    Int(u64),
    /// Anything else, `null` included.
    Other,
}

/// The operands of an annotation entry. inkwell's `get_node_values` wraps a `null` operand
/// (`!{null, !"kernel", i32 1}`) as a value and crashes on it, so they are read here.
fn node_operands<'ctx>(node: MetadataValue<'ctx>) -> Vec<Operand<'ctx>> {
    // SAFETY: `node` is a live metadata node of the module; its operands array has exactly
    // `LLVMGetMDNodeNumOperands` entries, each null or a live value, and only non-null ones are
    // inspected.
    unsafe {
        let raw = node.as_value_ref();
        let count = LLVMGetMDNodeNumOperands(raw) as usize;
        let mut values: Vec<LLVMValueRef> = vec![std::ptr::null_mut(); count];
        LLVMGetMDNodeOperands(raw, values.as_mut_ptr());
        values
            .into_iter()
            .map(|value| {
                if value.is_null() {
                    Operand::Other
                } else if !LLVMIsAFunction(value).is_null() {
                    FunctionValue::new(value).map_or(Operand::Other, Operand::Function)
                } else if !LLVMIsAMDString(value).is_null() {
                    let mut length = 0u32;
                    let text = LLVMGetMDString(value, &mut length);
                    if text.is_null() {
                        Operand::Other
                    } else {
                        let bytes = std::slice::from_raw_parts(text.cast::<u8>(), length as usize);
                        Operand::Str(String::from_utf8_lossy(bytes).into_owned())
                    }
                } else if !LLVMIsAConstantInt(value).is_null() {
                    Operand::Int(LLVMConstIntGetZExtValue(value))
                } else {
                    Operand::Other
                }
            })
            .collect()
    }
}
