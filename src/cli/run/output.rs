//! `--out` files: each path is checked before the kernel runs, by creating a temporary file
//! beside it, and the array is written there and renamed into place only after a successful run;
//! a failed run (or a failed write) leaves nothing behind. The same rules as compiled outputs
//! (`cli/compile/output.rs`): a new file gets `rw-rw-rw-` less the umask, a rewritten one keeps
//! its mode, a symbolic link stays a link (its target is replaced), and what is not a regular
//! file (`/dev/null`, a FIFO, `/dev/stdout`) is written in place, never replaced.

use super::{element_of, npy, split_pair, timing, Arrays, Failure};
use crate::cli::compile::output::{names_a_descriptor, new_file_permissions};
use loom_runtime::KernelMetadata;
use std::path::{Path, PathBuf};
use tempfile::NamedTempFile;

/// Where one array goes.
enum Destination {
    /// A temporary file beside `target` (the file a link points at), renamed over it.
    Rename {
        temp: NamedTempFile,
        target: PathBuf,
    },
    /// A device, FIFO or descriptor name: opened and written as it is.
    InPlace,
}

pub struct Outputs {
    /// Parameter name, the path as given, and where the array goes.
    files: Vec<(String, PathBuf, Destination)>,
}

impl Outputs {
    /// Checks every `--out` of `cli`: the parameter is one of `kernel`'s arrays, and its file can
    /// be created.
    pub fn prepare(cli: &super::RunArgs, kernel: &KernelMetadata) -> Result<Outputs, Failure> {
        let mut files = Vec::new();
        for spec in &cli.outputs {
            let (name, path) = split_pair(spec, "--out")?;
            element_of(kernel, &name)?;
            let path = PathBuf::from(path);
            if path.is_dir() {
                return Err(Failure::Usage(format!(
                    "--out {name}=`{}`: that is a directory",
                    path.display()
                )));
            }
            let (target, permissions) = match std::fs::metadata(&path) {
                Ok(meta) if !meta.is_file() || names_a_descriptor(&path) => {
                    files.push((name, path, Destination::InPlace));
                    continue;
                }
                Ok(meta) => {
                    let target = std::fs::canonicalize(&path).map_err(|e| {
                        Failure::Usage(format!(
                            "--out {name}: cannot write `{}`: {e}",
                            path.display()
                        ))
                    })?;
                    (target, Some(meta.permissions()))
                }
                Err(_) => (path.clone(), new_file_permissions()),
            };
            let dir = match target.parent() {
                Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
                _ => PathBuf::from("."),
            };
            let file_name = target
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let prefix = format!(".{file_name}.");
            let mut builder = tempfile::Builder::new();
            builder.prefix(&prefix).suffix(".partial");
            if let Some(permissions) = permissions {
                builder.permissions(permissions);
            }
            let temp = builder.tempfile_in(&dir).map_err(|e| {
                // The error of the temporary file names its random path: say the kind only.
                let why = if dir.is_dir() {
                    std::io::Error::from(e.kind()).to_string()
                } else {
                    format!("there is no directory `{}`", dir.display())
                };
                Failure::Usage(format!(
                    "--out {name}: cannot write `{}`: {why}",
                    path.display()
                ))
            })?;
            files.push((name, path, Destination::Rename { temp, target }));
        }
        Ok(Outputs { files })
    }

    /// Writes each array to its temporary file, then moves them into place; devices and FIFOs
    /// are written directly.
    pub fn write(&mut self, kernel: &KernelMetadata, arrays: &Arrays) -> Result<(), Failure> {
        for (name, path, destination) in &mut self.files {
            let element = element_of(kernel, name)?;
            let array = arrays
                .get(name)
                .ok_or_else(|| Failure::Internal(format!("no array for `{name}`")))?;
            let started = std::time::Instant::now();
            match destination {
                Destination::Rename { temp, .. } => npy::write(temp.as_file_mut(), element, array),
                // Appending, as the compile writer does: a device or FIFO has nothing to
                // truncate, and the path exists already.
                Destination::InPlace => std::fs::OpenOptions::new()
                    .append(true)
                    .open(&*path)
                    .and_then(|mut file| npy::write(&mut file, element, array)),
            }
            .map_err(|e| fail(path, e))?;
            if timing::io_times() {
                timing::report_io("write", name, array.bytes.len(), started.elapsed());
            }
        }
        for (name, path, destination) in std::mem::take(&mut self.files) {
            if let Destination::Rename { temp, target } = destination {
                let started = std::time::Instant::now();
                temp.persist(&target).map_err(|e| fail(&path, e.error))?;
                if timing::io_times() {
                    timing::report_io("rename", &name, 0, started.elapsed());
                }
            }
        }
        Ok(())
    }
}

fn fail(path: &Path, e: std::io::Error) -> Failure {
    Failure::Program(format!("cannot write `{}`: {e}", path.display()))
}
