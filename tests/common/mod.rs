//! Helpers shared by the integration tests.

use std::path::PathBuf;

/// The shared data folder: `$VOLTE_DATA`, or `../shared/data` beside the project. `None`
/// (and a line on stderr saying the test is skipped) when it is absent.
#[allow(dead_code)]
pub fn data_dir(test: &str) -> Option<PathBuf> {
    let dir = std::env::var_os("VOLTE_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data"));
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!(
            "SKIPPED {test}: data folder {} not found (set VOLTE_DATA)",
            dir.display()
        );
        None
    }
}
