//! Inputs the process reads through an open descriptor (stdin redirected from a file, a Python
//! file object): known by identity only, and protected while they are read.

use std::sync::{Mutex, MutexGuard};

use crate::guard::Id;

/// The identities of the inputs held open, one entry per [`Reading`] alive.
static OPEN: Mutex<Vec<Id>> = Mutex::new(Vec::new());

fn open() -> MutexGuard<'static, Vec<Id>> {
    OPEN.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A regular file this process reads as an input through an open descriptor, known by its
/// device and inode (it may have no path: stdin redirected from a file, a Python file object).
/// While a `Reading` lives, every [`Guard`](crate::Guard) of the process refuses an output that
/// is that file ([`Error::Input`](crate::Error::Input)), `force` or not; dropped, it protects
/// nothing any more.
///
/// `kifu` holds one for its stdin for the whole run; Python's `to_parquet` one for a file
/// object's `fileno()` while it exports.
///
/// ```
/// # #[cfg(unix)] {
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("games.pgn");
/// std::fs::write(&path, "1. e4 *\n").unwrap();
/// let file = std::fs::File::open(&path).unwrap();
/// let guard = kifu_output::Guard::new(&[], true);
/// let reading = kifu_output::Reading::of(&file).expect("a regular file");
/// assert!(guard.create(&path).is_err(), "read through a descriptor: refused");
/// drop(reading);
/// assert!(guard.create(&path).is_ok());
/// # }
/// ```
#[derive(Debug)]
#[must_use = "the file is protected only while the Reading lives"]
pub struct Reading {
    id: Id,
}

impl Reading {
    /// The file of device `dev` and inode `ino` (as `fstat` or Python's `os.fstat` give them),
    /// which should be a regular file (a device, say `/dev/null`, would be refused as an output
    /// too). Platforms without inodes compare no identity: there it protects nothing.
    pub fn identity(dev: u64, ino: u64) -> Reading {
        let id = (dev, ino);
        open().push(id);
        Reading { id }
    }

    /// The file open as `fd`, if it is a regular file (a pipe, a terminal or a device is no file
    /// an output could replace: `None`, as when it cannot be examined).
    #[cfg(unix)]
    pub fn of(fd: impl std::os::fd::AsFd) -> Option<Reading> {
        regular_id(fd).map(|(dev, ino)| Reading::identity(dev, ino))
    }

    /// The process's stdin, if it is redirected from a regular file.
    pub fn stdin() -> Option<Reading> {
        #[cfg(unix)]
        {
            Reading::of(std::io::stdin())
        }
        #[cfg(not(unix))]
        {
            None
        }
    }
}

impl Drop for Reading {
    fn drop(&mut self) {
        let mut open = open();
        if let Some(i) = open.iter().position(|&id| id == self.id) {
            open.swap_remove(i);
        }
    }
}

/// Whether `id` is a file some [`Reading`] holds.
pub(crate) fn is_read(id: Id) -> bool {
    open().contains(&id)
}

/// The identity of the process's stdin, if it is a regular file.
pub(crate) fn stdin_id() -> Option<Id> {
    #[cfg(unix)]
    {
        regular_id(std::io::stdin())
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// The device and inode of the file open as `fd`, if it is a regular file.
#[cfg(unix)]
fn regular_id(fd: impl std::os::fd::AsFd) -> Option<Id> {
    use std::os::unix::fs::MetadataExt;
    let owned = fd.as_fd().try_clone_to_owned().ok()?;
    let meta = std::fs::File::from(owned).metadata().ok()?;
    meta.is_file().then(|| (meta.dev(), meta.ino()))
}
