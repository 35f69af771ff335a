//! `--kernel NAME`: compile one kernel of a file. The other kernels are dropped from the parsed
//! program before checking, so every later stage (the AST output, code generation, the IR dumps,
//! the metadata, the PTX and SASS, `--remarks`, `--resource-usage`) sees that kernel alone, with
//! the funcs it calls.

use crate::diagnostics::Diagnostic;
use crate::syntax::ast::{Item, Program};

/// `--kernel` names no kernel of the program: a usage error (exit status 2).
pub const UNKNOWN_KERNEL: &str = "E0806";

/// Keeps only the kernel `name` among `program`'s kernels (funcs and types stay: the checker and
/// code generation keep what the kernel uses).
pub fn only_kernel(program: &mut Program, name: &str) -> Result<(), Diagnostic> {
    let kernels: Vec<String> = program
        .items
        .iter()
        .filter_map(|item| match item {
            Item::Kernel(kernel) => Some(kernel.name.name.clone()),
            _ => None,
        })
        .collect();
    if !kernels.iter().any(|k| k == name) {
        return Err(unknown_kernel(name, &kernels));
    }
    program
        .items
        .retain(|item| !matches!(item, Item::Kernel(kernel) if kernel.name.name != name));
    // Every item is still the user's: a library appended later starts after them.
    program.library_start = program.items.len();
    Ok(())
}

fn unknown_kernel(name: &str, kernels: &[String]) -> Diagnostic {
    let diagnostic = Diagnostic::error(
        UNKNOWN_KERNEL,
        format!("--kernel {name}: the program has no kernel named `{name}`"),
    );
    if kernels.is_empty() {
        return diagnostic.note("the program defines no kernel");
    }
    let listed: Vec<String> = kernels.iter().map(|k| format!("`{k}`")).collect();
    diagnostic
        .note(format!("its kernels: {}", listed.join(", ")))
        .help(format!(
            "pass one of them, for example `--kernel {}`",
            kernels[0]
        ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::span::FileId;

    const TWO: &str = "\
func twice(x: Float32): Float32
  return 2.0 * x

kernel first(x: Float32[THREADS])
  x[block(B)] <- twice /~ x[block(B)]

kernel second(x: Float32[THREADS])
  x[block(B)] <- 0.0
";

    #[test]
    fn keeps_the_named_kernel_and_every_func() {
        let mut program = crate::syntax::parse(FileId(0), TWO, 0).unwrap();
        only_kernel(&mut program, "first").unwrap();
        let names: Vec<&str> = program
            .items
            .iter()
            .map(|i| i.name().name.as_str())
            .collect();
        assert_eq!(names, ["twice", "first"]);
    }

    #[test]
    fn an_unknown_name_lists_the_kernels() {
        let mut program = crate::syntax::parse(FileId(0), TWO, 0).unwrap();
        let error = only_kernel(&mut program, "third").unwrap_err();
        assert_eq!(error.code, UNKNOWN_KERNEL);
        assert_eq!(error.notes, ["its kernels: `first`, `second`"]);
        assert_eq!(program.items.len(), 3, "nothing removed");
    }
}
