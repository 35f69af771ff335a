//! Value numbering of kernel-invariant expressions: two computations of one pure operation on
//! the same operands, from values that are the same for the whole kernel (parameters, constants,
//! block ids and dimensions), are one value. Code generation and LLVM's loop passes recompute
//! such values (the row base `cols * B` of a 2-D array, once before each loop over the row, in
//! separate preheaders that neither dominates): read as two unrelated variables, the two copies
//! let the affine analysis pair one thread's `a[cols·B + tid]` with another's `a[cols·B' + tid']`
//! for `B' ≠ B`, a race that cannot happen. The rewritten function uses one copy for both.
//! Operations are compared as [`Op::numbered`] reads them: GVN's partial redundancy elimination
//! merges a copy `sext(cols) * B` with InstCombine's `zext nneg(cols) * B` in a phi, which the
//! analysis follows only when both are one value (a row bound to a `func` inside a reduction:
//! read as different values, its race with the row's writes was only a warning).
//!
//! Only kernel-invariant values are merged: they are the same wherever they are computed, so
//! replacing one copy by another that does not dominate the use changes no value the analyses
//! read (they never ask where an invariant value is computed).

use crate::fast_hash::HashMap;
use crate::ir::{Callee, Function, InstId, Module, Op, Val};

/// `function` with each kernel-invariant pure computation replaced by its first copy; `None`
/// when no two copies are alike.
pub fn merge_copies(module: &Module, function: &Function) -> Option<Function> {
    let mut numbering = Numbering {
        module,
        function,
        canonical: HashMap::default(),
        by_key: HashMap::default(),
    };
    let mut replace: HashMap<InstId, InstId> = HashMap::default();
    for id in 0..function.insts.len() {
        if let Some(first) = numbering.canonical(id, 0) {
            if first != id {
                replace.insert(id, first);
            }
        }
    }
    if replace.is_empty() {
        return None;
    }
    let mut out = function.clone();
    for inst in &mut out.insts {
        for arg in &mut inst.args {
            if let Val::Inst(i) = arg {
                if let Some(first) = replace.get(i) {
                    *arg = Val::Inst(*first);
                }
            }
        }
    }
    Some(out)
}

struct Numbering<'a> {
    module: &'a Module,
    function: &'a Function,
    /// Per instruction: its first copy, or `None` if it is not a kernel-invariant pure value.
    canonical: HashMap<InstId, Option<InstId>>,
    /// Operation and canonical operands, to the first instruction computing them.
    by_key: HashMap<String, InstId>,
}

impl Numbering<'_> {
    fn canonical(&mut self, id: InstId, depth: usize) -> Option<InstId> {
        if let Some(known) = self.canonical.get(&id) {
            return *known;
        }
        if depth > 64 {
            return None;
        }
        let inst = self.function.inst(id);
        let pure = match &inst.op {
            Op::Bin(_) | Op::ICmp(_) | Op::Select | Op::Cast(_) | Op::Gep(_) => true,
            Op::Call(Callee::Function(g)) => {
                inst.args.is_empty()
                    && self
                        .module
                        .globals
                        .get(*g)
                        .is_some_and(|g| is_launch_constant(&g.name))
            }
            _ => false,
        };
        let result = if pure {
            self.key(id, depth)
                .map(|key| *self.by_key.entry(key).or_insert(id))
        } else {
            None
        };
        self.canonical.insert(id, result);
        result
    }

    /// The operation and its operands, each operand by its first copy; `None` if an operand is
    /// not kernel-invariant.
    fn key(&mut self, id: InstId, depth: usize) -> Option<String> {
        let inst = self.function.inst(id);
        let mut operands = Vec::with_capacity(inst.args.len());
        for arg in &inst.args {
            operands.push(match *arg {
                Val::Inst(i) => Val::Inst(self.canonical(i, depth + 1)?),
                Val::Arg(a) if self.function.args.get(a).is_some_and(|x| !x.byval) => *arg,
                Val::Int { .. } | Val::Global(_) | Val::Null | Val::Other(_) => *arg,
                Val::Arg(_) | Val::Undef => return None,
            });
        }
        Some(format!(
            "{:?} {:?} {:?}",
            inst.op.numbered(),
            inst.ty,
            operands
        ))
    }
}

/// The special registers that hold one value for the whole launch: the block's index, the
/// grid's and the block's dimensions. Not `%smid` and the like, which PTX allows to change while
/// a thread runs: two reads of one may differ.
fn is_launch_constant(name: &str) -> bool {
    name.strip_prefix("llvm.nvvm.read.ptx.sreg.")
        .is_some_and(|r| {
            ["ctaid.", "nctaid.", "ntid."]
                .iter()
                .any(|p| r.starts_with(p))
        })
}
