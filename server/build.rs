//! Lists `web/dist/` (the web client's page, at the workspace root) into
//! `$OUT_DIR/web_dist.rs`: a table of (path, bytes) that `net::page` builds
//! into the binary. The server serves whatever the folder held when it was
//! built, and reads nothing from disk when it runs.

use std::fs;
use std::path::{Path, PathBuf};

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let dist = manifest.join("../web/dist");
    // Cargo scans a folder named here for any change inside it.
    println!("cargo::rerun-if-changed={}", dist.display());
    let mut files = Vec::new();
    list(&dist, &dist, &mut files);
    files.sort();
    let mut table = String::from("&[\n");
    for (name, path) in &files {
        let path = path.to_str().unwrap_or_else(|| panic!("{}: not UTF-8", path.display()));
        table.push_str(&format!("    ({name:?}, include_bytes!({path:?})),\n"));
    }
    table.push_str("]\n");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("set by cargo"));
    fs::write(out.join("web_dist.rs"), table).expect("writes into OUT_DIR");
}

/// Every file under `dir`, named by its path from `root` with `/` between
/// folders. Hidden files (`.gitkeep`) are left out; any other name that a
/// URL would have to percent-encode stops the build, since it could never
/// be asked for.
fn list(root: &Path, dir: &Path, files: &mut Vec<(String, PathBuf)>) {
    let entries =
        fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()));
    for entry in entries {
        let entry = entry.unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()));
        let path = entry.path();
        let file_name = entry.file_name();
        if file_name.to_string_lossy().starts_with('.') {
            continue;
        }
        let kind = entry.file_type().unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if kind.is_dir() {
            list(root, &path, files);
            continue;
        }
        let name: Vec<String> = path
            .strip_prefix(root)
            .expect("under the root")
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        let name = name.join("/");
        let plain = |c: char| c.is_ascii_alphanumeric() || "._-/".contains(c);
        assert!(
            name.chars().all(plain),
            "web/dist/{name}: name served files with letters, digits, '.', '-' and '_' only"
        );
        files.push((name, path));
    }
}
