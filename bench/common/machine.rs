//! What a saved benchmark table says about when and where it was measured. Shared by
//! `bench/static_compare.rs` and `bench/compile_scaling.rs`.

use std::process::Command;

/// Today's date in UTC, `YYYY-MM-DD` (empty if `date` cannot be run).
pub fn today() -> String {
    Command::new("date")
        .args(["-u", "+%Y-%m-%d"])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default()
}

/// The processor architecture and core count: `x86_64 with 2 cores`.
pub fn description() -> String {
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    format!("{} with {cores} cores", std::env::consts::ARCH)
}
