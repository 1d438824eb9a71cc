//! Where the bytes come from: a path (a file, compressed or not, an archive, a directory), a
//! list of paths, `bytes`, or a binary file object read in chunks; all through kifu-input, so
//! that compression is undone and archive members are named `ARCHIVE:MEMBER`.

use std::io::{self, Cursor, Read};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use kifu_input::{Entry, Format, Options, Progress, Report};
use pyo3::exceptions::{PyFileNotFoundError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyList, PyString, PyTuple};

/// A Python exception met while reading a file object, raised again on the consumer's side.
pub type PyErrSlot = Arc<Mutex<Option<PyErr>>>;

/// One source of a call: what `source` was.
pub enum Source {
    /// Files, directories, archives (read by kifu-input's walk).
    Paths(Vec<PathBuf>),
    /// Bytes held in memory (maybe compressed, maybe an archive).
    Bytes {
        /// The name the games get (`<bytes>` unless `name=` was given).
        name: String,
        /// The bytes.
        data: Vec<u8>,
    },
    /// A binary file object (anything with `read(n)` returning bytes).
    File {
        /// `name=`, else the object's `name` attribute, else `<stream>`.
        name: String,
        /// The object.
        file: Py<PyAny>,
    },
}

impl Source {
    /// Reads `source` as the functions of the module take it; `name` names bytes and streams.
    pub fn extract(source: &Bound<'_, PyAny>, name: Option<String>) -> PyResult<Source> {
        if let Ok(b) = source.cast::<PyBytes>() {
            let data = b.as_bytes().to_vec();
            return Ok(Source::Bytes {
                name: name.unwrap_or_else(|| "<bytes>".into()),
                data,
            });
        }
        if let Ok(b) = source.cast::<PyByteArray>() {
            return Ok(Source::Bytes {
                name: name.unwrap_or_else(|| "<bytes>".into()),
                data: b.to_vec(),
            });
        }
        let py = source.py();
        let memoryview = py.import("builtins")?.getattr("memoryview")?;
        if source.is_instance(&memoryview)? {
            let b = source.call_method0("tobytes")?;
            let b = b.cast::<PyBytes>()?;
            return Ok(Source::Bytes {
                name: name.unwrap_or_else(|| "<bytes>".into()),
                data: b.as_bytes().to_vec(),
            });
        }
        if let Some(path) = as_path(source)? {
            return Ok(Source::Paths(vec![checked(path)?]));
        }
        if source.is_instance_of::<PyList>() || source.is_instance_of::<PyTuple>() {
            let mut paths = Vec::new();
            for item in source.try_iter()? {
                let item = item?;
                match as_path(&item)? {
                    Some(p) => paths.push(checked(p)?),
                    None => {
                        return Err(PyTypeError::new_err(
                            "a list source holds paths (str or os.PathLike) only",
                        ));
                    }
                }
            }
            return Ok(Source::Paths(paths));
        }
        if source.hasattr("read")? {
            let name = match name {
                Some(n) => n,
                None => match source.getattr("name") {
                    Ok(n) if n.is_instance_of::<PyString>() => n.extract::<String>()?,
                    _ => "<stream>".into(),
                },
            };
            return Ok(Source::File {
                name,
                file: source.clone().unbind(),
            });
        }
        Err(PyTypeError::new_err(format!(
            "source must be a path, a list of paths, bytes or a binary file object, not {}",
            source.get_type().name()?
        )))
    }

    /// Walks the source: `each` gets every stream (file, member, bytes), decompressed. A
    /// Python exception raised by a file object's `read` is kept in `py_error`.
    pub fn walk(
        self,
        opts: &Options,
        py_error: &PyErrSlot,
        each: impl FnMut(Entry<'_>) -> io::Result<()>,
    ) -> Report {
        let progress = Progress::new();
        match self {
            Source::Paths(paths) => kifu_input::for_each_input(&paths, opts, &progress, each),
            Source::Bytes { name, data } => {
                kifu_input::for_each_in_reader(&name, Cursor::new(data), opts, &progress, each)
            }
            Source::File { name, file } => {
                let reader = PyReader {
                    file,
                    rest: Vec::new(),
                    at: 0,
                    error: Arc::clone(py_error),
                };
                kifu_input::for_each_in_reader(&name, reader, opts, &progress, each)
            }
        }
    }

    /// The paths of the source (so that an output file is never one of them).
    pub fn paths(&self) -> Vec<PathBuf> {
        match self {
            Source::Paths(p) => p.clone(),
            _ => Vec::new(),
        }
    }
}

/// `str` and `os.PathLike` sources as a path.
fn as_path(obj: &Bound<'_, PyAny>) -> PyResult<Option<PathBuf>> {
    if obj.is_instance_of::<PyString>() {
        return Ok(Some(PathBuf::from(obj.extract::<String>()?)));
    }
    if obj.hasattr("__fspath__")? {
        let p = obj.call_method0("__fspath__")?;
        if p.is_instance_of::<PyString>() {
            return Ok(Some(PathBuf::from(p.extract::<String>()?)));
        }
        return Err(PyTypeError::new_err(
            "bytes paths are not supported: pass a str",
        ));
    }
    Ok(None)
}

/// A path that does not exist is a usage error, raised at once as `FileNotFoundError`.
fn checked(path: PathBuf) -> PyResult<PathBuf> {
    if path.as_os_str().is_empty() {
        return Err(PyValueError::new_err("empty path"));
    }
    if std::fs::symlink_metadata(&path).is_err() {
        return Err(PyFileNotFoundError::new_err((
            2,
            "No such file or directory",
            path.display().to_string(),
        )));
    }
    Ok(path)
}

/// A Python binary file object as a `Read`: `read(n)` called with the GIL, on whatever thread
/// reads (the consumer has released the GIL while it waits, so the call proceeds).
struct PyReader {
    file: Py<PyAny>,
    /// Bytes a `read(n)` returned beyond `n` (a file object may return more).
    rest: Vec<u8>,
    at: usize,
    error: PyErrSlot,
}

impl Read for PyReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        if self.at < self.rest.len() {
            let n = buf.len().min(self.rest.len() - self.at);
            buf[..n].copy_from_slice(&self.rest[self.at..self.at + n]);
            self.at += n;
            return Ok(n);
        }
        Python::attach(|py| {
            let got = match self.file.bind(py).call_method1("read", (buf.len(),)) {
                Ok(got) => got,
                Err(e) => {
                    let message = e.to_string();
                    if let Ok(mut slot) = self.error.lock() {
                        slot.get_or_insert(e);
                    }
                    return Err(io::Error::other(message));
                }
            };
            let data: &[u8] = if let Ok(b) = got.cast::<PyBytes>() {
                b.as_bytes()
            } else if got.is_none() {
                return Err(io::Error::new(
                    io::ErrorKind::WouldBlock,
                    "read() returned None: non-blocking streams are not supported",
                ));
            } else if let Ok(b) = got.cast::<PyByteArray>() {
                self.rest = b.to_vec();
                self.at = 0;
                &[]
            } else {
                let message = "read() must return bytes: open the file in binary mode ('rb')";
                if let Ok(mut slot) = self.error.lock() {
                    slot.get_or_insert(PyTypeError::new_err(message));
                }
                return Err(io::Error::new(io::ErrorKind::InvalidData, message));
            };
            if data.is_empty() && self.at < self.rest.len() {
                let n = buf.len().min(self.rest.len());
                buf[..n].copy_from_slice(&self.rest[..n]);
                self.at = n;
                return Ok(n);
            }
            let n = buf.len().min(data.len());
            buf[..n].copy_from_slice(&data[..n]);
            if n < data.len() {
                self.rest = data[n..].to_vec();
                self.at = 0;
            }
            Ok(n)
        })
    }
}

/// Which inputs a call reads, and as what.
#[derive(Clone, Copy, Debug)]
pub struct Formats {
    /// The format of an input whose name says nothing (`format=`); else its first bytes decide.
    pub forced: Option<Format>,
    /// Only inputs of this format are read (`read_pgn`, a PGN table); inputs whose name says
    /// the other format are skipped, and said so with a warning.
    pub only: Option<Format>,
}

impl Formats {
    /// The format `entry` is read as, or `None` when it is skipped.
    pub fn choose(&self, entry: &Entry<'_>) -> Option<Format> {
        let f = entry.format_hint.or(self.forced).unwrap_or(entry.sniffed);
        match self.only {
            Some(only) if only != f => None,
            _ => Some(f),
        }
    }
}

/// `"pgn"`, `"sgf"` or `None`.
pub fn parse_format(name: Option<&str>) -> PyResult<Option<Format>> {
    match name.map(str::to_ascii_lowercase).as_deref() {
        None => Ok(None),
        Some("pgn") => Ok(Some(Format::Pgn)),
        Some("sgf") => Ok(Some(Format::Sgf)),
        Some(other) => Err(PyValueError::new_err(format!(
            "format must be 'pgn' or 'sgf', not {other:?}"
        ))),
    }
}
