//! The NVPTX target: target machine for `--arch`, LLVM's optimiser at `-O`, PTX emission.

mod annotation_cache;
mod arch;
mod error;
pub mod host;
mod libdevice;
pub mod occupancy;
pub mod passes;
pub mod sass;
mod sixteen_bit_memory;
pub mod thread_guards;

use crate::diagnostics::Diagnostic;
use inkwell::module::Module;
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::{
    CodeModel, FileType, InitializationConfig, RelocMode, Target, TargetData, TargetMachine,
    TargetTriple,
};
use inkwell::OptimizationLevel;

pub use arch::{capability, Arch, ARCHS};
pub use error::{TargetError, CODES, OUTPUT};

/// The one triple loomc emits for: 64-bit PTX for the CUDA driver.
pub const NVPTX_TRIPLE: &str = "nvptx64-nvidia-cuda";

/// `-O0` .. `-O3`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OptLevel {
    O0,
    O1,
    O2,
    O3,
}

impl OptLevel {
    /// The LLVM new-pass-manager pipeline for this level: the whole optimiser in one place.
    ///
    /// Every level, `O0` included, runs the always-inliner: `func`s are `alwaysinline` and code
    /// generation relies on them disappearing (element-level code has no calling convention of its
    /// own on the GPU). From `O1` it runs first, before `default<On>`: LLVM's call-site splitting,
    /// which runs before the inliner there, duplicates the instructions before a call it splits
    /// into both predecessors, a barrier among them, so that each thread reached a different copy
    /// (found by the fuzzer: E0850 on loomc's own output). Once the `func`s are inlined, no call
    /// follows a barrier for it to split.
    pub fn pipeline(self) -> &'static str {
        match self {
            OptLevel::O0 => "default<O0>",
            OptLevel::O1 => "always-inline,default<O1>",
            OptLevel::O2 => "always-inline,default<O2>",
            OptLevel::O3 => "always-inline,default<O3>",
        }
    }

    fn llvm(self) -> OptimizationLevel {
        match self {
            OptLevel::O0 => OptimizationLevel::None,
            OptLevel::O1 => OptimizationLevel::Less,
            OptLevel::O2 => OptimizationLevel::Default,
            OptLevel::O3 => OptimizationLevel::Aggressive,
        }
    }
}

pub struct NvptxTarget {
    pub machine: TargetMachine,
    pub arch: String,
    /// Where libdevice's functions (`__nv_expf`, ...) come from.
    pub libdevice: Libdevice,
}

/// How the `__nv_*` math functions that code generation declares are resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Libdevice {
    /// Linked from NVIDIA's libdevice bitcode before optimisation (what ships to the GPU).
    Link,
    /// Left declared: the CPU backend binds them to host implementations, because libdevice's
    /// bodies are PTX-specific (inline PTX, NVVM-only intrinsics) and cannot run on the host.
    Declare,
}

/// libdevice.10.bc: `$LOOM_LIBDEVICE`, else beside an installed loomc
/// (`<prefix>/share/loom/libdevice/`), else in the checkout loomc was built from (`.tools/`,
/// where scripts/setup puts it), so a freshly built loomc works without any environment.
pub fn libdevice_path() -> Option<String> {
    if let Ok(path) = std::env::var("LOOM_LIBDEVICE") {
        return Some(path);
    }
    let installed = std::env::current_exe().ok().and_then(|exe| {
        let prefix = exe.parent()?.parent()?.to_path_buf();
        Some(prefix.join("share/loom/libdevice/libdevice.10.bc"))
    });
    let checkout = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(".tools/cu12/nvidia/cuda_nvcc/nvvm/libdevice/libdevice.10.bc");
    installed
        .into_iter()
        .chain([checkout])
        .find(|path| path.exists())
        .map(|path| path.display().to_string())
}

/// `arch` if loomc targets it, else the diagnostic that lists the ones it does. The command line
/// checks `--arch` with this before compiling: making a target machine only to throw it away cost
/// as much as the one the compilation makes (some 0.8 M instructions, 6 % of compiling saxpy).
pub fn known_arch(arch: &str) -> Result<arch::Arch, Diagnostic> {
    arch::find(arch).ok_or_else(|| {
        TargetError::UnknownArch {
            arch: arch.to_string(),
            known: arch::names().collect(),
        }
        .into()
    })
}

/// An [`NvptxTarget`] being made on a thread of its own ([`NvptxTarget::start`]), beside the
/// stages before code generation, which do not need it: making the target machine is some 0.8 M
/// instructions, as much as parsing and checking a small program.
pub struct TargetOnThread {
    arch: String,
    opt: OptLevel,
    /// `None` if no thread could be had.
    making: Option<std::thread::JoinHandle<MadeTarget>>,
}

/// What the thread made.
struct MadeTarget(Result<NvptxTarget, Diagnostic>);

// SAFETY: an LLVM target machine belongs to no thread: it is made on the thread that
// `NvptxTarget::start` starts and used, after that thread has ended, on the one that joins it.
unsafe impl Send for MadeTarget {}

impl TargetOnThread {
    /// Waits for the target; it is made here if no thread could be had.
    pub fn finish(mut self) -> Result<NvptxTarget, Diagnostic> {
        let Some(handle) = self.making.take() else {
            return NvptxTarget::new(&self.arch, self.opt);
        };
        match handle.join() {
            Ok(MadeTarget(made)) => made,
            Err(_) => Err(TargetError::NoTargetMachine {
                arch: std::mem::take(&mut self.arch),
                llvm_message: "the thread making it panicked".to_string(),
            }
            .into()),
        }
    }
}

/// A compile that stops before code generation (a syntax or check error) still waits for the
/// thread: left running, it would be inside LLVM while the process exits and LLVM's static
/// destructors run.
impl Drop for TargetOnThread {
    fn drop(&mut self) {
        if let Some(handle) = self.making.take() {
            let _ = handle.join();
        }
    }
}

impl NvptxTarget {
    /// Starts making [`NvptxTarget::new`]`(arch, opt)` on a thread of its own.
    pub fn start(arch: &str, opt: OptLevel) -> TargetOnThread {
        let owned = arch.to_string();
        let making = std::thread::Builder::new()
            .name("loom-target".to_string())
            .spawn(move || MadeTarget(NvptxTarget::new(&owned, opt)))
            .ok();
        TargetOnThread {
            arch: arch.to_string(),
            opt,
            making,
        }
    }

    /// A target machine for `arch` (`sm_75`, `sm_80`, `sm_90`, ...).
    pub fn new(arch: &str, opt: OptLevel) -> Result<NvptxTarget, Diagnostic> {
        let known = known_arch(arch)?;
        // LLVM's target registration writes process-wide tables and is not safe to run from two
        // threads at once (the fuzz harness compiles on several): once per process.
        static NVPTX_REGISTERED: std::sync::Once = std::sync::Once::new();
        NVPTX_REGISTERED.call_once(|| Target::initialize_nvptx(&InitializationConfig::default()));
        let triple = TargetTriple::create(NVPTX_TRIPLE);
        let no_machine = |llvm_message: String| TargetError::NoTargetMachine {
            arch: arch.to_string(),
            llvm_message,
        };
        let target = Target::from_triple(&triple).map_err(|e| no_machine(e.to_string()))?;
        let machine = target
            .create_target_machine(
                &triple,
                known.name,
                known.ptx_feature,
                opt.llvm(),
                RelocMode::Default,
                CodeModel::Default,
            )
            .ok_or_else(|| no_machine("LLVMCreateTargetMachine returned null".to_string()))?;
        Ok(NvptxTarget {
            machine,
            arch: known.name.to_string(),
            libdevice: Libdevice::Link,
        })
    }

    pub fn triple(&self) -> TargetTriple {
        self.machine.get_triple()
    }

    pub fn target_data(&self) -> TargetData {
        self.machine.get_target_data()
    }

    /// Gives `module` this target's triple and data layout (code generation does this first).
    pub fn configure(&self, module: &Module<'_>) {
        module.set_triple(&self.triple());
        module.set_data_layout(&self.target_data().get_data_layout());
    }

    /// Runs LLVM's new-pass-manager pipeline for `opt` over the module, after linking the
    /// libdevice functions it calls (see [`libdevice_path`]) unless told to leave them declared.
    pub fn optimise(&self, module: &Module<'_>, opt: OptLevel) -> Result<(), Diagnostic> {
        self.link_libraries(module)?;
        self.run_pipeline(module, opt.pipeline())
    }

    /// LOOM's `loom-link-libdevice` pass: libdevice linked unless told to leave it declared.
    pub fn link_libraries(&self, module: &Module<'_>) -> Result<(), Diagnostic> {
        if self.libdevice == Libdevice::Link {
            self.link_libdevice(module, libdevice_path().as_deref())?;
        }
        Ok(())
    }

    /// Runs a new-pass-manager `pipeline` (`default<O3>`, or `--passes`) over the module.
    pub fn run_pipeline(&self, module: &Module<'_>, pipeline: &str) -> Result<(), Diagnostic> {
        annotation_cache::forget(module);
        llvm_passes::speculation::forbid(module);
        let options = PassBuilderOptions::create();
        llvm_passes::speculation::forbid_promotion(&options);
        let result = module.run_passes(pipeline, &self.machine, options);
        llvm_passes::speculation::lift(module);
        annotation_cache::forget(module);
        result.map_err(|e| {
            TargetError::OptimiserFailed {
                pipeline: pipeline.to_string(),
                llvm_message: e.to_string(),
            }
            .into()
        })
    }

    /// Links NVIDIA's libdevice into `module` when code generation declared one of its
    /// functions (`__nv_expf`, ...), from the bitcode at `path`. Everything libdevice brings is
    /// made internal, so that the optimiser keeps only what the kernels call; `__nvvm_reflect`
    /// is resolved by LLVM's NVVMReflect pass (`__CUDA_FTZ` = 0: no flush to zero;
    /// `__CUDA_PREC_SQRT` = 0, which only the fast-math `__nv_sqrtf` asks about).
    pub fn link_libdevice(
        &self,
        module: &Module<'_>,
        path: Option<&str>,
    ) -> Result<(), Diagnostic> {
        self.link_libdevice_cached(module, path, libdevice::cache_dir().as_deref())
    }

    /// [`Self::link_libdevice`], keeping what it reads of libdevice in `cache`, or in no cache
    /// (`target/libdevice.rs`).
    pub fn link_libdevice_cached(
        &self,
        module: &Module<'_>,
        path: Option<&str>,
        cache: Option<&std::path::Path>,
    ) -> Result<(), Diagnostic> {
        let wanted = module
            .get_functions()
            .find(|f| f.count_basic_blocks() == 0 && f.get_name().to_bytes().starts_with(b"__nv_"));
        let Some(wanted) = wanted else {
            return Ok(());
        };
        let function = wanted.get_name().to_string_lossy().into_owned();
        let fail = |problem: String| {
            Diagnostic::from(TargetError::Libdevice {
                function: function.clone(),
                path: path.map(str::to_string),
                problem,
            })
        };
        let path = path.ok_or_else(|| {
            fail("libdevice.10.bc is not installed and LOOM_LIBDEVICE is not set".to_string())
        })?;
        let defined_before: std::collections::HashSet<String> = module
            .get_functions()
            .filter(|f| f.count_basic_blocks() > 0)
            .map(|f| f.get_name().to_string_lossy().into_owned())
            .chain(
                module
                    .get_globals()
                    .map(|g| g.get_name().to_string_lossy().into_owned()),
            )
            .collect();
        // Only what the kernels call, with what that calls in turn (`libdevice`): the whole of
        // libdevice (470 KB of bitcode, some 350 functions) cost most of a compile that calls
        // one math function, in reading and then in the optimiser's passes before it dropped
        // the unused functions.
        let wanted = undefined_libdevice_functions(module);
        let linked =
            libdevice::functions(self, module.get_context(), path, &wanted, cache).map_err(fail)?;
        module
            .link_in_module(linked)
            .map_err(|e| fail(e.to_string()))?;
        for f in module.get_functions() {
            let name = f.get_name().to_string_lossy().into_owned();
            if f.count_basic_blocks() > 0 && !defined_before.contains(&name) {
                f.set_linkage(inkwell::module::Linkage::Internal);
            }
        }
        for g in module.get_globals() {
            let name = g.get_name().to_string_lossy().into_owned();
            if g.get_initializer().is_some() && !defined_before.contains(&name) {
                g.set_linkage(inkwell::module::Linkage::Internal);
            }
        }
        Ok(())
    }

    /// PTX text for the module.
    pub fn emit_ptx(&self, module: &Module<'_>) -> Result<String, Diagnostic> {
        sixteen_bit_memory::as_integers(module).map_err(|problem| {
            Diagnostic::from(TargetError::EmissionFailed {
                llvm_message: format!("moving 16-bit floats as integers: {problem}"),
            })
        })?;
        // The PTX printer reads the annotations through the same cache (`annotation_cache`).
        annotation_cache::forget(module);
        let buffer = self
            .machine
            .write_to_memory_buffer(module, FileType::Assembly);
        annotation_cache::forget(module);
        let buffer = buffer.map_err(|e| {
            Diagnostic::from(TargetError::EmissionFailed {
                llvm_message: e.to_string(),
            })
        })?;
        Ok(String::from_utf8_lossy(buffer.as_slice()).into_owned())
    }
}

/// The libdevice functions (`__nv_*`) `module` declares but does not define.
fn undefined_libdevice_functions(module: &Module<'_>) -> std::collections::BTreeSet<String> {
    module
        .get_functions()
        .filter(|f| f.count_basic_blocks() == 0 && f.get_name().to_bytes().starts_with(b"__nv_"))
        .map(|f| f.get_name().to_string_lossy().into_owned())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use inkwell::context::Context;
    use inkwell::AddressSpace;

    /// A one-kernel module made by hand: `k(ptr addrspace(1) p) { p[tid.x] = 1.0 }`.
    fn tiny_kernel<'ctx>(context: &'ctx Context, target: &NvptxTarget) -> Module<'ctx> {
        let module = context.create_module("tiny");
        target.configure(&module);
        let ptr = context.ptr_type(AddressSpace::from(1u16));
        let i32t = context.i32_type();
        let f32t = context.f32_type();
        let kernel =
            module.add_function("k", context.void_type().fn_type(&[ptr.into()], false), None);
        let tid = module.add_function(
            "llvm.nvvm.read.ptx.sreg.tid.x",
            i32t.fn_type(&[], false),
            None,
        );
        let builder = context.create_builder();
        builder.position_at_end(context.append_basic_block(kernel, "entry"));
        let t = builder
            .build_call(tid, &[], "tid")
            .unwrap()
            .try_as_basic_value()
            .basic()
            .unwrap();
        let p = kernel.get_nth_param(0).unwrap().into_pointer_value();
        let slot = unsafe {
            builder
                .build_gep(f32t, p, &[t.into_int_value()], "slot")
                .unwrap()
        };
        builder.build_store(slot, f32t.const_float(1.0)).unwrap();
        builder.build_return(None).unwrap();
        let annotation = context.metadata_node(&[
            kernel.as_global_value().as_pointer_value().into(),
            context.metadata_string("kernel").into(),
            i32t.const_int(1, false).into(),
        ]);
        module
            .add_global_metadata("nvvm.annotations", &annotation)
            .unwrap();
        module.verify().unwrap();
        module
    }

    /// Fails when ptxas rejects the PTX or is missing (scripts/setup installs it).
    fn ptxas_accepts(ptx: &str, arch: &str) {
        crate::codegen::tests::ptxas(ptx, arch);
    }

    #[test]
    fn every_arch_makes_ptx_that_ptxas_accepts() {
        for arch in ARCHS {
            let target = NvptxTarget::new(arch.name, OptLevel::O3).unwrap();
            let context = Context::create();
            let module = tiny_kernel(&context, &target);
            target.optimise(&module, OptLevel::O3).unwrap();
            let ptx = target.emit_ptx(&module).unwrap();
            assert!(ptx.contains(&format!(".target {}", arch.name)), "{ptx}");
            assert!(ptx.contains(".entry k"), "{ptx}");
            assert!(ptx.contains("st.global."), "{ptx}");
            ptxas_accepts(&ptx, arch.name);
        }
    }

    #[test]
    fn ptx_version_is_pinned() {
        let target = NvptxTarget::new("sm_80", OptLevel::O2).unwrap();
        let context = Context::create();
        let module = tiny_kernel(&context, &target);
        let ptx = target.emit_ptx(&module).unwrap();
        assert!(ptx.contains(".version 7.8"), "{ptx}");
    }

    #[test]
    fn every_level_optimises() {
        for opt in [OptLevel::O0, OptLevel::O1, OptLevel::O2, OptLevel::O3] {
            let target = NvptxTarget::new("sm_90", opt).unwrap();
            let context = Context::create();
            let module = tiny_kernel(&context, &target);
            target.optimise(&module, opt).unwrap();
            module.verify().unwrap();
            assert!(target.emit_ptx(&module).unwrap().contains(".entry k"));
        }
    }

    /// A kernel that reads `tid.x`, for `maxntid` threads per block.
    fn kernel_for_block_size(context: &Context, maxntid: u32) -> Module<'_> {
        let ir = format!(
            r#"target triple = "nvptx64-nvidia-cuda"
define void @k(ptr addrspace(1) %p) {{
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr inbounds i32, ptr addrspace(1) %p, i32 %t
  store i32 %t, ptr addrspace(1) %slot
  ret void
}}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
!nvvm.annotations = !{{!0, !1}}
!0 = !{{ptr @k, !"kernel", i32 1}}
!1 = !{{ptr @k, !"maxntidx", i32 {maxntid}}}
"#
        );
        let buffer = inkwell::memory_buffer::MemoryBuffer::create_from_memory_range_copy(
            ir.as_bytes(),
            "k.ll",
        );
        context.create_module_from_ir(buffer).unwrap()
    }

    /// Modules made one after another often take the addresses of freed ones; each must be
    /// optimised for its own block size, not one that LLVM's annotation cache remembers from a
    /// freed module (`annotation_cache`). Without the cache cleared, the second module of a
    /// round got the first's `range(i32 0, 32)`.
    #[test]
    fn each_module_gets_its_own_block_size() {
        let target = NvptxTarget::new("sm_80", OptLevel::O1).unwrap();
        for round in 0..100 {
            for maxntid in [32, 1024] {
                let context = Context::create();
                let module = kernel_for_block_size(&context, maxntid);
                target.run_pipeline(&module, "default<O1>").unwrap();
                let ir = module.print_to_string().to_string();
                assert!(
                    ir.contains(&format!("range(i32 0, {maxntid})")),
                    "round {round}, maxntidx {maxntid}:\n{ir}"
                );
            }
        }
    }

    /// A module that calls libdevice's `expf`.
    fn calls_expf<'ctx>(context: &'ctx Context, target: &NvptxTarget) -> Module<'ctx> {
        let module = tiny_kernel(context, target);
        let f32t = context.f32_type();
        module.add_function("__nv_expf", f32t.fn_type(&[f32t.into()], false), None);
        module
    }

    #[test]
    fn libdevice_is_linked_only_when_needed_and_made_internal() {
        let target = NvptxTarget::new("sm_80", OptLevel::O3).unwrap();
        let context = Context::create();
        // Nothing to link: no path needed.
        let plain = tiny_kernel(&context, &target);
        target.link_libdevice(&plain, None).unwrap();
        // scripts/setup installs libdevice, and the tests run after it.
        let path = libdevice_path().expect("libdevice.10.bc is installed");
        let module = calls_expf(&context, &target);
        target.link_libdevice(&module, Some(&path)).unwrap();
        let expf = module.get_function("__nv_expf").unwrap();
        assert!(expf.count_basic_blocks() > 0);
        // Only what the module calls comes in (libdevice defines some 350 functions).
        assert!(module.get_function("__nv_sinf").is_none());
        let linked: Vec<String> = module
            .get_functions()
            .filter(|f| f.count_basic_blocks() > 0 && f.get_name().to_bytes().starts_with(b"__nv"))
            .map(|f| f.get_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(linked, ["__nv_expf"], "linked for one `__nv_expf`");
        assert_eq!(
            expf.as_global_value().get_linkage(),
            inkwell::module::Linkage::Internal
        );
        module.verify().unwrap();
    }

    /// Links libdevice into a module that calls `__nv_expf` and `__nv_sinf`, keeping what it
    /// reads in `cache`; the module's text.
    fn linked_with_cache(target: &NvptxTarget, cache: Option<&std::path::Path>) -> String {
        let context = Context::create();
        let module = calls_expf(&context, target);
        let f32t = context.f32_type();
        module.add_function("__nv_sinf", f32t.fn_type(&[f32t.into()], false), None);
        let path = libdevice_path().expect("libdevice.10.bc is installed");
        target
            .link_libdevice_cached(&module, Some(&path), cache)
            .unwrap();
        module.verify().unwrap();
        module.print_to_string().to_string()
    }

    /// The cache (`target/libdevice.rs`) gives what libdevice gives, the uses of each value in
    /// the same order, is read when it has the functions, and is passed over when its file does
    /// not read.
    #[test]
    fn libdevice_from_the_cache_is_libdevice_itself() {
        let target = NvptxTarget::new("sm_80", OptLevel::O3).unwrap();
        let cache = std::env::temp_dir().join(format!("loom-cache-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&cache);
        let uncached = linked_with_cache(&target, None);
        assert!(
            uncached.contains("define internal float @__nv_sinf("),
            "{uncached}"
        );
        assert!(!cache.exists());
        let entries = || -> Vec<std::path::PathBuf> {
            let dir = std::fs::read_dir(&cache).unwrap();
            dir.map(|entry| entry.unwrap().path()).collect()
        };
        // The first compile writes one file (no temporary left), the second reads it.
        assert_eq!(linked_with_cache(&target, Some(&cache)), uncached);
        let written = entries();
        assert_eq!(written.len(), 1, "{written:?}");
        assert_eq!(linked_with_cache(&target, Some(&cache)), uncached);
        // Read, not made again: a file in its place with other bodies is what comes in.
        let context = Context::create();
        let other = context.create_module("other");
        target.configure(&other);
        let f32t = context.f32_type();
        for name in ["__nv_expf", "__nv_sinf"] {
            let f = other.add_function(name, f32t.fn_type(&[f32t.into()], false), None);
            let builder = context.create_builder();
            builder.position_at_end(context.append_basic_block(f, "entry"));
            builder.build_return(Some(&f32t.const_float(2.0))).unwrap();
        }
        std::fs::write(&written[0], other.write_bitcode_to_memory().as_slice()).unwrap();
        let from_file = linked_with_cache(&target, Some(&cache));
        assert!(from_file.contains("ret float 2.0"), "{from_file}");
        // A file that does not read is made again.
        std::fs::write(&written[0], b"not bitcode").unwrap();
        assert_eq!(linked_with_cache(&target, Some(&cache)), uncached);
        assert_eq!(linked_with_cache(&target, Some(&cache)), uncached);
        assert_eq!(entries(), written);
        std::fs::remove_dir_all(&cache).unwrap();
    }

    #[test]
    fn missing_libdevice_is_a_diagnostic() {
        let target = NvptxTarget::new("sm_80", OptLevel::O3).unwrap();
        let context = Context::create();
        let module = calls_expf(&context, &target);
        let unset = target.link_libdevice(&module, None).unwrap_err();
        assert_eq!(unset.code, error::LIBDEVICE);
        assert!(unset.message.contains("__nv_expf"), "{unset:?}");
        let module = calls_expf(&context, &target);
        let missing = target
            .link_libdevice(&module, Some("/nonexistent/libdevice.10.bc"))
            .unwrap_err();
        assert_eq!(missing.code, error::LIBDEVICE);
        assert!(
            missing.notes.iter().any(|n| n.contains("/nonexistent")),
            "{missing:?}"
        );
    }

    #[test]
    fn unknown_arch_is_a_diagnostic_listing_the_known_ones() {
        let Err(diagnostic) = NvptxTarget::new("sm_99", OptLevel::O3) else {
            panic!("sm_99 accepted")
        };
        assert_eq!(diagnostic.code, error::UNKNOWN_ARCH);
        assert!(diagnostic.message.contains("sm_99"));
        assert!(
            diagnostic
                .notes
                .iter()
                .any(|n| n.contains("sm_75") && n.contains("sm_90a")),
            "{diagnostic:?}"
        );
        assert!(NvptxTarget::new("sm_35", OptLevel::O3).is_err());
        assert!(NvptxTarget::new("", OptLevel::O3).is_err());
    }
}
