//! Diagnostics as data, rendered in one place.
//!
//! Every stage reports problems as its own error enum (`syntax::SyntaxError`,
//! `check::CheckError`, `codegen::CodegenError`), whose variants hold spans and facts. Each enum
//! converts into a [`Diagnostic`] (id, severity, message, labels, notes, help); this module renders
//! diagnostics for people (codespan-reporting) and for tools (JSON, one object per line).

use crate::syntax::span::{FileId, Span};
use codespan_reporting::diagnostic as cs;
use codespan_reporting::files::{Files, SimpleFiles};
use codespan_reporting::term::{self, termcolor::WriteColor};
use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    Note,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Label {
    pub span: Span,
    pub message: String,
    /// The primary label says where the problem is; secondary ones say why.
    pub primary: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Diagnostic {
    /// Stable id such as `E0301`; `docs/errors/<code>.md` explains the ones that need it.
    pub code: &'static str,
    pub severity: Severity,
    pub message: String,
    pub labels: Vec<Label>,
    pub notes: Vec<String>,
    /// A likely fix, rendered as `= help: ...`.
    pub help: Option<String>,
}

impl Diagnostic {
    pub fn error(code: &'static str, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            code,
            severity: Severity::Error,
            message: message.into(),
            labels: vec![],
            notes: vec![],
            help: None,
        }
    }

    pub fn warning(code: &'static str, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, message)
        }
    }

    pub fn primary(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.labels.push(Label {
            span,
            message: message.into(),
            primary: true,
        });
        self
    }

    pub fn secondary(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.labels.push(Label {
            span,
            message: message.into(),
            primary: false,
        });
        self
    }

    pub fn note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }

    pub fn help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// The span of the first primary label, if any.
    pub fn primary_span(&self) -> Option<Span> {
        self.labels.iter().find(|l| l.primary).map(|l| l.span)
    }
}

mod explanations {
    include!(concat!(env!("OUT_DIR"), "/error_docs.rs"));
}

/// The long explanation of a diagnostic code (`docs/errors/<code>.md`), if it has one.
pub fn explanation(code: &str) -> Option<&'static str> {
    explanations::ERROR_DOCS
        .iter()
        .find(|(c, _)| *c == code)
        .map(|(_, text)| *text)
}

/// Codes loomc once gave and no longer does, each with what became of it: `loomc explain`
/// still answers for them, since an old log or an older loomc may show one.
pub const RETIRED_CODES: &[(&str, &str)] = &[
    (
        "E0113",
        "a kernel parameter of type `Range` or a record was rejected before such parameters had \
         a calling convention; they are passed by value as CUDA passes a `struct` now \
         (docs/language.md, \"Kernels and launch\")",
    ),
    (
        "E0810",
        "code generation rejected a construct the checker had accepted (\"not implemented \
         yet\"); whatever the checker accepts is compiled now, and what is not built yet gets a \
         checker diagnostic of its own (docs/language.md, \"What code generation does not do \
         yet\")",
    ),
];

/// What became of a retired code ([`RETIRED_CODES`]).
pub fn retired(code: &str) -> Option<&'static str> {
    RETIRED_CODES
        .iter()
        .find(|(c, _)| *c == code)
        .map(|(_, why)| *why)
}

/// Every code with a long explanation.
pub fn explained_codes() -> impl Iterator<Item = &'static str> {
    explanations::ERROR_DOCS.iter().map(|(code, _)| *code)
}

/// The ids of an internal compiler error: a bug in loomc, never the user's fault.
pub const INTERNAL_ERROR: &str = "E9999";

/// Source files by [`FileId`], for rendering and for line/column look-ups.
pub struct SourceFiles {
    files: SimpleFiles<String, String>,
}

impl Default for SourceFiles {
    fn default() -> Self {
        SourceFiles {
            files: SimpleFiles::new(),
        }
    }
}

impl SourceFiles {
    pub fn add(&mut self, name: impl Into<String>, source: impl Into<String>) -> FileId {
        FileId(self.files.add(name.into(), source.into()) as u32)
    }

    pub fn source(&self, file: FileId) -> &str {
        self.files
            .get(file.0 as usize)
            .map(|f| f.source().as_str())
            .unwrap_or("")
    }

    pub fn name(&self, file: FileId) -> &str {
        self.files
            .get(file.0 as usize)
            .map(|f| f.name().as_str())
            .unwrap_or("<unknown>")
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, file: FileId, offset: u32) -> (usize, usize) {
        let id = file.0 as usize;
        let offset = offset as usize;
        match self.files.location(id, offset) {
            Ok(loc) => (loc.line_number, loc.column_number),
            Err(_) => (1, 1),
        }
    }

    fn to_codespan(&self, diagnostic: &Diagnostic) -> cs::Diagnostic<usize> {
        let severity = match diagnostic.severity {
            Severity::Error => cs::Severity::Error,
            Severity::Warning => cs::Severity::Warning,
            Severity::Note => cs::Severity::Note,
        };
        let labels = diagnostic
            .labels
            .iter()
            .map(|l| {
                let style = if l.primary {
                    cs::LabelStyle::Primary
                } else {
                    cs::LabelStyle::Secondary
                };
                cs::Label::new(style, l.span.file.0 as usize, l.span.range())
                    .with_message(&l.message)
            })
            .collect();
        let mut notes = diagnostic.notes.clone();
        if let Some(help) = &diagnostic.help {
            notes.push(format!("help: {help}"));
        }
        cs::Diagnostic::new(severity)
            .with_code(diagnostic.code)
            .with_message(&diagnostic.message)
            .with_labels(labels)
            .with_notes(notes)
    }

    /// Renders for people, as rustc does: header, source snippet with labels, notes, help.
    pub fn render_human(
        &self,
        diagnostic: &Diagnostic,
        out: &mut dyn WriteColor,
    ) -> std::io::Result<()> {
        let config = term::Config::default();
        term::emit(out, &config, &self.files, &self.to_codespan(diagnostic))
            .map_err(std::io::Error::other)
    }

    /// Renders for tools: the same content as [`Self::render_human`], as one JSON object.
    pub fn render_json(&self, diagnostic: &Diagnostic) -> serde_json::Value {
        let labels: Vec<_> = diagnostic
            .labels
            .iter()
            .map(|l| {
                let (line, column) = self.line_col(l.span.file, l.span.start);
                let (end_line, end_column) = self.line_col(l.span.file, l.span.end);
                serde_json::json!({
                    "file": self.name(l.span.file),
                    "start": l.span.start,
                    "end": l.span.end,
                    "line": line,
                    "column": column,
                    "end_line": end_line,
                    "end_column": end_column,
                    "message": l.message,
                    "primary": l.primary,
                })
            })
            .collect();
        serde_json::json!({
            "code": diagnostic.code,
            "severity": diagnostic.severity,
            "message": diagnostic.message,
            "labels": labels,
            "notes": diagnostic.notes,
            "help": diagnostic.help,
        })
    }
}
