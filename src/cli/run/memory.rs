//! Arrays that start as zeros (`--out` only) are sized from the kernel's declared shape, which a
//! scalar argument can make huge (`Float64[n, n]` with n = 100000 is 80 GB): their sizes are
//! checked against the memory the machine has before anything is allocated, and allocation
//! failure is an error, never an abort.

use super::bytes::Bytes;
use super::npy::Array;
use super::Failure;
use loom_runtime::{KernelMetadata, ParamKind, ScalarType};

/// Zero-filled arrays for `zeros` (name, element type, shape), by name, or an error naming the parameter that needs more memory than there is. `already` bytes are in use
/// by the arrays read from files.
pub fn allocate_zeros(
    kernel: &KernelMetadata,
    zeros: &[(String, ScalarType, Vec<usize>)],
    already: usize,
) -> Result<Vec<(String, Array)>, Failure> {
    let available = available_bytes();
    let mut total = already;
    let mut sized = Vec::new();
    for (name, element, shape) in zeros {
        let declared = kernel
            .params
            .iter()
            .find(|p| p.name == *name)
            .map(|p| match &p.kind {
                ParamKind::Array { dims, .. } | ParamKind::Scratch { dims, .. } => format!(
                    "{}[{}]",
                    element.name(),
                    dims.iter()
                        .map(|d| d.text.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                ParamKind::Scalar { .. } | ParamKind::Record { .. } => element.name().to_string(),
            })
            .unwrap_or_default();
        let bytes = shape
            .iter()
            .try_fold(element.size(), |n, d| n.checked_mul(*d));
        let too_much = |needs: String| {
            Failure::Usage(format!(
                "parameter `{name}` ({declared}, shape {shape:?}) needs {needs}, more than this machine has{}",
                available.map_or(String::new(), |a| format!(" ({} available)", human(a as u128)))
            ))
        };
        let Some(bytes) = bytes else {
            let exact = shape
                .iter()
                .fold(element.size() as u128, |n, d| n.saturating_mul(*d as u128));
            return Err(too_much(human(exact)));
        };
        total = total.saturating_add(bytes);
        if available.is_some_and(|a| total > a) {
            return Err(too_much(human(bytes as u128)));
        }
        sized.push((name.clone(), shape.clone(), bytes));
    }
    let mut out = Vec::new();
    for (name, shape, bytes) in sized {
        let data = Bytes::zeroed(bytes).ok_or_else(|| {
            Failure::Program(format!(
                "parameter `{name}` (shape {shape:?}) needs {}, which cannot be allocated",
                human(bytes as u128)
            ))
        })?;
        out.push((name, Array { shape, bytes: data }));
    }
    Ok(out)
}

/// Memory the kernel's arrays may use: Linux's `MemAvailable` plus free swap; `None` where it
/// cannot be read (then only the allocation itself can fail).
fn available_bytes() -> Option<usize> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let field = |key: &str| -> Option<usize> {
        let line = info.lines().find(|l| l.starts_with(key))?;
        let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
        kb.checked_mul(1024)
    };
    Some(field("MemAvailable:")?.saturating_add(field("SwapFree:").unwrap_or(0)))
}

/// Bytes in words: "80.0 GB", "512 bytes".
fn human(bytes: u128) -> String {
    const UNITS: [&str; 6] = ["KB", "MB", "GB", "TB", "PB", "EB"];
    if bytes < 1000 {
        return format!("{bytes} bytes");
    }
    let mut value = bytes as f64;
    let mut unit = "bytes";
    for u in UNITS {
        if value < 1000.0 {
            break;
        }
        value /= 1000.0;
        unit = u;
    }
    format!("{value:.1} {unit}")
}

#[cfg(test)]
mod tests {
    use super::human;

    #[test]
    fn sizes_read_as_words() {
        assert_eq!(human(512), "512 bytes");
        assert_eq!(human(80_000_000_000), "80.0 GB");
        assert_eq!(human(1_500_000), "1.5 MB");
    }
}
