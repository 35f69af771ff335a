//! Loop versioning of a loop over a block's threads (`thread_loop.rs`), so that its bounds checks
//! leave the loop: before the loop, one test per block says whether every check in it must pass
//! for every thread; if so, the block runs a copy of the loop without those checks (which LLVM
//! can vectorise: a check's failing path is a runtime call, which keeps a loop from being
//! vectorised), else the loop as it was, every check in place. An out-of-bounds access thus
//! still fails exactly where and how it failed before; only blocks with no such access take the
//! copy.
//!
//! The test is exact arithmetic: a check (`bounds.rs`: `offset <= len && offset + size <= len`,
//! unsigned) whose compared values are affine in the thread counters (`c0 + cx * tid.x +
//! cy * tid.y`, the coefficients the same for the whole block) passes for every thread of the
//! block when it passes at the four corners (`tid.x` either 0 or `ntid.x - 1`, `tid.y` either 0
//! or `ntid.y - 1`), as an affine function over a box is extreme at its corners. A loop over a
//! run of blocks around the threads' loops (`thread_loop.rs`) is versioned as a whole, its block
//! counter a third dimension of the box (`ctaid.x` from the run's first block to its last), so
//! that the test is made once per run rather than once per block. The corners are
//! computed in `i128` from the values the block computes before its threads; wherever the body
//! widens a value of the counters (`sext`, `zext`, a GEP's narrower index) or treats an `or` as
//! an addition, the test also asks that the value fits at the corners, so that the fixed-width
//! arithmetic the body does equals the exact one. What is not affine in the counters (a
//! thread's own loop, a value loaded from an array) keeps its check in the copy too.

use super::bounds::{CHECK_BOUNDS, LENGTHS_PREFIX};
use super::ir::{self, Builder};
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::target::{LLVMABISizeOfType, LLVMOffsetOfElement, LLVMTargetDataRef};
use inkwell::llvm_sys::{LLVMIntPredicate, LLVMOpcode, LLVMTypeKind};
use std::collections::{HashMap, HashSet};

/// Most bits any coefficient may need, so that a corner (`c0 + cx * X + cy * Y + cb * B`, X, Y
/// and B below 2^32) never overflows `i128`.
const MAX_BITS: u32 = 90;

/// The counters of a loop nest to version, by their phis' names: `tid.x` and `tid.y`, and the
/// block counter of a loop over a run of blocks around them, which starts at the function's
/// parameter 3 and runs for parameter 5 blocks (`ir::add_block_function`).
pub struct Counters {
    pub x: String,
    pub y: String,
    pub block: Option<String>,
}

/// `c[0] + c[1] * x + c[2] * y + c[3] * b` (`b` the block's offset in its run: 0 without a
/// block counter), exactly, given the test `guards`; `bits` bound each coefficient's magnitude
/// (`|c| < 2^bits`).
#[derive(Clone)]
struct Affine {
    c: [LLVMValueRef; 4],
    bits: [u32; 4],
    guards: Vec<LLVMValueRef>,
}

struct Analysis {
    context: LLVMContextRef,
    function: LLVMValueRef,
    target_data: LLVMTargetDataRef,
    builder: Builder,
    in_loop: HashSet<LLVMBasicBlockRef>,
    /// The phis of `tid.x`, `tid.y` and the block counter (null without one).
    counters: [LLVMValueRef; 3],
    /// The run's first block, where there is a block counter.
    first_block: LLVMValueRef,
    /// `ntid.x - 1`, `ntid.y - 1` and the run's blocks less one (0 without a block counter),
    /// `i128`.
    last: [LLVMValueRef; 3],
    i128t: LLVMTypeRef,
    materialised: HashMap<LLVMValueRef, Option<LLVMValueRef>>,
    affine: HashMap<LLVMValueRef, Option<Affine>>,
    /// What the analysis built before the loop, in order, to erase if nothing comes of it.
    built: Vec<LLVMValueRef>,
}

/// Versions the loop over threads of `function` (a `loom.threads.*` function after the first
/// loop passes: in loop-simplify form, the `counters` phis) where some of its bounds checks can
/// leave it. Returns whether it did.
///
/// # Safety
/// `context` must own `function`; `target_data` must be the module's.
pub unsafe fn version(
    context: LLVMContextRef,
    function: LLVMValueRef,
    target_data: LLVMTargetDataRef,
    counters: &Counters,
) -> bool {
    let instructions = ir::instructions(function);
    let phi = |name: &str| ir::phi_named(&instructions, name);
    let (Some(x), Some(y)) = (phi(&counters.x), phi(&counters.y)) else {
        return false;
    };
    let block = match &counters.block {
        Some(name) => match phi(name) {
            Some(block) => Some(block),
            None => return false,
        },
        None => None,
    };
    // The outer loop: the natural loop of the header of the block counter's loop, or else of
    // `tid.y`'s (the header, and the blocks that reach one of its back edges without passing
    // it). Not every cycle through the header: in a cut function (`cut.rs`) a region's loops
    // may lie on a cycle through other regions (a barrier inside a kernel's loop), which is no
    // part of this loop.
    let header = LLVMGetInstructionParent(block.unwrap_or(y));
    let blocks = ir::blocks(function);
    let successors: HashMap<LLVMBasicBlockRef, Vec<LLVMBasicBlockRef>> =
        blocks.iter().map(|b| (*b, ir::successors(*b))).collect();
    let mut predecessors: HashMap<LLVMBasicBlockRef, Vec<LLVMBasicBlockRef>> = HashMap::new();
    for (b, succ) in &successors {
        for s in succ {
            predecessors.entry(*s).or_default().push(*b);
        }
    }
    // What the function's entry reaches without passing the header: the blocks the header does
    // not dominate (the header itself aside).
    let undominated = reachable(LLVMGetEntryBasicBlock(function), |b| match b == header {
        true => Vec::new(),
        false => successors.get(&b).cloned().unwrap_or_default(),
    });
    let mut in_loop: HashSet<LLVMBasicBlockRef> = HashSet::from([header]);
    let mut work: Vec<LLVMBasicBlockRef> = predecessors
        .get(&header)
        .into_iter()
        .flatten()
        .copied()
        .filter(|p| *p == header || !undominated.contains(p))
        .collect();
    while let Some(b) = work.pop() {
        if in_loop.insert(b) {
            work.extend(predecessors.get(&b).into_iter().flatten().copied());
        }
    }
    if ![x, y]
        .iter()
        .all(|c| in_loop.contains(&LLVMGetInstructionParent(*c)))
    {
        return false;
    }
    let outside: Vec<LLVMBasicBlockRef> = predecessors
        .get(&header)
        .into_iter()
        .flatten()
        .copied()
        .filter(|p| !in_loop.contains(p))
        .collect();
    let [preheader] = outside[..] else {
        return false;
    };
    let entry_branch = LLVMGetBasicBlockTerminator(preheader);
    if LLVMGetNumSuccessors(entry_branch) != 1 || LLVMIsABranchInst(entry_branch).is_null() {
        return false;
    }
    // A value of the loop used after it other than through an exit's phi would not know which
    // copy it came from.
    let loop_blocks: Vec<LLVMBasicBlockRef> = blocks
        .iter()
        .copied()
        .filter(|b| in_loop.contains(b))
        .collect();
    for b in &loop_blocks {
        for inst in ir::block_instructions(*b) {
            for user in ir::users(inst) {
                if in_loop.contains(&LLVMGetInstructionParent(user)) {
                    continue;
                }
                let from_the_loop = ir::is_phi(user)
                    && (0..LLVMCountIncoming(user))
                        .filter(|i| LLVMGetIncomingValue(user, *i) == inst)
                        .all(|i| in_loop.contains(&LLVMGetIncomingBlock(user, i)));
                if !from_the_loop {
                    return false;
                }
            }
        }
    }

    let i32t = LLVMInt32TypeInContext(context);
    let i128t = LLVMIntTypeInContext(context, 128);
    let builder = Builder::new(context);
    builder.before(entry_branch);
    let b = builder.raw();
    // The constants of a kernel that requires its block size, so that the check folds.
    let (nx, ny) = ir::block_shape(function);
    let one = LLVMConstInt(i128t, 1, 0);
    // Without a block counter, a run of one block: its offset is 0.
    let count = match block {
        Some(_) => LLVMGetParam(function, 5),
        None => LLVMConstInt(i32t, 1, 0),
    };
    let mut analysis = Analysis {
        context,
        function,
        target_data,
        in_loop,
        counters: [x, y, block.unwrap_or(std::ptr::null_mut())],
        first_block: LLVMGetParam(function, 3),
        last: [nx, ny, count].map(|n| {
            let wide = LLVMBuildZExt(b, n, i128t, c"".as_ptr());
            LLVMBuildSub(b, wide, one, c"".as_ptr())
        }),
        i128t,
        materialised: HashMap::new(),
        affine: HashMap::new(),
        built: Vec::new(),
        builder,
    };
    for v in analysis.last {
        analysis.note(v);
    }

    // The checks: a conditional branch to a block that reports, on `and` of two `icmp ule`.
    let mut removable: Vec<LLVMValueRef> = Vec::new();
    let mut guards: Vec<LLVMValueRef> = Vec::new();
    let mut seen: HashMap<LLVMValueRef, bool> = HashMap::new();
    for block in &loop_blocks {
        let branch = LLVMGetBasicBlockTerminator(*block);
        if LLVMIsABranchInst(branch).is_null() || LLVMIsConditional(branch) == 0 {
            continue;
        }
        if !reports(LLVMGetSuccessor(branch, 1)) {
            continue;
        }
        let condition = LLVMGetCondition(branch);
        let provable = match seen.get(&condition) {
            Some(p) => *p,
            None => {
                let test = analysis.check(condition);
                if let Some(test) = &test {
                    guards.extend(test);
                }
                seen.insert(condition, test.is_some());
                test.is_some()
            }
        };
        if provable {
            removable.push(branch);
        }
    }
    if removable.is_empty() {
        analysis.erase_unused();
        return false;
    }
    let zero32 = LLVMConstInt(i32t, 0, 0);
    let mut test = LLVMConstInt(LLVMInt1TypeInContext(context), 1, 0);
    for n in [nx, ny] {
        let positive = LLVMBuildICmp(b, LLVMIntPredicate::LLVMIntNE, n, zero32, c"".as_ptr());
        test = LLVMBuildAnd(b, test, positive, c"".as_ptr());
    }
    let mut distinct = HashSet::new();
    for g in guards {
        if distinct.insert(g) {
            test = LLVMBuildAnd(b, test, g, c"".as_ptr());
        }
    }
    let test = LLVMBuildFreeze(b, test, c"all.in.bounds".as_ptr());
    analysis.erase_unused();

    // The copy, entered when the test holds.
    let map = clone_blocks(context, function, &loop_blocks, &analysis.in_loop);
    let fast_header = LLVMValueAsBasicBlock(map[&LLVMBasicBlockAsValue(header)]);
    LLVMInstructionEraseFromParent(entry_branch);
    LLVMPositionBuilderAtEnd(b, preheader);
    LLVMBuildCondBr(b, test, fast_header, header);
    let always = LLVMConstInt(LLVMInt1TypeInContext(context), 1, 0);
    for branch in removable {
        let copy = map[&branch];
        LLVMSetCondition(copy, always);
        direct_addresses(copy);
    }
    true
}

/// After `branch`'s check is known to pass: the access after it uses the address itself rather
/// than the check's result through integer casts (which hide from the vectoriser that
/// consecutive threads access consecutive addresses). Leaves anything else as it is.
unsafe fn direct_addresses(branch: LLVMValueRef) {
    let from = LLVMGetInstructionParent(branch);
    let inside = LLVMGetSuccessor(branch, 0);
    for phi in ir::block_instructions(inside) {
        if !ir::is_phi(phi) {
            break;
        }
        let incoming = (0..LLVMCountIncoming(phi))
            .find(|i| LLVMGetIncomingBlock(phi, *i) == from)
            .map(|i| LLVMGetIncomingValue(phi, i));
        let Some(generic) = incoming else { continue };
        if LLVMIsAIntToPtrInst(generic).is_null() {
            continue;
        }
        let as_int = LLVMGetOperand(generic, 0);
        if LLVMIsAPtrToIntInst(as_int).is_null() {
            continue;
        }
        let address = LLVMGetOperand(as_int, 0);
        for user in ir::users(phi) {
            if LLVMIsAPtrToIntInst(user).is_null() {
                continue;
            }
            for back in ir::users(user) {
                if !LLVMIsAIntToPtrInst(back).is_null() && LLVMTypeOf(back) == LLVMTypeOf(address) {
                    LLVMReplaceAllUsesWith(back, address);
                }
            }
        }
    }
}

/// Whether `block` reports a failed bounds check.
unsafe fn reports(block: LLVMBasicBlockRef) -> bool {
    ir::block_instructions(block)
        .into_iter()
        .any(|i| ir::is_call(i) && ir::callee(i).is_some_and(|f| ir::name(f) == CHECK_BOUNDS))
}

impl Analysis {
    fn note(&mut self, v: LLVMValueRef) {
        // SAFETY: `v` is a value of this function.
        if unsafe { !LLVMIsAInstruction(v).is_null() } {
            self.built.push(v);
        }
    }

    /// Erases what the analysis built and nothing uses, latest first.
    unsafe fn erase_unused(&mut self) {
        for v in self.built.drain(..).rev() {
            if !ir::has_uses(v) {
                LLVMInstructionEraseFromParent(v);
            }
        }
    }

    unsafe fn inside(&self, v: LLVMValueRef) -> bool {
        !LLVMIsAInstruction(v).is_null() && self.in_loop.contains(&LLVMGetInstructionParent(v))
    }

    /// The test that the check `condition` (`and` of two `icmp ule`, each an affine value
    /// against one computed before the loop) passes for every thread, or `None`.
    unsafe fn check(&mut self, condition: LLVMValueRef) -> Option<Vec<LLVMValueRef>> {
        if LLVMIsAInstruction(condition).is_null() || ir::opcode(condition) != LLVMOpcode::LLVMAnd {
            return None;
        }
        let mut guards = Vec::new();
        for i in 0..2 {
            let compare = LLVMGetOperand(condition, i);
            if LLVMIsAICmpInst(compare).is_null()
                || LLVMGetICmpPredicate(compare) != LLVMIntPredicate::LLVMIntULE
            {
                return None;
            }
            let (value, bound) = (LLVMGetOperand(compare, 0), LLVMGetOperand(compare, 1));
            let bound = self.materialise(bound)?;
            if ir::type_kind(LLVMTypeOf(bound)) != LLVMTypeKind::LLVMIntegerTypeKind
                || LLVMGetIntTypeWidth(LLVMTypeOf(bound)) > 64
            {
                return None;
            }
            let affine = self.affine(value)?;
            // Exactly `value` in [0, bound]: then the unsigned compare the thread makes holds.
            let b = self.builder.raw();
            let bound = LLVMBuildZExt(b, bound, self.i128t, c"".as_ptr());
            self.note(bound);
            let zero = LLVMConstInt(self.i128t, 0, 0);
            guards.extend(affine.guards.iter().copied());
            guards.push(self.within(&affine, zero, bound));
        }
        Some(guards)
    }

    /// `lo <= a <= hi` at every corner, `lo` and `hi` `i128`.
    unsafe fn within(&mut self, a: &Affine, lo: LLVMValueRef, hi: LLVMValueRef) -> LLVMValueRef {
        let b = self.builder.raw();
        let zero = LLVMConstInt(self.i128t, 0, 0);
        let (mut least, mut most) = (a.c[0], a.c[0]);
        for (c, last) in a.c[1..].iter().copied().zip(self.last) {
            if c == zero {
                continue;
            }
            let term = LLVMBuildMul(b, c, last, c"".as_ptr());
            let negative = LLVMBuildICmp(b, LLVMIntPredicate::LLVMIntSLT, term, zero, c"".as_ptr());
            let down = LLVMBuildSelect(b, negative, term, zero, c"".as_ptr());
            let up = LLVMBuildSelect(b, negative, zero, term, c"".as_ptr());
            least = LLVMBuildAdd(b, least, down, c"".as_ptr());
            most = LLVMBuildAdd(b, most, up, c"".as_ptr());
            for v in [term, negative, down, up, least, most] {
                self.note(v);
            }
        }
        let low_ok = LLVMBuildICmp(b, LLVMIntPredicate::LLVMIntSGE, least, lo, c"".as_ptr());
        let high_ok = LLVMBuildICmp(b, LLVMIntPredicate::LLVMIntSLE, most, hi, c"".as_ptr());
        let ok = LLVMBuildAnd(b, low_ok, high_ok, c"".as_ptr());
        for v in [low_ok, high_ok, ok] {
            self.note(v);
        }
        ok
    }

    /// `a`, with the test that it fits `bits` bits, signed or not, at every corner.
    unsafe fn fits(&mut self, mut a: Affine, bits: u32, signed: bool) -> Affine {
        if is_uniform(&a, LLVMConstInt(self.i128t, 0, 0)) {
            return a;
        }
        let (lo, hi): (i128, i128) = match signed {
            true => (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1),
            false => (0, (1i128 << bits) - 1),
        };
        let (lo, hi) = (self.const128(lo), self.const128(hi));
        let ok = self.within(&a, lo, hi);
        a.guards.push(ok);
        a
    }

    unsafe fn const128(&self, v: i128) -> LLVMValueRef {
        let words = [v as u64, ((v as u128) >> 64) as u64];
        LLVMConstIntOfArbitraryPrecision(self.i128t, 2, words.as_ptr())
    }

    /// `v`'s value, computed before the loop (the same for every thread), if it can be: a value
    /// from before the loop, or one the loop computes from such values alone without reading
    /// memory other than the launch's parameters and array lengths (`invariant.load`s from the
    /// function's argument or a global) and without anything that could trap.
    unsafe fn materialise(&mut self, v: LLVMValueRef) -> Option<LLVMValueRef> {
        if !self.inside(v) {
            return Some(v);
        }
        if let Some(m) = self.materialised.get(&v) {
            return *m;
        }
        let m = self.materialise_new(v);
        self.materialised.insert(v, m);
        m
    }

    unsafe fn materialise_new(&mut self, v: LLVMValueRef) -> Option<LLVMValueRef> {
        use LLVMOpcode::*;
        if self.counters.contains(&v) {
            return None;
        }
        let op = ir::opcode(v);
        let pure = matches!(
            op,
            LLVMAdd
                | LLVMSub
                | LLVMMul
                | LLVMShl
                | LLVMLShr
                | LLVMAShr
                | LLVMAnd
                | LLVMOr
                | LLVMXor
                | LLVMTrunc
                | LLVMZExt
                | LLVMSExt
                | LLVMPtrToInt
                | LLVMIntToPtr
                | LLVMBitCast
                | LLVMAddrSpaceCast
                | LLVMGetElementPtr
                | LLVMICmp
                | LLVMSelect
        );
        if !(pure || op == LLVMLoad && self.launch_constant(v)) {
            return None;
        }
        let operands = ir::operands(v);
        let mut copies = Vec::with_capacity(operands.len());
        for o in operands {
            copies.push(self.materialise(o)?);
        }
        let copy = LLVMInstructionClone(v);
        LLVMInsertIntoBuilder(self.builder.raw(), copy);
        for (i, o) in copies.into_iter().enumerate() {
            LLVMSetOperand(copy, i as u32, o);
        }
        // Computed for every block now, also where the loop would not have: no flag that could
        // make a value poison.
        match op {
            LLVMAdd | LLVMSub | LLVMMul | LLVMShl => {
                LLVMSetNSW(copy, 0);
                LLVMSetNUW(copy, 0);
            }
            LLVMLShr | LLVMAShr => LLVMSetExact(copy, 0),
            LLVMOr => LLVMSetIsDisjoint(copy, 0),
            LLVMZExt => LLVMSetNNeg(copy, 0),
            LLVMGetElementPtr => LLVMSetIsInBounds(copy, 0),
            // A launch's constant (`launch_constant`): so that the test's parts that do not
            // depend on the block leave a loop over a run of blocks (`thread_loop.rs`).
            LLVMLoad => ir::set_invariant_load(self.context, copy),
            _ => {}
        }
        self.note(copy);
        Some(copy)
    }

    /// Whether `load` reads a launch's constant, which is safe to read for any block: a
    /// parameter's slot (at a constant offset from the function's argument), the parameter's
    /// value in it (`entry.rs`), or an array's length (`loom.bounds.<kernel>`, `bounds.rs`).
    /// Nothing writes these while the kernel runs. Not by `invariant.load`, which `licm` drops
    /// from a load it hoists out of a condition.
    unsafe fn launch_constant(&self, load: LLVMValueRef) -> bool {
        if LLVMGetVolatile(load) != 0 {
            return false;
        }
        let args = LLVMGetParam(self.function, 0);
        let slot = |load: LLVMValueRef| strip_constant_geps(LLVMGetOperand(load, 0)) == args;
        let p = strip_constant_geps(LLVMGetOperand(load, 0));
        if p == args {
            return true;
        }
        if !LLVMIsAGlobalVariable(p).is_null() {
            return ir::name(p).starts_with(LENGTHS_PREFIX);
        }
        // The value: read through the slot's pointer itself.
        let pointer = LLVMGetOperand(load, 0);
        !LLVMIsALoadInst(pointer).is_null() && LLVMGetVolatile(pointer) == 0 && slot(pointer)
    }

    /// `v` as an exact `i128`: an integer sign-extended, a pointer as its unsigned address.
    unsafe fn wide(&mut self, v: LLVMValueRef) -> Option<(LLVMValueRef, u32)> {
        let b = self.builder.raw();
        let ty = LLVMTypeOf(v);
        let (value, bits) = match ir::type_kind(ty) {
            LLVMTypeKind::LLVMIntegerTypeKind if LLVMGetIntTypeWidth(ty) <= 64 => {
                if !LLVMIsAConstantInt(v).is_null() {
                    let c = LLVMConstIntGetSExtValue(v);
                    return Some((
                        self.const128(c as i128),
                        65 - c.unsigned_abs().leading_zeros(),
                    ));
                }
                (
                    LLVMBuildSExt(b, v, self.i128t, c"".as_ptr()),
                    LLVMGetIntTypeWidth(ty),
                )
            }
            LLVMTypeKind::LLVMPointerTypeKind => {
                let i64t = LLVMInt64TypeInContext(self.context);
                let int = LLVMBuildPtrToInt(b, v, i64t, c"".as_ptr());
                self.note(int);
                (LLVMBuildZExt(b, int, self.i128t, c"".as_ptr()), 65)
            }
            _ => return None,
        };
        self.note(value);
        Some((value, bits))
    }

    unsafe fn affine(&mut self, v: LLVMValueRef) -> Option<Affine> {
        if let Some(a) = self.affine.get(&v) {
            return a.clone();
        }
        let a = self.affine_new(v);
        self.affine.insert(v, a.clone());
        a
    }

    unsafe fn affine_new(&mut self, v: LLVMValueRef) -> Option<Affine> {
        use LLVMOpcode::*;
        let zero = LLVMConstInt(self.i128t, 0, 0);
        let one = LLVMConstInt(self.i128t, 1, 0);
        if let Some(k) = self.counters.iter().position(|c| *c == v) {
            // The block counter is the run's first block plus the block's offset in the run.
            let (start, start_bits) = match k {
                2 => self.wide(self.first_block)?,
                _ => (zero, 0),
            };
            let mut c = [start, zero, zero, zero];
            let mut bits = [start_bits, 0, 0, 0];
            c[k + 1] = one;
            bits[k + 1] = 1;
            return Some(Affine {
                c,
                bits,
                guards: Vec::new(),
            });
        }
        if let Some(m) = self.materialise(v) {
            let (value, bits) = self.wide(m)?;
            return Some(Affine {
                c: [value, zero, zero, zero],
                bits: [bits, 0, 0, 0],
                guards: Vec::new(),
            });
        }
        let width = |v: LLVMValueRef| {
            let ty = LLVMTypeOf(v);
            match ir::type_kind(ty) {
                LLVMTypeKind::LLVMIntegerTypeKind => Some(LLVMGetIntTypeWidth(ty)),
                LLVMTypeKind::LLVMPointerTypeKind => Some(64),
                _ => None,
            }
        };
        let operand = |i| LLVMGetOperand(v, i);
        match ir::opcode(v) {
            LLVMAdd | LLVMSub => {
                let (a, b) = (self.affine(operand(0))?, self.affine(operand(1))?);
                self.combine(a, b, ir::opcode(v) == LLVMSub)
            }
            LLVMMul => {
                let (a, b) = (self.affine(operand(0))?, self.affine(operand(1))?);
                match (is_uniform(&a, zero), is_uniform(&b, zero)) {
                    (_, true) => self.scale(a, b.c[0], b.bits[0], b.guards),
                    (true, false) => self.scale(b, a.c[0], a.bits[0], a.guards),
                    (false, false) => None,
                }
            }
            LLVMShl => {
                let shift = operand(1);
                if LLVMIsAConstantInt(shift).is_null() {
                    return None;
                }
                let k = LLVMConstIntGetZExtValue(shift);
                if k >= width(v)? as u64 {
                    return None;
                }
                let a = self.affine(operand(0))?;
                let factor = self.const128(1i128 << k);
                self.scale(a, factor, k as u32 + 1, Vec::new())
            }
            LLVMOr => {
                // `high | low` is `high + low` when `high`'s low `k` bits are zero and `low` lies
                // in [0, 2^k). (`trailing_zeros` knows them from how `high` is computed, in the
                // fixed width; the exact value the affine form has is congruent to it, and
                // whoever widens the sum tests that it fits, so that they are equal.)
                for (h, l) in [(0, 1), (1, 0)] {
                    let k = trailing_zeros(operand(h));
                    if k == 0 || k >= 64 {
                        continue;
                    }
                    let (high, low) = (self.affine(operand(h))?, self.affine(operand(l))?);
                    let low = self.fits(low, k, false);
                    return self.combine(high, low, false);
                }
                None
            }
            LLVMTrunc => self.affine(operand(0)),
            LLVMSExt | LLVMZExt => {
                let from = width(operand(0))?;
                let a = self.affine(operand(0))?;
                Some(self.fits(a, from, ir::opcode(v) == LLVMSExt))
            }
            LLVMPtrToInt | LLVMIntToPtr | LLVMBitCast | LLVMAddrSpaceCast => {
                if width(v)? != 64 || width(operand(0))? != 64 {
                    return None;
                }
                self.affine(operand(0))
            }
            LLVMGetElementPtr => self.gep(v),
            _ => None,
        }
    }

    /// A GEP's address: its pointer plus each index times its step.
    unsafe fn gep(&mut self, v: LLVMValueRef) -> Option<Affine> {
        if ir::type_kind(LLVMTypeOf(v)) != LLVMTypeKind::LLVMPointerTypeKind {
            return None;
        }
        let i64t = LLVMInt64TypeInContext(self.context);
        let mut total = self.affine(LLVMGetOperand(v, 0))?;
        let mut ty = LLVMGetGEPSourceElementType(v);
        for i in 1..LLVMGetNumOperands(v) as u32 {
            let index = LLVMGetOperand(v, i);
            if i > 1 {
                match ir::type_kind(ty) {
                    LLVMTypeKind::LLVMStructTypeKind => {
                        if LLVMIsAConstantInt(index).is_null() {
                            return None;
                        }
                        let field = LLVMConstIntGetZExtValue(index) as u32;
                        let offset = LLVMOffsetOfElement(self.target_data, ty, field);
                        let offset = self.affine(LLVMConstInt(i64t, offset, 0))?;
                        total = self.combine(total, offset, false)?;
                        ty = LLVMStructGetTypeAtIndex(ty, field);
                        continue;
                    }
                    LLVMTypeKind::LLVMArrayTypeKind | LLVMTypeKind::LLVMVectorTypeKind => {
                        ty = LLVMGetElementType(ty);
                    }
                    _ => return None,
                }
            }
            let index_type = LLVMTypeOf(index);
            if ir::type_kind(index_type) != LLVMTypeKind::LLVMIntegerTypeKind {
                return None;
            }
            let bits = LLVMGetIntTypeWidth(index_type);
            if bits > 64 {
                return None;
            }
            let mut a = self.affine(index)?;
            if bits < 64 {
                a = self.fits(a, bits, true);
            }
            let step = LLVMABISizeOfType(self.target_data, ty);
            let step_bits = 64 - step.leading_zeros();
            let a = self.scale(a, self.const128(step as i128), step_bits, Vec::new())?;
            total = self.combine(total, a, false)?;
        }
        Some(total)
    }

    /// `a + b` or `a - b`.
    unsafe fn combine(&mut self, a: Affine, b: Affine, subtract: bool) -> Option<Affine> {
        let builder = self.builder.raw();
        let mut c = a.c;
        let mut bits = [0; 4];
        for i in 0..4 {
            c[i] = match subtract {
                true => LLVMBuildSub(builder, a.c[i], b.c[i], c"".as_ptr()),
                false => LLVMBuildAdd(builder, a.c[i], b.c[i], c"".as_ptr()),
            };
            self.note(c[i]);
            bits[i] = a.bits[i].max(b.bits[i]) + 1;
        }
        let mut guards = a.guards;
        guards.extend(b.guards);
        bounded(Affine { c, bits, guards })
    }

    /// `a * factor`, `|factor| < 2^factor_bits`, valid under `factor_guards`.
    unsafe fn scale(
        &mut self,
        a: Affine,
        factor: LLVMValueRef,
        factor_bits: u32,
        factor_guards: Vec<LLVMValueRef>,
    ) -> Option<Affine> {
        let builder = self.builder.raw();
        let mut c = a.c;
        let mut bits = a.bits;
        for i in 0..4 {
            c[i] = LLVMBuildMul(builder, a.c[i], factor, c"".as_ptr());
            self.note(c[i]);
            bits[i] = a.bits[i] + factor_bits;
        }
        let mut guards = a.guards;
        guards.extend(factor_guards);
        bounded(Affine { c, bits, guards })
    }
}

/// `p` without GEPs whose indices are all constants.
unsafe fn strip_constant_geps(mut p: LLVMValueRef) -> LLVMValueRef {
    loop {
        let gep = !LLVMIsAGetElementPtrInst(p).is_null()
            || (ir::is_constant_expr(p) && LLVMGetConstOpcode(p) == LLVMOpcode::LLVMGetElementPtr);
        if !gep
            || !(1..LLVMGetNumOperands(p) as u32)
                .all(|i| !LLVMIsAConstantInt(LLVMGetOperand(p, i)).is_null())
        {
            return p;
        }
        p = LLVMGetOperand(p, 0);
    }
}

fn bounded(a: Affine) -> Option<Affine> {
    a.bits.iter().all(|b| *b <= MAX_BITS).then_some(a)
}

/// Whether `a` is the same for every thread (and block).
unsafe fn is_uniform(a: &Affine, zero: LLVMValueRef) -> bool {
    a.c[1..].iter().all(|c| *c == zero)
}

/// How many low bits of `v` are known to be zero: a constant's, or those a `shl` or `mul` by a
/// constant clears.
unsafe fn trailing_zeros(v: LLVMValueRef) -> u32 {
    let constant = |v: LLVMValueRef| {
        (!LLVMIsAConstantInt(v).is_null() && LLVMGetIntTypeWidth(LLVMTypeOf(v)) <= 64)
            .then(|| LLVMConstIntGetZExtValue(v))
    };
    if let Some(c) = constant(v) {
        return c.trailing_zeros().min(64);
    }
    if LLVMIsAInstruction(v).is_null() {
        return 0;
    }
    let operand = |i| LLVMGetOperand(v, i);
    match ir::opcode(v) {
        LLVMOpcode::LLVMShl => constant(operand(1)).map_or(0, |k| k.min(64) as u32),
        LLVMOpcode::LLVMMul => {
            let a = constant(operand(0)).map_or(0, |c| c.trailing_zeros());
            let b = constant(operand(1)).map_or(0, |c| c.trailing_zeros());
            a.max(b).min(64)
        }
        LLVMOpcode::LLVMAnd => {
            let a = constant(operand(0)).map_or(0, |c| c.trailing_zeros());
            let b = constant(operand(1)).map_or(0, |c| c.trailing_zeros());
            a.max(b).min(64)
        }
        _ => 0,
    }
}

fn reachable(
    from: LLVMBasicBlockRef,
    next: impl Fn(LLVMBasicBlockRef) -> Vec<LLVMBasicBlockRef>,
) -> HashSet<LLVMBasicBlockRef> {
    let mut seen = HashSet::from([from]);
    let mut work = vec![from];
    while let Some(b) = work.pop() {
        for n in next(b) {
            if seen.insert(n) {
                work.push(n);
            }
        }
    }
    seen
}

/// Copies `blocks` (a loop) into new blocks at the end of `function`: every instruction, with
/// operands and successors inside the loop mapped to their copies; the exits' phis get the
/// copies' incoming values too. Returns the map from each original value (instructions, and
/// blocks as values) to its copy.
unsafe fn clone_blocks(
    context: LLVMContextRef,
    function: LLVMValueRef,
    blocks: &[LLVMBasicBlockRef],
    in_loop: &HashSet<LLVMBasicBlockRef>,
) -> HashMap<LLVMValueRef, LLVMValueRef> {
    let builder = Builder::new(context);
    let b = builder.raw();
    let mut map: HashMap<LLVMValueRef, LLVMValueRef> = HashMap::new();
    let mut copies: Vec<(LLVMBasicBlockRef, LLVMBasicBlockRef)> = Vec::new();
    for block in blocks {
        let name = ir::c_name(&format!("fast.{}", ir::block_name(*block)));
        let copy = LLVMAppendBasicBlockInContext(context, function, name.as_ptr());
        map.insert(LLVMBasicBlockAsValue(*block), LLVMBasicBlockAsValue(copy));
        copies.push((*block, copy));
    }
    let mut phis = Vec::new();
    for (block, copy) in &copies {
        LLVMPositionBuilderAtEnd(b, *copy);
        for inst in ir::block_instructions(*block) {
            let name = ir::c_name(&ir::name(inst));
            let new = if ir::is_phi(inst) {
                let phi = LLVMBuildPhi(b, LLVMTypeOf(inst), name.as_ptr());
                phis.push((inst, phi));
                phi
            } else {
                let c = LLVMInstructionClone(inst);
                LLVMInsertIntoBuilderWithName(b, c, name.as_ptr());
                c
            };
            map.insert(inst, new);
        }
    }
    let mapped = |v: LLVMValueRef| *map.get(&v).unwrap_or(&v);
    for (_, copy) in &copies {
        for inst in ir::block_instructions(*copy) {
            if ir::is_phi(inst) {
                continue;
            }
            for i in 0..LLVMGetNumOperands(inst) as u32 {
                let o = LLVMGetOperand(inst, i);
                if let Some(m) = map.get(&o) {
                    LLVMSetOperand(inst, i, *m);
                }
            }
        }
    }
    for (original, phi) in phis {
        for i in 0..LLVMCountIncoming(original) {
            let mut value = [mapped(LLVMGetIncomingValue(original, i))];
            let from = LLVMGetIncomingBlock(original, i);
            let mut block = [LLVMValueAsBasicBlock(mapped(LLVMBasicBlockAsValue(from)))];
            LLVMAddIncoming(phi, value.as_mut_ptr(), block.as_mut_ptr(), 1);
        }
    }
    // The exits' phis: the copy leaves the loop to the same blocks.
    let mut exits = HashSet::new();
    for block in blocks {
        for s in ir::successors(*block) {
            if !in_loop.contains(&s) {
                exits.insert(s);
            }
        }
    }
    for exit in exits {
        for phi in ir::block_instructions(exit) {
            if !ir::is_phi(phi) {
                break;
            }
            for i in 0..LLVMCountIncoming(phi) {
                let from = LLVMGetIncomingBlock(phi, i);
                if in_loop.contains(&from) {
                    let mut value = [mapped(LLVMGetIncomingValue(phi, i))];
                    let mut block = [LLVMValueAsBasicBlock(mapped(LLVMBasicBlockAsValue(from)))];
                    LLVMAddIncoming(phi, value.as_mut_ptr(), block.as_mut_ptr(), 1);
                }
            }
        }
    }
    map
}
