//! `--time-passes` and `--resource-usage`: what they measured, as tables for people and as JSON
//! for tools.

use crate::target::occupancy::{occupancy, Occupancy};
use crate::target::sass::KernelResources;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// One LLVM pass's total wall time over the optimiser's run, as LLVM's `-time-passes` measured
/// it (a function pass summed over the functions it ran on).
#[derive(Debug, Clone, PartialEq)]
pub struct LlvmPassTime {
    pub pass: String,
    pub wall: Duration,
}

/// `--time-passes`: wall time of each stage, in pipeline order, and of each LLVM pass of the
/// optimiser.
#[derive(Debug, Clone, Default)]
pub struct StageTimes {
    pub stages: Vec<(&'static str, Duration)>,
    /// LLVM's passes, slowest first (empty when the optimiser did not run).
    pub llvm_passes: Vec<LlvmPassTime>,
    last: Option<Instant>,
}

fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1e3
}

impl StageTimes {
    pub fn start() -> StageTimes {
        StageTimes {
            last: Some(Instant::now()),
            ..StageTimes::default()
        }
    }

    /// Ends the stage `name`, which began at the previous lap.
    pub fn lap(&mut self, name: &'static str) {
        let now = Instant::now();
        let began = self.last.unwrap_or(now);
        self.stages.push((name, now - began));
        self.last = Some(now);
    }

    fn total(&self) -> Duration {
        self.stages.iter().map(|(_, d)| *d).sum()
    }

    /// Tables for standard error: the stages, then LLVM's passes.
    pub fn render(&self) -> String {
        let total = self.total();
        let mut out = String::from("===== loomc: time per stage =====\n");
        for (name, time) in self.stages.iter().chain([&("total", total)]) {
            out.push_str(&format!(
                "{:>10.3} ms {:>5.1}%  {name}\n",
                ms(*time),
                share(*time, total)
            ));
        }
        if !self.llvm_passes.is_empty() {
            let optimiser: Duration = self.llvm_passes.iter().map(|p| p.wall).sum();
            out.push_str(
                "===== LLVM's optimiser: time per pass (wall, LLVM's -time-passes) =====\n",
            );
            for pass in &self.llvm_passes {
                out.push_str(&format!(
                    "{:>10.3} ms {:>5.1}%  {}\n",
                    ms(pass.wall),
                    share(pass.wall, optimiser),
                    pass.pass
                ));
            }
        }
        out
    }

    /// `{"stages": [{"name", "ms"}], "total_ms", "llvm_passes": [{"name", "ms"}]}`.
    pub fn to_json(&self) -> Value {
        let entry = |name: &str, time: Duration| json!({"name": name, "ms": ms(time)});
        json!({
            "stages": self.stages.iter().map(|(n, t)| entry(n, *t)).collect::<Vec<_>>(),
            "total_ms": ms(self.total()),
            "llvm_passes": self
                .llvm_passes
                .iter()
                .map(|p| entry(&p.pass, p.wall))
                .collect::<Vec<_>>(),
        })
    }
}

fn share(part: Duration, whole: Duration) -> f64 {
    if whole.is_zero() {
        0.0
    } else {
        100.0 * part.as_secs_f64() / whole.as_secs_f64()
    }
}

/// Reads the "Pass execution timing report" that LLVM's `-time-passes` writes: one line per pass,
/// `0.0005 ( 36.6%)   0.0001 ( 24.4%)   0.0006 ( 33.3%)   0.0066 ( 84.4%)  InstCombinePass`
/// (user, system, user+system, wall); the wall time is the last number before the name.
pub fn parse_llvm_timing_report(report: &str) -> Vec<LlvmPassTime> {
    let Some(start) = report.find("Pass execution timing report") else {
        return Vec::new();
    };
    let mut passes = Vec::new();
    for line in report[start..]
        .lines()
        .skip_while(|l| !l.contains("--- Name ---"))
        .skip(1)
    {
        let Some(at) = line.rfind("%)") else {
            break;
        };
        let (numbers, name) = line.split_at(at + 2);
        let name = name.trim();
        if name == "Total" {
            break;
        }
        let wall = numbers
            .split_whitespace()
            .filter_map(|t| t.parse::<f64>().ok())
            .next_back();
        if let Some(seconds) = wall {
            passes.push(LlvmPassTime {
                pass: name.to_string(),
                wall: Duration::from_secs_f64(seconds),
            });
        }
    }
    passes
}

/// `--resource-usage` as a table for standard error, with the occupancy at each kernel's block
/// size.
pub fn render_resources(kernels: &[KernelResources], arch: &str) -> String {
    let mut out = format!(
        "===== ptxas -arch={arch} -v: resources per kernel (bytes; registers and local memory \
         per thread, shared memory per block) =====\n\
         {:<20} {:>5} {:>9} {:>5} {:>11} {:>5} {:>6} {:>5} {:>8}  occupancy\n",
        "kernel",
        "block",
        "registers",
        "stack",
        "spill st/ld",
        "local",
        "shared",
        "const",
        "barriers",
    );
    for k in kernels {
        let block = k.block_size.map_or("-".to_string(), |b| b.to_string());
        out.push_str(&format!(
            "{:<20} {:>5} {:>9} {:>5} {:>11} {:>5} {:>6} {:>5} {:>8}  {}\n",
            k.name,
            block,
            k.registers,
            k.stack_frame,
            format!("{}/{}", k.spill_stores, k.spill_loads),
            k.local_bytes,
            k.shared_bytes,
            k.constant_bytes,
            k.barriers,
            occupancy_text(kernel_occupancy(k, arch))
        ));
    }
    out
}

fn kernel_occupancy(kernel: &KernelResources, arch: &str) -> Option<Occupancy> {
    occupancy(
        arch,
        kernel.block_size?,
        kernel.registers,
        kernel.shared_bytes,
    )
}

fn occupancy_text(occupancy: Option<Occupancy>) -> String {
    match occupancy {
        None => "-".to_string(),
        Some(o) => format!(
            "{:.0}% ({} blocks, {}/{} warps per SM; limited by {})",
            100.0 * o.fraction(),
            o.blocks_per_sm,
            o.active_warps,
            o.max_warps,
            o.limited_by.name()
        ),
    }
}

/// `--resource-usage=json`: `{"arch", "kernels": [{..., "occupancy": {...}}]}`.
pub fn resources_json(kernels: &[KernelResources], arch: &str) -> Value {
    let kernels: Vec<Value> = kernels
        .iter()
        .map(|k| {
            let occupancy = kernel_occupancy(k, arch).map(|o| {
                json!({
                    "fraction": o.fraction(),
                    "blocks_per_sm": o.blocks_per_sm,
                    "active_warps": o.active_warps,
                    "max_warps": o.max_warps,
                    "limited_by": o.limited_by.name(),
                })
            });
            json!({
                "name": k.name,
                "block_size": k.block_size,
                "registers": k.registers,
                "stack_frame_bytes": k.stack_frame,
                "spill_store_bytes": k.spill_stores,
                "spill_load_bytes": k.spill_loads,
                "local_bytes": k.local_bytes,
                "shared_bytes": k.shared_bytes,
                "constant_bytes": k.constant_bytes,
                "barriers": k.barriers,
                "occupancy": occupancy,
            })
        })
        .collect();
    json!({"arch": arch, "kernels": kernels})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stage_times_add_up() {
        let mut times = StageTimes::start();
        times.lap("parse");
        times.lap("check");
        let table = times.render();
        assert_eq!(times.stages.len(), 2);
        assert!(
            table.contains("parse") && table.contains("total"),
            "{table}"
        );
        let json = times.to_json();
        assert_eq!(json["stages"][1]["name"], "check");
        assert!(json["total_ms"].as_f64().unwrap() >= 0.0);
    }

    const REPORT: &str = "\
===-------------------------------------------------------------------------===
                          Pass execution timing report
===-------------------------------------------------------------------------===
  Total Execution Time: 0.0018 seconds (0.0078 wall clock)

   ---User Time---   --System Time--   --User+System--   ---Wall Time---  --- Name ---
   0.0005 ( 36.6%)   0.0001 ( 24.4%)   0.0006 ( 33.3%)   0.0066 ( 84.4%)  InstCombinePass
   0.0000 (  1.0%)   0.0000 (  1.4%)   0.0000 (  1.1%)   0.0000 (  0.2%)  RequireAnalysisPass<llvm::GlobalsAA, llvm::Module, llvm::AnalysisManager<Module>>
   0.0013 (100.0%)   0.0005 (100.0%)   0.0018 (100.0%)   0.0078 (100.0%)  Total

===-------------------------------------------------------------------------===
                        Analysis execution timing report
===-------------------------------------------------------------------------===
   0.0000 ( 22.8%)   0.0000 ( 22.5%)   0.0001 ( 22.7%)   0.0001 ( 21.9%)  LazyCallGraphAnalysis
";

    #[test]
    fn llvm_timing_report_gives_each_pass_its_wall_time() {
        let passes = parse_llvm_timing_report(REPORT);
        assert_eq!(passes.len(), 2, "{passes:?}");
        assert_eq!(passes[0].pass, "InstCombinePass");
        assert_eq!(passes[0].wall, Duration::from_secs_f64(0.0066));
        assert!(passes[1]
            .pass
            .starts_with("RequireAnalysisPass<llvm::GlobalsAA, "));
        assert!(parse_llvm_timing_report("nothing").is_empty());
    }

    #[test]
    fn resources_carry_the_occupancy() {
        let kernel = KernelResources {
            name: "k".into(),
            registers: 64,
            block_size: Some(256),
            ..KernelResources::default()
        };
        let table = render_resources(std::slice::from_ref(&kernel), "sm_80");
        assert!(
            table.contains("50% (4 blocks, 32/64 warps per SM; limited by registers)"),
            "{table}"
        );
        let json = resources_json(&[kernel], "sm_80");
        assert_eq!(json["kernels"][0]["occupancy"]["blocks_per_sm"], 4);
        assert_eq!(json["kernels"][0]["occupancy"]["limited_by"], "registers");
    }
}
