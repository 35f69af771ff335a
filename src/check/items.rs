//! Items: the global namespace, the standard library's overloads, type aliases and signatures.

use super::atomic_op::AtomicOp;
use super::ctx::{BodyKind, FnCtx};
use super::error::{CheckError, TypeContext};
use super::scope::{suggest, BLOCK_CONSTANTS};
use super::types::{RecordField, Scalar, Ty};
use super::{Checker, KernelFacts, Signature};
use crate::syntax::ast::{FieldType, Item, Program, TypeExpr};
use crate::syntax::span::Span;
use std::collections::HashMap;

/// The builtin functions besides the atomics (`AtomicOp::NAMES`).
const BUILTINS: [&str; 5] = ["block", "range", "select", "transpose", "grid"];

/// Every builtin function's name: names that no item, parameter or variable may take.
pub(super) fn builtin_funcs() -> impl Iterator<Item = &'static str> {
    BUILTINS.into_iter().chain(AtomicOp::NAMES)
}

pub(super) fn is_reserved(name: &str) -> bool {
    BLOCK_CONSTANTS.contains(&name)
        || builtin_funcs().any(|b| b == name)
        || name == "Range"
        || Scalar::from_name(name).is_some()
}

#[derive(Debug, Clone, PartialEq)]
pub(super) enum AliasState {
    Unresolved,
    InProgress,
    Done(Ty),
}

/// What a name in the item namespace refers to.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Lookup {
    One(usize),
    /// Standard-library funcs overloaded by parameter types.
    Overloads(Vec<usize>),
}

pub(super) struct ItemTable {
    /// `program.items[stdlib_start..]` come from the standard library.
    pub stdlib_start: usize,
    /// The first user item of each name.
    user: HashMap<String, usize>,
    /// Every standard-library item of each name (overloads).
    stdlib: HashMap<String, Vec<usize>>,
}

impl ItemTable {
    pub fn new(stdlib_start: usize) -> ItemTable {
        ItemTable {
            stdlib_start,
            user: HashMap::new(),
            stdlib: HashMap::new(),
        }
    }

    pub fn is_stdlib(&self, item: usize) -> bool {
        item >= self.stdlib_start
    }

    /// Resolves an item name as seen from user code (`from_stdlib == false`: user items hide
    /// library ones) or from the library (which sees only itself).
    pub fn lookup(&self, name: &str, from_stdlib: bool) -> Option<Lookup> {
        if !from_stdlib {
            if let Some(&i) = self.user.get(name) {
                return Some(Lookup::One(i));
            }
        }
        match self.stdlib.get(name) {
            Some(v) if v.len() == 1 => v.first().map(|&i| Lookup::One(i)),
            Some(v) if !v.is_empty() => Some(Lookup::Overloads(v.clone())),
            _ => None,
        }
    }

    /// Every item name visible from user or library code, for suggestions.
    pub fn names(&self, from_stdlib: bool) -> Vec<&str> {
        let mut names: Vec<&str> = self.stdlib.keys().map(String::as_str).collect();
        if !from_stdlib {
            names.extend(self.user.keys().map(String::as_str));
        }
        names.sort_unstable();
        names
    }
}

impl Checker<'_> {
    pub(super) fn collect_items(&mut self) {
        let program = self.program;
        for (i, item) in program.items.iter().enumerate() {
            let name = item.name();
            if is_reserved(&name.name) {
                self.error(CheckError::ReservedName {
                    name: name.name.clone(),
                    span: name.span,
                });
                continue;
            }
            if self.items.is_stdlib(i) {
                let overloads = self.items.stdlib.entry(name.name.clone()).or_default();
                // Library overloads may share a name; identical signatures are caught below.
                overloads.push(i);
                continue;
            }
            match self.items.user.get(&name.name) {
                Some(&first) => {
                    let first = program
                        .items
                        .get(first)
                        .map(|f| f.name().span)
                        .unwrap_or(name.span);
                    self.error(CheckError::DuplicateItem {
                        name: name.name.clone(),
                        span: name.span,
                        first,
                    });
                }
                None => {
                    self.items.user.insert(name.name.clone(), i);
                }
            }
        }
        // Library names that are not funcs, or overloads with the same parameters, are bugs in
        // the library; report them like user duplicates so that they are found.
        let mut dups = Vec::new();
        for indices in self.items.stdlib.values() {
            for (k, &i) in indices.iter().enumerate() {
                if let Some(&first) = indices[..k]
                    .iter()
                    .find(|&&j| same_param_types(program, i, j))
                {
                    dups.push((i, first));
                }
            }
        }
        for (i, first) in dups {
            if let (Some(item), Some(first)) = (program.items.get(i), program.items.get(first)) {
                self.error(CheckError::DuplicateItem {
                    name: item.name().name.clone(),
                    span: item.name().span,
                    first: first.name().span,
                });
            }
        }
    }

    pub(super) fn resolve_aliases(&mut self) {
        for i in 0..self.program.items.len() {
            if matches!(self.program.items.get(i), Some(Item::TypeAlias(_))) {
                self.alias_type(i);
            }
        }
    }

    /// The type an alias names, resolving it (and the aliases it uses) on first use.
    fn alias_type(&mut self, item: usize) -> Ty {
        let program = self.program;
        let Some(Item::TypeAlias(alias)) = program.items.get(item) else {
            return Ty::Error;
        };
        match self.aliases.get(item) {
            Some(AliasState::Done(ty)) => return ty.clone(),
            Some(AliasState::InProgress) => {
                self.error(CheckError::RecursiveAlias {
                    name: alias.name.name.clone(),
                    span: alias.name.span,
                });
                if let Some(state) = self.aliases.get_mut(item) {
                    *state = AliasState::Done(Ty::Error);
                }
                return Ty::Error;
            }
            _ => {}
        }
        if let Some(state) = self.aliases.get_mut(item) {
            *state = AliasState::InProgress;
        }
        let from_stdlib = self.items.is_stdlib(item);
        let ty = self.plain_type(&alias.ty, TypeContext::TypeAlias, from_stdlib);
        let state = self.aliases.get_mut(item);
        match state {
            // A cycle through this alias was reported while resolving it.
            Some(AliasState::Done(_)) => Ty::Error,
            Some(state) => {
                *state = AliasState::Done(ty.clone());
                ty
            }
            None => ty,
        }
    }

    /// A named type: a primitive or an alias.
    pub(super) fn named_type(&mut self, name: &str, span: Span, from_stdlib: bool) -> Ty {
        if let Some(s) = Scalar::from_name(name) {
            return Ty::Scalar(s);
        }
        if name == "Range" {
            return Ty::Range;
        }
        if let Some(super::items::Lookup::One(i)) = self.items.lookup(name, from_stdlib) {
            if matches!(self.program.items.get(i), Some(Item::TypeAlias(_))) {
                return self.alias_type(i);
            }
        }
        let mut candidates: Vec<&str> = Scalar::ALL.iter().map(|s| s.name()).collect();
        candidates.push("Range");
        let program = self.program;
        for n in self.items.names(from_stdlib) {
            if let Some(Lookup::One(i)) = self.items.lookup(n, from_stdlib) {
                if matches!(program.items.get(i), Some(Item::TypeAlias(_))) {
                    candidates.push(n);
                }
            }
        }
        let suggestion = suggest(name, candidates);
        self.error(CheckError::UnknownType {
            name: name.to_string(),
            span,
            suggestion,
        });
        Ty::Error
    }

    /// A type that is not an array: scalars, Range, records and aliases of them. `context` says
    /// what an array would have been, for the error.
    pub(super) fn plain_type(
        &mut self,
        texpr: &TypeExpr,
        context: TypeContext,
        from_stdlib: bool,
    ) -> Ty {
        match texpr {
            TypeExpr::Named { name } => self.named_type(&name.name, name.span, from_stdlib),
            TypeExpr::Record { fields, .. } => self.record_type(fields, from_stdlib),
            TypeExpr::Array { span, .. } => {
                self.error(CheckError::TypeNotAllowed {
                    span: *span,
                    ty: None,
                    context,
                });
                Ty::Error
            }
        }
    }

    fn record_type(&mut self, fields: &[FieldType], from_stdlib: bool) -> Ty {
        let mut resolved: Vec<RecordField> = Vec::new();
        let mut seen: Vec<(&str, Span)> = Vec::new();
        let mut ok = true;
        for field in fields {
            if let Some((_, first)) = seen.iter().find(|(n, _)| *n == field.name.name) {
                self.error(CheckError::DuplicateField {
                    name: field.name.name.clone(),
                    span: field.name.span,
                    first: *first,
                });
                ok = false;
                continue;
            }
            seen.push((&field.name.name, field.name.span));
            let ty = self.plain_type(&field.ty, TypeContext::RecordField, from_stdlib);
            ok &= !ty.is_error();
            resolved.push(RecordField {
                name: field.name.name.clone(),
                ty,
            });
        }
        if ok {
            Ty::Record(self.records.intern(resolved))
        } else {
            Ty::Error
        }
    }

    /// The block size of a kernel: its `@blocksize(N)` or `@blocksize(R, C)` (`R * C`
    /// threads), else `--block-size`; and the block's rows (`R`, or 1).
    fn block_size(&mut self, item: usize) -> (u32, u32, super::error::BlockSizeSource) {
        use super::error::BlockSizeSource;
        let default = (self.options.block_size, 1, BlockSizeSource::Option);
        let Some(Item::Kernel(kernel)) = self.program.items.get(item) else {
            return default;
        };
        match &kernel.block_size {
            Some(attr) if (1..=1024).contains(&attr.total()) && attr.rows() >= 1 => (
                attr.total() as u32,
                attr.rows() as u32,
                BlockSizeSource::Attribute(attr.span),
            ),
            // A zero was reported by the parser already.
            Some(attr) if attr.total() == 0 => default,
            Some(attr) => {
                self.error(CheckError::BlockSizeRange {
                    span: attr.span,
                    value: attr.total(),
                });
                default
            }
            None => default,
        }
    }

    pub(super) fn resolve_signatures(&mut self) {
        let program = self.program;
        for (i, item) in program.items.iter().enumerate() {
            match item {
                Item::Func(func) => {
                    let from_stdlib = self.items.is_stdlib(i);
                    let ret = match &func.ret {
                        Some(t) => self.plain_type(t, TypeContext::FuncResult, from_stdlib),
                        None => Ty::Unit,
                    };
                    let kind = BodyKind::Func {
                        ret: ret.clone(),
                        ret_span: func.ret.as_ref().map(TypeExpr::span),
                        decl: func.name.span,
                    };
                    let mut cx = FnCtx::new(self, i, kind);
                    let params = cx.params(&func.params, false);
                    let sig = Signature {
                        params,
                        ret,
                        ret_span: func.ret.as_ref().map(TypeExpr::span),
                    };
                    if let Some(slot) = self.sigs.get_mut(i) {
                        *slot = Some(sig);
                    }
                }
                Item::Kernel(kernel) => {
                    let (block_size, block_rows, source) = self.block_size(i);
                    self.kernels.push(KernelFacts {
                        item: i,
                        name: kernel.name.name.clone(),
                        block_size,
                        block_rows,
                    });
                    let kind = BodyKind::Kernel {
                        block_size,
                        block_rows,
                        source,
                        pow2_reported: false,
                    };
                    let mut cx = FnCtx::new(self, i, kind);
                    let params = cx.params(&kernel.params, true);
                    self.check_kernel_name(&kernel.name.name, kernel.name.span);
                    self.check_kernel_params(&kernel.name.name, kernel.name.span, &params);
                    if let Some(slot) = self.sigs.get_mut(i) {
                        *slot = Some(Signature {
                            params,
                            ret: Ty::Unit,
                            ret_span: None,
                        });
                    }
                }
                Item::TypeAlias(_) => {}
            }
        }
    }

    /// A kernel's name is its PTX entry name: it must be a PTX identifier that nothing else in
    /// the module or the runtime defines (`docs/language.md`, "Names").
    fn check_kernel_name(&mut self, name: &str, span: Span) {
        use super::error::KernelNameClash;
        let why = if name == "_" {
            KernelNameClash::NotPtxIdentifier
        } else if name == "WARP_SZ" {
            KernelNameClash::PtxPredefined
        } else if name.starts_with("__nv") {
            KernelNameClash::Libdevice
        } else if name.starts_with("loom_simt_") {
            KernelNameClash::Runtime
        } else {
            return;
        };
        self.error(CheckError::ReservedKernelName {
            name: name.to_string(),
            span,
            why,
        });
    }

    /// A kernel takes scalars, arrays, `Range`s and records (by value, in their C layout,
    /// `super::types::c_layout`), and PTX's parameter space holds 4,096 bytes per kernel (PTX
    /// ISA, "Kernel Function Parameters"; the PTX version LLVM 19 emits for every architecture
    /// LOOM targets). ptxas rejects a kernel that needs more, after loomc has written its PTX.
    fn check_kernel_params(&mut self, kernel: &str, span: Span, params: &[super::ParamSig]) {
        const LIMIT: u64 = 4096;
        let mut bytes = 0u64;
        for param in params {
            let (size, align) = match &param.ty {
                Ty::Array { .. } => (8, 8),
                Ty::Scalar(s) => {
                    let size = u64::from(s.bits().div_ceil(8));
                    (size, size)
                }
                // Every record field is a scalar, a `Range` or a record: every record has a
                // C layout.
                ty @ (Ty::Range | Ty::Record(_)) => {
                    match super::types::c_layout(ty, &self.records) {
                        Some(layout) => (layout.size, layout.align),
                        None => continue,
                    }
                }
                _ => continue,
            };
            bytes = bytes.next_multiple_of(align) + size;
        }
        if bytes > LIMIT {
            self.error(CheckError::ParamSpaceExceeded {
                kernel: kernel.to_string(),
                span,
                bytes,
                limit: LIMIT,
                params: params.len(),
            });
        }
    }

    /// Checks the user's bodies, then the standard library's funcs they call (directly, through
    /// collectives, or through other library funcs). The rest of the library is not needed: its
    /// bodies are checked by its own test (`check::tests::the_whole_standard_library_checks`),
    /// not again on every compile.
    pub(super) fn check_bodies(&mut self) {
        let n = self.program.items.len();
        let user = self.items.stdlib_start.min(n);
        let mut checked = vec![false; n];
        let mut next: Vec<usize> = (0..user).collect();
        if !self.lazy_library {
            next.extend(user..n);
        }
        while !next.is_empty() {
            for i in next {
                if !checked[i] {
                    checked[i] = true;
                    self.check_body(i);
                }
            }
            next = self
                .callees
                .values()
                .filter_map(|callee| match callee {
                    super::Callee::Func(f) if !checked.get(*f).copied().unwrap_or(true) => Some(*f),
                    _ => None,
                })
                .collect();
            next.sort_unstable();
            next.dedup();
        }
    }

    fn check_body(&mut self, i: usize) {
        let program = self.program;
        let Some(item) = program.items.get(i) else {
            return;
        };
        let Some(sig) = self.sigs.get(i).cloned().flatten() else {
            return;
        };
        match item {
            Item::Func(func) => {
                let kind = BodyKind::Func {
                    ret: sig.ret.clone(),
                    ret_span: sig.ret_span,
                    decl: func.name.span,
                };
                let mut cx = FnCtx::new(self, i, kind);
                cx.declare_params(&sig);
                cx.body(&func.body, &func.name);
            }
            Item::Kernel(kernel) => {
                let facts = self
                    .kernels
                    .iter()
                    .find(|k| k.item == i)
                    .map(|k| (k.block_size, k.block_rows));
                let (block_size, block_rows, source) = match (facts, &kernel.block_size) {
                    (Some((bs, rows)), Some(attr)) if u64::from(bs) == attr.total() => (
                        bs,
                        rows,
                        super::error::BlockSizeSource::Attribute(attr.span),
                    ),
                    (Some((bs, rows)), _) => (bs, rows, super::error::BlockSizeSource::Option),
                    (None, _) => (
                        self.options.block_size,
                        1,
                        super::error::BlockSizeSource::Option,
                    ),
                };
                let kind = BodyKind::Kernel {
                    block_size,
                    block_rows,
                    source,
                    pow2_reported: false,
                };
                let mut cx = FnCtx::new(self, i, kind);
                cx.declare_params(&sig);
                cx.body(&kernel.body, &kernel.name);
            }
            Item::TypeAlias(_) => {}
        }
    }
}

/// Whether two funcs have the same parameter types as written (for library overloads).
fn same_param_types(program: &Program, a: usize, b: usize) -> bool {
    fn written(t: &TypeExpr) -> String {
        match t {
            TypeExpr::Named { name } => name.name.clone(),
            TypeExpr::Record { fields, .. } => {
                let f: Vec<String> = fields
                    .iter()
                    .map(|f| format!("{}:{}", f.name.name, written(&f.ty)))
                    .collect();
                format!("{{{}}}", f.join(","))
            }
            TypeExpr::Array { elem, dims, .. } => format!("{}[{}]", written(elem), dims.len()),
        }
    }
    let params = |i: usize| match program.items.get(i) {
        Some(Item::Func(f)) => Some(f.params.iter().map(|p| written(&p.ty)).collect::<Vec<_>>()),
        _ => None,
    };
    match (params(a), params(b)) {
        (Some(x), Some(y)) => x == y,
        // Two library items of one name where one is not a func: a plain duplicate.
        _ => true,
    }
}
