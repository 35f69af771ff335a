//! A witness found by running one block on a concrete input (issue 16: the compare-exchange
//! writes of block sorts, under comparisons of data in shared memory).
//!
//! When the pair test leaves accesses undecided (E0852), the block is run, thread by thread, on
//! a few concrete inputs: every element of the kernel's pointer parameters' arrays holding 0, its
//! index, a descending value, or its index's parity (each array read with one element size).
//! Block 0 runs; scalar parameters, grid sizes and anything the interpreter does not know
//! (floating point, atomics, calls, private memory, pointers loaded from memory, shared memory
//! read before it is written) end the run without a witness.
//!
//! Each barrier interval is run once per thread, alone, from the memory the interval starts
//! with (each thread sees its own writes). If no thread touches a byte another thread writes,
//! these solo runs are what every schedule does, the interval's writes are merged and the run
//! goes on past the barrier (all threads must stop at the same one). Otherwise there is a
//! race, and a schedule that shows it: thread A runs the interval to its end first, then
//! thread B, whose run is its solo run up to its first access of a byte some other thread A
//! writes (every earlier load of B reads a byte no other thread writes); that access and A's
//! write are not ordered by any barrier. Distinct pointer parameters are taken not to overlap,
//! as everywhere in the verifier.

use crate::fast_hash::{HashMap, HashSet};

use super::address::Object;
use crate::findings::{AccessKind, Finding, Race, RaceAccess};
use crate::ir::{BinOp, BlockId, CastOp, GepIndex, InstId, Op, Ty, Val};
use crate::kernel::Context;
use crate::nvvm::{self, BarrierKind, Intrinsic, Sreg};
use crate::threads::{binary, compare, mask, signed, Geometry};

/// Instructions all runs of a kernel may take together, over all threads and intervals (about
/// 50 ns each).
const MOST_STEPS: usize = 6_000_000;
/// The taint bit of values loaded from memory ([`Thread::taint`]); parameters use bits 0-62.
const DATA: u64 = 1 << 63;

/// Registers of all threads together (one per thread and instruction).
const MOST_REGISTERS: usize = 1 << 20;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum V {
    Int(u64),
    Ptr(Object, i64),
    /// A value the run does not follow (floating point, a loaded pointer, shared memory read
    /// before it is written): it may be moved and stored, but a branch, an address or a
    /// division that needs it ends the run.
    Unknown,
}

/// Floating-point and vector instructions: their results are [`V::Unknown`].
const UNFOLLOWED: [&str; 17] = [
    "fneg",
    "fadd",
    "fsub",
    "fmul",
    "fdiv",
    "frem",
    "fptoui",
    "fptosi",
    "uitofp",
    "sitofp",
    "fptrunc",
    "fpext",
    "fcmp",
    "extractelement",
    "insertelement",
    "shufflevector",
    "insertvalue",
];

/// The values every integer parameter takes in turn (all the same value in one run): small
/// widths and lengths, where threads' indices meet.
const PARAMETER_VALUES: [u64; 6] = [8, 1, 2, 16, 3, 64];

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Input {
    Zeros,
    Ascending,
    Descending,
    Alternating,
}

const DESCENDING_FROM: u64 = 1_000_000;

impl Input {
    fn element(self, index: u64) -> u64 {
        match self {
            Input::Zeros => 0,
            Input::Ascending => index,
            Input::Descending => DESCENDING_FROM.wrapping_sub(index),
            Input::Alternating => index % 2,
        }
    }

    /// The assumption a race on this input is reported with (`with NAME = VALUE`).
    fn assumption(self, name: &str) -> (String, i128) {
        match self {
            Input::Zeros => (format!("every element of {name}"), 0),
            Input::Ascending => (
                format!("{name}[i] = i for every i (an ascending input), so {name}[1]"),
                1,
            ),
            Input::Descending => (
                format!(
                    "{name}[i] = {DESCENDING_FROM} - i for every i (a descending input), so \
                     {name}[0]"
                ),
                DESCENDING_FROM as i128,
            ),
            Input::Alternating => (
                format!("{name}[i] = i % 2 for every i (alternating 0 and 1), so {name}[1]"),
                1,
            ),
        }
    }
}

struct Access {
    inst: InstId,
    object: Object,
    offset: i64,
    bytes: u64,
    write: bool,
}

enum Stop {
    Barrier(InstId),
    Return,
}

struct Thread {
    regs: Vec<Option<V>>,
    /// Per register, what its value is computed from: bit [`DATA`] for a value loaded from
    /// memory, bit `a` for integer parameter `a` (by data flow).
    taint: Vec<u64>,
    block: BlockId,
    pos: usize,
}

struct Machine<'a> {
    cx: &'a Context<'a>,
    geometry: [u32; 3],
    input: Input,
    /// The value of every integer parameter, if the kernel has any.
    parameter: u64,
    /// The integer parameters the run read (by bit).
    parameters_read: u64,
    /// The parameters (by bit) that a branch or `select` of the run tested.
    tested: u64,
    /// The accesses that may use an address computed from data in memory: halves of updates
    /// (`h[bin] += 1`). A plain store or load through a loaded index (`s[perm[t]] = x`) ends the
    /// run: such a scatter is race-free whenever the indices are a permutation, a precondition
    /// the IR cannot show, and only its warning stays.
    updates: &'a HashSet<InstId>,
    /// Bytes written by earlier intervals (`None`: written with a value the run does not know).
    memory: HashMap<(Object, i64), Option<u8>>,
    /// Per array read with the input's contents: the element size it was read with.
    element_size: HashMap<Object, u64>,
    steps: usize,
    /// Only a read of a byte another thread writes is reported (writes of the same value by
    /// several threads are not races for the caller).
    tolerate_same_value_writes: bool,
}

/// A race between two threads of block 0 on one of the inputs tried, if running the block
/// shows one (see the module's comment).
pub fn witness(
    cx: &Context<'_>,
    updates: &HashSet<InstId>,
    tolerate_same_value_writes: bool,
) -> Option<Finding> {
    let Geometry::Known(geometry) = cx.threads.geometry() else {
        return None;
    };
    let count: usize = geometry.iter().map(|d| *d as usize).product();
    if !(2..=1024).contains(&count) || count * cx.function.insts.len() > MOST_REGISTERS {
        return None;
    }
    let parameters: &[u64] = if cx.function.args.iter().any(|a| matches!(a.ty, Ty::Int(_))) {
        &PARAMETER_VALUES
    } else {
        &PARAMETER_VALUES[..1]
    };
    let mut steps = 0;
    for &parameter in parameters {
        for input in [
            Input::Zeros,
            Input::Ascending,
            Input::Descending,
            Input::Alternating,
        ] {
            let mut machine = Machine {
                cx,
                geometry,
                input,
                parameter,
                parameters_read: 0,
                tested: 0,
                updates,
                memory: HashMap::default(),
                element_size: HashMap::default(),
                steps,
                tolerate_same_value_writes,
            };
            if let Some(found) = machine.run(count) {
                return Some(found);
            }
            steps = machine.steps;
            if steps > MOST_STEPS {
                return None;
            }
        }
    }
    None
}

impl Machine<'_> {
    fn run(&mut self, count: usize) -> Option<Finding> {
        let function = self.cx.function;
        let mut threads: Vec<Thread> = (0..count)
            .map(|_| Thread {
                regs: vec![None; function.insts.len()],
                taint: vec![0; function.insts.len()],
                block: 0,
                pos: 0,
            })
            .collect();
        let mut start: Option<InstId> = None;
        loop {
            let mut traces = Vec::with_capacity(count);
            let mut overlays = Vec::with_capacity(count);
            let mut stops = Vec::with_capacity(count);
            for (t, thread) in threads.iter_mut().enumerate() {
                let mut trace = Vec::new();
                let mut overlay = HashMap::default();
                stops.push(self.interval(t, thread, &mut trace, &mut overlay)?);
                traces.push(trace);
                overlays.push(overlay);
            }
            // Per byte, up to two threads that write it (one other than any given thread).
            let mut writers: HashMap<(Object, i64), Vec<(usize, usize)>> = HashMap::default();
            for (t, trace) in traces.iter().enumerate() {
                for (k, access) in trace.iter().enumerate().filter(|(_, a)| a.write) {
                    for byte in access.offset..access.offset + access.bytes as i64 {
                        let list = writers.entry((access.object, byte)).or_default();
                        if list.len() < 2 && !list.iter().any(|(w, _)| *w == t) {
                            list.push((t, k));
                        }
                    }
                }
            }
            for (t, trace) in traces.iter().enumerate() {
                for access in trace {
                    // A write does not change what the thread reads afterwards (its own
                    // value): its run stays the real one past it.
                    if access.write && self.tolerate_same_value_writes {
                        continue;
                    }
                    for byte in access.offset..access.offset + access.bytes as i64 {
                        let Some(list) = writers.get(&(access.object, byte)) else {
                            continue;
                        };
                        if let Some(&(w, k)) = list.iter().find(|(w, _)| *w != t) {
                            return self.report((w, &traces[w][k]), (t, access), start);
                        }
                    }
                }
            }
            for overlay in overlays {
                self.memory.extend(overlay);
            }
            match stops.first()? {
                // The end of the kernel for every thread (or, for some, a barrier others do not
                // reach: the barrier check's business), and no race on the way.
                Stop::Return => return None,
                Stop::Barrier(at) => {
                    let at = *at;
                    if !stops
                        .iter()
                        .all(|s| matches!(s, Stop::Barrier(b) if *b == at))
                    {
                        return None;
                    }
                    for thread in &mut threads {
                        thread.pos += 1;
                    }
                    start = Some(at);
                }
            }
        }
    }

    fn report(
        &self,
        (a, first): (usize, &Access),
        (b, second): (usize, &Access),
        start: Option<InstId>,
    ) -> Option<Finding> {
        let cx = self.cx;
        // A parameter the kernel uses without testing it anywhere the threads went (a width
        // with no bounds test) may carry a precondition the run does not know (`n` a multiple
        // of the tile): a value of it is not a witness.
        if self.parameters_read & !self.tested != 0 {
            return None;
        }
        let geometry = cx.threads.geometry();
        let side = |thread: usize, access: &Access| RaceAccess {
            inst: cx.inst_ref(access.inst),
            kind: if access.write {
                AccessKind::Write
            } else {
                AccessKind::Read
            },
            thread: geometry.thread(thread),
            offset: access.offset as i128,
            bytes: access.bytes,
        };
        let mut read: Vec<Object> = self.element_size.keys().copied().collect();
        read.sort_by_key(|o| format!("{o:?}"));
        let mut assumptions: Vec<(String, i128)> = read
            .into_iter()
            .map(|o| self.input.assumption(&o.name(cx)))
            .collect();
        for a in (0..63).filter(|a| self.parameters_read & (1 << a) != 0) {
            let name = Object::Param(a).name(cx);
            let Some(Ty::Int(bits)) = cx.function.args.get(a).map(|x| x.ty) else {
                continue;
            };
            assumptions.push((name, (self.parameter & mask(bits)) as i128));
        }
        Some(Finding::Race(Box::new(Race {
            function: cx.function.name.clone(),
            object: first.object.name(cx),
            shared_memory: first.object.is_shared(cx),
            first: side(a, first),
            second: side(b, second),
            interval_start: start.map(|i| cx.inst_ref(i)),
            assumptions,
            across_warps_only: false,
            needs_threads: None,
            similar: 0,
            blocks: None,
        })))
    }

    /// Runs thread `t` alone to the end of its interval: a barrier or the kernel's return.
    fn interval(
        &mut self,
        t: usize,
        thread: &mut Thread,
        trace: &mut Vec<Access>,
        overlay: &mut HashMap<(Object, i64), Option<u8>>,
    ) -> Option<Stop> {
        let function = self.cx.function;
        loop {
            self.steps += 1;
            if self.steps > MOST_STEPS {
                return None;
            }
            let id = *function.blocks[thread.block].insts.get(thread.pos)?;
            let inst = function.inst(id);
            match &inst.op {
                Op::Bin(_) | Op::ICmp(_) | Op::Select | Op::Cast(_) | Op::Gep(_) => {
                    let value = self.compute(t, thread, id)?;
                    thread.regs[id] = Some(value);
                    thread.taint[id] = self.taint_of_args(thread, id);
                    if inst.op == Op::Select {
                        self.tested |= self.taint_of(thread, inst.args[0]) & !DATA;
                    }
                }
                Op::Other(name) if UNFOLLOWED.contains(name) => {
                    thread.regs[id] = Some(V::Unknown);
                    thread.taint[id] = self.taint_of_args(thread, id);
                }
                Op::ExtractValue(_) => {
                    thread.regs[id] = Some(V::Unknown);
                    thread.taint[id] = self.taint_of_args(thread, id);
                }
                Op::Load { bytes, atomic } => {
                    if *atomic || *bytes > 16 || !self.address_allowed(thread, id, inst.args[0]) {
                        return None;
                    }
                    let V::Ptr(object, offset) = self.val(t, thread, inst.args[0])? else {
                        return None;
                    };
                    let value = match inst.ty {
                        Ty::Int(bits) if *bytes <= 8 => {
                            match self.load(object, offset, *bytes, overlay)? {
                                Some(value) => V::Int(value & mask(bits)),
                                None => V::Unknown,
                            }
                        }
                        _ if self.placeable(object) => V::Unknown,
                        _ => return None,
                    };
                    thread.regs[id] = Some(value);
                    thread.taint[id] = DATA | self.taint_of(thread, inst.args[0]);
                    trace.push(Access {
                        inst: id,
                        object,
                        offset,
                        bytes: *bytes,
                        write: false,
                    });
                }
                Op::Store { bytes, atomic } => {
                    if *atomic || *bytes > 16 || !self.address_allowed(thread, id, inst.args[1]) {
                        return None;
                    }
                    let value = match self.val(t, thread, inst.args[0])? {
                        V::Int(value) if *bytes <= 8 => Some(value),
                        _ => None,
                    };
                    let V::Ptr(object, offset) = self.val(t, thread, inst.args[1])? else {
                        return None;
                    };
                    if !self.placeable(object) {
                        return None;
                    }
                    for k in 0..*bytes as i64 {
                        overlay.insert((object, offset + k), value.map(|v| (v >> (8 * k)) as u8));
                    }
                    trace.push(Access {
                        inst: id,
                        object,
                        offset,
                        bytes: *bytes,
                        write: true,
                    });
                }
                Op::Call(callee) => {
                    let name = self.cx.module.callee_name(*callee)?;
                    match nvvm::classify(name) {
                        Intrinsic::Sreg(register) => {
                            let Ty::Int(bits) = inst.ty else { return None };
                            let here = self.cx.threads.geometry().thread(t).index;
                            let value = match register {
                                Sreg::Tid(axis) => u64::from(here[axis]),
                                Sreg::Ntid(axis) => u64::from(self.geometry[axis]),
                                Sreg::LaneId => (t % 32) as u64,
                                Sreg::WarpSize => 32,
                                // Block 0.
                                Sreg::BlockUniform if name.contains(".ctaid.") => 0,
                                _ => return None,
                            };
                            thread.regs[id] = Some(V::Int(value & mask(bits)));
                        }
                        Intrinsic::Barrier(BarrierKind::Block) if inst.ty == Ty::Void => {
                            return Some(Stop::Barrier(id));
                        }
                        // An assumption that fails makes the run undefined: no witness.
                        Intrinsic::NoEffect if name == "llvm.assume" => {
                            if self.val(t, thread, *inst.args.first()?)? != V::Int(1) {
                                return None;
                            }
                        }
                        Intrinsic::NoEffect => {}
                        Intrinsic::Pure => {
                            thread.regs[id] = Some(V::Unknown);
                            thread.taint[id] = self.taint_of_args(thread, id);
                        }
                        _ => return None,
                    }
                }
                Op::Fence => {}
                Op::Phi(_) => return None,
                Op::Br => {
                    self.enter(t, thread, 0)?;
                    continue;
                }
                Op::CondBr => {
                    self.tested |= self.taint_of(thread, inst.args[0]) & !DATA;
                    let succs = &function.blocks[thread.block].succs;
                    let index = match succs.len() {
                        1 => 0,
                        2 => match self.val(t, thread, inst.args[0])? {
                            V::Int(1) => 0,
                            V::Int(0) => 1,
                            _ => return None,
                        },
                        _ => return None,
                    };
                    self.enter(t, thread, index)?;
                    continue;
                }
                Op::Switch => {
                    self.tested |= self.taint_of(thread, inst.args[0]) & !DATA;
                    let succs = &function.blocks[thread.block].succs;
                    if succs.len() != inst.args.len() {
                        return None;
                    }
                    let V::Int(value) = self.val(t, thread, inst.args[0])? else {
                        return None;
                    };
                    let mut index = 0;
                    for (k, case) in inst.args[1..].iter().enumerate() {
                        if self.val(t, thread, *case)? == V::Int(value) {
                            index = k + 1;
                            break;
                        }
                    }
                    self.enter(t, thread, index)?;
                    continue;
                }
                Op::Ret => return Some(Stop::Return),
                _ => return None,
            }
            thread.pos += 1;
        }
    }

    /// Moves `thread` along successor `index` of its block, setting the phis of the block it
    /// enters (all from the values before the edge).
    fn enter(&mut self, t: usize, thread: &mut Thread, index: usize) -> Option<()> {
        let function = self.cx.function;
        let from = thread.block;
        let to = *function.blocks[from].succs.get(index)?;
        let mut values = Vec::new();
        let mut pos = 0;
        for &id in &function.blocks[to].insts {
            let inst = function.inst(id);
            let Op::Phi(blocks) = &inst.op else { break };
            let k = blocks.iter().position(|b| *b == from)?;
            let taint = self.taint_of(thread, inst.args[k]);
            values.push((id, self.val(t, thread, inst.args[k])?, taint));
            pos += 1;
        }
        for (id, value, taint) in values {
            thread.regs[id] = Some(value);
            thread.taint[id] = taint;
        }
        thread.block = to;
        thread.pos = pos;
        Some(())
    }

    /// What `value` is computed from ([`Thread::taint`]).
    fn taint_of(&self, thread: &Thread, value: Val) -> u64 {
        match value {
            Val::Inst(id) if self.cx.function.inst(id).block.is_some() => thread.taint[id],
            Val::Arg(a) if a < 63 => 1 << a,
            _ => 0,
        }
    }

    fn taint_of_args(&self, thread: &Thread, id: InstId) -> u64 {
        let inst = self.cx.function.inst(id);
        inst.args
            .iter()
            .fold(0, |bits, v| bits | self.taint_of(thread, *v))
    }

    /// Whether access `id` may use `pointer`: one computed from data in memory only for an
    /// update ([`Machine::updates`]).
    fn address_allowed(&self, thread: &Thread, id: InstId, pointer: Val) -> bool {
        self.taint_of(thread, pointer) & DATA == 0 || self.updates.contains(&id)
    }

    /// Objects whose every byte the run can account for: shared variables, and the arrays of
    /// pointer parameters (the input). Global variables of the module have initial contents
    /// the run does not read.
    fn placeable(&self, object: Object) -> bool {
        match object {
            Object::Global(g) => self.cx.module.globals[g].addrspace == 3,
            Object::Param(a) => self
                .cx
                .function
                .args
                .get(a)
                .is_some_and(|x| matches!(x.ty, Ty::Ptr(1 | 0 | 3)) && !x.byval),
            Object::Field { .. } => false,
        }
    }

    /// The integer `bytes` at `offset` of `object` hold: `Some(None)` when the run does not
    /// know it (written with an unknown value, or shared memory never written); `None` ends
    /// the run.
    fn load(
        &mut self,
        object: Object,
        offset: i64,
        bytes: u64,
        overlay: &HashMap<(Object, i64), Option<u8>>,
    ) -> Option<Option<u64>> {
        if bytes > 8 || bytes == 0 || !self.placeable(object) {
            return None;
        }
        let mut value = 0u64;
        let mut written = 0u64;
        let mut unknown = false;
        for k in 0..bytes as i64 {
            let byte = overlay
                .get(&(object, offset + k))
                .or_else(|| self.memory.get(&(object, offset + k)));
            match byte {
                Some(Some(byte)) => value |= u64::from(*byte) << (8 * k),
                Some(None) => unknown = true,
                None => continue,
            }
            written += 1;
        }
        if written == bytes {
            return Some((!unknown).then_some(value));
        }
        // Never written: the input's contents, for arrays of global memory only (shared memory
        // starts undefined).
        if written != 0 || object.is_shared(self.cx) {
            return Some(None);
        }
        if offset < 0 || offset % bytes as i64 != 0 {
            return None;
        }
        match self.element_size.get(&object) {
            Some(size) if *size != bytes => return None,
            _ => {
                self.element_size.insert(object, bytes);
            }
        }
        Some(Some(self.input.element(offset as u64 / bytes)))
    }

    fn val(&mut self, t: usize, thread: &Thread, value: Val) -> Option<V> {
        match value {
            Val::Inst(id) => {
                if self.cx.function.inst(id).block.is_none() {
                    self.compute(t, thread, id)
                } else {
                    thread.regs[id]
                }
            }
            Val::Arg(a) => {
                let arg = self.cx.function.args.get(a)?;
                match arg.ty {
                    Ty::Ptr(_) if !arg.byval => Some(V::Ptr(Object::Param(a), 0)),
                    Ty::Int(bits) if a < 63 => {
                        self.parameters_read |= 1 << a;
                        Some(V::Int(self.parameter & mask(bits)))
                    }
                    Ty::Other => Some(V::Unknown),
                    _ => None,
                }
            }
            Val::Int { value, bits } => Some(V::Int(value as u64 & mask(bits))),
            Val::Global(g) => {
                let global = self.cx.module.globals.get(g)?;
                if global.function.is_some() {
                    return None;
                }
                Some(V::Ptr(Object::Global(self.cx.module.object_of(g)), 0))
            }
            Val::Undef | Val::Other(_) => Some(V::Unknown),
            Val::Null => None,
        }
    }

    /// The value of a pure instruction (or constant expression).
    fn compute(&mut self, t: usize, thread: &Thread, id: InstId) -> Option<V> {
        let function = self.cx.function;
        let inst = function.inst(id);
        // Operands in place (no allocation per instruction run).
        let mut buffer = [V::Unknown; 8];
        if inst.args.len() > buffer.len() {
            return None;
        }
        for (k, value) in inst.args.iter().enumerate() {
            buffer[k] = self.val(t, thread, *value)?;
        }
        let operands = &buffer[..inst.args.len()];
        // Arithmetic on a value the run does not follow gives another; an address from one
        // ends the run where it is used.
        if operands.contains(&V::Unknown)
            && !matches!(
                inst.op,
                Op::Select | Op::Cast(CastOp::BitCast | CastOp::Freeze)
            )
        {
            return Some(V::Unknown);
        }
        let arg = |k: usize| -> Option<V> { operands.get(k).copied() };
        let int = |k: usize| -> Option<u64> {
            match arg(k)? {
                V::Int(x) => Some(x),
                _ => None,
            }
        };
        match &inst.op {
            Op::Bin(op) => {
                let Ty::Int(bits) = inst.ty else { return None };
                let (a, b) = (int(0)?, int(1)?);
                // Division by zero is undefined, an over-wide shift poison: no witness.
                let undefined = match op {
                    BinOp::UDiv | BinOp::SDiv | BinOp::URem | BinOp::SRem => b == 0,
                    BinOp::Shl | BinOp::LShr | BinOp::AShr => b >= u64::from(bits),
                    _ => false,
                };
                if undefined {
                    return None;
                }
                Some(V::Int(binary(*op, a, b, bits) & mask(bits)))
            }
            Op::ICmp(pred) => match (arg(0)?, arg(1)?) {
                (V::Int(a), V::Int(b)) => {
                    let bits = function.bits(inst.args[0])?;
                    Some(V::Int(u64::from(compare(*pred, a, b, bits))))
                }
                (V::Ptr(p, x), V::Ptr(q, y)) if p == q => {
                    let bits = 64;
                    Some(V::Int(u64::from(compare(*pred, x as u64, y as u64, bits))))
                }
                _ => None,
            },
            Op::Select => match arg(0)? {
                V::Int(1) => arg(1),
                V::Int(0) => arg(2),
                _ => Some(V::Unknown),
            },
            Op::Cast(cast) => match cast {
                CastOp::Trunc | CastOp::ZExt { .. } => {
                    let Ty::Int(bits) = inst.ty else { return None };
                    Some(V::Int(int(0)? & mask(bits)))
                }
                CastOp::SExt => {
                    let Ty::Int(bits) = inst.ty else { return None };
                    let from = function.bits(inst.args[0])?;
                    Some(V::Int(signed(int(0)?, from) as u64 & mask(bits)))
                }
                CastOp::BitCast | CastOp::AddrSpaceCast | CastOp::Freeze => arg(0),
                CastOp::PtrToInt | CastOp::IntToPtr => None,
            },
            Op::Gep(indices) => {
                let V::Ptr(object, mut offset) = arg(0)? else {
                    return None;
                };
                for (k, index) in indices.iter().enumerate() {
                    match index {
                        GepIndex::Field(bytes) => offset = offset.checked_add(*bytes)?,
                        GepIndex::Scaled(stride) => {
                            let bits = function.bits(*inst.args.get(k + 1)?)?;
                            let i = signed(int(k + 1)?, bits);
                            offset = offset.checked_add(i.checked_mul(*stride)?)?;
                        }
                    }
                }
                Some(V::Ptr(object, offset))
            }
            _ => None,
        }
    }
}
