//! `kir-barriers`: where a kernel needs barriers and why, decided on the kernel IR
//! (`docs/kernel-ir.md`, step 3); code generation emits what it decides (`codegen/sync.rs`) and
//! places no barrier of its own. The placement is an analysis apart from the rewrite (Triton's
//! Membar), on the program code generation lowers (each use of a recomputed vector a copy of its
//! initializer, [`run`]): the accesses made since the last barrier are pending; before a statement's
//! accesses, the first that conflicts with a pending one ([`conflicts`]: the same element from
//! two threads, at least one writing) gets a barrier in front of it, and the pending set empties.
//! In front of a loop, a barrier orders what is pending with any access of an array the body
//! names; at the end of its body, one orders the iteration's last accesses with the next
//! iteration's first ones (symbols that change per iteration differ across that edge).
//!
//! Covered, for now: scalar variables and assignments, element stores `a[i] <- v` (thread 0
//! writes) and the element reads `a[i]` in their values and subscripts (every thread reads),
//! each announced on its own in code generation's order (operands left to right, a contracted
//! `c + a * b` under `--fast-math` as `a`, `b`, `c`; the right side of `and`/`or`, which may not
//! run, joined with the path that skips it, as an `if` without `else`); vector assignments
//! whose accesses [`Finder`] computes (`kir-accesses`), after the steps of preparing the target's
//! subscripts and the value (`codegen::Body::destination`, `Body::scatter_destination`,
//! `Body::prepare`), scatters and tile stores included (any thread writes any element; a
//! scatter's vector subscripts are read element by element after the value's reads): each
//! uniform part of the value (a subscript, a broadcast operand, a collective's bound argument, a
//! vector literal's element, a `Range`) computed once, before the sweep, as a scalar expression,
//! so its element reads are every thread's, announced on their own where they stand, reductions
//! inside them included; and sequential `for` loops, `while` loops and `if`s of those (both
//! branches from the state before the `if`, joined after it). Distributed `for` loops
//! (`kir-distribute`'s [`super::Stmt::DistributedFor`], `codegen::Body::distributed_for`): the
//! range's reads, then every access of the body announced together in front of the loop, as the
//! statement has them; the body is each thread's own code, with no barrier. Reductions `f /. v` (in a scalar
//! expression where code generation evaluates it, or in a vector statement while its value is
//! prepared, before its own accesses) and scans `f /: v`, `f :/ v` in a vector assignment or a
//! reduction's operand, as code generation expands them (`codegen/reduce.rs`,
//! `codegen/scan.rs`): the bound arguments and the operand's uniform parts (as above), then the
//! operand's element reads; with more than one warp, the write of the collective's partials
//! (`reduce.partials`, `scan.partials`: any thread's), the barrier inside it where the warps'
//! partials meet (R0803: a reduction's orders everything before it; a scan's, in every copy of
//! its statement's sweep, and a reduction's by tiles, in every copy of its own, order nothing
//! else) and the partials' read after it; a loop over tiles' barrier after each tile. Array and
//! vector variables (`codegen::Body::init_registers`, `init_array`): a register vector's
//! initializer makes its value's accesses only (each thread's own slots, no memory); a `shared`
//! array's or a block vector's in shared memory, its value's reads and the write of every element
//! by its owner, announced together; a recomputed vector's declaration nothing (code generation
//! removes it, and each use prepares and reads what its initializer does). Each array
//! variable's name once in a kernel (code generation tells two declarations of one name apart,
//! this pass by name). Calls of `func`s (`codegen::Body::call`), which touch no memory of their
//! own: in a scalar expression, the arguments in order, an array passed whole read by any thread
//! where it is passed; in a vector statement, applied element by element to scalar and vector
//! arguments, an array passed whole read by any thread where it is passed, and mapped
//! (`f /~ v`, its bound scalars computed once). Record variables and their fields (registers).
//! Indexed computed vectors (`kir-indexed-copies`, `codegen::Body::copy_indexed_vector`): where
//! the statement's preparation reaches one, its store into a `shared` copy of its own, as a
//! statement (its value prepared, its reads and the write of every element by its owner, its
//! scans), then the index reads the copy (`indexed`); the scans of a copied vector write and
//! read their partials in the statement's sweep too, but meet in the copy's. A vector read or
//! store at an offset without a polynomial: by the owner of each element at an offset of its
//! own, which equals no other (a fresh symbol `offset`). A row `a[i]` of a
//! two-dimensional array: its subscript computed where the array is found, before the
//! element's. Stores into an element's field `a[i].f <- v` (thread 0 writes the element).
//! Atomics (`codegen/atomic.rs`, [`atomics`]). In front of a loop, the arrays its body names
//! (each recomputed vector its initializer). Scans inside a scan's operand, a left and a right
//! scan in one statement (each computed ahead in a sweep of its own, an indexed vector's not
//! again) and scans in a scatter's subscripts, a buffered one's included ([`scans`]); arrays bound
//! whole to a collective's `func` (read by any thread where the collective is prepared; a
//! map's, read where its body reads them, where that can be said: [`super::func_reads`]);
//! grid-wide statements, their bound arguments and indexed vectors included ([`grid`]). Array
//! variables that reuse a name: each declaration an array of its own (`Walk::array_key`), as
//! code generation makes them. Each use of a recomputed vector: its collectives and indexed
//! copies its own (keyed by expression id).
//!
//! What the pass does not follow leaves the kernel not covered, naming the first such
//! statement; code generation then refuses the kernel (an internal error). No program of the
//! repository's or the fuzzer's reaches one: the reasons left are shapes the checker rejects
//! as far as known (a `func` or a collective given a computed vector whole, a grid-wide scan
//! into a scalar or reduce in a vector statement, a `shared` scalar), or earlier passes'
//! decisions missing. The barriers the rule asks for after each statement that
//! writes memory are candidates ([`super::removed_barriers`]): made where code generation
//! writes, resolved at the next barrier on their path or at the kernel's end; those removed
//! (R0802) are printed with their reason, and code generation gives their remarks after the
//! barrier that removed them ([`Emission::removed_at`]).

mod atomics;
mod grid;
mod scans;

use super::access::{conflicts, Access, AccessKind, Who};
use super::access_log::AccessLog;
use super::accesses::{array_dims, indexed_copy_key, Finder, Read};
use super::affine::{Poly, Sym};
use super::consumers::{self, is_vector, Dest, Name, Visitor, Walk};
use super::removed_barriers::{Candidates, PathCandidates, Removed};
use super::{
    Barrier, Barriers, Combine, Consumer, Emission, Module, Point, StoreOrder, Sweep, SweepPlan,
};
use crate::check::types::{Scalar, Ty};
use crate::check::{Callee, Checked};
use crate::syntax::ast::{
    BinaryOp, Block, CollectiveOp, Expr, ExprId, ExprKind, FuncRef, Stmt as Ast,
};
use crate::syntax::span::Span;
use crate::syntax::visit::{each_child, scans_in};
use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet};

pub fn run(module: &mut Module, checked: &Checked) {
    // Code generation lowers the program with each use of a recomputed vector replaced by a
    // copy of its initializer under fresh expression ids (`kir-recomputed-vectors`): a copy's
    // collectives and indexed vectors are its own. Barriers are placed on that same program,
    // so that each use's collectives are told apart as code generation tells them apart. Where
    // the substitution fails, code generation reports it (an internal error) before placing any.
    let substituted = super::substitute_recomputed_vectors(checked, module);
    let checked = match &substituted {
        Ok(Some(substituted)) => substituted,
        Ok(None) | Err(_) => checked,
    };
    for kernel in &mut module.kernels {
        let mut placer = Placer {
            finder: Finder::new(kernel, checked),
            fast_math: module.fast_math,
            block_size: kernel.block_size.max(1),
            orders: kernel.store_orders.clone().unwrap_or_default(),
            sweeps: kernel.sweeps.clone().unwrap_or_default(),
            uncovered: None,
            ifs: Vec::new(),
            pending: AccessLog::default(),
            frames: Vec::new(),
            next: 0,
            placed: Vec::new(),
            declared: BTreeMap::new(),
            distributed: 0,
            unknown_offsets: Cell::new(u32::MAX),
            copied: BTreeSet::new(),
            grid_total: None,
            grid_window: None,
            in_grid_statement: false,
            candidates: Candidates::default(),
            path: PathCandidates::default(),
            removed: Vec::new(),
            distributed_writes: None,
            emission: Emission::default(),
            barriers_placed: 0,
        };
        consumers::walk(kernel, checked, &mut placer);
        let finished = placer.candidates.finish();
        placer.removed_at_this_barrier(finished);
        kernel.barriers = Some(match placer.uncovered {
            Some((span, what)) => Barriers::NotCovered { span, what },
            None => Barriers::Placed(placer.placed, placer.removed, placer.emission),
        });
    }
}

/// An open loop: what its body accessed before its first barrier, and the state at its head.
struct Frame {
    /// Accesses made since the loop head before any barrier on the path.
    exposed: AccessLog,
    /// True once every path from the loop head passed a barrier.
    barriered: bool,
    /// Symbols of this version or newer change from one iteration to the next.
    watermark: u32,
    /// The pending accesses at the loop head (the body may run zero times).
    head: AccessLog,
    /// The enclosing loops' `barriered` at the loop head.
    head_barriered: Vec<bool>,
    /// The candidates pending at the loop head.
    head_candidates: PathCandidates,
    span: Span,
    /// Where the barrier at the end of the body stands: the `for` statement, the `while`
    /// loop's condition.
    end_at: Span,
}

/// The state of the placement at a point: what is pending, and each open loop's exposed
/// accesses and whether it passed a barrier.
#[derive(Clone)]
struct State {
    pending: AccessLog,
    frames: Vec<(AccessLog, bool)>,
    path: PathCandidates,
}

/// One step of a statement's accesses, in code generation's order.
#[derive(Clone)]
enum Step {
    /// Accesses announced together (`Body::touch`): a barrier in front of the first that
    /// conflicts with a pending one.
    Touch(Vec<Access>),
    /// A barrier inside a collective (`what`: `a reduction`), between its partials' write and
    /// read (`accesses`), at the read; `clears`: it orders every access made before it.
    Collective {
        what: &'static str,
        clears: bool,
        accesses: Box<(Access, Access)>,
    },
    /// Accesses made without a barrier in front of them: a collective's
    /// partials, read after its own barrier.
    Record(Vec<Access>),
    /// Steps that may not run (the right side of `and`/`or`, `codegen::Body::short_circuit`):
    /// after them, both paths joined, as after an `if` without `else`.
    Skippable(Vec<Step>),
    /// The barrier the rule asks for after the statement at `after`, which wrote `arrays`
    /// (each array's key and name; `atomic`: an atomic statement), left for a later barrier
    /// to resolve.
    Candidate {
        after: Span,
        arrays: Vec<(String, String)>,
        atomic: bool,
    },
    /// The store of the indexed computed vector at `base` into its `shared` copy (`steps`),
    /// made the first time code generation reaches it (`Body::copy_indexed_vector`).
    Copy { base: ExprId, steps: Vec<Step> },
}

struct Placer {
    finder: Finder,
    /// Code generation contracts `c + a * b` (`Module::fast_math`).
    fast_math: bool,
    /// For each open `if`: the state before it, and after its then branch once it ended.
    ifs: Vec<(State, Option<State>)>,
    block_size: u32,
    orders: BTreeMap<Span, StoreOrder>,
    sweeps: BTreeMap<Consumer, SweepPlan>,
    /// The first statement the pass does not cover, and what it is.
    uncovered: Option<(Span, &'static str)>,
    /// The accesses since the last barrier, each with its identity, in recording order.
    pending: AccessLog,
    frames: Vec<Frame>,
    next: u64,
    placed: Vec<Barrier>,
    /// The array and vector variables declared so far, by the span of their name, with the key
    /// of each (`Walk::next_array_key`: code generation tells two declarations of one name
    /// apart).
    declared: BTreeMap<Span, String>,
    /// Inside a distributed loop's body: how many loops deep (the distributed one counts).
    /// Code generation lowers the body as each thread's own code, which places no barrier and
    /// announces nothing: the loop's accesses were announced together in front of it.
    distributed: usize,
    /// The version of the next symbol that stands for an offset without a polynomial, counted
    /// down from the top: newer than every loop's watermark (a unique symbol never equals
    /// another; its name, `offset`, is what the remarks show).
    unknown_offsets: Cell<u32>,
    /// The indexed computed vectors copied so far: code generation copies each expression once
    /// (`Body::copy_indexed_vector`), each use of a recomputed vector's its own.
    copied: BTreeSet<ExprId>,
    /// While a grid-wide reduce's statement is made: its collective, a value by then
    /// (`codegen::Body::grid_value`).
    grid_total: Option<ExprId>,
    /// While a grid-wide scan's statement is made over its chunk: the `grid(v, scratch)` call,
    /// whose `v` was prepared for the aggregate already, and the scan, whose partials are the
    /// aggregate's (`codegen::Body::scratch_for` keys them by collective).
    grid_window: Option<(ExprId, ExprId)>,
    /// While a grid-wide statement is made: its chunk's element `k` is not the block's `k`, so
    /// a map's bound array is read by any thread (`func_reads`).
    in_grid_statement: bool,
    /// The barriers the rule asks for after each statement that writes memory, and those
    /// pending on the current path (R0802: removed where no later access needs them).
    candidates: Candidates,
    path: PathCandidates,
    removed: Vec<Removed>,
    /// Inside a distributed loop: the loop and the arrays its body writes, whose candidate
    /// comes after the loop (`codegen::Body::distributed_for`).
    distributed_writes: Option<(Span, Vec<(String, String)>)>,
    /// The places a barrier may go so far, and which barrier removed each removed one: what
    /// code generation emits the decisions by.
    emission: Emission,
    /// How many barriers were placed so far, the collectives' included.
    barriers_placed: usize,
}

impl Placer {
    fn state(&self) -> State {
        State {
            pending: self.pending.clone(),
            frames: self
                .frames
                .iter()
                .map(|f| (f.exposed.clone(), f.barriered))
                .collect(),
            path: self.path.clone(),
        }
    }

    fn restore(&mut self, state: State) {
        self.pending = state.pending;
        self.path = state.path;
        for (frame, (exposed, barriered)) in self.frames.iter_mut().zip(state.frames) {
            frame.exposed = exposed;
            frame.barriered = barriered;
        }
    }

    /// The state where this one and `other`, from one fork point, meet: whatever either left
    /// pending, and a loop passed a barrier only if both did.
    fn join(&mut self, other: State) {
        let mut joined = self.state();
        joined.pending.union(other.pending);
        for ((exposed, barriered), (other_exposed, other_barriered)) in
            joined.frames.iter_mut().zip(other.frames)
        {
            exposed.union(other_exposed);
            *barriered &= other_barriered;
        }
        joined.path.join(other.path);
        self.restore(joined);
    }

    /// A place where a barrier may go, reached: its ordinal.
    fn point(&mut self, point: Point) -> usize {
        self.emission.points.push(point);
        self.emission.points.len() - 1
    }

    /// Barriers removed by the placement of the next barrier (or, after the last, at the
    /// kernel's end): code generation gives their remarks after that barrier's.
    fn removed_at_this_barrier(&mut self, removed: Vec<Removed>) {
        let at = self.barriers_placed;
        self.emission
            .removed_at
            .extend(std::iter::repeat_n(at, removed.len()));
        self.removed.extend(removed);
    }

    fn uncover(&mut self, span: Span, what: &'static str) {
        if self.uncovered.is_none() {
            self.uncovered = Some((span, what));
        }
    }

    /// Accesses about to be made: a barrier in front of the first that conflicts with a
    /// pending one; then they are pending. The place counts where none are announced too
    /// (code generation reaches it all the same, and the IR says there is nothing to order).
    fn touch(&mut self, accesses: Vec<Access>) {
        let point = self.point(Point::Touch);
        if accesses.is_empty() {
            return;
        }
        let block_size = self.block_size;
        let conflict = self.pending.first_pair(&accesses, |earlier, later| {
            conflicts(earlier, later, block_size, None)
        });
        match conflict {
            Some((earlier, later)) => {
                let at = later.span;
                self.barrier(earlier, later, (at, point), false);
            }
            None => self.note_unneeded(&accesses, point),
        }
        self.record(accesses);
    }

    /// Accesses made: pending, and exposed in every loop that has not passed a barrier.
    fn record(&mut self, accesses: Vec<Access>) {
        for access in accesses {
            self.candidates.record(&mut self.path, &access);
            let id = self.next;
            self.next += 1;
            for frame in self.frames.iter_mut().filter(|f| !f.barriered) {
                frame.exposed.push(id, access.clone());
            }
            self.pending.push(id, access);
        }
    }

    /// Where a statement touches what a pending access touched, at least one of them writing,
    /// but no element from two threads: no barrier, and why.
    fn note_unneeded(&mut self, accesses: &[Access], point: usize) {
        let pair = self.pending.first_pair(accesses, |earlier, later| {
            earlier.array == later.array
                && (earlier.kind != AccessKind::Read || later.kind != AccessKind::Read)
        });
        if let Some((earlier, later)) = pair {
            self.placed.push(Barrier {
                at: later.span,
                needed: false,
                loop_end: false,
                earlier,
                later,
                collective: None,
                point: Some(point),
            });
        }
    }

    /// A barrier at `at`, the place with ordinal `point`, between `earlier` and `later`.
    fn barrier(
        &mut self,
        earlier: Access,
        later: Access,
        (at, point): (Span, usize),
        loop_end: bool,
    ) {
        let removed = self.candidates.barrier(&mut self.path, &earlier, at);
        self.removed_at_this_barrier(removed);
        self.barriers_placed += 1;
        self.placed.push(Barrier {
            at,
            needed: true,
            loop_end,
            earlier,
            later,
            collective: None,
            point: Some(point),
        });
        self.pending.clear();
        for frame in &mut self.frames {
            frame.barriered = true;
        }
    }

    /// The accesses of a vector assignment to `target` (`scatter`: its positions computed
    /// element by element, [`Finder::write`]: any thread may write any element); `None` (and
    /// the statement uncovered) where the pass does not compute them.
    fn store(&mut self, walk: &Walk<'_>, span: Span, target: &Expr, value: &Expr, scatter: bool) {
        let checked = walk.checked;
        let mut reads = Vec::new();
        if is_vector(checked.ty(value.id)) {
            self.finder.reads(walk, value, &mut reads);
        }
        // A scatter's vector subscripts are read element by element in the value's sweep, after
        // the value's reads (`codegen::Body::scatter_destination`, `store_vector`); a tile
        // store's ranges only give positions.
        let mut swept = vec![value];
        if scatter && !walk.is_tile_store(target) {
            if let ExprKind::Index { indices, .. } = &target.kind {
                for index in indices.iter().filter(|i| is_vector(checked.ty(i.id))) {
                    swept.push(index);
                    self.finder.reads(walk, index, &mut reads);
                }
            }
        }
        let accesses = match reads.into_iter().map(|r| self.read_access(r)).collect() {
            Ok(accesses) => accesses,
            Err(why) => return self.uncover(span, why),
        };
        let registers = matches!(&target.kind, ExprKind::Name(n)
            if matches!(walk.lookup(&n.name), Some(Name::Registers)));
        let write = if registers {
            None
        } else {
            let Some((array, who)) = self.finder.write(walk, target, scatter) else {
                return self.uncover(span, "a store of a vector the pass does not name");
            };
            Some(Access {
                name: shown_name(&array),
                array,
                kind: AccessKind::Write,
                who: who.unwrap_or_else(|| self.unknown_offset()),
                span,
            })
        };
        // A grid-wide statement's chunk: a run-time number of positions.
        let len = match self.grid_window {
            Some(_) => None,
            None => walk.store_len(Dest::Target { target, scatter }, value),
        };
        self.sweep_store(walk, span, accesses, write, len, &swept);
    }

    /// The initializer of vector variable `name` (`codegen::Body::init_registers`,
    /// `init_array`): its value's element reads and, for one in memory, the write of every
    /// element by its owner, then the scans inside the value.
    fn init_variable(
        &mut self,
        walk: &Walk<'_>,
        span: Span,
        name: Span,
        registers: bool,
        value: &Expr,
    ) {
        let checked = walk.checked;
        let mut accesses = Vec::new();
        if is_vector(checked.ty(value.id)) {
            match self.vector_reads(walk, value) {
                Ok(reads) => accesses = reads,
                Err(why) => return self.uncover(span, why),
            }
        }
        let Some(array) = self.declared.get(&name).cloned() else {
            return self.uncover(span, "an array or vector variable");
        };
        let write = (!registers).then(|| Access {
            name: shown_name(&array),
            array,
            kind: AccessKind::Write,
            who: Who::Owner(Poly::default()),
            span,
        });
        let len = walk.store_len(Dest::Variable { name, registers }, value);
        self.sweep_store(walk, span, accesses, write, len, &[value]);
    }

    /// A statement's store ([`Self::store_steps`]), made.
    fn sweep_store(
        &mut self,
        walk: &Walk<'_>,
        span: Span,
        accesses: Vec<Access>,
        write: Option<Access>,
        len: Option<u64>,
        swept: &[&Expr],
    ) {
        let consumer = Consumer::Store(span);
        match self.store_steps(walk, consumer, accesses, write, len, swept) {
            Ok(steps) => self.steps(steps),
            Err(why) => self.uncover(span, why),
        }
    }

    /// A store's steps ([`Self::store_sweep_steps`]), then for a store into memory the barrier
    /// the rule asks for after it (`codegen::Body::store_vector`).
    fn store_steps(
        &self,
        walk: &Walk<'_>,
        consumer: Consumer,
        accesses: Vec<Access>,
        write: Option<Access>,
        len: Option<u64>,
        swept: &[&Expr],
    ) -> Result<Vec<Step>, &'static str> {
        let candidate = write.as_ref().map(|w| Step::Candidate {
            after: w.span,
            arrays: vec![(w.array.clone(), w.name.clone())],
            atomic: false,
        });
        let mut steps = self.store_sweep_steps(walk, consumer, accesses, write, len, swept)?;
        steps.extend(candidate);
        Ok(steps)
    }

    /// A store's accesses (`codegen::Body::store_vector`): the value's element `accesses`
    /// and the destination's `write` (`None`: registers) announced together, or one after the
    /// other for a buffered store; then the scans inside the vectors `swept` (the value, then a
    /// scatter's vector subscripts), over a sweep of `len` positions.
    fn store_sweep_steps(
        &self,
        walk: &Walk<'_>,
        consumer: Consumer,
        mut accesses: Vec<Access>,
        write: Option<Access>,
        len: Option<u64>,
        swept: &[&Expr],
    ) -> Result<Vec<Step>, &'static str> {
        let span = consumer.span();
        let buffered = write.is_some()
            && consumer == Consumer::Store(span)
            && matches!(self.orders.get(&span), Some(StoreOrder::Buffered { .. }));
        let mut steps = Vec::new();
        let mut write = write;
        if !buffered {
            // Announced with the reads; a buffered store's comes after its sweep.
            accesses.extend(write.take());
        }
        steps.push(Step::Touch(accesses));
        // The scans inside the value (`codegen/scan.rs`): with more than one warp, each one's
        // partials written (a previous run of the statement may still read them), its barrier
        // in every copy of the sweep's body, and its partials read after the sweep (a buffered
        // store's: in the unrolled sweep that computes its elements, `buffered_steps`).
        if buffered {
            self.buffered_steps(walk, consumer, write, len, swept, &mut steps)?;
            return Ok(steps);
        }
        let mut scans = Vec::new();
        swept.iter().for_each(|e| scans_in(e, &mut scans));
        let plan = self.sweeps.get(&consumer).copied();
        if scans.is_empty() && plan.map(|p| p.sweep) != Some(Sweep::Tiles) {
            return Ok(steps);
        }
        let Some(plan) = plan else {
            return Err("a reduction or scan");
        };
        let per_body = self.scan_steps(walk, swept, &plan, len, &mut steps)?;
        self.sweep_steps(&plan, len, span, &per_body, &mut steps);
        steps.extend(self.scan_partials_read(walk, swept));
        Ok(steps)
    }

    /// A buffered store's steps after its reads (`codegen::Body::store_buffered`): its scans'
    /// partials written, its elements computed into registers in an unrolled sweep of the
    /// buffer's slots (each scan's barrier in every copy of its body), then the write, then the
    /// partials' read.
    fn buffered_steps(
        &self,
        walk: &Walk<'_>,
        consumer: Consumer,
        write: Option<Access>,
        len: Option<u64>,
        swept: &[&Expr],
        steps: &mut Vec<Step>,
    ) -> Result<(), &'static str> {
        let write = Step::Touch(write.into_iter().collect());
        let mut scans = Vec::new();
        swept.iter().for_each(|e| scans_in(e, &mut scans));
        let scans = scans.as_slice();
        if scans.is_empty() {
            steps.push(write);
            return Ok(());
        }
        let Some(mut plan) = self.sweeps.get(&consumer).copied() else {
            return Err("a scan in a buffered store");
        };
        let Some(Some(slots)) = plan.buffer else {
            return Err("a scan in a buffered store");
        };
        plan.sweep = Sweep::Unrolled { slots };
        let per_body = self.scan_steps(walk, swept, &plan, len, steps)?;
        self.sweep_steps(&plan, len, consumer.span(), &per_body, steps);
        steps.push(write);
        steps.extend(self.scan_partials_read(walk, swept));
        Ok(())
    }

    /// The store of indexed computed vector `base` into its `shared` copy, in front of the
    /// steps that read it (`codegen::Body::copy_indexed_vector`, `init_array`): a statement of
    /// its own, its value prepared, then its element reads and the write of every element by
    /// its owner, then its scans.
    fn copy_steps(
        &self,
        walk: &Walk<'_>,
        base: &Expr,
        out: &mut Vec<Step>,
    ) -> Result<(), &'static str> {
        let mut steps = Vec::new();
        self.vector_steps(walk, base, &mut steps)?;
        let reads = self.vector_reads(walk, base)?;
        let array = indexed_copy_key(base);
        let write = Access {
            name: shown_name(&array),
            array,
            kind: AccessKind::Write,
            who: Who::Owner(Poly::default()),
            span: base.span,
        };
        let len = walk.store_len(Dest::Copy, base);
        let consumer = Consumer::Copy(base.span);
        steps.extend(self.store_steps(walk, consumer, reads, Some(write), len, &[base])?);
        out.push(Step::Copy {
            base: base.id,
            steps,
        });
        Ok(())
    }

    /// The barriers of a sweep (`codegen::Body::sweep`) over `len` positions (a compile-time
    /// length, if it has one): `per_body` in every copy of its body (one per unrolled slot with
    /// positions, one for a loop, over tiles or block-stride), and a loop over tiles' barrier
    /// after each tile, at `span`, where the tile needs one ([`tile_needs_barrier`]).
    fn sweep_steps(
        &self,
        plan: &SweepPlan,
        len: Option<u64>,
        span: Span,
        per_body: &[Step],
        out: &mut Vec<Step>,
    ) {
        let block_size = u64::from(self.block_size);
        let bodies = match plan.sweep {
            Sweep::Unrolled { slots } => match len {
                Some(n) => (0..u64::from(slots)).filter(|s| n > s * block_size).count(),
                None => slots as usize,
            },
            Sweep::Stride => 1,
            Sweep::Tiles => 1,
        };
        for _ in 0..bodies {
            out.extend(per_body.iter().cloned());
        }
        if plan.sweep == Sweep::Tiles && tile_needs_barrier(per_body) {
            let mark = |kind| Access {
                array: String::new(),
                name: String::new(),
                kind,
                who: Who::Any,
                span,
            };
            out.push(Step::Collective {
                what: TILE_BARRIER,
                clears: false,
                accesses: Box::new((mark(AccessKind::Write), mark(AccessKind::Read))),
            });
        }
    }

    /// The steps of a statement, made in order.
    fn steps(&mut self, steps: Vec<Step>) {
        for step in steps {
            match step {
                Step::Touch(accesses) => self.touch(accesses),
                Step::Record(accesses) => self.record(accesses),
                Step::Skippable(steps) => {
                    // Joined as code generation joins them: the path that skips them first.
                    let skipped = self.state();
                    self.steps(steps);
                    let taken = self.state();
                    self.restore(skipped);
                    self.join(taken);
                }
                Step::Candidate {
                    after,
                    arrays,
                    atomic,
                } => self.candidates.push(&mut self.path, after, arrays, atomic),
                Step::Copy { base, steps } => {
                    if self.copied.insert(base) {
                        self.steps(steps);
                    }
                }
                Step::Collective {
                    what,
                    clears,
                    accesses,
                } => {
                    let (write, read) = *accesses;
                    let at = read.span;
                    self.placed.push(Barrier {
                        at: read.span,
                        needed: true,
                        loop_end: false,
                        earlier: write,
                        later: read,
                        collective: Some(what),
                        point: None,
                    });
                    if clears {
                        let removed = self.candidates.collective(&mut self.path, at);
                        self.removed_at_this_barrier(removed);
                        self.pending.clear();
                        for frame in &mut self.frames {
                            frame.barriered = true;
                        }
                    }
                    self.barriers_placed += 1;
                }
            }
        }
    }

    /// The element reads of vector expression `e`, as `kir-accesses` finds them.
    fn vector_reads(&self, walk: &Walk<'_>, e: &Expr) -> Result<Vec<Access>, &'static str> {
        let mut reads = Vec::new();
        self.finder.reads(walk, e, &mut reads);
        reads.into_iter().map(|r| self.read_access(r)).collect()
    }

    /// `read` as an access: at an offset without a polynomial, by the owner of each element at
    /// an offset of its own (`Finder::owner_at` in `kir/accesses.rs`).
    fn read_access(&self, read: Read) -> Result<Access, &'static str> {
        let Some(array) = read.array else {
            return Err("a read of a computed array or tile passed whole");
        };
        Ok(Access {
            name: shown_name(&array),
            array,
            kind: AccessKind::Read,
            who: read.who.unwrap_or_else(|| self.unknown_offset()),
            span: read.span,
        })
    }

    /// The owner of each element at an offset without a polynomial: a symbol `offset` of its
    /// own, which equals no other.
    fn unknown_offset(&self) -> Who {
        let version = self.unknown_offsets.get();
        self.unknown_offsets.set(version - 1);
        Who::Owner(Poly::sym(Sym::new("offset", version)))
    }

    /// Reduction `e` (`f /. v`), as code generation makes it (`codegen/reduce.rs`): the
    /// operand's element reads, announced together; with more than one warp, the write of its
    /// partials (`reduce.partials`, one slot per warp: the previous run of the reduction, in a
    /// loop, may still read them), the barrier inside it, which orders everything before it (a
    /// reduction by tiles: one in every copy of its sweep's body, which orders nothing else),
    /// and the partials' read by every warp. One whose operand or bound arguments hold what the
    /// pass does not cover is not covered.
    fn reduction(
        &self,
        walk: &Walk<'_>,
        e: &Expr,
        out: &mut Vec<Step>,
    ) -> Result<(), &'static str> {
        let checked = walk.checked;
        let ExprKind::Collective {
            op: CollectiveOp::Reduce,
            func,
            operand,
            ..
        } = &e.kind
        else {
            return Err("a scan");
        };
        // A grid-wide reduce's total, in its statement: a value (`grid.rs`).
        if self.grid_total == Some(e.id) {
            return Ok(());
        }
        if crate::check::grid::is_grid_call(checked, operand) {
            return Err("a grid-wide statement");
        }
        // `reduce_whole`: the bound arguments, then the operand prepared (its uniform parts
        // computed), even where it has no element.
        self.bound_args(walk, func, "a reduction with a bound array", out)?;
        self.vector_steps(walk, operand, out)?;
        // The reduction of an empty vector is zero, with no access of its own.
        let len = walk.static_len(operand);
        if len == Some(0) {
            return Ok(());
        }
        self.reduction_sweep(walk, e, operand, len, out)
    }

    /// Reduction `e` of `operand`, prepared, over `len` positions (a compile-time length, if it
    /// has one; a grid-wide statement's chunk has none), as `codegen::Body::reduce_prepared`
    /// makes it: the operand's element reads, the scans inside it, the partials' write, the
    /// sweep and the barrier where the warps' partials meet, the partials' read.
    fn reduction_sweep(
        &self,
        walk: &Walk<'_>,
        e: &Expr,
        operand: &Expr,
        len: Option<u64>,
        out: &mut Vec<Step>,
    ) -> Result<(), &'static str> {
        let Some(plan) = self.sweeps.get(&Consumer::Reduce(e.span)) else {
            return Err("a reduction or scan");
        };
        // The scans in the operand: computed in the reduction's sweep, each one's partials
        // written first (as a statement's, `store`).
        let mut scans = Vec::new();
        scans_in(operand, &mut scans);
        if !scans.is_empty() && plan.sweep == Sweep::Stride {
            return Err("a scan in a block-stride loop");
        }
        out.push(Step::Touch(self.vector_reads(walk, operand)?));
        let warps = self.block_size / 32 > 1;
        let mut per_body = self.scan_steps(walk, &[operand], plan, len, out)?;
        let (write, read) = partials("reduce.partials", e);
        if warps {
            out.push(Step::Touch(vec![write.clone()]));
        }
        let fold = Step::Collective {
            what: "a reduction",
            clears: plan.combine == Some(Combine::PerThread),
            accesses: Box::new((write, read.clone())),
        };
        if plan.combine == Some(Combine::PerThread) {
            // Each thread folds its elements (in a loop over tiles for some), then the warps'
            // results meet once, behind a barrier that orders everything before it.
            if plan.sweep != Sweep::Stride {
                self.sweep_steps(plan, len, e.span, &per_body, out);
            }
            if warps {
                out.push(fold);
            }
        } else {
            // Each tile is combined by the whole block: a barrier in every copy of the sweep's
            // body, which orders nothing beyond its tile.
            if warps {
                per_body.push(fold);
            }
            self.sweep_steps(plan, len, e.span, &per_body, out);
        }
        out.extend(self.scan_partials_read(walk, &[operand]));
        if warps {
            out.push(Step::Record(vec![read]));
        }
        Ok(())
    }

    /// The steps of vector expression `e` before its consumer's own accesses, in the order code
    /// generation prepares it (`codegen::Body::prepare`): its uniform parts (subscripts,
    /// broadcast operands, bound arguments, a vector literal's elements, `Range`s) each computed
    /// once where they stand, as scalar expressions ([`Self::element_reads`]: their element
    /// reads, by every thread, and their reductions), and the vectors inside it prepared in
    /// turn. `Err`: a construct the pass does not cover.
    fn vector_steps(
        &self,
        walk: &Walk<'_>,
        e: &Expr,
        out: &mut Vec<Step>,
    ) -> Result<(), &'static str> {
        let checked = walk.checked;
        if checked.ty(e.id).is_uniform() {
            return self.element_reads(walk, e, out);
        }
        match &e.kind {
            // The array is read where the vector is consumed; only the subscripts are computed
            // (after an indexed computed vector's copy).
            ExprKind::Index { base, indices, .. } => {
                if walk.is_indexed_copy(base.span) {
                    self.copy_steps(walk, base, out)?;
                } else {
                    self.row_steps(walk, base, out)?;
                }
                return indices
                    .iter()
                    .try_for_each(|index| self.vector_steps(walk, index, out));
            }
            ExprKind::Collective {
                op: CollectiveOp::Map,
                func,
                operand,
                ..
            } => {
                // `f /~ v`: `f` of each element, its bound arguments computed once; a `func`
                // given scalars touches no memory of its own (`codegen::Body::call`).
                let func_map = matches!(checked.callees.get(&e.id), Some(Callee::Func(_)));
                if let Some(why) = call_uncovered(checked, e, &func.name.name).filter(|_| !func_map)
                {
                    return Err(why);
                }
                // An array bound to it: read where the map's `func` reads it, when its body
                // says (`func_reads`), outside a grid-wide statement's chunk.
                let map = (!self.in_grid_statement).then_some(e);
                self.bound_args_of(walk, func, map, "a map with a bound array", out)?;
                return self.vector_steps(walk, operand, out);
            }
            ExprKind::Collective { func, operand, .. } => {
                // A scan, computed in its consumer's sweep (`sweep_store`, `reduction`), after
                // the scans inside its operand.
                self.bound_args(walk, func, "a scan with a bound array", out)?;
                return self.vector_steps(walk, operand, out);
            }
            // `v` of a grid-wide scan's `grid(v, scratch)`, prepared for the chunk's aggregate
            // already (its uniform parts computed once, `codegen::Body::hoist`).
            ExprKind::Call { .. } if crate::check::grid::is_grid_call(checked, e) => {
                return match self.grid_window {
                    Some((call, _)) if call == e.id => Ok(()),
                    _ => Err("a grid-wide statement"),
                };
            }
            ExprKind::Call { args, .. } if is_func_call(checked, e) => {
                // A `func` applied element by element (`codegen::Body::prepare_operands`): its
                // uniform arguments computed once, its vector ones element by element, an array
                // passed whole found (a row's subscript computed) and read by any thread
                // (`kir-accesses`' reads). A computed vector passed whole is not covered.
                let covered = args.iter().enumerate().all(|(i, arg)| {
                    let ty = checked.ty(arg.id);
                    match ty {
                        Ty::Array { .. } if walk.passed_whole(e, i) => {
                            array_dims(walk, arg).is_some()
                        }
                        _ => ty.is_uniform() || (is_vector(ty) && !walk.passed_whole(e, i)),
                    }
                });
                if !covered {
                    return Err("a call of a `func` with a computed vector");
                }
            }
            ExprKind::Call { .. } if is_transpose(checked, e) => {
                // Its array is read element by element where the tile is consumed.
                return Ok(());
            }
            ExprKind::Call { callee, .. } => {
                if let Some(why) = call_uncovered(checked, e, &callee.name) {
                    return Err(why);
                }
            }
            _ => {}
        }
        let mut result = Ok(());
        each_child(e, &mut |child| {
            if result.is_ok() {
                result = self.vector_steps(walk, child, out);
            }
        });
        result
    }

    /// The row subscripts of `base` where it is a row `a[i]` of a two-dimensional array (rows of
    /// rows included), computed as code generation finds the row (`codegen::Body::array`,
    /// `row_array`: the array, then the row) before the element's own subscripts.
    fn row_steps(
        &self,
        walk: &Walk<'_>,
        base: &Expr,
        out: &mut Vec<Step>,
    ) -> Result<(), &'static str> {
        match &base.kind {
            ExprKind::Index {
                base: inner,
                indices,
                ..
            } if indices.len() == 1 && matches!(walk.checked.ty(indices[0].id), Ty::Scalar(_)) => {
                self.row_steps(walk, inner, out)?;
                self.element_reads(walk, &indices[0], out)
            }
            _ => Ok(()),
        }
    }

    /// The bound arguments of a collective's `func`, each computed once, in order (code
    /// generation's `hoist`, `arg_value`): a scalar's element reads; an array (or a row of
    /// one) bound whole found (a row's subscript computed) and read by any thread where it is
    /// passed, as a `func` given it whole in a scalar expression. Another value bound whole (a
    /// computed vector) is not covered: `Err(bound_array)`.
    fn bound_args(
        &self,
        walk: &Walk<'_>,
        func: &FuncRef,
        bound_array: &'static str,
        out: &mut Vec<Step>,
    ) -> Result<(), &'static str> {
        self.bound_args_of(walk, func, None, bound_array, out)
    }

    /// [`Self::bound_args`], of map `map`'s `func` where it is given: an array bound whole is
    /// read where the `func`'s body reads it ([`Finder::mapped_array_reads`]), where that can be
    /// said.
    fn bound_args_of(
        &self,
        walk: &Walk<'_>,
        func: &FuncRef,
        map: Option<&Expr>,
        bound_array: &'static str,
        out: &mut Vec<Step>,
    ) -> Result<(), &'static str> {
        for (param, arg) in func.bound_args.iter().enumerate() {
            if walk.checked.ty(arg.id).scalar().is_some() {
                self.element_reads(walk, arg, out)?;
                continue;
            }
            let whole = matches!(walk.checked.ty(arg.id), Ty::Array { .. })
                && !walk.is_indexed_copy(arg.span);
            let Some((array, _)) = array_dims(walk, arg).filter(|_| whole) else {
                return Err(bound_array);
            };
            self.row_steps(walk, arg, out)?;
            let read_where_the_body_says =
                map.and_then(|map| self.finder.mapped_array_reads(walk, map, param, arg));
            let reads = read_where_the_body_says.unwrap_or_else(|| {
                vec![Access {
                    name: shown_name(&array),
                    array,
                    kind: AccessKind::Read,
                    who: Who::Any,
                    span: arg.span,
                }]
            });
            // A place even where the body never reads the array: code generation reaches it
            // by the argument alone (`codegen::Body::arg_value`).
            out.push(Step::Touch(reads));
        }
        Ok(())
    }

    /// The row-major index of `array[indices...]` as a polynomial, when it has one.
    fn location(&self, walk: &Walk<'_>, dims: &[Option<Poly>], indices: &[Expr]) -> Option<Poly> {
        let mut linear = Poly::default();
        for (d, index) in indices.iter().enumerate() {
            let sub = self
                .finder
                .values
                .symbols
                .poly(index, walk.checked, self.block_size)?;
            let stride = dims
                .iter()
                .skip(d + 1)
                .try_fold(Poly::constant(1), |acc, d| acc.mul(d.as_ref()?))?;
            linear = linear.add(&sub.mul(&stride)?)?;
        }
        Some(linear)
    }

    /// The uniform element reads of scalar expression `e` (`a[i]`: every thread reads one
    /// element, each announced on its own) and its reductions' steps, in the order code
    /// generation makes them: operands and subscripts first, then the element. `Err`: a
    /// construct the pass does not cover.
    fn element_reads(
        &self,
        walk: &Walk<'_>,
        e: &Expr,
        out: &mut Vec<Step>,
    ) -> Result<(), &'static str> {
        let checked = walk.checked;
        match &e.kind {
            ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Bool(_) => Ok(()),
            ExprKind::Name(name) => match walk.lookup(&name.name) {
                Some(Name::Recomputed(_)) => Err("a vector operand"),
                _ => Ok(()),
            },
            ExprKind::Unary { operand, .. } => self.element_reads(walk, operand, out),
            ExprKind::Field { base, .. } => self.element_reads(walk, base, out),
            ExprKind::Binary { op, lhs, rhs, .. } => {
                if let Some(operands) = self.contracted(checked, *op, lhs, rhs) {
                    return operands
                        .into_iter()
                        .try_for_each(|x| self.element_reads(walk, x, out));
                }
                self.element_reads(walk, lhs, out)?;
                if matches!(op, BinaryOp::And | BinaryOp::Or) {
                    let mut skippable = Vec::new();
                    self.element_reads(walk, rhs, &mut skippable)?;
                    out.push(Step::Skippable(skippable));
                    return Ok(());
                }
                self.element_reads(walk, rhs, out)
            }
            ExprKind::Call { args, .. } if is_func_call(checked, e) => {
                // A `func` (`codegen::Body::call`): its arguments in order, an array passed
                // whole read by any thread (the callee may read any element) where it is
                // passed, then the call, which touches nothing else.
                for arg in args {
                    if !matches!(checked.ty(arg.id), Ty::Array { .. }) {
                        self.element_reads(walk, arg, out)?;
                        continue;
                    }
                    let ExprKind::Name(name) = &arg.kind else {
                        return Err("a call of a `func`");
                    };
                    if !matches!(walk.lookup(&name.name), Some(Name::Array(_)))
                        || walk.is_indexed_copy(arg.span)
                    {
                        return Err("a call of a `func`");
                    }
                    out.push(Step::Touch(vec![Access {
                        array: walk.array_key(&name.name),
                        name: name.name.clone(),
                        kind: AccessKind::Read,
                        who: Who::Any,
                        span: arg.span,
                    }]));
                }
                Ok(())
            }
            ExprKind::Call { callee, args } => {
                // Every argument is computed before the call (`select` too: it picks between
                // two computed values).
                if let Some(why) = call_uncovered(checked, e, &callee.name) {
                    return Err(why);
                }
                for arg in args {
                    self.element_reads(walk, arg, out)?;
                }
                Ok(())
            }
            ExprKind::Index { base, indices, .. } => {
                if is_vector(checked.ty(e.id)) {
                    return Err("a vector operand");
                }
                // A computed vector indexed is stored into a `shared` copy first
                // (`kir-indexed-copies`, `codegen::Body::index_uniform`), of its compile-time
                // length.
                let (array, dims) = if walk.is_indexed_copy(base.span) {
                    self.copy_steps(walk, base, out)?;
                    let len = walk.static_len(base).and_then(|n| i64::try_from(n).ok());
                    (indexed_copy_key(base), vec![len.map(Poly::constant)])
                } else {
                    self.row_steps(walk, base, out)?;
                    match (array_dims(walk, base), &base.kind) {
                        (Some(named), _) => named,
                        (None, ExprKind::Name(_)) => {
                            return Err("an element read of a register or recomputed vector")
                        }
                        (None, _) => return Err("an element read of a computed vector"),
                    }
                };
                for index in indices {
                    self.element_reads(walk, index, out)?;
                }
                let location = self.location(walk, &dims, indices);
                out.push(Step::Touch(vec![Access {
                    name: shown_name(&array),
                    array,
                    kind: AccessKind::Read,
                    who: Who::All(location),
                    span: e.span,
                }]));
                Ok(())
            }
            // `codegen::Body::record_literal`: the fields as written.
            ExprKind::Record { fields } => fields
                .iter()
                .try_for_each(|field| self.element_reads(walk, &field.value, out)),
            ExprKind::VectorLit { .. } => Err("a vector operand"),
            ExprKind::Collective { .. } => self.reduction(walk, e, out),
        }
    }

    /// `lhs op rhs` as code generation computes it when it contracts it into one fused
    /// multiply-add (`codegen::Body::contracted`, `--fast-math`): `a * b + c` and `c + a * b`
    /// of one float type, `Float32` or `Float64`, as `a`, `b`, then `c`.
    fn contracted<'e>(
        &self,
        checked: &Checked,
        op: BinaryOp,
        lhs: &'e Expr,
        rhs: &'e Expr,
    ) -> Option<[&'e Expr; 3]> {
        if !self.fast_math {
            return None;
        }
        let ((a, b), c) = Expr::multiply_add(op, lhs, rhs)?;
        let scalar = |e: &Expr| match checked.ty(e.id).element() {
            Ty::Scalar(s) => Some(*s),
            Ty::Range => Some(Scalar::Int32),
            _ => None,
        };
        let float = scalar(c).filter(|s| matches!(s, Scalar::Float32 | Scalar::Float64))?;
        [a, b, lhs, rhs]
            .iter()
            .all(|x| scalar(x) == Some(float))
            .then_some([a, b, c])
    }

    /// Before a vector statement's sweep, code generation computes the target's subscripts
    /// (`Body::destination`), then the value's uniform parts, reductions included
    /// (`Body::prepare`).
    fn prepare_assign(&mut self, walk: &Walk<'_>, target: &Expr, value: &Expr, span: Span) {
        let subscripts = match &target.kind {
            ExprKind::Index { indices, .. } => indices.as_slice(),
            _ => &[],
        };
        let mut steps = Vec::new();
        let prepared = subscripts
            .iter()
            .chain([value])
            .try_for_each(|e| self.vector_steps(walk, e, &mut steps));
        if let Err(why) = prepared {
            return self.uncover(span, why);
        }
        self.steps(steps);
    }

    /// `target <- value` of a scalar or record: to a variable or a field of one (registers:
    /// the value's reads only; an atomic keeps its old value, `codegen::Body::atomic_value`),
    /// or to an element `a[i]` or its field `a[i].f` (`Body::store_uniform`,
    /// `store_element_field`): the array found (a row's subscript computed), the value, the
    /// subscripts, then thread 0's write.
    fn scalar_assign(&mut self, walk: &Walk<'_>, target: &Expr, value: &Expr, span: Span) {
        let Some((base, indices)) = element_place(target) else {
            if atomics::is_atomic(walk.checked, value) {
                self.uniform_atomic(walk, value, true, span);
            } else {
                self.scalar(walk, value, span);
            }
            return;
        };
        let mut steps = Vec::new();
        let found = self
            .row_steps(walk, base, &mut steps)
            .and_then(|()| self.element_reads(walk, value, &mut steps))
            .and_then(|()| {
                indices
                    .iter()
                    .try_for_each(|i| self.element_reads(walk, i, &mut steps))
            });
        if let Err(why) = found {
            return self.uncover(span, why);
        }
        let Some((array, dims)) = array_dims(walk, base) else {
            return self.uncover(span, "a store into a computed vector");
        };
        self.steps(steps);
        let location = self.location(walk, &dims, indices);
        let name = shown_name(&array);
        self.touch(vec![Access {
            name: name.clone(),
            array: array.clone(),
            kind: AccessKind::Write,
            who: Who::Leader(location),
            span,
        }]);
        self.steps(vec![Step::Candidate {
            after: span,
            arrays: vec![(array, name)],
            atomic: false,
        }]);
    }

    /// Uniform atomic `call`'s steps ([`Self::uniform_atomic_steps`]), made; `false` (and the
    /// statement uncovered) where the pass does not cover it.
    fn uniform_atomic(&mut self, walk: &Walk<'_>, call: &Expr, keep: bool, span: Span) -> bool {
        let mut steps = Vec::new();
        let found = self.uniform_atomic_steps(walk, call, keep, span, &mut steps);
        self.made(found, steps, span)
    }

    /// The element reads of scalar expression `e`, made; `false` (and the statement
    /// uncovered) where the pass does not cover it.
    fn scalar(&mut self, walk: &Walk<'_>, e: &Expr, span: Span) -> bool {
        let mut reads = Vec::new();
        let found = self.element_reads(walk, e, &mut reads);
        self.made(found, reads, span)
    }

    /// `steps`, made where `found` says the pass covers them (`true`); else the statement at
    /// `span` uncovered, for the reason `found` gives (`false`).
    fn made(&mut self, found: Result<(), &'static str>, steps: Vec<Step>, span: Span) -> bool {
        match found {
            Ok(()) => {
                self.steps(steps);
                true
            }
            Err(why) => {
                self.uncover(span, why);
                false
            }
        }
    }

    /// A loop `kir-distribute` spreads over the block's threads, after its range's reads
    /// (`codegen::Body::distributed_for`): every access of its body announced together in front
    /// of it, each by the thread that runs its iteration, as the statement has them
    /// (`kir/distribute.rs`, with what each variable holds at the loop); the body itself is each
    /// thread's own code, with no barrier of its own.
    fn distributed_loop(&mut self, walk: &Walk<'_>, stmt: &Ast, accesses: &[Access], span: Span) {
        // The statement names arrays by name: each as the key of the declaration in scope.
        let accesses: Vec<Access> = accesses
            .iter()
            .map(|access| Access {
                array: walk.array_key(&access.array),
                ..access.clone()
            })
            .collect();
        let mut written: Vec<(String, String)> = Vec::new();
        for access in &accesses {
            if access.kind == AccessKind::Write && !written.iter().any(|(k, _)| *k == access.array)
            {
                written.push((access.array.clone(), access.name.clone()));
            }
        }
        self.touch(accesses);
        self.distributed = 1;
        self.distributed_writes = Some((span, written));
        self.finder.values.statement(walk, stmt);
    }

    /// In front of a loop: a barrier when something pending conflicts with any thread's access
    /// to an array the body names.
    fn before_loop(&mut self, walk: &Walk<'_>, body: &Block, span: Span) {
        let point = self.point(Point::LoopHead);
        // The body as code generation names its arrays: each recomputed vector is its
        // initializer already (`run`).
        let mut touched: Vec<(String, bool)> = Vec::new();
        arrays_touched(walk.checked, body, &mut |name, write| {
            touched.push((name.to_string(), write))
        });
        let later: Vec<Access> = touched
            .into_iter()
            .filter(|(name, _)| matches!(walk.lookup(name), Some(Name::Array(_))))
            .map(|(name, write)| Access {
                array: walk.array_key(&name),
                name,
                kind: if write {
                    AccessKind::Write
                } else {
                    AccessKind::Read
                },
                who: Who::Any,
                span,
            })
            .collect();
        let conflict = later.iter().find_map(|later| {
            self.pending
                .iter()
                .find(|earlier| conflicts(earlier, later, self.block_size, None))
                .map(|earlier| (earlier.clone(), later.clone()))
        });
        if let Some((earlier, later)) = conflict {
            self.barrier(earlier, later, (span, point), false);
        }
    }
}

/// The element an assignment's target `a[i]`, `a[i].f` stores into: the array and the
/// subscripts; `None` for a variable or a field of one.
fn element_place(target: &Expr) -> Option<(&Expr, &[Expr])> {
    match &target.kind {
        ExprKind::Index { base, indices, .. } => Some((base, indices)),
        ExprKind::Field { base, .. } => element_place(base),
        _ => None,
    }
}

/// The write and the read of collective `e`'s partials (`what`: `reduce.partials`,
/// `scan.partials`), its scratch array of one slot per warp, by any thread.
fn partials(what: &str, e: &Expr) -> (Access, Access) {
    let access = |kind| Access {
        array: format!("{what}#{}", e.id.0),
        name: what.to_string(),
        kind,
        who: Who::Any,
        span: e.span,
    };
    (access(AccessKind::Write), access(AccessKind::Read))
}

/// The name barrier placement shows for the array with key `key`: a compiler-made array's key
/// (a collective's partials, an indexed vector's copy) tells it from others after a `#`.
pub(super) fn shown_name(key: &str) -> String {
    key.split('#').next().unwrap_or(key).to_string()
}

/// Whether `e` is `transpose(t)`, a tile read element by element where it is consumed.
fn is_transpose(checked: &Checked, e: &Expr) -> bool {
    matches!(
        checked.callees.get(&e.id),
        Some(Callee::Builtin(crate::check::Builtin::Transpose))
    )
}

/// Whether `e` calls a `func` (not a grid-wide statement or an atomic).
fn is_func_call(checked: &Checked, e: &Expr) -> bool {
    let ExprKind::Call { callee, .. } = &e.kind else {
        return false;
    };
    matches!(checked.callees.get(&e.id), Some(Callee::Func(_)))
        && !crate::check::grid::is_grid_call(checked, e)
        && crate::check::AtomicOp::from_name(&callee.name).is_none()
}

/// Why call `e` of `callee` is outside what the pass covers: a grid-wide statement, an atomic,
/// a call of a `func`.
fn call_uncovered(checked: &Checked, e: &Expr, callee: &str) -> Option<&'static str> {
    match checked.callees.get(&e.id) {
        _ if crate::check::grid::is_grid_call(checked, e) => Some("a grid-wide statement"),
        _ if crate::check::AtomicOp::from_name(callee).is_some() => Some("an atomic"),
        Some(Callee::Cast(_) | Callee::Builtin(_)) => None,
        _ => Some("a call of a `func`"),
    }
}

impl<'a> Visitor<'a> for Placer {
    fn statement(&mut self, walk: &Walk<'a>, stmt: &'a Ast) {
        if self.uncovered.is_some() {
            return;
        }
        if self.distributed > 0 {
            if matches!(stmt, Ast::For { .. } | Ast::While { .. }) {
                self.distributed += 1;
            }
            self.finder.values.statement(walk, stmt);
            return;
        }
        let checked = walk.checked;
        match stmt {
            Ast::Let {
                name,
                init,
                shared,
                span,
                ..
            } => {
                let local = checked.locals.get(&name.span);
                if matches!(local, Some(Ty::Array { .. })) {
                    // A vector variable: in registers (no memory), in shared memory (its
                    // initializer's accesses in `init_variable`), or recomputed at each use
                    // (code generation removes the declaration; each use reads what its
                    // initializer reads).
                    self.declared
                        .insert(name.span, walk.next_array_key(&name.name));
                    if let (Some(init), false) = (init, walk.is_recomputed(name.span)) {
                        // The reductions inside the value first, as for a vector assignment.
                        let mut steps = Vec::new();
                        if let Err(why) = self.vector_steps(walk, init, &mut steps) {
                            return self.uncover(*span, why);
                        }
                        self.steps(steps);
                    }
                    self.finder.values.statement(walk, stmt);
                    return;
                }
                // A scalar, `Range` or record variable lives in registers
                // (`codegen::Body::let_stmt`): its initializer's reads only.
                let in_registers = local.is_some_and(|t| {
                    t.scalar().is_some() || matches!(t, Ty::Range | Ty::Record(_))
                });
                if *shared || !in_registers {
                    return self.uncover(*span, "a `shared` scalar variable");
                }
                if let Some(init) = init {
                    let made = if atomics::is_atomic(checked, init) {
                        self.uniform_atomic(walk, init, true, *span)
                    } else {
                        self.scalar(walk, init, *span)
                    };
                    if !made {
                        return;
                    }
                }
            }
            Ast::Assign {
                target,
                value,
                span,
            } => {
                if walk.grid_collective(*span).is_some() {
                    self.in_grid_statement = true;
                    self.grid_statement(walk, target, value, *span);
                    self.in_grid_statement = false;
                    self.finder.values.statement(walk, stmt);
                    return;
                }
                let vector = is_vector(checked.ty(target.id));
                if !vector {
                    self.scalar_assign(walk, target, value, *span);
                    self.finder.values.statement(walk, stmt);
                    return;
                }
                // The statement's own accesses come in `store`.
                self.prepare_assign(walk, target, value, *span);
            }
            Ast::For {
                range, body, span, ..
            } => {
                // `kir-distribute` made the loop a statement of its own where it distributes
                // it.
                let Some(distributed) = walk.distribution(*span) else {
                    return self.uncover(*span, "a loop kir-distribute did not decide");
                };
                if !self.scalar(walk, range, *span) {
                    return;
                }
                if let Some(accesses) = distributed {
                    return self.distributed_loop(walk, stmt, accesses, *span);
                }
                self.before_loop(walk, body, *span);
                let watermark = self.finder.values.symbols.watermark();
                let head_barriered = self.frames.iter().map(|f| f.barriered).collect();
                self.frames.push(Frame {
                    exposed: AccessLog::default(),
                    barriered: false,
                    watermark,
                    head: self.pending.clone(),
                    head_barriered,
                    head_candidates: self.path.clone(),
                    span: *span,
                    end_at: *span,
                });
            }
            Ast::If { cond, span, .. } => {
                if !self.scalar(walk, cond, *span) {
                    return;
                }
                let before = self.state();
                self.ifs.push((before, None));
            }
            Ast::While { cond, body, span } => {
                // The condition is evaluated at the head of every iteration, inside the loop.
                self.before_loop(walk, body, *span);
                let watermark = self.finder.values.symbols.watermark();
                let head_barriered = self.frames.iter().map(|f| f.barriered).collect();
                self.finder.values.statement(walk, stmt);
                self.frames.push(Frame {
                    exposed: AccessLog::default(),
                    barriered: false,
                    watermark,
                    head: self.pending.clone(),
                    head_barriered,
                    head_candidates: self.path.clone(),
                    span: *span,
                    end_at: cond.span,
                });
                self.scalar(walk, cond, *span);
                return;
            }
            // A kernel's `return` ends the thread's run; code generation goes on placing barriers
            // after it as before it (the code after it, in its block, is dead): no access, no
            // change of state (`codegen::Body::return_stmt`).
            Ast::Return { .. } => {}
            // An atomic on its own line, uniform or per element, made here: before the walk
            // visits the indexed vectors' copies its preparation makes (`store`).
            Ast::Call { call, span } => {
                if !atomics::is_atomic(checked, call) {
                    return self.uncover(*span, "a call statement");
                }
                if checked.ty(call.id).is_uniform() {
                    if !self.uniform_atomic(walk, call, false, *span) {
                        return;
                    }
                } else {
                    match self.vector_atomic_steps(walk, call, *span) {
                        Ok(steps) => self.steps(steps),
                        Err(why) => return self.uncover(*span, why),
                    }
                }
            }
        }
        self.finder.values.statement(walk, stmt);
    }

    fn store(
        &mut self,
        walk: &Walk<'a>,
        consumer: Consumer,
        dest: Dest<'a>,
        value: &'a Expr,
        grid: bool,
    ) {
        if self.uncovered.is_some() {
            return;
        }
        let span = consumer.span();
        match dest {
            // Made with its statement (`grid_statement`).
            _ if grid => {}
            Dest::Target { target, scatter } => self.store(walk, span, target, value, scatter),
            Dest::Variable { name, registers } => {
                self.init_variable(walk, span, name, registers, value)
            }
            // Made where its statement's steps reach it (`copy_steps`); one they did not reach
            // is not covered.
            Dest::Copy if self.copied.contains(&value.id) => {}
            Dest::Copy => self.uncover(span, "an indexed vector's shared copy"),
        }
    }

    /// A reduction's steps are made where its statement evaluates it (`element_reads`,
    /// `vector_steps`), a grid-wide one's with its statement (`grid_statement`).
    fn reduce(&mut self, _walk: &Walk<'a>, _reduce: &'a Expr, _operand: &'a Expr, _grid: bool) {}

    /// A per-element atomic statement's steps were made with the statement (`statement`); a
    /// declaration or assignment's value is not one (`uniform_atomic_steps`, `vector_steps`).
    /// `kir-distribute` keeps loops with atomics sequential.
    fn atomic(&mut self, _walk: &Walk<'a>, _call: &'a Expr, span: Span) {
        if self.distributed > 0 {
            self.uncover(span, "an atomic in a distributed loop");
        }
    }

    fn else_branch(&mut self, _walk: &Walk<'a>, _stmt: &'a Ast) {
        if self.uncovered.is_some() || self.distributed > 0 {
            return;
        }
        let after_then = self.state();
        if let Some((before, then)) = self.ifs.last_mut() {
            *then = Some(after_then);
            let before = before.clone();
            self.restore(before);
        }
    }

    /// Both branches start from the state before the `if`; after it, whatever either left
    /// pending, and a loop passed a barrier only if both branches did.
    fn if_end(&mut self, _walk: &Walk<'a>, _stmt: &'a Ast) {
        if self.uncovered.is_some() || self.distributed > 0 {
            return;
        }
        let Some((_, Some(then))) = self.ifs.pop() else {
            return;
        };
        self.join(then);
    }

    fn loop_end(&mut self, _walk: &Walk<'a>, stmt: &'a Ast) {
        if self.uncovered.is_some() {
            return;
        }
        if self.distributed > 0 {
            self.distributed -= 1;
            if self.distributed == 0 {
                if let Some((after, arrays)) = self.distributed_writes.take() {
                    self.candidates.push(&mut self.path, after, arrays, false);
                }
            }
            return;
        }
        let Some(frame) = self.frames.pop() else {
            return;
        };
        if let Ast::For { span, .. } = stmt {
            debug_assert_eq!(*span, frame.span);
        }
        let point = self.point(Point::LoopEnd);
        let block_size = self.block_size;
        let conflict = self
            .pending
            .first_pair(frame.exposed.iter(), |earlier, later| {
                conflicts(earlier, later, block_size, Some(frame.watermark))
            });
        if let Some((earlier, later)) = conflict {
            self.barrier(earlier, later, (frame.end_at, point), true);
        }
        // After the loop: what the last iteration left pending, or (zero iterations) what was
        // pending at its head; the enclosing loops passed a barrier only if both did.
        self.pending.union(frame.head);
        self.path.join(frame.head_candidates);
        for (outer, at_head) in self.frames.iter_mut().zip(frame.head_barriered) {
            outer.barriered &= at_head;
        }
    }
}
/// Every array a block names, and whether it may write it (`a[i] <- ...`, `a <- ...`,
/// `a[r] <- ...`); nested blocks and loop conditions included.
pub fn arrays_touched(
    checked: &crate::check::Checked,
    block: &Block,
    note: &mut dyn FnMut(&str, bool),
) {
    let mut reads = |e: &Expr| {
        if let ExprKind::Name(name) = &e.kind {
            if matches!(checked.ty(e.id), Ty::Array { .. }) {
                note(&name.name, false);
            }
        }
    };
    crate::syntax::visit::visit_block(block, &mut reads);
    for_each_assignment(block, &mut |target| {
        let mut root = target;
        while let ExprKind::Index { base, .. } | ExprKind::Field { base, .. } = &root.kind {
            root = base;
        }
        if let ExprKind::Name(name) = &root.kind {
            note(&name.name, true);
        }
    });
}

fn for_each_assignment(block: &Block, f: &mut dyn FnMut(&Expr)) {
    for stmt in &block.stmts {
        // An atomic's old value bound to a variable: the atomic writes its place's array too.
        if let Ast::Let { init: Some(v), .. } | Ast::Assign { value: v, .. } = stmt {
            if let ExprKind::Call { callee, args } = &v.kind {
                if crate::check::AtomicOp::from_name(&callee.name).is_some() {
                    if let Some(place) = args.first() {
                        f(place);
                    }
                }
            }
        }
        match stmt {
            Ast::Assign { target, .. } => f(target),
            Ast::If {
                then_branch,
                else_branch,
                ..
            } => {
                for_each_assignment(then_branch, f);
                if let Some(e) = else_branch {
                    for_each_assignment(e, f);
                }
            }
            Ast::For { body, .. } | Ast::While { body, .. } => for_each_assignment(body, f),
            // An atomic writes the array of its place.
            Ast::Call { call, .. } => {
                if let ExprKind::Call { args, .. } = &call.kind {
                    if let Some(place) = args.first() {
                        f(place);
                    }
                }
            }
            Ast::Let { .. } | Ast::Return { .. } => {}
        }
    }
}

/// What a loop over tiles' barrier after each tile is called (code generation places it where
/// `kir-barriers` lists it).
pub const TILE_BARRIER: &str = "a loop over tiles (before the next tile)";

/// Whether a loop over tiles whose body makes `per_body` needs a barrier after each tile: it
/// orders the tile's reads of a collective's partials against the next tile's writes of them.
/// Not where no collective has partials (a block of one warp: its body has no barrier), nor
/// where every trip passes two collectives' barriers or more: each one's partials are then
/// read before another's barrier and written again after it.
fn tile_needs_barrier(per_body: &[Step]) -> bool {
    fn collectives(steps: &[Step]) -> usize {
        steps
            .iter()
            .map(|step| match step {
                Step::Collective { .. } => 1,
                Step::Skippable(steps) | Step::Copy { steps, .. } => collectives(steps),
                _ => 0,
            })
            .sum()
    }
    let every_trip = per_body
        .iter()
        .filter(|step| matches!(step, Step::Collective { .. }))
        .count();
    collectives(per_body) > 0 && every_trip < 2
}
