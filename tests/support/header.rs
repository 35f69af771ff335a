//! The one header syntax of LOOM's file tests (docs/testing.md, "File tests"): every runner that
//! reads test files (`tests/ui.rs`, `tests/codegen.rs`, `tests/run/files.rs`) parses them here.
//!
//! A directive is a whole-line comment `-- KEY: value`, where `KEY` is two or more capital
//! letters followed by capitals, digits and hyphens (`RUN`, `CHECK-NEXT`, `BLOCK-SIZE`, `ARG`).
//! Any other comment is prose (`-- E0700: ...` is prose: one letter, then digits). Directives
//! may stand anywhere in the file (FileCheck's `CHECK` lines sit beside the code they match); a
//! runner lists the keys it knows, and any other key, or the retired `--! key: value` form, is
//! an error that names the file and line, so that a misspelt directive cannot silently check
//! nothing.
//!
//! UI cases also annotate lines inline with the diagnostics they expect (`--~ ERROR E0201 msg`,
//! `--~^`, `--~?`): [`expectations`] reads those.
#![allow(dead_code)] // each runner uses a different part

use loomc::diagnostics::Severity;

/// One `-- KEY: value` line.
#[derive(Debug, Clone, PartialEq)]
pub struct Directive {
    pub key: String,
    pub value: String,
    /// 1-based.
    pub line: usize,
}

/// The key of a directive line, and the rest after its colon.
fn split_directive(line: &str) -> Option<(&str, &str)> {
    let rest = line.trim_start().strip_prefix("-- ")?;
    let colon = rest.find(':')?;
    let key = &rest[..colon];
    let capitals = key.chars().take_while(|c| c.is_ascii_uppercase()).count();
    let well_formed = capitals >= 2
        && key
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '-');
    well_formed.then(|| (key, rest[colon + 1..].trim()))
}

/// Whether `key` is one of `known`; an entry ending in `*` takes any key it starts (`CHECK*`).
fn is_known(key: &str, known: &[&str]) -> bool {
    known.iter().any(|k| match k.strip_suffix('*') {
        Some(prefix) => key.starts_with(prefix),
        None => key == *k,
    })
}

/// Every directive of `source` in file order. `file` names the file in errors; a key not in
/// `known` (entries may end in `*`) and a line in the retired `--! key: value` form are errors.
pub fn parse(file: &str, source: &str, known: &[&str]) -> Result<Vec<Directive>, String> {
    let mut directives = Vec::new();
    for (index, text) in source.lines().enumerate() {
        let line = index + 1;
        if text.starts_with("--!") {
            return Err(format!(
                "{file}:{line}: `{text}`: directives are `-- KEY: value` now (docs/testing.md)"
            ));
        }
        let Some((key, value)) = split_directive(text) else {
            continue;
        };
        if !is_known(key, known) {
            return Err(format!(
                "{file}:{line}: unknown directive `{key}:` (this runner knows {})",
                known.join(", ")
            ));
        }
        directives.push(Directive {
            key: key.to_string(),
            value: value.to_string(),
            line,
        });
    }
    Ok(directives)
}

/// The value of the one `key` directive, if any; two are an error.
pub fn single<'a>(
    file: &str,
    directives: &'a [Directive],
    key: &str,
) -> Result<Option<&'a Directive>, String> {
    let mut found = directives.iter().filter(|d| d.key == key);
    let first = found.next();
    match found.next() {
        Some(second) => Err(format!(
            "{file}:{}: a second `{key}:` (the first is on line {})",
            second.line,
            first.map_or(0, |d| d.line)
        )),
        None => Ok(first),
    }
}

/// A diagnostic a UI case expects: `--~ ERROR E0201 substring` on the line it points at.
#[derive(Debug, Clone, PartialEq)]
pub struct Expectation {
    /// 1-based; [`NO_LOCATION`] for `--~?`.
    pub line: usize,
    pub severity: Severity,
    pub code: Option<String>,
    pub substring: String,
}

/// The "line" of a diagnostic without a primary label.
pub const NO_LOCATION: usize = 0;

/// A diagnostic code: `E0201`, `W0851`.
pub fn is_code(word: &str) -> bool {
    word.len() == 5
        && (word.starts_with('E') || word.starts_with('W'))
        && word[1..].chars().all(|c| c.is_ascii_digit())
}

/// The inline annotations of a UI case: `--~ ERROR E0201 msg` (id and message substring both
/// optional) on the line where the diagnostic's primary label starts; `--~^` points one line up
/// per `^`; `WARNING` for warnings; `--~?` a diagnostic with no source location.
pub fn expectations(source: &str) -> Result<Vec<Expectation>, String> {
    let mut expectations = Vec::new();
    for (index, text) in source.lines().enumerate() {
        let Some(at) = text.find("--~") else { continue };
        let rest = &text[at + 3..];
        let (unlocated, rest) = match rest.strip_prefix('?') {
            Some(rest) => (true, rest),
            None => (false, rest),
        };
        let carets = rest.chars().take_while(|c| *c == '^').count();
        let rest = rest[carets..].trim();
        let (severity, rest) = if let Some(r) = rest.strip_prefix("ERROR") {
            (Severity::Error, r)
        } else if let Some(r) = rest.strip_prefix("WARNING") {
            (Severity::Warning, r)
        } else {
            return Err(format!(
                "line {}: annotation must say ERROR or WARNING: `{text}`",
                index + 1
            ));
        };
        let rest = rest.trim();
        let (code, substring) = match rest.split_once(' ').unwrap_or((rest, "")) {
            (first, tail) if is_code(first) => (Some(first.to_string()), tail.trim().to_string()),
            _ => (None, rest.to_string()),
        };
        let line = if unlocated {
            NO_LOCATION
        } else {
            (index + 1)
                .checked_sub(carets)
                .filter(|l| *l >= 1)
                .ok_or(format!("line {}: `^` points above the file", index + 1))?
        };
        expectations.push(Expectation {
            line,
            severity,
            code,
            substring,
        });
    }
    Ok(expectations)
}
