//! Embeds the web pages (`web/` at the workspace root) in the binary: one `arbiter`
//! file serves them, with no build step and nothing fetched at run time. This writes
//! `$OUT_DIR/web_assets.rs`, a table of every file's path and bytes, and asks Cargo to
//! run again whenever anything under `web/` changes.

use std::fmt::Write;
use std::path::{Path, PathBuf};

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let web = manifest.join("../../web");
    println!("cargo:rerun-if-changed={}", web.display());
    let mut files = Vec::new();
    collect(&web, &web, &mut files);
    files.sort();
    let mut table = String::from("/// Every file under `web/`: its path there, and its bytes.\n");
    table.push_str("pub static ASSETS: &[(&str, &[u8])] = &[\n");
    for (relative, absolute) in &files {
        // Cargo re-runs this script when a file changes, not only when one is added.
        println!("cargo:rerun-if-changed={}", absolute.display());
        let _ = writeln!(
            table,
            "    ({relative:?}, include_bytes!({:?})),",
            absolute.display().to_string()
        );
    }
    table.push_str("];\n");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("set by cargo"));
    std::fs::write(out.join("web_assets.rs"), table).expect("OUT_DIR is writable");
}

fn collect(root: &Path, dir: &Path, files: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            // The browser tests and their npm packages are not pages.
            let name = entry.file_name();
            if dir == root && (name == "tests" || name == "node_modules") {
                continue;
            }
            collect(root, &path, files);
        } else if let Ok(relative) = path.strip_prefix(root) {
            let relative = relative.to_string_lossy().replace('\\', "/");
            let absolute = path.canonicalize().unwrap_or(path.clone());
            files.push((relative, absolute));
        }
    }
}
