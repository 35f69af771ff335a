//! Source positions. Every AST node carries a [`Span`]; diagnostics point at spans.

use serde::{Deserialize, Serialize};

/// Which source file a span belongs to: an index into the driver's file table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct FileId(pub u32);

/// A half-open byte range `[start, end)` in one source file.
///
/// Compiler-made nodes (for example the implicit `else` of a one-armed `if`) use
/// [`Span::synthetic`], which points at an empty range at the start of the file that made them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Span {
    pub file: FileId,
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(file: FileId, start: usize, end: usize) -> Span {
        // Sources larger than 4 GiB are rejected by the driver before parsing.
        Span {
            file,
            start: start as u32,
            end: end as u32,
        }
    }

    pub fn synthetic(file: FileId) -> Span {
        Span {
            file,
            start: 0,
            end: 0,
        }
    }

    /// The smallest span covering both `self` and `other` (same file).
    pub fn to(self, other: Span) -> Span {
        Span {
            file: self.file,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
}
