//! Where the bytes come from: paths (files, directories, archives, `-` for stdin), a reader,
//! or bytes in memory; all through kifu-input, so that compression is undone and archive
//! members are named `ARCHIVE:MEMBER`.

use std::io::{self, Cursor, Read};
use std::path::PathBuf;
use std::sync::Arc;

use kifu::Format;
use kifu_input::{Entry, Options, Progress, Report};

/// One input of a scan, as the per-piece work and the sink see it.
#[derive(Clone, Debug)]
pub struct Input {
    /// `path`, `-` (stdin), `ARCHIVE:MEMBER`, or the name a reader or bytes were given.
    pub name: Arc<str>,
    /// What it is read as.
    pub format: Format,
}

/// What a scan reads.
pub enum Source {
    /// Files, directories (every PGN and SGF file below) and archives; `-` is stdin.
    Paths(Vec<PathBuf>),
    /// One stream (stdin, a Python file object, a socket): maybe compressed, maybe an archive.
    Reader {
        /// The name its games get.
        name: String,
        /// The bytes.
        reader: Box<dyn Read + Send>,
    },
    /// Bytes in memory: maybe compressed, maybe an archive.
    Bytes {
        /// The name its games get.
        name: String,
        /// The bytes.
        data: Vec<u8>,
    },
}

impl std::fmt::Debug for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Source::Paths(p) => f.debug_tuple("Paths").field(p).finish(),
            Source::Reader { name, .. } => f.debug_struct("Reader").field("name", name).finish(),
            Source::Bytes { name, data } => f
                .debug_struct("Bytes")
                .field("name", name)
                .field("len", &data.len())
                .finish(),
        }
    }
}

impl Source {
    /// The paths it names (so that an output is never one of them); none for a reader or
    /// bytes.
    pub fn paths(&self) -> &[PathBuf] {
        match self {
            Source::Paths(p) => p,
            _ => &[],
        }
    }

    /// How many top-level inputs it names.
    pub(crate) fn count(&self) -> u64 {
        match self {
            Source::Paths(p) => p.len() as u64,
            _ => 1,
        }
    }

    /// Walks every stream of the source (a file, an archive member, the reader, the bytes),
    /// decompressed, into `each`.
    pub(crate) fn walk(
        self,
        opts: &Options,
        progress: &Progress,
        each: impl FnMut(Entry<'_>) -> io::Result<()>,
    ) -> Report {
        match self {
            Source::Paths(paths) => kifu_input::for_each_input(&paths, opts, progress, each),
            Source::Reader { name, reader } => {
                kifu_input::for_each_in_reader(&name, reader, opts, progress, each)
            }
            Source::Bytes { name, data } => {
                kifu_input::for_each_in_reader(&name, Cursor::new(data), opts, progress, each)
            }
        }
    }
}

/// Which streams a scan reads, and as what.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Formats {
    /// The format of a stream whose name says nothing (`--format`); else its first bytes
    /// decide.
    pub forced: Option<Format>,
    /// Only streams of this format are read (a PGN table, `read_pgn`); streams whose name says
    /// the other format are skipped and counted ([`Scanned::skipped_format`](crate::Scanned)).
    pub only: Option<Format>,
}

impl Formats {
    /// Every stream, each read as its name or its first bytes say.
    pub const ANY: Formats = Formats {
        forced: None,
        only: None,
    };

    /// Only streams of `format`, a stream whose name says nothing read as it.
    pub const fn only(format: Format) -> Formats {
        Formats {
            forced: Some(format),
            only: Some(format),
        }
    }

    /// The format `entry` is read as, or `None` when it is skipped.
    pub fn choose(&self, entry: &Entry<'_>) -> Option<Format> {
        let f = entry.format_hint.or(self.forced).unwrap_or(entry.sniffed);
        match self.only {
            Some(only) if only != f => None,
            _ => Some(f),
        }
    }
}

/// A reader that fails once the scan is told to stop, so that a scan stops within a read
/// whatever it is doing.
pub(crate) struct Stoppable<'a, R> {
    pub(crate) inner: R,
    pub(crate) stop: Option<&'a std::sync::atomic::AtomicBool>,
}

impl<R: Read> Read for Stoppable<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self
            .stop
            .is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed))
        {
            return Err(io::Error::other("the scan was interrupted"));
        }
        self.inner.read(buf)
    }
}
