//! After PTX: NVIDIA's assembler and disassembler, for `--emit=sass` and `--resource-usage`.
//!
//! LOOM does not link them: `ptxas` turns the PTX into a cubin (for the `-arch` of the PTX) and
//! reports each kernel's registers, spills and shared memory (`-v`); `cuobjdump -sass` (or
//! `nvdisasm`) prints the cubin's machine code. They are found through `LOOM_PTXAS`,
//! `LOOM_CUOBJDUMP` and `LOOM_NVDISASM` (which `.tools/env` sets), then on `PATH`. The parsers
//! here are also what `bench/` uses to compare LOOM's code with nvcc's.

use crate::diagnostics::Diagnostic;
use std::path::{Path, PathBuf};
use std::process::Command;

pub use super::error::NVIDIA_TOOL;

/// What ptxas reported for one kernel (or device function).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KernelResources {
    pub name: String,
    pub registers: u32,
    pub spill_stores: u32,
    pub spill_loads: u32,
    pub stack_frame: u32,
    pub shared_bytes: u32,
    pub barriers: u32,
    /// Local memory per thread (`bytes lmem`): arrays and spills that live outside registers.
    pub local_bytes: u32,
    /// Constant memory, over every bank (`bytes cmem[N]`): bank 0 holds the parameters.
    pub constant_bytes: u32,
    /// Threads per block (the kernel's `@blocksize` or `--block-size`), for the occupancy;
    /// ptxas does not know it.
    pub block_size: Option<u32>,
}

/// Instruction counts of one function's SASS.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SassCounts {
    pub name: String,
    /// Every instruction but the `NOP` padding and the final `BRA` to itself.
    pub total: usize,
    /// Instructions of the longest loop (from a backward branch's target to the branch), if the
    /// function has a loop.
    pub main_loop: Option<usize>,
}

/// What a tool printed: the result on standard output, its reports and warnings on standard
/// error (ptxas' `-v` report is there; nvdisasm's warnings too, which must not reach a `.sass`).
struct ToolOutput {
    stdout: String,
    stderr: String,
}

/// Runs an external tool for `arch`; a missing tool or a failure is a diagnostic naming it.
fn run_tool(
    tool: &str,
    path: &Path,
    arch: &str,
    args: &[&std::ffi::OsStr],
) -> Result<ToolOutput, Diagnostic> {
    let output = Command::new(path).args(args).output().map_err(|e| {
        tool_error(
            tool,
            format!("cannot run `{}`: {e}", path.display()),
            "install NVIDIA's tools with scripts/setup and `source .tools/env`",
        )
    })?;
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    if output.status.success() {
        return Ok(ToolOutput { stdout, stderr });
    }
    let problem = format!(
        "`{}` failed ({}): {}",
        path.display(),
        output.status,
        stderr.trim()
    );
    Err(tool_error(
        tool,
        problem,
        &failure_help(tool, arch, &stderr),
    ))
}

/// Why a tool refused: NVIDIA's tools drop old architectures (CUDA 13's nvdisasm says
/// `CUDA architecture "SM50" is deprecated. Please use CUDA toolkit 13.0 or earlier`), so a
/// refusal that says so is a tool too new for `arch`; otherwise the PTX is at fault.
fn failure_help(tool: &str, arch: &str, stderr: &str) -> String {
    let lower = stderr.to_ascii_lowercase();
    if lower.contains("deprecated") || lower.contains("or earlier") || lower.contains("no longer") {
        format!(
            "this `{tool}` is too new for `{arch}`: NVIDIA dropped that architecture from it; \
             point LOOM_{} at a `{tool}` from an older CUDA toolkit that still supports \
             `{arch}` (CUDA 12 supports sm_50 and later), or choose a newer `--arch`",
            tool.to_ascii_uppercase()
        )
    } else {
        "the PTX loomc made was refused: this is a bug in loomc, or the tool is too old for the \
         PTX version or architecture"
            .to_string()
    }
}

fn tool_error(tool: &str, problem: String, help: &str) -> Diagnostic {
    Diagnostic::from(super::TargetError::NvidiaTool {
        tool: tool.to_string(),
        problem,
        help: help.to_string(),
    })
}

/// The tool named by `variable`, else `name` on `PATH`.
pub fn find_tool(variable: &str, name: &str) -> Option<PathBuf> {
    if let Some(path) = std::env::var_os(variable) {
        return Some(PathBuf::from(path)).filter(|p| p.is_file());
    }
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join(name))
            .find(|p| p.is_file())
    })
}

fn ptxas() -> Result<PathBuf, Diagnostic> {
    find_tool("LOOM_PTXAS", "ptxas").ok_or_else(|| {
        tool_error(
            "ptxas",
            "ptxas was not found (LOOM_PTXAS is unset or names no file, and none is on PATH)"
                .to_string(),
            "scripts/setup installs NVIDIA's ptxas into .tools/; `source .tools/env` sets LOOM_PTXAS",
        )
    })
}

/// Assembles `ptx` for `arch` with `ptxas -v` into `dir`; the cubin's path and ptxas' report.
/// `line_info` keeps the PTX's `.loc` lines in the cubin (`-lineinfo`), for `nvdisasm -g`.
fn assemble(
    ptx: &str,
    arch: &str,
    dir: &Path,
    line_info: bool,
) -> Result<(PathBuf, String), Diagnostic> {
    let ptxas = ptxas()?;
    let input = dir.join("kernel.ptx");
    let cubin = dir.join("kernel.cubin");
    std::fs::write(&input, ptx).map_err(|e| {
        tool_error(
            "ptxas",
            format!("cannot write {}: {e}", input.display()),
            "check the temporary directory",
        )
    })?;
    let arch_flag = format!("-arch={arch}");
    let mut args: Vec<&std::ffi::OsStr> = vec![
        arch_flag.as_ref(),
        "-v".as_ref(),
        input.as_os_str(),
        "-o".as_ref(),
        cubin.as_os_str(),
    ];
    if line_info {
        args.push("-lineinfo".as_ref());
    }
    let output = run_tool("ptxas", &ptxas, arch, &args)?;
    // `-v` reports on standard error; both are kept so that no line of the report is lost.
    Ok((cubin, output.stdout + &output.stderr))
}

fn temp_dir() -> Result<tempfile::TempDir, Diagnostic> {
    tempfile::tempdir().map_err(|e| {
        tool_error(
            "ptxas",
            format!("cannot make a temporary directory: {e}"),
            "check TMPDIR",
        )
    })
}

/// `--resource-usage`: ptxas' registers, spills and shared memory for each kernel of `ptx`.
pub fn resource_usage(ptx: &str, arch: &str) -> Result<Vec<KernelResources>, Diagnostic> {
    let dir = temp_dir()?;
    let (_, report) = assemble(ptx, arch, dir.path(), false)?;
    Ok(parse_ptxas_report(&report))
}

/// `--emit=sass`: the machine code of `ptx` for `arch`, from `cuobjdump -sass` (or
/// `nvdisasm -c` when only that is installed).
pub fn disassemble(ptx: &str, arch: &str) -> Result<String, Diagnostic> {
    let cuobjdump = find_tool("LOOM_CUOBJDUMP", "cuobjdump");
    let nvdisasm = find_tool("LOOM_NVDISASM", "nvdisasm");
    if cuobjdump.is_none() && nvdisasm.is_none() {
        return Err(tool_error(
            "cuobjdump",
            "neither cuobjdump nor nvdisasm was found (LOOM_CUOBJDUMP, LOOM_NVDISASM, PATH)"
                .to_string(),
            "scripts/setup installs them into .tools/; `source .tools/env` sets LOOM_CUOBJDUMP",
        ));
    }
    let dir = temp_dir()?;
    // PTX with line information (`-g`) gets SASS with it: `nvdisasm -g` writes
    // `//## File "k.loom", line 5` above each line's instructions (cuobjdump cannot).
    let line_info = nvdisasm.is_some() && has_line_info(ptx);
    let (cubin, _) = assemble(ptx, arch, dir.path(), line_info)?;
    if let (true, Some(nvdisasm)) = (line_info, &nvdisasm) {
        let args = ["-g".as_ref(), "-c".as_ref(), cubin.as_os_str()];
        return Ok(run_tool("nvdisasm", nvdisasm, arch, &args)?.stdout);
    }
    // Only the disassembly: the tools' warnings (nvdisasm's "Disassembling Std Elf to Old
    // format ...") are on standard error and stay out of the `.sass`.
    let output = match (cuobjdump, nvdisasm) {
        (Some(cuobjdump), _) => run_tool(
            "cuobjdump",
            &cuobjdump,
            arch,
            &["-sass".as_ref(), cubin.as_os_str()],
        )?,
        (None, Some(nvdisasm)) => run_tool(
            "nvdisasm",
            &nvdisasm,
            arch,
            &["-c".as_ref(), cubin.as_os_str()],
        )?,
        (None, None) => return Ok(String::new()),
    };
    Ok(output.stdout)
}

/// Whether `ptx` carries source lines (`.loc` directives, from `-g`).
fn has_line_info(ptx: &str) -> bool {
    ptx.lines()
        .any(|line| line.trim_start().starts_with(".loc"))
}

/// Reads `ptxas -v`'s report: a `Compiling entry function 'k'` (or `Function properties for k`)
/// line opens a kernel; its stack/spill line and its `Used N registers` line follow.
pub fn parse_ptxas_report(report: &str) -> Vec<KernelResources> {
    let mut kernels: Vec<KernelResources> = Vec::new();
    for line in report.lines() {
        let line = line.trim();
        let opened = quoted_after(line, "Compiling entry function '")
            .or_else(|| quoted_after(line, "Function properties for "));
        if let Some(name) = opened {
            if kernels.last().is_none_or(|k| k.name != name) {
                kernels.push(KernelResources {
                    name,
                    ..KernelResources::default()
                });
            }
            continue;
        }
        let Some(kernel) = kernels.last_mut() else {
            continue;
        };
        for part in line
            .trim_start_matches("ptxas info    : ")
            .split(',')
            .map(str::trim)
        {
            let mut words = part.split_whitespace();
            let (Some(number), Some(_)) = (words.next(), words.clone().next()) else {
                continue;
            };
            let rest: Vec<&str> = words.collect();
            let value = |n: &str| n.parse::<u32>().ok();
            match (number, rest.as_slice()) {
                ("Used", [n, "registers", ..]) => kernel.registers = value(n).unwrap_or(0),
                ("used", [n, "barriers", ..]) => kernel.barriers = value(n).unwrap_or(0),
                (n, ["bytes", "stack", "frame"]) => kernel.stack_frame = value(n).unwrap_or(0),
                (n, ["bytes", "spill", "stores"]) => kernel.spill_stores = value(n).unwrap_or(0),
                (n, ["bytes", "spill", "loads"]) => kernel.spill_loads = value(n).unwrap_or(0),
                (n, ["bytes", "smem"]) => kernel.shared_bytes = value(n).unwrap_or(0),
                (n, ["bytes", "lmem"]) => kernel.local_bytes = value(n).unwrap_or(0),
                (n, ["bytes", bank]) if bank.starts_with("cmem[") => {
                    kernel.constant_bytes += value(n).unwrap_or(0)
                }
                _ => {}
            }
        }
    }
    kernels
}

/// The name in `'name'` or the bare word after `prefix`.
fn quoted_after(line: &str, prefix: &str) -> Option<String> {
    let at = line.find(prefix)? + prefix.len();
    let rest = &line[at..];
    let name = rest.split(['\'', ' ']).next()?;
    (!name.is_empty()).then(|| name.to_string())
}

/// Counts the instructions of each function in `cuobjdump -sass` output: lines
/// `/*0120*/ @!P0 BRA 0x70 ;` under a `Function : name` header.
pub fn count_sass(sass: &str) -> Vec<SassCounts> {
    let mut functions: Vec<(String, Vec<(u64, String)>)> = Vec::new();
    for line in sass.lines() {
        let line = line.trim();
        if let Some(name) = line.strip_prefix("Function : ") {
            functions.push((name.trim().to_string(), Vec::new()));
            continue;
        }
        let Some(rest) = line.strip_prefix("/*") else {
            continue;
        };
        let Some((address, text)) = rest.split_once("*/") else {
            continue;
        };
        let (Ok(address), Some((_, instructions))) =
            (u64::from_str_radix(address, 16), functions.last_mut())
        else {
            continue;
        };
        let text = text.split("/*").next().unwrap_or("").trim();
        let text = text.trim_end_matches(';').trim();
        if !text.is_empty() {
            instructions.push((address, text.to_string()));
        }
    }
    functions
        .into_iter()
        .map(|(name, instructions)| {
            let counted: Vec<&(u64, String)> = instructions
                .iter()
                .filter(|(address, text)| {
                    let opcode = opcode(text);
                    opcode != "NOP" && !(opcode == "BRA" && branch_target(text) == Some(*address))
                })
                .collect();
            let main_loop = counted
                .iter()
                .filter_map(|(address, text)| {
                    let target = branch_target(text)?;
                    (opcode(text) == "BRA" && target < *address).then_some((target, *address))
                })
                .map(|(from, to)| {
                    counted
                        .iter()
                        .filter(|(a, _)| (from..=to).contains(a))
                        .count()
                })
                .max();
            SassCounts {
                name,
                total: counted.len(),
                main_loop,
            }
        })
        .collect()
}

/// The opcode of `@!P0 BRA 0x70`: `BRA` (the predicate and the modifiers after `.` dropped).
fn opcode(text: &str) -> &str {
    let mut words = text.split_whitespace();
    let first = words.next().unwrap_or("");
    let op = if first.starts_with('@') {
        words.next().unwrap_or("")
    } else {
        first
    };
    op.split('.').next().unwrap_or(op)
}

/// The absolute target of a branch written `BRA 0x70` (cuobjdump's form).
fn branch_target(text: &str) -> Option<u64> {
    let hex = text.split_whitespace().last()?.trim_end_matches(';');
    u64::from_str_radix(hex.strip_prefix("0x")?, 16).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    const REPORT: &str = "\
ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function 'vadd' for 'sm_80'
ptxas info    : Function properties for vadd
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 14 registers, used 0 barriers, 384 bytes cmem[0]
ptxas info    : Compiling entry function 'sumOfSquares' for 'sm_80'
ptxas info    : Function properties for sumOfSquares
    8 bytes stack frame, 4 bytes spill stores, 12 bytes spill loads
ptxas info    : Used 17 registers, used 1 barriers, 16 bytes lmem, 32 bytes smem, 360 bytes cmem[0], 8 bytes cmem[2]
";

    #[test]
    fn ptxas_report_per_kernel() {
        let kernels = parse_ptxas_report(REPORT);
        assert_eq!(
            kernels,
            vec![
                KernelResources {
                    name: "vadd".into(),
                    registers: 14,
                    constant_bytes: 384,
                    ..KernelResources::default()
                },
                KernelResources {
                    name: "sumOfSquares".into(),
                    registers: 17,
                    spill_stores: 4,
                    spill_loads: 12,
                    stack_frame: 8,
                    shared_bytes: 32,
                    barriers: 1,
                    local_bytes: 16,
                    constant_bytes: 360 + 8,
                    block_size: None,
                },
            ]
        );
    }

    const SASS: &str = "
\t\tFunction : vadd
        /*0000*/                   MOV R1, c[0x0][0x28] ;   /* 0x00000a0000017a02 */
                                                             /* 0x000fe40000000f00 */
        /*0010*/                   S2R R0, SR_CTAID.X ;     /* 0x0000000000007919 */
        /*0020*/               @P0 EXIT ;                   /* 0x000000000000094d */
        /*0030*/                   LDG.E.CONSTANT R3, [R2.64] ;
        /*0040*/                   FADD R9, R4, R3 ;
        /*0050*/              @!P0 BRA 0x30 ;
        /*0060*/                   EXIT ;
        /*0070*/                   BRA 0x70;
        /*0080*/                   NOP;
\t\tFunction : flat
        /*0000*/                   EXIT ;
        /*0010*/                   BRA 0x10;
";

    #[test]
    fn a_tool_that_dropped_the_arch_is_called_too_new() {
        let refusal = "nvdisasm fatal   : CUDA architecture \"SM50\" is deprecated. Please use \
                       CUDA toolkit 13.0 or earlier";
        let help = failure_help("cuobjdump", "sm_50", refusal);
        assert!(help.contains("too new for `sm_50`"), "{help}");
        assert!(!help.contains("too old"), "{help}");
        let other = failure_help("ptxas", "sm_80", "ptxas fatal : Unresolved extern function");
        assert!(other.contains("bug in loomc"), "{other}");
    }

    #[test]
    fn sass_counts_skip_padding_and_find_the_loop() {
        let counts = count_sass(SASS);
        assert_eq!(
            counts,
            vec![
                SassCounts {
                    name: "vadd".into(),
                    total: 7,
                    main_loop: Some(3),
                },
                SassCounts {
                    name: "flat".into(),
                    total: 1,
                    main_loop: None,
                },
            ]
        );
        assert_eq!(opcode("@!P0 BRA 0x30"), "BRA");
        assert_eq!(opcode("LDG.E.CONSTANT R3, [R2.64]"), "LDG");
    }
}
