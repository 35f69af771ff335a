//! One kernel through every analysis: divergence, barrier placement, barrier intervals and
//! races. The analyses compute facts; `check_*` turn facts into findings; [`dump`] prints the
//! facts for tests and for `loomc verify --print-analysis`.

use crate::barriers::{self, ConvergentOp, SyncRole};
use crate::cfg::Cfg;
use crate::divergence::{self, Divergence};
use crate::fast_hash::HashSet;
use crate::findings::{Finding, InstRef};
use crate::ir::{Function, InstId, Module, Ty, Val};
use crate::races::{
    self,
    address::{Object, Space},
    RaceInput,
};
use crate::threads::{Geometry, ThreadValues};
use crate::VerifyOptions;
use std::fmt::Write;

/// What every analysis of one kernel needs to name things.
pub struct Context<'a> {
    pub module: &'a Module,
    pub function: &'a Function,
    pub threads: &'a ThreadValues<'a>,
}

impl Context<'_> {
    pub fn inst_ref(&self, id: InstId) -> InstRef {
        let inst = self.function.inst(id);
        InstRef {
            function: self.function.name.clone(),
            block: inst
                .block
                .map(|b| self.function.blocks[b].name.clone())
                .unwrap_or_default(),
            text: self.function.text(id).to_string(),
            loc: inst.loc.clone(),
        }
    }
}

/// Verifies one kernel; with `dump`, also prints what the analyses found.
pub fn verify(
    module: &Module,
    function: &Function,
    merged: Option<&Function>,
    geometry: Geometry,
    options: &VerifyOptions,
    with_barriers: &HashSet<usize>,
    dump: Option<&mut String>,
) -> Vec<Finding> {
    let threads = ThreadValues::new(module, function, geometry);
    let cx = Context {
        module,
        function,
        threads: &threads,
    };
    let cfg = Cfg::new(function);
    let divergence = divergence::analyse(module, function, &cfg, &threads);
    let reach = threads.reach(&cfg);
    let ops = barriers::convergent_ops(module, function, with_barriers, &threads);
    let mut findings = barriers::check_placement(&cx, &cfg, &divergence, &reach, &ops);
    let ranges = crate::ranges::Ranges::new(module, function, &cfg, geometry);
    let input = RaceInput {
        cfg: &cfg,
        ranges: &ranges,
        divergence: &divergence,
        reach: &reach,
        ops: &ops,
        options,
    };
    // The same instructions and blocks, with copies of invariant values merged
    // (`invariants.rs`): the divergence facts above hold for it as they are.
    let race_cx = Context {
        module,
        function: merged.unwrap_or(function),
        threads: &threads,
    };
    findings.extend(races::check_races(&race_cx, &input));
    if let Some(out) = dump {
        print(&cx, &input, out);
    }
    findings
}

fn geometry_text(geometry: Geometry) -> String {
    match geometry {
        Geometry::Known([x, y, z]) => format!("{x}x{y}x{z} threads"),
        Geometry::UpTo(n) => format!("unknown size, 1-D, up to {n} threads"),
        Geometry::Unknown => "unknown size".to_string(),
    }
}

/// The analysis facts, one per line, for FileCheck tests:
///
/// ```text
/// kernel @k: 256x1x1 threads
///   divergent %1 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
///   branch divergent in %entry: br i1 %c, label %a, label %b; controls %a
///   barrier block: call void @llvm.nvvm.barrier0()
///   interval 1 after call void @llvm.nvvm.barrier0(): %entry.1
///   access write @s: store float %v, ptr addrspace(3) %p
/// ```
fn print(cx: &Context<'_>, input: &RaceInput<'_>, out: &mut String) {
    let function = cx.function;
    let _ = writeln!(
        out,
        "kernel @{}: {}",
        function.name,
        geometry_text(cx.threads.geometry())
    );
    for &b in &input.cfg.rpo {
        for &id in &function.blocks[b].insts {
            let inst = function.inst(id);
            if inst.ty == Ty::Void || inst.ty == Ty::Other && !function.text(id).contains(" = ") {
                continue;
            }
            let class = input.divergence.of(Val::Inst(id));
            if class != Divergence::Uniform {
                let _ = writeln!(out, "  {class} {}", function.text(id));
            }
        }
    }
    for branch in &input.divergence.branches {
        let controlled: Vec<String> = branch
            .region
            .iter()
            .map(|b| format!("%{}", function.blocks[b].name))
            .collect();
        let _ = writeln!(
            out,
            "  branch {} in %{}: {}; controls {}",
            branch.divergence,
            function.blocks[branch.block].name,
            function.text(branch.terminator),
            controlled.join(" ")
        );
    }
    for op in input.ops {
        print_op(cx, op, out);
    }
    let (intervals, _) = races::intervals(cx, input.cfg, input.ops);
    let segment_name = |s: usize| {
        let segment = &intervals.segments[s];
        let name = &function.blocks[segment.block].name;
        if segment.index == 0 {
            format!("%{name}")
        } else {
            format!("%{name}.{}", segment.index)
        }
    };
    for (i, start) in intervals.starts.iter().enumerate() {
        let members: Vec<String> = intervals.region(i).iter().map(segment_name).collect();
        let after = match start.after {
            Some(b) => format!("after {}", function.text(b)),
            None => "at entry".to_string(),
        };
        let _ = writeln!(out, "  interval {i} {after}: {}", members.join(" "));
    }
    let (accesses, _) = races::accesses(cx);
    for access in &accesses {
        let object = match access.space {
            Space::Known(o) => match o {
                Object::Global(g) => format!("@{}", cx.module.globals[g].name),
                Object::Param(_) | Object::Field { .. } => o.name(cx),
            },
            Space::Unplaced => "global?".to_string(),
            _ => "shared?".to_string(),
        };
        let threads = function
            .inst(access.inst)
            .block
            .map(|b| input.reach[b].count())
            .unwrap_or(0);
        let _ = writeln!(
            out,
            "  access {} {object} by {threads} threads: {}",
            access.kind,
            function.text(access.inst)
        );
    }
}

fn print_op(cx: &Context<'_>, op: &ConvergentOp, out: &mut String) {
    let role = match op.role {
        SyncRole::Block => "block",
        SyncRole::Warp => "warp",
        SyncRole::None => "none",
    };
    let _ = writeln!(
        out,
        "  convergent {role}{}: {}",
        if op.kind.is_some() {
            ""
        } else {
            " (unchecked)"
        },
        cx.function.text(op.inst)
    );
}
