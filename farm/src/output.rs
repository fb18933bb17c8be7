//! Writing to stdout without panicking when the reader goes away
//! (`farm ... | head`).

use std::io::Write;

/// Writes `text` to stdout; a closed pipe ends the output quietly.
pub fn emit(text: &str) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        r => Ok(r?),
    }
}
