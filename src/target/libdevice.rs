//! The libdevice functions a module calls, with what they call in turn, as a module of their
//! own that `NvptxTarget::link_libdevice` links in: read from libdevice.10.bc, or from the copy
//! an earlier compile kept of the same functions of the same libdevice (the cache).
//!
//! Why a cache: reading libdevice, even lazily (a function's body only when it is linked), reads
//! and upgrades the declarations, names and attributes of its 567 functions (352 defined),
//! 7.9 M of softmax's 76 M instructions, for the one `__nv_expf` it calls; LLVM cannot read part
//! of a bitcode file.
//! The functions a compile links are a few KB of bitcode: the first compile that calls a set of
//! functions writes them to a file named by libdevice's contents and the set, and later ones
//! read that instead. Without the file, the functions are read from the bitcode written for it
//! too, so that a compile links the same module, and gives the same output, with the cache or
//! without it (`scripts/same-output`; `target::tests`).

use super::NvptxTarget;
use inkwell::context::{AsContextRef, Context, ContextRef};
use inkwell::llvm_sys::core::LLVMIsDeclaration;
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::module::{Linkage, Module};
use inkwell::values::AsValueRef;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Where compiles keep the libdevice functions they linked: `$LOOM_CACHE_DIR/libdevice` (set
/// and empty: nowhere), else under `$XDG_CACHE_HOME/loom`, else under `$HOME/.cache/loom`.
pub fn cache_dir() -> Option<PathBuf> {
    let env = |name| std::env::var_os(name).map(PathBuf::from);
    let root = match env("LOOM_CACHE_DIR") {
        Some(dir) if dir.as_os_str().is_empty() => return None,
        Some(dir) => dir,
        None => env("XDG_CACHE_HOME")
            .filter(|dir| dir.is_absolute())
            .or_else(|| env("HOME").map(|home| home.join(".cache")))?
            .join("loom"),
    };
    Some(root.join("libdevice"))
}

/// libdevice's definitions of `wanted` (`__nv_*` names) and of what they call, in a module of
/// `context`: from the cache in `cache` where it has them, else from libdevice at `path` (then
/// kept in the cache). `Err` says what is wrong with libdevice.
pub fn functions<'ctx>(
    target: &NvptxTarget,
    context: ContextRef<'ctx>,
    path: &str,
    wanted: &BTreeSet<String>,
    cache: Option<&Path>,
) -> Result<Module<'ctx>, String> {
    // A libdevice that cannot be read is reported by reading it as without a cache.
    let entry =
        cache.and_then(|dir| Some(dir.join(entry_name(&std::fs::read(path).ok()?, wanted))));
    let kept = entry
        .as_deref()
        .and_then(|entry| read_kept(context, entry, wanted));
    let functions = match kept {
        Some(kept) => kept,
        None => linked(target, context, path, wanted, entry.as_deref())?,
    };
    target.configure(&functions);
    Ok(functions)
}

/// [`functions`] from libdevice itself, kept at `entry` if there is one.
fn linked<'ctx>(
    target: &NvptxTarget,
    context: ContextRef<'ctx>,
    path: &str,
    wanted: &BTreeSet<String>,
    entry: Option<&Path>,
) -> Result<Module<'ctx>, String> {
    let bitcode = link_from_libdevice(target, path, wanted)?;
    if let Some(entry) = entry {
        keep(bitcode.as_slice(), entry);
    }
    // Read back, as a compile that finds the file does: the same types, names and order of each
    // value's uses, on which the optimiser's result can depend.
    let read = read_bitcode(context, bitcode.as_slice());
    read.ok_or_else(|| "libdevice's functions did not read back from bitcode".to_string())
}

/// The bitcode of a new module with libdevice's `wanted` functions linked in: each round links
/// the `__nv_*` functions still only declared (the linker brings what a function calls, but a
/// declaration libdevice has of another of its functions stays one). In an LLVM context of its
/// own, so that the types libdevice names (`%struct.uint2`) are new to the module that reads it,
/// and keep their names, with or without the cache.
fn link_from_libdevice(
    target: &NvptxTarget,
    path: &str,
    wanted: &BTreeSet<String>,
) -> Result<MemoryBuffer<'static>, String> {
    let context = Context::create();
    let linked = context.create_module("libdevice");
    target.configure(&linked);
    let mut wanted = wanted.clone();
    while !wanted.is_empty() {
        let library = lazy_libdevice(path, &context)?;
        // libdevice says `nvptx64-nvidia-gpulibs`: give it ours, so linking does not warn.
        target.configure(&library);
        let mut offered = false;
        for f in library.get_functions() {
            let name = f.get_name().to_string_lossy();
            // SAFETY: `f` is a function of the live module `library`.
            let defined = unsafe { LLVMIsDeclaration(f.as_value_ref()) } == 0;
            if wanted.contains(name.as_ref()) && defined {
                offered = true;
            } else if defined {
                // Local: the linker moves it only if something it moves refers to it.
                f.set_linkage(Linkage::Internal);
            }
        }
        if !offered {
            let missing = wanted.into_iter().next().unwrap_or_default();
            return Err(format!("libdevice does not define `{missing}`"));
        }
        linked.link_in_module(library).map_err(|e| e.to_string())?;
        let defined = defined_functions(&linked);
        wanted = wanted
            .into_iter()
            .filter(|name| !defined.contains(name))
            .chain(super::undefined_libdevice_functions(&linked))
            .collect();
    }
    Ok(linked.write_bitcode_to_memory())
}

/// libdevice at `path`, read lazily into `context`: function bodies are read when the linker
/// moves them.
fn lazy_libdevice<'ctx>(path: &str, context: &'ctx Context) -> Result<Module<'ctx>, String> {
    use inkwell::llvm_sys::bit_reader::LLVMGetBitcodeModuleInContext2;
    let buffer = MemoryBuffer::create_from_file(Path::new(path)).map_err(|e| e.to_string())?;
    let mut raw = std::ptr::null_mut();
    // SAFETY: the context and buffer are live. The call takes the buffer over whatever it
    // returns (the module reads bodies from it later, or it is freed on failure), so ours must
    // not be freed again.
    let failed = unsafe {
        LLVMGetBitcodeModuleInContext2(context.as_ctx_ref(), buffer.as_mut_ptr(), &mut raw)
    };
    std::mem::forget(buffer);
    if failed != 0 || raw.is_null() {
        return Err("not a bitcode file LLVM 19 can read".to_string());
    }
    // SAFETY: `raw` is a module just made in `context`, owned by nobody else.
    Ok(unsafe { Module::new(raw) })
}

/// The names of the functions `module` defines that other modules can call.
fn defined_functions(module: &Module<'_>) -> BTreeSet<String> {
    module
        .get_functions()
        .filter(|f| f.count_basic_blocks() > 0)
        .filter(|f| f.as_global_value().get_linkage() != Linkage::Internal)
        .map(|f| f.get_name().to_string_lossy().into_owned())
        .collect()
}

/// The cache's file for `wanted` from the libdevice whose bytes are `library`: both go into its
/// name, with the LLVM that writes and reads it and a hash of the code that makes it
/// (`LOOM_KEPT_FORMAT`, build.rs), so that a loomc that may make the file otherwise does not read
/// files an older one wrote.
fn entry_name(library: &[u8], wanted: &BTreeSet<String>) -> String {
    let names: Vec<&str> = wanted.iter().map(String::as_str).collect();
    let (mut major, mut minor, mut patch) = (0, 0, 0);
    // SAFETY: LLVM writes three integers through the pointers.
    unsafe { inkwell::llvm_sys::core::LLVMGetVersion(&mut major, &mut minor, &mut patch) };
    format!(
        "{:016x}-{:016x}-llvm{major}.{minor}.{patch}-{}.bc",
        fingerprint(library),
        fingerprint(names.join("\n").as_bytes()),
        env!("LOOM_KEPT_FORMAT"),
    )
}

/// A 64-bit hash of `bytes`, rustc's Fx hash (the `rustc-hash` crate, 16 bytes a step: 0.23 M
/// instructions for libdevice's 486 KB): to tell one libdevice, or one set of names, from
/// another, not to resist anyone.
fn fingerprint(bytes: &[u8]) -> u64 {
    use std::hash::Hasher;
    let mut hasher = rustc_hash::FxHasher::default();
    hasher.write(bytes);
    hasher.finish()
}

/// The cache's module at `entry`, if it is there, reads, and defines `wanted` with
/// nothing of libdevice's left to link (anything else is treated as not kept).
fn read_kept<'ctx>(
    context: ContextRef<'ctx>,
    entry: &Path,
    wanted: &BTreeSet<String>,
) -> Option<Module<'ctx>> {
    let kept = read_bitcode(context, &std::fs::read(entry).ok()?)?;
    // Written by this loomc under another name and renamed, a file that reads is a whole one.
    // The file's name says the set: a file defines at least `wanted` (and what their linking
    // brought along).
    let complete = wanted.is_subset(&defined_functions(&kept))
        && super::undefined_libdevice_functions(&kept).is_empty();
    complete.then_some(kept)
}

fn read_bitcode<'ctx>(context: ContextRef<'ctx>, bitcode: &[u8]) -> Option<Module<'ctx>> {
    let buffer = MemoryBuffer::create_from_memory_range(bitcode, "kept");
    Module::parse_bitcode_from_buffer(&buffer, context).ok()
}

/// Writes `bitcode` to the cache's `entry`, or nothing if it cannot: under another name first,
/// then renamed, so that a compile beside this one reads the whole file or none.
fn keep(bitcode: &[u8], entry: &Path) {
    use std::io::Write;
    let Some(dir) = entry.parent() else { return };
    let _ = std::fs::create_dir_all(dir)
        .and_then(|()| tempfile::NamedTempFile::new_in(dir))
        .and_then(|mut file| {
            file.write_all(bitcode)?;
            file.persist(entry).map_err(|e| e.error)
        });
}
