//! Bundles read as a stream of their member files: tar (sequentially), zip (through its
//! central directory when the file can seek, streaming otherwise).

use std::cell::Cell;
use std::io::{self, Read};
#[cfg(feature = "zip")]
use std::path::Path;

use crate::deliver::{Entry, Walker};
#[cfg(feature = "tar")]
use crate::name_info;

/// Whether decoded bytes start like a tar archive ("ustar" at offset 257: POSIX and GNU tar).
pub(crate) fn is_tar(head: &[u8]) -> bool {
    head.get(257..262) == Some(b"ustar")
}

/// Whether bytes start like a zip archive: a local file header, or the end of the central
/// directory of an empty archive.
pub(crate) fn is_zip(head: &[u8]) -> bool {
    head.starts_with(b"PK\x03\x04") || head.starts_with(b"PK\x05\x06")
}

/// A member reader that fails when its data ends before the size its header announces.
pub(crate) struct Exact<'c, R> {
    inner: R,
    left: u64,
    size: u64,
    /// Set when the data was cut short or failed.
    cut: &'c Cell<bool>,
}

impl<'c, R> Exact<'c, R> {
    pub fn new(inner: R, size: u64, cut: &'c Cell<bool>) -> Self {
        Exact {
            inner,
            left: size,
            size,
            cut,
        }
    }
}

impl<R: Read> Read for Exact<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.left == 0 || buf.is_empty() {
            return Ok(0);
        }
        let max = buf
            .len()
            .min(usize::try_from(self.left).unwrap_or(usize::MAX));
        let n = self.inner.read(&mut buf[..max]).inspect_err(|e| {
            if e.kind() != io::ErrorKind::Interrupted {
                self.cut.set(true);
            }
        })?;
        if n == 0 {
            self.cut.set(true);
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                format!(
                    "truncated archive: the member ends after {} of its {} bytes",
                    self.size - self.left,
                    self.size
                ),
            ));
        }
        self.left -= n as u64;
        Ok(n)
    }
}

fn broken(kind: &str, e: impl std::fmt::Display) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("broken {kind} archive: {e}"),
    )
}

/// Walks a tar archive's regular files; PGN and SGF members (by name) are handed over as
/// `NAME:MEMBER`, the other files counted as skipped.
#[cfg(feature = "tar")]
pub(crate) fn tar<F: FnMut(Entry<'_>) -> io::Result<()>>(
    w: &mut Walker<'_, F>,
    name: &str,
    r: &mut dyn Read,
) {
    let cut = Cell::new(false);
    let mut ar = tar::Archive::new(r);
    let entries = match ar.entries() {
        Ok(e) => e,
        Err(e) => return w.report.error(name, broken("tar", e)),
    };
    for entry in entries {
        if w.aborted() {
            return;
        }
        let mut e = match entry {
            Ok(e) => e,
            Err(e) => return w.report.error(name, broken("tar", e)),
        };
        if !e.header().entry_type().is_file() {
            continue;
        }
        let path = String::from_utf8_lossy(&e.path_bytes()).into_owned();
        if name_info(&path).format.is_none() {
            w.report.skipped_members += 1;
            continue;
        }
        let size = e.size();
        w.member(
            &format!("{name}:{path}"),
            Some(size),
            &mut Exact::new(&mut e, size, &cut),
        );
        // a fault of the archive's own stream (truncated, corrupt) ends the walk: what
        // follows cannot be found
        if cut.get() {
            return;
        }
    }
}

/// Walks a zip file through its central directory.
#[cfg(feature = "zip")]
pub(crate) fn zip_file<F: FnMut(Entry<'_>) -> io::Result<()>>(
    w: &mut Walker<'_, F>,
    name: &str,
    path: &Path,
) {
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) => return w.report.error(name, e),
    };
    let counted = crate::progress::Counted::new(io::BufReader::new(file), Some(w.progress));
    let mut ar = match zip::ZipArchive::new(counted) {
        Ok(a) => a,
        Err(e) => {
            return w.report.error(
                name,
                io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("not a zip archive: {e}"),
                ),
            );
        }
    };
    for i in 0..ar.len() {
        if w.aborted() {
            return;
        }
        let member = ar.name_for_index(i).unwrap_or("?").to_string();
        let mut f = match ar.by_index(i) {
            Ok(f) => f,
            Err(e) => {
                if crate::name_info(&member).format.is_some() {
                    w.report
                        .error(&format!("{name}:{member}"), broken("zip", e));
                } else {
                    w.report.skipped_members += 1;
                }
                continue;
            }
        };
        if !f.is_file() {
            continue;
        }
        if crate::name_info(&member).format.is_none() {
            w.report.skipped_members += 1;
            continue;
        }
        let size = f.size();
        let cut = Cell::new(false);
        w.member(
            &format!("{name}:{member}"),
            Some(size),
            &mut Exact::new(&mut f, size, &cut),
        );
    }
}

/// Walks a zip stream from its local headers (a zip that cannot seek: stdin, or decompressed).
#[cfg(feature = "zip")]
pub(crate) fn zip_stream<F: FnMut(Entry<'_>) -> io::Result<()>>(
    w: &mut Walker<'_, F>,
    name: &str,
    mut r: &mut dyn Read,
) {
    loop {
        if w.aborted() {
            return;
        }
        let mut f = match zip::read::read_zipfile_from_stream(&mut r) {
            Ok(Some(f)) => f,
            Ok(None) => return,
            Err(e) => return w.report.error(name, broken("zip", e)),
        };
        if !f.is_file() {
            continue;
        }
        let member = f.name().to_string();
        if crate::name_info(&member).format.is_none() {
            w.report.skipped_members += 1;
            continue;
        }
        let size = f.size();
        let cut = Cell::new(false);
        w.member(
            &format!("{name}:{member}"),
            Some(size),
            &mut Exact::new(&mut f, size, &cut),
        );
        if cut.get() {
            return;
        }
    }
}
