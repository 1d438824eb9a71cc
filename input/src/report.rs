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

    /// Whether the input was refused because decoding it needs more memory than
    /// [`Options::decoder_memory_limit`](crate::Options::decoder_memory_limit) allows (a zstd
    /// window, an xz dictionary): not damaged, but not read; a larger limit reads it. Such an
    /// error is of kind [`io::ErrorKind::OutOfMemory`].
    ///
    /// ```
    /// use kifu_input::{for_each_in_reader, Options, Progress};
    /// // a zstd frame header asking for a 2 GiB window (window descriptor 0xA8), no content size
    /// let frame = b"\x28\xB5\x2F\xFD\x00\xA8\x01\x00\x00".to_vec();
    /// let r = for_each_in_reader("big.zst", std::io::Cursor::new(frame), &Options::default(),
    ///     &Progress::new(), |e| std::io::copy(e.reader, &mut std::io::sink()).map(drop));
    /// assert!(r.errors[0].is_memory_limit(), "{}", r.errors[0]);
    /// assert!(r.errors[0].to_string().contains("--decoder-memory"));
    /// ```
    pub fn is_memory_limit(&self) -> bool {
        self.error.kind() == io::ErrorKind::OutOfMemory
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
    /// The first [`Report::SKIPPED_NAMES`] skipped files and members, each with why
    /// (`games.zip:readme.txt (not PGN or SGF)`, `all.tar:more.zip (an archive inside an
    /// archive is not opened)`).
    pub skipped: Vec<String>,
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

    /// How many skipped names [`Report::skipped`] keeps.
    pub const SKIPPED_NAMES: usize = 20;

    /// Counts a skipped archive member of `archive`, and keeps its name among the first.
    pub(crate) fn skip_member(&mut self, archive: &str, member: &str) {
        self.skipped_members += 1;
        self.keep_skipped(&format!("{archive}:{member}"), member);
    }

    /// Counts a skipped file of a walked directory, and keeps its name among the first.
    pub(crate) fn skip_file(&mut self, path: &str) {
        self.skipped_files += 1;
        self.keep_skipped(path, path);
    }

    fn keep_skipped(&mut self, shown: &str, name: &str) {
        if self.skipped.len() < Self::SKIPPED_NAMES {
            let why = if crate::name_info(name).archive.is_some() {
                "an archive inside an archive is not opened"
            } else {
                "not PGN or SGF"
            };
            self.skipped.push(format!("{shown} ({why})"));
        }
    }

    pub(crate) fn error(&mut self, name: &str, error: io::Error) {
        self.errors.push(InputError::new(name, error));
    }
}
