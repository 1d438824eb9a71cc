//! Why an output was refused or failed; every message names the path.

use std::io;
use std::path::PathBuf;

/// Why an output was refused, or failed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The output is one of the inputs, or inside an input directory.
    #[error("{}: is one of the inputs (or inside an input directory): refusing to write it; write elsewhere", .0.display())]
    Input(PathBuf),
    /// The output exists and replacing was not asked for.
    #[error("{}: exists (--force to replace it)", .0.display())]
    Exists(PathBuf),
    /// A file was asked for and the path is a directory.
    #[error("{}: is a directory (give a file name, or ask for a dataset)", .0.display())]
    IsDirectory(PathBuf),
    /// A block device, socket or other file that is neither written through nor replaced.
    #[error("{}: is a {}: refusing to write it", .0.display(), .1)]
    Special(PathBuf, &'static str),
    /// A dataset directory to replace holds files kifu did not write.
    #[error("{}: holds files kifu did not write (such as `{}`): refusing to replace it; remove them or write elsewhere", .0.display(), .1)]
    Foreign(PathBuf, String),
    /// Reading or writing a file.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What failed.
        source: io::Error,
    },
}

impl Error {
    pub(crate) fn io(path: impl Into<PathBuf>) -> impl FnOnce(io::Error) -> Error {
        let path = path.into();
        move |source| Error::Io { path, source }
    }

    /// The `io::ErrorKind` that fits: `InvalidInput` for a refusal, `AlreadyExists`, or the
    /// I/O error's own.
    pub fn kind(&self) -> io::ErrorKind {
        match self {
            Error::Exists(_) => io::ErrorKind::AlreadyExists,
            Error::Io { source, .. } => source.kind(),
            _ => io::ErrorKind::InvalidInput,
        }
    }
}

impl From<Error> for io::Error {
    /// An `io::Error` of the same kind whose message is the error's (the path named).
    fn from(e: Error) -> io::Error {
        io::Error::new(e.kind(), e.to_string())
    }
}
