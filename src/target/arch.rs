//! The GPU architectures loomc targets, and the PTX ISA version it writes for each.

/// One `--arch` value: the LLVM NVPTX processor name and the PTX ISA version to emit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Arch {
    pub name: &'static str,
    /// The `+ptxNN` feature: `.version N.N` in the PTX.
    pub ptx_feature: &'static str,
}

/// Every architecture that LLVM 19's NVPTX backend knows and CUDA 12's `ptxas` still assembles
/// (CUDA 12 dropped `sm_3x` and earlier, so LLVM's `sm_20`..`sm_37` are left out).
///
/// PTX 7.8 (CUDA 11.8) is the newest version every one of these accepts and the oldest that
/// `sm_89`/`sm_90` need, so one version serves all of them and drivers from CUDA 11.8 on load the
/// PTX; `sm_90a` needs PTX 8.0. `ptxas` 12.9 accepts all of them (tested in this module).
pub const ARCHS: &[Arch] = &[
    Arch {
        name: "sm_50",
        ptx_feature: "+ptx78",
    },
    Arch {
        name: "sm_52",
        ptx_feature: "+ptx78",
    },
    Arch {
        name: "sm_53",
        ptx_feature: "+ptx78",
    },
    Arch {
        name: "sm_60",
        ptx_feature: "+ptx78",
    },
    Arch {
        name: "sm_61",
        ptx_feature: "+ptx78",
    },
    Arch {
        name: "sm_62",
        ptx_feature: "+ptx78",
    },
    Arch {
        name: "sm_70",
        ptx_feature: "+ptx78",
    },
    Arch {
        name: "sm_72",
        ptx_feature: "+ptx78",
    },
    Arch {
        name: "sm_75",
        ptx_feature: "+ptx78",
    },
    Arch {
        name: "sm_80",
        ptx_feature: "+ptx78",
    },
    Arch {
        name: "sm_86",
        ptx_feature: "+ptx78",
    },
    Arch {
        name: "sm_87",
        ptx_feature: "+ptx78",
    },
    Arch {
        name: "sm_89",
        ptx_feature: "+ptx78",
    },
    Arch {
        name: "sm_90",
        ptx_feature: "+ptx78",
    },
    Arch {
        name: "sm_90a",
        ptx_feature: "+ptx80",
    },
];

pub fn find(name: &str) -> Option<Arch> {
    ARCHS.iter().copied().find(|a| a.name == name)
}

pub fn names() -> impl Iterator<Item = &'static str> {
    ARCHS.iter().map(|a| a.name)
}

/// The compute capability of an architecture name as a number: `sm_75` is 75, `sm_90a` 90.
pub fn capability(name: &str) -> Option<u32> {
    let digits: String = name
        .strip_prefix("sm_")?
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}
