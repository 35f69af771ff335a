//! `--interleave-source`: PTX with the LOOM source lines it comes from, as comments, the way
//! `nvdisasm -g` and CUDA.jl's `@device_code_ptx debuginfo=:source` show code next to source.
//!
//! It reads the line information that `-g` puts into the PTX: `.file N "name"` names a source
//! file and `.loc N LINE COLUMN` says which line the following instructions come from. Before
//! each `.loc` that moves to another line, a comment `// name:LINE: text` is inserted; the
//! directives stay, so the result is still PTX that ptxas assembles. Line 0 is LLVM's mark for
//! code that comes from no line (spills, block layout), and gets no comment.

use crate::diagnostics::SourceFiles;
use crate::syntax::span::FileId;
use std::collections::HashMap;

/// `ptx` with a comment holding the source line before each `.loc` that changes the line.
pub fn interleave_source(ptx: &str, files: &SourceFiles) -> String {
    let names = file_directives(ptx);
    let sources = sources_by_name(files);
    let mut out = String::with_capacity(ptx.len() * 2);
    let mut shown: Option<(u32, u32)> = None;
    for line in ptx.split_inclusive('\n') {
        if let Some((file, number)) = loc(line) {
            if number > 0 && shown != Some((file, number)) {
                shown = Some((file, number));
                if let Some(comment) = source_comment(&names, &sources, file, number) {
                    let indent: String = line.chars().take_while(|c| c.is_whitespace()).collect();
                    out.push_str(&format!("{indent}// {comment}\n"));
                }
            }
        }
        out.push_str(line);
    }
    out
}

/// SASS from `nvdisasm -g` (what `--emit=sass` gives for PTX with line information) with each
/// `//## File "saxpy.loom", line 5` completed by the text of that line.
pub fn interleave_source_sass(sass: &str, files: &SourceFiles) -> String {
    let sources = sources_by_name(files);
    let mut out = String::with_capacity(sass.len() * 2);
    for line in sass.split_inclusive('\n') {
        match sass_line_marker(line) {
            Some((name, number)) if number > 0 => {
                let text = source_by_file_name(&sources, name)
                    .and_then(|source| source.lines().nth(number as usize - 1))
                    .map(str::trim)
                    .unwrap_or("");
                out.push_str(line.trim_end_matches('\n'));
                out.push_str(&format!(": {text}\n"));
            }
            _ => out.push_str(line),
        }
    }
    out
}

/// The file and line of `//## File "saxpy.loom", line 5` (nvdisasm's form).
fn sass_line_marker(line: &str) -> Option<(&str, u32)> {
    let rest = line.trim().strip_prefix("//## File \"")?;
    let (name, rest) = rest.split_once('"')?;
    let number = rest.trim().strip_prefix(", line")?.trim().parse().ok()?;
    Some((name, number))
}

/// ptxas keeps only the file name of `.file`'s path: match on it when the whole path differs.
fn source_by_file_name<'s>(sources: &'s HashMap<String, String>, name: &str) -> Option<&'s str> {
    if let Some(source) = sources.get(name) {
        return Some(source);
    }
    let base = |path: &str| path.rsplit('/').next().unwrap_or(path).to_string();
    sources
        .iter()
        .find(|(path, _)| base(path) == base(name))
        .map(|(_, source)| source.as_str())
}

/// `// saxpy.loom:5: y[[current]] <- a * x[[current]] + y[[current]]`
fn source_comment(
    names: &HashMap<u32, String>,
    sources: &HashMap<String, String>,
    file: u32,
    number: u32,
) -> Option<String> {
    let name = names.get(&file)?;
    let text = sources
        .get(name)
        .and_then(|source| source.lines().nth(number as usize - 1))
        .map(str::trim)
        .unwrap_or("");
    Some(format!("{name}:{number}: {text}"))
}

/// `.file 1 "examples/saxpy.loom"` (LLVM may add a timestamp and size after the name).
fn file_directives(ptx: &str) -> HashMap<u32, String> {
    ptx.lines()
        .filter_map(|line| {
            let rest = line.trim().strip_prefix(".file")?;
            let (number, name) = rest.trim().split_once(char::is_whitespace)?;
            let name = name.trim().strip_prefix('"')?.split('"').next()?;
            Some((number.parse().ok()?, name.to_string()))
        })
        .collect()
}

/// The file and line of `.loc 1 5 3` (or `.loc 1 5 3, function_name ...`).
fn loc(line: &str) -> Option<(u32, u32)> {
    let mut words = line.trim().strip_prefix(".loc")?.split_whitespace();
    let file = words.next()?.parse().ok()?;
    let number = words.next()?.trim_end_matches(',').parse().ok()?;
    Some((file, number))
}

fn sources_by_name(files: &SourceFiles) -> HashMap<String, String> {
    (0..)
        .map(FileId)
        .map_while(|id| {
            let name = files.name(id);
            (name != "<unknown>").then(|| (name.to_string(), files.source(id).to_string()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const PTX: &str = "\
.visible .entry k(
{
\t.loc\t1 2 0
\tld.param.u64 \t%rd1, [k_param_0];
\t.loc\t1 3 3
\tmov.u32 \t%r1, %ctaid.x;
\t.loc\t1 0 3
\tmov.u32 \t%r2, 0;
\t.loc\t1 3 3
\tst.global.u32 \t[%rd1], %r1;
\tret;
}
\t.file\t1 \"k.loom\"
";

    #[test]
    fn sass_line_markers_get_their_source_text() {
        let mut files = SourceFiles::default();
        files.add(
            "dir/k.loom",
            "-- a kernel\nkernel k(out: Int32[BLOCKS])\n  out[B] <- B\n",
        );
        let sass = "\t//## File \"k.loom\", line 3\n        /*0010*/    S2R R0, SR_CTAID.X ;\n";
        assert_eq!(
            interleave_source_sass(sass, &files),
            "\t//## File \"k.loom\", line 3: out[B] <- B\n        /*0010*/    S2R R0, SR_CTAID.X ;\n"
        );
    }

    #[test]
    fn each_line_change_gets_its_source_line() {
        let mut files = SourceFiles::default();
        files.add(
            "k.loom",
            "-- a kernel\nkernel k(out: Int32[BLOCKS])\n  out[B] <- B\n",
        );
        let annotated = interleave_source(PTX, &files);
        assert_eq!(
            annotated,
            "\
.visible .entry k(
{
\t// k.loom:2: kernel k(out: Int32[BLOCKS])
\t.loc\t1 2 0
\tld.param.u64 \t%rd1, [k_param_0];
\t// k.loom:3: out[B] <- B
\t.loc\t1 3 3
\tmov.u32 \t%r1, %ctaid.x;
\t.loc\t1 0 3
\tmov.u32 \t%r2, 0;
\t.loc\t1 3 3
\tst.global.u32 \t[%rd1], %r1;
\tret;
}
\t.file\t1 \"k.loom\"
"
        );
    }
}
