//! The kernel IR's text form (`--emit=kir`, `--print-after=kir-*`): one line per statement,
//! indented by nesting, element computations quoted from the source, each line ending in its
//! source line and column. Decisions a pass has not made yet print as `?`.
//!
//! ```text
//! kernel saxpy  block_size 256  ; 1:8
//!   param n: Int32
//!   param x: Float32[n]  array read-only
//!   param y: Float32[n]  array written
//!   register-vectors none
//!   vector-store y checked  ; 4:3
//!     stage value `a * x[[r]] + y[[r]]`  len 256  reads x checked, y checked
//! ```

use super::{
    CollectivePlan, CollectiveSteps, Combine, Consumer, Count, Direction, Element, ExprRef,
    Identity, Kernel, LaneTest, Module, Source, Stage, Start, Step, Stmt, Subscript, Sweep,
    SweepPlan, Tiles, Values, Writer,
};
use crate::check::types::Len;
use crate::diagnostics::SourceFiles;
use crate::syntax::ast::CollectiveOp;
use crate::syntax::span::Span;
use std::fmt::Write;

pub fn print(module: &Module, files: &SourceFiles) -> String {
    let mut printer = Printer {
        files,
        out: String::new(),
    };
    for kernel in &module.kernels {
        printer.kernel(kernel);
    }
    printer.out
}

struct Printer<'f> {
    files: &'f SourceFiles,
    out: String,
}

impl Printer<'_> {
    fn line(&mut self, depth: usize, text: &str, span: Option<Span>) {
        let indent = "  ".repeat(depth);
        let _ = match span {
            Some(span) => {
                let (line, col) = self.files.line_col(span.file, span.start);
                writeln!(self.out, "{indent}{text}  ; {line}:{col}")
            }
            None => writeln!(self.out, "{indent}{text}"),
        };
    }

    /// The source text of `span`, on one line.
    /// The first line of [`Self::quote`]'s text (a loop's head, not its body).
    fn quote_head(&self, span: Span) -> String {
        let text = self
            .files
            .source(span.file)
            .get(span.start as usize..span.end as usize)
            .unwrap_or("?");
        let first = text.lines().next().unwrap_or("");
        first.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    fn quote(&self, span: Span) -> String {
        let text = self
            .files
            .source(span.file)
            .get(span.start as usize..span.end as usize)
            .unwrap_or("?");
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    fn expr(&self, e: ExprRef) -> String {
        format!("`{}`", self.quote(e.span))
    }

    fn kernel(&mut self, kernel: &Kernel) {
        let mut header = format!("kernel {}  block_size {}", kernel.name, kernel.block_size);
        if kernel.block_rows > 1 {
            let cols = kernel.block_size / kernel.block_rows;
            let _ = write!(header, "  block {}x{cols}", kernel.block_rows);
        }
        // One-dimensional grids, the usual case, print nothing (`kir-grid`).
        if kernel.grid_2d == Some(true) {
            header.push_str("  grid 2-D");
        }
        self.line(0, &header, Some(kernel.span));
        for param in &kernel.params {
            let ty = match &param.scratch {
                Some(ty) => format!("{ty}  scratch"),
                None => self.quote(param.ty_span),
            };
            let mut text = format!("param {}: {ty}", param.name);
            if param.array {
                text.push_str(match param.written {
                    Some(true) => "  array written",
                    Some(false) => "  array read-only",
                    None => "  array ?",
                });
            }
            self.line(1, &text, None);
        }
        if let Some(registers) = &kernel.register_vectors {
            let names: Vec<String> = registers.iter().map(|s| self.quote(*s)).collect();
            let list = if names.is_empty() {
                "none".to_string()
            } else {
                names.join(", ")
            };
            self.line(1, &format!("register-vectors {list}"), None);
        }
        if let Some(recomputed) = &kernel.recomputed_vectors {
            let names: Vec<String> = recomputed.iter().map(|s| self.quote(*s)).collect();
            let list = if names.is_empty() {
                "none".to_string()
            } else {
                names.join(", ")
            };
            self.line(1, &format!("recomputed-vectors {list}"), None);
        }
        if let Some(copies) = &kernel.indexed_copies {
            let exprs: Vec<String> = copies
                .iter()
                .map(|s| format!("`{}`", self.quote(*s)))
                .collect();
            let list = if exprs.is_empty() {
                "none".to_string()
            } else {
                exprs.join(", ")
            };
            self.line(1, &format!("indexed-copies {list}"), None);
        }
        self.stmts(1, &kernel.body);
        if let Some(sweeps) = &kernel.sweeps {
            // In source order, after the statements they belong to.
            let mut sweeps: Vec<(&Consumer, &SweepPlan)> = sweeps.iter().collect();
            sweeps.sort_by_key(|(c, _)| (c.span().file, c.span().start, c.span().end));
            for (consumer, plan) in sweeps {
                self.sweep(*consumer, plan);
            }
        }
        if let Some(collectives) = &kernel.collectives {
            for (span, plan) in collectives {
                self.collective(*span, plan);
            }
        }
        if let Some(arrays) = &kernel.shared_arrays {
            for array in arrays {
                let text = format!("shared {} {} bytes", array.name, array.bytes);
                self.line(1, &text, Some(array.span));
            }
            let total = format!("shared-memory {} bytes per block", kernel.shared_bytes());
            self.line(1, &total, None);
        }
        if let Some(guards) = &kernel.merged_guards {
            for (value, guard) in guards {
                let reads: Vec<String> = guard
                    .reads
                    .iter()
                    .map(|r| format!("`{}`", self.quote(*r)))
                    .collect();
                let text = format!(
                    "guard `{}` one test of {} for {}",
                    self.quote(*value),
                    guard.range,
                    reads.join(", ")
                );
                self.line(1, &text, Some(*value));
            }
        }
        if let Some(orders) = &kernel.store_orders {
            for (span, order) in orders {
                let text = match order {
                    crate::kir::StoreOrder::InPlace { array, reads } => {
                        let reads: Vec<String> = reads
                            .iter()
                            .map(|r| format!("`{}`", self.quote(*r)))
                            .collect();
                        format!(
                            "store {array} in-place  (reads {} only where it writes)",
                            reads.join(", ")
                        )
                    }
                    crate::kir::StoreOrder::Buffered { array, read } => format!(
                        "store {array} buffered  (`{}` reads it at other positions)",
                        self.quote(*read)
                    ),
                };
                self.line(1, &text, Some(*span));
            }
        }
        // The loops `kir-distribute` kept sequential, with the reason (a distributed one is a
        // statement of its own, `distributed-for`).
        let mut sequential = Vec::new();
        crate::kir::walk_stmts(&kernel.body, &mut |stmt| {
            if let Stmt::For {
                var,
                sequential: Some(blocker),
                span,
                ..
            } = stmt
            {
                sequential.push((var, &blocker.reason, *span));
            }
        });
        for (var, reason, span) in sequential {
            self.line(1, &format!("loop {var} sequential  ({reason})"), Some(span));
        }
        match &kernel.barriers {
            Some(crate::kir::Barriers::NotCovered { span, what }) => {
                let text =
                    format!("barriers not placed  (not covered here: {what}; code generation refuses the kernel)");
                self.line(1, &text, Some(*span));
            }
            Some(crate::kir::Barriers::Placed(barriers, removed, _)) => {
                for b in barriers {
                    let (earlier, later) = (&b.earlier, &b.later);
                    let pair = format!(
                        "the {} ({}) may touch an element the {} ({}) touched",
                        later.what(),
                        later.who.describe(),
                        earlier.what(),
                        earlier.who.describe()
                    );
                    let text = if let Some(what) = b.collective.filter(|_| later.name.is_empty()) {
                        format!("barrier inside `{}`  ({what})", self.quote_head(b.at))
                    } else if let Some(what) = b.collective {
                        format!(
                            "barrier inside `{}`  ({what}: the warps' partial results meet in `{}` here)",
                            self.quote_head(b.at),
                            later.name
                        )
                    } else if !b.needed {
                        format!(
                            "no barrier before `{}`  (the {} ({}) and the {} ({}) never touch one element from two threads)",
                            self.quote_head(b.at),
                            later.what(),
                            later.who.describe(),
                            earlier.what(),
                            earlier.who.describe()
                        )
                    } else if b.loop_end {
                        format!(
                            "barrier at the end of the loop body  (`{}` is shared between iterations: {pair}, from another thread)",
                            later.name
                        )
                    } else {
                        format!(
                            "barrier before `{}`  (`{}` is shared between threads here: {pair}, from another thread)",
                            self.quote_head(b.at),
                            later.name
                        )
                    };
                    self.line(1, &text, Some(b.at));
                }
                for r in removed {
                    self.removed_barrier(r);
                }
            }
            None => {}
        }
        self.out.push('\n');
    }

    /// A barrier the rule asks for after a statement that writes memory, removed (R0802), with
    /// the remark's reason: `barrier after `y[[r]] <- ...` removed  (it writes `y`: nothing
    /// later in the kernel reads or writes it)`.
    fn removed_barrier(&mut self, r: &crate::kir::removed_barriers::Removed) {
        use crate::kir::removed_barriers::RemovedReason;
        let names = r
            .arrays
            .iter()
            .map(|a| format!("`{a}`"))
            .collect::<Vec<_>>()
            .join(", ");
        let why = match &r.reason {
            RemovedReason::SameThread { later } => format!(
                "every later access up to the next barrier is by the thread that wrote the element, first `{}`",
                self.quote_head(*later)
            ),
            RemovedReason::AtomicsOnly { later } => format!(
                "every later access up to the next barrier is an atomic, and atomics do not race with each other, first `{}`",
                self.quote_head(*later)
            ),
            RemovedReason::NoLaterAccess => "nothing later in the kernel reads or writes it".into(),
            RemovedReason::Covered { by } => format!(
                "the barrier placed before `{}` orders these writes",
                self.quote_head(*by)
            ),
        };
        let text = format!(
            "barrier after `{}` removed  (it writes {names}: {why})",
            self.quote_head(r.after)
        );
        self.line(1, &text, Some(r.after));
    }

    /// `kir-sweeps`' decision for one consumer, in source order: `sweep store unrolled 1
    /// buffer 1 (compile-time bound)`.
    fn sweep(&mut self, consumer: Consumer, plan: &SweepPlan) {
        let what = match consumer {
            Consumer::Store(_) => "store".to_string(),
            Consumer::Atomic(_) => "atomic".to_string(),
            Consumer::Copy(span) => format!("copy `{}`", self.quote(span)),
            Consumer::Reduce(span) => format!("reduce `{}`", self.quote(span)),
        };
        let mut text = format!("sweep {what} ");
        match plan.combine {
            Some(Combine::PerThread) => text.push_str("per-thread "),
            Some(Combine::ByTiles) => text.push_str("by-tiles "),
            None => {}
        }
        match plan.sweep {
            Sweep::Unrolled { slots } => {
                let _ = write!(text, "unrolled {slots}");
            }
            Sweep::Stride => text.push_str("stride"),
            Sweep::Tiles => text.push_str("tiles"),
        }
        if let Some(slots) = plan.scans_ahead {
            let _ = write!(text, "  scans-ahead {slots}");
        }
        match plan.buffer {
            Some(Some(slots)) => {
                let _ = write!(text, "  buffer {slots}");
            }
            Some(None) => text.push_str("  buffer none"),
            None => {}
        }
        let _ = write!(text, "  ({})", plan.why);
        self.line(1, &text, Some(consumer.span()));
    }

    /// `kir-collectives`' expansion of one reduction or scan: `collective reduce `sum /. v`
    /// warps 8 x 32 lanes  mask 0xffffffff  tree down 1 2 4 8 16  partials 16 + barrier  start
    /// identity -0.0`.
    fn collective(&mut self, span: Span, plan: &CollectivePlan) {
        let tree: Vec<String> = plan.tree_offsets().map(|o| o.to_string()).collect();
        let direction = match plan.op {
            CollectiveOp::ScanLeft => "up",
            _ => "down",
        };
        let mut text = format!(
            "collective {} `{}`  warps {} x {} lanes  mask {:#x}  tree {direction} {}",
            op_name(plan.op),
            self.quote(span),
            plan.warps,
            plan.width,
            plan.mask,
            if tree.is_empty() {
                "none".to_string()
            } else {
                tree.join(" ")
            },
        );
        match plan.partials {
            Some(slots) => {
                let _ = write!(text, "  partials {slots} + barrier");
            }
            None => text.push_str("  partials none"),
        }
        // A grid-wide scan also reduces its chunk (its aggregate), with a tree down.
        if plan.start.is_some() && plan.op != CollectiveOp::Reduce {
            text.push_str("  aggregate tree down");
        }
        match plan.start {
            Some(Start::Identity(identity)) => {
                let _ = write!(text, "  start identity {}", identity_text(identity));
            }
            Some(Start::FirstElement) => text.push_str("  start first-element"),
            Some(Start::ByTiles) => text.push_str("  start by-tiles"),
            None => {}
        }
        self.line(1, &text, Some(span));
        for steps in &plan.steps {
            self.steps(2, steps);
        }
        if !plan.aggregate.is_empty() {
            self.line(2, "aggregate:", None);
            for steps in &plan.aggregate {
                self.steps(3, steps);
            }
        }
    }

    /// The steps for one count of threads that hold a value: `threads 256, lanes 32, warps 8,
    /// one tile:` (how many of the block's threads, of each warp's lanes, and warps hold one;
    /// `run-time` where only known then), and the steps below it.
    fn steps(&mut self, depth: usize, steps: &CollectiveSteps) {
        let count = |count| match count {
            Count::Known(n) => n.to_string(),
            Count::RunTime => "run-time".to_string(),
        };
        let tiles = match steps.tiles {
            Tiles::One => "one tile",
            Tiles::Several => "several tiles",
        };
        let text = format!(
            "threads {}, lanes {}, warps {}, {tiles}:",
            count(steps.count),
            count(steps.lanes),
            count(steps.warps),
        );
        self.line(depth, &text, None);
        for step in &steps.steps {
            self.line(depth + 1, &step_text(step, steps), None);
        }
    }

    fn stmts(&mut self, depth: usize, stmts: &[Stmt]) {
        for stmt in stmts {
            self.stmt(depth, stmt);
        }
    }

    fn stmt(&mut self, depth: usize, stmt: &Stmt) {
        match stmt {
            Stmt::Scalar { name, init, span } => {
                let text = match init {
                    Some(e) => format!("scalar {name} <- {}", self.expr(*e)),
                    None => format!("scalar {name}"),
                };
                self.line(depth, &text, Some(*span));
            }
            Stmt::Vector {
                name,
                shared,
                len,
                init,
                span,
                ..
            } => {
                let place = if *shared { "shared" } else { "local" };
                let text = format!("vector {name} {place} len {}", length(len));
                self.line(depth, &text, Some(*span));
                if let Some(stage) = init {
                    self.stage(depth + 1, "init", stage);
                }
            }
            Stmt::Uniform {
                target,
                memory,
                value,
                reductions,
                span,
            } => {
                let text = match memory {
                    Some(element) => format!(
                        "store-once-per-block {} <- {}",
                        place(element),
                        self.expr(*value)
                    ),
                    None => format!("uniform {target} <- {}", self.expr(*value)),
                };
                self.line(depth, &text, Some(*span));
                for stage in reductions {
                    self.stage(depth + 1, "reduce", stage);
                }
            }
            Stmt::VectorStore {
                target,
                stage,
                span,
            } => {
                self.line(
                    depth,
                    &format!("vector-store {}", place(target)),
                    Some(*span),
                );
                self.stage(depth + 1, "value", stage);
            }
            Stmt::Scatter {
                target,
                subscripts,
                stage,
                span,
            } => {
                self.line(depth, &format!("scatter {}", place(target)), Some(*span));
                for subscript in subscripts {
                    match subscript {
                        Subscript::Uniform(e) => {
                            let text = format!("at uniform {}", self.expr(*e));
                            self.line(depth + 1, &text, None);
                        }
                        Subscript::Range(e) => {
                            let text = format!("at range {}", self.expr(*e));
                            self.line(depth + 1, &text, None);
                        }
                        Subscript::Vector(index) => self.stage(depth + 1, "at", index),
                        Subscript::TileRows { range, cols } => {
                            let text =
                                format!("at tile-rows {} (start + k / {cols})", self.expr(*range));
                            self.line(depth + 1, &text, None);
                        }
                        Subscript::TileCols { range, cols } => {
                            let text =
                                format!("at tile-cols {} (start + k % {cols})", self.expr(*range));
                            self.line(depth + 1, &text, None);
                        }
                    }
                }
                self.stage(depth + 1, "value", stage);
            }
            Stmt::If {
                cond,
                then_body,
                else_body,
                span,
            } => {
                self.line(depth, &format!("if {}", self.expr(*cond)), Some(*span));
                self.stmts(depth + 1, then_body);
                if !else_body.is_empty() {
                    self.line(depth, "else", None);
                    self.stmts(depth + 1, else_body);
                }
            }
            Stmt::For {
                var,
                range,
                body,
                span,
                ..
            } => {
                let text = format!("for {var} in {}", self.expr(*range));
                self.line(depth, &text, Some(*span));
                self.stmts(depth + 1, body);
            }
            Stmt::DistributedFor {
                var,
                range,
                stride,
                body,
                summary,
                evidence,
                span,
                ..
            } => {
                let text = format!(
                    "distributed-for {var} in {}  stride {stride}  ({summary})",
                    self.expr(*range)
                );
                self.line(depth, &text, Some(*span));
                for why in evidence {
                    self.line(depth + 1, &format!("independent {why}"), None);
                }
                self.stmts(depth + 1, body);
            }
            Stmt::While { cond, body, span } => {
                self.line(depth, &format!("while {}", self.expr(*cond)), Some(*span));
                self.stmts(depth + 1, body);
            }
            Stmt::Return { span } => self.line(depth, "return", Some(*span)),
            Stmt::Grid {
                op,
                collective,
                scratch,
                aggregate,
                stmt,
                span,
            } => {
                let what = if *op == CollectiveOp::Reduce {
                    "grid-reduce"
                } else {
                    "grid-scan"
                };
                let text = format!("{what} {}  scratch {scratch}", self.expr(*collective));
                self.line(depth, &text, Some(*span));
                self.line(
                    depth + 1,
                    &format!("ticket atomic-add {scratch}[0] once-per-block  chunk ceil(len / BLOCKS) rounded up to BLOCKSIZE"),
                    None,
                );
                self.stage(depth + 1, "aggregate", aggregate);
                self.line(
                    depth + 1,
                    &format!("look-back {scratch}[2 + ticket]  publish aggregate, wait on lower tickets, publish inclusive prefix"),
                    None,
                );
                let last = if *op == CollectiveOp::Reduce {
                    "stored by the block of the last chunk"
                } else {
                    "over the chunk, the scan's carry from the prefix"
                };
                self.line(depth + 1, &format!("statement {last}"), None);
                self.stmt(depth + 2, stmt);
                self.line(
                    depth + 1,
                    &format!("finish atomic-add {scratch}[1]  the last block zeroes {scratch}"),
                    None,
                );
            }
            Stmt::Atomic {
                op,
                place: element,
                call,
                old,
                per_element,
                reductions,
                span,
            } => {
                let how = match per_element {
                    Some(_) => "per-element",
                    None => "once-per-block",
                };
                let name = op.name().replace('_', "-");
                let mut text = format!("{name} {} {how} {}", place(element), self.expr(*call));
                if let Some(old) = old {
                    let _ = write!(text, "  old -> {old}");
                }
                self.line(depth, &text, Some(*span));
                for stage in reductions {
                    self.stage(depth + 1, "reduce", stage);
                }
                if let Some(stage) = per_element {
                    self.stage(depth + 1, "elements", stage);
                }
            }
        }
    }

    fn stage(&mut self, depth: usize, role: &str, stage: &Stage) {
        let mut text = format!(
            "stage {role} {}  len {}",
            self.expr(stage.expr),
            length(&stage.len)
        );
        if let (Some(cols), Len::Static(n)) = (stage.cols, stage.len) {
            if let Some(rows) = n.checked_div(cols) {
                let _ = write!(text, "  tile {rows}x{cols}");
            }
        }
        if !stage.reads.is_empty() {
            let reads: Vec<String> = stage.reads.iter().map(place).collect();
            let _ = write!(text, "  reads {}", reads.join(", "));
        }
        if !stage.collectives.is_empty() {
            let ops: Vec<&str> = stage.collectives.iter().map(|c| op_name(c.op)).collect();
            let _ = write!(text, "  collectives {}", ops.join(", "));
        }
        self.line(depth, &text, None);
    }
}

fn length(len: &Len) -> String {
    match len {
        Len::Static(n) => n.to_string(),
        Len::Dynamic => "run-time".to_string(),
    }
}

/// An array and how a statement accesses it: `y checked` (`y[[..]]`), `y unchecked` (`y[..]`)
/// or `y whole`.
fn place(element: &Element) -> String {
    let how = if element.whole {
        "whole"
    } else if element.checked {
        "checked"
    } else {
        "unchecked"
    };
    format!("{} {how}", element.array)
}

/// A count of threads, lanes or warps: the number, or `n` when it is known at run time only.
fn count_text(count: Count) -> String {
    match count {
        Count::Known(n) => n.to_string(),
        Count::RunTime => "n".to_string(),
    }
}

/// One step of a collective's expansion, e.g. `shuffle-down 4 partials clamp 31, combine if
/// lane+4 < n`: the count a test compares with is how many lanes (or, for the partials, warps)
/// hold a value (`n` when only known at run time), `partials[warp]` the warp's slot in the
/// tile's half of the partials.
fn step_text(step: &Step, of: &CollectiveSteps) -> String {
    let values = |values: &Values| match values {
        Values::Lanes => "lanes",
        Values::Partials => "partials",
    };
    let holders = |values: &Values| match values {
        Values::Lanes => count_text(of.lanes),
        Values::Partials => count_text(of.warps),
    };
    match step {
        Step::Shuffle {
            values: v,
            direction,
            offset,
            test,
            clamp,
        } => {
            let direction = match direction {
                Direction::Down => "down",
                Direction::Up => "up",
            };
            let n = holders(v);
            let test = match test {
                LaneTest::Every => String::new(),
                LaneTest::PartnerHolds => format!(" if lane+{offset} < {n}"),
                LaneTest::PartnerBelow => format!(" if lane >= {offset}"),
            };
            format!(
                "shuffle-{direction} {offset} {} clamp {clamp}, combine{test}",
                values(v)
            )
        }
        Step::StorePartial(Writer::Lane(lane)) => format!("lane {lane} stores partials[warp]"),
        Step::StorePartial(Writer::LastHolder { clamp }) => format!(
            "lane 0 stores partials[warp], from lane {}-1 clamp {clamp}",
            holders(&Values::Lanes)
        ),
        Step::Barrier => "barrier".to_string(),
        Step::LoadPartials { mask } => format!(
            "lanes < {} load partials[lane & {mask}], else 0",
            holders(&Values::Partials)
        ),
        Step::NeighbourWarps {
            direction: Direction::Up,
            clamp,
        } => format!("combine partials of warp-1 clamp {clamp} if warp > 0"),
        Step::NeighbourWarps {
            direction: Direction::Down,
            clamp,
        } => format!(
            "combine partials of warp+1 clamp {clamp} if warp+1 < {}",
            holders(&Values::Partials)
        ),
        Step::Broadcast {
            values: v,
            from,
            clamp,
        } => {
            let from = match from {
                Source::Lane(lane) => lane.to_string(),
                Source::Last => match (v, of.lanes, of.warps) {
                    (Values::Lanes, Count::Known(n), _)
                    | (Values::Partials, _, Count::Known(n)) => n.saturating_sub(1).to_string(),
                    _ => "n-1".to_string(),
                },
            };
            format!("broadcast {} from lane {from} clamp {clamp}", values(v))
        }
        Step::Carry { direction, from } => {
            let tiles = match direction {
                Direction::Up => "earlier",
                Direction::Down => "later",
            };
            match from {
                Some(identity) => format!(
                    "carry from {tiles} tiles, from identity {}",
                    identity_text(*identity)
                ),
                None => format!("carry from {tiles} tiles"),
            }
        }
    }
}

fn op_name(op: CollectiveOp) -> &'static str {
    match op {
        CollectiveOp::Map => "map",
        CollectiveOp::Reduce => "reduce",
        CollectiveOp::ScanLeft => "left-scan",
        CollectiveOp::ScanRight => "right-scan",
    }
}

/// An identity as `--emit=kir` prints it: a float as Rust writes it, an integer's bits in hex.
fn identity_text(identity: Identity) -> String {
    match identity {
        Identity::Float(value) => format!("{value:?}"),
        Identity::Int { value, .. } => format!("{value:#x}"),
    }
}
