//! The threads of one block, enumerated: thread ids, the values that depend on nothing but the
//! thread id (evaluated exactly, once per thread, with LLVM's wrapping semantics), and which
//! threads can reach each basic block when every branch on such a value is followed thread by
//! thread.
//!
//! A block has at most 1024 threads, so enumerating them is cheap and exact: it decides
//! `tid < 16` (divergent), `tid < 2048` (uniform for every legal block), `(tid & 1) == 0`
//! (which threads run a reduction step) without any symbolic reasoning.

use crate::cfg::Cfg;
use crate::fast_hash::HashMap;
use crate::ir::{BinOp, BlockId, Callee, CastOp, Function, InstId, Module, Op, Pred, Val};
use crate::nvvm::{self, Intrinsic, LaneMask, Sreg};
use std::cell::RefCell;
use std::rc::Rc;

pub const MAX_THREADS: u32 = 1024;
pub const WARP_SIZE: u32 = 32;
/// How deep in [`ThreadValues::condition`] a phi is still looked through (each level visits
/// every incoming edge and the branches above it).
const PHI_DEPTH: usize = 1;
/// How many comparisons may be decided edge by edge one inside another.
const MAX_DECIDING: usize = 8;

/// What is known of the block's shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Geometry {
    /// Exact dimensions (from `reqntid` or an option): enumeration is exact.
    Known([u32; 3]),
    /// Unknown, but the kernel reads no y or z coordinate: assumed one-dimensional with at most
    /// this many threads (`maxntidx`, or 1024). A conflict between two threads exists in every
    /// block large enough to hold them, so enumerating the largest block finds the conflicts of
    /// every smaller one too.
    UpTo(u32),
    /// Unknown and the kernel uses y or z: threads cannot be enumerated.
    Unknown,
}

impl Geometry {
    pub fn dims(self) -> Option<[u32; 3]> {
        match self {
            Geometry::Known(d) => Some(d),
            Geometry::UpTo(n) => Some([n, 1, 1]),
            Geometry::Unknown => None,
        }
    }

    pub fn thread_count(self) -> usize {
        self.dims()
            .map(|d| d.iter().map(|x| *x as usize).product())
            .unwrap_or(0)
    }

    /// The thread with linear id `linear` (x fastest, as the hardware numbers them).
    pub fn thread(self, linear: usize) -> ThreadId {
        let d = self.dims().unwrap_or([1, 1, 1]);
        let (x, y) = (d[0].max(1) as usize, d[1].max(1) as usize);
        ThreadId {
            index: [
                (linear % x) as u32,
                ((linear / x) % y) as u32,
                (linear / (x * y)) as u32,
            ],
            dimensions: if d[2] > 1 {
                3
            } else if d[1] > 1 {
                2
            } else {
                1
            },
        }
    }

    pub fn warp(linear: usize) -> usize {
        linear / WARP_SIZE as usize
    }
}

/// A thread of the block, for reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ThreadId {
    pub index: [u32; 3],
    /// How many coordinates the block has (1-D blocks print one number).
    pub dimensions: u8,
}

impl std::fmt::Display for ThreadId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [x, y, z] = self.index;
        match self.dimensions {
            1 => write!(f, "thread {x}"),
            2 => write!(f, "thread ({x}, {y})"),
            _ => write!(f, "thread ({x}, {y}, {z})"),
        }
    }
}

/// A set of threads of the block, by linear id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThreadSet {
    words: Vec<u64>,
    len: usize,
}

impl ThreadSet {
    pub fn empty(len: usize) -> ThreadSet {
        ThreadSet {
            words: vec![0; len.div_ceil(64)],
            len,
        }
    }

    pub fn all(len: usize) -> ThreadSet {
        let mut set = ThreadSet::empty(len);
        for t in 0..len {
            set.insert(t);
        }
        set
    }

    pub fn insert(&mut self, t: usize) {
        if t < self.len {
            self.words[t / 64] |= 1 << (t % 64);
        }
    }

    pub fn contains(&self, t: usize) -> bool {
        t < self.len && self.words[t / 64] & (1 << (t % 64)) != 0
    }

    /// Adds `other ∩ mask` (or all of `other` without a mask); whether anything was added.
    pub fn add(&mut self, other: &ThreadSet, mask: Option<&ThreadSet>) -> bool {
        let mut changed = false;
        for (i, word) in self.words.iter_mut().enumerate() {
            let incoming = other.words.get(i).copied().unwrap_or(0)
                & mask
                    .map(|m| m.words.get(i).copied().unwrap_or(0))
                    .unwrap_or(!0);
            let new = *word | incoming;
            changed |= new != *word;
            *word = new;
        }
        changed
    }

    pub fn union(&self, other: &ThreadSet) -> ThreadSet {
        let mut out = self.clone();
        out.add(other, None);
        out
    }

    pub fn intersection(&self, other: &ThreadSet) -> ThreadSet {
        let mut out = ThreadSet::empty(self.len);
        out.add(self, Some(other));
        out
    }

    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|w| *w == 0)
    }

    pub fn count(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.len).filter(|t| self.contains(*t))
    }
}

/// Per-thread values of the thread-only part of one function.
/// One value per thread of the block, by linear id.
type PerThread = Rc<Vec<u64>>;

pub struct ThreadValues<'a> {
    module: &'a Module,
    function: &'a Function,
    geometry: Geometry,
    count: usize,
    evaluable: RefCell<HashMap<InstId, bool>>,
    cache: RefCell<HashMap<InstId, Rc<Vec<u64>>>>,
    /// The constants' per-thread vectors, made once each: the race check asks for the same few
    /// constants thousands of times (examples/compaction: 7,764 vectors of a block's threads).
    constants: RefCell<HashMap<(u64, u32), PerThread>>,
    /// The comparisons being decided edge by edge ([`ThreadValues::compare_edge_by_edge`]): a
    /// branch on one of them may lead back into its own phi, and the nesting is kept shallow.
    deciding: RefCell<Vec<InstId>>,
}

pub fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// `value` (the low `bits` bits) read as a signed number.
pub fn signed(value: u64, bits: u32) -> i64 {
    if bits == 0 || bits >= 64 {
        return value as i64;
    }
    let shift = 64 - bits;
    ((value << shift) as i64) >> shift
}

impl<'a> ThreadValues<'a> {
    pub fn new(module: &'a Module, function: &'a Function, geometry: Geometry) -> ThreadValues<'a> {
        ThreadValues {
            module,
            function,
            geometry,
            count: geometry.thread_count(),
            evaluable: RefCell::new(HashMap::default()),
            cache: RefCell::new(HashMap::default()),
            constants: RefCell::new(HashMap::default()),
            deciding: RefCell::new(Vec::new()),
        }
    }

    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    pub fn count(&self) -> usize {
        self.count
    }

    pub fn bits(&self, value: Val) -> Option<u32> {
        self.function.bits(value)
    }

    fn sreg(&self, id: InstId) -> Option<Sreg> {
        let inst = self.function.inst(id);
        let Op::Call(callee) = inst.op else {
            return None;
        };
        match self.module.callee_name(callee).map(nvvm::classify) {
            Some(Intrinsic::Sreg(s)) => Some(s),
            _ => None,
        }
    }

    /// Whether `value` is an integer that depends on the thread id and constants only, so that
    /// [`ThreadValues::values`] can compute it for every thread.
    pub fn is_evaluable(&self, value: Val) -> bool {
        if self.count == 0 {
            return false;
        }
        match value {
            Val::Int { bits, .. } => bits <= 64,
            Val::Inst(id) => self.inst_evaluable(id, 0),
            _ => false,
        }
    }

    fn inst_evaluable(&self, id: InstId, depth: usize) -> bool {
        if let Some(known) = self.evaluable.borrow().get(&id) {
            return *known;
        }
        // A malformed (or unreachable, self-referencing) chain must not recurse forever.
        if depth > 256 {
            return false;
        }
        self.evaluable.borrow_mut().insert(id, false);
        let inst = self.function.inst(id);
        let width_ok = self.function.bits(Val::Inst(id)).is_some_and(|b| b <= 64);
        let operands_ok = |this: &Self| {
            inst.args.iter().all(|a| match a {
                Val::Int { bits, .. } => *bits <= 64,
                Val::Inst(i) => this.inst_evaluable(*i, depth + 1),
                _ => false,
            })
        };
        let result = width_ok
            && match &inst.op {
                Op::Bin(_) | Op::Select => operands_ok(self),
                Op::ICmp(_) => operands_ok(self) || self.compare_edge_by_edge(id).is_some(),
                Op::Cast(CastOp::Trunc | CastOp::ZExt { .. } | CastOp::SExt | CastOp::Freeze) => {
                    operands_ok(self)
                }
                Op::Call(callee) => match self.sreg(id) {
                    Some(Sreg::Tid(_) | Sreg::LaneId | Sreg::WarpSize | Sreg::LaneMask(_)) => true,
                    Some(Sreg::Ntid(_)) => matches!(self.geometry, Geometry::Known(_)),
                    Some(_) => false,
                    None => {
                        is_evaluable_intrinsic(self.module.callee_name(*callee))
                            && operands_ok(self)
                    }
                },
                Op::Phi(_) => self.phi_alias(id).is_some_and(
                    |x| matches!(x, Val::Inst(i) if self.inst_evaluable(i, depth + 1)),
                ),
                _ => false,
            };
        self.evaluable.borrow_mut().insert(id, result);
        result
    }

    /// The thread-only value `x` a phi always equals: every incoming value is `x`, or a constant
    /// `c` on an edge that only threads with `x == c` take (GVN rewrites `tid` as `0` under
    /// `if tid == 0`, and the phi after it merges `[tid, 0]`).
    fn phi_alias(&self, phi: InstId) -> Option<Val> {
        let inst = self.function.inst(phi);
        let Op::Phi(blocks) = &inst.op else {
            return None;
        };
        let to = inst.block?;
        let candidates: Vec<Val> = match inst.args.iter().find(|v| matches!(v, Val::Inst(_))) {
            Some(x) => vec![*x],
            // A phi of constants only (`[false, not-leader], [true, leader]`): the condition of
            // a branch that leads to it may be what it equals.
            None if self.function.bits(Val::Inst(phi)) == Some(1) => self.nearby_conditions(blocks),
            None => Vec::new(),
        };
        candidates.into_iter().find(|x| {
            inst.args.iter().zip(blocks).all(|(v, from)| {
                *v == *x
                    || matches!(v, Val::Int { value, .. } if self.edge_implies_equal(*from, to, *x, *value))
                    || self.same_in_every_thread(*v, *x)
            })
        })
    }

    /// A comparison of a phi with a thread-only value, decided edge by edge: in each thread the
    /// phi is the incoming value of an edge that thread can take, so when comparing those gives
    /// one answer, that answer is the comparison's. GVN merges `tid` with the `1` it stands for
    /// on the edge of the threads that skip a loop (`[1, tid >= 184], [tid, tid < 184]`) and
    /// tests the phi with `!= 0`: `tid != 0` on every edge a thread can take.
    fn compare_edge_by_edge(&self, id: InstId) -> Option<Vec<u64>> {
        // Asked again while deciding it (a branch on it controls an edge into its phi), or nested
        // too deep: not known, which only makes the answer coarser.
        {
            let mut deciding = self.deciding.borrow_mut();
            if deciding.contains(&id) || deciding.len() >= MAX_DECIDING {
                return None;
            }
            deciding.push(id);
        }
        let decided = self.decide_edge_by_edge(id);
        self.deciding.borrow_mut().retain(|d| *d != id);
        decided
    }

    fn decide_edge_by_edge(&self, id: InstId) -> Option<Vec<u64>> {
        let inst = self.function.inst(id);
        let (Op::ICmp(pred), [a, b]) = (&inst.op, inst.args.as_slice()) else {
            return None;
        };
        let phi_of = |v: &Val| match v {
            Val::Inst(i) => match &self.function.inst(*i).op {
                Op::Phi(blocks) => Some((*i, blocks.clone())),
                _ => None,
            },
            _ => None,
        };
        let ((phi, blocks), other, phi_first) = match (phi_of(a), phi_of(b)) {
            (Some(p), None) => (p, *b, true),
            (None, Some(p)) => (p, *a, false),
            _ => return None,
        };
        let to = self.function.inst(phi).block?;
        let width = self.function.bits(Val::Inst(phi))?;
        let other = self.values(other)?;
        let mut decided: Vec<Option<bool>> = vec![None; self.count];
        for (incoming, from) in self.function.inst(phi).args.iter().zip(&blocks) {
            let v = self.values(*incoming)?;
            let takes = self.edge_may_take(*from, to, 0);
            for t in takes.iter() {
                let (x, y) = if phi_first {
                    (v[t], other[t])
                } else {
                    (other[t], v[t])
                };
                let result = compare(*pred, x, y, width);
                match decided[t] {
                    Some(d) if d != result => return None,
                    _ => decided[t] = Some(result),
                }
            }
        }
        // A thread no edge admits never reaches the phi: any answer will do.
        Some(
            decided
                .iter()
                .map(|d| u64::from(d.unwrap_or(false)))
                .collect(),
        )
    }

    /// The thread-only conditions of the branches that end `blocks` and their predecessors (at
    /// most 8).
    fn nearby_conditions(&self, blocks: &[BlockId]) -> Vec<Val> {
        let mut conditions = Vec::new();
        let preds = blocks
            .iter()
            .flat_map(|b| self.function.blocks[*b].preds.iter());
        for block in blocks.iter().chain(preds) {
            let Some(term) = self.function.terminator(*block) else {
                continue;
            };
            let term = self.function.inst(term);
            if matches!(term.op, Op::CondBr)
                && !conditions.contains(&term.args[0])
                && self.is_evaluable(term.args[0])
            {
                conditions.push(term.args[0]);
            }
            if conditions.len() >= 8 {
                break;
            }
        }
        conditions
    }

    /// Whether two thread-only values are equal in every thread (two reads of `tid.x` that GVN
    /// merges with a phi).
    fn same_in_every_thread(&self, a: Val, b: Val) -> bool {
        match (self.values(a), self.values(b)) {
            (Some(a), Some(b)) => a == b,
            _ => false,
        }
    }

    /// Whether taking the edge from `block` to `to` implies `x == c`: `block` branches to `to` on
    /// a condition that implies it (a branch on `x == c`, on a conjunction of it, on the negation
    /// of a disjunction of `x != c`), or every edge into `block` implies it (SimplifyCFG sinks the
    /// leader's stores of two arms into one block that both arms' `tid == 0` edges reach).
    fn edge_implies_equal(&self, block: BlockId, to: BlockId, x: Val, c: i128) -> bool {
        let mut budget = 256;
        self.edge_implies_equal_within(block, to, x, c, &mut budget)
    }

    /// [`Self::edge_implies_equal`], visiting at most `budget` edges (paths fan out at every
    /// merge; a loop runs out of budget, which only answers "not known").
    fn edge_implies_equal_within(
        &self,
        block: BlockId,
        to: BlockId,
        x: Val,
        c: i128,
        budget: &mut usize,
    ) -> bool {
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        let succs = &self.function.blocks[block].succs;
        if let Some(term) = self.function.terminator(block) {
            let term = self.function.inst(term);
            if matches!(term.op, Op::CondBr) && succs.len() == 2 && succs[0] != succs[1] {
                let taken = succs[0] == to;
                if self.condition_implies_equal(term.args[0], taken, x, c, 0) {
                    return true;
                }
            }
        }
        let preds = &self.function.blocks[block].preds;
        !preds.is_empty()
            && preds
                .iter()
                .all(|p| self.edge_implies_equal_within(*p, block, x, c, budget))
    }

    /// Whether `condition` being `taken` implies `x == c`.
    fn condition_implies_equal(
        &self,
        condition: Val,
        taken: bool,
        x: Val,
        c: i128,
        depth: usize,
    ) -> bool {
        let Val::Inst(id) = condition else {
            return false;
        };
        if depth > 8 {
            return false;
        }
        // Decided thread by thread when both are thread-only values: GVN merges `tid == 0` with
        // the `false` and `true` of the two edges of a branch on another read's `tid == 0`.
        if let (Some(conditions), Some(xs), Some(bits)) =
            (self.values(condition), self.values(x), self.bits(x))
        {
            let c = (c as u64) & mask(bits);
            return conditions
                .iter()
                .zip(xs.iter())
                .all(|(holds, value)| (*holds != 0) != taken || *value == c);
        }
        let inst = self.function.inst(id);
        let constant = |v: &Val| matches!(v, Val::Int { value, .. } if *value == c);
        match &inst.op {
            Op::ICmp(pred) if inst.args.len() == 2 => {
                let equal_test = matches!((pred, taken), (Pred::Eq, true) | (Pred::Ne, false));
                // `(x | y) == 0` (InstCombine's `x == 0 && y == 0`) implies `x == 0`.
                let zero_of_or = c == 0
                    && matches!(inst.args[1], Val::Int { value: 0, .. })
                    && self.function.or_leaves(inst.args[0]).contains(&x);
                equal_test
                    && ((inst.args[0] == x && constant(&inst.args[1]))
                        || (inst.args[1] == x && constant(&inst.args[0]))
                        || zero_of_or)
            }
            // `a and b` true: both true; `a or b` false: both false.
            Op::Bin(BinOp::And) if taken => inst
                .args
                .iter()
                .any(|a| self.condition_implies_equal(*a, true, x, c, depth + 1)),
            Op::Bin(BinOp::Or { .. }) if !taken => inst
                .args
                .iter()
                .any(|a| self.condition_implies_equal(*a, false, x, c, depth + 1)),
            // `select a, b, false` is LLVM's `a && b`; `select a, true, b` its `a || b`.
            Op::Select if taken && matches!(inst.args[2], Val::Int { value: 0, .. }) => inst.args
                [..2]
                .iter()
                .any(|a| self.condition_implies_equal(*a, true, x, c, depth + 1)),
            Op::Select
                if !taken && matches!(inst.args[1], Val::Int { value, .. } if value != 0) =>
            {
                [inst.args[0], inst.args[2]]
                    .iter()
                    .any(|a| self.condition_implies_equal(*a, false, x, c, depth + 1))
            }
            _ => false,
        }
    }

    /// The value for every thread (by linear id), zero-extended from its width.
    pub fn values(&self, value: Val) -> Option<Rc<Vec<u64>>> {
        if !self.is_evaluable(value) {
            return None;
        }
        match value {
            Val::Int { value, bits } => Some(self.constant_values(value as u64 & mask(bits), bits)),
            Val::Inst(id) => self.inst_values(id),
            _ => None,
        }
    }

    fn constant_values(&self, value: u64, bits: u32) -> Rc<Vec<u64>> {
        let count = self.count;
        let mut constants = self.constants.borrow_mut();
        let values = constants.entry((value, bits));
        values
            .or_insert_with(|| Rc::new(vec![value; count]))
            .clone()
    }

    fn operand(&self, value: Val) -> Option<Rc<Vec<u64>>> {
        self.values(value)
    }

    fn inst_values(&self, id: InstId) -> Option<Rc<Vec<u64>>> {
        if let Some(v) = self.cache.borrow().get(&id) {
            return Some(v.clone());
        }
        let inst = self.function.inst(id);
        let bits = self.function.bits(Val::Inst(id))?;
        let m = mask(bits);
        let n = self.count;
        let result: Vec<u64> = match &inst.op {
            Op::Phi(_) => return self.values(self.phi_alias(id)?),
            Op::Bin(op) => {
                let a = self.operand(*inst.args.first()?)?;
                let b = self.operand(*inst.args.get(1)?)?;
                (0..n).map(|t| binary(*op, a[t], b[t], bits) & m).collect()
            }
            Op::ICmp(pred) => {
                let a = self.operand(*inst.args.first()?);
                let b = self.operand(*inst.args.get(1)?);
                let w = self.function.bits(*inst.args.first()?)?;
                match (a, b) {
                    (Some(a), Some(b)) => (0..n)
                        .map(|t| u64::from(compare(*pred, a[t], b[t], w)))
                        .collect(),
                    _ => self.compare_edge_by_edge(id)?,
                }
            }
            Op::Select => {
                let c = self.operand(*inst.args.first()?)?;
                let a = self.operand(*inst.args.get(1)?)?;
                let b = self.operand(*inst.args.get(2)?)?;
                (0..n)
                    .map(|t| if c[t] & 1 == 1 { a[t] } else { b[t] })
                    .collect()
            }
            Op::Cast(cast) => {
                let a = self.operand(*inst.args.first()?)?;
                let from = self.function.bits(*inst.args.first()?)?;
                (0..n)
                    .map(|t| match cast {
                        CastOp::SExt => (signed(a[t], from) as u64) & m,
                        _ => a[t] & m,
                    })
                    .collect()
            }
            Op::Call(callee) => match self.sreg(id) {
                Some(Sreg::Tid(axis)) => (0..n)
                    .map(|t| u64::from(self.geometry.thread(t).index[axis]))
                    .collect(),
                Some(Sreg::LaneId) => (0..n).map(|t| (t as u64) % 32).collect(),
                Some(Sreg::WarpSize) => vec![32; n],
                Some(Sreg::Ntid(axis)) => {
                    let d = self.geometry.dims()?;
                    vec![u64::from(d[axis]); n]
                }
                Some(Sreg::LaneMask(kind)) => (0..n)
                    .map(|t| {
                        let lane = (t % 32) as u32;
                        let below = (1u64 << lane) - 1;
                        let bit = 1u64 << lane;
                        (match kind {
                            LaneMask::Eq => bit,
                            LaneMask::Lt => below,
                            LaneMask::Le => below | bit,
                            LaneMask::Gt => !(below | bit),
                            LaneMask::Ge => !below,
                        }) & 0xffff_ffff
                    })
                    .collect(),
                Some(_) => return None,
                None => {
                    let name = self.module.callee_name(*callee)?;
                    let a = self.operand(*inst.args.first()?)?;
                    let b = match inst.args.get(1) {
                        Some(v) => self.operand(*v)?,
                        None => Rc::new(vec![0; n]),
                    };
                    (0..n)
                        .map(|t| intrinsic(name, a[t], b[t], bits).unwrap_or(0) & m)
                        .collect()
                }
            },
            _ => return None,
        };
        let result = Rc::new(result);
        self.cache.borrow_mut().insert(id, result.clone());
        Some(result)
    }

    /// For each block, the threads that can execute it: every thread enters the kernel, and a
    /// branch whose condition is thread-evaluable sends each thread only the way it goes.
    /// Other branches send every thread both ways (an over-approximation).
    pub fn reach(&self, cfg: &Cfg) -> Vec<ThreadSet> {
        let blocks = self.function.blocks.len();
        let mut reach = vec![ThreadSet::empty(self.count); blocks];
        if blocks == 0 || self.count == 0 {
            return reach;
        }
        reach[0] = ThreadSet::all(self.count);
        // Edge masks, computed once per block.
        let masks: Vec<Vec<(BlockId, Option<ThreadSet>)>> =
            (0..blocks).map(|b| self.edge_masks(b, cfg)).collect();
        let mut changed = true;
        while changed {
            changed = false;
            for &b in &cfg.rpo {
                let from = reach[b].clone();
                if from.is_empty() {
                    continue;
                }
                for (succ, mask) in &masks[b] {
                    changed |= reach[*succ].add(&from, mask.as_ref());
                }
            }
        }
        reach
    }

    /// For a loop header's test `icmp phi, limit` with a thread-evaluable limit and a
    /// thread-evaluable start value of the phi: the outcome of the first test, per thread.
    fn entry_test(
        &self,
        block: BlockId,
        condition: Val,
        cfg: &Cfg,
    ) -> Option<(ThreadSet, ThreadSet)> {
        let Val::Inst(c) = condition else { return None };
        let test = self.function.inst(c);
        let Op::ICmp(pred) = test.op else { return None };
        let (a, b) = (test.args[0], test.args[1]);
        // Which operand is a phi of this block, and its value on entry.
        let start_of = |v: Val| -> Option<Val> {
            let Val::Inst(p) = v else { return None };
            let phi = self.function.inst(p);
            let Op::Phi(blocks) = &phi.op else {
                return None;
            };
            if phi.block != Some(block) {
                return None;
            }
            let mut entry = None;
            for (value, from) in phi.args.iter().zip(blocks) {
                let back = *from < cfg.len() && cfg.reachable[*from] && cfg.dominates(block, *from);
                if !back {
                    match entry {
                        None => entry = Some(*value),
                        Some(e) if e == *value => {}
                        Some(_) => return None,
                    }
                }
            }
            entry
        };
        let (lhs, rhs) = match (start_of(a), start_of(b)) {
            (Some(start), None) => (self.values(start)?, self.values(b)?),
            (None, Some(start)) => (self.values(a)?, self.values(start)?),
            _ => return None,
        };
        let bits = self.function.bits(a)?;
        let n = self.count;
        let mut yes = ThreadSet::empty(n);
        let mut no = ThreadSet::empty(n);
        for t in 0..n {
            if compare(pred, lhs[t], rhs[t], bits) {
                yes.insert(t);
            } else {
                no.insert(t);
            }
        }
        Some((yes, no))
    }

    /// The threads for which a boolean may be true, and those for which it may be false.
    /// Thread-only conditions are exact; `and`, `or`, `not` and `select` combine what is known
    /// of their operands, so that `(tid & 1) == 0 && tid + 1 < n` still rules out odd threads.
    fn condition(&self, value: Val, depth: usize) -> (ThreadSet, ThreadSet) {
        let n = self.count;
        let unknown = || (ThreadSet::all(n), ThreadSet::all(n));
        if let Some(values) = self.values(value) {
            let mut yes = ThreadSet::empty(n);
            let mut no = ThreadSet::empty(n);
            for (t, v) in values.iter().enumerate() {
                if v & 1 == 1 {
                    yes.insert(t);
                } else {
                    no.insert(t);
                }
            }
            return (yes, no);
        }
        let Val::Inst(id) = value else {
            return unknown();
        };
        if depth > 32 || self.function.bits(value) != Some(1) {
            return unknown();
        }
        let inst = self.function.inst(id);
        match inst.op {
            Op::Bin(op @ (BinOp::And | BinOp::Or { .. } | BinOp::Xor)) => {
                let (at, af) = self.condition(inst.args[0], depth + 1);
                let (bt, bf) = self.condition(inst.args[1], depth + 1);
                match op {
                    BinOp::And => (at.intersection(&bt), af.union(&bf)),
                    BinOp::Or { .. } => (at.union(&bt), af.intersection(&bf)),
                    _ => (
                        at.intersection(&bf).union(&af.intersection(&bt)),
                        at.intersection(&bt).union(&af.intersection(&bf)),
                    ),
                }
            }
            Op::Select => {
                let (ct, cf) = self.condition(inst.args[0], depth + 1);
                let (at, af) = self.condition(inst.args[1], depth + 1);
                let (bt, bf) = self.condition(inst.args[2], depth + 1);
                (
                    ct.intersection(&at).union(&cf.intersection(&bt)),
                    ct.intersection(&af).union(&cf.intersection(&bf)),
                )
            }
            Op::Cast(CastOp::Freeze) => self.condition(inst.args[0], depth + 1),
            // `(a | b) == 0` (InstCombine's `a == 0 && b == 0`) holds only in the threads where
            // each thread-only leaf is 0; `!= 0` fails only there.
            Op::ICmp(pred @ (Pred::Eq | Pred::Ne))
                if matches!(inst.args[1], Val::Int { value: 0, .. }) =>
            {
                let mut zero = ThreadSet::all(n);
                for leaf in self.function.or_leaves(inst.args[0]) {
                    if let Some(values) = self.values(leaf) {
                        let mut leaf_zero = ThreadSet::empty(n);
                        for (t, v) in values.iter().enumerate() {
                            if *v == 0 {
                                leaf_zero.insert(t);
                            }
                        }
                        zero = zero.intersection(&leaf_zero);
                    }
                }
                match pred {
                    Pred::Eq => (zero, ThreadSet::all(n)),
                    _ => (ThreadSet::all(n), zero),
                }
            }
            // A phi is the value of the edge a thread came by: true for a thread that may take
            // an edge whose value may be true (GVN's `[true, leader or inside], [false, the
            // leader's arm]` stands for `tid != 0 or inside`). Two levels at most: each level
            // looks at every incoming edge and the branches above it.
            Op::Phi(ref blocks) if depth <= PHI_DEPTH => {
                let Some(to) = inst.block else {
                    return unknown();
                };
                let mut yes = ThreadSet::empty(n);
                let mut no = ThreadSet::empty(n);
                for (v, from) in inst.args.iter().zip(blocks) {
                    let takes = self.edge_may_take(*from, to, depth + 1);
                    let (vt, vf) = self.condition(*v, depth + 1);
                    yes = yes.union(&vt.intersection(&takes));
                    no = no.union(&vf.intersection(&takes));
                }
                (yes, no)
            }
            _ => unknown(),
        }
    }

    /// The threads that may take the edge from `from` to `to`, as far as the branch that ends
    /// `from`, and those of the few blocks above it that have a single predecessor, tell.
    fn edge_may_take(&self, from: BlockId, to: BlockId, depth: usize) -> ThreadSet {
        let mut takes = ThreadSet::all(self.count);
        let (mut block, mut next) = (from, to);
        for _ in 0..4 {
            let succs = &self.function.blocks[block].succs;
            if let Some(term) = self.function.terminator(block) {
                let term = self.function.inst(term);
                if matches!(term.op, Op::CondBr) && succs.len() == 2 && succs[0] != succs[1] {
                    let (may_be_true, may_be_false) = self.condition(term.args[0], depth);
                    let taken = if succs[0] == next {
                        may_be_true
                    } else {
                        may_be_false
                    };
                    takes = takes.intersection(&taken);
                }
            }
            match self.function.blocks[block].preds.as_slice() {
                [pred] => (block, next) = (*pred, block),
                _ => break,
            }
        }
        takes
    }

    /// The successors of `block` with the threads that take each edge (`None`: all).
    fn edge_masks(&self, block: BlockId, cfg: &Cfg) -> Vec<(BlockId, Option<ThreadSet>)> {
        let scc = cfg.components();
        let succs = &cfg.succs[block];
        let Some(term) = self.function.terminator(block) else {
            return Vec::new();
        };
        let inst = self.function.inst(term);
        let n = self.count;
        // A branch on a constant keeps only the successor it takes (`ir/read.rs`).
        if inst.op == Op::CondBr && succs.len() == 2 {
            let (mut may_be_true, mut may_be_false) = inst
                .args
                .first()
                .map(|c| self.condition(*c, 0))
                .unwrap_or_else(|| (ThreadSet::all(n), ThreadSet::all(n)));
            // A loop's entry test: a thread whose first test sends it out never comes back.
            if let (Some(condition), [yes, no]) = (inst.args.first(), succs.as_slice()) {
                if let Some((first_true, first_false)) = self.entry_test(block, *condition, cfg) {
                    // In the header's own loop, not merely in its strongly connected component:
                    // the exit of a loop nested in another leads back to it through the outer
                    // loop, and would count as staying.
                    let body = cfg.natural_loop(self.function, block);
                    let stays =
                        |s: BlockId| scc.cyclic[block] && scc.id[s] == scc.id[block] && body[s];
                    if stays(*yes) && !stays(*no) {
                        may_be_true = may_be_true.intersection(&first_true);
                    } else if stays(*no) && !stays(*yes) {
                        may_be_false = may_be_false.intersection(&first_false);
                    }
                }
            }
            let mut edges = Vec::new();
            if let Some(s) = succs.first() {
                edges.push((*s, Some(may_be_true)));
            }
            if let Some(s) = succs.get(1) {
                edges.push((*s, Some(may_be_false)));
            }
            return edges;
        }
        let condition = match inst.op {
            Op::Switch => inst.args.first().and_then(|c| self.values(*c)),
            _ => None,
        };
        let Some(values) = condition else {
            return succs.iter().map(|s| (*s, None)).collect();
        };
        // Switch: successors [default, case 0, ...]; case values are args[1..].
        let bits = self.function.bits(inst.args[0]).unwrap_or(64);
        let cases: Vec<u64> = inst.args[1..]
            .iter()
            .map(|v| match v {
                Val::Int { value, .. } => (*value as u64) & mask(bits),
                _ => u64::MAX,
            })
            .collect();
        let mut sets = vec![ThreadSet::empty(n); succs.len()];
        for (t, value) in values.iter().enumerate() {
            let edge = cases
                .iter()
                .position(|c| c == value)
                .map(|i| i + 1)
                .unwrap_or(0);
            if let Some(set) = sets.get_mut(edge) {
                set.insert(t);
            }
        }
        succs
            .iter()
            .copied()
            .zip(sets.into_iter().map(Some))
            .collect()
    }
}

fn is_evaluable_intrinsic(name: Option<&str>) -> bool {
    let Some(name) = name else { return false };
    [
        "llvm.smin.",
        "llvm.smax.",
        "llvm.umin.",
        "llvm.umax.",
        "llvm.abs.",
    ]
    .iter()
    .any(|p| name.starts_with(p))
}

fn intrinsic(name: &str, a: u64, b: u64, bits: u32) -> Option<u64> {
    let (sa, sb) = (signed(a, bits), signed(b, bits));
    Some(if name.starts_with("llvm.smin.") {
        sa.min(sb) as u64
    } else if name.starts_with("llvm.smax.") {
        sa.max(sb) as u64
    } else if name.starts_with("llvm.umin.") {
        a.min(b)
    } else if name.starts_with("llvm.umax.") {
        a.max(b)
    } else if name.starts_with("llvm.abs.") {
        sa.wrapping_abs() as u64
    } else {
        return None;
    })
}

/// `a op b` on `bits`-wide integers (the caller masks the result). Division by zero and
/// over-wide shifts give poison in LLVM; any value is then as good as another, 0 here.
pub fn binary(op: BinOp, a: u64, b: u64, bits: u32) -> u64 {
    let (sa, sb) = (signed(a, bits), signed(b, bits));
    match op {
        BinOp::Add => a.wrapping_add(b),
        BinOp::Sub => a.wrapping_sub(b),
        BinOp::Mul => a.wrapping_mul(b),
        BinOp::UDiv => a.checked_div(b).unwrap_or(0),
        BinOp::SDiv => sa.checked_div(sb).unwrap_or(0) as u64,
        BinOp::URem => a.checked_rem(b).unwrap_or(0),
        BinOp::SRem => sa.checked_rem(sb).unwrap_or(0) as u64,
        BinOp::Shl if b < u64::from(bits) => a << b,
        BinOp::LShr if b < u64::from(bits) => a >> b,
        BinOp::AShr if b < u64::from(bits) => (sa >> b) as u64,
        BinOp::Shl | BinOp::LShr | BinOp::AShr => 0,
        BinOp::And => a & b,
        BinOp::Or { .. } => a | b,
        BinOp::Xor => a ^ b,
    }
}

pub fn compare(pred: Pred, a: u64, b: u64, bits: u32) -> bool {
    let (sa, sb) = (signed(a, bits), signed(b, bits));
    match pred {
        Pred::Eq => a == b,
        Pred::Ne => a != b,
        Pred::Ugt => a > b,
        Pred::Uge => a >= b,
        Pred::Ult => a < b,
        Pred::Ule => a <= b,
        Pred::Sgt => sa > sb,
        Pred::Sge => sa >= sb,
        Pred::Slt => sa < sb,
        Pred::Sle => sa <= sb,
    }
}

/// Whether the function reads a y or z thread coordinate or block dimension.
pub fn uses_more_than_x(module: &Module, function: &Function) -> bool {
    function.insts.iter().any(|inst| match inst.op {
        Op::Call(Callee::Function(g)) => matches!(
            module.globals.get(g).map(|g| nvvm::classify(&g.name)),
            Some(Intrinsic::Sreg(Sreg::Tid(1 | 2) | Sreg::Ntid(1 | 2)))
        ),
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_semantics_wrap_like_llvm() {
        // i8: 127 + 1 wraps to -128; arithmetic shift keeps the sign; poison becomes 0.
        assert_eq!(binary(BinOp::Add, 127, 1, 8) & 0xff, 0x80);
        assert_eq!(signed(0x80, 8), -128);
        assert_eq!(binary(BinOp::AShr, 0xf0, 2, 8) & 0xff, 0xfc);
        assert_eq!(binary(BinOp::UDiv, 7, 0, 32), 0);
        assert_eq!(binary(BinOp::Shl, 1, 40, 32), 0);
        assert!(compare(Pred::Slt, 0xffff_ffff, 0, 32));
        assert!(!compare(Pred::Ult, 0xffff_ffff, 0, 32));
    }

    #[test]
    fn threads_are_numbered_x_fastest() {
        let g = Geometry::Known([16, 8, 2]);
        assert_eq!(g.thread_count(), 256);
        assert_eq!(g.thread(17).index, [1, 1, 0]);
        assert_eq!(g.thread(255).index, [15, 7, 1]);
        assert_eq!(g.thread(17).to_string(), "thread (1, 1, 0)");
        assert_eq!(Geometry::UpTo(64).thread(5).to_string(), "thread 5");
        assert_eq!(Geometry::warp(63), 1);
    }
}
