//! Progress of long commands on stderr: a bar on a terminal, lines in a log.

use crate::progress::Progress;
use std::io::IsTerminal;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// Progress on stderr: a bar on a terminal, otherwise a line every 10% (for logs).
pub struct CliProgress {
    bar: Mutex<Option<indicatif::ProgressBar>>,
    phase: Mutex<String>,
    total: AtomicU64,
    done: AtomicU64,
    started: Mutex<Instant>,
    terminal: bool,
}

impl CliProgress {
    pub fn new() -> CliProgress {
        CliProgress {
            bar: Mutex::new(None),
            phase: Mutex::new(String::new()),
            total: AtomicU64::new(0),
            done: AtomicU64::new(0),
            started: Mutex::new(Instant::now()),
            terminal: std::io::stderr().is_terminal(),
        }
    }
}

impl Progress for CliProgress {
    fn start(&self, phase: &str, total: u64) {
        *self.phase.lock().expect("lock") = phase.to_string();
        *self.started.lock().expect("lock") = Instant::now();
        self.total.store(total, Ordering::Relaxed);
        self.done.store(0, Ordering::Relaxed);
        if total == 0 {
            return;
        }
        if self.terminal {
            let bar = indicatif::ProgressBar::new(total);
            bar.set_style(
                indicatif::ProgressStyle::with_template(
                    "{msg} [{bar:30}] {pos}/{len}, {elapsed} (eta {eta})",
                )
                .expect("a valid template")
                .progress_chars("=> "),
            );
            bar.set_message(phase.to_string());
            *self.bar.lock().expect("lock") = Some(bar);
        } else {
            eprintln!("{phase}: 0/{total}");
        }
    }

    fn tick(&self, n: u64) {
        let done = self.done.fetch_add(n, Ordering::Relaxed) + n;
        if let Some(bar) = &*self.bar.lock().expect("lock") {
            bar.set_position(done);
            return;
        }
        let total = self.total.load(Ordering::Relaxed).max(1);
        let step = (total / 10).max(1);
        if done % step < n || done == total {
            let secs = self.started.lock().expect("lock").elapsed().as_secs_f64();
            eprintln!(
                "{}: {done}/{total} ({secs:.0} s)",
                self.phase.lock().expect("lock")
            );
        }
    }

    fn finish(&self) {
        if let Some(bar) = self.bar.lock().expect("lock").take() {
            bar.finish_and_clear();
        }
    }

    fn note(&self, line: &str) {
        match &*self.bar.lock().expect("lock") {
            Some(bar) => bar.println(line),
            None => eprintln!("{line}"),
        }
    }
}
