//! What a Python `source` is: a path (a file, compressed or not, an archive, a directory), a
//! list of paths, `bytes`, or a binary file object read in chunks; as kifu-pipeline's
//! [`Source`], which reads them all (compression undone, archive members named
//! `ARCHIVE:MEMBER`).

use std::io::{self, Read};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use kifu::Format;
use kifu_pipeline::Source;
use pyo3::exceptions::{PyFileNotFoundError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyList, PyString, PyTuple};

/// A Python exception met while reading a file object, raised again on the consumer's side.
pub type PyErrSlot = Arc<Mutex<Option<PyErr>>>;

/// Reads `source` as the functions of the module take it; `name` names bytes and streams. The
/// slot keeps a Python exception a file object's `read` raises, to raise it again on the
/// consumer's side.
pub fn extract(source: &Bound<'_, PyAny>, name: Option<String>) -> PyResult<(Source, PyErrSlot)> {
    let slot: PyErrSlot = Arc::new(Mutex::new(None));
    let bytes = |data: Vec<u8>, name: Option<String>| Source::Bytes {
        name: name.unwrap_or_else(|| "<bytes>".into()),
        data,
    };
    if let Ok(b) = source.cast::<PyBytes>() {
        return Ok((bytes(b.as_bytes().to_vec(), name), slot));
    }
    if let Ok(b) = source.cast::<PyByteArray>() {
        return Ok((bytes(b.to_vec(), name), slot));
    }
    let py = source.py();
    let memoryview = py.import("builtins")?.getattr("memoryview")?;
    if source.is_instance(&memoryview)? {
        let b = source.call_method0("tobytes")?;
        let b = b.cast::<PyBytes>()?;
        return Ok((bytes(b.as_bytes().to_vec(), name), slot));
    }
    if let Some(path) = as_path(source)? {
        return Ok((Source::Paths(vec![checked(path)?]), slot));
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
        return Ok((Source::Paths(paths), slot));
    }
    if source.hasattr("read")? {
        let name = match name {
            Some(n) => n,
            None => match source.getattr("name") {
                Ok(n) if n.is_instance_of::<PyString>() => n.extract::<String>()?,
                _ => "<stream>".into(),
            },
        };
        let reader = PyReader {
            file: source.clone().unbind(),
            rest: Vec::new(),
            at: 0,
            error: Arc::clone(&slot),
        };
        return Ok((
            Source::Reader {
                name,
                reader: Box::new(reader),
            },
            slot,
        ));
    }
    Err(PyTypeError::new_err(format!(
        "source must be a path, a list of paths, bytes or a binary file object, not {}",
        source.get_type().name()?
    )))
}

/// The file a file object `source` reads, when it has a descriptor on a regular file
/// (`fileno()`: `open(path, 'rb')`, `gzip.open(path)`; not `io.BytesIO`, not a pipe): an input
/// known by identity (`os.fstat`), which no output replaces while the returned value lives.
pub fn reading(source: &Bound<'_, PyAny>) -> PyResult<Option<kifu_output::Reading>> {
    if !source.hasattr("read")? || !source.hasattr("fileno")? {
        return Ok(None);
    }
    // io.BytesIO and wrappers without a descriptor raise io.UnsupportedOperation (an OSError)
    let Ok(fd) = source.call_method0("fileno") else {
        return Ok(None);
    };
    let py = source.py();
    let Ok(stat) = py.import("os")?.call_method1("fstat", (fd,)) else {
        return Ok(None);
    };
    let mode = stat.getattr("st_mode")?;
    if !py
        .import("stat")?
        .call_method1("S_ISREG", (mode,))?
        .extract::<bool>()?
    {
        return Ok(None);
    }
    let dev: u64 = stat.getattr("st_dev")?.extract()?;
    let ino: u64 = stat.getattr("st_ino")?.extract()?;
    Ok(Some(kifu_output::Reading::identity(dev, ino)))
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
