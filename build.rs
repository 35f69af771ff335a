//! Embeds `docs/errors/<CODE>.md` into loomc for `loomc explain CODE`, so that adding an
//! explanation means adding a file; fingerprints the parser and the standard library
//! (`LOOM_PARSER_FINGERPRINT`, for `src/stdlib/parsed.rs`) and the code that makes the libdevice
//! cache's files (`LOOM_KEPT_FORMAT`, for `src/target/libdevice.rs`); and links the loomc binary
//! as a fixed-address executable, with the C++ standard library and LLVM's C libraries linked in
//! and the functions a compile runs side by side.

use std::fmt::Write;
use std::path::Path;

fn main() {
    // loomc starts for every file a build compiles, and much of a small compile is the start:
    // as a position-independent executable, the loader first patches 120,000 relocations of the
    // statically linked LLVM, writing (so faulting in) every page they lie on. Measured with
    // `perf stat -r 30` (CPU time): `loomc --version` 5.9 ms as PIE, 3.2 ms fixed; saxpy to PTX
    // 13.1 and 10.5 ms. A compiler that reads only the files it is given gives up little with
    // address randomisation of its own image (libraries, stack and heap keep theirs).
    println!("cargo:rustc-link-arg-bin=loomc=-no-pie");
    #[cfg(unix)]
    static_libraries();
    let root = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".to_string());
    hot_functions_first(Path::new(&root));
    println!(
        "cargo:rustc-env=LOOM_PARSER_FINGERPRINT={:016x}",
        parser_fingerprint(Path::new(&root))
    );
    println!(
        "cargo:rustc-env=LOOM_KEPT_FORMAT={:016x}",
        kept_format(Path::new(&root))
    );
    let dir = Path::new(&root).join("docs/errors");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut docs: Vec<_> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "md"))
                .collect()
        })
        .unwrap_or_default();
    docs.sort();
    let mut table = String::from("/// `(code, markdown)` for every file in docs/errors.\npub const ERROR_DOCS: &[(&str, &str)] = &[\n");
    for path in docs {
        let code = path
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        println!("cargo:rerun-if-changed={}", path.display());
        let _ = writeln!(
            table,
            "    ({code:?}, include_str!({:?})),",
            path.display().to_string()
        );
    }
    table.push_str("];\n");
    let out = std::env::var("OUT_DIR").unwrap_or_else(|_| ".".to_string());
    if let Err(e) = std::fs::write(Path::new(&out).join("error_docs.rs"), table) {
        panic!("cannot write error_docs.rs: {e}");
    }
}

/// A hash of what the standard library's parsed items (`src/stdlib/parsed.jsonl`) were made
/// from: the library's files, the grammar, the parser and the AST's types. loomc reads those
/// items only where the file says it was made from the same (FNV-1a, to tell versions apart).
fn parser_fingerprint(root: &Path) -> u64 {
    println!("cargo:rerun-if-changed={}", root.join("stdlib").display());
    let mut files: Vec<_> = std::fs::read_dir(root.join("stdlib"))
        .map(|entries| entries.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|path| path.extension().is_some_and(|e| e == "loom"));
    files.sort();
    let sources = [
        "loom.pest",
        "src/syntax/ast.rs",
        "src/syntax/span.rs",
        "src/syntax/parser.rs",
        "src/syntax/parser/layout.rs",
    ];
    files.extend(sources.iter().map(|file| root.join(file)));
    fingerprint(root, files)
}

/// A hash of the code that makes and reads the libdevice cache's files
/// (`src/target/libdevice.rs`): that file (linking, writing, reading back), `src/target.rs` (the
/// triple and data layout the kept module is given, which of its functions are libdevice's) and
/// `Cargo.lock` (the inkwell and llvm-sys that call LLVM; LLVM's own version is in the file's
/// name). In the cache's file names, so that a loomc whose making of them may differ reads none
/// an earlier one wrote: a format number bumped by hand could be forgotten, and a test pinning
/// these files' hash would fail on every edit of `src/target.rs`. A change that makes the same
/// files only costs each set of functions one compile that reads libdevice again.
fn kept_format(root: &Path) -> u64 {
    let sources = ["src/target/libdevice.rs", "src/target.rs", "Cargo.lock"];
    fingerprint(root, sources.iter().map(|file| root.join(file)).collect())
}

/// FNV-1a of each file's name (from `root`) and bytes, in order; cargo runs the build script
/// again when one changes.
fn fingerprint(root: &Path, files: Vec<std::path::PathBuf>) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for path in files {
        println!("cargo:rerun-if-changed={}", path.display());
        let name = path
            .strip_prefix(root)
            .unwrap_or(&path)
            .to_string_lossy()
            .into_owned();
        let text = std::fs::read(&path).unwrap_or_default();
        for byte in name.bytes().chain([0]).chain(text).chain([0]) {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    hash
}

/// Has the linker place the C and C++ functions that an ordinary compile runs (the list that
/// `scripts/hot-functions` makes) side by side at the start of loomc's text. The kernel maps
/// the text on first touch, 64 KiB at a time: scattered over 35 MB, LLVM's functions cost
/// saxpy 484 page faults, side by side 194 (1,044 faults in all before, 760 after).
/// The order changes only where code lies, never what it does. lld takes the list (rustc links
/// with it by default on x86-64 Linux since 1.90); a linker that does not is asked nothing.
fn hot_functions_first(root: &Path) {
    let list = root.join("scripts/hot-functions.txt");
    println!("cargo:rerun-if-changed={}", list.display());
    let order = [
        "-Xlinker".to_string(),
        format!("--symbol-ordering-file={}", list.display()),
        // The list names LLVM's functions; a few are inlined away or absent in this build.
        "-Xlinker".to_string(),
        "--no-warn-symbol-ordering".to_string(),
    ];
    if list.is_file() && links_with(&order) {
        for arg in order {
            println!("cargo:rustc-link-arg-bin=loomc={arg}");
        }
    } else {
        println!(
            "cargo:warning=loomc is linked without scripts/hot-functions.txt's order (the \
             linker does not take --symbol-ordering-file): it starts more slowly"
        );
    }
}

/// Whether an empty program links with `link_args`, by the rustc, target and flags that build
/// loomc.
fn links_with(link_args: &[String]) -> bool {
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    let out = Path::new(&var("OUT_DIR")).join("link-probe");
    let source = out.join("probe.rs");
    if std::fs::create_dir_all(&out).is_err() || std::fs::write(&source, "fn main() {}\n").is_err()
    {
        return false;
    }
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
    let mut probe = std::process::Command::new(rustc);
    probe.arg(&source).arg("-o").arg(out.join("probe"));
    probe.args(["--target", &var("TARGET")]);
    probe.args(
        var("CARGO_ENCODED_RUSTFLAGS")
            .split('\x1f')
            .filter(|f| !f.is_empty()),
    );
    for arg in link_args {
        probe.arg(format!("-Clink-arg={arg}"));
    }
    let linked = probe.output().is_ok_and(|out| out.status.success());
    let _ = std::fs::remove_dir_all(&out);
    linked
}

/// Links the loomc binary with the archives of the C++ standard library and of the C libraries
/// LLVM uses (zlib, zstd, libffi) instead of their shared libraries. LLVM's objects refer to
/// libstdc++ from thousands of places, and the shared library refers to itself from as many:
/// the dynamic loader looked up 2,339 symbols at every start, 1,675 of them for libstdc++.so's
/// own relocations (`LD_DEBUG=bindings loomc --version`). Each shared library more is a file to
/// map and relocate at every start as well. llvm-sys asks for `-lstdc++ -lz -lzstd -lffi`; a
/// search directory that holds only the archives, which the linker reads before the compiler's
/// own directories (where the `.so` files are), makes those the archives. A library whose
/// archive is not installed is linked shared, as before.
#[cfg(unix)]
fn static_libraries() {
    let out = std::env::var("OUT_DIR").unwrap_or_else(|_| ".".to_string());
    let dir = Path::new(&out).join("static-libraries");
    let _ = std::fs::remove_dir_all(&dir);
    if std::fs::create_dir_all(&dir).is_err() {
        return;
    }
    for name in ["libstdc++.a", "libz.a", "libzstd.a", "libffi.a"] {
        if let Some(archive) = installed_archive(name) {
            let _ = std::os::unix::fs::symlink(&archive, dir.join(name));
        }
    }
    println!("cargo:rustc-link-search=native={}", dir.display());
}

/// Where the C compiler finds the library file `name`, if it is installed.
#[cfg(unix)]
fn installed_archive(name: &str) -> Option<std::path::PathBuf> {
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".to_string());
    std::process::Command::new(cc)
        .arg(format!("-print-file-name={name}"))
        .output()
        .ok()
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .map(|path| std::path::PathBuf::from(path.trim()))
        .filter(|path| path.is_absolute() && path.is_file())
}
