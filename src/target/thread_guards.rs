//! `loom-thread-guards`: after LLVM's optimiser, a branch on a condition that the branch before
//! it has just decided goes straight to its side.
//!
//! A checked read gives zero outside its array: `if (inside) v = load; else v = 0`, a triangle
//! that joins in a block holding only the `phi`. When a later statement stores under the same
//! bounds test (`v <- x[[r]]`, a loop over registers, `out[[r]] <- g`: the same index, the same
//! length, one `icmp` after GVN), unrolling leaves that join block holding nothing but the
//! `phi` and `br i1 %inside` again:
//!
//! ```text
//! P: br i1 %c, label %L, label %J          L: load ...; br label %J
//! J: %v = phi [0, %P], [%load, %L]; br i1 %c, label %T, label %F
//! ```
//!
//! LLVM would thread the edges (`P -> F`, `L -> T`), but its jump threading is off for targets
//! with divergent branches, NVPTX among them, and SimplifyCFG only threads a branch on a `phi`
//! of constants. The SASS then has two guards, a `BSSY`/`BSYNC` pair around the load and a zero
//! for the threads outside, where one early exit does (newton-sqrt, 405 against clang's 401).
//! Threading it here is exact: on the edge from `P` the condition is `P`'s, on the edge from `L`
//! it is the other value, and `J` computes nothing else.
//!
//! Done only where nothing needs to be rebuilt: `J` holds `phi`s and the branch, its two
//! predecessors are `P` (a conditional branch on the same value, one edge to `J`) and `L` (whose
//! only predecessor is `P`, and which falls through to `J`); the two targets hold no `phi`s; and
//! every use of `J`'s `phi`s lies in a part of the function that one of the targets, entered
//! only from `J`, dominates: there the `phi` is the value of the edge that now leads in.

use crate::target::host::ir::{block_instructions as instructions, blocks, successors};
use inkwell::llvm_sys::core::{
    LLVMCountIncoming, LLVMDeleteBasicBlock, LLVMGetBasicBlockParent, LLVMGetBasicBlockTerminator,
    LLVMGetCondition, LLVMGetEntryBasicBlock, LLVMGetFirstUse, LLVMGetIncomingBlock,
    LLVMGetIncomingValue, LLVMGetInstructionOpcode, LLVMGetInstructionParent, LLVMGetNextUse,
    LLVMGetNumOperands, LLVMGetOperand, LLVMGetSuccessor, LLVMGetUser, LLVMIsConditional,
    LLVMSetOperand, LLVMSetSuccessor,
};
use inkwell::llvm_sys::prelude::{LLVMBasicBlockRef, LLVMValueRef};
use inkwell::llvm_sys::LLVMOpcode;
use inkwell::module::Module;
use inkwell::values::AsValueRef;
use std::collections::{HashMap, HashSet};

/// LLVM's cleanup after a branch was threaded: SimplifyCFG merges the straight line `L -> T`
/// into one block, and InstCombine sinks what `P` computed only for it (the `zext` of the
/// element index) past the branch, where the NVPTX backend folds it into a `mul.wide.u32` (left
/// in `P`, it stays a 64-bit shift whose result lives as long as the store needs it: 421 SASS and
/// 17 registers for newton-sqrt instead of 401 and 16).
pub const CLEANUP: &str = "function(simplifycfg,instcombine<no-verify-fixpoint>)";

impl crate::target::NvptxTarget {
    /// `loom-thread-guards`: threads the branches, then runs [`CLEANUP`] if it threaded any.
    pub fn thread_guards(
        &self,
        module: &Module<'_>,
    ) -> Result<usize, crate::diagnostics::Diagnostic> {
        let threaded = run(module);
        if threaded > 0 {
            self.run_pipeline(module, CLEANUP)?;
        }
        Ok(threaded)
    }
}

/// Threads every such branch in the module's defined functions; returns how many.
pub fn run(module: &Module<'_>) -> usize {
    let mut threaded = 0;
    for function in module.get_functions() {
        if function.count_basic_blocks() == 0 {
            continue;
        }
        // SAFETY: the function belongs to the live module; every block and value read or changed
        // below is one of its own, and a site is rewritten only after all of it was checked.
        unsafe {
            while let Some(site) = find(function.as_value_ref()) {
                apply(&site);
                threaded += 1;
            }
        }
    }
    threaded
}

/// One branch to thread, with every change decided.
struct Site {
    join: LLVMBasicBlockRef,
    /// `P`'s terminator and the successor index of its edge to `J`, and where it goes now.
    decider: (LLVMValueRef, u32, LLVMBasicBlockRef),
    /// `L`'s terminator and where it goes now.
    fall: (LLVMValueRef, LLVMBasicBlockRef),
    /// (user, operand index, value) for every use of `J`'s `phi`s.
    uses: Vec<(LLVMValueRef, u32, LLVMValueRef)>,
}

unsafe fn is_phi(i: LLVMValueRef) -> bool {
    LLVMGetInstructionOpcode(i) == LLVMOpcode::LLVMPHI
}

unsafe fn conditional_branch(b: LLVMBasicBlockRef) -> Option<LLVMValueRef> {
    let term = LLVMGetBasicBlockTerminator(b);
    (!term.is_null()
        && LLVMGetInstructionOpcode(term) == LLVMOpcode::LLVMBr
        && LLVMIsConditional(term) != 0)
        .then_some(term)
}

/// The blocks reachable from the entry without passing through `cut`: those `cut` does not
/// dominate.
unsafe fn reachable_without(
    function: LLVMValueRef,
    cut: LLVMBasicBlockRef,
) -> HashSet<LLVMBasicBlockRef> {
    let entry = LLVMGetEntryBasicBlock(function);
    let mut seen = HashSet::new();
    let mut stack = vec![entry];
    while let Some(b) = stack.pop() {
        if b == cut || !seen.insert(b) {
            continue;
        }
        stack.extend(successors(b));
    }
    seen
}

unsafe fn find(function: LLVMValueRef) -> Option<Site> {
    let all = blocks(function);
    let mut preds: HashMap<LLVMBasicBlockRef, Vec<LLVMBasicBlockRef>> = HashMap::new();
    for &b in &all {
        for s in successors(b) {
            preds.entry(s).or_default().push(b);
        }
    }
    let preds_of = |b: LLVMBasicBlockRef| preds.get(&b).map(Vec::as_slice).unwrap_or(&[]);
    all.iter().find_map(|&join| site(function, join, &preds_of))
}

unsafe fn site<'p>(
    function: LLVMValueRef,
    join: LLVMBasicBlockRef,
    preds_of: &dyn Fn(LLVMBasicBlockRef) -> &'p [LLVMBasicBlockRef],
) -> Option<Site> {
    let branch = conditional_branch(join)?;
    let cond = LLVMGetCondition(branch);
    let (on_true, on_false) = (LLVMGetSuccessor(branch, 0), LLVMGetSuccessor(branch, 1));
    if on_true == on_false || on_true == join || on_false == join {
        return None;
    }
    let body = instructions(join);
    let (_, phis) = body.split_last()?;
    if !phis.iter().all(|&i| is_phi(i)) {
        return None;
    }
    let &[a, b] = preds_of(join) else {
        return None;
    };
    // `P` branches on the same condition, one edge to `J`, the other to `L`; `L` has `P` as its
    // only predecessor and falls through to `J`.
    let (decider, fall) = [(a, b), (b, a)].into_iter().find(|&(p, l)| {
        conditional_branch(p).is_some_and(|t| {
            LLVMGetCondition(t) == cond && {
                let (s0, s1) = (LLVMGetSuccessor(t, 0), LLVMGetSuccessor(t, 1));
                (s0 == join && s1 == l) || (s0 == l && s1 == join)
            }
        }) && preds_of(l) == [p]
            && successors(l) == [join]
            && LLVMIsConditional(LLVMGetBasicBlockTerminator(l)) == 0
    })?;
    let decider_term = LLVMGetBasicBlockTerminator(decider);
    let known = LLVMGetSuccessor(decider_term, 0) == join;
    let edge = if known { 0 } else { 1 };
    let (to_decider, to_fall) = if known {
        (on_true, on_false)
    } else {
        (on_false, on_true)
    };
    for target in [to_decider, to_fall] {
        if [decider, fall, join].contains(&target) {
            return None;
        }
        if instructions(target).first().is_some_and(|&i| is_phi(i)) {
            return None;
        }
    }
    // Which part of the function each target dominates, when `J` is its only way in.
    let region = |target: LLVMBasicBlockRef| -> Option<HashSet<LLVMBasicBlockRef>> {
        if preds_of(target) != [join] {
            return None;
        }
        let outside = reachable_without(function, target);
        Some(
            blocks(function)
                .into_iter()
                .filter(|b| !outside.contains(b))
                .collect(),
        )
    };
    let regions = [(region(to_decider), decider), (region(to_fall), fall)];
    let mut uses = Vec::new();
    for &phi in phis {
        let incoming: HashMap<LLVMBasicBlockRef, LLVMValueRef> = (0..LLVMCountIncoming(phi))
            .map(|i| (LLVMGetIncomingBlock(phi, i), LLVMGetIncomingValue(phi, i)))
            .collect();
        let mut u = LLVMGetFirstUse(phi);
        let mut users = Vec::new();
        while !u.is_null() {
            users.push(LLVMGetUser(u));
            u = LLVMGetNextUse(u);
        }
        users.dedup();
        for user in users {
            for op in 0..u32::try_from(LLVMGetNumOperands(user)).ok()? {
                if LLVMGetOperand(user, op) != phi {
                    continue;
                }
                // A `phi`'s operand is used at the end of its incoming block.
                let at = if is_phi(user) {
                    LLVMGetIncomingBlock(user, op)
                } else {
                    LLVMGetInstructionParent(user)
                };
                let from = regions.iter().find_map(|(region, from)| {
                    region.as_ref().filter(|r| r.contains(&at)).map(|_| *from)
                })?;
                uses.push((user, op, *incoming.get(&from)?));
            }
        }
    }
    debug_assert_eq!(LLVMGetBasicBlockParent(join), function);
    Some(Site {
        join,
        decider: (decider_term, edge, to_decider),
        fall: (LLVMGetBasicBlockTerminator(fall), to_fall),
        uses,
    })
}

unsafe fn apply(site: &Site) {
    for &(user, op, value) in &site.uses {
        LLVMSetOperand(user, op, value);
    }
    let (term, edge, to) = site.decider;
    LLVMSetSuccessor(term, edge, to);
    let (term, to) = site.fall;
    LLVMSetSuccessor(term, 0, to);
    // Unreachable now, and its `phi`s unused.
    LLVMDeleteBasicBlock(site.join);
}
