//! Progress reports of long jobs (training, book building): the library calls them, the
//! command line draws a bar or writes log lines.

/// Progress of a long phase: `start(phase, total)` then `tick(n)` as work finishes.
pub trait Progress: Sync {
    fn start(&self, phase: &str, total: u64);
    fn tick(&self, n: u64);
    fn finish(&self);
    /// A line about the work (an epoch's errors, say), between the progress reports.
    fn note(&self, _line: &str) {}
}

/// No progress reports.
pub struct Quiet;

impl Progress for Quiet {
    fn start(&self, _: &str, _: u64) {}
    fn tick(&self, _: u64) {}
    fn finish(&self) {}
}
