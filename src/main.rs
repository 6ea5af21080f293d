//! The `volte` binary: parses the command line and dispatches to [`volte::cli`].

use clap::Parser;

fn main() {
    let cli = volte::cli::Cli::parse();
    if let Err(e) = volte::cli::run(cli) {
        // One line: the error and its causes.
        let causes: Vec<String> = e.chain().map(|c| c.to_string()).collect();
        eprintln!("error: {}", causes.join(": "));
        std::process::exit(1);
    }
}
