//! W0600, a racy read-modify-write of global memory (`check/racy_update.rs` finds them), as
//! data.

use crate::diagnostics::Diagnostic;
use crate::syntax::span::Span;

pub const CODE: &str = "W0600";

#[derive(Debug, Clone, PartialEq)]
pub struct RacyUpdate {
    /// The assignment.
    pub span: Span,
    /// The read of the same element on its right side.
    pub read: Span,
    pub array: String,
    /// The atomic statement that does the same, when the update has its shape.
    pub atomic: Option<String>,
}

impl RacyUpdate {
    pub fn into_diagnostic(self) -> Diagnostic {
        let array = &self.array;
        let d = Diagnostic::warning(
            CODE,
            format!("other blocks may update the same element of `{array}` at the same time"),
        )
        .primary(
            self.span,
            "a read-modify-write of global memory that is not this block's own",
        )
        .secondary(self.read, "read here, written back by the same statement")
        .note("blocks run concurrently: when two of them read, change and store one element, one update is lost. Only elements indexed through `B` without reading memory (`out[B]`, `y[[block(B)]]`) belong to one block");
        match self.atomic {
            Some(atomic) => d.help(format!("use the atomic form: `{atomic}`")),
            None => d.help("use an atomic read-modify-write (`atomic_add`, `atomic_max`, ..., or a loop on `atomic_cas`)"),
        }
    }
}
