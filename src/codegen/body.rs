//! The lowering of one body (a kernel's or a `func`'s): builder, scopes, variables, and the
//! control-flow helpers every statement and expression lowering uses.

use super::error::CodegenError;
use super::intrinsics::Intrinsic;
use super::sync::Sync;
use super::Cx;
use crate::check::types::Ty;
use crate::kir::Point;
use crate::syntax::ast::ExprId;
use crate::syntax::span::Span;
use inkwell::basic_block::BasicBlock;
use inkwell::builder::Builder;
use inkwell::types::{BasicType, BasicTypeEnum};
use inkwell::values::{BasicValueEnum, FunctionValue, IntValue, PointerValue};
use inkwell::IntPredicate;
use std::collections::{HashMap, HashSet};

pub use super::error::Result;

/// An array in memory: a kernel's global array parameter, or a block's shared array.
#[derive(Debug, Clone)]
pub struct ArrayRef<'ctx> {
    /// The array's name in the source, for messages.
    pub name: String,
    pub ptr: PointerValue<'ctx>,
    pub elem: Ty,
    /// One `i32` per dimension, row-major (`[rows, cols]` for two dimensions).
    pub dims: Vec<IntValue<'ctx>>,
}

/// A block vector variable in registers: thread `t` holds elements `t + s * BLOCKSIZE` in slot
/// `s` of a private array that the optimiser turns into registers (every slot index is a
/// constant).
#[derive(Debug, Clone)]
pub struct RegVector<'ctx> {
    pub ptr: PointerValue<'ctx>,
    pub elem: Ty,
    pub len: u64,
    pub slots: u32,
}

#[derive(Debug, Clone)]
pub enum Var<'ctx> {
    /// A scalar, record or range in an `alloca` (promoted to a register by `mem2reg`).
    Local {
        ptr: PointerValue<'ctx>,
        ty: Ty,
    },
    Array(ArrayRef<'ctx>),
    Registers(RegVector<'ctx>),
}

/// Where a counted loop's latch tests the counter (`build_counted_loop` and
/// `block_stride_loop`, `unsigned_block_stride_loop` say why each is exact).
#[derive(Debug, Clone, Copy)]
enum Latch<'ctx> {
    /// `i < end - step`, then `i + step` (`nsw`): for any `start`.
    BeforeAdd,
    /// `i + step <u end` (`nuw`): for a `start >= 0`.
    AfterAdd,
    /// `i <u end - step` (`0` where `end <=u step`), then `i + step` (`nuw`): for a count `end`
    /// read unsigned, up to `2^32 - 1`, entered only where `nonempty` holds too.
    Unsigned { nonempty: IntValue<'ctx> },
}

#[derive(Debug, Clone)]
pub enum Mode {
    /// Block-level code: every thread runs it; stores happen once per block.
    Kernel {
        name: String,
        block_size: u32,
        /// The block's rows (`@blocksize(R, C)`: `.reqntid C, R, 1`); 1 for a 1-D block.
        block_rows: u32,
        /// `kir-grid`: the kernel runs on a two-dimensional grid.
        grid_2d: bool,
    },
    /// Element-level code of a `func`: one thread, its own values.
    Func { ret: Option<Ty> },
}

pub struct Body<'a, 'ctx> {
    pub cx: &'a Cx<'a, 'ctx>,
    pub b: Builder<'ctx>,
    pub function: FunctionValue<'ctx>,
    /// Positioned in the entry block, which holds only `alloca`s and a branch to the code.
    allocas: Builder<'ctx>,
    entry: BasicBlock<'ctx>,
    first: BasicBlock<'ctx>,
    scopes: Vec<HashMap<String, Var<'ctx>>>,
    pub mode: Mode,
    /// Barrier placement (kernels only).
    pub sync: Sync,
    /// Declarations (by the span of their name) of vector variables that live in registers.
    pub registers: HashSet<Span>,
    /// `kir-recomputed-vectors`: the declarations (by the span of their name) of the vector
    /// variables evaluated again at each use, which have no statement in the program code
    /// generation lowers (`translate.rs`).
    pub recomputed: HashSet<Span>,
    /// While a grid-wide statement runs over its block's chunk: the chunk's positions
    /// `[lo, hi)`, which every sweep walks instead of `0 .. len` (`grid.rs`).
    pub grid_window: Option<(IntValue<'ctx>, IntValue<'ctx>)>,
    /// The grid-wide scan whose carry starts at the block's prefix, and whether it has one.
    pub grid_seed: Option<(ExprId, IntValue<'ctx>)>,
    /// The total of a grid-wide reduce, for its statement.
    pub grid_value: Option<(ExprId, BasicValueEnum<'ctx>)>,
    /// Only the block of the last chunk stores a grid-wide reduce.
    pub grid_store_guard: Option<IntValue<'ctx>>,
    /// Uniform operands of the vector expression being lowered, evaluated once before its loop.
    pub hoisted: HashMap<ExprId, BasicValueEnum<'ctx>>,
    /// Per-element values of the current position that need the whole block to compute (scan
    /// results), computed before the element itself.
    pub tile_vals: HashMap<ExprId, BasicValueEnum<'ctx>>,
    /// Scratch shared memory of each collective, made once per collective.
    pub scratch: HashMap<ExprId, ArrayRef<'ctx>>,
    /// Every shared array of this body, for the launch-limit check.
    pub shared_decls: Vec<super::limits::SharedDecl>,
    /// Scans computed ahead of their statement's sweep (`scan.rs`, mixed left and right scans):
    /// each one's elements, one slot per tile, in a private array.
    pub materialised: HashMap<ExprId, (PointerValue<'ctx>, BasicTypeEnum<'ctx>, u32)>,
    /// Computed vectors that the statement indexes (`(x[[r]] * 2.0)[[i]]`), by the id of the
    /// vector expression: the `shared` array each was stored into (`Body::copy_indexed_vector`).
    pub indexed_copies: HashMap<ExprId, ArrayRef<'ctx>>,
    /// `kir-indexed-copies`: the spans of the computed vectors to copy (kernels only).
    pub indexed_vectors: std::collections::HashSet<Span>,
    /// `kir-sweeps`: how each consumer of a block vector walks its positions (kernels only).
    pub sweeps: std::collections::BTreeMap<crate::kir::Consumer, crate::kir::SweepPlan>,
    /// `kir-collectives`: how each reduction and scan is expanded, by span (kernels only),
    /// borrowed from the kernel IR: code generation reads a plan, it never changes one.
    pub collectives: Option<&'a std::collections::BTreeMap<Span, crate::kir::CollectivePlan>>,
    /// `kir-guards`: the vectors whose checked reads share one bounds test, by span.
    pub merged_guards: std::collections::BTreeMap<Span, crate::kir::MergedGuard>,
    /// `kir-accesses`: the vector stores that read their own target, by statement span, and
    /// whether each must buffer.
    pub store_orders: std::collections::BTreeMap<Span, crate::kir::StoreOrder>,
    /// The carry of each scan across tiles.
    pub scan_carries: HashMap<ExprId, PointerValue<'ctx>>,
    /// The body's debug scope (its subprogram).
    pub scope: Option<inkwell::debug_info::DISubprogram<'ctx>>,
    /// Above zero while emitting code that only some threads run (block-stride loops, the
    /// once-per-block store, distributed loops): no barrier may be placed there, and accesses
    /// are accounted for by the construct that made the code divergent.
    pub lane_depth: u32,
    fresh: u32,
}

impl<'a, 'ctx> Body<'a, 'ctx> {
    pub fn new(cx: &'a Cx<'a, 'ctx>, function: FunctionValue<'ctx>, mode: Mode) -> Body<'a, 'ctx> {
        let context = cx.context;
        let entry = context.append_basic_block(function, "entry");
        let first = context.append_basic_block(function, "start");
        let allocas = context.create_builder();
        allocas.position_at_end(entry);
        let b = context.create_builder();
        b.position_at_end(first);
        Body {
            cx,
            b,
            function,
            allocas,
            entry,
            first,
            scopes: vec![HashMap::new()],
            mode,
            sync: Sync::default(),
            registers: HashSet::new(),
            recomputed: HashSet::new(),
            grid_window: None,
            grid_seed: None,
            grid_value: None,
            grid_store_guard: None,
            hoisted: HashMap::new(),
            tile_vals: HashMap::new(),
            scratch: HashMap::new(),
            shared_decls: Vec::new(),
            materialised: HashMap::new(),
            indexed_copies: HashMap::new(),
            indexed_vectors: std::collections::HashSet::new(),
            sweeps: std::collections::BTreeMap::new(),
            collectives: None,
            merged_guards: std::collections::BTreeMap::new(),
            store_orders: std::collections::BTreeMap::new(),
            scan_carries: HashMap::new(),
            scope: None,
            lane_depth: 0,
            fresh: 0,
        }
    }

    /// Gives the function its debug subprogram (`name`, declared at `span`) and starts emitting
    /// locations.
    pub fn attach_debug(&mut self, name: &str, span: Span) {
        if let Some(debug) = &self.cx.debug {
            let subprogram = debug.subprogram(name, span);
            self.function.set_subprogram(subprogram);
            self.scope = Some(subprogram);
            self.set_location(span);
        }
    }

    /// Instructions emitted from now on come from `span`.
    pub fn set_location(&self, span: Span) {
        if let (Some(debug), Some(scope)) = (&self.cx.debug, self.scope) {
            self.b
                .set_current_debug_location(debug.location(span, scope));
        }
    }

    /// Runs `f` with instructions located at `span`, then goes back to the current location.
    pub fn located<T>(&mut self, span: Span, f: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        let saved = self.b.get_current_debug_location();
        self.set_location(span);
        let result = f(self);
        if let (Some(location), Some(_)) = (saved, self.scope) {
            self.b.set_current_debug_location(location);
        }
        result
    }

    /// Closes the entry block. Called once, after the body is lowered.
    pub fn finish_entry(&self) -> Result<()> {
        self.allocas.position_at_end(self.entry);
        self.allocas.build_unconditional_branch(self.first)?;
        Ok(())
    }

    pub fn is_kernel(&self) -> bool {
        matches!(self.mode, Mode::Kernel { .. })
    }

    pub fn block_size(&self, span: Span) -> Result<u32> {
        match &self.mode {
            Mode::Kernel { block_size, .. } => Ok(*block_size),
            // The checker rejects `BLOCKSIZE` (E0106) and block vectors (E0310) in a func.
            Mode::Func { .. } => Err(CodegenError::internal("`BLOCKSIZE` inside a `func`", span)),
        }
    }

    /// A name for a compiler-made global or block, unique in this body.
    pub fn fresh_name(&mut self, what: &str) -> String {
        self.fresh += 1;
        match &self.mode {
            Mode::Kernel { name, .. } => format!("{name}.{what}.{}", self.fresh),
            Mode::Func { .. } => format!(
                "{}.{what}.{}",
                self.function.get_name().to_string_lossy(),
                self.fresh
            ),
        }
    }

    // ---- scopes ----

    pub fn push_scope(&mut self) {
        self.scopes.push(HashMap::new());
    }

    pub fn pop_scope(&mut self) {
        self.scopes.pop();
    }

    pub fn bind(&mut self, name: &str, var: Var<'ctx>) {
        if let Some(scope) = self.scopes.last_mut() {
            scope.insert(name.to_string(), var);
        }
    }

    pub fn lookup(&self, name: &str) -> Option<&Var<'ctx>> {
        self.scopes.iter().rev().find_map(|s| s.get(name))
    }

    // ---- small builders ----

    pub fn alloca(&self, ty: BasicTypeEnum<'ctx>, name: &str) -> Result<PointerValue<'ctx>> {
        Ok(self.allocas.build_alloca(ty, name)?)
    }

    pub fn i32(&self, v: i64) -> IntValue<'ctx> {
        self.cx.context.i32_type().const_int(v as u64, true)
    }

    pub fn i64(&self, v: i64) -> IntValue<'ctx> {
        self.cx.context.i64_type().const_int(v as u64, true)
    }

    pub fn intrinsic(&self, intrinsic: Intrinsic) -> FunctionValue<'ctx> {
        intrinsic.declare(self.cx.context, self.cx.module)
    }

    pub fn sreg(&self, intrinsic: Intrinsic) -> Result<IntValue<'ctx>> {
        let call = self.b.build_call(self.intrinsic(intrinsic), &[], "")?;
        call.try_as_basic_value()
            .basic()
            .map(|v| v.into_int_value())
            .ok_or_else(|| CodegenError::Internal {
                message: "special register read has no value".into(),
                span: None,
            })
    }

    /// The thread's index in its block, `0 .. BLOCKSIZE`: `%tid.x` in a one-dimensional block,
    /// `%tid.y * cols + %tid.x` in a block of `rows x cols` threads (CUDA's linear thread
    /// index, x fastest, which also numbers the warps' lanes), so that everything built on
    /// element `k` belonging to thread `k mod BLOCKSIZE` holds in both.
    pub fn tid(&self) -> Result<IntValue<'ctx>> {
        let x = self.sreg(Intrinsic::TidX)?;
        match self.mode {
            Mode::Kernel {
                block_size,
                block_rows,
                ..
            } if block_rows > 1 => {
                let y = self.sreg(Intrinsic::TidY)?;
                let cols = self.i32(i64::from(block_size / block_rows));
                let row = self.b.build_int_nuw_mul(y, cols, "tid.row")?;
                Ok(self.b.build_int_nuw_add(row, x, "tid")?)
            }
            _ => Ok(x),
        }
    }

    /// The block's shape `(rows, cols)`; `(1, BLOCKSIZE)` for a one-dimensional block.
    pub fn block_shape(&self) -> (u32, u32) {
        match self.mode {
            Mode::Kernel {
                block_size,
                block_rows,
                ..
            } => (block_rows.max(1), block_size / block_rows.max(1)),
            Mode::Func { .. } => (1, 1),
        }
    }

    /// Whether the kernel runs on a two-dimensional grid (`kir-grid`).
    pub fn grid_2d(&self) -> bool {
        matches!(self.mode, Mode::Kernel { grid_2d: true, .. })
    }

    /// `bar.sync 0`. Only ever placed in block-uniform control flow.
    fn emit_barrier(&mut self) -> Result<()> {
        if self.lane_depth > 0 {
            return Err(CodegenError::Internal {
                message: "a barrier in thread-divergent code".into(),
                span: None,
            });
        }
        self.b
            .build_call(self.intrinsic(Intrinsic::Barrier0), &[], "")?;
        Ok(())
    }

    /// A place where a statement's memory accesses are about to be made (`at`; in
    /// block-uniform code, before the divergent code that makes them): the kernel IR, which
    /// knows them, places a barrier here if one of them may touch an element another thread
    /// touched since the last barrier, at least one of the two writing (`kir-barriers`).
    /// Code generation reaches the place by the statement's structure alone, whether or not
    /// the statement makes any access there.
    pub fn touch(&mut self, at: Span) -> Result<()> {
        if !self.is_kernel() || self.lane_depth > 0 {
            return Ok(());
        }
        self.barrier_at(Point::Touch, at)
    }

    /// At a place a barrier may go (`point`, reached at `at`): the barrier the kernel IR
    /// places there, if any, emitted with its remark. A place the IR does not have there is
    /// an internal error (the IR's walk of the kernel and code generation's disagree).
    pub fn barrier_at(&mut self, point: Point, at: Span) -> Result<()> {
        let decided = self
            .sync
            .decided(point)
            .map_err(|message| CodegenError::internal(message, at))?;
        if let Some(barrier) = decided {
            self.emit_barrier()?;
            self.sync.barrier_placed(&barrier);
        }
        Ok(())
    }

    /// At the end of a kernel: code generation reached every place the IR has, and placed the
    /// collectives' barriers where it has them (an internal error otherwise).
    pub fn check_barriers(&self, span: Span) -> Result<()> {
        self.sync
            .check_followed()
            .map_err(|message| CodegenError::internal(message, span))
    }

    /// A barrier inside a collective, where its warps' partial results meet (R0803).
    pub fn collective_barrier(&mut self, at: Span, what: &'static str) -> Result<()> {
        self.emit_barrier()?;
        self.sync.collective_barrier(at, what);
        Ok(())
    }

    /// At the end of a loop body: a barrier where the kernel IR places one (the next
    /// iteration's first accesses may race with this iteration's last ones).
    pub fn loop_back_barrier(&mut self, span: Span) -> Result<()> {
        // Inside a distributed loop's body (each thread's own code) no place counts: the IR
        // announces nothing there either.
        if !self.is_kernel() || self.lane_depth > 0 {
            return Ok(());
        }
        // After `return` (the block ends here) the place still counts, and the IR has no
        // barrier there (nothing is pending on a path that left the kernel).
        if self.terminated() {
            return match self.sync.decided(Point::LoopEnd) {
                Ok(None) => Ok(()),
                Ok(Some(_)) => Err(CodegenError::internal(
                    "kir-barriers places a barrier after `return`",
                    span,
                )),
                Err(message) => Err(CodegenError::internal(message, span)),
            };
        }
        self.barrier_at(Point::LoopEnd, span)
    }

    /// True when the current block already ends (after `return`): code after it is dead.
    pub fn terminated(&self) -> bool {
        self.b
            .get_insert_block()
            .and_then(|bb| bb.get_terminator())
            .is_some()
    }

    /// Continues in a fresh block (after a terminator), so that dead code still has a place.
    pub fn continue_in_dead_block(&self) {
        let dead = self.cx.context.append_basic_block(self.function, "dead");
        self.b.position_at_end(dead);
    }

    pub fn branch_to(&self, target: BasicBlock<'ctx>) -> Result<()> {
        if !self.terminated() {
            self.b.build_unconditional_branch(target)?;
        }
        Ok(())
    }

    /// `if cond { then(self) }`.
    pub fn build_if(
        &mut self,
        cond: IntValue<'ctx>,
        then: &mut dyn FnMut(&mut Self) -> Result<()>,
    ) -> Result<()> {
        let context = self.cx.context;
        let then_bb = context.append_basic_block(self.function, "then");
        let join = context.append_basic_block(self.function, "endif");
        self.b.build_conditional_branch(cond, then_bb, join)?;
        self.b.position_at_end(then_bb);
        then(self)?;
        self.branch_to(join)?;
        self.b.position_at_end(join);
        Ok(())
    }

    /// `if cond { then(self) } else { otherwise(self) }`.
    pub fn build_if_else(
        &mut self,
        cond: IntValue<'ctx>,
        then: &mut dyn FnMut(&mut Self) -> Result<()>,
        otherwise: &mut dyn FnMut(&mut Self) -> Result<()>,
    ) -> Result<()> {
        let context = self.cx.context;
        let then_bb = context.append_basic_block(self.function, "then");
        let else_bb = context.append_basic_block(self.function, "else");
        let join = context.append_basic_block(self.function, "endif");
        self.b.build_conditional_branch(cond, then_bb, else_bb)?;
        self.b.position_at_end(then_bb);
        then(self)?;
        self.branch_to(join)?;
        self.b.position_at_end(else_bb);
        otherwise(self)?;
        self.branch_to(join)?;
        self.b.position_at_end(join);
        Ok(())
    }

    /// `for (i = start; i < end; i += step) body(self, i)`, signed `i32` compare, `step > 0`.
    ///
    /// Rotated: `start < end` is tested once before the loop, and the latch tests
    /// `i < end - step` before it adds, so that the add provably cannot wrap and carries `nsw`
    /// (with it LLVM widens the counter to 64 bits: no sign extension at every access, and
    /// pointer increments instead of recomputed addresses). Why it cannot wrap: the latch adds
    /// only when `i < end - step`, i.e. `i + step < end <= i32::MAX`. Testing `i + step < end`
    /// after adding, the obvious form, would wrap: a block-stride counter bounded by an `i32`
    /// length near `i32::MAX` passes it by up to `step - 1`. `end - step` is computed as
    /// `max(end, i32::MIN + step) - step`, which cannot wrap either; where the `max` changes
    /// `end` (`end < i32::MIN + step`), no `i < end` has `i + step < end`, and the loop ends
    /// there as it must.
    pub fn build_counted_loop(
        &mut self,
        start: IntValue<'ctx>,
        end: IntValue<'ctx>,
        step: IntValue<'ctx>,
        body: &mut dyn FnMut(&mut Self, IntValue<'ctx>) -> Result<()>,
    ) -> Result<()> {
        self.counted_loop(start, end, step, Latch::BeforeAdd, body)
    }

    fn counted_loop(
        &mut self,
        start: IntValue<'ctx>,
        end: IntValue<'ctx>,
        step: IntValue<'ctx>,
        latch: Latch<'ctx>,
        body: &mut dyn FnMut(&mut Self, IntValue<'ctx>) -> Result<()>,
    ) -> Result<()> {
        let context = self.cx.context;
        let counter = self.alloca(context.i32_type().into(), "i")?;
        self.b.build_store(counter, start)?;
        let limit = match latch {
            Latch::BeforeAdd => Some(self.limit_before_add(end, step)?),
            Latch::Unsigned { .. } => Some(self.unsigned_limit_before_add(end, step)?),
            Latch::AfterAdd => None,
        };
        let head = context.append_basic_block(self.function, "loop");
        let exit = context.append_basic_block(self.function, "endloop");
        let any = match latch {
            Latch::Unsigned { nonempty } => {
                let below = self
                    .b
                    .build_int_compare(IntPredicate::ULT, start, end, "more")?;
                self.b.build_and(nonempty, below, "more")?
            }
            Latch::BeforeAdd | Latch::AfterAdd => {
                self.b
                    .build_int_compare(IntPredicate::SLT, start, end, "more")?
            }
        };
        self.b.build_conditional_branch(any, head, exit)?;
        self.b.position_at_end(head);
        let i = self
            .b
            .build_load(context.i32_type(), counter, "i")?
            .into_int_value();
        if let Latch::AfterAdd = latch {
            self.assume_natural(i)?;
        }
        body(self, i)?;
        if !self.terminated() {
            let more = match (limit, latch) {
                (Some(limit), Latch::Unsigned { .. }) => {
                    // Poison only where the loop ends (`i >=u limit`), and then unused.
                    let next = self.b.build_int_nuw_add(i, step, "next")?;
                    self.b.build_store(counter, next)?;
                    self.b
                        .build_int_compare(IntPredicate::ULT, i, limit, "more")?
                }
                (Some(limit), _) => {
                    // Poison only where the loop ends (`i >= limit`), and then unused.
                    let next = self.b.build_int_nsw_add(i, step, "next")?;
                    self.b.build_store(counter, next)?;
                    self.b
                        .build_int_compare(IntPredicate::SLT, i, limit, "more")?
                }
                (None, _) => {
                    let next = self.b.build_int_nuw_add(i, step, "next")?;
                    self.b.build_store(counter, next)?;
                    self.b
                        .build_int_compare(IntPredicate::ULT, next, end, "more")?
                }
            };
            self.b.build_conditional_branch(more, head, exit)?;
        }
        self.b.position_at_end(exit);
        Ok(())
    }

    /// Tells the optimiser that the counter `i` of an [`Latch::AfterAdd`] loop is `>= 0` (true:
    /// it starts there and only grows while below `end`). With `nsw` it proved this itself; the
    /// `nuw` sum does not say it, and without it the body's indices stay `sext`, the counter is
    /// not widened to 64 bits and the loop recomputes its addresses (mul-matr-vec: 28 registers
    /// instead of 21). The assumption makes them `zext nneg`, and costs no instruction.
    fn assume_natural(&self, i: IntValue<'ctx>) -> Result<()> {
        let natural = self
            .b
            .build_int_compare(IntPredicate::SGE, i, self.i32(0), "natural")?;
        self.b
            .build_call(self.intrinsic(Intrinsic::Assume), &[natural.into()], "")?;
        Ok(())
    }

    /// `end - step`, computed as `max(end, i32::MIN + step) - step` so that it cannot wrap.
    fn limit_before_add(
        &self,
        end: IntValue<'ctx>,
        step: IntValue<'ctx>,
    ) -> Result<IntValue<'ctx>> {
        let lowest = self
            .b
            .build_int_add(self.i32(i64::from(i32::MIN)), step, "")?;
        let end_clamped = self.smax(end, lowest)?;
        Ok(self.b.build_int_sub(end_clamped, step, "limit")?)
    }

    /// `end - step` for `end` read unsigned, `0` where that would wrap: `end <=u step` leaves no
    /// `i` with `i + step <u end`, and `i <u 0` ends the loop there as it must.
    fn unsigned_limit_before_add(
        &self,
        end: IntValue<'ctx>,
        step: IntValue<'ctx>,
    ) -> Result<IntValue<'ctx>> {
        let room = self
            .b
            .build_int_compare(IntPredicate::UGT, end, step, "room")?;
        let difference = self.b.build_int_sub(end, step, "")?;
        Ok(self
            .b
            .build_select(room, difference, self.i32(0), "limit")?
            .into_int_value())
    }

    /// Runs `body(k)` for the elements `k = tid, tid + BLOCKSIZE, ... < n` of a block vector: each
    /// thread handles the elements it owns. The body is thread-divergent code.
    ///
    /// The latch adds first and compares the sum, unsigned, with `n` (`tid >= 0`). Exact at every
    /// size: the loop runs only while `0 <= k < n`, so `n <= i32::MAX` and `k <= 2^31 - 2`; with
    /// `0 < BLOCKSIZE < 2^31`, `k + BLOCKSIZE <= 2^32 - 3` cannot wrap as an unsigned 32-bit sum
    /// (`nuw`), and `k + BLOCKSIZE <u n` is the true `k + BLOCKSIZE < n`, also where the sum
    /// passes `i32::MAX`. It is not `nsw` there, and is not marked so. Why: the limit
    /// `n - BLOCKSIZE` of the other latch lives in a register across the loop, while `n` is
    /// usually a kernel parameter that the compare reads from constant memory (mul-matr-vec: one
    /// register fewer, bench/results/static-2026-12-07.md).
    pub fn block_stride_loop(
        &mut self,
        n: IntValue<'ctx>,
        span: Span,
        body: &mut dyn FnMut(&mut Self, IntValue<'ctx>) -> Result<()>,
    ) -> Result<()> {
        self.block_stride_loop_with(n, Latch::AfterAdd, span, body)
    }

    /// [`Self::block_stride_loop`] over a count `n` read unsigned, up to `2^32 - 1`, where
    /// `nonempty` holds (a distributed `for` over `range(lo, hi)`: `n = hi - lo`, wrapped, when
    /// `hi > lo`): `body(k)` for `k = tid, tid + BLOCKSIZE, ... <u n`; `k` may pass `i32::MAX`.
    /// The latch tests `k <u n - BLOCKSIZE` before it adds, so that the unsigned sum cannot
    /// wrap; `nonempty` is tested on entry only, so that where `n` is a constant after
    /// simplification (`range(B * BLOCKSIZE, (B + 1) * BLOCKSIZE)`: `BLOCKSIZE`) the limit is
    /// one too, and the kernel verifier bounds each thread's iterations by it.
    pub fn unsigned_block_stride_loop(
        &mut self,
        nonempty: IntValue<'ctx>,
        n: IntValue<'ctx>,
        span: Span,
        body: &mut dyn FnMut(&mut Self, IntValue<'ctx>) -> Result<()>,
    ) -> Result<()> {
        self.block_stride_loop_with(n, Latch::Unsigned { nonempty }, span, body)
    }

    /// `body(k)` for `k = tid, tid + BLOCKSIZE, ...` up to `n`, as `latch` tests it: divergent
    /// code, each thread on the elements it owns.
    fn block_stride_loop_with(
        &mut self,
        n: IntValue<'ctx>,
        latch: Latch<'ctx>,
        span: Span,
        body: &mut dyn FnMut(&mut Self, IntValue<'ctx>) -> Result<()>,
    ) -> Result<()> {
        let block_size = self.block_size(span)?;
        let tid = self.tid()?;
        self.lane_depth += 1;
        let step = self.i32(block_size as i64);
        let result = self.counted_loop(tid, n, step, latch, body);
        self.lane_depth -= 1;
        result
    }

    /// Runs `body` on thread 0 only: a uniform statement's side effect happens once per block.
    pub fn once_per_block(&mut self, body: &mut dyn FnMut(&mut Self) -> Result<()>) -> Result<()> {
        let tid = self.tid()?;
        let first = self
            .b
            .build_int_compare(IntPredicate::EQ, tid, self.i32(0), "leader")?;
        self.lane_depth += 1;
        let result = self.build_if(first, body);
        self.lane_depth -= 1;
        result
    }

    pub fn smin(&self, a: IntValue<'ctx>, b: IntValue<'ctx>) -> Result<IntValue<'ctx>> {
        let lt = self.b.build_int_compare(IntPredicate::SLT, a, b, "")?;
        Ok(self.b.build_select(lt, a, b, "min")?.into_int_value())
    }

    pub fn smax(&self, a: IntValue<'ctx>, b: IntValue<'ctx>) -> Result<IntValue<'ctx>> {
        let gt = self.b.build_int_compare(IntPredicate::SGT, a, b, "")?;
        Ok(self.b.build_select(gt, a, b, "max")?.into_int_value())
    }

    /// `ceil(a / b)` for `a >= 0`, `b > 0`.
    pub fn ceil_div(&self, a: IntValue<'ctx>, b: IntValue<'ctx>) -> Result<IntValue<'ctx>> {
        let bm1 = self.b.build_int_sub(b, self.i32(1), "")?;
        let sum = self.b.build_int_add(a, bm1, "")?;
        Ok(self.b.build_int_signed_div(sum, b, "ceil")?)
    }

    /// Runs `then` only where `cond` holds: directly when `cond` is the constant true, not at all
    /// when it is the constant false, else in a branch (thread-divergent code).
    pub fn when(
        &mut self,
        cond: IntValue<'ctx>,
        then: &mut dyn FnMut(&mut Self) -> Result<()>,
    ) -> Result<()> {
        match cond.get_zero_extended_constant() {
            Some(1) => then(self),
            Some(_) => Ok(()),
            None => {
                self.lane_depth += 1;
                let result = self.build_if(cond, then);
                self.lane_depth -= 1;
                result
            }
        }
    }

    /// `cond ? then() : otherwise`, with `then` computed only where `cond` holds (it may be a
    /// `func` call that must not see another lane's garbage).
    pub fn value_when(
        &mut self,
        cond: IntValue<'ctx>,
        otherwise: BasicValueEnum<'ctx>,
        then: &mut dyn FnMut(&mut Self) -> Result<BasicValueEnum<'ctx>>,
    ) -> Result<BasicValueEnum<'ctx>> {
        match cond.get_zero_extended_constant() {
            Some(1) => return then(self),
            Some(_) => return Ok(otherwise),
            None => {}
        }
        let context = self.cx.context;
        let before = self.current_block()?;
        let then_bb = context.append_basic_block(self.function, "then");
        let join = context.append_basic_block(self.function, "endif");
        self.b.build_conditional_branch(cond, then_bb, join)?;
        self.b.position_at_end(then_bb);
        self.lane_depth += 1;
        let result = then(self);
        self.lane_depth -= 1;
        let v = result?;
        let then_end = self.current_block()?;
        self.b.build_unconditional_branch(join)?;
        self.b.position_at_end(join);
        let phi = self.b.build_phi(otherwise.get_type(), "when")?;
        phi.add_incoming(&[(&otherwise, before), (&v, then_end)]);
        Ok(phi.as_basic_value())
    }

    pub fn current_block(&self) -> Result<BasicBlock<'ctx>> {
        self.b
            .get_insert_block()
            .ok_or_else(|| CodegenError::Internal {
                message: "the builder has no block".into(),
                span: None,
            })
    }

    /// An `i1` constant.
    pub fn bool_const(&self, v: bool) -> IntValue<'ctx> {
        self.cx.context.bool_type().const_int(v as u64, false)
    }

    /// A private array of `count` values of `ty`, in the entry block (promoted to registers when
    /// every index is a constant).
    pub fn alloca_array(
        &self,
        ty: BasicTypeEnum<'ctx>,
        count: u32,
        name: &str,
    ) -> Result<PointerValue<'ctx>> {
        self.alloca(ty.array_type(count.max(1)).as_basic_type_enum(), name)
    }

    /// The address of slot `slot` of a private array made by [`Body::alloca_array`].
    pub fn slot_ptr(
        &self,
        ptr: PointerValue<'ctx>,
        ty: BasicTypeEnum<'ctx>,
        count: u32,
        slot: u32,
    ) -> Result<PointerValue<'ctx>> {
        let array_ty = ty.array_type(count.max(1));
        // SAFETY: slot < count, checked by the callers' loops over the slots.
        Ok(unsafe {
            self.b.build_in_bounds_gep(
                array_ty,
                ptr,
                &[self.i32(0), self.i32(slot as i64)],
                "slot",
            )?
        })
    }
}
