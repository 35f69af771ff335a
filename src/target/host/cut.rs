//! A kernel that synchronises (barriers, warp collectives), cut at its synchronisations into
//! loops over its block's threads, in the manner of PoCL's work-group functions and COX's
//! hierarchical collapsing: `loom.cut.<kernel>(params, ntid_x, ntid_y)` has the signature of a
//! loop over threads (`thread_loop.rs`) and runs a whole block.
//!
//! How. After the kernel is inlined into the function, every synchronising runtime call gets a
//! block of its own (`S`: the call and a branch), so that the code between synchronisations falls
//! into **regions**: region 0 is what a thread runs from the kernel's start, region `k + 1` what
//! it runs after synchronisation `k`, each up to the next synchronisation or the kernel's end. A
//! region is a copy of its blocks (a block reached from two synchronisations, as in a loop with
//! a barrier inside, is copied into both) inside two loops over the block's threads (`tid.y`,
//! then `tid.x` fastest), with the thread's ids taken from the counters. A value used in another
//! region than the one that computed it (a value live across a synchronisation) lives in a
//! per-thread array: stored where it is computed, loaded where a region uses it. Where a thread
//! leaves a region for a synchronisation it stores the call's operands into per-thread arrays;
//! after the loop, the synchronisation happens for all threads at once: nothing for a barrier,
//! a compiled exchange over the arrays for a shuffle with a constant full mask, otherwise the
//! runtime's `loom_simt_cut_collective` with the scheduler's rules. The next region reads each
//! thread's result from an array. A region that threads may leave in more than one way (a
//! barrier inside a loop, or a return) records each thread's way and `loom_simt_cut_uniform`
//! checks that all agree: LOOM's verifier proves it for every kernel it emits; threads that
//! disagree stop the block with the sanitizer's barrier report.
//!
//! The order of each thread's operations is the kernel's: nothing is reassociated, so the
//! results are the coroutines' bit for bit. A kernel the transformation does not handle keeps
//! its coroutines (`coro.rs`), with the reason in [`build`]'s answer: private memory (an
//! `alloca`) in the kernel, a call the inliner left, a barrier of part of the block
//! (`barrier.sync` with a thread count), a runtime call a loop over threads cannot make.

use super::bounds::CHECK_BOUNDS;
use super::error::HostError;
use super::ir::{self, Builder};
use super::thread_loop::{self, ThreadValue};
use super::versioning;
use inkwell::llvm_sys::analysis::{LLVMVerifierFailureAction, LLVMVerifyFunction};
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::target::{LLVMABISizeOfType, LLVMTargetDataRef};
use inkwell::llvm_sys::{LLVMIntPredicate, LLVMOpcode, LLVMTypeKind};
use inkwell::module::Module;
use inkwell::targets::TargetMachine;
use std::collections::{HashMap, HashSet};

pub const CUT_PREFIX: &str = "loom.cut.";
const SCRATCH: &str = "loom_simt_cut_scratch";
const UNIFORM: &str = "loom_simt_cut_uniform";
const COLLECTIVE: &str = "loom_simt_cut_collective";

/// The name of `kernel`'s cut loop.
pub fn function_name(kernel: &str) -> String {
    format!("{CUT_PREFIX}{kernel}")
}

/// Adds `loom.cut.<kernel>(params, ntid_x, ntid_y)` around an `alwaysinline` call of the
/// kernel's entry; [`build`] cuts it after inlining.
///
/// # Safety
/// `context` and `module` must be live, the module owned by `context`; `entry` is the kernel's
/// entry function, `fn(ptr)`.
pub unsafe fn add(
    context: LLVMContextRef,
    module: LLVMModuleRef,
    kernel: &str,
    entry: LLVMValueRef,
) {
    let function = ir::add_block_function(context, module, &function_name(kernel));
    let start = LLVMAppendBasicBlockInContext(context, function, c"entry".as_ptr());
    let builder = Builder::new(context);
    LLVMPositionBuilderAtEnd(builder.raw(), start);
    let call = builder.call(
        LLVMGlobalGetValueType(entry),
        entry,
        &mut [LLVMGetParam(function, 0)],
    );
    ir::always_inline_call(context, call);
    LLVMBuildRetVoid(builder.raw());
    for inst in ir::instructions(entry) {
        if ir::is_call(inst) {
            ir::always_inline_call(context, inst);
        }
    }
}

/// After inlining: cuts every `loom.cut.*` function, or deletes it where the kernel does not
/// qualify. Returns the kernels cut, and for each other one the reason it keeps its coroutines.
///
/// # Safety
/// `context` and `module` must be live, the module owned by `context`, the always-inliner run;
/// `target_data` is the module's.
pub unsafe fn build(
    context: LLVMContextRef,
    module: LLVMModuleRef,
    target_data: LLVMTargetDataRef,
    uniform_proved: bool,
) -> (Vec<String>, Vec<(String, String)>) {
    let mut cut = Vec::new();
    let mut fallbacks = Vec::new();
    for function in ir::functions(module) {
        let name = ir::name(function);
        let Some(kernel) = name.strip_prefix(CUT_PREFIX) else {
            continue;
        };
        let kernel = kernel.to_string();
        let result = qualify(function).and_then(|syncs| {
            let mut cutter = Cutter::new(context, module, target_data, function);
            cutter.run(syncs, uniform_proved)?;
            cutter.tag_kernel_accesses();
            if LLVMVerifyFunction(function, LLVMVerifierFailureAction::LLVMReturnStatusAction) != 0
            {
                return Err("internal: the cut function does not verify".to_string());
            }
            Ok(())
        });
        match result {
            Ok(()) => cut.push(kernel),
            Err(why) => {
                LLVMDeleteFunction(function);
                fallbacks.push((kernel, why));
            }
        }
    }
    (cut, fallbacks)
}

/// A runtime function a region may call as it is, or whose value the cut supplies.
fn region_call_allowed(callee: &str) -> bool {
    !callee.starts_with("loom_simt_")
        || thread_loop::thread_value(callee).is_some()
        || thread_loop::BLOCK_WIDE.contains(&callee)
        || thread_loop::KEPT.contains(&callee)
        || callee == CHECK_BOUNDS
}

/// The synchronising calls of `function`, or why it cannot be cut. Looks, changes nothing.
unsafe fn qualify(function: LLVMValueRef) -> Result<Vec<LLVMValueRef>, String> {
    let mut syncs = Vec::new();
    for inst in ir::instructions(function) {
        match ir::opcode(inst) {
            LLVMOpcode::LLVMAlloca => {
                return Err("the kernel keeps private memory (an alloca) across its code".into())
            }
            LLVMOpcode::LLVMInvoke
            | LLVMOpcode::LLVMCallBr
            | LLVMOpcode::LLVMIndirectBr
            | LLVMOpcode::LLVMResume => {
                return Err(format!(
                    "an instruction a cut cannot copy: {}",
                    ir::text(inst)
                ))
            }
            _ => {}
        }
        if !ir::is_call(inst) {
            continue;
        }
        let Some(callee) = ir::callee(inst) else {
            return Err("a call through a pointer".into());
        };
        let name = ir::name(callee);
        if !ir::is_declaration(callee) {
            return Err(format!("a call of `{name}`, which the inliner left"));
        }
        if loom_simt::suspends(&name) {
            if loom_simt::cut_op(&name).is_none() {
                return Err(format!(
                    "a call of `{name}` (a barrier of part of the block), which the cut does not do"
                ));
            }
            syncs.push(inst);
        } else if !region_call_allowed(&name) {
            return Err(format!(
                "a call of `{name}`, which a loop over threads cannot make"
            ));
        }
    }
    if syncs.len() > MAX_SYNCS {
        return Err(format!(
            "{} synchronisations, more than the {MAX_SYNCS} a cut compiles in reasonable time",
            syncs.len()
        ));
    }
    Ok(syncs)
}

/// Beyond these the cut function (one loop nest per region, each region's blocks copied) grows
/// so large that LLVM's code generation takes minutes (a kernel of several scans over 3 blocks'
/// worth of elements has 500 synchronisations): such kernels keep their coroutines.
const MAX_SYNCS: usize = 96;
const MAX_COPIED_INSTRUCTIONS: usize = 40_000;

/// One synchronisation after splitting: its call, alone in block `block` with a branch to
/// `next`, where region `index + 1` starts.
struct Sync {
    call: LLVMValueRef,
    name: String,
    next: LLVMBasicBlockRef,
    /// The call's location id (its last argument), plus one: the code of a thread that leaves a
    /// region for it (0: the kernel's end).
    code: u64,
    /// Operands less the location id.
    operands: Vec<LLVMValueRef>,
    /// Slot of its operands' arrays (one per operand) and its results' array; a fused shuffle
    /// has one array, of its value operand, and none for its results.
    args_slot: usize,
    results_slot: Option<usize>,
    fused: Option<FusedShuffle>,
}

/// A shuffle with the full mask and constant lane operands (`b`, `c`), which is no step of its
/// own: each thread of the region after it reads the lane it shuffles from straight out of the
/// array of the value operand, 32 bits a thread (`Cutter::fused_result`). A shuffle up or down
/// reads the array at the thread's own index plus a constant, so the region's loop vectorises
/// with two contiguous loads and a select; without this, every shuffle cost a loop over the
/// threads reading four 64-bit operand arrays, a gather and a store of 64-bit results, which
/// the next region read again (sumOfSquares' nine shuffles: 396 bytes a thread in all).
#[derive(Clone, Copy)]
struct FusedShuffle {
    mode: ShuffleMode,
    b: u32,
    c: u32,
    /// Also says whether the source lane was in range (the `p` variants: bit 32 of the result).
    pair: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum ShuffleMode {
    Up,
    Down,
    Bfly,
    Idx,
}

impl ShuffleMode {
    fn from_name(sync_name: &str) -> Option<ShuffleMode> {
        let rest = sync_name.strip_prefix("loom_simt_shfl_sync_")?;
        Some(match rest.split('_').next()? {
            "up" => ShuffleMode::Up,
            "down" => ShuffleMode::Down,
            "bfly" => ShuffleMode::Bfly,
            "idx" => ShuffleMode::Idx,
            _ => return None,
        })
    }
}

/// How far before the first and after the last thread's element of a per-thread array a fused
/// shuffle may read (a lane that does not exist, whose value the select drops): 31 elements of
/// at most 8 bytes, rounded up. The allocation has this much room before its first array and
/// after its last.
const SLOT_PADDING: u64 = 256;

/// The sync `s` as a [`FusedShuffle`], where it is one.
unsafe fn fused_shuffle(s: &Sync) -> Option<FusedShuffle> {
    let mode = ShuffleMode::from_name(&s.name)?;
    let constant = |i: usize| -> Option<u64> {
        let v = *s.operands.get(i)?;
        (!LLVMIsAConstantInt(v).is_null()).then(|| LLVMConstIntGetZExtValue(v))
    };
    if constant(0)? & 0xffff_ffff != 0xffff_ffff || s.operands.len() != 4 {
        return None;
    }
    // The value operand is 32 bits (`i32` or `float`), as every shuffle's in the runtime.
    let value = LLVMTypeOf(s.operands[1]);
    let bits = match LLVMGetTypeKind(value) {
        LLVMTypeKind::LLVMFloatTypeKind => 32,
        LLVMTypeKind::LLVMIntegerTypeKind => LLVMGetIntTypeWidth(value),
        _ => 0,
    };
    (bits == 32).then_some(FusedShuffle {
        mode,
        b: constant(2)? as u32,
        c: constant(3)? as u32,
        pair: s.name.ends_with('p'),
    })
}

struct Region {
    entry: LLVMBasicBlockRef,
    /// In depth-first preorder from `entry`.
    blocks: Vec<LLVMBasicBlockRef>,
    members: HashSet<LLVMBasicBlockRef>,
    /// The synchronisations (by index) a thread may leave it for, and whether it may return.
    exits: Vec<usize>,
    returns: bool,
}

impl Region {
    fn multi_exit(&self) -> bool {
        self.exits.len() + self.returns as usize > 1
    }
}

/// A per-thread array: `bytes` per thread (the type's allocation size, or 8 per operand).
struct Slot {
    bytes: u64,
}

struct Cutter {
    context: LLVMContextRef,
    module: LLVMModuleRef,
    target_data: LLVMTargetDataRef,
    function: LLVMValueRef,
    builder: Builder,
    i32t: LLVMTypeRef,
    i64t: LLVMTypeRef,
    ptr: LLVMTypeRef,
    slots: Vec<Slot>,
    /// Filled in the new entry block once the slots are known.
    slot_bases: Vec<LLVMValueRef>,
    /// Value (instruction or sync call) → its slot, for values live across a synchronisation.
    demoted: HashMap<LLVMValueRef, usize>,
    codes_slot: Option<usize>,
    /// One alias scope per slot (`!alias.scope`/`!noalias`, [`Cutter::tag_slot_access`]): the
    /// slots are parts of the cut's own allocation, so no slot's element is another's, nor
    /// anything the kernel reaches. Without them the vectoriser wants runtime overlap checks
    /// between the slots and the kernel's arrays (`addrspace(1)`) or shared memory
    /// (`addrspace(3)`), which it cannot make across address spaces ("cannot identify array
    /// bounds"), and such region loops stay scalar.
    scopes: Vec<LLVMMetadataRef>,
    /// The block's thread count, computed in the entry.
    block_threads: LLVMValueRef,
    /// The loads and stores of slots, which [`Cutter::tag_kernel_accesses`] leaves alone.
    slot_accesses: std::cell::RefCell<HashSet<LLVMValueRef>>,
}

/// The per-region state of the copy.
struct Copy {
    region: usize,
    blocks: HashMap<LLVMBasicBlockRef, LLVMBasicBlockRef>,
    values: HashMap<LLVMValueRef, LLVMValueRef>,
    x: LLVMValueRef,
    y: LLVMValueRef,
    t: LLVMValueRef,
    t64: LLVMValueRef,
    latch: LLVMBasicBlockRef,
}

impl Cutter {
    unsafe fn new(
        context: LLVMContextRef,
        module: LLVMModuleRef,
        target_data: LLVMTargetDataRef,
        function: LLVMValueRef,
    ) -> Cutter {
        Cutter {
            context,
            module,
            target_data,
            function,
            builder: Builder::new(context),
            i32t: LLVMInt32TypeInContext(context),
            i64t: LLVMInt64TypeInContext(context),
            ptr: LLVMPointerTypeInContext(context, 0),
            slots: Vec::new(),
            slot_bases: Vec::new(),
            demoted: HashMap::new(),
            codes_slot: None,
            scopes: Vec::new(),
            block_threads: std::ptr::null_mut(),
            slot_accesses: std::cell::RefCell::new(HashSet::new()),
        }
    }

    fn b(&self) -> LLVMBuilderRef {
        self.builder.raw()
    }

    unsafe fn c32(&self, v: u64) -> LLVMValueRef {
        LLVMConstInt(self.i32t, v, 0)
    }

    unsafe fn c64(&self, v: u64) -> LLVMValueRef {
        LLVMConstInt(self.i64t, v, 0)
    }

    fn slot(&mut self, bytes: u64) -> usize {
        self.slots.push(Slot { bytes });
        self.slots.len() - 1
    }

    /// Moves `inst` and everything after it in its block into a new block, which the old one
    /// branches to; phis of the successors then name the new block.
    unsafe fn split_before(&self, inst: LLVMValueRef) -> LLVMBasicBlockRef {
        let old = LLVMGetInstructionParent(inst);
        let new = LLVMAppendBasicBlockInContext(self.context, self.function, c"".as_ptr());
        let mover = Builder::new(self.context);
        LLVMSetCurrentDebugLocation2(mover.raw(), std::ptr::null_mut());
        LLVMPositionBuilderAtEnd(mover.raw(), new);
        let mut i = inst;
        let mut moving = Vec::new();
        while !i.is_null() {
            moving.push(i);
            i = LLVMGetNextInstruction(i);
        }
        for i in moving {
            LLVMInstructionRemoveFromParent(i);
            LLVMInsertIntoBuilder(mover.raw(), i);
        }
        LLVMPositionBuilderAtEnd(mover.raw(), old);
        LLVMBuildBr(mover.raw(), new);
        let mut seen = HashSet::new();
        for succ in ir::successors(new) {
            if !seen.insert(succ) {
                continue;
            }
            for phi in ir::block_instructions(succ) {
                if !ir::is_phi(phi) {
                    break;
                }
                let n = LLVMCountIncoming(phi);
                if !(0..n).any(|k| LLVMGetIncomingBlock(phi, k) == old) {
                    continue;
                }
                let mut values = Vec::new();
                let mut blocks = Vec::new();
                for k in 0..n {
                    values.push(LLVMGetIncomingValue(phi, k));
                    let b = LLVMGetIncomingBlock(phi, k);
                    blocks.push(if b == old { new } else { b });
                }
                LLVMPositionBuilderBefore(mover.raw(), phi);
                let fresh = LLVMBuildPhi(mover.raw(), LLVMTypeOf(phi), c"".as_ptr());
                LLVMAddIncoming(fresh, values.as_mut_ptr(), blocks.as_mut_ptr(), n);
                LLVMReplaceAllUsesWith(phi, fresh);
                LLVMInstructionEraseFromParent(phi);
            }
        }
        new
    }

    unsafe fn run(&mut self, calls: Vec<LLVMValueRef>, uniform_proved: bool) -> Result<(), String> {
        // 1. Every synchronisation alone in its block.
        // (Operands are read once every split is done: a later split rebuilds the phis of the
        // blocks it branches to, which may be an earlier call's operands.)
        let mut split = Vec::new();
        for call in calls {
            self.split_before(call);
            let after = LLVMGetNextInstruction(call);
            let next = self.split_before(after);
            split.push((call, next));
        }
        let mut syncs = Vec::new();
        for (call, next) in split {
            let callee = ir::callee(call).ok_or("a synchronisation through a pointer")?;
            let mut operands = ir::call_args(call);
            let loc = operands
                .pop()
                .ok_or("a synchronisation without its location")?;
            let code = LLVMConstIntGetZExtValue(loc) + 1;
            syncs.push(Sync {
                call,
                name: ir::name(callee),
                next,
                code,
                operands,
                args_slot: 0,
                results_slot: None,
                fused: None,
            });
        }
        let sync_of: HashMap<LLVMBasicBlockRef, usize> = syncs
            .iter()
            .enumerate()
            .map(|(k, s)| (LLVMGetInstructionParent(s.call), k))
            .collect();
        let original: Vec<LLVMBasicBlockRef> = ir::blocks(self.function);

        // 2. The regions.
        let mut entries = vec![LLVMGetEntryBasicBlock(self.function)];
        entries.extend(syncs.iter().map(|s| s.next));
        let mut regions = Vec::new();
        for &entry in &entries {
            let mut region = Region {
                entry,
                blocks: Vec::new(),
                members: HashSet::new(),
                exits: Vec::new(),
                returns: false,
            };
            let mut stack = vec![entry];
            while let Some(b) = stack.pop() {
                if let Some(k) = sync_of.get(&b) {
                    if !region.exits.contains(k) {
                        region.exits.push(*k);
                    }
                    continue;
                }
                if !region.members.insert(b) {
                    continue;
                }
                region.blocks.push(b);
                let term = LLVMGetBasicBlockTerminator(b);
                if ir::opcode(term) == LLVMOpcode::LLVMRet {
                    region.returns = true;
                }
                let mut succ = ir::successors(b);
                succ.reverse();
                stack.extend(succ);
            }
            regions.push(region);
        }
        // Preorder, so that a block's dominators in the region come first.
        for region in &mut regions {
            region.blocks = preorder(region.entry, &region.members);
        }
        // Threads may leave such a region different ways only where synchronisation is not
        // block-uniform, which PTX allows (an exited thread releases a barrier; barrier 0
        // counts arrivals wherever they come from) and the coroutines emulate: only IR from
        // loomc, whose verifier proved its synchronisation uniform, is cut there. (The check
        // after such a region stays, for `--no-verify`.)
        if !uniform_proved && regions.iter().any(Region::multi_exit) {
            return Err(
                "threads may leave a region between synchronisations more than one way \
                 (a barrier in a loop, a return before a barrier), and the IR does not come from \
                 loomc, whose verifier proves synchronisation uniform"
                    .to_string(),
            );
        }
        let copied: usize = regions
            .iter()
            .flat_map(|r| r.blocks.iter())
            .map(|b| ir::block_instructions(*b).len())
            .sum();
        if copied > MAX_COPIED_INSTRUCTIONS {
            return Err(format!(
                "its regions copy {copied} instructions, more than the {MAX_COPIED_INSTRUCTIONS} a cut compiles in reasonable time"
            ));
        }

        // 3. Values live across a synchronisation. A use in block `u` of a value defined in
        // block `d` (a sync call's result: defined where its region starts) needs the value's
        // array when some region reaches `u` from its start without passing `d`.
        let mut def_block: HashMap<LLVMValueRef, LLVMBasicBlockRef> = HashMap::new();
        for &b in &original {
            if sync_of.contains_key(&b) {
                continue;
            }
            for inst in ir::block_instructions(b) {
                def_block.insert(inst, b);
            }
        }
        for s in &syncs {
            def_block.insert(s.call, s.next);
        }
        let mut avoiding: HashMap<(usize, LLVMBasicBlockRef), HashSet<LLVMBasicBlockRef>> =
            HashMap::new();
        // Thread ids and block-wide reads: every region computes its own, none needs an array.
        let mut ids: Vec<(LLVMValueRef, ThreadValue)> = Vec::new();
        let mut block_wide: Vec<LLVMValueRef> = Vec::new();
        for &bb in &original {
            for inst in ir::block_instructions(bb) {
                let Some(f) = ir::is_call(inst).then(|| ir::callee(inst)).flatten() else {
                    continue;
                };
                let name = ir::name(f);
                if let Some(which) = thread_loop::thread_value(&name) {
                    ids.push((inst, which));
                } else if thread_loop::BLOCK_WIDE.contains(&name.as_str()) {
                    block_wide.push(inst);
                }
            }
        }
        let launch_constants = self.launch_constants(original[0]);
        let special: HashSet<LLVMValueRef> = ids
            .iter()
            .map(|(i, _)| *i)
            .chain(block_wide.iter().copied())
            .chain(launch_constants.iter().copied())
            .collect();
        let mut candidates: Vec<LLVMValueRef> = def_block
            .keys()
            .copied()
            .filter(|v| !special.contains(v))
            .collect();
        candidates.sort();
        let mut demote = Vec::new();
        for v in candidates {
            if LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMTypeKind::LLVMVoidTypeKind || !ir::has_uses(v)
            {
                continue;
            }
            let d = def_block[&v];
            let mut remote = false;
            'uses: for user in ir::users(v) {
                if LLVMIsAInstruction(user).is_null() {
                    continue;
                }
                let mut use_blocks = Vec::new();
                if ir::is_phi(user) {
                    for k in 0..LLVMCountIncoming(user) {
                        if LLVMGetIncomingValue(user, k) == v {
                            use_blocks.push(LLVMGetIncomingBlock(user, k));
                        }
                    }
                } else {
                    use_blocks.push(LLVMGetInstructionParent(user));
                }
                for u in use_blocks {
                    for (r, region) in regions.iter().enumerate() {
                        let set = avoiding
                            .entry((r, d))
                            .or_insert_with(|| reach_avoiding(region, d, &sync_of));
                        if set.contains(&u) {
                            remote = true;
                            break 'uses;
                        }
                    }
                }
            }
            if remote {
                demote.push(v);
            }
        }
        for v in demote {
            let bytes = LLVMABISizeOfType(self.target_data, LLVMTypeOf(v)).max(1);
            let slot = self.slot(bytes);
            self.demoted.insert(v, slot);
        }
        for s in &mut syncs {
            s.fused = fused_shuffle(s);
            s.args_slot = self.slots.len();
            if s.fused.is_some() {
                self.slot(4);
                continue;
            }
            for _ in &s.operands {
                self.slot(8);
            }
            let returns = LLVMGetTypeKind(LLVMTypeOf(s.call)) != LLVMTypeKind::LLVMVoidTypeKind;
            if returns {
                s.results_slot = Some(self.slot(8));
            }
        }
        if regions.iter().any(Region::multi_exit) {
            self.codes_slot = Some(self.slot(4));
        }

        // 4. The new entry: the arrays, then the regions' loops.
        let old_entry = LLVMGetEntryBasicBlock(self.function);
        let entry = LLVMInsertBasicBlockInContext(self.context, old_entry, c"cut.entry".as_ptr());
        let b = self.b();
        LLVMPositionBuilderAtEnd(b, entry);
        let nx = LLVMGetParam(self.function, 1);
        let ny = LLVMGetParam(self.function, 2);
        let n = LLVMBuildMul(b, nx, ny, c"cut.n".as_ptr());
        self.block_threads = n;
        let n64 = LLVMBuildZExt(b, n, self.i64t, c"".as_ptr());
        let n16 = LLVMBuildAnd(
            b,
            LLVMBuildAdd(b, n64, self.c64(15), c"".as_ptr()),
            self.c64(!15),
            c"cut.n16".as_ptr(),
        );
        let per_thread: u64 = self.slots.iter().map(|s| s.bytes).sum();
        let scratch_fn = self.declare_scratch();
        let arrays = LLVMBuildMul(b, n16, self.c64(per_thread.max(1)), c"".as_ptr());
        let total = LLVMBuildAdd(b, arrays, self.c64(2 * SLOT_PADDING), c"".as_ptr());
        let scratch =
            self.builder
                .call(LLVMGlobalGetValueType(scratch_fn), scratch_fn, &mut [total]);
        let i8t = LLVMInt8TypeInContext(self.context);
        let mut offset = 0u64;
        for s in 0..self.slots.len() {
            let mut idx = [LLVMBuildAdd(
                b,
                LLVMBuildMul(b, n16, self.c64(offset), c"".as_ptr()),
                self.c64(SLOT_PADDING),
                c"".as_ptr(),
            )];
            let base =
                LLVMBuildInBoundsGEP2(b, i8t, scratch, idx.as_mut_ptr(), 1, c"cut.slot".as_ptr());
            self.slot_bases.push(base);
            offset += self.slots[s].bytes;
        }
        self.make_scopes();
        // Block-wide runtime reads: once, here (before the branch added at the end).
        let mut hoisted: HashMap<LLVMValueRef, LLVMValueRef> = HashMap::new();
        for call in block_wide {
            let f = ir::callee(call).ok_or("a call without callee")?;
            let v = match hoisted.get(&f) {
                Some(v) => *v,
                None => {
                    LLVMPositionBuilderAtEnd(b, entry);
                    let mut args = ir::call_args(call);
                    let v = self.builder.call(LLVMGlobalGetValueType(f), f, &mut args);
                    hoisted.insert(f, v);
                    v
                }
            };
            hoisted.insert(call, v);
        }

        // The launch's parameters: read once, here, rather than kept per thread.
        for &inst in &launch_constants {
            LLVMPositionBuilderAtEnd(b, entry);
            let clone = LLVMInstructionClone(inst);
            LLVMInsertIntoBuilder(b, clone);
            for i in 0..LLVMGetNumOperands(inst) as u32 {
                if let Some(&m) = hoisted.get(&LLVMGetOperand(inst, i)) {
                    LLVMSetOperand(clone, i, m);
                }
            }
            hoisted.insert(inst, clone);
        }

        // The loops, one pair per region, and the synchronisations between them.
        let mut heads = Vec::new();
        let mut dones = Vec::new();
        for r in 0..regions.len() {
            let rows = self.append(&format!("cut.r{r}.rows"));
            let done = self.append(&format!("cut.r{r}.done"));
            heads.push(rows);
            dones.push(done);
        }
        let sync_blocks: Vec<LLVMBasicBlockRef> = (0..syncs.len())
            .map(|k| self.append(&format!("cut.s{k}")))
            .collect();
        // Where each synchronisation's exchange ends, the one way into the next region.
        let sync_ends: Vec<LLVMBasicBlockRef> = (0..syncs.len())
            .map(|k| self.append(&format!("cut.s{k}.end")))
            .collect();
        LLVMPositionBuilderAtEnd(b, entry);
        LLVMBuildBr(b, heads[0]);
        let mut copies = Vec::new();
        for (r, region) in regions.iter().enumerate() {
            let enter = if r == 0 { entry } else { sync_ends[r - 1] };
            let copy = self.copy_region(
                r, region, &syncs, &sync_of, &hoisted, &ids, heads[r], dones[r], enter, nx, ny,
            )?;
            copies.push(copy);
        }
        for (r, copy) in copies.iter_mut().enumerate() {
            self.fill_phis(copy, &regions[r], &sync_of)?;
        }
        // After each region's loops: where its threads go.
        for (r, region) in regions.iter().enumerate() {
            LLVMPositionBuilderAtEnd(b, dones[r]);
            if region.multi_exit() {
                let codes = self.slot_bases[self.codes_slot.ok_or("no codes")?];
                let uniform = self.declare(UNIFORM, self.i32t, &mut [self.ptr, self.i32t]);
                let way =
                    self.builder
                        .call(LLVMGlobalGetValueType(uniform), uniform, &mut [codes, n]);
                // Disagreeing threads stopped the block; the answer is then u32::MAX.
                let stop = self.append(&format!("cut.r{r}.stop"));
                let switch = LLVMBuildSwitch(b, way, stop, region.exits.len() as u32 + 1);
                for &k in &region.exits {
                    LLVMAddCase(switch, self.c32(syncs[k].code), sync_blocks[k]);
                }
                if region.returns {
                    let ret = self.append(&format!("cut.r{r}.ret"));
                    LLVMAddCase(switch, self.c32(0), ret);
                    LLVMPositionBuilderAtEnd(b, ret);
                    LLVMBuildRetVoid(b);
                }
                LLVMPositionBuilderAtEnd(b, stop);
                LLVMBuildRetVoid(b);
            } else if let Some(&k) = region.exits.first() {
                LLVMBuildBr(b, sync_blocks[k]);
            } else {
                // Returns, or never leaves (an endless loop, or `unreachable`).
                LLVMBuildRetVoid(b);
            }
        }
        for (k, sync) in syncs.iter().enumerate() {
            self.exchange(sync, sync_blocks[k], sync_ends[k], n)?;
            LLVMPositionBuilderAtEnd(b, sync_ends[k]);
            LLVMBuildBr(b, heads[k + 1]);
        }

        // 5. The original blocks go.
        for &bb in &original {
            for inst in ir::block_instructions(bb) {
                if LLVMGetTypeKind(LLVMTypeOf(inst)) != LLVMTypeKind::LLVMVoidTypeKind {
                    LLVMReplaceAllUsesWith(inst, LLVMGetPoison(LLVMTypeOf(inst)));
                }
            }
        }
        for &bb in &original {
            let mut insts = ir::block_instructions(bb);
            insts.reverse();
            for inst in insts {
                LLVMInstructionEraseFromParent(inst);
            }
        }
        for &bb in &original {
            LLVMDeleteBasicBlock(bb);
        }
        Ok(())
    }

    /// The instructions of the kernel's first block `first` that read a launch's parameter
    /// (`entry.rs`: an `invariant.load` of a parameter's slot at a constant offset from the
    /// function's argument, or of the value through it), with those offsets: the same for every
    /// thread and safe to read for any block, so read once per block in the cut's entry (and
    /// not kept in a per-thread array where a later region uses them, which would hide them
    /// from the versioning of that region's bounds checks, `versioning.rs`). In order.
    unsafe fn launch_constants(&self, first: LLVMBasicBlockRef) -> Vec<LLVMValueRef> {
        let kind = LLVMGetMDKindIDInContext(
            self.context,
            c"invariant.load".as_ptr(),
            "invariant.load".len() as u32,
        );
        let args = LLVMGetParam(self.function, 0);
        let mut found: Vec<LLVMValueRef> = Vec::new();
        let known = |v: LLVMValueRef, found: &[LLVMValueRef]| v == args || found.contains(&v);
        for inst in ir::block_instructions(first) {
            let constant_gep = !LLVMIsAGetElementPtrInst(inst).is_null()
                && (1..LLVMGetNumOperands(inst) as u32)
                    .all(|i| !LLVMIsAConstantInt(LLVMGetOperand(inst, i)).is_null());
            let parameter_load = !LLVMIsALoadInst(inst).is_null()
                && LLVMGetVolatile(inst) == 0
                && !LLVMGetMetadata(inst, kind).is_null();
            if (constant_gep || parameter_load) && known(LLVMGetOperand(inst, 0), &found) {
                found.push(inst);
            }
        }
        found
    }

    unsafe fn append(&self, name: &str) -> LLVMBasicBlockRef {
        let name = ir::c_name(name);
        LLVMAppendBasicBlockInContext(self.context, self.function, name.as_ptr())
    }

    unsafe fn declare(
        &self,
        name: &str,
        result: LLVMTypeRef,
        params: &mut [LLVMTypeRef],
    ) -> LLVMValueRef {
        let fn_type = LLVMFunctionType(result, params.as_mut_ptr(), params.len() as u32, 0);
        ir::declare(self.module, name, fn_type)
    }

    unsafe fn md_kind(&self, name: &str) -> u32 {
        LLVMGetMDKindIDInContext(self.context, name.as_ptr().cast(), name.len() as u32)
    }

    unsafe fn md_string(&self, text: &str) -> LLVMMetadataRef {
        LLVMMDStringInContext2(self.context, text.as_ptr().cast(), text.len())
    }

    unsafe fn md_node(&self, operands: &mut [LLVMMetadataRef]) -> LLVMMetadataRef {
        LLVMMDNodeInContext2(self.context, operands.as_mut_ptr(), operands.len())
    }

    /// A domain for this function's slots and a scope in it for each slot (named after the
    /// function, so that two cut kernels' scopes stay apart).
    unsafe fn make_scopes(&mut self) {
        let name = ir::name(self.function);
        let mut domain = [self.md_string(&format!("{name}.slots"))];
        let domain = self.md_node(&mut domain);
        self.scopes = (0..self.slots.len())
            .map(|s| {
                let mut scope = [self.md_string(&format!("{name}.slot{s}")), domain];
                self.md_node(&mut scope)
            })
            .collect();
    }

    /// `!alias.scope` its slot's scope and `!noalias` every other slot's.
    unsafe fn tag_slot_access(&self, access: LLVMValueRef, slot: usize) {
        let mut own = [self.scopes[slot]];
        let own = self.md_node(&mut own);
        let mut others: Vec<LLVMMetadataRef> = (self.scopes.iter().enumerate())
            .filter(|&(s, _)| s != slot)
            .map(|(_, &scope)| scope)
            .collect();
        let others = self.md_node(&mut others);
        let (scope_kind, noalias_kind) = (self.md_kind("alias.scope"), self.md_kind("noalias"));
        LLVMSetMetadata(access, scope_kind, LLVMMetadataAsValue(self.context, own));
        if self.scopes.len() > 1 {
            LLVMSetMetadata(
                access,
                noalias_kind,
                LLVMMetadataAsValue(self.context, others),
            );
        }
        self.slot_accesses.borrow_mut().insert(access);
    }

    /// Every other load, store or atomic of the cut function (the kernel's own accesses, and the
    /// reads of the launch's parameters) is `!noalias` every slot's scope, added to the scopes
    /// it may have (the inliner's). Calls are left alone: the runtime's collectives read and
    /// write slots.
    unsafe fn tag_kernel_accesses(&self) {
        if self.scopes.is_empty() {
            return;
        }
        let kind = self.md_kind("noalias");
        let slot_accesses = self.slot_accesses.borrow();
        for inst in ir::instructions(self.function) {
            let memory = matches!(
                ir::opcode(inst),
                LLVMOpcode::LLVMLoad
                    | LLVMOpcode::LLVMStore
                    | LLVMOpcode::LLVMAtomicRMW
                    | LLVMOpcode::LLVMAtomicCmpXchg
            );
            if !memory || slot_accesses.contains(&inst) {
                continue;
            }
            let mut scopes = self.scopes.clone();
            let had = LLVMGetMetadata(inst, kind);
            if !had.is_null() {
                let count = LLVMGetMDNodeNumOperands(had) as usize;
                let mut operands = vec![std::ptr::null_mut(); count];
                LLVMGetMDNodeOperands(had, operands.as_mut_ptr());
                scopes.extend(operands.into_iter().map(|op| LLVMValueAsMetadata(op)));
            }
            let node = self.md_node(&mut scopes);
            LLVMSetMetadata(inst, kind, LLVMMetadataAsValue(self.context, node));
        }
    }

    unsafe fn declare_scratch(&self) -> LLVMValueRef {
        let f = self.declare(SCRATCH, self.ptr, &mut [self.i64t]);
        // Memory of its own, as malloc's: the arrays alias nothing the kernel reaches.
        let kind = LLVMGetEnumAttributeKindForName(c"noalias".as_ptr(), "noalias".len());
        LLVMAddAttributeAtIndex(f, 0, LLVMCreateEnumAttribute(self.context, kind, 0));
        f
    }

    /// The address of thread `t64`'s element of slot `slot`, elements of type `ty`.
    unsafe fn element(&self, slot: usize, ty: LLVMTypeRef, t64: LLVMValueRef) -> LLVMValueRef {
        let mut idx = [t64];
        LLVMBuildInBoundsGEP2(
            self.b(),
            ty,
            self.slot_bases[slot],
            idx.as_mut_ptr(),
            1,
            c"".as_ptr(),
        )
    }

    unsafe fn store(&self, value: LLVMValueRef, slot: usize, t64: LLVMValueRef) {
        let ty = LLVMTypeOf(value);
        let at = self.element(slot, ty, t64);
        let s = LLVMBuildStore(self.b(), value, at);
        LLVMSetAlignment(
            s,
            4.min(LLVMABISizeOfType(self.target_data, ty).max(1) as u32),
        );
        self.tag_slot_access(s, slot);
    }

    unsafe fn load(&self, ty: LLVMTypeRef, slot: usize, t64: LLVMValueRef) -> LLVMValueRef {
        let at = self.element(slot, ty, t64);
        let l = LLVMBuildLoad2(self.b(), ty, at, c"".as_ptr());
        LLVMSetAlignment(
            l,
            4.min(LLVMABISizeOfType(self.target_data, ty).max(1) as u32),
        );
        self.tag_slot_access(l, slot);
        l
    }

    /// The value `v` as region `copy` uses it in block `u`, loaded from its array (before
    /// `before`) where it comes from another region.
    unsafe fn use_of(
        &self,
        copy: &Copy,
        v: LLVMValueRef,
        u: LLVMBasicBlockRef,
        local: &dyn Fn(LLVMValueRef, LLVMBasicBlockRef) -> bool,
        before: LLVMValueRef,
    ) -> Result<LLVMValueRef, String> {
        if LLVMIsAInstruction(v).is_null() {
            return Ok(v);
        }
        if let (Some(&slot), false) = (self.demoted.get(&v), local(v, u)) {
            LLVMPositionBuilderBefore(self.b(), before);
            return Ok(self.load(LLVMTypeOf(v), slot, copy.t64));
        }
        copy.values.get(&v).copied().ok_or_else(|| {
            format!(
                "internal: no copy of `{}` (opcode {:?}) in region {}",
                ir::name(v),
                ir::opcode(v),
                copy.region
            )
        })
    }

    #[allow(clippy::too_many_arguments)]
    unsafe fn copy_region(
        &mut self,
        r: usize,
        region: &Region,
        syncs: &[Sync],
        sync_of: &HashMap<LLVMBasicBlockRef, usize>,
        hoisted: &HashMap<LLVMValueRef, LLVMValueRef>,
        ids: &[(LLVMValueRef, ThreadValue)],
        rows: LLVMBasicBlockRef,
        done: LLVMBasicBlockRef,
        enter: LLVMBasicBlockRef,
        nx: LLVMValueRef,
        ny: LLVMValueRef,
    ) -> Result<Copy, String> {
        let b = self.b();
        let threads = self.append(&format!("cut.r{r}.threads"));
        let latch = self.append(&format!("cut.r{r}.latch"));
        let row_end = self.append(&format!("cut.r{r}.row.end"));
        LLVMPositionBuilderAtEnd(b, rows);
        let y = LLVMBuildPhi(b, self.i32t, ir::c_name(&format!("cut.r{r}.y")).as_ptr());
        LLVMBuildBr(b, threads);
        LLVMPositionBuilderAtEnd(b, threads);
        let x = LLVMBuildPhi(b, self.i32t, ir::c_name(&format!("cut.r{r}.x")).as_ptr());
        let t = thread_loop::linear_thread(b, x, y, nx);
        let t64 = LLVMBuildZExt(b, t, self.i64t, c"".as_ptr());
        let mut copy = Copy {
            region: r,
            blocks: HashMap::new(),
            values: HashMap::new(),
            x,
            y,
            t,
            t64,
            latch,
        };
        copy.values.extend(hoisted.iter().map(|(k, v)| (*k, *v)));
        let mut by_kind: Vec<(u8, LLVMValueRef)> = Vec::new();
        for &(call, which) in ids {
            let key = which as u8;
            let v = match by_kind.iter().find(|(k, _)| *k == key) {
                Some((_, v)) => *v,
                None => {
                    LLVMPositionBuilderAtEnd(b, threads);
                    let v = self.thread_id(which, &copy);
                    by_kind.push((key, v));
                    v
                }
            };
            copy.values.insert(call, v);
        }
        for &bb in &region.blocks {
            let name = ir::c_name(&format!("cut.r{r}.{}", ir::block_name(bb)));
            let clone = LLVMAppendBasicBlockInContext(self.context, self.function, name.as_ptr());
            copy.blocks.insert(bb, clone);
        }
        LLVMPositionBuilderAtEnd(b, threads);
        LLVMBuildBr(b, copy.blocks[&region.entry]);
        // The counters.
        let next_x = {
            LLVMPositionBuilderAtEnd(b, latch);
            let next = LLVMBuildAdd(b, x, self.c32(1), c"".as_ptr());
            let more = LLVMBuildICmp(b, LLVMIntPredicate::LLVMIntULT, next, nx, c"".as_ptr());
            LLVMBuildCondBr(b, more, threads, row_end);
            next
        };
        LLVMPositionBuilderAtEnd(b, row_end);
        let next_y = LLVMBuildAdd(b, y, self.c32(1), c"".as_ptr());
        let more = LLVMBuildICmp(b, LLVMIntPredicate::LLVMIntULT, next_y, ny, c"".as_ptr());
        LLVMBuildCondBr(b, more, rows, done);
        LLVMAddIncoming(
            x,
            [self.c32(0), next_x].as_mut_ptr(),
            [rows, latch].as_mut_ptr(),
            2,
        );
        LLVMAddIncoming(
            y,
            [self.c32(0), next_y].as_mut_ptr(),
            [enter, row_end].as_mut_ptr(),
            2,
        );

        let set_thread = thread_loop::set_thread_function(self.context, self.module);
        // Which uses are local: computed from the region's reachability, as in `run`.
        let avoid_cache: std::cell::RefCell<
            HashMap<LLVMBasicBlockRef, HashSet<LLVMBasicBlockRef>>,
        > = Default::default();
        let def_of = |v: LLVMValueRef| -> Option<LLVMBasicBlockRef> {
            if let Some(&k) = sync_of.get(&LLVMGetInstructionParent(v)) {
                return Some(syncs[k].next);
            }
            Some(LLVMGetInstructionParent(v))
        };
        let local = |v: LLVMValueRef, u: LLVMBasicBlockRef| -> bool {
            let Some(d) = def_of(v) else { return false };
            if !region.members.contains(&d) {
                return false;
            }
            let mut cache = avoid_cache.borrow_mut();
            let set = cache
                .entry(d)
                .or_insert_with(|| reach_avoiding(region, d, sync_of));
            !set.contains(&u)
        };

        for &bb in &region.blocks {
            let clone = copy.blocks[&bb];
            LLVMPositionBuilderAtEnd(b, clone);
            // A region that starts after a synchronisation with a result reads it first.
            if let Some(k) = sync_of_entry(syncs, bb) {
                let sync = &syncs[k];
                let raw = match (sync.fused, sync.results_slot) {
                    (Some(shuffle), _) => Some(self.fused_result(shuffle, sync.args_slot, &copy)),
                    (None, Some(slot)) => Some(self.load(self.i64t, slot, t64)),
                    (None, None) => None,
                };
                if let Some(raw) = raw {
                    let ty = LLVMTypeOf(sync.call);
                    let v = self.value_from_bits(raw, ty);
                    copy.values.insert(sync.call, v);
                    if let Some(&s) = self.demoted.get(&sync.call) {
                        self.store(v, s, t64);
                    }
                }
            }
            let insts = ir::block_instructions(bb);
            // Phis first (incoming values later, in `fill_phis`).
            let mut phis = Vec::new();
            for &inst in &insts {
                if !ir::is_phi(inst) {
                    break;
                }
                LLVMPositionBuilderAtEnd(b, clone);
                let phi = LLVMBuildPhi(b, LLVMTypeOf(inst), c"".as_ptr());
                copy.values.insert(inst, phi);
                phis.push((inst, phi));
            }
            for (inst, phi) in &phis {
                if let Some(&s) = self.demoted.get(inst) {
                    LLVMPositionBuilderAtEnd(b, clone);
                    self.store(*phi, s, t64);
                }
            }
            for &inst in insts.iter().skip(phis.len()) {
                LLVMPositionBuilderAtEnd(b, clone);
                if LLVMIsATerminatorInst(inst).is_null() {
                    if hoisted.contains_key(&inst) {
                        // A launch's parameter, read in the entry.
                        continue;
                    }
                    // Calls the cut answers itself.
                    if ir::is_call(inst) {
                        let callee = ir::callee(inst).ok_or("a call through a pointer")?;
                        let name = ir::name(callee);
                        if name.starts_with("llvm.dbg.") {
                            continue;
                        }
                        if hoisted.contains_key(&inst) || thread_loop::thread_value(&name).is_some()
                        {
                            // Computed once for the region (or the block) above.
                            continue;
                        }
                        if name == CHECK_BOUNDS {
                            self.builder.call(
                                LLVMGlobalGetValueType(set_thread),
                                set_thread,
                                &mut [t],
                            );
                        }
                    }
                    let clone_inst = LLVMInstructionClone(inst);
                    LLVMSetCurrentDebugLocation2(b, std::ptr::null_mut());
                    LLVMInsertIntoBuilder(b, clone_inst);
                    for i in 0..LLVMGetNumOperands(inst).max(0) as u32 {
                        let op = LLVMGetOperand(inst, i);
                        if LLVMValueIsBasicBlock(op) != 0 {
                            continue;
                        }
                        let mapped = self.use_of(&copy, op, bb, &local, clone_inst)?;
                        if mapped != op {
                            LLVMSetOperand(clone_inst, i, mapped);
                        }
                    }
                    copy.values.insert(inst, clone_inst);
                    if let Some(&s) = self.demoted.get(&inst) {
                        LLVMPositionBuilderAtEnd(b, clone);
                        self.store(clone_inst, s, t64);
                    }
                    continue;
                }
                // The terminator.
                match ir::opcode(inst) {
                    LLVMOpcode::LLVMRet => {
                        if let (true, Some(codes)) = (region.multi_exit(), self.codes_slot) {
                            self.store(self.c32(0), codes, t64);
                        }
                        LLVMBuildBr(b, latch);
                    }
                    LLVMOpcode::LLVMUnreachable => {
                        LLVMBuildUnreachable(b);
                    }
                    _ => {
                        let clone_inst = LLVMInstructionClone(inst);
                        LLVMSetCurrentDebugLocation2(b, std::ptr::null_mut());
                        LLVMInsertIntoBuilder(b, clone_inst);
                        for i in 0..LLVMGetNumOperands(inst).max(0) as u32 {
                            let op = LLVMGetOperand(inst, i);
                            if LLVMValueIsBasicBlock(op) != 0 {
                                let target = LLVMValueAsBasicBlock(op);
                                let mapped = match sync_of.get(&target) {
                                    Some(&k) => {
                                        self.leave_for(&copy, region, &syncs[k], bb, &local)?
                                    }
                                    None => *copy
                                        .blocks
                                        .get(&target)
                                        .ok_or("internal: a successor outside the region")?,
                                };
                                LLVMSetOperand(clone_inst, i, LLVMBasicBlockAsValue(mapped));
                            } else {
                                let mapped = self.use_of(&copy, op, bb, &local, clone_inst)?;
                                if mapped != op {
                                    LLVMSetOperand(clone_inst, i, mapped);
                                }
                            }
                        }
                    }
                }
            }
        }
        Ok(copy)
    }

    /// A block where a thread of `copy` leaves for synchronisation `sync` from block `from`:
    /// stores the call's operands and the thread's way out, then goes to the latch.
    unsafe fn leave_for(
        &self,
        copy: &Copy,
        region: &Region,
        sync: &Sync,
        from: LLVMBasicBlockRef,
        local: &dyn Fn(LLVMValueRef, LLVMBasicBlockRef) -> bool,
    ) -> Result<LLVMBasicBlockRef, String> {
        let b = self.b();
        let saved = LLVMGetInsertBlock(b);
        let block = self.append(&format!("cut.r{}.leave", copy.region));
        LLVMPositionBuilderAtEnd(b, block);
        let br = LLVMBuildBr(b, copy.latch);
        for (i, &op) in sync.operands.iter().enumerate() {
            // A fused shuffle keeps only its value operand, as 32 bits.
            let slot = match sync.fused {
                Some(_) if i != 1 => continue,
                Some(_) => sync.args_slot,
                None => sync.args_slot + i,
            };
            // The operand as the region has it where it leaves (`from` reaches the sync block).
            let v = if LLVMIsAInstruction(op).is_null() {
                op
            } else {
                self.use_of(copy, op, from, local, br)?
            };
            LLVMPositionBuilderBefore(b, br);
            let bits = match sync.fused {
                Some(_) if LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMTypeKind::LLVMFloatTypeKind => {
                    LLVMBuildBitCast(b, v, self.i32t, c"".as_ptr())
                }
                Some(_) => v,
                None => self.to_bits(v),
            };
            self.store(bits, slot, copy.t64);
        }
        if let (true, Some(codes)) = (region.multi_exit(), self.codes_slot) {
            LLVMPositionBuilderBefore(b, br);
            self.store(self.c32(sync.code), codes, copy.t64);
        }
        LLVMPositionBuilderAtEnd(b, saved);
        Ok(block)
    }

    unsafe fn fill_phis(
        &self,
        copy: &mut Copy,
        region: &Region,
        sync_of: &HashMap<LLVMBasicBlockRef, usize>,
    ) -> Result<(), String> {
        let avoid_cache: std::cell::RefCell<
            HashMap<LLVMBasicBlockRef, HashSet<LLVMBasicBlockRef>>,
        > = Default::default();
        let local = |v: LLVMValueRef, u: LLVMBasicBlockRef| -> bool {
            let d = LLVMGetInstructionParent(v);
            // A sync call's result is never a phi's operand directly in another region without
            // its array; treat it as defined where its region starts.
            let d = match sync_of.get(&d) {
                Some(_) => LLVMGetSuccessor(LLVMGetBasicBlockTerminator(d), 0),
                None => d,
            };
            if !region.members.contains(&d) {
                return false;
            }
            let mut cache = avoid_cache.borrow_mut();
            let set = cache
                .entry(d)
                .or_insert_with(|| reach_avoiding(region, d, sync_of));
            !set.contains(&u)
        };
        for &bb in &region.blocks {
            for inst in ir::block_instructions(bb) {
                if !ir::is_phi(inst) {
                    break;
                }
                let phi = copy.values[&inst];
                for k in 0..LLVMCountIncoming(inst) {
                    let pred = LLVMGetIncomingBlock(inst, k);
                    let Some(&pred_clone) = copy.blocks.get(&pred) else {
                        continue;
                    };
                    let v = LLVMGetIncomingValue(inst, k);
                    let term = LLVMGetBasicBlockTerminator(pred_clone);
                    let mapped = self.use_of(copy, v, pred, &local, term)?;
                    let mut vals = [mapped];
                    let mut blocks = [pred_clone];
                    LLVMAddIncoming(phi, vals.as_mut_ptr(), blocks.as_mut_ptr(), 1);
                }
            }
        }
        Ok(())
    }

    unsafe fn thread_id(&self, which: ThreadValue, copy: &Copy) -> LLVMValueRef {
        let b = self.b();
        let lane = LLVMBuildAnd(b, copy.t, self.c32(31), c"lane".as_ptr());
        let bit = LLVMBuildShl(b, self.c32(1), lane, c"".as_ptr());
        let below = LLVMBuildSub(b, bit, self.c32(1), c"".as_ptr());
        match which {
            ThreadValue::TidX => copy.x,
            ThreadValue::TidY => copy.y,
            ThreadValue::Lane => lane,
            ThreadValue::Warp => LLVMBuildLShr(b, copy.t, self.c32(5), c"".as_ptr()),
            ThreadValue::MaskEq => bit,
            ThreadValue::MaskLt => below,
            ThreadValue::MaskLe => LLVMBuildOr(b, below, bit, c"".as_ptr()),
            ThreadValue::MaskGt => {
                let le = LLVMBuildOr(b, below, bit, c"".as_ptr());
                LLVMBuildNot(b, le, c"".as_ptr())
            }
            ThreadValue::MaskGe => LLVMBuildNot(b, below, c"".as_ptr()),
        }
    }

    /// An operand as the 64 bits the arrays hold: integers zero-extended, floats by their bits.
    unsafe fn to_bits(&self, v: LLVMValueRef) -> LLVMValueRef {
        let b = self.b();
        let ty = LLVMTypeOf(v);
        let v = match LLVMGetTypeKind(ty) {
            LLVMTypeKind::LLVMFloatTypeKind => LLVMBuildBitCast(b, v, self.i32t, c"".as_ptr()),
            LLVMTypeKind::LLVMDoubleTypeKind => LLVMBuildBitCast(b, v, self.i64t, c"".as_ptr()),
            _ => v,
        };
        if LLVMGetIntTypeWidth(LLVMTypeOf(v)) < 64 {
            LLVMBuildZExt(b, v, self.i64t, c"".as_ptr())
        } else {
            v
        }
    }

    /// A result's 64 bits as the runtime function's result type.
    unsafe fn value_from_bits(&self, raw: LLVMValueRef, ty: LLVMTypeRef) -> LLVMValueRef {
        let b = self.b();
        match LLVMGetTypeKind(ty) {
            LLVMTypeKind::LLVMFloatTypeKind => {
                let low = LLVMBuildTrunc(b, raw, self.i32t, c"".as_ptr());
                LLVMBuildBitCast(b, low, ty, c"".as_ptr())
            }
            LLVMTypeKind::LLVMIntegerTypeKind if LLVMGetIntTypeWidth(ty) < 64 => {
                LLVMBuildTrunc(b, raw, ty, c"".as_ptr())
            }
            _ => raw,
        }
    }

    /// The synchronisation itself, for every thread at once, in `block`; then on to `next`.
    unsafe fn exchange(
        &self,
        sync: &Sync,
        block: LLVMBasicBlockRef,
        next: LLVMBasicBlockRef,
        n: LLVMValueRef,
    ) -> Result<(), String> {
        let b = self.b();
        LLVMPositionBuilderAtEnd(b, block);
        let full_mask = sync.operands.first().is_some_and(|m| {
            !LLVMIsAConstantInt(*m).is_null()
                && LLVMConstIntGetZExtValue(*m) & 0xffff_ffff == 0xffff_ffff
        });
        let shfl_mode = ShuffleMode::from_name(&sync.name);
        // A fused shuffle happens where the next region reads it.
        if loom_simt::cut_is_barrier(&sync.name)
            || (sync.name == "loom_simt_bar_warp_sync" && full_mask)
            || sync.fused.is_some()
        {
            LLVMBuildBr(b, next);
            return Ok(());
        }
        if let (Some(mode), true, Some(results)) = (shfl_mode, full_mask, sync.results_slot) {
            let pair = sync.name.ends_with('p');
            self.shuffle_loop(mode, pair, sync.args_slot, results, n, block, next);
            return Ok(());
        }
        let op = loom_simt::cut_op(&sync.name).ok_or("internal: an unknown synchronisation")?;
        let collective = self.declare(
            COLLECTIVE,
            LLVMVoidTypeInContext(self.context),
            &mut [self.i32t, self.ptr, self.ptr, self.i32t, self.i32t],
        );
        let results = match sync.results_slot {
            Some(s) => self.slot_bases[s],
            None => LLVMConstNull(self.ptr),
        };
        let args = match sync.operands.len() {
            0 => LLVMConstNull(self.ptr),
            _ => self.slot_bases[sync.args_slot],
        };
        self.builder.call(
            LLVMGlobalGetValueType(collective),
            collective,
            &mut [
                self.c32(op as u64),
                args,
                results,
                n,
                self.c32(sync.code - 1),
            ],
        );
        LLVMBuildBr(b, next);
        Ok(())
    }

    /// A shuffle with the full mask, compiled: `results[t]` is the operand of the lane PTX's
    /// `shfl.sync` reads (`loom_simt::warp::shfl_source`), or `t`'s own where that lane does not
    /// exist (past the block's last thread), as the scheduler does.
    #[allow(clippy::too_many_arguments)]
    unsafe fn shuffle_loop(
        &self,
        mode: ShuffleMode,
        pair: bool,
        args: usize,
        results: usize,
        n: LLVMValueRef,
        block: LLVMBasicBlockRef,
        next: LLVMBasicBlockRef,
    ) {
        let b = self.b();
        let body = self.append("cut.shfl");
        LLVMPositionBuilderAtEnd(b, block);
        LLVMBuildBr(b, body);
        LLVMPositionBuilderAtEnd(b, body);
        let t = LLVMBuildPhi(b, self.i32t, c"cut.lane.t".as_ptr());
        let t64 = LLVMBuildZExt(b, t, self.i64t, c"".as_ptr());
        let lane = LLVMBuildAnd(b, t, self.c32(31), c"".as_ptr());
        let warp_start = LLVMBuildSub(b, t, lane, c"".as_ptr());
        let operand = |i: usize| {
            let raw = self.load(self.i64t, args + i, t64);
            LLVMBuildTrunc(b, raw, self.i32t, c"".as_ptr())
        };
        let (j, in_range) = self.shuffle_source(mode, lane, operand(2), operand(3));
        let source_lane = LLVMBuildSelect(b, in_range, j, lane, c"".as_ptr());
        let source = LLVMBuildAdd(b, warp_start, source_lane, c"".as_ptr());
        let exists = LLVMBuildICmp(b, LLVMIntPredicate::LLVMIntULT, source, n, c"".as_ptr());
        let from = LLVMBuildSelect(b, exists, source, t, c"".as_ptr());
        let from64 = LLVMBuildZExt(b, from, self.i64t, c"".as_ptr());
        let value = self.load(self.i64t, args + 1, from64);
        let value = LLVMBuildAnd(b, value, self.c64(0xffff_ffff), c"".as_ptr());
        let result = if pair {
            let p = LLVMBuildZExt(b, in_range, self.i64t, c"".as_ptr());
            let p = LLVMBuildShl(b, p, self.c64(32), c"".as_ptr());
            LLVMBuildOr(b, value, p, c"".as_ptr())
        } else {
            value
        };
        self.store(result, results, t64);
        let t_next = LLVMBuildAdd(b, t, self.c32(1), c"".as_ptr());
        let more = LLVMBuildICmp(b, LLVMIntPredicate::LLVMIntULT, t_next, n, c"".as_ptr());
        LLVMBuildCondBr(b, more, body, next);
        LLVMAddIncoming(
            t,
            [self.c32(0), t_next].as_mut_ptr(),
            [block, body].as_mut_ptr(),
            2,
        );
    }

    /// The lane a shuffle in `mode` reads for `lane`, with `b` and `c` its operands, and whether
    /// that lane is in range (when it is not, the lane reads its own value): PTX ISA's
    /// pseudo-code for `shfl.sync`, as `loom_simt::warp::shfl_source` (`c` packs the clamp value,
    /// bits 0-4, and the segment mask, bits 8-12).
    unsafe fn shuffle_source(
        &self,
        mode: ShuffleMode,
        lane: LLVMValueRef,
        b_operand: LLVMValueRef,
        c: LLVMValueRef,
    ) -> (LLVMValueRef, LLVMValueRef) {
        let b = self.b();
        let bv = LLVMBuildAnd(b, b_operand, self.c32(31), c"".as_ptr());
        let cval = LLVMBuildAnd(b, c, self.c32(31), c"".as_ptr());
        let segmask = LLVMBuildAnd(
            b,
            LLVMBuildLShr(b, c, self.c32(8), c"".as_ptr()),
            self.c32(31),
            c"".as_ptr(),
        );
        let not_seg = LLVMBuildNot(b, segmask, c"".as_ptr());
        let min_lane = LLVMBuildAnd(b, lane, segmask, c"".as_ptr());
        let max_lane = LLVMBuildOr(
            b,
            min_lane,
            LLVMBuildAnd(b, cval, not_seg, c"".as_ptr()),
            c"".as_ptr(),
        );
        let within = |j: LLVMValueRef, predicate| {
            (j, LLVMBuildICmp(b, predicate, j, max_lane, c"".as_ptr()))
        };
        match mode {
            ShuffleMode::Up => within(
                LLVMBuildSub(b, lane, bv, c"".as_ptr()),
                LLVMIntPredicate::LLVMIntSGE,
            ),
            ShuffleMode::Down => within(
                LLVMBuildAdd(b, lane, bv, c"".as_ptr()),
                LLVMIntPredicate::LLVMIntULE,
            ),
            ShuffleMode::Bfly => within(
                LLVMBuildXor(b, lane, bv, c"".as_ptr()),
                LLVMIntPredicate::LLVMIntULE,
            ),
            ShuffleMode::Idx => within(
                LLVMBuildOr(
                    b,
                    min_lane,
                    LLVMBuildAnd(b, bv, not_seg, c"".as_ptr()),
                    c"".as_ptr(),
                ),
                LLVMIntPredicate::LLVMIntULE,
            ),
        }
    }

    /// A fused shuffle's result for the thread of `copy`, as the 64 bits [`Self::shuffle_loop`]
    /// would have stored for it: the value operand of the lane it reads, or its own where that
    /// lane is out of range or does not exist (past the block's last thread).
    unsafe fn fused_result(
        &self,
        shuffle: FusedShuffle,
        values: usize,
        copy: &Copy,
    ) -> LLVMValueRef {
        let b = self.b();
        let t = copy.t;
        let lane = LLVMBuildAnd(b, t, self.c32(31), c"".as_ptr());
        let (j, in_range) = self.shuffle_source(
            shuffle.mode,
            lane,
            self.c32(u64::from(shuffle.b)),
            self.c32(u64::from(shuffle.c)),
        );
        let warp_start = LLVMBuildSub(b, t, lane, c"".as_ptr());
        let source = LLVMBuildAdd(b, warp_start, j, c"".as_ptr());
        let exists = LLVMBuildICmp(
            b,
            LLVMIntPredicate::LLVMIntULT,
            source,
            self.block_threads,
            c"".as_ptr(),
        );
        let take = LLVMBuildAnd(b, in_range, exists, c"".as_ptr());
        let own = self.load(self.i32t, values, copy.t64);
        let other_at = match shuffle.mode {
            // The source is the thread's own index plus a constant: a contiguous load, which
            // the region's loop vectorises. Lanes that do not take it read up to 31 elements
            // before or after the array (the padding, or a neighbouring array), and drop it.
            ShuffleMode::Up | ShuffleMode::Down => {
                let step = u64::from(shuffle.b & 31);
                let delta = match shuffle.mode {
                    ShuffleMode::Up => step.wrapping_neg(),
                    _ => step,
                };
                LLVMBuildAdd(b, copy.t64, self.c64(delta), c"".as_ptr())
            }
            ShuffleMode::Bfly | ShuffleMode::Idx => {
                let from = LLVMBuildSelect(b, take, source, t, c"".as_ptr());
                LLVMBuildZExt(b, from, self.i64t, c"".as_ptr())
            }
        };
        let other = self.load(self.i32t, values, other_at);
        let value = LLVMBuildSelect(b, take, other, own, c"".as_ptr());
        let raw = LLVMBuildZExt(b, value, self.i64t, c"".as_ptr());
        if !shuffle.pair {
            return raw;
        }
        let p = LLVMBuildZExt(b, in_range, self.i64t, c"".as_ptr());
        let p = LLVMBuildShl(b, p, self.c64(32), c"".as_ptr());
        LLVMBuildOr(b, raw, p, c"".as_ptr())
    }
}

/// The synchronisation whose region starts at `block`.
fn sync_of_entry(syncs: &[Sync], block: LLVMBasicBlockRef) -> Option<usize> {
    syncs.iter().position(|s| s.next == block)
}

/// `region`'s blocks in depth-first preorder from its entry.
unsafe fn preorder(
    entry: LLVMBasicBlockRef,
    members: &HashSet<LLVMBasicBlockRef>,
) -> Vec<LLVMBasicBlockRef> {
    let mut order = Vec::new();
    let mut seen = HashSet::new();
    let mut stack = vec![entry];
    while let Some(b) = stack.pop() {
        if !members.contains(&b) || !seen.insert(b) {
            continue;
        }
        order.push(b);
        let mut succ = ir::successors(b);
        succ.reverse();
        stack.extend(succ);
    }
    order
}

/// The blocks of `region` (and the synchronisation blocks it leaves for) that a thread reaches
/// from the region's start without passing block `d`: where a value defined in `d` is not
/// available in the region's copy.
unsafe fn reach_avoiding(
    region: &Region,
    d: LLVMBasicBlockRef,
    sync_of: &HashMap<LLVMBasicBlockRef, usize>,
) -> HashSet<LLVMBasicBlockRef> {
    let mut seen = HashSet::new();
    if region.entry == d {
        return seen;
    }
    let mut stack = vec![region.entry];
    while let Some(b) = stack.pop() {
        if b == d || !seen.insert(b) {
            continue;
        }
        if sync_of.contains_key(&b) || !region.members.contains(&b) {
            continue;
        }
        stack.extend(ir::successors(b));
    }
    seen
}

/// The loops' optimisation, as for the loops over threads of kernels that never synchronise
/// (`thread_loop::optimise`), each region's loop nest versioned as theirs are (`versioning.rs`)
/// unless `version` is off. Returns how many nests were versioned.
pub fn optimise(
    module: &Module<'_>,
    machine: &TargetMachine,
    version: bool,
) -> Result<usize, HostError> {
    thread_loop::optimise_functions(module, machine, CUT_PREFIX, version, |function| {
        // SAFETY: a function of the module.
        unsafe { region_counters(function) }
    })
}

/// How many loops the vectoriser made in the cut functions (its `vector.body` blocks).
pub fn vector_loops(module: &Module<'_>) -> usize {
    module
        .get_functions()
        .filter(|f| f.get_name().to_string_lossy().starts_with(CUT_PREFIX))
        .flat_map(|f| f.get_basic_blocks())
        .filter(|b| b.get_name().to_string_lossy().starts_with("vector.body"))
        .count()
}

/// The counters of each region's loops still in `function` (`cut.r<k>.x`, `cut.r<k>.y`, as
/// [`Cutter::copy_region`] names them; a copy versioning made has other names).
unsafe fn region_counters(function: LLVMValueRef) -> Vec<versioning::Counters> {
    let mut regions: Vec<u64> = ir::instructions(function)
        .into_iter()
        .filter(|i| ir::is_phi(*i))
        .filter_map(|i| {
            let name = ir::name(i);
            let k = name.strip_prefix("cut.r")?.strip_suffix(".y")?;
            k.parse().ok()
        })
        .collect();
    regions.sort_unstable();
    regions.dedup();
    regions
        .into_iter()
        .map(|k| versioning::Counters {
            x: format!("cut.r{k}.x"),
            y: format!("cut.r{k}.y"),
            block: None,
        })
        .collect()
}
