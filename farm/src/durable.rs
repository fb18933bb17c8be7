//! Durable files for the farm: [`triage::durable`]'s atomic, fsync'd writes
//! with errors that name the file, JSON written through them, and JSON read
//! back with `FILE:LINE:COL` on a syntax error.

use anyhow::{Context, Result};
use serde::de::DeserializeOwned;
use std::path::Path;

/// Writes `bytes` to `path` atomically and durably
/// ([`triage::durable::write_atomic`]).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    triage::durable::write_atomic(path, bytes)
        .with_context(|| format!("cannot write {}", path.display()))
}

/// Writes `value` as pretty JSON (with a final newline) through
/// [`write_atomic`].
pub fn write_json<T: serde::Serialize>(path: &Path, value: &T) -> Result<()> {
    let text = serde_json::to_string_pretty(value)
        .with_context(|| format!("cannot encode {}", path.display()))?;
    write_atomic(path, (text + "\n").as_bytes())
}

/// Moves the finished directory `staged` to `dest`, durably
/// ([`triage::durable::publish_dir`]).
pub fn publish_dir(staged: &Path, dest: &Path) -> Result<()> {
    triage::durable::publish_dir(staged, dest)
        .with_context(|| format!("cannot move {} to {}", staged.display(), dest.display()))
}

/// A JSON syntax or shape error as `FILE:LINE:COL: message`.
pub fn json_error(file: &str, e: &serde_json::Error) -> anyhow::Error {
    let msg = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    let msg = msg.strip_suffix(&suffix).unwrap_or(&msg);
    anyhow::anyhow!("{file}:{}:{}: {msg}", e.line(), e.column())
}

/// Reads a JSON file; `None` if it does not exist.
pub fn read_json<T: DeserializeOwned>(path: &Path) -> Result<Option<T>> {
    match std::fs::read_to_string(path) {
        Ok(text) => serde_json::from_str(&text)
            .map(Some)
            .map_err(|e| json_error(&path.display().to_string(), &e)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e).with_context(|| format!("cannot read {}", path.display())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_name_the_file_and_json_errors_the_position() {
        let d = std::env::temp_dir().join(format!("farm-durable-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        let p = d.join("missing").join("x.json");
        let e = write_atomic(&p, b"x").unwrap_err();
        assert_eq!(e.to_string(), format!("cannot write {}", p.display()));
        let p = d.join("c.json");
        std::fs::write(&p, "{\n  \"a\": 1,\n  oops\n}\n").unwrap();
        let e = read_json::<serde_json::Value>(&p).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("{}:3:3: key must be a string", p.display())
        );
        assert!(read_json::<serde_json::Value>(&d.join("none.json"))
            .unwrap()
            .is_none());
        write_json(&p, &serde_json::json!({"a": 2})).unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "{\n  \"a\": 2\n}\n");
        std::fs::remove_dir_all(&d).unwrap();
    }
}
