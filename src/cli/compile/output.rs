//! Writing the compiled outputs: where each kind goes and how it gets there.
//!
//! A regular file (or a path that does not exist yet) is written through a temporary file in its
//! directory, renamed into place once every output is complete, so that a failed or interrupted
//! run never leaves a partial file. Anything else (a device such as `/dev/null`, a FIFO, a
//! terminal, `/dev/stdout`) is opened and written in place, as `cc -o` does: renaming over it
//! would replace a device node with a regular file. Every write is checked (`-o /dev/full` fails
//! with "no space left on device").

use loomc::diagnostics::Diagnostic;
use loomc::driver::Emit;
use loomc::target::OUTPUT;
use std::fs::{OpenOptions, Permissions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Where one kind of output goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Destination {
    Stdout,
    Path(PathBuf),
}

/// An output written but not yet in place: a temporary file to rename, or nothing left to do.
enum Staged {
    Rename {
        temp: tempfile::NamedTempFile,
        target: PathBuf,
        shown: PathBuf,
    },
    Done,
}

/// Writes every `(destination, text)`; regular files appear only if every write succeeded.
pub fn write_all(outputs: &[(Destination, &str)]) -> Result<(), Diagnostic> {
    let mut staged = Vec::new();
    for (destination, text) in outputs {
        staged.push(match destination {
            Destination::Stdout => {
                write_stdout(text)?;
                Staged::Done
            }
            Destination::Path(path) => stage(path, text)?,
        });
    }
    for output in staged {
        if let Staged::Rename {
            temp,
            target,
            shown,
        } = output
        {
            temp.persist(&target)
                .map_err(|e| cannot_write(&shown, &e.error))?;
        }
    }
    Ok(())
}

fn write_stdout(text: &str) -> Result<(), Diagnostic> {
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
        .map_err(|e| Diagnostic::error(OUTPUT, format!("cannot write to standard output: {e}")))
}

/// Writes `text` in place when `path` is not a regular file, else into a temporary file beside
/// the file the path resolves to (a symbolic link stays a link; its target is replaced).
fn stage(path: &Path, text: &str) -> Result<Staged, Diagnostic> {
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_dir() => Err(Diagnostic::error(
            OUTPUT,
            format!("cannot write `{}`: it is a directory", path.display()),
        )
        .help("name a file with `-o`, for example `-o build/kernel.ptx`")),
        Ok(meta) if !meta.is_file() || names_a_descriptor(path) => {
            write_in_place(path, text)?;
            Ok(Staged::Done)
        }
        Ok(meta) => {
            let target = std::fs::canonicalize(path).map_err(|e| cannot_write(path, &e))?;
            let temp = temp_beside(&target, path, Some(meta.permissions()), text)?;
            Ok(Staged::Rename {
                temp,
                target,
                shown: path.to_path_buf(),
            })
        }
        Err(_) => {
            let temp = temp_beside(path, path, new_file_permissions(), text)?;
            Ok(Staged::Rename {
                temp,
                target: path.to_path_buf(),
                shown: path.to_path_buf(),
            })
        }
    }
}

/// `/dev/stdout`, `/dev/fd/N`, `/proc/self/fd/N`: another name for an open descriptor, which
/// may be a regular file (`loomc k.loom -o /dev/stdout > k.ptx`, or `>>`): written through the
/// descriptor, as the shell set it up, never replaced by a new file.
pub(crate) fn names_a_descriptor(path: &Path) -> bool {
    // Only these names: a regular file elsewhere under /dev (`/dev/shm/k.ptx`) is replaced like
    // any other, not appended to.
    let under = |dir: &str| {
        path.strip_prefix(dir)
            .is_ok_and(|rest| rest.components().count() == 1)
    };
    matches!(path.to_str(), Some("/dev/stdout" | "/dev/stderr"))
        || under("/dev/fd")
        || under("/proc/self/fd")
        || path
            .strip_prefix("/proc")
            .ok()
            .and_then(|rest| rest.to_str())
            .and_then(|rest| rest.split_once("/fd/"))
            .is_some_and(|(pid, fd)| {
                pid.bytes().all(|b| b.is_ascii_digit()) && !fd.is_empty() && !fd.contains('/')
            })
}

fn write_in_place(path: &Path, text: &str) -> Result<(), Diagnostic> {
    // Appending, not truncating: a device or FIFO has nothing to truncate (O_TRUNC on some is an
    // error), and `/dev/stdout` redirected to a file reopens that file, where appending is what
    // the shell's `>` (an empty file) and `>>` both mean. The path exists: nothing is created.
    let mut file = OpenOptions::new()
        .append(true)
        .open(path)
        .map_err(|e| cannot_write(path, &e))?;
    file.write_all(text.as_bytes())
        .and_then(|()| file.flush())
        .map_err(|e| cannot_write(path, &e))
}

/// A temporary file in `target`'s directory holding `text`, with `permissions` (which the umask
/// narrows for a new file, as it would the file itself). `shown` is the user's spelling.
fn temp_beside(
    target: &Path,
    shown: &Path,
    permissions: Option<Permissions>,
    text: &str,
) -> Result<tempfile::NamedTempFile, Diagnostic> {
    let dir = match target.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    if !dir.is_dir() {
        return Err(Diagnostic::error(
            OUTPUT,
            format!(
                "cannot write `{}`: the directory `{}` does not exist",
                shown.display(),
                dir.display()
            ),
        )
        .help(format!(
            "make it first (`mkdir -p {}`); loomc does not create directories",
            dir.display()
        )));
    }
    let mut builder = tempfile::Builder::new();
    builder.prefix(".loomc-");
    if let Some(permissions) = permissions {
        builder.permissions(permissions);
    }
    let mut temp = builder
        .tempfile_in(dir)
        .map_err(|e| cannot_write(shown, &e))?;
    // No `fsync`: the rename keeps a failed or interrupted run from leaving a partial file, which
    // is what a compiler owes its build (cc, clang and rustc do not sync their outputs either).
    // Syncing waited for the disk on every compile: 0.4 to 3 ms of a 10 ms compile.
    temp.write_all(text.as_bytes())
        .map_err(|e| cannot_write(shown, &e))?;
    Ok(temp)
}

/// A new output gets `rw-rw-rw-` less the umask (0644 under the usual 022), as `cc -o` gives;
/// elsewhere, the platform's default.
pub(crate) fn new_file_permissions() -> Option<Permissions> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        Some(Permissions::from_mode(0o666))
    }
    #[cfg(not(unix))]
    {
        None
    }
}

fn cannot_write(path: &Path, error: &std::io::Error) -> Diagnostic {
    Diagnostic::error(
        OUTPUT,
        format!("cannot write `{}`: {error}", path.display()),
    )
}

/// Where each of `emits` goes: `-o -` (or reading standard input without `-o`) is standard
/// output; with several kinds `-o` names them all (its extension, if any, replaced by each
/// kind's); without `-o`, the input's name with each kind's extension in the current directory.
pub fn destinations(input: &str, output: Option<&Path>, emits: &[Emit]) -> Vec<Destination> {
    let several = emits.len() > 1;
    emits
        .iter()
        .map(|emit| match output {
            Some(path) if path.as_os_str() == "-" => Destination::Stdout,
            Some(path) if several => {
                Destination::Path(with_extension(&path.with_extension(""), *emit))
            }
            Some(path) => Destination::Path(path.to_path_buf()),
            None if input == "-" => Destination::Stdout,
            None => {
                let stem = Path::new(input)
                    .file_stem()
                    .map(PathBuf::from)
                    .unwrap_or_else(|| PathBuf::from("out"));
                Destination::Path(with_extension(&stem, *emit))
            }
        })
        .collect()
}

fn with_extension(path: &Path, emit: Emit) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".");
    name.push(emit.extension());
    PathBuf::from(name)
}
