//! Shared-memory addresses as affine expressions.
//!
//! An address is a shared variable plus a byte offset
//!
//! ```text
//! offset = constant + Σ c·T(thread) + Σ c·x
//! ```
//!
//! where each `T` is a value that depends on the thread id alone (evaluated exactly, thread by
//! thread, so `tid & 31` or `(tid >> 5) * 33` are as good as `tid`), and each `x` is a variable:
//! a uniform value both threads of a pair see the same (a kernel parameter, a block id, a loop
//! counter of a loop with a barrier, as it was when the interval began), or a per-thread one with
//! a range (how many iterations of a barrier-free loop a thread has run). Anything else (a value
//! loaded by each thread, a product of two unknowns) cannot be expressed, and the access is
//! reported as one the analysis could not decide.

use crate::cfg::{exit_tests, Cfg};
use crate::divergence::{Divergence, DivergenceInfo};
use crate::fast_hash::{HashMap, HashSet};
use crate::intervals::Intervals;
use crate::ir::{BinOp, BlockId, CastOp, Function, GepIndex, InstId, Op, Pred, Ty, Val};
use crate::nvvm::{self, Intrinsic, Sreg};
use crate::threads::{Geometry, ThreadValues};
use crate::Context;
use std::cell::RefCell;
use std::rc::Rc;

/// Stands for "no bound" in variable ranges.
pub const UNBOUNDED: i128 = 1 << 100;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum VarKey {
    /// A uniform value, the same for both threads of a pair. `in_interval`: the instance
    /// computed inside the interval, as opposed to the one from before it began. `invariant`:
    /// the value is the same for the whole kernel (parameters, block ids and their arithmetic).
    Shared {
        value: Val,
        in_interval: bool,
        invariant: bool,
    },
    /// How many times a thread has gone round the loop of an induction variable (`phi`) since
    /// it started; `side` says which thread of the pair.
    Iterations { side: u8, phi: InstId },
    /// 0 or 1: whether a thread has already advanced a loop counter past the interval's barrier.
    Advanced { side: u8, phi: InstId },
    /// How many iterations of a uniform loop ran before the interval began (shared).
    Completed { phi: InstId },
    /// A thread coordinate, when the block's shape is unknown and threads cannot be enumerated.
    Thread { side: u8, axis: u8 },
    /// The block id (`ctaid`) on one axis of one thread of a pair in different blocks.
    Block { side: u8, axis: u8 },
    /// The block id on one axis of one thread of a pair in different blocks, divided by
    /// `divisor` (`blockIdx.x / 2`, `blockIdx.x >> 1`).
    BlockQuotient { side: u8, axis: u8, divisor: i128 },
    /// Given an empty range: the case being decided gives the loop variable `phi` a value the
    /// access never sees (`sequence.rs`), so it has no conflict.
    Unreached { side: u8, phi: InstId },
}

impl VarKey {
    /// Whether a conflict that needs a particular value of this variable is still a proven one:
    /// kernel parameters and block ids can take any value, iteration counts any in their range.
    pub fn is_free(&self) -> bool {
        match self {
            VarKey::Shared { invariant, .. } => *invariant,
            _ => true,
        }
    }
}

/// A value that depends on the thread id alone, times a coefficient.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThreadTerm {
    pub value: Val,
    pub coeff: i128,
    /// Read the value as signed (it was sign-extended, or never extended).
    pub signed: bool,
    /// The value per thread, when it is computed from the thread id and the values a case
    /// chose for loop variables (`t % (2 * d)`), which `ThreadValues` cannot evaluate alone.
    pub computed: Option<Rc<Vec<u64>>>,
}

impl ThreadTerm {
    /// The term's value (before the coefficient) in every thread.
    pub fn values(&self, threads: &ThreadValues<'_>) -> Option<Rc<Vec<u64>>> {
        match &self.computed {
            Some(values) => Some(values.clone()),
            None => threads.values(self.value),
        }
    }
}

/// A value per thread, from the thread id and the values chosen for loop variables.
enum PerThread {
    Values(Vec<u64>),
    /// The case gives a loop variable a value this access never sees: the access's whole
    /// expression is this (an empty-range variable).
    Void(Lin),
    NotComputable,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Lin {
    pub konst: i128,
    pub thread: Vec<ThreadTerm>,
    pub vars: Vec<(VarKey, i128)>,
}

impl Lin {
    pub fn constant(konst: i128) -> Lin {
        Lin {
            konst,
            ..Lin::default()
        }
    }

    pub(crate) fn var(key: VarKey) -> Lin {
        Lin {
            vars: vec![(key, 1)],
            ..Lin::default()
        }
    }

    // Coefficients and constants stay far below i128's range: addresses are 64-bit, scales
    // come from 64-bit constants, and `UNBOUNDED` ranges are only multiplied by saturation.
    pub(crate) fn add(mut self, other: Lin) -> Lin {
        self.konst = self.konst.saturating_add(other.konst);
        self.thread.extend(other.thread);
        for (key, coeff) in other.vars {
            match self.vars.iter_mut().find(|(k, _)| *k == key) {
                Some((_, c)) => *c = c.saturating_add(coeff),
                None => self.vars.push((key, coeff)),
            }
        }
        self.vars.retain(|(_, c)| *c != 0);
        self
    }

    pub(crate) fn scale(mut self, factor: i128) -> Lin {
        self.konst = self.konst.saturating_mul(factor);
        for t in &mut self.thread {
            t.coeff = t.coeff.saturating_mul(factor);
        }
        for (_, c) in &mut self.vars {
            *c = c.saturating_mul(factor);
        }
        self.vars.retain(|(_, c)| *c != 0);
        self.thread.retain(|t| t.coeff != 0);
        self
    }
}

/// A memory object an access can touch: a global variable (in shared or global memory), or the
/// array a pointer parameter points to (global memory).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Object {
    Global(usize),
    Param(usize),
    /// The array a pointer field of a by-value struct parameter points to: the pointer loaded
    /// from byte `offset` of parameter `arg`'s copy (global memory, like a pointer parameter).
    Field {
        arg: usize,
        offset: i64,
    },
}

impl Object {
    pub fn is_shared(self, cx: &Context<'_>) -> bool {
        match self {
            Object::Global(g) => cx.module.globals[g].addrspace == 3,
            // OpenCL's `__local` kernel parameters: a shared buffer each.
            Object::Param(a) => cx.function.args.get(a).is_some_and(|x| x.ty == Ty::Ptr(3)),
            Object::Field { .. } => false,
        }
    }

    pub fn name(self, cx: &Context<'_>) -> String {
        match self {
            Object::Global(g) => cx.module.globals[g].name.clone(),
            Object::Param(a) => param_name(cx, a),
            Object::Field { arg, offset } => {
                format!(
                    "the array of the pointer at byte {offset} of {}",
                    param_name(cx, arg)
                )
            }
        }
    }
}

fn param_name(cx: &Context<'_>, a: usize) -> String {
    match cx.function.args.get(a) {
        Some(arg) if !arg.name.is_empty() => format!("%{}", arg.name),
        _ => format!("argument {a}"),
    }
}

/// The by-value parameter and byte offset `pointer` loads from, when it is a load from a
/// constant offset of a `byval` argument (a pointer field of a struct passed to the kernel).
pub fn byval_field(function: &Function, pointer: Val) -> Option<(usize, i64)> {
    let Val::Inst(load) = pointer else {
        return None;
    };
    let inst = function.inst(load);
    if !matches!(inst.op, Op::Load { .. }) {
        return None;
    }
    let mut at = inst.args[0];
    let mut offset = 0i64;
    for _ in 0..16 {
        match at {
            Val::Arg(a) if function.args.get(a).is_some_and(|arg| arg.byval) => {
                return Some((a, offset));
            }
            Val::Inst(id) => {
                let inst = function.inst(id);
                match &inst.op {
                    Op::Cast(CastOp::AddrSpaceCast | CastOp::BitCast | CastOp::Freeze) => {}
                    Op::Gep(steps) => {
                        for (step, index) in steps.iter().zip(&inst.args[1..]) {
                            offset += match (step, index) {
                                (GepIndex::Field(o), _) => *o,
                                (GepIndex::Scaled(scale), Val::Int { value, .. }) => {
                                    i64::try_from(*value).ok()?.checked_mul(*scale)?
                                }
                                _ => return None,
                            };
                        }
                    }
                    _ => return None,
                }
                at = inst.args[0];
            }
            _ => return None,
        }
    }
    None
}

/// An address: a memory object and a byte offset into it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Address {
    pub base: Object,
    pub offset: Lin,
}

/// Why an address could not be expressed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// The pointer may point into shared memory, but to which variable is unknown.
    UnknownBase {
        culprit: Option<InstId>,
        why: String,
    },
    /// The offset is not affine in the analysis's terms; `culprit` is the value that is not.
    Inexpressible {
        culprit: Option<InstId>,
        why: String,
    },
    /// The address goes through a phi whose incoming edge is the same for every thread: decide
    /// each of its `arity` cases separately.
    Choice { phi: InstId, arity: usize },
    /// The address goes through a loop variable that takes known `values` (`sequence.rs`):
    /// decide each value separately, for thread `side` of the pair, or for both
    /// ([`BOTH_SIDES`]) when the two threads see the same instance.
    Sequence {
        phi: InstId,
        side: u8,
        values: Vec<i128>,
    },
}

/// The `side` of a [`Failure::Sequence`] whose instance both threads of a pair see.
pub const BOTH_SIDES: u8 = 2;

impl Failure {
    pub fn inexpressible(why: &str) -> Failure {
        Failure::Inexpressible {
            culprit: None,
            why: why.to_string(),
        }
    }

    /// The value the failure is about, if one.
    pub fn culprit(&self) -> Option<InstId> {
        match self {
            Failure::UnknownBase { culprit, .. } | Failure::Inexpressible { culprit, .. } => {
                *culprit
            }
            Failure::Choice { .. } | Failure::Sequence { .. } => None,
        }
    }

    pub fn reason(&self) -> &str {
        match self {
            Failure::UnknownBase { why, .. } | Failure::Inexpressible { why, .. } => why,
            Failure::Choice { .. } => "the address depends on a uniform branch",
            Failure::Sequence { .. } => "the address depends on a loop variable's value",
        }
    }
}

/// Where the pointer of an access may point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Space {
    /// Certainly into this object.
    Known(Object),
    /// Possibly into shared memory, but it is not known where.
    Unknown,
    /// Global memory, but it is not known which array (a pointer loaded from memory, or one of
    /// several parameters): reported as an access the analysis cannot place.
    Unplaced,
    /// Private or constant memory: no other thread sees it.
    Untracked,
}

pub fn space(cx: &Context<'_>, pointer: Val) -> Space {
    let mut roots = Vec::new();
    collect_roots(cx, pointer, &mut roots, 0, &mut Vec::new());
    if roots.contains(&Space::Unknown) {
        return Space::Unknown;
    }
    let known: Vec<Object> = roots
        .iter()
        .filter_map(|r| match r {
            Space::Known(o) => Some(*o),
            _ => None,
        })
        .collect();
    let any_shared = known.iter().any(|o| o.is_shared(cx));
    let unplaced = roots.contains(&Space::Unplaced);
    match known.as_slice() {
        [] if cx.function.ty(pointer) == Ty::Ptr(3) => Space::Unknown,
        [] if unplaced => Space::Unplaced,
        [] => Space::Untracked,
        [o, rest @ ..]
            if rest.iter().all(|r| r == o) && !roots.contains(&Space::Untracked) && !unplaced =>
        {
            Space::Known(*o)
        }
        _ if any_shared => Space::Unknown,
        // Several arrays of global memory (or private memory beside global): the analysis
        // cannot tell which one an access touches.
        _ => Space::Unplaced,
    }
}

fn collect_roots(
    cx: &Context<'_>,
    value: Val,
    roots: &mut Vec<Space>,
    depth: usize,
    seen: &mut Vec<InstId>,
) {
    if depth > 64 {
        roots.push(Space::Unknown);
        return;
    }
    match value {
        Val::Global(g) => {
            let global = &cx.module.globals[g];
            // Constant memory (4) is read-only.
            roots.push(if global.function.is_none() && global.addrspace != 4 {
                Space::Known(Object::Global(cx.module.object_of(g)))
            } else {
                Space::Untracked
            });
        }
        Val::Arg(a) => roots.push(match cx.function.args.get(a).map(|a| (a.ty, a.byval)) {
            // The thread's own copy of a struct passed by value.
            Some((_, true)) => Space::Untracked,
            Some((ty, _)) => match ty {
                // A kernel's shared pointer parameter (OpenCL `__local`) is a shared buffer of
                // its own; the kernel is the function analysed, so its parameters are the
                // kernel's.
                Ty::Ptr(3) => Space::Known(Object::Param(a)),
                // A kernel's generic pointer parameters point to global memory: the host cannot
                // know a block's shared addresses.
                Ty::Ptr(0 | 1) => Space::Known(Object::Param(a)),
                _ => Space::Untracked,
            },
            None => Space::Untracked,
        }),
        Val::Inst(id) => {
            if seen.contains(&id) {
                return;
            }
            seen.push(id);
            if let Some(source) = cx.function.address_source(value) {
                return collect_roots(cx, source, roots, depth + 1, seen);
            }
            let inst = cx.function.inst(id);
            if let Some((arg, offset)) = byval_field(cx.function, value) {
                roots.push(Space::Known(Object::Field { arg, offset }));
                return;
            }
            match &inst.op {
                Op::Phi(_) => {
                    for a in &inst.args {
                        collect_roots(cx, *a, roots, depth + 1, seen);
                    }
                }
                Op::Select => {
                    for a in &inst.args[1..] {
                        collect_roots(cx, *a, roots, depth + 1, seen);
                    }
                }
                Op::Alloca => roots.push(Space::Untracked),
                // A pointer from memory or a call: a generic or shared one may point anywhere,
                // a global one into some array of global memory.
                _ => roots.push(match inst.ty {
                    Ty::Ptr(0 | 3) => Space::Unknown,
                    Ty::Ptr(1) => Space::Unplaced,
                    _ => Space::Untracked,
                }),
            }
        }
        Val::Null | Val::Undef | Val::Int { .. } | Val::Other(_) => roots.push(Space::Untracked),
    }
}

/// Linearises the addresses of the accesses of one interval, for one thread of a pair.
pub struct Linearizer<'a> {
    pub cx: &'a Context<'a>,
    pub cfg: &'a Cfg,
    /// What interval analysis knows of the values' ranges.
    pub value_ranges: &'a crate::ranges::Ranges,
    pub divergence: &'a DivergenceInfo,
    pub intervals: &'a Intervals,
    /// The interval (index into `intervals.starts`).
    pub start: usize,
    /// The access whose address is linearised.
    pub access: InstId,
    /// Which thread of the pair (0 or 1).
    pub side: u8,
    /// For phis whose incoming edge is uniform: which edge this case takes.
    pub choices: HashMap<InstId, usize>,
    /// For loop variables with a known sequence of values (`sequence.rs`), by phi and side
    /// (or [`BOTH_SIDES`]): which value this case takes.
    pub sequence_choices: HashMap<(InstId, u8), i128>,
    /// The kernel's loop variables' sequences, enumerated once for every case and pair.
    pub sequences: &'a super::sequence::Sequences,
    /// The kernel's inductions, worked out once for every case and pair.
    pub inductions: &'a Inductions,
    /// The first such variable met without a value chosen, in a guard as well as in the
    /// address: a guard dropped for want of it would let a case through that it rules out.
    pub unchosen_sequence: Option<Failure>,
    /// Ranges of the variables met, filled in as they are met.
    pub ranges: HashMap<VarKey, (i128, i128)>,
    /// Which values are the same in the whole kernel (memoised).
    pub invariant: HashMap<InstId, bool>,
    /// Values linearised so far, against [`MAX_STEPS`].
    pub steps: usize,
    /// What the exit tests of the barrier-free loops met say of their counters
    /// ([`exit_guards`]), filled in as the counters are met: guards of the access.
    pub loop_guards: Vec<super::guards::Guard>,
    /// Arrays of global memory the kernel only reads (its inputs), when the case being decided
    /// fills every one of them with zeros: a value computed from loads of them and constants
    /// alone is then that constant (`data[i] & 255` is 0). Used only to confirm a race the
    /// analysis cannot decide otherwise, never to prove race freedom.
    pub zero_inputs: Option<&'a HashSet<Object>>,
    /// The inputs whose zeros an address or guard used.
    pub zeroed: Vec<Object>,
}

/// How many values one access's linearisation may visit.
const MAX_STEPS: usize = 2_000;

impl<'a> Linearizer<'a> {
    fn threads(&self) -> &ThreadValues<'_> {
        self.cx.threads
    }

    /// `phi` as an induction ([`induction`]), from the kernel's memo.
    fn induction(&self, phi: InstId) -> Option<Induction> {
        self.inductions.of(self.cx.function, self.cfg, phi)
    }

    /// The function, borrowed for as long as the linearizer's context (not `self`), so that an
    /// instruction read from it stays readable across `&mut self` calls without a clone.
    fn function(&self) -> &'a Function {
        self.cx.function
    }

    pub fn address(&mut self, pointer: Val) -> Result<Address, Failure> {
        self.pointer(pointer, 0)
    }

    fn pointer(&mut self, value: Val, depth: usize) -> Result<Address, Failure> {
        if depth > 64 {
            return Err(Failure::inexpressible("address computation too deep"));
        }
        match value {
            Val::Global(g) => {
                let global = &self.cx.module.globals[g];
                if global.function.is_none() {
                    Ok(Address {
                        base: Object::Global(self.cx.module.object_of(g)),
                        offset: Lin::default(),
                    })
                } else {
                    Err(Failure::UnknownBase {
                        culprit: None,
                        why: format!("`@{}` is a function", global.name),
                    })
                }
            }
            Val::Arg(a)
                if matches!(self.function().ty(value), Ty::Ptr(0 | 1 | 3))
                    && !self.function().args[a].byval =>
            {
                Ok(Address {
                    base: Object::Param(a),
                    offset: Lin::default(),
                })
            }
            Val::Inst(id) => {
                if let Some((arg, offset)) = byval_field(self.function(), value) {
                    return Ok(Address {
                        base: Object::Field { arg, offset },
                        offset: Lin::default(),
                    });
                }
                let inst = self.function().inst(id);
                match &inst.op {
                    Op::Cast(CastOp::AddrSpaceCast | CastOp::BitCast | CastOp::Freeze) => {
                        self.pointer(inst.args[0], depth + 1)
                    }
                    Op::Gep(steps) => {
                        let mut address = self.pointer(inst.args[0], depth + 1)?;
                        for (step, index) in steps.iter().zip(&inst.args[1..]) {
                            let part = match step {
                                GepIndex::Field(offset) => Lin::constant(i128::from(*offset)),
                                GepIndex::Scaled(scale) => {
                                    self.int(*index, true, depth + 1)?.scale(i128::from(*scale))
                                }
                            };
                            address.offset = address.offset.add(part);
                        }
                        Ok(address)
                    }
                    Op::Phi(_) => self.pointer_phi(id, depth),
                    Op::Select if inst.args[1] == inst.args[2] => {
                        self.pointer(inst.args[1], depth + 1)
                    }
                    _ => Err(Failure::UnknownBase {
                        culprit: Some(id),
                        why: "is a pointer the analysis cannot follow".to_string(),
                    }),
                }
            }
            _ => Err(Failure::UnknownBase {
                culprit: None,
                why: "the pointer is neither a variable nor a parameter".to_string(),
            }),
        }
    }

    /// A pointer phi: only an induction (`p = phi [start], [p + step]`) has a known base.
    fn pointer_phi(&mut self, phi: InstId, depth: usize) -> Result<Address, Failure> {
        if self.induction(phi).is_none() {
            if let Some(Err(Failure::Choice { .. })) | Some(Ok(_)) = self.uniform_choice_probe(phi)
            {
                return match self.choices.get(&phi) {
                    Some(c) => {
                        let value = self.function().inst(phi).args.get(*c).copied();
                        match value {
                            Some(v) => self.pointer(v, depth + 1),
                            None => Err(self.cannot(phi, "has no such incoming value")),
                        }
                    }
                    None => Err(Failure::Choice {
                        phi,
                        arity: self.function().inst(phi).args.len(),
                    }),
                };
            }
        }
        let Some(induction) = self.induction(phi) else {
            return Err(Failure::Inexpressible {
                culprit: Some(phi),
                why: "merges different addresses".to_string(),
            });
        };
        let mut address = self.pointer(induction.start, depth + 1)?;
        let progress = self.progress(phi, &induction)?;
        address.offset = address.offset.add(progress);
        Ok(address)
    }

    /// The integer `value` as an affine expression; `signed` says how thread values are read.
    /// An integer operand of a guard or address, as an affine expression.
    pub fn integer(&mut self, value: Val, signed: bool) -> Result<Lin, Failure> {
        self.int(value, signed, 0)
    }

    fn int(&mut self, value: Val, signed: bool, depth: usize) -> Result<Lin, Failure> {
        if depth > 64 {
            return Err(Failure::inexpressible("index computation too deep"));
        }
        // A chain of phis each of whose incoming values is the next phi (a sequential loop's
        // rotated copies) makes `same_incoming` try both values at every step: exponential
        // without a bound (a generated program ran the verifier for hours).
        self.steps += 1;
        if self.steps > MAX_STEPS {
            return Err(Failure::inexpressible(
                "the index computation is too large to follow",
            ));
        }
        if self.threads().is_evaluable(value) {
            if let Val::Int { value, bits } = value {
                return Ok(Lin::constant(constant(value, bits, signed)));
            }
            return Ok(Lin {
                thread: vec![ThreadTerm {
                    value,
                    coeff: 1,
                    signed,
                    computed: None,
                }],
                ..Lin::default()
            });
        }
        if self.zero_inputs.is_some() {
            let mut zeroed = Vec::new();
            if let Some((c, bits)) = self.with_zero_inputs(value, &mut zeroed, 0) {
                if !zeroed.is_empty() {
                    for object in zeroed {
                        if !self.zeroed.contains(&object) {
                            self.zeroed.push(object);
                        }
                    }
                    let c = if signed {
                        crate::threads::signed(c, bits) as i128
                    } else {
                        c as i128
                    };
                    return Ok(Lin::constant(c));
                }
            }
        }
        let id = match value {
            Val::Int { value, bits } => return Ok(Lin::constant(constant(value, bits, signed))),
            Val::Arg(_) => return Ok(self.shared(value, false, true)),
            Val::Inst(id) => id,
            Val::Null => return Ok(Lin::constant(0)),
            Val::Global(_) | Val::Undef | Val::Other(_) => {
                return Err(Failure::inexpressible(
                    "the index is not an integer expression",
                ))
            }
        };
        let inst = self.function().inst(id);
        let args = &inst.args;
        let constant_of = |v: &Val| match v {
            Val::Int { value, .. } => Some(*value),
            _ => None,
        };
        match &inst.op {
            Op::Bin(BinOp::Add | BinOp::Or { disjoint: true }) => {
                let a = self.int(args[0], signed, depth + 1)?;
                let b = self.int(args[1], signed, depth + 1)?;
                Ok(a.add(b))
            }
            Op::Bin(BinOp::Sub) => {
                let a = self.int(args[0], signed, depth + 1)?;
                let b = self.int(args[1], signed, depth + 1)?;
                Ok(a.add(b.scale(-1)))
            }
            Op::Bin(BinOp::Mul) if constant_of(&args[1]).is_some() => {
                let c = constant_of(&args[1]).unwrap_or(0);
                Ok(self.int(args[0], signed, depth + 1)?.scale(c))
            }
            Op::Bin(BinOp::Mul) if constant_of(&args[0]).is_some() => {
                let c = constant_of(&args[0]).unwrap_or(0);
                Ok(self.int(args[1], signed, depth + 1)?.scale(c))
            }
            Op::Bin(BinOp::Shl) if constant_of(&args[1]).is_some_and(|c| (0..64).contains(&c)) => {
                let c = constant_of(&args[1]).unwrap_or(0);
                Ok(self.int(args[0], signed, depth + 1)?.scale(1i128 << c))
            }
            Op::Cast(CastOp::SExt) => self.int(args[0], true, depth + 1),
            Op::Cast(CastOp::ZExt { .. }) => self.int(args[0], false, depth + 1),
            // Truncation is assumed not to wrap, as for the additions above: an index that
            // wraps around is an out-of-bounds access, which this analysis does not judge.
            Op::Cast(CastOp::Trunc | CastOp::Freeze) => self.int(args[0], signed, depth + 1),
            Op::Select if args[1] == args[2] => self.int(args[1], signed, depth + 1),
            Op::Bin(op) if self.is_sequence(args[0]) => self.sequence_arithmetic(id, *op, depth),
            Op::Bin(_) | Op::Cast(_) if self.uses_sequence(value, 0) => {
                match self.per_thread(value, depth)? {
                    PerThread::Values(values) => Ok(Lin {
                        thread: vec![ThreadTerm {
                            value,
                            coeff: 1,
                            signed,
                            computed: Some(Rc::new(values)),
                        }],
                        ..Lin::default()
                    }),
                    PerThread::Void(lin) => Ok(lin),
                    PerThread::NotComputable => self.leaf(id, depth),
                }
            }
            // `x ^ -1`, InstCombine's form of `-1 - x` (`cols - 1 - k` becomes `cols + (k ^ -1)`):
            // exactly `-1 - x` read signed and `2^bits - 1 - x` read unsigned.
            Op::Bin(BinOp::Xor) if constant_of(&args[1]) == Some(-1) => {
                let bits = self.function().bits(value).unwrap_or(64);
                let x = self.int(args[0], signed, depth + 1)?;
                Ok(Lin::constant(constant(-1, bits, signed)).add(x.scale(-1)))
            }
            _ => self.leaf(id, depth),
        }
    }

    /// The value of `value` (its low bits, and their number) when every array of
    /// `zero_inputs` holds zeros, if it is computed from loads of them and constants alone
    /// through integer arithmetic; `zeroed` gathers the arrays it loads from.
    fn with_zero_inputs(
        &self,
        value: Val,
        zeroed: &mut Vec<Object>,
        depth: usize,
    ) -> Option<(u64, u32)> {
        let inputs = self.zero_inputs?;
        if depth > 16 {
            return None;
        }
        let function = self.function();
        let bits = function.bits(value)?;
        if bits > 64 {
            return None;
        }
        let mask = crate::threads::mask(bits);
        let id = match value {
            Val::Int { value, .. } => return Some((value as u64 & mask, bits)),
            Val::Inst(id) => id,
            _ => return None,
        };
        let inst = function.inst(id);
        let args = &inst.args;
        match &inst.op {
            Op::Load { atomic: false, .. } if function.ty(value) == crate::ir::Ty::Int(bits) => {
                match space(self.cx, *args.first()?) {
                    Space::Known(object) if inputs.contains(&object) => {
                        zeroed.push(object);
                        Some((0, bits))
                    }
                    _ => None,
                }
            }
            Op::Bin(op) => {
                let (x, _) = self.with_zero_inputs(args[0], zeroed, depth + 1)?;
                let (y, _) = self.with_zero_inputs(args[1], zeroed, depth + 1)?;
                Some((unsigned_op(*op, x, y, bits)? & mask, bits))
            }
            Op::Cast(CastOp::ZExt { .. } | CastOp::Trunc | CastOp::Freeze) => {
                let (x, _) = self.with_zero_inputs(args[0], zeroed, depth + 1)?;
                Some((x & mask, bits))
            }
            Op::Cast(CastOp::SExt) => {
                let (x, from) = self.with_zero_inputs(args[0], zeroed, depth + 1)?;
                Some((crate::threads::signed(x, from) as u64 & mask, bits))
            }
            _ => None,
        }
    }

    /// Whether `value` is computed from a loop variable with a known sequence (a short walk).
    fn uses_sequence(&self, value: Val, depth: usize) -> bool {
        let Val::Inst(id) = value else { return false };
        if depth > 8 || self.threads().is_evaluable(value) {
            return false;
        }
        let inst = self.function().inst(id);
        match inst.op {
            Op::Phi(_) => self.is_sequence(value),
            Op::Bin(_) | Op::Cast(_) => inst.args.iter().any(|a| self.uses_sequence(*a, depth + 1)),
            _ => false,
        }
    }

    /// `value` in every thread, from thread-evaluable values, constants and the values the
    /// case chose for loop variables with known sequences (`t % (2 * d)`, `t ^ j`).
    fn per_thread(&mut self, value: Val, depth: usize) -> Result<PerThread, Failure> {
        let n = self.threads().count();
        let Some(bits) = self.function().bits(value).filter(|b| *b <= 64) else {
            return Ok(PerThread::NotComputable);
        };
        let mask = |x: u64| {
            if bits >= 64 {
                x
            } else {
                x & ((1u64 << bits) - 1)
            }
        };
        if let Some(values) = self.threads().values(value) {
            return Ok(PerThread::Values(values.to_vec()));
        }
        let Val::Inst(id) = value else {
            return Ok(PerThread::NotComputable);
        };
        if depth > 12 || n == 0 {
            return Ok(PerThread::NotComputable);
        }
        let inst = self.function().inst(id);
        match &inst.op {
            Op::Phi(_) if self.is_sequence(value) => {
                let lin = self.int(value, true, depth + 1)?;
                if lin
                    .vars
                    .iter()
                    .any(|(k, _)| matches!(k, VarKey::Unreached { .. }))
                {
                    return Ok(PerThread::Void(lin));
                }
                if !lin.vars.is_empty() || !lin.thread.is_empty() || lin.konst < 0 {
                    return Ok(PerThread::NotComputable);
                }
                Ok(PerThread::Values(vec![mask(lin.konst as u64); n]))
            }
            Op::Cast(cast @ (CastOp::ZExt { .. } | CastOp::SExt | CastOp::Trunc)) => {
                let from = self.function().bits(inst.args[0]).unwrap_or(64);
                let inner = match self.per_thread(inst.args[0], depth + 1)? {
                    PerThread::Values(v) => v,
                    other => return Ok(other),
                };
                Ok(PerThread::Values(
                    inner
                        .into_iter()
                        .map(|x| match cast {
                            CastOp::SExt => mask(crate::threads::signed(x, from) as u64),
                            _ => mask(x),
                        })
                        .collect(),
                ))
            }
            Op::Bin(op) => {
                let a = match self.per_thread(inst.args[0], depth + 1)? {
                    PerThread::Values(v) => v,
                    other => return Ok(other),
                };
                let b = match self.per_thread(inst.args[1], depth + 1)? {
                    PerThread::Values(v) => v,
                    other => return Ok(other),
                };
                let mut out = Vec::with_capacity(n);
                for (x, y) in a.into_iter().zip(b) {
                    let Some(r) = unsigned_op(*op, x, y, bits) else {
                        return Ok(PerThread::NotComputable);
                    };
                    out.push(mask(r));
                }
                Ok(PerThread::Values(out))
            }
            _ => Ok(PerThread::NotComputable),
        }
    }

    /// Whether `value` is a loop variable with a known sequence of values (`sequence.rs`).
    fn is_sequence(&self, value: Val) -> bool {
        match value {
            Val::Inst(phi) => {
                matches!(self.function().inst(phi).op, Op::Phi(_))
                    && self
                        .sequences
                        .values(self.cx, self.cfg, phi, Some(self.access))
                        .is_some()
            }
            _ => false,
        }
    }

    /// `phi op x` for a loop variable with a known sequence (InstCombine indexes with `d >> 1`
    /// and tests the phi itself): the operation on the case's value, when `x` is a constant.
    fn sequence_arithmetic(&mut self, id: InstId, op: BinOp, depth: usize) -> Result<Lin, Failure> {
        let inst = self.function().inst(id);
        let value = self.int(inst.args[0], true, depth + 1)?;
        if value
            .vars
            .iter()
            .any(|(k, _)| matches!(k, VarKey::Unreached { .. }))
        {
            return Ok(value);
        }
        let operand = self.int(inst.args[1], true, depth + 1)?;
        let bits = self.function().bits(Val::Inst(id)).unwrap_or(64);
        let constant =
            |lin: &Lin| (lin.vars.is_empty() && lin.thread.is_empty()).then_some(lin.konst);
        match (constant(&value), constant(&operand)) {
            (Some(a), Some(b)) => match super::sequence::fold(op, a, b, bits) {
                Some(result) => Ok(Lin::constant(result)),
                None => Err(self.cannot(id, "leaves the values the analysis follows")),
            },
            _ => self.leaf(id, depth),
        }
    }

    /// A value the arithmetic above does not decompose.
    fn leaf(&mut self, id: InstId, depth: usize) -> Result<Lin, Failure> {
        let value = Val::Inst(id);
        if self.is_invariant(id) {
            return Ok(self.shared(value, false, true));
        }
        let inst = self.function().inst(id);
        if let Some(lin) = self.same_incoming(id, depth) {
            return Ok(lin);
        }
        if let Some(choice) = self.uniform_choice(id, depth) {
            return choice;
        }
        if let (Op::Call(callee), Geometry::Unknown) = (&inst.op, self.threads().geometry()) {
            if let Some(Intrinsic::Sreg(Sreg::Tid(axis))) =
                self.cx.module.callee_name(*callee).map(nvvm::classify)
            {
                let key = VarKey::Thread {
                    side: self.side,
                    axis: axis as u8,
                };
                let max = if axis == 2 { 63 } else { 1023 };
                self.ranges.insert(key, (0, max));
                return Ok(Lin::var(key));
            }
        }
        let Some(def) = self.intervals.segment_of.get(id).copied().flatten() else {
            return Err(self.cannot(id, "is not computed where the analysis can follow it"));
        };
        let Some(target) = self
            .intervals
            .segment_of
            .get(self.access)
            .copied()
            .flatten()
        else {
            return Err(self.cannot(id, "is not computed where the analysis can follow it"));
        };
        let uniform = self.divergence.of(value) == Divergence::Uniform;
        let in_interval = self.intervals.region(self.start).contains(def);
        let is_phi = matches!(inst.op, Op::Phi(_));
        let differs = if matches!(inst.op, Op::Load { .. }) {
            "is loaded from memory and may differ between threads"
        } else {
            "differs between threads in a way the analysis cannot follow"
        };
        if !in_interval {
            // Computed before the interval began: one instance for the whole interval.
            if !uniform {
                return Err(self.cannot(id, differs));
            }
            if is_phi {
                if let Some(induction) = self.induction(id) {
                    let start = self.int(induction.start, true, depth + 1)?;
                    return Ok(start.add(self.completed(id, &induction)));
                }
                if let Some(value) = self.sequence_value(id, BOTH_SIDES, false) {
                    return value;
                }
            }
            return Ok(self.shared(value, false, false));
        }
        if self.intervals.cyclic[def] {
            // Inside a barrier-free loop: each thread has its own iteration.
            if is_phi {
                if let Some(induction) = self.induction(id) {
                    let start = self.int(induction.start, true, depth + 1)?;
                    if self.entered_afresh(id, def, target) {
                        return Ok(start);
                    }
                    if let Some(instance) =
                        self.barriered_counter(id, def, target, &induction, &start)
                    {
                        return instance;
                    }
                    let key = VarKey::Iterations {
                        side: self.side,
                        phi: id,
                    };
                    let bound = self.iteration_bound(id, &induction);
                    self.ranges.insert(key, (0, bound));
                    let counter = start.add(Lin::var(key).scale(induction.step));
                    for (pred, limit, offset, bits) in
                        exit_guards(self.cx, self.cfg, id, &induction)
                    {
                        let signed = !matches!(pred, Pred::Ult | Pred::Ule);
                        if let Ok(limit) = self.int(limit, signed, depth + 1) {
                            self.loop_guards.push(super::guards::Guard {
                                lhs: counter.clone(),
                                rhs: limit.add(Lin::constant(offset)),
                                pred,
                                bits,
                                holds: true,
                            });
                        }
                    }
                    return Ok(counter);
                }
            }
            // A stride that halves or doubles: each thread sees any of its values.
            let afresh = self.entered_afresh(id, def, target);
            if let Some(value) = self.sequence_value(id, self.side, afresh) {
                return value;
            }
            return Err(self.cannot(
                id,
                "changes from one iteration of a barrier-free loop to the next",
            ));
        }
        let all = self.intervals.all_paths_pass(self.start, def, target);
        let some = self.intervals.some_path_passes(self.start, def, target);
        if uniform && is_phi {
            if let Some(induction) = self.induction(id) {
                // A counter of a loop with a barrier: as it was when the interval began, plus
                // one step if this thread has already gone round the loop's back edge.
                let start = self.int(induction.start, true, depth + 1)?;
                let mut lin = start.add(self.completed(id, &induction));
                if all {
                    lin = lin.add(Lin::constant(induction.step));
                } else if some {
                    let key = VarKey::Advanced {
                        side: self.side,
                        phi: id,
                    };
                    self.ranges.insert(key, (0, 1));
                    lin = lin.add(Lin::var(key).scale(induction.step));
                }
                return Ok(lin);
            }
        }
        // A stride that halves or doubles in a loop with a barrier: both threads see one
        // instance, so one value of its sequence.
        if uniform && is_phi && (all || !some) {
            // Entered from outside the loop in this interval: its first value.
            let afresh = self.entered_afresh(id, def, target);
            if let Some(value) = self.sequence_value(id, BOTH_SIDES, afresh) {
                return value;
            }
        }
        if uniform && all {
            return Ok(self.shared(value, true, false));
        }
        if uniform && !some {
            return Ok(self.shared(value, false, false));
        }
        if !uniform {
            return Err(self.cannot(id, differs));
        }
        Err(self.cannot(
            id,
            "may or may not have been recomputed since the interval began",
        ))
    }

    /// The loop variable `phi`, if it takes a short known sequence of values (`sequence.rs`), as
    /// seen by thread `side` of the pair (or by both, one instance, with [`BOTH_SIDES`]): the
    /// value of the case being decided (only the first when the loop was entered afresh in the
    /// interval). A value this access never sees makes the case void.
    fn sequence_value(
        &mut self,
        phi: InstId,
        side: u8,
        first_only: bool,
    ) -> Option<Result<Lin, Failure>> {
        let all_seen = self
            .sequences
            .values(self.cx, self.cfg, phi, Some(self.access))?;
        let seen = if first_only {
            &all_seen[..all_seen.len().min(1)]
        } else {
            &all_seen[..]
        };
        Some(match self.sequence_choices.get(&(phi, side)) {
            Some(value) if seen.contains(value) => Ok(Lin::constant(*value)),
            Some(_) => {
                let key = VarKey::Unreached {
                    side: self.side,
                    phi,
                };
                self.ranges.insert(key, (1, 0));
                Ok(Lin::var(key))
            }
            None => {
                // Cases are made from every value the variable takes, so that both threads of
                // a pair, which may see fewer, try the same ones. Asked only here, where they
                // are used: a sequence known where the access runs is known anywhere (whether
                // the exit value is seen changes only its length, `sequence::values`).
                let values = self
                    .sequences
                    .values(self.cx, self.cfg, phi, None)?
                    .to_vec();
                let failure = Failure::Sequence { phi, side, values };
                self.unchosen_sequence
                    .get_or_insert_with(|| failure.clone());
                Err(failure)
            }
        })
    }

    /// A phi whose incoming values are all the same affine expression (a store sunk out of
    /// the two arms of an `if`, say) is that expression, whichever way each thread came.
    fn same_incoming(&mut self, phi: InstId, depth: usize) -> Option<Lin> {
        let inst = self.function().inst(phi);
        if !matches!(inst.op, Op::Phi(_)) || inst.args.is_empty() {
            return None;
        }
        let first = self.int(inst.args[0], true, depth + 1).ok()?;
        for value in &inst.args[1..] {
            let other = self.int(*value, true, depth + 1).ok()?;
            if !self.same_lin(&first, &other) {
                return None;
            }
        }
        Some(first)
    }

    /// A phi that is not a loop counter and whose incoming edge every thread takes alike (the
    /// branches before it are uniform), computed once where both threads of a pair see the same
    /// instance: the incoming value of the case being decided.
    fn uniform_choice(&mut self, phi: InstId, depth: usize) -> Option<Result<Lin, Failure>> {
        let inst = self.function().inst(phi);
        if !matches!(inst.op, Op::Phi(_))
            || self.induction(phi).is_some()
            || self
                .sequences
                .values(self.cx, self.cfg, phi, Some(self.access))
                .is_some()
        {
            return None;
        }
        if self.divergence.control_of(phi) != Divergence::Uniform && !self.separated_edges(phi) {
            return None;
        }
        let def = self.intervals.segment_of.get(phi).copied().flatten()?;
        let target = self
            .intervals
            .segment_of
            .get(self.access)
            .copied()
            .flatten()?;
        let in_interval = self.intervals.region(self.start).contains(def);
        let one_instance = !in_interval
            || (!self.intervals.cyclic[def]
                && self.intervals.all_paths_pass(self.start, def, target));
        if !one_instance {
            return None;
        }
        Some(match self.choices.get(&phi) {
            Some(c) => match inst.args.get(*c) {
                Some(value) => self.int(*value, true, depth + 1),
                None => Err(self.cannot(phi, "has no such incoming value")),
            },
            None => Err(Failure::Choice {
                phi,
                arity: inst.args.len(),
            }),
        })
    }

    /// Whether every two incoming edges of `phi` lie on different sides of a uniform branch, so
    /// that two threads in one instance of it came the same way, although divergent branches on
    /// the way decide whether a thread comes at all (SimplifyCFG sinks the stores of both arms of
    /// a uniform `if`, `out[B, tid]` by threads below 2 and `out[B, 1]` by thread 0, into one
    /// store whose address is a phi). Each case then adds the conditions of its edge to the
    /// access's guards (`races.rs`).
    fn separated_edges(&self, phi: InstId) -> bool {
        let inst = self.function().inst(phi);
        let (Op::Phi(blocks), Some(block)) = (&inst.op, inst.block) else {
            return false;
        };
        let uniform_conditions: Vec<Vec<(Val, bool)>> = blocks
            .iter()
            .map(|from| {
                edge_conditions(self.function(), self.cfg, *from, block)
                    .into_iter()
                    .filter(|(c, _)| self.divergence.of(*c) == Divergence::Uniform)
                    .collect()
            })
            .collect();
        (0..blocks.len()).all(|i| {
            (i + 1..blocks.len()).all(|j| {
                blocks[i] == blocks[j]
                    || uniform_conditions[i]
                        .iter()
                        .any(|(c, taken)| uniform_conditions[j].contains(&(*c, !*taken)))
            })
        })
    }

    /// Whether `phi` qualifies as a uniform choice (see [`Self::uniform_choice`]), without
    /// linearising its incoming values.
    fn uniform_choice_probe(&mut self, phi: InstId) -> Option<Result<(), Failure>> {
        let saved = self.choices.remove(&phi);
        let probe = self.uniform_choice(phi, 0).map(|r| r.map(|_| ()));
        if let Some(c) = saved {
            self.choices.insert(phi, c);
        }
        probe
    }

    /// Whether two expressions have the same value in every thread.
    fn same_lin(&self, a: &Lin, b: &Lin) -> bool {
        if a.konst != b.konst || a.vars.len() != b.vars.len() {
            return false;
        }
        if !a.vars.iter().all(|v| b.vars.contains(v)) {
            return false;
        }
        if a.thread == b.thread {
            return true;
        }
        let threads = self.cx.threads;
        let part = |lin: &Lin| -> Option<Vec<i128>> {
            let mut total = vec![0i128; threads.count()];
            for term in &lin.thread {
                let values = term.values(threads)?;
                let bits = threads.bits(term.value).unwrap_or(64);
                for (t, v) in values.iter().enumerate() {
                    let x = if term.signed {
                        i128::from(crate::threads::signed(*v, bits))
                    } else {
                        i128::from(*v)
                    };
                    total[t] = total[t].saturating_add(term.coeff.saturating_mul(x));
                }
            }
            Some(total)
        };
        threads.count() > 0 && matches!((part(a), part(b)), (Some(x), Some(y)) if x == y)
    }

    fn cannot(&self, id: InstId, why: &str) -> Failure {
        Failure::Inexpressible {
            culprit: Some(id),
            why: why.to_string(),
        }
    }

    fn shared(&mut self, value: Val, in_interval: bool, invariant: bool) -> Lin {
        let key = VarKey::Shared {
            value,
            in_interval,
            invariant,
        };
        let bits = self.function().bits(value).unwrap_or(64);
        let full = if bits >= 64 {
            (-UNBOUNDED, UNBOUNDED)
        } else {
            (-(1i128 << (bits - 1)), (1i128 << bits) - 1)
        };
        let range = match self.value_ranges.of(self.cx.function, value) {
            Some((lo, hi)) => (lo.max(full.0), hi.min(full.1)),
            None => full,
        };
        self.ranges.insert(key, range);
        Lin::var(key)
    }

    fn completed(&mut self, phi: InstId, induction: &Induction) -> Lin {
        let key = VarKey::Completed { phi };
        self.ranges.insert(key, (0, UNBOUNDED));
        Lin::var(key).scale(induction.step)
    }

    /// The progress of a pointer induction since its start, in the current interval.
    fn progress(&mut self, phi: InstId, induction: &Induction) -> Result<Lin, Failure> {
        let def = self.intervals.segment_of.get(phi).copied().flatten();
        let target = self
            .intervals
            .segment_of
            .get(self.access)
            .copied()
            .flatten();
        let (Some(def), Some(target)) = (def, target) else {
            return Err(self.cannot(phi, "is not computed where the analysis can follow it"));
        };
        let uniform = self.divergence.of(Val::Inst(phi)) == Divergence::Uniform;
        if self.intervals.cyclic[def] && self.entered_afresh(phi, def, target) {
            return Ok(Lin::default());
        }
        if self.intervals.region(self.start).contains(def) && self.intervals.cyclic[def] {
            let key = VarKey::Iterations {
                side: self.side,
                phi,
            };
            let bound = self.iteration_bound(phi, induction);
            self.ranges.insert(key, (0, bound));
            return Ok(Lin::var(key).scale(induction.step));
        }
        if !uniform {
            return Err(self.cannot(
                phi,
                "differs between threads in a way the analysis cannot follow",
            ));
        }
        let mut lin = self.completed(phi, induction);
        if self.intervals.region(self.start).contains(def) {
            if self.intervals.all_paths_pass(self.start, def, target) {
                lin = lin.add(Lin::constant(induction.step));
            } else if self.intervals.some_path_passes(self.start, def, target) {
                let key = VarKey::Advanced {
                    side: self.side,
                    phi,
                };
                self.ranges.insert(key, (0, 1));
                lin = lin.add(Lin::var(key).scale(induction.step));
            }
        }
        Ok(lin)
    }

    /// Whether every instance of the loop counter `phi` (in segment `def`) that the access in
    /// segment `target` sees was made in this interval by entering its loop from outside: the
    /// loop's back edge crosses a barrier, so it is not taken within the interval, and the
    /// barrier-free cycle `def` lies on is an enclosing loop's (which enters this loop afresh,
    /// the counter at its start, on every trip).
    fn entered_afresh(&self, phi: InstId, def: usize, target: usize) -> bool {
        let region = &self.intervals.region(self.start);
        if !region.contains(def) || !self.intervals.all_paths_pass(self.start, def, target) {
            return false;
        }
        let Some(mut latches) = latches_of(self.cx.function, self.cfg, phi) else {
            return false;
        };
        latches.all(|latch| {
            self.intervals
                .last_segment_of(latch)
                .is_some_and(|segment| !region.contains(segment))
        })
    }

    /// The uniform counter `phi` of a loop with a barrier on every trip, seen in an interval
    /// that an enclosing barrier-free loop makes cyclic (it can leave this loop and enter it
    /// afresh without a barrier). Each thread sees either the instance the back edge made (one
    /// step past the value before the interval) or a fresh one (the start); the loop's exits are
    /// uniform, so both threads of a pair leave it, or stay in it, alike: a choice both share.
    /// `None` when the counter is not of that kind.
    fn barriered_counter(
        &mut self,
        phi: InstId,
        def: usize,
        target: usize,
        induction: &Induction,
        start: &Lin,
    ) -> Option<Result<Lin, Failure>> {
        let uniform = |d: Divergence| d == Divergence::Uniform;
        if !uniform(self.divergence.of(Val::Inst(phi)))
            || !uniform(self.divergence.control_of(phi))
            || !self.intervals.all_paths_pass(self.start, def, target)
        {
            return None;
        }
        // The start must be the same value on every trip, for the back edge's instance to be
        // counted from it.
        let fixed = start.thread.is_empty()
            && start.vars.iter().all(|(k, _)| {
                matches!(
                    k,
                    VarKey::Shared {
                        invariant: true,
                        ..
                    }
                )
            });
        if !fixed {
            return None;
        }
        let (header, latches) = loop_latches(self.cx.function, self.cfg, phi)?;
        // Every trip crosses a barrier: no latch's back edge is reachable from the header
        // without one.
        let from_header = self.intervals.reachable(def);
        if latches.is_empty()
            || latches.iter().any(|&l| {
                self.intervals
                    .last_segment_of(l)
                    .is_none_or(|segment| from_header.contains(segment))
            })
        {
            return None;
        }
        if !self.exits_uniform(header) {
            return None;
        }
        Some(match self.choices.get(&phi) {
            None => Err(Failure::Choice { phi, arity: 2 }),
            Some(0) => Ok(start.clone()),
            Some(_) => Ok(start
                .clone()
                .add(self.completed(phi, induction))
                .add(Lin::constant(induction.step))),
        })
    }

    /// Whether every branch that leaves the natural loop of `header` is uniform.
    fn exits_uniform(&self, header: BlockId) -> bool {
        let function = self.cx.function;
        let n = function.blocks.len();
        let in_loop = self.cfg.natural_loop(function, header);
        (0..n).filter(|&b| in_loop[b]).all(|b| {
            let leaves = self.cfg.succs[b].iter().any(|&s| s >= n || !in_loop[s]);
            let Some(term) = function.terminator(b) else {
                return true;
            };
            let term = function.inst(term);
            !leaves
                || !matches!(term.op, Op::CondBr | Op::Switch)
                || term
                    .args
                    .first()
                    .is_some_and(|c| self.divergence.of(*c) == Divergence::Uniform)
        })
    }

    /// Whether a value is the same in the whole kernel: computed from parameters, block ids and
    /// block dimensions, without memory or phis.
    fn is_invariant(&mut self, id: InstId) -> bool {
        if let Some(known) = self.invariant.get(&id) {
            return *known;
        }
        self.invariant.insert(id, false);
        let inst = self.function().inst(id);
        let operands = |this: &mut Self| {
            inst.args.iter().all(|a| match a {
                Val::Inst(i) => this.is_invariant(*i),
                _ => true,
            })
        };
        let result = match &inst.op {
            Op::Bin(_) | Op::ICmp(_) | Op::Select | Op::Cast(_) | Op::Gep(_) => operands(self),
            Op::ExtractValue(_) => operands(self),
            Op::Call(callee) => match self.cx.module.callee_name(*callee).map(nvvm::classify) {
                Some(Intrinsic::Sreg(Sreg::BlockUniform | Sreg::Ntid(_) | Sreg::WarpSize)) => true,
                Some(Intrinsic::Pure) => operands(self),
                _ => false,
            },
            _ => false,
        };
        self.invariant.insert(id, result);
        result
    }

    /// An upper bound on the iteration count of an induction variable at the access, if its
    /// loop's exit test compares it with a thread-evaluable limit.
    fn iteration_bound(&self, phi: InstId, induction: &Induction) -> i128 {
        bound(self.cx, self.cfg, phi, induction, self.access).unwrap_or(UNBOUNDED)
    }
}

/// `x op y` on `bits`-bit values, as the hardware computes it (signed operations read their
/// operands as signed); `None` for a division by zero or a shift past the width.
fn unsigned_op(op: BinOp, x: u64, y: u64, bits: u32) -> Option<u64> {
    let s = |v: u64| crate::threads::signed(v, bits);
    Some(match op {
        BinOp::Add => x.wrapping_add(y),
        BinOp::Sub => x.wrapping_sub(y),
        BinOp::Mul => x.wrapping_mul(y),
        BinOp::UDiv => x.checked_div(y)?,
        BinOp::URem => x.checked_rem(y)?,
        BinOp::SDiv => s(x).checked_div(s(y))? as u64,
        BinOp::SRem => s(x).checked_rem(s(y))? as u64,
        BinOp::Shl if y < u64::from(bits) => x << y,
        BinOp::LShr if y < u64::from(bits) => x >> y,
        BinOp::AShr if y < u64::from(bits) => (s(x) >> y) as u64,
        BinOp::And => x & y,
        BinOp::Or { .. } => x | y,
        BinOp::Xor => x ^ y,
        BinOp::Shl | BinOp::LShr | BinOp::AShr => return None,
    })
}

fn constant(value: i128, bits: u32, signed: bool) -> i128 {
    if signed || bits >= 64 || value >= 0 {
        value
    } else {
        value + (1i128 << bits)
    }
}

/// `phi = phi [start, outside the loop], [phi + step, around the loop]`.
#[derive(Debug, Clone, Copy)]
pub struct Induction {
    pub start: Val,
    /// Units of the integer, or bytes for a pointer.
    pub step: i128,
    /// The value on the back edge.
    pub next: Val,
}

/// The branch conditions known on the edge from `from` to `to`: the edge's own, when `from` ends
/// in a conditional branch, and those dominating `from` (`cfg::dominating_conditions`).
pub fn edge_conditions(
    function: &Function,
    cfg: &Cfg,
    from: BlockId,
    to: BlockId,
) -> Vec<(Val, bool)> {
    let mut conditions = crate::cfg::dominating_conditions(function, cfg, from);
    if let Some(term) = function.terminator(from) {
        let term = function.inst(term);
        let succs = &function.blocks[from].succs;
        if term.op == Op::CondBr && succs.len() == 2 && succs[0] != succs[1] {
            conditions.push((term.args[0], succs[0] == to));
        }
    }
    conditions
}

/// Whether the edge from `from` into the loop header `header` closes the loop.
fn is_back_edge(function: &Function, cfg: &Cfg, header: BlockId, from: BlockId) -> bool {
    from < function.blocks.len() && cfg.reachable[from] && cfg.dominates(header, from)
}

/// The header of the loop `phi` heads and the blocks its back edges come from.
fn loop_latches(function: &Function, cfg: &Cfg, phi: InstId) -> Option<(BlockId, Vec<BlockId>)> {
    let header = function.inst(phi).block?;
    Some((header, latches_of(function, cfg, phi)?.collect()))
}

/// The blocks the back edges into the loop `phi` heads come from, uncollected: a linearizer
/// asks once per case of every pair (`entered_afresh`), and a vector for each was 2 M of the
/// 52 M instructions of bitonic_sort's verifier at -O2.
fn latches_of<'f>(
    function: &'f Function,
    cfg: &'f Cfg,
    phi: InstId,
) -> Option<impl Iterator<Item = BlockId> + 'f> {
    let inst = function.inst(phi);
    let (Op::Phi(blocks), Some(header)) = (&inst.op, inst.block) else {
        return None;
    };
    Some(
        blocks
            .iter()
            .copied()
            .filter(move |&from| is_back_edge(function, cfg, header, from)),
    )
}

/// One kernel's [`induction`]s, each worked out once per phi: the linearizer asks for every
/// phi it meets, once per case of every pair (38,000 times in bitonic_sort's rolled loops at
/// -O2). An answer depends on the kernel alone, never on what was asked before.
#[derive(Default)]
pub struct Inductions {
    known: RefCell<HashMap<InstId, Option<Induction>>>,
}

impl Inductions {
    pub fn of(&self, function: &Function, cfg: &Cfg, phi: InstId) -> Option<Induction> {
        *self
            .known
            .borrow_mut()
            .entry(phi)
            .or_insert_with(|| induction(function, cfg, phi))
    }
}

pub fn induction(function: &Function, cfg: &Cfg, phi: InstId) -> Option<Induction> {
    let inst = function.inst(phi);
    let Op::Phi(blocks) = &inst.op else {
        return None;
    };
    let header = inst.block?;
    let mut start = None;
    let mut next = None;
    for (value, from) in inst.args.iter().zip(blocks) {
        let back_edge = is_back_edge(function, cfg, header, *from);
        let slot = if back_edge { &mut next } else { &mut start };
        match slot {
            None => *slot = Some(*value),
            Some(v) if v == value => {}
            Some(_) => return None,
        }
    }
    let (start, next) = (start?, next?);
    let step = step_from(function, next, phi, 0)?;
    Some(Induction { start, step, next })
}

/// `value - phi` if `value` is `phi` plus constants.
fn step_from(function: &Function, value: Val, phi: InstId, depth: usize) -> Option<i128> {
    if value == Val::Inst(phi) {
        return Some(0);
    }
    if depth > 16 {
        return None;
    }
    let Val::Inst(id) = value else { return None };
    let inst = function.inst(id);
    let constant_of = |v: &Val| match v {
        Val::Int { value, .. } => Some(*value),
        _ => None,
    };
    match &inst.op {
        Op::Bin(BinOp::Add | BinOp::Or { disjoint: true }) => {
            if let Some(c) = constant_of(&inst.args[1]) {
                Some(step_from(function, inst.args[0], phi, depth + 1)? + c)
            } else {
                let c = constant_of(&inst.args[0])?;
                Some(step_from(function, inst.args[1], phi, depth + 1)? + c)
            }
        }
        Op::Bin(BinOp::Sub) => {
            let c = constant_of(&inst.args[1])?;
            Some(step_from(function, inst.args[0], phi, depth + 1)? - c)
        }
        Op::Gep(steps) => {
            let mut total = 0i128;
            for (step, index) in steps.iter().zip(&inst.args[1..]) {
                total += match step {
                    GepIndex::Field(offset) => i128::from(*offset),
                    GepIndex::Scaled(scale) => constant_of(index)? * i128::from(*scale),
                };
            }
            Some(step_from(function, inst.args[0], phi, depth + 1)? + total)
        }
        Op::Cast(
            CastOp::SExt | CastOp::ZExt { .. } | CastOp::Trunc | CastOp::BitCast | CastOp::Freeze,
        ) => step_from(function, inst.args[0], phi, depth + 1),
        _ => None,
    }
}

/// The largest iteration count `j` (`phi = start + step·j`) a thread can have at `access`, from
/// an exit test `phi (or next) <pred> limit` that runs on every iteration, with thread-evaluable
/// start and limit (constants included). At an access under the test's staying edge the exit
/// value is never seen, so the bound is one less there. `None`: no such test.
fn bound(
    cx: &Context<'_>,
    cfg: &Cfg,
    phi: InstId,
    induction: &Induction,
    access: InstId,
) -> Option<i128> {
    let function = cx.function;
    let header = function.inst(phi).block?;
    let access_block = function.inst(access).block?;
    if induction.step == 0 {
        return Some(0);
    }
    let starts = cx.threads.values(induction.start)?;
    let start_bits = function.bits(induction.start)?;
    let mut best: Option<i128> = None;
    let counter = |v: Val| induction_operand(v, phi, induction);
    for test in exit_tests(function, cfg, header, &counter) {
        let Some(limits) = cx.threads.values(test.limit) else {
            continue;
        };
        let pred = test.pred;
        let tests_next = test.x != Val::Inst(phi);
        let unsigned = matches!(pred, Pred::Ult | Pred::Ule | Pred::Ugt | Pred::Uge);
        let read = |v: u64| {
            if unsigned {
                i128::from(v)
            } else {
                i128::from(crate::threads::signed(v, start_bits))
            }
        };
        let mut most: Option<i128> = None;
        for (s, l) in starts.iter().zip(limits.iter()) {
            let first = read(*s) + if tests_next { induction.step } else { 0 };
            let count = passes(pred, first, read(*l), induction.step)?;
            // Values of j the phi takes: with the test on the phi, 0..=count (the last one
            // exits); with the test on the next value, the body runs for j = 0..=count.
            let seen =
                if !tests_next && cfg.dominates(test.stay, access_block) && test.stay != header {
                    count - 1
                } else {
                    count
                };
            most = Some(most.map_or(seen, |m: i128| m.max(seen)));
        }
        if let Some(m) = most {
            best = Some(best.map_or(m, |b: i128| b.min(m)));
        }
    }
    best
}

/// What a rotated loop's exit test says of every value its counter takes: `phi <pred> limit +
/// offset` (with the comparison's width), for the tests `bound` reads, of a counter that grows
/// (`<`, `<=`) or shrinks (`>`, `>=`) towards a limit defined outside the loop. A thread comes
/// round the back edge only when the test let it stay: with the test on the next value, the new
/// value passed it; with the test on the counter itself, the previous value did, so the new one
/// passes it shifted by one step (`i < 75` tested at the latch, `i = tid + 16 + 16j`: every value
/// is below 91, so thread 11 never reaches `i = 91`, though thread 0 goes round once more). The
/// first value came from outside, untested: each test is kept only when every thread's start
/// passes it too. Unlike [`bound`], which bounds the iteration count by its largest over the
/// threads, this keeps each thread to its own last value. (A test before the access in the
/// same iteration is among the access's dominating conditions already.)
fn exit_guards(
    cx: &Context<'_>,
    cfg: &Cfg,
    phi: InstId,
    induction: &Induction,
) -> Vec<(Pred, Val, i128, u32)> {
    let function = cx.function;
    let mut out = Vec::new();
    if induction.step == 0 {
        return out;
    }
    let Some(starts) = cx.threads.values(induction.start) else {
        return out;
    };
    let Some(header) = function.inst(phi).block else {
        return out;
    };
    let counter = |v: Val| induction_operand(v, phi, induction);
    for test in exit_tests(function, cfg, header, &counter) {
        if !test.limit_outside {
            continue;
        }
        let pred = test.pred;
        let towards = match pred {
            Pred::Ult | Pred::Ule | Pred::Slt | Pred::Sle => induction.step > 0,
            Pred::Ugt | Pred::Uge | Pred::Sgt | Pred::Sge => induction.step < 0,
            _ => false,
        };
        let (Some(bits), Some(limits)) = (function.bits(test.x), cx.threads.values(test.limit))
        else {
            continue;
        };
        if !towards {
            continue;
        }
        let offset = if test.x == Val::Inst(phi) {
            induction.step
        } else {
            0
        };
        let unsigned = matches!(pred, Pred::Ult | Pred::Ule | Pred::Ugt | Pred::Uge);
        let read = |v: u64| {
            if unsigned {
                i128::from(v)
            } else {
                i128::from(crate::threads::signed(v, bits))
            }
        };
        let holds = |a: i128, b: i128| match pred {
            Pred::Ult | Pred::Slt => a < b,
            Pred::Ule | Pred::Sle => a <= b,
            Pred::Ugt | Pred::Sgt => a > b,
            _ => a >= b,
        };
        if starts
            .iter()
            .zip(limits.iter())
            .all(|(s, l)| holds(read(*s), read(*l) + offset))
        {
            out.push((pred, test.limit, offset, bits));
        }
    }
    out
}

fn induction_operand(value: Val, phi: InstId, induction: &Induction) -> bool {
    value == Val::Inst(phi) || value == induction.next
}

/// How many consecutive values `first, first + step, ...` satisfy `x <pred> limit` (the test
/// being monotone in `x`); `None` if unbounded or not monotone in the step's direction.
fn passes(pred: Pred, first: i128, limit: i128, step: i128) -> Option<i128> {
    let (first, limit, step, pred) = if step < 0 {
        (-first, -limit, -step, pred.swapped())
    } else {
        (first, limit, step, pred)
    };
    Some(match pred {
        Pred::Slt | Pred::Ult => {
            if first >= limit {
                0
            } else {
                (limit - first + step - 1) / step
            }
        }
        Pred::Sle | Pred::Ule => {
            if first > limit {
                0
            } else {
                (limit - first) / step + 1
            }
        }
        Pred::Ne if limit >= first && (limit - first) % step == 0 => (limit - first) / step,
        _ => return None,
    })
}
