//! The kernel verifier's findings as diagnostics.
//!
//! `llvm-passes` proves barrier placement and race freedom on LLVM IR and reports findings as
//! data: instructions with debug locations, thread witnesses, addresses. This module runs it on a
//! module and turns each finding into a [`Diagnostic`]: debug locations become spans of the
//! sources in [`SourceFiles`] (loomc attaches the line and column of the statement to every
//! instruction), so a race in a LOOM kernel points at the two statements involved. For IR from
//! another front end (`loomc verify`), locations whose file can be read from disk become labels
//! too, and the IR instructions are always named in notes.

use crate::diagnostics::{Diagnostic, SourceFiles};
use crate::syntax::span::{FileId, Span};
use inkwell::module::Module;
use llvm_passes::{DebugLoc, Finding, Hazard, InstRef, Race};

/// A barrier that not every thread reaches, or a warp collective not every lane of its warp
/// reaches.
pub const DIVERGENT_BARRIER: &str = "E0850";
/// Two threads touch the same shared location between two barriers, one of them writing.
pub const DATA_RACE: &str = "E0851";
/// An access the analysis could not decide (warning).
pub const UNPROVEN_RACE: &str = "E0852";
/// A barrier under a branch the analysis cannot see through (warning).
pub const UNPROVEN_CONVERGENCE: &str = "E0853";
/// Two threads of two different blocks touch the same location of global memory, one of them
/// writing (warning on LOOM programs: the race is the program's, not loomc's; see
/// `verify_loom_module`).
pub const BLOCK_RACE: &str = "W0851";

/// Every code of this module (the UI suite checks that each has a case).
pub const CODES: &[&str] = &[
    DIVERGENT_BARRIER,
    DATA_RACE,
    UNPROVEN_RACE,
    UNPROVEN_CONVERGENCE,
    BLOCK_RACE,
];

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifyOptions {
    /// Run the verifier (`--no-verify` turns it off).
    pub enabled: bool,
    /// Do not count stores of one uniform value to one location as a race.
    pub tolerate_same_value_writes: bool,
}

impl Default for VerifyOptions {
    fn default() -> VerifyOptions {
        VerifyOptions {
            enabled: true,
            tolerate_same_value_writes: false,
        }
    }
}

/// Verifies every kernel of a module loomc generated; the diagnostics of its findings.
pub fn verify_loom_module(
    module: &Module<'_>,
    files: &mut SourceFiles,
    options: &VerifyOptions,
) -> Vec<Diagnostic> {
    let findings = llvm_passes::verify_kernels(module, &loom_verifier_options(options));
    loom_diagnostics(&findings, files)
}

/// What the kernel verifier is told of a module loomc generated.
fn loom_verifier_options(options: &VerifyOptions) -> llvm_passes::VerifyOptions {
    llvm_passes::VerifyOptions {
        tolerate_same_value_writes: options.tolerate_same_value_writes,
        // Races between blocks are looked for on loomc's own output too, and reported as
        // warnings (W0851), not errors. loomc places no barrier between blocks (none exists),
        // so such a race is in the program as written, not a bug of loomc's barrier placement:
        // `total[0] <- sum /. x[B]` run by every block, a sequential loop over one array in
        // every block, overlapping slices of two blocks. The language allows these programs
        // (the checker warns on the racy read-modify-write, W0600, and compiles it); an error
        // would stop programs that compile today (tests/codegen's loop_dependence_remarks,
        // records_in_arrays, register_vector_slots and small_integers) and would wrongly say
        // "a bug in loomc". Stores of one value every block computes alike (loomc's uniform
        // statements publish results so) are not reported. docs/verifier.md, "Races between
        // blocks on LOOM programs".
        single_block: false,
        // A race that needs particular input data (`out[[perm[[k]]]] <- x` with a `perm` that
        // repeats a position) is in the program, not loomc's: LOOM says one of the colliding
        // elements is stored, and the verifier says it cannot prove the positions distinct
        // (E0852), as docs/language.md promises for scatters.
        input_dependent_races_undecided: true,
        ..llvm_passes::VerifyOptions::default()
    }
}

/// The diagnostics of the kernel verifier's findings on a module loomc generated, each said
/// once: findings on different instructions of one statement (a scatter's store and its guard's
/// load, say) name the same source positions, and repeating the same words would only make the
/// reader look for a difference that is not there.
fn loom_diagnostics(findings: &[Finding], files: &mut SourceFiles) -> Vec<Diagnostic> {
    let mut said: Vec<Diagnostic> = Vec::new();
    for d in findings.iter().map(|f| loom_diagnostic(f, files)) {
        if !said.contains(&d) {
            said.push(d);
        }
    }
    said
}

fn loom_diagnostic(f: &Finding, files: &mut SourceFiles) -> Diagnostic {
    let d = diagnostic(f, files, Style::Source);
    if matches!(f, Finding::Race(race) if race.blocks.is_some()) {
        return between_blocks(d);
    }
    if d.is_error() {
        d.note(
            "loomc places the barriers of LOOM kernels, so this is a bug in loomc: \
             please report it with the program; `--no-verify` skips the check",
        )
    } else {
        d.note("the verifier could not decide this; the kernel is compiled as it is")
    }
}

/// A race between two blocks of a LOOM program, as a warning (`verify_loom_module`). A kernel
/// parameter is named as the program names it (`total`, not the IR's `%total`).
fn between_blocks(mut d: Diagnostic) -> Diagnostic {
    let plain = |text: &str| text.replace("`%", "`");
    d.code = BLOCK_RACE;
    d.severity = crate::diagnostics::Severity::Warning;
    d.message = plain(&d.message);
    for label in &mut d.labels {
        label.message = plain(&label.message);
    }
    for note in &mut d.notes {
        *note = plain(note);
    }
    d.note("blocks run in any order: the result depends on which block gets there first")
        .help(
            "let each block touch only its own part of the array (a subscript computed from \
             `B`), or use an atomic (`atomic_add`)",
        )
}

/// The checker's code for a racy read-modify-write of global memory (`src/check/racy_update.rs`).
const RACY_UPDATE: &str = "W0600";

/// `found` without the races between blocks (W0851) whose accesses all lie in a statement the
/// checker already warned about as a racy read-modify-write (W0600, in `earlier`): one race,
/// said once, in the checker's words, which come with the atomic form to use.
pub fn without_repeats_of_racy_updates(
    found: Vec<Diagnostic>,
    earlier: &[Diagnostic],
) -> Vec<Diagnostic> {
    let updates: Vec<Span> = earlier
        .iter()
        .filter(|d| d.code == RACY_UPDATE)
        .flat_map(|d| d.labels.iter().filter(|l| l.primary).map(|l| l.span))
        .collect();
    let inside = |span: &Span| {
        updates
            .iter()
            .any(|u| u.file == span.file && u.start <= span.start && span.end <= u.end)
    };
    found
        .into_iter()
        .filter(|d| {
            d.code != BLOCK_RACE || d.labels.is_empty() || !d.labels.iter().all(|l| inside(&l.span))
        })
        .collect()
}

/// How a diagnostic names the IR behind it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// For LOOM programs: source positions only, and IR instructions only where one has no
    /// position (instruction names change with every change to code generation).
    Source,
    /// For IR from other front ends: every instruction named, and the source files the debug
    /// locations name read from disk where they can be.
    Ir,
}

/// Builds one diagnostic: labels at source positions, notes that name the IR.
struct Builder<'a> {
    d: Diagnostic,
    files: &'a mut SourceFiles,
    style: Style,
}

impl Builder<'_> {
    fn label(mut self, inst: &InstRef, primary: bool, message: &str) -> Self {
        let mut span = span_of(inst.loc.as_ref(), self.files, self.style == Style::Ir);
        if span.is_none() && at_line_zero(inst) {
            // The optimiser merged this instruction with another (code sunk from two branches)
            // and kept no line for it: the kernel it belongs to is the nearest position.
            span = kernel_span(self.files, &inst.function);
            if span.is_some() {
                self.d = self.d.note(
                    "the optimiser merged this access with another and kept no source line for \
                     it: it is shown at its kernel",
                );
            }
        }
        self.d = label(self.d, span, primary, message);
        self
    }

    fn note(mut self, note: impl Into<String>) -> Self {
        self.d = self.d.note(note);
        self
    }

    /// A note naming IR instructions: always in the IR style; in the source style only if one
    /// of them has no source position.
    fn ir_note(self, insts: &[&InstRef], note: impl FnOnce() -> String) -> Self {
        if self.style == Style::Ir || insts.iter().any(|i| i.loc.is_none() || at_line_zero(i)) {
            self.note(note())
        } else {
            self
        }
    }
}

/// The diagnostic of one finding.
pub fn diagnostic(finding: &Finding, files: &mut SourceFiles, style: Style) -> Diagnostic {
    fn start(d: Diagnostic, files: &mut SourceFiles, style: Style) -> Builder<'_> {
        Builder { d, files, style }
    }
    match finding {
        Finding::DivergentConvergent {
            function,
            op,
            kind,
            hazard,
        } => {
            let (message, what) = if matches!(**hazard, Hazard::DivergentBarrierId { .. }) {
                (
                    "threads of the block wait at different barriers".to_string(),
                    "every thread of the block must pass the same barrier id here",
                )
            } else if kind.is_block_level() {
                (
                    format!("{} not reached by every thread of the block", kind.noun()),
                    "every thread of the block must reach this",
                )
            } else {
                (
                    format!("{} not reached by every lane of its warp", kind.noun()),
                    "every lane named by the mask must reach this",
                )
            };
            let mut b = start(Diagnostic::error(DIVERGENT_BARRIER, message), files, style)
                .label(op, true, what);
            match hazard.as_ref() {
                Hazard::DivergentBranch {
                    branch,
                    source,
                    witness,
                    in_loop,
                    after_return,
                } => {
                    b = b.label(branch, false, "this branch differs between threads");
                    if let Some(source) = source {
                        b = b.label(source, false, "the difference comes from here");
                    }
                    if let Some((reach, skip)) = witness {
                        b = b.note(format!("{reach} reaches it; {skip} does not"));
                    }
                    if *after_return {
                        b = b.note("some threads may already have returned from the kernel");
                    } else if *in_loop {
                        b = b.note(
                            "it is in a loop whose number of iterations depends on the thread",
                        );
                    }
                    b = b.ir_note(&[op], || format!("in `{function}`: {}", describe(op)));
                    b = b.ir_note(&[branch], || format!("branch: {}", describe(branch)));
                    if let Some(source) = source {
                        b = b.ir_note(&[source], || {
                            format!("divergence from: {}", describe(source))
                        });
                    }
                }
                Hazard::PartialWarp { threads, lanes } => {
                    b = b.note(format!(
                        "a block of {threads} threads ends with a warp of only {lanes} lanes, \
                         but the mask names all 32"
                    ));
                    b = b.ir_note(&[op], || format!("in `{function}`: {}", describe(op)));
                }
                Hazard::DivergentBarrierId { id, witness } => {
                    b = b.label(id, false, "the barrier id differs between threads");
                    if let Some(((a, x), (c, y))) = witness {
                        b = b.note(format!("{a} waits at barrier {x}, {c} at barrier {y}"));
                    }
                    b = b.ir_note(&[op], || format!("in `{function}`: {}", describe(op)));
                    b = b.ir_note(&[id], || format!("barrier id: {}", describe(id)));
                }
            }
            b.d.help(if kind.is_block_level() {
                "move the barrier out of the branch or loop, or make its condition the same for \
                 every thread of the block"
            } else {
                "pass the mask of the lanes that take part (`__activemask()`, or a ballot of the \
                 branch condition)"
            })
        }
        Finding::UnprovenConvergent {
            function,
            op,
            kind,
            branch,
            source,
        } => {
            let mut b = start(
                Diagnostic::warning(
                    UNPROVEN_CONVERGENCE,
                    format!(
                        "could not prove that every thread reaches this {}",
                        kind.noun()
                    ),
                ),
                files,
                style,
            )
            .label(op, true, "this")
            .label(
                branch,
                false,
                "depends on this branch, which may differ between threads",
            );
            b = b.ir_note(&[op], || format!("in `{function}`: {}", describe(op)));
            b = b.ir_note(&[branch], || format!("branch: {}", describe(branch)));
            match source {
                Some(source) if style == Style::Ir || source.loc.is_none() => {
                    b = b.note(format!(
                        "its condition comes from {}, which the analysis cannot see through",
                        describe(source)
                    ));
                }
                Some(source) => {
                    b = b
                        .label(source, false, "from this value")
                        .note("its condition comes from a value the analysis cannot see through");
                }
                None => {}
            }
            b.d
        }
        Finding::Race(race) => {
            race_diagnostic(race, start(Diagnostic::error(DATA_RACE, ""), files, style))
        }
        Finding::UnprovenRace(u) => {
            let mut b = start(
                Diagnostic::warning(
                    UNPROVEN_RACE,
                    "could not prove this memory access free of races",
                ),
                files,
                style,
            )
            .label(&u.inst, true, "this access");
            if let Some(other) = &u.other {
                b = b.label(other, false, "may conflict with this one");
            }
            match &u.culprit {
                Some(culprit) if style == Style::Ir || culprit.loc.is_none() => {
                    b = b.note(format!("{} {}", describe(culprit), u.reason));
                }
                Some(culprit) => {
                    b = b
                        .label(culprit, false, "its address depends on this")
                        .note(format!("a value its address depends on {}", u.reason));
                }
                None => b = b.note(u.reason.clone()),
            }
            b = b.ir_note(&[&u.inst], || {
                format!("in `{}`: {}", u.function, describe(&u.inst))
            });
            if let Some(other) = &u.other {
                b = b.ir_note(&[other], || format!("and: {}", describe(other)));
            }
            b.d
        }
        Finding::InvalidIr(message) => Diagnostic::error(
            crate::diagnostics::INTERNAL_ERROR,
            format!("invalid LLVM IR: {message}"),
        ),
        Finding::Annotation(problem) => {
            Diagnostic::error(crate::diagnostics::INTERNAL_ERROR, problem.to_string())
        }
    }
}

fn race_diagnostic(race: &Race, mut b: Builder<'_>) -> Diagnostic {
    b.d.message = format!(
        "data race on {} `{}`: {} between {}",
        if race.shared_memory {
            "shared"
        } else {
            "global"
        },
        race.object,
        race.hazard(),
        if race.blocks.is_some() {
            "two blocks"
        } else {
            "two threads"
        }
    );
    let block_of = |first: bool| match &race.blocks {
        Some((a, b)) => format!(
            " of block {}",
            llvm_passes::block_text(if first { a } else { b })
        ),
        None => String::new(),
    };
    let side = |access: &llvm_passes::RaceAccess| {
        let first = std::ptr::eq(access, &race.first);
        format!(
            "{}{} {}s bytes {}..{} of `{}`",
            access.thread,
            block_of(first),
            access.kind,
            access.offset,
            access.offset + i128::from(access.bytes),
            race.object
        )
    };
    b = b
        .label(
            &race.first.inst,
            true,
            &format!("{} here", side(&race.first)),
        )
        .label(
            &race.second.inst,
            false,
            &format!("{} here", side(&race.second)),
        )
        .note(format!(
            "{}, while {}",
            side(&race.first),
            side(&race.second)
        ));
    let start = match &race.interval_start {
        Some(barrier) if b.style == Style::Ir || barrier.loc.is_none() => {
            format!("the barrier {}", describe(barrier))
        }
        Some(barrier) => match &barrier.loc {
            Some(loc) => format!("the barrier of {}", loc.outermost()),
            None => "a barrier".to_string(),
        },
        None => "the start of the kernel".to_string(),
    };
    b = b.note(if race.blocks.is_some() {
        "no barrier orders threads of different blocks".to_string()
    } else {
        format!("no barrier orders the two accesses: both can run after {start}")
    });
    if race.across_warps_only {
        b = b.note(
            "`bar.warp.sync` orders the threads of each warp, but these are in different warps",
        );
    }
    if !race.assumptions.is_empty() {
        let values: Vec<String> = race
            .assumptions
            .iter()
            .map(|(name, value)| format!("{name} = {value}"))
            .collect();
        b = b.note(format!("with {}", values.join(", ")));
    }
    if race.similar > 0 {
        b = b.note(format!(
            "{} more pairs of accesses of these statements race the same way",
            race.similar
        ));
    }
    if let Some(n) = race.needs_threads {
        b = b.note(format!(
            "in any block of at least {n} threads (the IR does not fix the block size)"
        ));
    }
    b = b.ir_note(&[&race.first.inst, &race.second.inst], || {
        format!(
            "in `{}`: {} and {}",
            race.function,
            describe(&race.first.inst),
            describe(&race.second.inst)
        )
    });
    b.d.help("put a barrier between the two accesses, or make each thread use its own elements")
}

fn label(d: Diagnostic, span: Option<Span>, primary: bool, message: &str) -> Diagnostic {
    match (span, primary) {
        (Some(span), true) => d.primary(span, message),
        (Some(span), false) => d.secondary(span, message),
        (None, _) => d,
    }
}

/// An instruction as the notes name it: its text and, if it has one, its source position.
fn describe(inst: &InstRef) -> String {
    match &inst.loc {
        Some(loc) => format!("`{}` ({})", inst.text, loc.outermost()),
        None => format!("`{}`", inst.text),
    }
}

/// Whether `inst`'s debug location names no line (a location the optimiser merged).
fn at_line_zero(inst: &InstRef) -> bool {
    inst.loc
        .as_ref()
        .is_some_and(|loc| loc.outermost().line == 0)
}

/// The name of kernel `function` where a source file declares it (`kernel NAME(`).
fn kernel_span(files: &SourceFiles, function: &str) -> Option<Span> {
    let needle = format!("kernel {function}(");
    let mut id = 0u32;
    loop {
        let file = FileId(id);
        if files.name(file) == "<unknown>" {
            return None;
        }
        if let Some(at) = files.source(file).find(&needle) {
            let start = at + "kernel ".len();
            return Some(Span::new(file, start, start + function.len()));
        }
        id += 1;
    }
}

/// The span of a debug location: from its column to the end of its line (without a trailing
/// comment). The outermost location is used: code inlined from a `func` is reported at the
/// statement that called it.
fn span_of(loc: Option<&DebugLoc>, files: &mut SourceFiles, read_sources: bool) -> Option<Span> {
    let loc = loc?.outermost();
    if loc.line == 0 {
        return None;
    }
    let file = find_file(files, loc, read_sources)?;
    let source = files.source(file);
    let line_start = source
        .split_inclusive('\n')
        .take(loc.line as usize - 1)
        .map(str::len)
        .sum::<usize>();
    let line = source.get(line_start..)?.lines().next().unwrap_or("");
    let column = (loc.column as usize).max(1) - 1;
    let start_in_line = line.char_indices().nth(column).map(|(i, _)| i).unwrap_or(0);
    let code = match line.find("--") {
        Some(comment) if comment > start_in_line => &line[..comment],
        _ => line,
    };
    let end_in_line = code.trim_end().len().max(start_in_line + 1).min(line.len());
    Some(Span::new(
        file,
        line_start + start_in_line,
        line_start + end_in_line,
    ))
}

fn find_file(files: &mut SourceFiles, loc: &DebugLoc, read_sources: bool) -> Option<FileId> {
    let mut id = 0u32;
    loop {
        let name = files.name(FileId(id));
        if name == "<unknown>" {
            break;
        }
        if name == loc.file {
            return Some(FileId(id));
        }
        id += 1;
    }
    if !read_sources {
        return None;
    }
    let path = if loc.directory.is_empty() || std::path::Path::new(&loc.file).is_absolute() {
        std::path::PathBuf::from(&loc.file)
    } else {
        std::path::Path::new(&loc.directory).join(&loc.file)
    };
    let text = std::fs::read_to_string(&path).ok()?;
    Some(files.add(loc.file.clone(), text))
}

/// The kernel verifier on a thread of its own, reading a copy of the module (read back from its
/// bitcode, in a context of its own), while the compiling thread hands the module itself to the
/// NVPTX back end, which changes it as it compiles it. The two take a large kernel's last third
/// of the compile between them: exclusive_scan's verifier 34 M instructions, its back end 93 M.
/// The copy is what the verifier would have read (names, debug locations, instruction order and
/// text: bitcode keeps them), so its findings are the same.
pub struct VerifierThread {
    handle: std::thread::JoinHandle<Result<Vec<Finding>, String>>,
}

/// The verifier thread's stack: the compiling thread's (`main.rs`), on which it runs otherwise.
const VERIFIER_STACK_BYTES: usize = 64 << 20;

impl VerifierThread {
    /// Starts verifying a copy of `module`; `None` if no thread could be had (verify here then).
    pub fn start(module: &Module<'_>, options: &VerifyOptions) -> Option<VerifierThread> {
        let bitcode = module.write_bitcode_to_memory().as_slice().to_vec();
        let options = loom_verifier_options(options);
        let verify = move || {
            let context = inkwell::context::Context::create();
            let buffer =
                inkwell::memory_buffer::MemoryBuffer::create_from_memory_range(&bitcode, "copy");
            let copy = Module::parse_bitcode_from_buffer(&buffer, &context)
                .map_err(|e| format!("cannot read the module's copy back: {e}"))?;
            Ok(llvm_passes::verify_kernels(&copy, &options))
        };
        let handle = std::thread::Builder::new()
            .name("loom-verifier".to_string())
            .stack_size(VERIFIER_STACK_BYTES)
            .spawn(verify)
            .ok()?;
        Some(VerifierThread { handle })
    }

    /// Waits for the verifier; the diagnostics of its findings, as [`verify_loom_module`] gives
    /// them.
    pub fn finish(self, files: &mut SourceFiles) -> Result<Vec<Diagnostic>, Diagnostic> {
        let internal = |problem: String| {
            Diagnostic::error(
                crate::diagnostics::INTERNAL_ERROR,
                format!("the kernel verifier failed: {problem}"),
            )
        };
        match self.handle.join() {
            Ok(Ok(findings)) => Ok(loom_diagnostics(&findings, files)),
            Ok(Err(problem)) => Err(internal(problem)),
            Err(_) => Err(internal("it panicked".to_string())),
        }
    }
}
