//! Durable files: every state file, finding and report the farm writes goes
//! through [`write_atomic`] (or [`publish_dir`] for a directory), so a crash
//! or a power loss leaves either the old contents or the new ones, never an
//! empty or half-written file.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// A temporary name next to `path`, unique to this process and call, so two
/// writers (two files in one directory, or two processes) never share one.
pub fn temp_path(path: &Path) -> PathBuf {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(
        ".{name}.{}.{}.tmp",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ))
}

/// Flushes a directory's entries (a rename into it) to disk.
fn sync_dir(dir: &Path) -> io::Result<()> {
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    File::open(dir)?.sync_all()
}

fn parent(path: &Path) -> &Path {
    path.parent().unwrap_or(Path::new("."))
}

/// Writes `bytes` to `path` atomically and durably: a temporary file unique
/// to this process and call, fsync'd, renamed over `path`, then the
/// directory fsync'd. On an error the temporary file is removed and `path`
/// keeps its old contents.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let tmp = temp_path(path);
    let result = (|| {
        let mut f = OpenOptions::new().write(true).create_new(true).open(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result?;
    sync_dir(parent(path))
}

/// Moves the finished directory `staged` to `dest` (replacing an existing
/// one), syncing every file in it and the directory first, then the parent.
pub fn publish_dir(staged: &Path, dest: &Path) -> io::Result<()> {
    for entry in std::fs::read_dir(staged)? {
        let p = entry?.path();
        if p.is_file() {
            File::open(&p)?.sync_all()?;
        }
    }
    sync_dir(staged)?;
    if dest.exists() {
        std::fs::remove_dir_all(dest)?;
    }
    std::fs::rename(staged, dest)?;
    sync_dir(parent(dest))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("triage-durable-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn names(d: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn atomic_writes_replace_and_leave_no_temporary_files() {
        let d = scratch("atomic");
        let p = d.join("state.json");
        write_atomic(&p, b"one\n").unwrap();
        write_atomic(&p, b"two\n").unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "two\n");
        assert_eq!(names(&d), vec!["state.json"]);
        // Every call gets its own temporary name, whatever the target.
        let (a, b) = (
            temp_path(&d.join("report.md")),
            temp_path(&d.join("report.md")),
        );
        assert_ne!(a, b);
        let pid = std::process::id();
        assert!(a
            .file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with(&format!(".report.md.{pid}.")));
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_failed_write_keeps_the_old_contents() {
        let d = scratch("failed");
        // A directory where the file should be: the rename fails.
        let p = d.join("checkpoint.json");
        std::fs::create_dir_all(p.join("x")).unwrap();
        assert!(write_atomic(&p, b"new").is_err());
        assert_eq!(names(&d), vec!["checkpoint.json"]);
        assert!(p.join("x").is_dir());
        assert!(write_atomic(&d.join("missing").join("x.json"), b"x").is_err());
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn published_directories_replace_old_ones() {
        let d = scratch("publish");
        let (staged, dest) = (d.join(".staged"), d.join("finding"));
        std::fs::create_dir_all(&dest).unwrap();
        std::fs::write(dest.join("old"), "old").unwrap();
        std::fs::create_dir_all(&staged).unwrap();
        std::fs::write(staged.join("case.sir"), "new").unwrap();
        publish_dir(&staged, &dest).unwrap();
        assert_eq!(names(&d), vec!["finding"]);
        assert_eq!(names(&dest), vec!["case.sir"]);
        assert_eq!(
            std::fs::read_to_string(dest.join("case.sir")).unwrap(),
            "new"
        );
        std::fs::remove_dir_all(&d).unwrap();
    }
}
