//! The kernel IR: what one block of a kernel does, at block level, between the checker and LLVM.
//!
//! A kernel is a tree of block-level statements ([`Stmt`]): uniform scalar work, stores made
//! once per block, vector stages (a block vector's elements computed and stored, reduced or
//! scanned: fused, walked by a sweep), control flow and loops. Element computations stay the
//! checked AST's expressions, named by their `ExprId`; everything code generation must decide
//! about them is a field here, filled by a pass of [`PASSES`] and printed by `--emit=kir` and
//! `--print-after=PASS`, so each decision can be read and tested without LLVM.
//!
//! The passes, in order (the pass registry, `src/target/passes.rs`, lists them with LOOM's
//! LLVM-level passes; the driver runs them from here):
//! - `kir-lower`: the checked program to kernel IR (structure only, nothing decided);
//! - `kir-written-arrays`: which array parameters a kernel may write (only the others may be
//!   `noalias`: threads communicate through a written array across barriers);
//! - `kir-register-vectors`: which vector variables live in registers;
//! - `kir-recomputed-vectors`: which vector variables (of run-time length) are evaluated again
//!   at each use;
//! - `kir-grid`: whether a kernel runs on a two-dimensional grid (`B` and `BLOCKS` are then
//!   computed over both of its dimensions);
//! - `kir-indexed-copies`: which computed vectors a kernel indexes, each stored into a `shared`
//!   array before its statement;
//! - `kir-sweeps`: how each consumer of a block vector walks its positions (unrolled slots, a
//!   block-stride loop, tiles), how each reduction combines, which statements compute mixed
//!   scans ahead; reports the statements that would need a run-time number of registers
//!   (`E0811`);
//! - `kir-collectives`: how each reduction and scan is expanded at the block size (the warp's
//!   lanes and shuffle mask, the shuffle tree, the shared partials and their barrier, a
//!   reduction's start from its function's identity), and its steps in the order code
//!   generation emits them (each shuffle's offset and lane test, which lane stores the
//!   partials, which lanes load them, the broadcasts, a scan's carry);
//! - `kir-guards`: which checked reads of a consumer's vector share one bounds test;
//! - `kir-accesses`: which vector stores read their own target at other positions and must
//!   compute every element before storing any (`buffered`), with `E0811` where that needs a
//!   run-time number of registers;
//! - `kir-distribute`: which `for` loops run their iterations on the block's threads (the
//!   dependence tests: GCD and Banerjee), each rewritten into a [`Stmt::DistributedFor`]; the
//!   others keep their reason to stay sequential;
//! - `kir-barriers`: where the kernel needs barriers and why, and the barriers the rule asks
//!   for that it removes (R0802);
//! - `kir-shared-memory`: every array a kernel keeps in shared memory (the collectives' scratch
//!   buffers included) and its size, which the driver checks against the target (`E0812`).
//!
//! Code generation reads the written arrays, the register vectors, the scatters, the sweeps,
//! the collectives' expansion, the merged guards, the buffered stores, the distributed loops and
//! the barriers from here; `docs/kernel-ir.md` says what it still decides while it emits.

pub mod access;
pub mod access_log;
mod accesses;
pub mod affine;
mod atomic;
mod barriers;
mod collectives;
pub mod commute;
mod consumers;
pub mod distribute;
mod func_reads;
mod grid;
mod guards;
mod indexed_copies;
mod lower;
mod print;
mod recomputed_vectors;
mod register_vectors;
pub mod removed_barriers;
mod shared_memory;
mod stage;
mod sweeps;
mod written_arrays;

use crate::check::types::Len;
use crate::check::{AtomicOp, Checked};
use crate::diagnostics::Diagnostic;
use crate::syntax::ast::{CollectiveOp, Expr, ExprId};
use crate::syntax::span::Span;
use std::collections::{BTreeMap, BTreeSet};

pub use accesses::assigned_names;
pub use barriers::{arrays_touched, TILE_BARRIER};
pub use print::print;
pub use recomputed_vectors::substitute as substitute_recomputed_vectors;

/// An element-level or uniform computation: the checked AST's expression, by id, and where it
/// stands in the source (the printed form quotes it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExprRef {
    pub id: ExprId,
    pub span: Span,
}

impl ExprRef {
    pub fn of(e: &Expr) -> ExprRef {
        ExprRef {
            id: e.id,
            span: e.span,
        }
    }
}

/// The kernel IR of a program: one entry per kernel, in source order.
#[derive(Debug, Clone, Default)]
pub struct Module {
    pub kernels: Vec<Kernel>,
    /// Code generation contracts a uniform `c + a * b` of `Float32` or `Float64` into one fused
    /// multiply-add (`--fast-math`), computing `a` and `b` before `c`: the order of the element
    /// reads inside them, which `kir-barriers` follows.
    pub fast_math: bool,
}

impl Module {
    /// The kernel IR of the kernel declared as item `item`.
    pub fn kernel(&self, item: usize) -> Option<&Kernel> {
        self.kernels.iter().find(|k| k.item == item)
    }
}

#[derive(Debug, Clone)]
pub struct Kernel {
    pub name: String,
    /// Index in `Checked::program.items`.
    pub item: usize,
    pub span: Span,
    pub block_size: u32,
    /// The rows of the block's shape: `R` for `@blocksize(R, C)` (`block_size = R * C`), 1 for
    /// a one-dimensional block.
    pub block_rows: u32,
    /// `kir-grid`: whether the kernel runs on a two-dimensional grid; `None` until the pass ran.
    pub grid_2d: Option<bool>,
    pub params: Vec<Param>,
    pub body: Vec<Stmt>,
    /// `kir-register-vectors`: the vector variables that live in registers, by the span of
    /// their name; `None` until the pass ran.
    pub register_vectors: Option<BTreeSet<Span>>,
    /// `kir-recomputed-vectors`: the vector variables of run-time length, evaluated again at
    /// each use, by the span of their name; `None` until the pass ran.
    pub recomputed_vectors: Option<BTreeSet<Span>>,
    /// `kir-indexed-copies`: the computed vectors the kernel indexes, stored into `shared`
    /// arrays before their statements, by their spans; `None` until the pass ran.
    pub indexed_copies: Option<BTreeSet<Span>>,
    /// `kir-sweeps`: how each consumer of a block vector walks its positions; `None` until the
    /// pass ran.
    pub sweeps: Option<BTreeMap<Consumer, SweepPlan>>,
    /// `kir-collectives`: how each reduction and scan is expanded, by the collective's span;
    /// `None` until the pass ran.
    pub collectives: Option<BTreeMap<Span, CollectivePlan>>,
    /// `kir-guards`: the consumers' vectors whose checked reads share one bounds test, by the
    /// vector's span; `None` until the pass ran.
    pub merged_guards: Option<BTreeMap<Span, MergedGuard>>,
    /// `kir-accesses`: the vector stores into memory whose right side (or vector subscripts)
    /// reads their own target, by the statement's span, and whether they must buffer; `None`
    /// until the pass ran. A store that is not here does not read its target.
    pub store_orders: Option<BTreeMap<Span, StoreOrder>>,
    /// `kir-barriers`: the barriers the kernel needs and the places where one is not needed,
    /// in program order, or the first statement the pass does not cover; `None` until the pass
    /// ran.
    pub barriers: Option<Barriers>,
    /// `kir-shared-memory`: every array the kernel keeps in shared memory, the collectives'
    /// scratch buffers included, in program order; `None` until the pass ran.
    pub shared_arrays: Option<Vec<SharedArray>>,
    /// What the passes found the kernel cannot be compiled with (E0811), reported by the driver
    /// before code generation.
    pub limits: Vec<Limit>,
}

/// A consumer of a block vector, by the span code generation knows it by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Consumer {
    /// A vector assignment (a scatter, a grid-wide scan's statement over its chunk) or a vector
    /// variable's initializer: the statement's span.
    Store(Span),
    /// The `shared` copy of an indexed computed vector (`kir-indexed-copies`): the vector's span.
    Copy(Span),
    /// A reduction `f /. v` (a grid-wide statement's: the aggregate of its chunk): its span.
    Reduce(Span),
    /// A per-element atomic: the statement's span.
    Atomic(Span),
}

impl Consumer {
    pub fn span(self) -> Span {
        match self {
            Consumer::Store(s) | Consumer::Copy(s) | Consumer::Reduce(s) | Consumer::Atomic(s) => s,
        }
    }
}

/// How a consumer walks the positions of a block vector (`kir/sweeps.rs` says when each).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sweep {
    /// Straight-line code, one copy per slot `s` (`k = t + s * BLOCKSIZE`).
    Unrolled { slots: u32 },
    /// A block-stride loop: each thread runs only its valid positions.
    Stride,
    /// A loop over tiles of `BLOCKSIZE` positions that every thread runs the same number of
    /// times.
    Tiles,
}

/// How a reduction combines its elements.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Combine {
    /// Each thread folds the elements it owns, then the threads' results are combined in order
    /// (a commutative function, or at most one element per thread).
    PerThread,
    /// Each tile combined by the whole block, the tiles' results folded in order.
    ByTiles,
}

/// `kir-sweeps`' decision for one consumer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SweepPlan {
    pub sweep: Sweep,
    /// Why this sweep, in a few words (printed).
    pub why: &'static str,
    /// For a reduction: how it combines.
    pub combine: Option<Combine>,
    /// A left and a right scan over more than one tile, computed ahead into this many slots
    /// per thread before the consumer's sweep.
    pub scans_ahead: Option<u32>,
    /// For a store: the unrolled slots per thread if it must compute every element before it
    /// stores any (it reads its own target at other positions); `Some(None)` when that would need
    /// a run-time number of registers.
    pub buffer: Option<Option<u32>>,
}

/// `kir-collectives`' decision for one reduction or scan (`kir/collectives.rs` says why each).
#[derive(Debug, Clone, PartialEq)]
pub struct CollectivePlan {
    pub op: CollectiveOp,
    /// Lanes per warp: 32, or `BLOCKSIZE` when that is smaller.
    pub width: u32,
    /// Warps per block.
    pub warps: u32,
    /// The `membermask` of every shuffle: exactly the warp's lanes.
    pub mask: u32,
    /// Slots of the shared array the warps' results go through, with one barrier per fold: one
    /// per warp, two where the tiles of an unrolled sweep alternate between two halves (no
    /// barrier between one tile's reads and the next one's writes); `None` for a block of one
    /// warp.
    pub partials: Option<u32>,
    /// How a reduction's threads start their fold; `None` for a scan, except a grid-wide scan's,
    /// whose aggregate reduces its chunk.
    pub start: Option<Start>,
    /// The expansion, in the order code generation emits it: a reduction's fold of the block's
    /// values (once, or per tile), or a scan's per tile; one list per count of the threads that
    /// hold a value (and, for a scan, whether it covers one tile), for every count the
    /// collective's sweeps give it.
    pub steps: Vec<CollectiveSteps>,
    /// A grid-wide scan's reduction of its chunk (its aggregate); empty otherwise.
    pub aggregate: Vec<CollectiveSteps>,
}

/// The steps of a collective for the tiles in which `count` of the block's first threads hold a
/// value (`kir/collectives.rs`).
#[derive(Debug, Clone, PartialEq)]
pub struct CollectiveSteps {
    /// How many of the block's threads hold a value in such a tile.
    pub count: Count,
    /// How many lanes of each warp hold one (`Known` where every warp holds as many).
    pub lanes: Count,
    /// How many warps hold one.
    pub warps: Count,
    /// Whether the sweep that computes the collective has one tile or several (a scan over one
    /// tile stops before its total: nothing to carry).
    pub tiles: Tiles,
    pub steps: Vec<Step>,
}

/// A number of threads, lanes or warps, as far as it is known when compiled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Count {
    Known(u32),
    /// Only known when the kernel runs: code generation computes it from the vector's length.
    RunTime,
}

/// How many tiles of `BLOCKSIZE` positions the sweep that computes a collective visits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Tiles {
    /// One (an unrolled sweep of one slot, a reduction's fold per thread).
    One,
    /// Any number (an unrolled sweep of several slots, a loop over tiles).
    Several,
}

/// One step of a collective's expansion (`kir/collectives.rs`). Code generation emits each as it
/// says: the offsets, the lanes that take part, the slots, the lanes read from and each
/// shuffle's clamp are here; the counts a lane test compares with are the [`CollectiveSteps`]'.
///
/// `f` is always given its operands in the vector's order: a value from a higher lane, a later
/// warp or a later tile (`Direction::Down`) is its second operand, from a lower (`Up`) its first.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Step {
    /// `shfl.sync.down` (`.up`) of `values` by `offset`, with `c` operand `clamp`: each lane that
    /// passes `test` combines its value with the one it receives.
    Shuffle {
        values: Values,
        direction: Direction,
        offset: u32,
        test: LaneTest,
        clamp: u32,
    },
    /// In each warp that holds a value, one lane stores the warp's value into the warp's slot
    /// of the partials, `partials[parity * warps + warp]` (`parity`: the tile's, 0 for one pass).
    StorePartial(Writer),
    /// The collective's barrier: the partials are written before any is read.
    Barrier,
    /// Each lane below the number of warps that hold a value loads
    /// `partials[parity * warps + (lane & mask)]` (the mask keeps the index in the buffer
    /// plainly); the other lanes hold zero.
    LoadPartials { mask: u32 },
    /// A scan: each lane that holds a value combines the fold of the warps before it (`Up`) or
    /// after it (`Down`): `shfl.sync.idx` (with `c` operand `clamp`) of the scanned partials from
    /// lane `warp - 1` (`warp + 1`), where that warp exists.
    NeighbourWarps { direction: Direction, clamp: u32 },
    /// `shfl.sync.idx` of `values` from lane `from`, with `c` operand `clamp`: a reduction's
    /// uniform result, or a scan's tile total (for the carry; a scan over one tile has none).
    Broadcast {
        values: Values,
        from: Source,
        clamp: u32,
    },
    /// A scan: the fold of the tiles visited before (earlier ones `Up`, later ones `Down`) is
    /// combined into every value, and the tile's total into the carry. `from`: `f`'s identity,
    /// which the carry holds before the first tile (every tile then combines it, with no test);
    /// `None` where `f` has none known: the first tile takes no carry.
    Carry {
        direction: Direction,
        from: Option<Identity>,
    },
}

/// The values a shuffle moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Values {
    /// Each lane's own: a warp's elements, [`CollectiveSteps::lanes`] of them in the first lanes.
    Lanes,
    /// The partials loaded back: one per warp that holds a value ([`CollectiveSteps::warps`]),
    /// in the first lanes.
    Partials,
}

/// Which way values travel: `Down` from higher lanes (later elements), `Up` from lower ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Down,
    Up,
}

/// Which lanes combine at a shuffle step (`count`: the lanes, or warps, that hold a value:
/// [`Values`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LaneTest {
    /// Every lane: all hold a value (or are known to, when compiled).
    Every,
    /// `lane + offset < count`: the lane it receives from holds a value.
    PartnerHolds,
    /// `lane >= offset`: there is a lane below to receive from.
    PartnerBelow,
}

/// Which lane of a warp stores the warp's value into the partials.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Writer {
    /// This lane, which holds the warp's value.
    Lane(u32),
    /// The last lane that holds a value holds the warp's, and the warp may not be full: lane 0
    /// stores it, after `shfl.sync.idx` (with `c` operand `clamp`) from lane
    /// `(count - 1) & (width - 1)`.
    LastHolder { clamp: u32 },
}

/// The lane a broadcast reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    Lane(u32),
    /// The last that holds a value: `count - 1`.
    Last,
}

impl CollectivePlan {
    /// The offsets of the warp's shuffle tree: 1, 2, 4, ... below the width.
    pub fn tree_offsets(&self) -> impl Iterator<Item = u32> {
        let width = self.width;
        (0..u32::BITS)
            .map(|i| 1u32 << i)
            .take_while(move |offset| *offset < width)
    }
}

/// How the threads of a reduction start their fold.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Start {
    /// Every thread starts from `f`'s identity (a block-stride loop): every lane holds a value,
    /// and the shuffle trees test no lanes.
    Identity(Identity),
    /// A thread's first element starts its fold; the trees combine only the lanes that hold one.
    FirstElement,
    /// Each tile is combined by the whole block and the tiles' results are folded in order.
    ByTiles,
}

/// A reduction function's identity, as the constant of the element type.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Identity {
    Float(f64),
    /// An integer of `bits` bits: its bit pattern.
    Int {
        bits: u32,
        value: u64,
    },
}

/// Checked reads `a[[r]]` of one vector that share one test of the element index (`kir-guards`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MergedGuard {
    /// The `Range` variable every read's subscript is.
    pub range: String,
    /// The reads, in the order code generation finds them.
    pub reads: Vec<Span>,
}

/// How a vector store that reads its own target orders its reads and writes (`kir-accesses`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreOrder {
    /// Every read of the target is by the owner of the element, at the write's own offset:
    /// each thread reads only what it overwrites itself, so elements are stored as they are
    /// computed.
    InPlace { array: String, reads: Vec<Span> },
    /// `read` reads the target at other positions (or from other threads) than the store
    /// writes: every element is computed into registers before any is stored.
    Buffered { array: String, read: Span },
}

/// `kir-barriers`' result for one kernel.
#[derive(Debug, Clone)]
pub enum Barriers {
    /// Every statement covered: the barriers (and where none is needed), in program order; and
    /// the barriers the rule asks for after a statement that writes memory that no later access
    /// needs, removed (R0802), in the order code generation removes them; and where code
    /// generation meets each decision while it emits the kernel.
    Placed(Vec<Barrier>, Vec<removed_barriers::Removed>, Emission),
    /// The first statement the pass does not cover (`what`): code generation reports an
    /// internal error (no checked program is known to reach one).
    NotCovered { span: Span, what: &'static str },
}

/// Where code generation, emitting a covered kernel in order (both branches of an `if` in
/// order, a loop body once), meets `kir-barriers`' decisions: the places a barrier may go, and
/// the barrier whose remark each removed one (R0802) follows.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Emission {
    /// Every place a barrier may go, in emission order: a [`Barrier`]'s `point` is its ordinal.
    pub points: Vec<Point>,
    /// For each removed barrier: the ordinal, among the barriers placed (the collectives'
    /// included, in order), of the one whose placement removed it; their number for those
    /// removed at the kernel's end.
    pub removed_at: Vec<usize>,
}

/// A place where a barrier may go, as code generation reaches it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Point {
    /// In front of accesses announced together (`codegen::Body::touch`), or where a
    /// statement's accesses would be announced and it makes none: code generation reaches the
    /// place by the statement's structure, and the IR, which knows the accesses, decides.
    Touch,
    /// In front of a sequential loop (`codegen::Body::barrier_before_loop`).
    LoopHead,
    /// At the end of a sequential loop's body (`codegen::Body::loop_back_barrier`).
    LoopEnd,
}

/// A barrier `kir-barriers` places, or a place where accesses meet without needing one.
#[derive(Debug, Clone)]
pub struct Barrier {
    /// Before this access (for a loop: the loop statement, in front of it or at the end of its
    /// body).
    pub at: Span,
    /// False: `earlier` and `later` touch one array, at least one writing, but never one element
    /// from two threads.
    pub needed: bool,
    /// At the end of a loop body, between one iteration and the next.
    pub loop_end: bool,
    pub earlier: access::Access,
    pub later: access::Access,
    /// A barrier inside a collective (`a reduction`, `a scan`: code generation's R0803), at the
    /// collective: its warps' partial results meet in its scratch buffer, `earlier` the
    /// partials' write and `later` their read.
    pub collective: Option<&'static str>,
    /// The ordinal of the place it stands at ([`Emission::points`]); none for a collective's.
    pub point: Option<usize>,
}

/// One array in a kernel's shared memory (`kir-shared-memory`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SharedArray {
    /// The user's name, or what the compiler made it for (`reduce.partials`, `indexed`, ...).
    pub name: String,
    /// The declaration, or the collective, copy or statement it is for.
    pub span: Span,
    pub bytes: u64,
}

impl Kernel {
    /// The kernel's static shared memory per block, in bytes: each array aligned to 16 bytes.
    pub fn shared_bytes(&self) -> u64 {
        self.shared_arrays
            .iter()
            .flatten()
            .map(|a| a.bytes.div_ceil(16).saturating_mul(16))
            .fold(0u64, u64::saturating_add)
    }
}

/// Something a kernel-IR pass found that no code can be generated for.
#[derive(Debug, Clone)]
pub enum Limit {
    /// `E0811`: `what` ("a statement with both a left and a right scan ...") needs a length
    /// known at compile time; `why` says what is sized when the kernel is compiled.
    NeedsStaticLength {
        what: &'static str,
        why: &'static str,
        span: Span,
    },
    /// A case an earlier pass should have ruled out: an internal error.
    Internal { why: &'static str, span: Span },
}

/// A `shared` array, vector variable or scan whose length is not known at compile time.
pub const NEEDS_STATIC_LENGTH: &str = "E0811";

impl Limit {
    pub fn diagnostic(&self) -> Diagnostic {
        match *self {
            Limit::NeedsStaticLength { what, why, span } => Diagnostic::error(
                NEEDS_STATIC_LENGTH,
                format!("{what} needs a length known at compile time"),
            )
            .primary(
                span,
                "its length depends on run-time values, or is more than 64 elements per thread",
            )
            .note(why)
            .help(
                "use a length made of literals and `BLOCKSIZE`, or store the values to a global array",
            ),
            Limit::Internal { why, span } => Diagnostic::error(
                crate::diagnostics::INTERNAL_ERROR,
                format!("internal error in the kernel IR: {why}"),
            )
            .primary(span, "while compiling this")
            .note("this is a bug in loomc; please report it with the program that triggered it"),
        }
    }
}

impl Module {
    /// The limits every kernel's passes found, as diagnostics.
    pub fn limits(&self) -> Vec<Diagnostic> {
        self.kernels
            .iter()
            .flat_map(|k| k.limits.iter().map(Limit::diagnostic))
            .collect()
    }
}

#[derive(Debug, Clone)]
pub struct Param {
    pub name: String,
    pub span: Span,
    /// The type as written.
    pub ty_span: Span,
    pub array: bool,
    /// `kir-written-arrays`, for array parameters: whether the kernel may write it.
    pub written: Option<bool>,
    /// For a scratch array loomc added (`check/scratch_rows.rs`): its type, which no source
    /// shows (`Float32[BLOCKS, cols - lo]`).
    pub scratch: Option<String>,
}

/// A block-level statement. Every thread of the block runs it, with the same values.
#[derive(Debug, Clone)]
pub enum Stmt {
    /// A uniform scalar, record or Range variable: `x: T <- e`.
    Scalar {
        name: String,
        init: Option<ExprRef>,
        span: Span,
    },
    /// A block vector variable (`x: T[] <- v`, `shared x: T[n]`): registers or shared memory.
    Vector {
        name: String,
        name_span: Span,
        shared: bool,
        len: Len,
        init: Option<Stage>,
        span: Span,
    },
    /// `x <- e`, `a[i] <- e`, `r.f <- e` on a uniform value or one element: computed by every
    /// thread, stored once per block (by thread 0) when it goes to memory. Its reductions are
    /// stages of their own.
    Uniform {
        target: String,
        memory: Option<Element>,
        value: ExprRef,
        reductions: Vec<Stage>,
        span: Span,
    },
    /// A vector assignment: every element of the right side, stored by its owner thread.
    VectorStore {
        target: Element,
        stage: Stage,
        span: Span,
    },
    /// A store whose positions are computed element by element (`out[[perm[[r]]]] <- x[[r]]`,
    /// `a[[i, v]] <- e`, a column `a[[r, j]] <- e`): element `k` of the right side goes to the
    /// position its subscripts give at `k`, checked or not. Any thread may write any position,
    /// so barrier placement treats it as a write by any thread; every element of the right side
    /// and of the subscripts is read before any is stored.
    Scatter {
        target: Element,
        subscripts: Vec<Subscript>,
        stage: Stage,
        span: Span,
    },
    If {
        cond: ExprRef,
        then_body: Vec<Stmt>,
        else_body: Vec<Stmt>,
        span: Span,
    },
    /// A sequential loop: every thread runs every iteration.
    For {
        var: String,
        range: ExprRef,
        body: Vec<Stmt>,
        /// `kir-distribute`: why the iterations cannot run on the block's threads (a construct,
        /// or a pair of accesses that may touch one element in two iterations), with what it
        /// names; `None` until the pass ran.
        sequential: Option<distribute::Blocker>,
        span: Span,
    },
    /// A `for` loop `kir-distribute` spread over the block's threads (a [`Stmt::For`] before
    /// it): iteration `lo + t` of `range` runs on thread `t mod stride`, each thread stepping
    /// by `stride` (the block size) up to `hi`; the body is each thread's own code, with no
    /// barrier. `summary` says how many iterations; `evidence`, for each pair of the body's
    /// accesses, the dependence test that proved it independent across iterations; `accesses`,
    /// the body's accesses to arrays (which thread touches which element), which barrier
    /// placement meets at the loop.
    DistributedFor {
        var: String,
        range: ExprRef,
        stride: u32,
        body: Vec<Stmt>,
        summary: String,
        evidence: Vec<String>,
        accesses: Vec<access::Access>,
        span: Span,
    },
    While {
        cond: ExprRef,
        body: Vec<Stmt>,
        span: Span,
    },
    Return {
        span: Span,
    },
    /// A grid-wide reduce or left scan (`total[0] <- f /. grid(v, scratch)`, `y <- f /: grid(v,
    /// scratch)`): the statement `stmt` (a uniform store for a reduce, a vector store or scatter
    /// for a scan) with its positions cut into one chunk per block, in the order of a ticket
    /// each block draws from `scratch`. Every block: draws its ticket (one atomic, thread 0),
    /// reduces its chunk (`aggregate`), publishes the aggregate, looks back over the blocks of
    /// lower tickets for its exclusive prefix, publishes its inclusive prefix, runs `stmt` over
    /// its chunk with the scan's carry starting at the prefix (a reduce: the block with the
    /// last chunk stores the total), and counts itself finished; the last block to finish
    /// zeroes `scratch` for the next launch.
    Grid {
        op: CollectiveOp,
        collective: ExprRef,
        scratch: String,
        aggregate: Stage,
        stmt: Box<Stmt>,
        span: Span,
    },
    /// An atomic read-modify-write (`atomic_add(hist[[v]], 1)`, `base <- atomic_add(c[0], n)`):
    /// with a uniform place and operands, one for the block, made by thread 0 (its old value, if
    /// `old` names a variable, broadcast to every thread); otherwise one per element of
    /// `per_element`, each made by the element's owner. Barrier placement counts it as a read
    /// and a write of any element of the array, which never conflicts with another atomic.
    Atomic {
        op: AtomicOp,
        place: Element,
        call: ExprRef,
        old: Option<String>,
        /// The place's subscripts and the operands, element by element (no read of the place).
        per_element: Option<Stage>,
        /// The reductions in uniform operands, as for [`Stmt::Uniform`].
        reductions: Vec<Stage>,
        span: Span,
    },
}

impl Stmt {
    /// Where the statement stands in the source.
    pub fn span(&self) -> Span {
        match self {
            Stmt::Scalar { span, .. }
            | Stmt::Vector { span, .. }
            | Stmt::Uniform { span, .. }
            | Stmt::VectorStore { span, .. }
            | Stmt::Scatter { span, .. }
            | Stmt::If { span, .. }
            | Stmt::For { span, .. }
            | Stmt::DistributedFor { span, .. }
            | Stmt::While { span, .. }
            | Stmt::Return { span }
            | Stmt::Grid { span, .. }
            | Stmt::Atomic { span, .. } => *span,
        }
    }
}

/// An access to an array's elements.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Element {
    pub array: String,
    /// `a[[i]]`: out-of-bounds reads give zero and writes are dropped.
    pub checked: bool,
    /// The whole array (`x <- v`), not an indexed part of it.
    pub whole: bool,
}

/// One subscript of a [`Stmt::Scatter`]'s target, per dimension.
#[derive(Debug, Clone)]
pub enum Subscript {
    /// The same index at every position (a row of a 2-D array).
    Uniform(ExprRef),
    /// `start + k` at position `k`.
    Range(ExprRef),
    /// Element `k` of a vector of indices: a stage of its own, fused into the store's sweep.
    Vector(Stage),
    /// The rows of a two-dimensional slice `a[r, s]` (a tile of `cols` columns):
    /// `start + k / cols` at position `k`.
    TileRows { range: ExprRef, cols: u64 },
    /// The columns of a two-dimensional slice: `start + k % cols` at position `k`.
    TileCols { range: ExprRef, cols: u64 },
}

/// A fused vector computation: the positions of one block vector, computed element by element
/// and consumed by a store or a reduction.
#[derive(Debug, Clone)]
pub struct Stage {
    /// The vector expression (for a reduction: its operand).
    pub expr: ExprRef,
    /// Its length as the checker knows it.
    pub len: Len,
    /// For a tile (a two-dimensional block vector): its columns; element `k` is
    /// `(k / cols, k % cols)`.
    pub cols: Option<u64>,
    /// The arrays read element by element, in source order.
    pub reads: Vec<Element>,
    /// The collectives of the expression (maps and scans), in source order, and for a
    /// reduction's stage the reduction itself, last.
    pub collectives: Vec<Collective>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Collective {
    pub op: CollectiveOp,
    pub expr: ExprRef,
}

/// One kernel-IR pass: a name in the pass registry and what it does to the module.
pub struct Pass {
    pub name: &'static str,
    pub run: fn(&mut Module, &Checked),
}

/// The passes after `kir-lower`, in the order the driver runs them.
pub const PASSES: &[Pass] = &[
    Pass {
        name: WRITTEN_ARRAYS,
        run: written_arrays::run,
    },
    Pass {
        name: REGISTER_VECTORS,
        run: register_vectors::run,
    },
    Pass {
        name: RECOMPUTED_VECTORS,
        run: recomputed_vectors::run,
    },
    Pass {
        name: GRID,
        run: grid::run,
    },
    Pass {
        name: INDEXED_COPIES,
        run: indexed_copies::run,
    },
    Pass {
        name: SWEEPS,
        run: sweeps::run,
    },
    Pass {
        name: COLLECTIVES,
        run: collectives::run,
    },
    Pass {
        name: GUARDS,
        run: guards::run,
    },
    Pass {
        name: ACCESSES,
        run: accesses::run,
    },
    Pass {
        name: DISTRIBUTE,
        run: distribute::run,
    },
    Pass {
        name: BARRIERS,
        run: barriers::run,
    },
    Pass {
        name: SHARED_MEMORY,
        run: shared_memory::run,
    },
];

pub const LOWER: &str = "kir-lower";
pub const WRITTEN_ARRAYS: &str = "kir-written-arrays";
pub const REGISTER_VECTORS: &str = "kir-register-vectors";
pub const RECOMPUTED_VECTORS: &str = "kir-recomputed-vectors";
pub const GRID: &str = "kir-grid";
pub const INDEXED_COPIES: &str = "kir-indexed-copies";
pub const SWEEPS: &str = "kir-sweeps";
pub const COLLECTIVES: &str = "kir-collectives";
pub const GUARDS: &str = "kir-guards";
pub const ACCESSES: &str = "kir-accesses";
pub const DISTRIBUTE: &str = "kir-distribute";
pub const BARRIERS: &str = "kir-barriers";
pub const SHARED_MEMORY: &str = "kir-shared-memory";

/// `kir-lower`: the kernel IR of every kernel of `checked`, nothing decided yet.
pub fn lower(checked: &Checked) -> Module {
    lower::module(checked)
}

/// Where [`build_observed`] shows the module to its observer: around which pass, and on which
/// side of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Moment {
    Before(&'static str),
    After(&'static str),
}

/// `kir-lower` and every pass after it, without printing: the kernel IR code generation takes
/// (without `--fast-math`).
pub fn build(checked: &Checked) -> Module {
    match build_observed::<std::convert::Infallible>(checked, false, &mut |_, _| Ok(())) {
        Ok(module) => module,
        Err(never) => match never {},
    }
}

/// [`build`], showing the module to `observe` after `kir-lower` and before and after each pass
/// (the driver prints it there, as `--print-before`/`--print-after` ask); stops at its first
/// error.
pub fn build_observed<E>(
    checked: &Checked,
    fast_math: bool,
    observe: &mut dyn FnMut(Moment, &Module) -> Result<(), E>,
) -> Result<Module, E> {
    let mut module = lower(checked);
    module.fast_math = fast_math;
    observe(Moment::After(LOWER), &module)?;
    for pass in PASSES {
        observe(Moment::Before(pass.name), &module)?;
        (pass.run)(&mut module, checked);
        observe(Moment::After(pass.name), &module)?;
    }
    Ok(module)
}

/// Calls `visit` on every statement of `body`, nested ones included, parents first.
pub fn walk_stmts<'k>(body: &'k [Stmt], visit: &mut dyn FnMut(&'k Stmt)) {
    for stmt in body {
        visit(stmt);
        match stmt {
            Stmt::If {
                then_body,
                else_body,
                ..
            } => {
                walk_stmts(then_body, visit);
                walk_stmts(else_body, visit);
            }
            Stmt::For { body, .. }
            | Stmt::DistributedFor { body, .. }
            | Stmt::While { body, .. } => walk_stmts(body, visit),
            Stmt::Grid { stmt, .. } => walk_stmts(std::slice::from_ref(&**stmt), visit),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::target::passes::{Position, LOOM_PASSES};

    /// The pass registry is what `--print-before`/`--print-after` accept and what the driver
    /// runs: its kernel-IR entries must be `kir-lower` and then exactly [`super::PASSES`], in
    /// order.
    #[test]
    fn registry_lists_the_kernel_ir_passes_in_order() {
        let registered: Vec<&str> = LOOM_PASSES
            .iter()
            .filter(|p| p.position == Position::KernelIr)
            .map(|p| p.name)
            .collect();
        let run: Vec<&str> = std::iter::once(super::LOWER)
            .chain(super::PASSES.iter().map(|p| p.name))
            .collect();
        assert_eq!(registered, run);
        // Kernel-IR passes come before every pass over the LLVM module.
        let first_llvm = LOOM_PASSES
            .iter()
            .position(|p| p.position != Position::KernelIr);
        assert_eq!(first_llvm, Some(run.len()));
    }
}
