//! Debug locations: every instruction loomc emits carries the line and column of the LOOM
//! expression it comes from (an access, an operator's symbol, a call: `Expr::point`), or of its
//! statement for what belongs to the statement (a store, a loop).
//!
//! The locations are always attached, so that the verifier, which runs on the IR, can report in
//! source terms. Whether they reach the PTX is the compile unit's emission kind: with `-g` /
//! `--lineinfo` it is `LineTablesOnly`, and the NVPTX backend writes `.file` and `.loc`
//! directives (what `cuda-gdb`, `compute-sanitizer` and Nsight map back to the `.loom` source);
//! without it, `NoDebug`, and the PTX has no debug directives at all.
//!
//! `LineTablesOnly` would make the NVPTX backend declare `.target sm_XX, debug` and write DWARF
//! sections, which turns ptxas's optimiser off (as `nvcc -G` does): twice the registers and
//! five times the instructions for a reduction. What `nvcc -lineinfo` produces, `.loc` lines
//! in fully optimised code, is LLVM's `DebugDirectivesOnly` kind, which the LLVM-C API (and so
//! inkwell) cannot name; [`with_directives_only`] rewrites the kind in the module's text and
//! parses it back.

use super::CodegenOptions;
use crate::syntax::span::Span;
use inkwell::context::ContextRef;
use inkwell::debug_info::{
    AsDIScope, DICompileUnit, DIFile, DIFlags, DIFlagsConstants, DILocation, DISubprogram,
    DWARFEmissionKind, DWARFSourceLanguage, DebugInfoBuilder,
};
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::module::{FlagBehavior, Module};

pub struct DebugInfo<'ctx> {
    context: ContextRef<'ctx>,
    builder: DebugInfoBuilder<'ctx>,
    unit: DICompileUnit<'ctx>,
    /// By `FileId`.
    files: Vec<DIFile<'ctx>>,
    /// Byte offsets of line starts, by `FileId`.
    lines: Vec<Vec<u32>>,
    sources: Vec<String>,
}

impl<'ctx> DebugInfo<'ctx> {
    pub fn new(module: &Module<'ctx>, options: &CodegenOptions) -> DebugInfo<'ctx> {
        let context = module.get_context();
        let i32t = context.i32_type();
        module.add_basic_value_flag(
            "Debug Info Version",
            FlagBehavior::Warning,
            i32t.const_int(3, false),
        );
        module.add_basic_value_flag(
            "Dwarf Version",
            FlagBehavior::Warning,
            i32t.const_int(2, false),
        );
        let kind = if options.line_info {
            DWARFEmissionKind::LineTablesOnly
        } else {
            DWARFEmissionKind::None
        };
        let main = options
            .sources
            .first()
            .map(|(name, _)| name.as_str())
            .unwrap_or(options.module_name.as_str());
        let (builder, unit) = module.create_debug_info_builder(
            true,
            DWARFSourceLanguage::C,
            main,
            "",
            "loomc",
            true,
            "",
            0,
            "",
            kind,
            0,
            false,
            false,
            "",
            "",
        );
        let files = options
            .sources
            .iter()
            .map(|(name, _)| builder.create_file(name, ""))
            .collect();
        let lines = options
            .sources
            .iter()
            .map(|(_, text)| {
                std::iter::once(0)
                    .chain(
                        text.bytes()
                            .enumerate()
                            .filter(|(_, b)| *b == b'\n')
                            .map(|(i, _)| i as u32 + 1),
                    )
                    .collect()
            })
            .collect();
        let sources = options.sources.iter().map(|(_, t)| t.clone()).collect();
        DebugInfo {
            context,
            builder,
            unit,
            files,
            lines,
            sources,
        }
    }

    fn file(&self, span: Span) -> DIFile<'ctx> {
        self.files
            .get(span.file.0 as usize)
            .copied()
            .unwrap_or_else(|| self.unit.get_file())
    }

    /// 1-based line and column (in characters) of a span's start.
    pub fn line_col(&self, span: Span) -> (u32, u32) {
        let Some(lines) = self.lines.get(span.file.0 as usize) else {
            return (1, 1);
        };
        let line = lines.partition_point(|start| *start <= span.start).max(1);
        let start = lines[line - 1] as usize;
        let column = self
            .sources
            .get(span.file.0 as usize)
            .and_then(|text| text.get(start..span.start as usize))
            .map_or(1, |prefix| prefix.chars().count() + 1);
        (line as u32, column as u32)
    }

    /// The subprogram of a kernel or `func` named `name`, declared at `span`.
    pub fn subprogram(&self, name: &str, span: Span) -> DISubprogram<'ctx> {
        let file = self.file(span);
        let (line, _) = self.line_col(span);
        let ty = self
            .builder
            .create_subroutine_type(file, None, &[], DIFlags::ZERO);
        self.builder.create_function(
            file.as_debug_info_scope(),
            name,
            None,
            file,
            line,
            ty,
            false,
            true,
            line,
            DIFlags::ZERO,
            true,
        )
    }

    pub fn location(&self, span: Span, scope: DISubprogram<'ctx>) -> DILocation<'ctx> {
        let (line, column) = self.line_col(span);
        self.builder.create_debug_location(
            self.context,
            line,
            column,
            scope.as_debug_info_scope(),
            None,
        )
    }

    pub fn finalize(&self) {
        self.builder.finalize();
    }
}

/// The module with its compile unit's emission kind changed from `LineTablesOnly` to
/// `DebugDirectivesOnly` (see the module comment).
pub fn with_directives_only<'ctx>(module: Module<'ctx>) -> Result<Module<'ctx>, String> {
    let text = module.print_to_string().to_string().replace(
        "emissionKind: LineTablesOnly",
        "emissionKind: DebugDirectivesOnly",
    );
    let name = module.get_name().to_string_lossy().into_owned();
    let context = module.get_context();
    let buffer = MemoryBuffer::create_from_memory_range_copy(text.as_bytes(), &name);
    context
        .create_module_from_ir(buffer)
        .map_err(|e| e.to_string())
}
