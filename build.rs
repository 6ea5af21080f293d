//! Tells the tests whether the shared data folder (game databases, FFO positions) is
//! there: without it, the tests that read it are reported as ignored, not passed.

use std::path::PathBuf;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(volte_no_data)");
    println!("cargo::rerun-if-env-changed=VOLTE_DATA");
    let dir = std::env::var_os("VOLTE_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default())
                .join("../shared/data")
        });
    println!("cargo::rerun-if-changed={}", dir.display());
    if !dir.is_dir() {
        println!("cargo::rustc-cfg=volte_no_data");
    }
}
