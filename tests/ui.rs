//! UI tests: one named test per `tests/ui/**/*.loom` file.
//!
//! A file states the diagnostics it expects inline, on the line where each one's primary label
//! starts: `--~ ERROR E0201 mismatched` (id and message substring both optional);
//! `--~^ ERROR ...` points one line up per `^`; `--~ WARNING ...` for warnings; `--~? ERROR ...`
//! expects a diagnostic with no source location (about the command line, say). Every expected
//! diagnostic must appear and every error or warning that appears must be expected, so a file
//! without annotations must compile cleanly all the way to PTX. The rendered diagnostics are
//! also compared with the sibling `.stderr` snapshot; `LOOM_BLESS=1` rewrites the snapshots.
//! Directives in the shared header syntax (`tests/support/header.rs`): `-- BLOCK-SIZE: N` or
//! `-- ARCH: sm_XX` sets that option; `-- MUTATE: remove-barrier N` (or `guard-barrier N`,
//! `opaque-guard-barrier N`) seeds a bug in the optimised IR for the kernel verifier to find
//! (`tests/support/mutation.rs`).

#[path = "support/header.rs"]
mod header;
#[path = "support/mutation.rs"]
mod mutation;
#[path = "support/mod.rs"]
mod support;

use codespan_reporting::term::termcolor::NoColor;
use libtest_mimic::{Arguments, Failed, Trial};
use loomc::diagnostics::{Diagnostic, Severity, SourceFiles};
use loomc::driver::{Emit, Options};
use loomc::target::OptLevel;
use mutation::Mutation;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn main() {
    let args = Arguments::from_args();
    let files = support::files_with_extension("tests/ui", "loom");
    let mut trials: Vec<Trial> = files
        .iter()
        .map(|path| {
            let name = path
                .strip_prefix("tests/ui")
                .unwrap_or(path)
                .with_extension("");
            let path = path.clone();
            Trial::test(name.display().to_string(), move || run_case(&path))
        })
        .collect();
    trials.push(Trial::test(
        "every_diagnostic_id_has_an_explanation",
        every_id_has_an_explanation,
    ));
    trials.push(Trial::test("every_diagnostic_id_has_a_case", move || {
        every_id_has_a_case(&files)
    }));
    libtest_mimic::run(&args, trials).exit();
}

/// The options a case's directives ask for (`-- BLOCK-SIZE: N`, `-- ARCH: sm_XX`), and the bugs
/// it seeds (`-- MUTATE: remove-barrier N`).
fn options_for(file: &str, source: &str) -> Result<(Options, Vec<Mutation>), String> {
    let mut options = Options {
        emit: vec![Emit::Ptx],
        opt: OptLevel::O3,
        arch: "sm_80".to_string(),
        block_size: 256,
        ..Options::default()
    };
    let mut mutations = Vec::new();
    for d in header::parse(file, source, &["BLOCK-SIZE", "ARCH", "MUTATE"])? {
        let at = format!("{file}:{}", d.line);
        match d.key.as_str() {
            "BLOCK-SIZE" => {
                options.block_size = d
                    .value
                    .parse()
                    .map_err(|_| format!("{at}: bad block size `{}`", d.value))?
            }
            "ARCH" => options.arch = d.value.clone(),
            // A seeded bug for the kernel verifier: `remove-barrier N` or `guard-barrier N`.
            _ => mutations.push(Mutation::parse(&d.value).map_err(|e| format!("{at}: {e}"))?),
        }
    }
    Ok((options, mutations))
}

struct Seen {
    line: usize,
    severity: Severity,
    code: String,
    message: String,
}

fn run_case(path: &Path) -> Result<(), Failed> {
    let root = support::repo_root();
    let source =
        std::fs::read_to_string(root.join(path)).map_err(|e| format!("{}: {e}", path.display()))?;
    let name = path.display().to_string();
    let expectations = header::expectations(&source).map_err(|e| format!("{name}: {e}"))?;
    let (options, mutations) = options_for(&name, &source)?;
    let mut files = SourceFiles::default();
    let compilation = mutation::compile_mutated(&mut files, &name, &source, &options, &mutations);

    let mut seen = Vec::new();
    let mut problems = Vec::new();
    for diagnostic in compilation
        .diagnostics
        .iter()
        .filter(|d| d.severity != Severity::Note)
    {
        let line = match diagnostic.primary_span() {
            Some(span) if files.name(span.file) == name => files.line_col(span.file, span.start).0,
            None => header::NO_LOCATION,
            Some(_) => {
                problems.push(format!(
                    "diagnostic outside the test file: [{}] {}",
                    diagnostic.code, diagnostic.message
                ));
                continue;
            }
        };
        seen.push(Seen {
            line,
            severity: diagnostic.severity,
            code: diagnostic.code.to_string(),
            message: diagnostic.message.clone(),
        });
    }
    let mut matched = vec![false; seen.len()];
    for expectation in &expectations {
        let hit = seen.iter().enumerate().position(|(i, s)| {
            !matched[i]
                && s.line == expectation.line
                && s.severity == expectation.severity
                && expectation.code.as_ref().is_none_or(|c| *c == s.code)
                && s.message.contains(&expectation.substring)
        });
        match hit {
            Some(i) => matched[i] = true,
            None => problems.push(format!(
                "expected on line {}: {:?}",
                expectation.line, expectation
            )),
        }
    }
    for (s, _) in seen.iter().zip(&matched).filter(|(_, m)| !**m) {
        problems.push(format!(
            "unexpected on line {}: {:?} [{}] {}",
            s.line, s.severity, s.code, s.message
        ));
    }
    if compilation.has_internal_error() {
        problems.push("internal compiler error".to_string());
    }
    compare_snapshot(
        &root.join(path).with_extension("stderr"),
        &render(&files, &compilation.diagnostics),
        &mut problems,
    );
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{}:\n  {}\n\nall diagnostics:\n{}",
            path.display(),
            problems.join("\n  "),
            render(&files, &compilation.diagnostics)
        )
        .into())
    }
}

fn render(files: &SourceFiles, diagnostics: &[Diagnostic]) -> String {
    let mut out = NoColor::new(Vec::new());
    for diagnostic in diagnostics {
        let _ = files.render_human(diagnostic, &mut out);
    }
    String::from_utf8_lossy(&out.into_inner()).into_owned()
}

fn compare_snapshot(snapshot: &PathBuf, actual: &str, problems: &mut Vec<String>) {
    let bless = std::env::var_os("LOOM_BLESS").is_some();
    let expected = std::fs::read_to_string(snapshot).ok();
    if bless {
        let result = if actual.is_empty() {
            std::fs::remove_file(snapshot).or(Ok(()))
        } else {
            std::fs::write(snapshot, actual)
        };
        if let Err(e) = result {
            problems.push(format!("cannot bless {}: {e}", snapshot.display()));
        }
        return;
    }
    match expected {
        None if actual.is_empty() => {}
        None => problems.push(format!("no snapshot {}: run with LOOM_BLESS=1 to create it", snapshot.display())),
        Some(expected) if expected == actual => {}
        Some(expected) => problems.push(format!(
            "snapshot {} differs (LOOM_BLESS=1 rewrites it):\n--- expected\n{expected}\n--- actual\n{actual}",
            snapshot.display()
        )),
    }
}

/// Codes about the machine rather than the program, which a `.loom` file cannot provoke: a
/// missing libdevice or NVIDIA tool, an unwritable dump directory. Each is tested where the
/// environment can be changed, by a `#[test]` function whose body asserts the code.
struct TestedElsewhere {
    code: &'static str,
    file: &'static str,
    /// The `#[test]` function in `file`.
    test: &'static str,
    /// An assertion in that function's code (not its comments) naming `code`, literally or
    /// through `constant`.
    assertion: &'static str,
    /// `(file, NAME)`: `file` defines `pub const NAME: &str = "CODE";`.
    constant: Option<(&'static str, &'static str)>,
}

const TESTED_ELSEWHERE: &[TestedElsewhere] = &[
    TestedElsewhere {
        code: "E0802",
        file: "src/target.rs",
        test: "missing_libdevice_is_a_diagnostic",
        assertion: "assert_eq!(missing.code, error::LIBDEVICE)",
        constant: Some(("src/target/error.rs", "LIBDEVICE")),
    },
    TestedElsewhere {
        code: "E0803",
        file: "tests/inspect.rs",
        test: "missing_nvidia_tools_are_a_diagnostic",
        assertion: "assert!(err.contains(\"error[E0803]\")",
        constant: None,
    },
    TestedElsewhere {
        code: "E0804",
        file: "tests/inspect.rs",
        test: "an_unwritable_dump_directory_is_a_diagnostic",
        assertion: "assert!(stderr(&run).contains(\"error[E0804]\")",
        constant: None,
    },
    TestedElsewhere {
        code: "E0805",
        file: "tests/cli.rs",
        test: "a_full_device_is_an_error_not_a_success",
        assertion: "assert_eq!(diagnostic[\"code\"], \"E0805\")",
        constant: None,
    },
    TestedElsewhere {
        code: "E0806",
        file: "tests/cli.rs",
        test: "an_unknown_kernel_is_a_usage_error_listing_the_kernels",
        assertion: "assert_eq!(diagnostic[\"code\"], \"E0806\")",
        constant: None,
    },
];

impl TestedElsewhere {
    /// Why the named test does not test the code, if it does not.
    fn missing(&self) -> Option<String> {
        let root = support::repo_root();
        let read = |file: &str| std::fs::read_to_string(root.join(file)).unwrap_or_default();
        let where_ = format!(
            "{} (said to be tested in {}::{})",
            self.code, self.file, self.test
        );
        let Some(body) = test_body(&read(self.file), self.test) else {
            return Some(format!("{where_}: no `#[test] fn {}` there", self.test));
        };
        if !self.assertion.starts_with("assert") || !body.contains(self.assertion) {
            return Some(format!("{where_}: its code lacks `{}`", self.assertion));
        }
        let names_code = self.assertion.contains(self.code)
            || self.constant.is_some_and(|(file, name)| {
                self.assertion.contains(name)
                    && read(file).contains(&format!("pub const {name}: &str = \"{}\";", self.code))
            });
        (!names_code).then(|| format!("{where_}: `{}` does not name the code", self.assertion))
    }
}

/// The code of `#[test] fn name` in Rust source `text`, without `//` comments: from its `fn`
/// line to the brace that closes it.
fn test_body(text: &str, name: &str) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.trim_start().starts_with(&format!("fn {name}(")))?;
    let attributes = lines[..at].iter().rev().map(|l| l.trim());
    if !attributes
        .take_while(|l| l.starts_with("#["))
        .any(|l| l == "#[test]")
    {
        return None;
    }
    let mut body = String::new();
    let mut depth = 0i32;
    for line in &lines[at..] {
        let code = without_comment(line);
        depth += code.matches('{').count() as i32 - code.matches('}').count() as i32;
        body.push_str(code.trim());
        body.push('\n');
        if depth == 0 && code.contains('}') {
            return Some(body);
        }
    }
    None
}

/// `line` up to a `//` that is outside a string literal.
fn without_comment(line: &str) -> &str {
    let mut in_string = false;
    let mut escaped = false;
    for (i, c) in line.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if in_string => escaped = true,
            '"' => in_string = !in_string,
            '/' if !in_string && line[i + 1..].starts_with('/') => return &line[..i],
            _ => {}
        }
    }
    line
}

/// Every diagnostic id the compiler defines.
fn defined_ids() -> impl Iterator<Item = &'static &'static str> {
    loomc::syntax::CODES
        .iter()
        .chain(loomc::check::CODES)
        .chain(loomc::codegen::CODES)
        .chain(loomc::target::CODES)
        .chain(loomc::verify::CODES)
}

/// `loomc explain` knows every id: each has a `docs/errors/<id>.md` (embedded by build.rs).
fn every_id_has_an_explanation() -> Result<(), Failed> {
    let unexplained: Vec<&str> = defined_ids()
        .copied()
        .filter(|code| loomc::diagnostics::explanation(code).is_none())
        .collect();
    if unexplained.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "diagnostic ids without docs/errors/<id>.md for `loomc explain`: {unexplained:?}"
        )
        .into())
    }
}

/// Every diagnostic id the compiler defines must be expected by at least one UI case (or, for
/// the few in `TESTED_ELSEWHERE`, by the test named there).
fn every_id_has_a_case(files: &[PathBuf]) -> Result<(), Failed> {
    let root = support::repo_root();
    let mut tested = BTreeSet::new();
    for path in files {
        let source = std::fs::read_to_string(root.join(path)).map_err(|e| e.to_string())?;
        for expectation in header::expectations(&source)? {
            tested.extend(expectation.code);
        }
    }
    let defined = defined_ids();
    let mut untested: Vec<String> = Vec::new();
    for code in defined.filter(|code| !tested.contains(**code)) {
        match TESTED_ELSEWHERE.iter().find(|t| t.code == *code) {
            Some(elsewhere) => untested.extend(elsewhere.missing()),
            None => untested.push(code.to_string()),
        }
    }
    if untested.is_empty() {
        Ok(())
    } else {
        Err(format!("diagnostic ids without a UI case under tests/ui: {untested:?}").into())
    }
}
