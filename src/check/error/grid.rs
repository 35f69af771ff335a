//! The diagnostics of grid-wide collectives (E0700-E0703; `check/grid.rs` decides), as data.

use crate::diagnostics::Diagnostic;
use crate::syntax::ast::CollectiveOp;
use crate::syntax::span::Span;

/// Why a `grid(...)` cannot stand where it is (E0700).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement {
    /// Not the operand of `/.` or `/:`.
    NotAnOperand,
    /// The operand of a map or a right scan.
    WrongCollective(CollectiveOp),
    /// A grid reduce that is not the whole value of a store into one array element.
    ReduceNotStored,
    /// A grid scan outside a vector store (or scatter).
    ScanNotStored,
    /// A grid collective inside another collective's operand.
    Nested,
    /// A second grid collective, or another scan, in the statement.
    NotAlone,
    /// Inside a `func`.
    InFunc,
    /// A vector variable or `shared` array in the statement: it holds this block's elements
    /// only, where the statement's positions run over the whole grid.
    BlockLocal,
}

/// What is wrong with the scratch argument (E0702).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScratchProblem {
    NotAParameter,
    WrongType,
    WrongLength,
    /// Used by another grid statement or read or written elsewhere in the kernel.
    UsedElsewhere,
}

#[derive(Debug, Clone, PartialEq)]
pub enum GridError {
    Placement {
        span: Span,
        reason: Placement,
    },
    /// A grid statement under `if`, `for` or `while`, or in a kernel that may `return`.
    NotEveryBlock {
        span: Span,
        because: Span,
        returns: bool,
    },
    Scratch {
        span: Span,
        problem: ScratchProblem,
        other: Option<Span>,
        ty: String,
    },
    ElementType {
        span: Span,
        ty: String,
    },
}

impl GridError {
    pub fn code(&self) -> &'static str {
        match self {
            GridError::Placement { .. } => "E0700",
            GridError::NotEveryBlock { .. } => "E0701",
            GridError::Scratch { .. } => "E0702",
            GridError::ElementType { .. } => "E0703",
        }
    }

    pub fn into_diagnostic(self) -> Diagnostic {
        let code = self.code();
        match self {
            GridError::Placement { span, reason } => {
                let (message, label, help) = match reason {
                    Placement::NotAnOperand => (
                        "`grid(...)` is only the operand of a reduce or a left scan",
                        "not the operand of `/.` or `/:`",
                        "write `f /. grid(v, scratch)` or `f /: grid(v, scratch)`",
                    ),
                    Placement::WrongCollective(CollectiveOp::ScanRight) => (
                        "a right scan cannot be grid-wide",
                        "the operand of `:/`",
                        "blocks publish their prefixes in ticket order, from the first element; scan the reversed vector with `/:` instead",
                    ),
                    Placement::WrongCollective(_) => (
                        "a map cannot be grid-wide",
                        "the operand of `/~`",
                        "a map is elementwise already: map inside the grid collective, `f /: grid(g /~ v, scratch)`",
                    ),
                    Placement::ReduceNotStored => (
                        "a grid-wide reduce must be the whole value of a store into one array element",
                        "only the block that finishes the grid knows the result",
                        "store it: `total[0] <- f /. grid(v, scratch)`",
                    ),
                    Placement::ScanNotStored => (
                        "a grid-wide scan must stand in a vector store",
                        "each block computes only its own part of the scan",
                        "store it: `y <- f /: grid(v, scratch)`, or use it in a scatter's indices",
                    ),
                    Placement::Nested => (
                        "a grid-wide collective cannot stand inside another collective",
                        "inside the operand of another collective",
                        "store the grid-wide result in an array first",
                    ),
                    Placement::NotAlone => (
                        "a statement may hold one grid-wide collective and no other scan",
                        "a second scan in a grid-wide statement",
                        "split the statement: store one scan in an array, then use it",
                    ),
                    Placement::BlockLocal => (
                        "a grid-wide statement reads global arrays only",
                        "a vector variable or `shared` array holds this block's elements only",
                        "read the kernel's array parameters: the statement's positions run over the whole grid",
                    ),
                    Placement::InFunc => (
                        "`grid(...)` cannot stand in a `func`",
                        "funcs are element-level code",
                        "use it in the kernel",
                    ),
                };
                Diagnostic::error(code, message)
                    .primary(span, label)
                    .help(help)
            }
            GridError::NotEveryBlock {
                span,
                because,
                returns,
            } => {
                let d = Diagnostic::error(code, "every block must reach a grid-wide statement exactly once")
                    .primary(span, "a grid-wide collective");
                let d = if returns {
                    d.secondary(because, "a block that returns never reaches it")
                } else {
                    d.secondary(because, "inside this statement: some blocks may skip it, or reach it more than once")
                };
                d.note("the blocks of a grid-wide collective count each other through its scratch array: one that never arrives leaves it unreset for the next launch, one that arrives twice reuses a counter not yet reset")
                    .help("put the statement at the top level of a kernel without `return`")
            }
            GridError::Scratch {
                span,
                problem,
                other,
                ty,
            } => {
                let (message, label) = match problem {
                    ScratchProblem::NotAParameter => (
                        "the scratch array of `grid` must be a kernel array parameter".to_string(),
                        "not a kernel parameter".to_string(),
                    ),
                    ScratchProblem::WrongType => (
                        "the scratch array of `grid` must have the type `UInt64[BLOCKS + 2]`".to_string(),
                        format!("this is `{ty}`"),
                    ),
                    ScratchProblem::WrongLength => (
                        "the scratch array of `grid` must have `BLOCKS + 2` elements".to_string(),
                        "declared with another length".to_string(),
                    ),
                    ScratchProblem::UsedElsewhere => (
                        "the scratch array of a grid-wide collective is its own: nothing else may use it".to_string(),
                        "used here".to_string(),
                    ),
                };
                let d = Diagnostic::error(code, message).primary(span, label);
                let d = match other {
                    Some(o) => d.secondary(o, "and here"),
                    None => d,
                };
                d.note("a kernel cannot allocate global memory: the host passes the scratch array, zeroed before the first launch; every launch leaves it zeroed again")
                    .help("add a parameter `scratch: UInt64[BLOCKS + 2]`, one per grid-wide statement")
            }
            GridError::ElementType { span, ty } => Diagnostic::error(
                code,
                format!("a grid-wide collective of `{ty}` elements is not supported"),
            )
            .primary(span, "elements wider than 32 bits, or not a number")
            .note("each block publishes its aggregate and a flag together in one 64-bit word, so that another block never reads one without the other")
            .help("reduce or scan a 32-bit (or narrower) numeric or `Bool` vector"),
        }
    }
}
