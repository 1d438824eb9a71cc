//! What a walk found: errors by input, skipped members.

use std::fmt;
use std::io;

/// A fault in one input: its name (`FILE`, `-`, or `ARCHIVE:MEMBER`) and what went wrong.
///
/// ```
/// let e = kifu_input::InputError::new("x.pgn.zst", std::io::Error::other("truncated zstd stream"));
/// assert_eq!(e.to_string(), "x.pgn.zst: truncated zstd stream");
/// ```
#[derive(Debug)]
pub struct InputError {
    /// The input's name, as the entries are named.
    pub name: String,
    /// What went wrong (its message says it in words: "truncated gzip stream: ...",
    /// "named as a bzip2 file but the bytes are zstd data", ...).
    pub error: io::Error,
}

impl InputError {
    /// An error of the input named `name`.
    pub fn new(name: impl Into<String>, error: io::Error) -> Self {
        InputError {
            name: name.into(),
            error,
        }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.name, self.error)
    }
}

impl std::error::Error for InputError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// What a walk did: inputs, entries, skipped files and members, errors.
///
/// ```
/// use kifu_input::{for_each_input, Options, Progress};
/// let r = for_each_input(&["no/such/file.pgn".into()], &Options::default(), &Progress::new(), |_| Ok(()));
/// assert_eq!(r.errors.len(), 1);
/// assert!(r.errors[0].to_string().starts_with("no/such/file.pgn: "));
/// assert!(!r.is_clean());
/// ```
#[derive(Debug, Default)]
pub struct Report {
    /// Top-level inputs opened or tried (files, stdin, readers), directories expanded.
    pub inputs: u64,
    /// Streams handed to the function (files and archive members).
    pub entries: u64,
    /// Files of walked directories that are neither PGN nor SGF (by name, compressed or not) nor
    /// an archive.
    pub skipped_files: u64,
    /// Archive members (regular files) that are neither PGN nor SGF by name.
    pub skipped_members: u64,
    /// The faults of the inputs, in input order.
    pub errors: Vec<InputError>,
    /// An error of the function's own (not one of the reader it was given), which stopped the
    /// walk: e.g. its output is closed.
    pub aborted: Option<InputError>,
}

impl Report {
    /// No input error, and not aborted.
    pub fn is_clean(&self) -> bool {
        self.errors.is_empty() && self.aborted.is_none()
    }

    pub(crate) fn error(&mut self, name: &str, error: io::Error) {
        self.errors.push(InputError::new(name, error));
    }
}
