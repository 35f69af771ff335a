//! Code generation: a checked program to an LLVM module for `nvptx64-nvidia-cuda`, with NVVM
//! intrinsics for thread and block ids and barriers, and kernels annotated for NVPTX.
//!
//! - `kernel.rs`: a kernel's entry point, calling convention and launch bounds;
//! - `func.rs`: `func`s, as internal `alwaysinline` functions;
//! - `body.rs`: the lowering of one body (scopes, variables, loops, barriers);
//! - `stmt.rs`, `expr.rs`, `memory.rs`: statements, uniform expressions, arrays;
//! - `vector.rs`: block vectors, fusion, register vectors, vector assignment;
//! - `reduce.rs`, `scan.rs`, `warp.rs`: reductions and scans with warp shuffles;
//! - `sync.rs`: the barriers `kir-barriers` placed, emitted at the places code generation
//!   reaches, with their remarks;
//! - `distribute.rs`: dependence tests that spread `for` loops over the block's threads;
//! - `math.rs`: the standard library's math primitives; `debug.rs`: debug locations;
//! - `limits.rs`: the target's launch limits; `remarks.rs`: `--remarks`;
//! - `types.rs`, `intrinsics.rs`: LLVM types and NVVM intrinsics.
//!
//! The kernel IR (`crate::kir`) comes in with the checked program: code generation takes the
//! decisions its passes made (which arrays a kernel writes, which vectors live in registers,
//! how each consumer sweeps a block vector and how each reduction combines, which checked reads
//! share a bounds test).
//!
//! Execution model (design §1): every thread of a block runs the kernel body. Uniform values are
//! computed redundantly by every thread; a uniform store happens once per block (thread 0); a
//! block vector's element `k` is handled by thread `k mod BLOCKSIZE`.

mod atomic;
mod body;
mod debug;
mod distribute;
mod error;
mod expr;
mod func;
mod grid;
mod intrinsics;
mod kernel;
mod limits;
mod math;
mod memory;
mod reduce;
mod remarks;
mod scan;
mod steps;
mod stmt;
mod sync;
mod translate;
pub(crate) mod types;
mod vector;
mod warp;

#[cfg(test)]
pub(crate) mod tests;

use crate::check::{Callee, Checked};
use crate::diagnostics::Diagnostic;
use crate::syntax::ast::{ExprKind, Item};
use crate::target::NvptxTarget;
use inkwell::context::Context;
use inkwell::module::Module;
use inkwell::targets::TargetData;
use inkwell::values::FunctionValue;
use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};

pub use error::{CodegenError, CODES};
pub use intrinsics::Intrinsic;

#[derive(Debug, Clone, Default)]
pub struct CodegenOptions {
    /// Name of the module (the source file's name).
    pub module_name: String,
    /// `--remarks`: collect what barrier placement and loop distribution decided.
    pub remarks: bool,
    /// `-g`/`--lineinfo`: debug locations that reach the PTX (`.file`/`.loc`). Locations are
    /// attached to the IR either way, for the verifier; without this flag the compile unit says
    /// `NoDebug` and the NVPTX backend leaves them out of the PTX.
    pub line_info: bool,
    /// `--fast-math`: fast-math flags on float arithmetic and the fast approximations of the
    /// math library.
    pub fast_math: bool,
    /// Every source file (the user's and the standard library's) by `FileId`: name and text,
    /// for line numbers in debug locations.
    pub sources: Vec<(String, String)>,
}

/// What code generation produced besides the module.
pub struct Lowered<'ctx> {
    pub module: Module<'ctx>,
    /// `--remarks`, as note-level diagnostics in source order (empty without the flag).
    pub remarks: Vec<Diagnostic>,
}

/// What every body's lowering shares: the module, the checker's facts, types, declared `func`s.
pub struct Cx<'a, 'ctx> {
    pub context: &'ctx Context,
    pub module: &'a Module<'ctx>,
    pub checked: &'a Checked,
    /// The kernel IR after its passes: the decisions code generation takes from there.
    pub kir: &'a crate::kir::Module,
    pub options: &'a CodegenOptions,
    pub target_data: TargetData,
    pub arch: String,
    pub types: types::Types<'ctx>,
    pub resolver: RefCell<types::TypeResolver>,
    /// `func`s by item index, declared before any body is lowered.
    pub funcs: HashMap<usize, FunctionValue<'ctx>>,
    /// Copies of `func`s specialised for `shared` array arguments, declared at their first call
    /// (`func::Variant`), and those whose bodies are still to be lowered.
    pub func_variants: RefCell<HashMap<(usize, func::Variant), FunctionValue<'ctx>>>,
    pub pending_variants: RefCell<Vec<(usize, FunctionValue<'ctx>)>>,
    pub debug: Option<debug::DebugInfo<'ctx>>,
    pub remarks: RefCell<Vec<remarks::Remark>>,
}

/// Each kernel's shared arrays (`kir-shared-memory`) against `arch`'s static limit: `E0812`,
/// before any code is generated.
pub fn shared_memory_limits(kir: &crate::kir::Module, arch: &str) -> Vec<Diagnostic> {
    kir.kernels
        .iter()
        .filter_map(|k| limits::shared_memory(k, arch))
        .map(Diagnostic::from)
        .collect()
}

/// Lowers every kernel (and the `func`s they call) of `checked` into one module, verified.
pub fn lower<'ctx>(
    context: &'ctx Context,
    checked: &Checked,
    kir: &crate::kir::Module,
    target: &NvptxTarget,
    options: &CodegenOptions,
) -> Result<Module<'ctx>, Vec<Diagnostic>> {
    let lowered = lower_unverified(context, checked, kir, target, options)?;
    verify(&lowered.module).map_err(|d| vec![d])?;
    Ok(lowered.module)
}

/// [`lower`] without LLVM's verifier, so that a broken module can still be printed; with the
/// remarks.
pub fn lower_unverified<'ctx>(
    context: &'ctx Context,
    checked: &Checked,
    kir: &crate::kir::Module,
    target: &NvptxTarget,
    options: &CodegenOptions,
) -> Result<Lowered<'ctx>, Vec<Diagnostic>> {
    // `kir-recomputed-vectors`: each use of a run-time-length vector variable is its
    // initializer, substituted before anything below reads the program.
    let substituted =
        crate::kir::substitute_recomputed_vectors(checked, kir).map_err(|message| {
            vec![Diagnostic::from(CodegenError::Internal {
                message,
                span: None,
            })]
        })?;
    let checked = substituted.as_ref().unwrap_or(checked);
    let module = context.create_module(&options.module_name);
    target.configure(&module);
    let mut errors: Vec<CodegenError> = Vec::new();
    let debug = debug::DebugInfo::new(&module, options);
    let mut cx = Cx {
        context,
        module: &module,
        checked,
        kir,
        options,
        target_data: target.target_data(),
        arch: target.arch.clone(),
        types: types::Types::new(context),
        resolver: RefCell::new(types::TypeResolver::new(&checked.program, &checked.records)),
        funcs: HashMap::new(),
        func_variants: RefCell::new(HashMap::new()),
        pending_variants: RefCell::new(Vec::new()),
        debug: Some(debug),
        remarks: RefCell::new(Vec::new()),
    };
    cx.remarks
        .borrow_mut()
        .extend(remarks::recomputed_vectors(kir));
    cx.remarks
        .borrow_mut()
        .extend(remarks::scratch_rows(checked));
    let used = used_funcs(checked);
    for &item in &used {
        let Some(Item::Func(decl)) = checked.program.items.get(item) else {
            continue;
        };
        match func::declare(&cx, decl, &func_symbol(checked, item), &[]) {
            Ok(function) => {
                cx.funcs.insert(item, function);
            }
            Err(e) => errors.push(e),
        }
    }
    for &item in &used {
        let (Some(Item::Func(decl)), Some(function)) =
            (checked.program.items.get(item), cx.funcs.get(&item))
        else {
            continue;
        };
        if let Err(e) = func::FuncLowering::new(&cx, decl, *function).run() {
            errors.push(e);
        }
    }
    for facts in &checked.kernels {
        let Some(Item::Kernel(decl)) = checked.program.items.get(facts.item) else {
            errors.push(CodegenError::Internal {
                message: format!("kernel `{}` is not an item", facts.name),
                span: None,
            });
            continue;
        };
        if let Err(e) = kernel::KernelLowering::new(&cx, facts, decl).run() {
            errors.push(e);
        }
    }
    // The specialised copies the bodies above called; lowering one may call for more.
    loop {
        let next = cx.pending_variants.borrow_mut().pop();
        let Some((item, function)) = next else { break };
        let Some(Item::Func(decl)) = checked.program.items.get(item) else {
            continue;
        };
        if let Err(e) = func::FuncLowering::new(&cx, decl, function).run() {
            errors.push(e);
        }
    }
    if let Some(debug) = &cx.debug {
        debug.finalize();
    }
    let mut remarks = cx.remarks.take();
    drop(cx);
    if !errors.is_empty() {
        return Err(errors.into_iter().map(Diagnostic::from).collect());
    }
    let module = if options.line_info {
        debug::with_directives_only(module).map_err(|message| {
            vec![Diagnostic::from(CodegenError::Internal {
                message: format!("re-reading the module with line information: {message}"),
                span: None,
            })]
        })?
    } else {
        module
    };
    remarks.sort_by_key(remarks::Remark::order);
    let remarks = if options.remarks {
        remarks.into_iter().map(Diagnostic::from).collect()
    } else {
        Vec::new()
    };
    Ok(Lowered { module, remarks })
}

/// LLVM's verifier; a failure is a loomc bug.
pub fn verify(module: &Module<'_>) -> Result<(), Diagnostic> {
    module.verify().map_err(|e| {
        CodegenError::InvalidModule {
            llvm_message: e.to_string(),
        }
        .into()
    })
}

impl<'ctx> Cx<'_, 'ctx> {
    /// The function to call for `func` number `item` with these argument values: the func as
    /// declared, or (an array argument being `shared`) its copy specialised for that, declared
    /// now and lowered after the kernels.
    pub fn func_for(
        &self,
        item: usize,
        values: &[inkwell::values::BasicValueEnum<'ctx>],
        span: crate::syntax::span::Span,
    ) -> Result<FunctionValue<'ctx>, CodegenError> {
        let declared = self.funcs.get(&item).copied().ok_or_else(|| {
            CodegenError::internal("call to a `func` that was not declared", span)
        })?;
        let shared = inkwell::AddressSpace::from(types::SHARED);
        let variant: func::Variant = values
            .iter()
            .map(|v| match v {
                inkwell::values::BasicValueEnum::StructValue(s) => {
                    s.get_type().get_field_type_at_index(0).is_some_and(|t| {
                        t.is_pointer_type() && t.into_pointer_type().get_address_space() == shared
                    })
                }
                _ => false,
            })
            .collect();
        if !variant.contains(&true) {
            return Ok(declared);
        }
        if let Some(f) = self.func_variants.borrow().get(&(item, variant.clone())) {
            return Ok(*f);
        }
        let Some(Item::Func(decl)) = self.checked.program.items.get(item) else {
            return Err(CodegenError::internal("a `func` that is not an item", span));
        };
        let symbol = func::variant_symbol(&func_symbol(self.checked, item), &variant);
        let function = func::declare(self, decl, &symbol, &variant)?;
        self.func_variants
            .borrow_mut()
            .insert((item, variant), function);
        self.pending_variants.borrow_mut().push((item, function));
        Ok(function)
    }
}

/// The LLVM name of a `func`: `loom.func.` and its own name, with the item index when it is
/// overloaded. No user name can collide with it: LOOM names have no `.`, while the names that
/// share the module with funcs do not start with `loom.func.` (libdevice's `__nv_*`, LLVM's
/// intrinsics, the CPU backend's runtime, kernels). A func called `__nv_sinf` once replaced
/// libdevice's, and so the standard library's `sin`.
fn func_symbol(checked: &Checked, item: usize) -> String {
    let name = &checked.program.items[item].name().name;
    let overloaded = checked.program.items.iter().enumerate().any(|(i, other)| {
        i != item && matches!(other, Item::Func(_)) && other.name().name == *name
    });
    if overloaded {
        format!("loom.func.{name}.{item}")
    } else {
        format!("loom.func.{name}")
    }
}

/// The `func`s the kernels call, directly or through other `func`s (item indices, sorted).
fn used_funcs(checked: &Checked) -> BTreeSet<usize> {
    let mut used = BTreeSet::new();
    let mut work: Vec<usize> = checked.kernels.iter().map(|k| k.item).collect();
    while let Some(item) = work.pop() {
        let mut found = Vec::new();
        let mut note = |e: &crate::syntax::ast::Expr| {
            if matches!(e.kind, ExprKind::Call { .. } | ExprKind::Collective { .. }) {
                if let Some(Callee::Func(f)) = checked.callees.get(&e.id) {
                    found.push(*f);
                }
            }
        };
        match checked.program.items.get(item) {
            Some(Item::Kernel(k)) => {
                k.params
                    .iter()
                    .for_each(|p| crate::syntax::visit::visit_type_dims(&p.ty, &mut note));
                crate::syntax::visit::visit_block(&k.body, &mut note);
            }
            Some(Item::Func(f)) => crate::syntax::visit::visit_block(&f.body, &mut note),
            _ => {}
        }
        for f in found {
            if used.insert(f) {
                work.push(f);
            }
        }
    }
    used
}
