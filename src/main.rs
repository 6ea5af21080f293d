//! The `volte` binary: parses the command line and dispatches to [`volte::cli`].

fn main() {
    // Like other command-line tools, end quietly when the reader of our output goes away
    // (`volte solve ... | head`) instead of failing on every later print.
    #[cfg(unix)]
    // SAFETY: restoring the default SIGPIPE action at start-up, before any thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = volte::cli::parse_or_exit();
    if let Err(e) = volte::cli::run(cli) {
        // One line: the error and its causes.
        let causes: Vec<String> = e.chain().map(|c| c.to_string()).collect();
        eprintln!("error: {}", causes.join(": "));
        std::process::exit(1);
    }
}
