//! `--out` files: each path is checked before the kernel runs, by creating a temporary file
//! beside it, and the array is written there and renamed into place only after a successful run;
//! a failed run (or a failed write) leaves nothing behind.

use super::{element_of, npy, split_pair, Arrays, Failure};
use loom_runtime::KernelMetadata;
use std::path::{Path, PathBuf};
use tempfile::NamedTempFile;

pub struct Outputs {
    /// Parameter name, final path, and the temporary file the array goes to first.
    files: Vec<(String, PathBuf, NamedTempFile)>,
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
            let dir = match path.parent() {
                Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
                _ => PathBuf::from("."),
            };
            let file_name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let temp = tempfile::Builder::new()
                .prefix(&format!(".{file_name}."))
                .suffix(".partial")
                .tempfile_in(&dir)
                .map_err(|e| {
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
            files.push((name, path, temp));
        }
        Ok(Outputs { files })
    }

    /// Writes each array to its temporary file and moves it into place.
    pub fn write(&mut self, kernel: &KernelMetadata, arrays: &Arrays) -> Result<(), Failure> {
        for (name, path, temp) in &mut self.files {
            let element = element_of(kernel, name)?;
            let array = arrays
                .get(name)
                .ok_or_else(|| Failure::Internal(format!("no array for `{name}`")))?;
            npy::write(temp.as_file_mut(), element, array).map_err(|e| fail(path, e))?;
        }
        for (_, path, temp) in std::mem::take(&mut self.files) {
            temp.persist(&path).map_err(|e| fail(&path, e.error))?;
        }
        Ok(())
    }
}

fn fail(path: &Path, e: std::io::Error) -> Failure {
    Failure::Program(format!("cannot write `{}`: {e}", path.display()))
}
