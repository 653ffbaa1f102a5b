//! A real full disk for tests: a small tmpfs mounted on a temporary directory, filled to
//! the last byte by a ballast file and freed by deleting it. SQLite then fails its
//! writes with `SQLITE_FULL` exactly as on a full production disk.
//!
//! Mounting needs root (or `CAP_SYS_ADMIN`), as the project's machines and CI have. A
//! test that cannot mount fails and says so: it never passes without having run.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A mounted tmpfs, unmounted when dropped.
pub struct SmallDisk {
    dir: tempfile::TempDir,
}

impl SmallDisk {
    /// Mount a tmpfs of `size` (`mount`'s syntax: `32m`). Panics with the reason when
    /// it cannot.
    pub fn mount(size: &str) -> SmallDisk {
        let dir = tempfile::tempdir().expect("a mount point");
        let mounted = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(dir.path())
            .output()
            .unwrap_or_else(|e| panic!("cannot run mount: {e}"));
        assert!(
            mounted.status.success(),
            "the full-disk tests mount a {size} tmpfs to fill, which needs root (or \
             CAP_SYS_ADMIN), as on the project's machines and in CI: {}",
            String::from_utf8_lossy(&mounted.stderr).trim()
        );
        SmallDisk { dir }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Fill every free byte with a ballast file; returns its path (delete it to free
    /// the space).
    pub fn fill(&self) -> PathBuf {
        let ballast = self.path().join("ballast");
        let mut file = std::fs::File::create(&ballast).expect("create the ballast");
        for chunk in [1 << 20, 4096, 1] {
            let bytes = vec![0u8; chunk];
            while file.write_all(&bytes).is_ok() {}
        }
        ballast
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        // Lazy: a file still open in this process must not keep the mount.
        let _ = Command::new("umount")
            .arg("-l")
            .arg(self.dir.path())
            .status();
    }
}
