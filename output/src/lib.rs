//! # kifu-output: the files kifu writes
//!
//! Every writer of the `kifu` command (`fmt -o`, `filter -o`, `dedup -o`, `split`, `export`) and
//! of the Python package (`to_parquet`) goes through this crate, so that the rules below hold
//! for all of them at once:
//!
//! * **Never an input.** An output that is one of the inputs (the same file, however reached:
//!   a link, another path) or lies inside an input directory (also when it does not exist yet:
//!   the next run would read it back in) is refused, with or without `force`. Inputs are
//!   compared by identity (device and inode) too: a file that an input directory reaches
//!   through a link or a bind mount, stdin redirected from a file (`-`), a file read through a
//!   descriptor ([`Reading`]), and a dataset directory holding one of them are never replaced.
//! * **Never clobbered by surprise.** An existing file is replaced only with `force`.
//! * **Never half-written.** A file is written under a hidden, unpredictable name created
//!   exclusively in the same directory (the `tempfile` crate: `O_EXCL`, so that a link planted
//!   there is never followed) and renamed into place only when complete. Dropped before
//!   [`Output::commit`] (an error on the way), it is removed.
//! * **Devices are written through.** `-` is standard output; a character device or a FIFO
//!   (`/dev/null`, `/dev/stdout` on a pipe, a named pipe) is opened and written, never
//!   replaced; a block device or a socket is refused.
//! * **Datasets swap whole.** A dataset directory ([`Guard::dataset`]) is built beside its
//!   place and swapped in only when every part and its `_SUCCESS` mark are there: the old
//!   dataset stays whole until the new one is. On Linux the two are exchanged in one step, so
//!   that the path is never missing, a crash included ([`Dataset::commit`] says what a crash
//!   leaves elsewhere).
//! * **Interrupts leave nothing.** Every temporary file and directory is known to a registry
//!   of the process; [`remove_temporaries_and_exit`] removes them, and with the `signals`
//!   feature [`remove_on_signal`] does so on SIGINT, SIGTERM and SIGHUP before the process
//!   dies of the signal.
//! * **Errors name the path**, a full disk included.
//! * **Names from values stay bounded.** A value of any length that names a file or a folder
//!   (`kifu split --by`, `kifu export --partition-by`) or a row (`kifu stats --by`) is kept
//!   as [`bounded::Bounded`]: whole up to 100 bytes, else its first bytes and hashes of the
//!   whole, so that long values that begin alike are never merged.
//!
//! ```
//! use std::io::Write;
//! use kifu_output::Guard;
//!
//! let dir = tempfile::tempdir().unwrap();
//! let input = dir.path().join("games.pgn");
//! std::fs::write(&input, "1. e4 *\n").unwrap();
//! let guard = Guard::new(&[input.clone()], false);
//!
//! // an input is refused, and so is a new file inside an input directory
//! assert!(guard.create(&input).is_err());
//! assert!(Guard::new(&[dir.path().to_path_buf()], true).create(&dir.path().join("new.pgn")).is_err());
//!
//! let out = dir.path().join("out.pgn");
//! let mut file = guard.create(&out).unwrap();
//! file.write_all(b"1. e4 *\n").unwrap();
//! assert!(!out.exists()); // not in place before it is complete
//! file.commit().unwrap();
//! assert_eq!(std::fs::read(&out).unwrap(), b"1. e4 *\n");
//! assert!(guard.create(&out).is_err()); // exists: refused without force
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod bounded;
mod dataset;
mod error;
mod file;
mod guard;
mod live;
mod reading;

pub use dataset::Dataset;
pub use error::Error;
pub use file::Output;
pub use guard::{Destination, Guard};
#[cfg(all(unix, feature = "signals"))]
pub use live::remove_on_signal;
pub use live::remove_temporaries_and_exit;
pub use reading::Reading;

#[cfg(test)]
mod tests {
    /// Every entry of `dir`, hidden ones too, sorted.
    pub(crate) fn entries(dir: &std::path::Path) -> Vec<String> {
        let mut v: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }
}
