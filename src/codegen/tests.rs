//! End-to-end tests of code generation: LOOM source through the parser, the checker, lowering,
//! LLVM's optimiser and the NVPTX backend, with `ptxas` as the judge of the PTX.

use super::{lower, CodegenOptions};
use crate::check::{check, CheckOptions, STDLIB};
use crate::diagnostics::Diagnostic;
use crate::syntax::parse;
use crate::syntax::span::FileId;
use crate::target::{NvptxTarget, OptLevel};
use inkwell::context::Context;

pub struct Compiled {
    /// IR straight out of code generation.
    pub raw_ir: String,
    /// IR after the optimiser.
    pub ir: String,
    pub ptx: String,
}

fn front_end(source: &str, block_size: u32) -> Result<crate::check::Checked, Vec<Diagnostic>> {
    let mut program = parse(FileId(0), source, 0)?;
    for (i, (_, text)) in STDLIB.iter().enumerate() {
        let lib = parse(FileId(1 + i as u32), text, program.expr_count)?;
        program.append_library(lib);
    }
    let (checked, diagnostics) = check(program, &CheckOptions { block_size });
    if diagnostics.iter().any(Diagnostic::is_error) {
        return Err(diagnostics);
    }
    Ok(checked)
}

pub fn compile_with(
    source: &str,
    opt: OptLevel,
    arch: &str,
    block_size: u32,
) -> Result<Compiled, Vec<Diagnostic>> {
    let checked = front_end(source, block_size)?;
    let target = NvptxTarget::new(arch, opt).map_err(|d| vec![d])?;
    let context = Context::create();
    let kernel_ir = crate::kir::build(&checked);
    // What the kernel IR's passes found cannot be compiled, as the driver reports it.
    let limits = kernel_ir.limits();
    if !limits.is_empty() {
        return Err(limits);
    }
    let module = lower(
        &context,
        &checked,
        &kernel_ir,
        &target,
        &CodegenOptions {
            module_name: "test".into(),
            sources: vec![("test.loom".into(), source.into())],
            ..CodegenOptions::default()
        },
    )?;
    let raw_ir = module.print_to_string().to_string();
    target.optimise(&module, opt).map_err(|d| vec![d])?;
    let ir = module.print_to_string().to_string();
    let ptx = target.emit_ptx(&module).map_err(|d| vec![d])?;
    Ok(Compiled { raw_ir, ir, ptx })
}

pub fn compile(source: &str) -> Compiled {
    match compile_with(source, OptLevel::O3, "sm_80", 256) {
        Ok(c) => c,
        Err(d) => panic!("compilation failed: {d:#?}"),
    }
}

/// ptxas from `$LOOM_PTXAS` or the pinned wheel that `scripts/setup` installs, as
/// `tests/support` finds it: a missing ptxas fails the test, since setup installs it.
fn ptxas_path() -> std::path::PathBuf {
    let path = std::env::var_os("LOOM_PTXAS").map_or_else(
        || {
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join(".tools/cu12/nvidia/cuda_nvcc/bin/ptxas")
        },
        std::path::PathBuf::from,
    );
    assert!(
        path.exists(),
        "ptxas not found at {} (LOOM_PTXAS or .tools): run scripts/setup",
        path.display()
    );
    path
}

/// Fails the test if `ptxas` rejects the PTX for `arch`, or if there is no ptxas to ask.
pub fn ptxas(ptx: &str, arch: &str) {
    let ptxas = ptxas_path();
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("k.ptx");
    std::fs::write(&file, ptx).expect("write ptx");
    let out = std::process::Command::new(ptxas)
        .arg(format!("-arch={arch}"))
        .arg(&file)
        .arg("-o")
        .arg(dir.path().join("k.cubin"))
        .output()
        .expect("run ptxas");
    assert!(
        out.status.success(),
        "ptxas -arch={arch} rejected:\n{}\n{ptx}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Compiles at every level for sm_75, sm_80 and sm_90 and runs ptxas on each.
pub fn compiles_everywhere(source: &str) {
    for opt in [OptLevel::O0, OptLevel::O1, OptLevel::O2, OptLevel::O3] {
        for arch in ["sm_75", "sm_80", "sm_90"] {
            match compile_with(source, opt, arch, 256) {
                Ok(c) => ptxas(&c.ptx, arch),
                Err(d) => panic!("{opt:?} {arch}: {d:#?}"),
            }
        }
    }
}

fn error_codes(source: &str) -> Vec<&'static str> {
    match compile_with(source, OptLevel::O3, "sm_80", 256) {
        Ok(_) => vec![],
        Err(d) => d.iter().map(|d| d.code).collect(),
    }
}

const SUM_OF_SQUARES: &str = "\
func sum(x: Float32, y: Float32): Float32
  return x + y

func sqr(x: Float32): Float32
  return x * x

kernel sumOfSquares(in: Float32[THREADS], out: Float32[BLOCKS])
  current: Range <- block(B)
  shared t: Float32[] <- in[current]
  out[B] <- sum /. (sqr /~ t)
";

const SHIFT_LEFT: &str = "\
kernel shiftLeft(in: Float32[THREADS], out: Float32[THREADS])
  current: Range <- block(B)
  previous: Range <- block(B - 1)
  out[[current]] <- in[[previous]]
";

const SHIFT_LEFT_1: &str = "\
kernel shiftLeft1(in: Float32[THREADS], out: Float32[THREADS])
  if B > 0
    then for i: Int32 <- range(B * BLOCKSIZE, (B + 1) * BLOCKSIZE)
           out[i] <- in[i - BLOCKSIZE]
    else for i: Int32 <- range(B * BLOCKSIZE, (B + 1) * BLOCKSIZE)
           out[i] <- 0
";

const ROW_MAX: &str = "\
kernel rowMax(rows: Int32, cols: Int32, a: Float32[rows, cols], out: Float32[rows])
  out[B] <- max /. a[B]
";

#[test]
fn scalar_kernel() {
    let c = compile("kernel k(n: Int32, x: Float32[n])\n  x[0] <- Float32(n) * 2.0\n");
    assert!(c.ptx.contains(".entry k"), "{}", c.ptx);
    assert!(c.ptx.contains(".reqntid 256, 1, 1"), "{}", c.ptx);
    // `x` is written: not `noalias` (see `kernel.rs`).
    assert!(!c.raw_ir.contains("noalias"), "{}", c.raw_ir);
}

#[test]
fn sum_of_squares() {
    let c = compile(SUM_OF_SQUARES);
    assert!(c.ptx.contains("bar.sync"), "{}", c.ptx);
    assert!(c.ptx.contains(".shared"), "{}", c.ptx);
    compiles_everywhere(SUM_OF_SQUARES);
}

#[test]
fn shift_left() {
    compiles_everywhere(SHIFT_LEFT);
    compiles_everywhere(SHIFT_LEFT_1);
}

#[test]
fn row_max() {
    compiles_everywhere(ROW_MAX);
}

#[test]
fn scans() {
    let source = "\
kernel prefix(in: Int32[THREADS], out: Int32[THREADS], suffix: Int32[THREADS])
  current: Range <- block(B)
  out[current] <- sum /: in[current]
  suffix[current] <- sum :/ in[current]
";
    compiles_everywhere(source);
}

#[test]
fn bad_arch_is_a_diagnostic() {
    let Err(d) = compile_with(SHIFT_LEFT, OptLevel::O3, "sm_10", 256) else {
        panic!("sm_10 accepted")
    };
    assert_eq!(d[0].code, crate::target::CODES[0]);
}

#[test]
fn scans_of_any_length_compile() {
    compiles_everywhere(
        "kernel k(n: Int32, x: Float32[n], y: Float32[n], z: Float32[n])\n  y[range(0, n)] <- sum /: x[range(0, n)]\n  z[range(0, n)] <- sum :/ x[range(0, n)]\n",
    );
}

#[test]
fn dynamic_self_overlapping_assignment_is_a_diagnostic() {
    let codes =
        error_codes("kernel k(n: Int32, x: Float32[n])\n  x[range(1, n)] <- x[range(0, n - 1)]\n");
    assert_eq!(codes, vec![super::error::NEEDS_STATIC_LENGTH]);
}

/// Prints IR and PTX of a program in `LOOM_DUMP` (a file path): `cargo test dump -- --nocapture`.
#[test]
fn dump() {
    let Ok(path) = std::env::var("LOOM_DUMP") else {
        return;
    };
    let source = std::fs::read_to_string(path).expect("read LOOM_DUMP");
    let opt = match std::env::var("LOOM_DUMP_O").as_deref() {
        Ok("0") => OptLevel::O0,
        _ => OptLevel::O3,
    };
    match compile_with(&source, opt, "sm_80", 256) {
        Ok(c) => println!(
            "=== raw\n{}\n=== optimised\n{}\n=== ptx\n{}",
            c.raw_ir, c.ir, c.ptx
        ),
        Err(d) => println!("{d:#?}"),
    }
}

#[test]
fn mixed_scans_over_two_blocks_compile() {
    // E0810's last case (retired): a left and a right scan in one statement over more than one
    // block's worth of elements.
    compiles_everywhere(
        "kernel k(x: Int32[THREADS], o: Int32[THREADS])\n  r: Range <- range(B * BLOCKSIZE, (B + 2) * BLOCKSIZE)\n  o[[r]] <- (sum /: x[[r]]) + (sum :/ x[[r]])\n",
    );
}

#[test]
fn every_canonical_program_compiles_at_every_level() {
    let programs = [
        "kernel saxpy(n: Int32, a: Float32, x: Float32[n], y: Float32[n])\n  r: Range <- block(B)\n  y[[r]] <- a * x[[r]] + y[[r]]\n",
        "kernel dot(n: Int32, x: Float32[n], y: Float32[n], out: Float32[BLOCKS])\n  r: Range <- block(B)\n  out[B] <- sum /. (x[[r]] * y[[r]])\n",
        "kernel matvec(rows: Int32, cols: Int32, m: Float32[rows, cols], v: Float32[cols], out: Float32[rows])\n  out[B] <- sum /. (m[B] * v)\n",
        "kernel newton(x: Float32[THREADS], out: Float32[THREADS])\n  r: Range <- block(B)\n  shared g: Float32[] <- x[r]\n  for i: Int32 <- range(0, 10)\n    g <- 0.5 * (g + x[r] / g)\n  out[r] <- g\n",
        "kernel rot(x: Float32[THREADS], out: Float32[THREADS])\n  r: Range <- block(B)\n  shared t: Float32[BLOCKSIZE] <- x[r]\n  t <- t[[range(1, BLOCKSIZE + 1)]]\n  t[0] <- 5.0\n  out[r] <- t\n",
    ];
    for program in programs {
        compiles_everywhere(program);
    }
}

/// A vector assignment that reads its own target at other positions buffers its elements: one
/// barrier orders the initialisation before the shifted reads, one the reads before the writes;
/// the last statement reads `t` where each thread wrote it and needs none.
#[test]
fn self_overlapping_assignment_reads_before_writing() {
    let c = compile_with(
        "kernel rot(x: Float32[THREADS])\n  shared t: Float32[] <- x[block(B)]\n  t <- t[[range(1, BLOCKSIZE + 1)]]\n  x[block(B)] <- t\n",
        OptLevel::O0,
        "sm_80",
        256,
    )
    .unwrap_or_else(|d| panic!("{d:#?}"));
    assert!(c.raw_ir.contains("%buffer = alloca"), "{}", c.raw_ir);
    assert_eq!(
        c.raw_ir.matches("call void @llvm.nvvm.barrier0()").count(),
        2,
        "{}",
        c.raw_ir
    );
}

/// Which combining functions the reduction may fold per thread.
#[test]
fn commutativity_is_proven_syntactically() {
    let source = "\
type P = {a: Int32, b: Float64}

func plus(x: Float32, y: Float32): Float32
  return y + x

func merge(p: P, q: P): P
  return {a: p.a + q.a, b: q.b * p.b}

func firstNonZero(a: Int32, b: Int32): Int32
  if a != 0
    then return a
  return b

func left(a: Int32, b: Int32): Int32
  return a - b

func scaled(k: Int32, a: Int32, b: Int32): Int32
  return k * (a + b)

func viaPlus(x: Float32, y: Float32): Float32
  return plus(x, y) * 2.0

-- The library's `sum` and `max` (their `Int32` overloads, the first of each): a compile checks
-- the library funcs it calls.
kernel k(out: Int32[1])
  a: Int32 <- 1
  out[0] <- sum(a, a) + max(a, a)
";
    let checked = front_end(source, 256).unwrap_or_else(|d| panic!("{d:#?}"));
    let item = |name: &str, arity: usize| {
        checked
            .program
            .items
            .iter()
            .position(|i| match i {
                crate::syntax::ast::Item::Func(f) => f.name.name == name && f.params.len() == arity,
                _ => false,
            })
            .unwrap_or_else(|| panic!("no func {name}"))
    };
    let commutative = |name: &str, arity: usize| {
        crate::kir::commute::is_commutative(
            &checked,
            crate::check::Callee::Func(item(name, arity)),
            arity - 2,
        )
    };
    assert!(commutative("plus", 2));
    assert!(commutative("merge", 2));
    assert!(commutative("scaled", 3));
    assert!(commutative("viaPlus", 2));
    assert!(commutative("sum", 2));
    assert!(commutative("max", 2));
    assert!(!commutative("firstNonZero", 2));
    assert!(!commutative("left", 2));
}

/// Lowers `source` with `kir-barriers`' decisions changed by `edit` first.
fn lower_with_barriers(
    source: &str,
    edit: impl Fn(&mut crate::kir::Barriers),
) -> Result<String, Vec<Diagnostic>> {
    lower_with_kernel_ir(source, |kernel| {
        if let Some(barriers) = &mut kernel.barriers {
            edit(barriers);
        }
    })
}

/// Code generation asks the kernel IR at each place a barrier may go and places no barrier of
/// its own: the barrier before `out[1]` (thread 1 wrote it, every thread reads it) is the IR's,
/// and an IR without it gives a kernel without it. A kernel the pass does not cover is an
/// internal error naming the statement, not one with barriers of code generation's choosing.
#[test]
fn a_kernels_barriers_come_from_the_kernel_ir_alone() {
    let source = "\
kernel first(n: Int32, x: Float32[n], out: Float32[n])
  r: Range <- block(B)
  out[[r]] <- x[[r]] * 2.0
  out[0] <- out[1] + 1.0
";
    let barrier = "call void @llvm.nvvm.barrier0()";
    let kept = lower_with_barriers(source, |_| {}).expect("compiles");
    assert_eq!(kept.matches(barrier).count(), 1, "{kept}");
    let dropped = lower_with_barriers(source, |barriers| {
        if let crate::kir::Barriers::Placed(placed, ..) = barriers {
            placed.retain(|b| !b.needed);
        }
    })
    .expect("compiles");
    assert_eq!(dropped.matches(barrier).count(), 0, "{dropped}");
    let uncovered = lower_with_barriers(source, |barriers| {
        let span = crate::syntax::span::Span::synthetic(crate::syntax::span::FileId(0));
        *barriers = crate::kir::Barriers::NotCovered {
            span,
            what: "a call statement",
        };
    });
    let errors = format!("{:?}", uncovered.expect_err("an internal error"));
    assert!(
        errors.contains("kir-barriers does not cover this kernel (a call statement)"),
        "{errors}"
    );
}

/// Code generation walks the kernel IR's statements and takes each one's kind as the decision
/// (`codegen/translate.rs`): a contiguous store that the IR makes a scatter is emitted as one
/// (each element's position computed from its subscript), and a statement that the IR lacks
/// is an internal error naming it, not lowered from the checked program.
#[test]
fn a_kernel_is_lowered_from_its_kernel_ir_statements() {
    use crate::kir::{Stmt as Kir, Subscript};
    let source = "\
kernel double(n: Int32, x: Float32[n], y: Float32[n])
  r: Range <- block(B)
  y[[r]] <- x[[r]] * 2.0
";
    let stored = lower_with_kernel_ir(source, |_| {}).expect("compiles");
    let scattered = lower_with_kernel_ir(source, |kernel| {
        for stmt in &mut kernel.body {
            if let Kir::VectorStore {
                target,
                stage,
                span,
            } = stmt
            {
                *stmt = Kir::Scatter {
                    target: target.clone(),
                    subscripts: vec![Subscript::Range(stage.expr)],
                    stage: stage.clone(),
                    span: *span,
                };
            }
        }
    })
    .expect("compiles");
    // A scatter computes element `k`'s position from its subscript, `r.lo + k`: it reads the
    // range's bounds once more than the contiguous store, which takes them from its shape.
    let bounds = |ir: &str| ir.matches("extractvalue { i32, i32 } %r").count();
    assert_eq!(bounds(&stored), 6, "{stored}");
    assert_eq!(bounds(&scattered), 8, "{scattered}");
    let missing = lower_with_kernel_ir(source, |kernel| {
        kernel.body.pop();
    });
    let errors = format!("{:?}", missing.expect_err("an internal error"));
    assert!(
        errors.contains("a statement that the kernel IR does not have"),
        "{errors}"
    );
}

/// Lowers `source` with each kernel's IR edited by `edit` after the passes ran.
fn lower_with_kernel_ir(
    source: &str,
    edit: impl Fn(&mut crate::kir::Kernel),
) -> Result<String, Vec<Diagnostic>> {
    let last = crate::kir::PASSES.last().expect("kernel-IR passes").name;
    lower_with_edit_after(source, last, edit)
}

/// A reduction is expanded as `kir-collectives` planned it: the identity its threads start
/// from is the plan's constant, and a collective the plan lacks is an internal error, not
/// expanded by a decision of code generation's own.
#[test]
fn a_reduction_is_expanded_as_the_kernel_ir_plans_it() {
    let source = "\
kernel total(n: Int32, x: Float32[n], out: Float32[BLOCKS])
  out[B] <- sum /. x
";
    let planned = lower_with_kernel_ir(source, |_| {}).expect("compiles");
    assert!(planned.contains("-0.000000e+00"), "{planned}");
    let edited = lower_with_kernel_ir(source, |kernel| {
        for plan in kernel.collectives.iter_mut().flat_map(|c| c.values_mut()) {
            plan.start = Some(crate::kir::Start::Identity(crate::kir::Identity::Float(
                2.5,
            )));
        }
    })
    .expect("compiles");
    assert!(edited.contains("2.500000e+00"), "{edited}");
    assert!(!edited.contains("-0.000000e+00"), "{edited}");
    let unplanned = lower_with_kernel_ir(source, |kernel| {
        if let Some(plans) = &mut kernel.collectives {
            plans.clear();
        }
    });
    let errors = format!("{:?}", unplanned.expect_err("an internal error"));
    assert!(
        errors.contains("kir-collectives planned no expansion for this collective"),
        "{errors}"
    );
}

/// Code generation emits a collective's steps as `kir-collectives` lists them: an offset, a
/// writer lane, a partials mask, a shuffle's clamp, a lane test and the counts of lanes and warps
/// that hold a value edited in the kernel IR are the ones in the LLVM IR; steps planned for
/// another count of threads than the sweep's are an internal error.
#[test]
fn a_collectives_steps_are_emitted_as_the_kernel_ir_lists_them() {
    use crate::kir::{Count, LaneTest, Step, Values, Writer};
    let source = "\
kernel total(n: Int32, x: Float32[n], out: Float32[BLOCKS])
  out[B] <- sum /. x

kernel prefix(x: Float32[BLOCKS * BLOCKSIZE], y: Float32[BLOCKS * BLOCKSIZE])
  r: Range <- block(B)
  y[[r]] <- sum /: x[[r]]
";
    let planned = lower_with_kernel_ir(source, |_| {}).expect("compiles");
    let before = [
        "i32 16, i32 31)",
        "i32 8, i32 31)",
        "i32 0, i32 31)",
        "icmp eq i32 %lane, 0",
        "icmp eq i32 %lane, 31",
        "and i32 %lane, 7",
        "icmp ult i32 %lane, 8",
    ];
    for text in before {
        assert!(planned.contains(text), "{text}: {planned}");
    }
    assert!(!planned.contains("%partner"), "{planned}");
    let edited = lower_with_kernel_ir(source, |kernel| {
        for plan in kernel.collectives.iter_mut().flat_map(|c| c.values_mut()) {
            for planned in &mut plan.steps {
                planned.lanes = Count::Known(20);
                planned.warps = Count::Known(6);
                for step in &mut planned.steps {
                    match step {
                        Step::Shuffle { offset, .. } if *offset == 16 => *offset = 12,
                        Step::Shuffle {
                            offset: 8, clamp, ..
                        } => *clamp = 27,
                        Step::Shuffle {
                            values: Values::Lanes,
                            offset: 2,
                            test: test @ LaneTest::Every,
                            ..
                        } => *test = LaneTest::PartnerHolds,
                        Step::Broadcast { clamp, .. } => *clamp = 30,
                        Step::StorePartial(writer) => {
                            *writer = match writer {
                                Writer::Lane(0) => Writer::Lane(5),
                                _ => Writer::Lane(30),
                            }
                        }
                        Step::LoadPartials { mask } => *mask = 3,
                        _ => {}
                    }
                }
            }
        }
    })
    .expect("compiles");
    for text in [
        "i32 12, i32 31)",
        "i32 8, i32 27)",
        "i32 0, i32 30)",
        "icmp eq i32 %lane, 5",
        "icmp eq i32 %lane, 30",
        "and i32 %lane, 3",
        "icmp ult i32 %lane, 6",
        "%partner = add i32 %lane, 2",
        "icmp ult i32 %partner, 20",
    ] {
        assert!(edited.contains(text), "{text}: {edited}");
    }
    for text in before {
        assert!(!edited.contains(text), "{text}: {edited}");
    }
    // The sweep's tile holds 256 threads, the plan has steps for 255 only.
    let miscounted = lower_with_kernel_ir(source, |kernel| {
        for plan in kernel.collectives.iter_mut().flat_map(|c| c.values_mut()) {
            for planned in &mut plan.steps {
                planned.count = Count::Known(255);
            }
        }
    });
    let errors = format!("{:?}", miscounted.expect_err("an internal error"));
    assert!(
        errors.contains(
            "kir-collectives planned no steps for 256 threads holding a value, in one tile"
        ),
        "{errors}"
    );
}

/// Code generation builds no accesses: it reaches a place where a barrier may go by each
/// statement's structure, also where the statement makes no access, and emits there what
/// `kir-barriers` decided. Here the register vector's initializer reads and writes no memory
/// (its place has no barrier in the IR); a barrier edited into the IR at that place is emitted
/// in front of the initializer, and the places after it keep theirs.
#[test]
fn a_place_without_accesses_is_the_kernel_irs_to_decide() {
    use crate::kir::access::{access_to_t, AccessKind, Who};
    use crate::kir::{Barrier, Barriers, Point};
    let source = "\
kernel fill(y: Float32[256])
  v: Float32[] <- [1.0, 2.0, 3.0]
  y[[range(0, 3)]] <- v
";
    let barriers = |ir: &str| ir.matches("call void @llvm.nvvm.barrier0()").count();
    let planned = lower_with_kernel_ir(source, |kernel| {
        let Some(Barriers::Placed(_, _, emission)) = &kernel.barriers else {
            panic!("kir-barriers covers the kernel");
        };
        // The initializer's place (no access), then the store's.
        assert_eq!(emission.points, [Point::Touch, Point::Touch]);
    })
    .expect("compiles");
    let edited = lower_with_kernel_ir(source, |kernel| {
        let Some(Barriers::Placed(placed, _, _)) = &mut kernel.barriers else {
            panic!("kir-barriers covers the kernel");
        };
        placed.insert(
            0,
            Barrier {
                at: kernel.span,
                needed: true,
                loop_end: false,
                earlier: access_to_t(AccessKind::Write, Who::Any),
                later: access_to_t(AccessKind::Read, Who::Any),
                collective: None,
                point: Some(0),
            },
        );
    })
    .expect("compiles");
    assert_eq!(barriers(&edited), barriers(&planned) + 1, "{edited}");
    // In front of the initializer: before its first store (into the register vector's slots;
    // the store into `y` comes later). The edit leaves the removed barriers' ordinals as they
    // were, which only moves their remarks.
    let first = |ir: &str, what: &str| ir.find(what).unwrap_or(usize::MAX);
    assert!(
        first(&edited, "call void @llvm.nvvm.barrier0()") < first(&edited, "store float"),
        "{edited}"
    );
}

/// The count cross-check goes both ways: code generation takes the steps listed for its tile's
/// count, known (a constant) or run-time, and never the other kind's. A list edited to a
/// run-time count where code generation knows the tile holds 256 threads, or to a known count
/// where code generation computes it when the kernel runs, is an internal error, not emitted
/// with the counts the other kind would compute.
#[test]
fn a_collectives_count_of_another_kind_than_code_generations_is_an_internal_error() {
    use crate::kir::Count;
    let miscounted = |source: &str, count: Count| {
        let lowered = lower_with_kernel_ir(source, |kernel| {
            for plan in kernel.collectives.iter_mut().flat_map(|c| c.values_mut()) {
                for planned in &mut plan.steps {
                    planned.count = count;
                }
            }
        });
        format!("{:?}", lowered.expect_err("an internal error"))
    };
    let known = "\
kernel prefix(x: Float32[BLOCKS * BLOCKSIZE], y: Float32[BLOCKS * BLOCKSIZE])
  r: Range <- block(B)
  y[[r]] <- sum /: x[[r]]
";
    let run_time = "\
kernel prefix(n: Int32, x: Float32[n], y: Float32[n])
  y[range(0, n)] <- sum /: x[range(0, n)]
";
    for source in [known, run_time] {
        lower_with_kernel_ir(source, |_| {}).expect("compiles as planned");
    }
    let errors = miscounted(known, Count::RunTime);
    assert!(
        errors.contains(
            "kir-collectives planned no steps for 256 threads holding a value, in one tile"
        ),
        "{errors}"
    );
    let errors = miscounted(run_time, Count::Known(256));
    assert!(
        errors.contains(
            "kir-collectives planned no steps for a run-time number of threads holding a value, \
             in several tiles"
        ),
        "{errors}"
    );
}

/// A store's order is `kir-accesses`' decision, which code generation takes as it stands (it
/// builds no accesses to check it against): a store that reads only its own elements, edited
/// into a buffered one in the IR after `kir-accesses` (`kir-barriers` follows the edit;
/// `kir-sweeps` already gave the store its buffer's slots, and it has no scan whose steps
/// `kir-collectives` would have to plan for the buffer), computes its values into a buffer
/// first.
#[test]
fn a_stores_order_is_the_kernel_irs() {
    use crate::kir::StoreOrder;
    let source = "\
kernel double(x: Float32[256], y: Float32[256])
  y[[range(0, 256)]] <- x[[range(0, 256)]] * 2.0
";
    let buffers = |ir: &str| ir.matches("%buffer = alloca").count();
    let in_place = lower_with_edit_after(source, crate::kir::ACCESSES, |_| {}).expect("compiles");
    let buffered = lower_with_edit_after(source, crate::kir::ACCESSES, |kernel| {
        let Some(orders) = &mut kernel.store_orders else {
            panic!("kir-accesses ran");
        };
        let store = kernel.body[0].span();
        orders.insert(
            store,
            StoreOrder::Buffered {
                array: "y".into(),
                read: store,
            },
        );
    })
    .expect("compiles");
    assert_eq!(buffers(&in_place), 0, "{in_place}");
    assert_eq!(buffers(&buffered), 1, "{buffered}");
}

/// Lowers `source` with each kernel's IR edited by `edit` right after pass `pass`, the passes
/// after it running on the edited IR.
fn lower_with_edit_after(
    source: &str,
    pass: &str,
    edit: impl Fn(&mut crate::kir::Kernel),
) -> Result<String, Vec<Diagnostic>> {
    let checked = front_end(source, 256)?;
    let target = NvptxTarget::new("sm_80", OptLevel::O3).map_err(|d| vec![d])?;
    let context = Context::create();
    assert!(
        crate::kir::PASSES.iter().any(|p| p.name == pass),
        "{pass} is not a registered kernel-IR pass"
    );
    let mut kernel_ir = crate::kir::lower(&checked);
    for registered in crate::kir::PASSES {
        (registered.run)(&mut kernel_ir, &checked);
        if registered.name == pass {
            kernel_ir.kernels.iter_mut().for_each(&edit);
        }
    }
    let options = CodegenOptions {
        module_name: "test".into(),
        sources: vec![("test.loom".into(), source.into())],
        ..CodegenOptions::default()
    };
    let module = lower(&context, &checked, &kernel_ir, &target, &options)?;
    Ok(module.print_to_string().to_string())
}
