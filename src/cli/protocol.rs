//! `volte nboard` and `volte gtp` (and `volte` with no command).

use super::args::ProtocolArgs;
use anyhow::Result;

/// Speaks NBoard (or GTP) on stdin/stdout until `quit` or the end of the input.
pub fn run(gtp: bool, args: &ProtocolArgs) -> Result<()> {
    let input = std::io::stdin().lock();
    let output = Box::new(std::io::stdout());
    let options = args.options()?;
    if gtp {
        crate::protocol::gtp::run(input, output, options);
    } else {
        crate::protocol::nboard::run(input, output, options);
    }
    Ok(())
}
