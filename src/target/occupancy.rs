//! Theoretical occupancy: how many blocks of a kernel one streaming multiprocessor (SM) holds at
//! once, given its registers per thread, its shared memory and its block size, for `--arch`.
//!
//! The per-architecture limits are NVIDIA's published ones: the table "Technical Specifications
//! per Compute Capability" of the CUDA C++ Programming Guide (CUDA 12, section 16.2 / appendix
//! "Compute Capabilities": maximum resident blocks, warps and threads per SM, 32-bit registers
//! per SM, shared memory per SM), and the allocation granularities of the CUDA Occupancy
//! Calculator and `cuda_occupancy.h` (registers allocated per warp in units of 256, across 4
//! sub-partitions of the register file; shared memory allocated in units of 256 bytes before
//! compute capability 8.0 and 128 bytes from it, with 1 KiB per block reserved by the CUDA
//! runtime from 8.0). The computation follows `cudaOccMaxActiveBlocksPerMultiprocessor` of
//! `cuda_occupancy.h`: the number of blocks is the least of what the block limit, the warp
//! limit, the register file and the shared memory allow.

/// One architecture's limits per SM.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct SmLimits {
    arch: &'static str,
    max_blocks: u32,
    max_warps: u32,
    registers: u32,
    /// The most shared memory an SM can give its blocks (the largest carveout).
    shared_bytes: u32,
    shared_unit: u32,
    /// Shared memory the CUDA runtime reserves per block (compute capability 8.0 on).
    reserved_shared_per_block: u32,
}

const fn limits(
    arch: &'static str,
    max_blocks: u32,
    max_warps: u32,
    shared_kib: u32,
    ampere_or_later: bool,
) -> SmLimits {
    SmLimits {
        arch,
        max_blocks,
        max_warps,
        registers: 65536,
        shared_bytes: shared_kib * 1024,
        shared_unit: if ampere_or_later { 128 } else { 256 },
        reserved_shared_per_block: if ampere_or_later { 1024 } else { 0 },
    }
}

/// Every architecture of `target::ARCHS`.
const SM_LIMITS: &[SmLimits] = &[
    limits("sm_50", 32, 64, 64, false),
    limits("sm_52", 32, 64, 96, false),
    limits("sm_53", 32, 64, 64, false),
    limits("sm_60", 32, 64, 64, false),
    limits("sm_61", 32, 64, 96, false),
    limits("sm_62", 32, 64, 64, false),
    limits("sm_70", 32, 64, 96, false),
    limits("sm_72", 32, 64, 96, false),
    limits("sm_75", 16, 32, 64, false),
    limits("sm_80", 32, 64, 164, true),
    limits("sm_86", 16, 48, 100, true),
    limits("sm_87", 16, 48, 164, true),
    limits("sm_89", 24, 48, 100, true),
    limits("sm_90", 32, 64, 228, true),
    limits("sm_90a", 32, 64, 228, true),
];

const WARP: u32 = 32;
const REGISTER_UNIT: u32 = 256;
const REGISTER_SUB_PARTITIONS: u32 = 4;

/// What limits a kernel's blocks per SM.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limiter {
    /// The SM's maximum of resident blocks.
    Blocks,
    /// The SM's maximum of resident warps (threads).
    Warps,
    Registers,
    SharedMemory,
}

impl Limiter {
    pub fn name(self) -> &'static str {
        match self {
            Limiter::Blocks => "blocks",
            Limiter::Warps => "warps",
            Limiter::Registers => "registers",
            Limiter::SharedMemory => "shared memory",
        }
    }
}

/// A kernel's theoretical occupancy on one SM.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Occupancy {
    pub blocks_per_sm: u32,
    pub active_warps: u32,
    pub max_warps: u32,
    pub limited_by: Limiter,
}

impl Occupancy {
    /// Active warps as a share of the most the SM can hold, 0 to 1.
    pub fn fraction(&self) -> f64 {
        f64::from(self.active_warps) / f64::from(self.max_warps)
    }
}

/// The occupancy of a kernel with `block_size` threads per block, `registers` per thread and
/// `shared_bytes` of static shared memory per block on `arch`; `None` for an architecture
/// without a table entry.
pub fn occupancy(
    arch: &str,
    block_size: u32,
    registers: u32,
    shared_bytes: u32,
) -> Option<Occupancy> {
    let sm = SM_LIMITS.iter().find(|l| l.arch == arch)?;
    let warps_per_block = block_size.div_ceil(WARP).max(1);
    let mut candidates = vec![
        (sm.max_blocks, Limiter::Blocks),
        (sm.max_warps / warps_per_block, Limiter::Warps),
    ];
    if registers > 0 {
        let per_warp = (registers * WARP).next_multiple_of(REGISTER_UNIT);
        let warps_per_partition = sm.registers / REGISTER_SUB_PARTITIONS / per_warp;
        let warps = warps_per_partition * REGISTER_SUB_PARTITIONS;
        candidates.push((warps / warps_per_block, Limiter::Registers));
    }
    if shared_bytes > 0 {
        let per_block =
            (shared_bytes + sm.reserved_shared_per_block).next_multiple_of(sm.shared_unit);
        candidates.push((sm.shared_bytes / per_block, Limiter::SharedMemory));
    }
    // The first of equal limits is named: the SM's own limits before the kernel's resources.
    let (blocks, limited_by) = candidates
        .into_iter()
        .min_by_key(|(blocks, _)| *blocks)
        .unwrap_or((0, Limiter::Blocks));
    Some(Occupancy {
        blocks_per_sm: blocks,
        active_warps: blocks * warps_per_block,
        max_warps: sm.max_warps,
        limited_by,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_target_arch_has_limits() {
        for arch in crate::target::ARCHS {
            assert!(
                SM_LIMITS.iter().any(|l| l.arch == arch.name),
                "{}",
                arch.name
            );
        }
    }

    /// Values as NVIDIA's occupancy calculator (Nsight Compute's) gives them.
    #[test]
    fn matches_the_occupancy_calculator() {
        // sm_80, 256 threads, 32 registers: 8 blocks of 8 warps fill 64 warps.
        let full = occupancy("sm_80", 256, 32, 0).unwrap();
        assert_eq!((full.blocks_per_sm, full.active_warps), (8, 64));
        assert_eq!(full.fraction(), 1.0);
        // 64 registers: 65536 / (64 * 32) = 32 warps = 4 blocks of 256: 50%.
        let regs = occupancy("sm_80", 256, 64, 0).unwrap();
        assert_eq!(
            (regs.blocks_per_sm, regs.limited_by),
            (4, Limiter::Registers)
        );
        assert_eq!(regs.fraction(), 0.5);
        // 255 registers: 8192 registers per warp, 2 warps per sub-partition, 8 warps: 1 block.
        let many = occupancy("sm_80", 256, 255, 0).unwrap();
        assert_eq!(many.blocks_per_sm, 1);
        // 48 KiB of shared memory (+1 KiB reserved) on sm_80's 164 KiB: 3 blocks.
        let shared = occupancy("sm_80", 128, 16, 48 * 1024).unwrap();
        assert_eq!(
            (shared.blocks_per_sm, shared.limited_by),
            (3, Limiter::SharedMemory)
        );
        // Small blocks hit the block limit: 32 blocks of one warp on sm_80.
        let small = occupancy("sm_80", 32, 16, 0).unwrap();
        assert_eq!(
            (small.blocks_per_sm, small.limited_by),
            (32, Limiter::Blocks)
        );
        assert_eq!(small.fraction(), 0.5);
        // sm_75 holds 32 warps: 1024 threads is one block, 100%.
        let turing = occupancy("sm_75", 1024, 32, 0).unwrap();
        assert_eq!((turing.blocks_per_sm, turing.max_warps), (1, 32));
        assert!(occupancy("sm_1", 256, 32, 0).is_none());
    }
}
