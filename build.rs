//! Embeds `docs/errors/<CODE>.md` into loomc for `loomc explain CODE`, so that adding an
//! explanation means adding a file; and links the loomc binary as a fixed-address executable.

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
    let root = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".to_string());
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
