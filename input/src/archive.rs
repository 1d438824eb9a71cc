//! Bundles read as a stream of their member files: tar (sequentially), zip (through its
//! central directory when the file can seek, streaming otherwise).

use std::cell::Cell;
use std::io::{self, Read};
#[cfg(feature = "zip")]
use std::path::Path;

use crate::compression::Chunked;
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

/// A member reader that fails when its data ends before the size its header announces, or
/// goes on after it; at its end it reads the member's reader to its own end, so that the
/// member's checks there (zip's CRC-32) are made.
pub(crate) struct Exact<'c, R> {
    inner: R,
    left: u64,
    size: u64,
    /// The end was checked.
    checked: bool,
    /// Set when the data was cut short or failed.
    cut: &'c Cell<bool>,
}

impl<'c, R> Exact<'c, R> {
    pub fn new(inner: R, size: u64, cut: &'c Cell<bool>) -> Self {
        Exact {
            inner,
            left: size,
            size,
            checked: false,
            cut,
        }
    }
}

impl<R: Read> Exact<'_, R> {
    /// At the announced size: the member's reader must end there (and pass its checks).
    fn check_end(&mut self) -> io::Result<usize> {
        if self.checked {
            return Ok(0);
        }
        let mut one = [0u8; 1];
        loop {
            match self.inner.read(&mut one) {
                Ok(0) => {
                    self.checked = true;
                    return Ok(0);
                }
                Ok(_) => {
                    self.cut.set(true);
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidData,
                        format!(
                            "broken archive: the member holds more than the {} bytes its header announces",
                            self.size
                        ),
                    ));
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.cut.set(true);
                    return Err(e);
                }
            }
        }
    }
}

impl<R: Read> Read for Exact<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        if self.left == 0 {
            return self.check_end();
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

/// An archive's fault, and the fault found by reading on (a decoder's, around the archive),
/// when it is another.
fn broken_because(kind: &str, e: impl std::fmt::Display, cause: Option<io::Error>) -> io::Error {
    let e = e.to_string();
    match cause {
        Some(c) if c.to_string() != e => io::Error::new(
            c.kind(),
            format!("broken {kind} archive: {e}, the data around it being damaged: {c}"),
        ),
        _ => broken(kind, e),
    }
}

/// What an archive's reader met: bytes read, the end of its input, a failure.
#[derive(Default)]
pub(crate) struct Seen {
    pos: Cell<u64>,
    eof: Cell<bool>,
    failed: Cell<bool>,
}

/// An archive's reader, watched ([`Seen`]).
pub(crate) struct Track<'s, R> {
    inner: R,
    seen: &'s Seen,
}

impl<R: Read> Read for Track<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self.inner.read(buf) {
            Ok(0) if !buf.is_empty() => {
                self.seen.eof.set(true);
                Ok(0)
            }
            Ok(n) => {
                self.seen.pos.set(self.seen.pos.get() + n as u64);
                Ok(n)
            }
            Err(e) => {
                if e.kind() != io::ErrorKind::Interrupted {
                    self.seen.failed.set(true);
                }
                Err(e)
            }
        }
    }
}

/// Walks a tar archive's regular files; PGN and SGF members (by name) are handed over as
/// `NAME:MEMBER`, the other files counted as skipped. After the end-of-archive block, what
/// follows is read to the end, so that a compression around the tar is checked to its end (its
/// checksum, its length); a tar whose input ends before that block is truncated.
#[cfg(feature = "tar")]
pub(crate) fn tar<F: FnMut(Entry<'_>) -> io::Result<()>>(
    w: &mut Walker<'_, F>,
    name: &str,
    r: &mut dyn Read,
) {
    let cut = Cell::new(false);
    let seen = Seen::default();
    let mut ar = tar::Archive::new(Track {
        inner: r,
        seen: &seen,
    });
    let entries = match ar.entries() {
        Ok(e) => e,
        Err(e) => return w.report.error(name, broken("tar", e)),
    };
    let mut fault = None;
    for entry in entries {
        if w.aborted() {
            return;
        }
        let mut e = match entry {
            Ok(e) => e,
            Err(e) => {
                fault = Some(e);
                break;
            }
        };
        if !e.header().entry_type().is_file() {
            continue;
        }
        let path = String::from_utf8_lossy(&e.path_bytes()).into_owned();
        if name_info(&path).format.is_none() {
            w.report.skip_member(name, &path);
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
    if let Some(e) = fault {
        // damaged compression around the tar shows first as a broken header: read on to
        // find what the decoder says (its checksum), and say both
        let cause = drain(&mut ar.into_inner()).err();
        return w.report.error(name, broken_because("tar", e, cause));
    }
    if seen.eof.get() {
        return w.report.error(
            name,
            io::Error::new(
                io::ErrorKind::UnexpectedEof,
                format!(
                    "truncated tar archive: the input ends at byte {} without the end-of-archive block",
                    seen.pos.get()
                ),
            ),
        );
    }
    if let Err(e) = drain(&mut ar.into_inner()) {
        w.report.error(name, e);
    }
}

/// Reads `r` to its end (its decoder's checks at the end are made), without keeping the bytes.
pub(crate) fn drain(r: &mut dyn Read) -> io::Result<()> {
    // most streams were read to their end already: a small read says so (a buffer of 8 KiB is
    // zeroed for each stream drained, 2% of a search over small files)
    let mut small = [0u8; 64];
    loop {
        match r.read(&mut small) {
            Ok(0) => return Ok(()),
            Ok(_) => break,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    let mut buf = [0u8; 8192];
    loop {
        match r.read(&mut buf) {
            Ok(0) => return Ok(()),
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

/// Walks a zip file through its central directory; without one (a zip cut short, or damaged at
/// its end), from its local headers as a stream, then an error for the archive.
#[cfg(feature = "zip")]
pub(crate) fn zip_file<F: FnMut(Entry<'_>) -> io::Result<()>>(
    w: &mut Walker<'_, F>,
    name: &str,
    path: &Path,
) {
    let open = |progress| {
        std::fs::File::open(path)
            // read on this thread, as its members are: what is read is consumed
            .map(|f| crate::progress::Counted::consumed(io::BufReader::new(f), progress))
    };
    let counted = match open(w.progress) {
        Ok(f) => f,
        Err(e) => return w.report.error(name, e),
    };
    let mut ar = match zip::ZipArchive::new(counted) {
        Ok(a) => a,
        Err(e) => {
            let mut file = match open(w.progress) {
                Ok(f) => f,
                Err(e) => return w.report.error(name, e),
            };
            let mut head = [0u8; 4];
            let starts_like_zip = crate::frames::read_full(&mut file, &mut head).is_ok()
                && is_zip(&head)
                && head != *b"PK\x05\x06";
            if !starts_like_zip {
                return w.report.error(
                    name,
                    io::Error::new(
                        io::ErrorKind::InvalidData,
                        format!("not a zip archive: {e}"),
                    ),
                );
            }
            let mut r = io::Cursor::new(head).chain(file);
            let before = w.report.errors.len();
            zip_stream(w, name, &mut r);
            // one error for the archive: the stream's own (where it ends), else why its
            // central directory could not be read
            if w.report.errors[before..].iter().any(|e| e.name == name) {
                return;
            }
            return w.report.error(
                name,
                io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!(
                        "broken zip archive: {e} (cut short?); the members before the fault were read from their local headers"
                    ),
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
                    w.report.skip_member(name, &member);
                }
                continue;
            }
        };
        if !f.is_file() {
            continue;
        }
        if crate::name_info(&member).format.is_none() {
            w.report.skip_member(name, &member);
            continue;
        }
        let size = f.size();
        let cut = Cell::new(false);
        let mut chunked = Chunked::with_buffer(&mut f, w.opts.chunk_len(), w.spare());
        w.member(
            &format!("{name}:{member}"),
            Some(size),
            &mut Exact::new(&mut chunked, size, &cut),
        );
        w.give_back(chunked.into_buffer());
    }
}

/// Walks a zip stream from its local headers (a zip that cannot seek: stdin, or decompressed),
/// then reads its central directory to its end record (and so the stream to its end: a
/// compression around the zip is checked to its end).
#[cfg(feature = "zip")]
pub(crate) fn zip_stream<F: FnMut(Entry<'_>) -> io::Result<()>>(
    w: &mut Walker<'_, F>,
    name: &str,
    r: &mut dyn Read,
) {
    let seen = Seen::default();
    let mut r = io::BufReader::with_capacity(
        1 << 16,
        Track {
            inner: r,
            seen: &seen,
        },
    );
    {
        use io::BufRead;
        match r.fill_buf() {
            // an empty archive: the end of its central directory, nothing before it
            Ok(head) if head.starts_with(b"PK\x05\x06") => {
                return end_of_central_directory(w, name, &mut r, &seen, Vec::new());
            }
            Ok(_) => {}
            Err(e) => return w.report.error(name, e),
        }
    }
    let mut fault = None;
    loop {
        if w.aborted() {
            return;
        }
        let mut f = match zip::read::read_zipfile_from_stream(&mut r) {
            Ok(Some(f)) => f,
            Ok(None) => break,
            Err(e) => {
                fault = Some(e);
                break;
            }
        };
        if !f.is_file() {
            continue;
        }
        let member = f.name().to_string();
        if crate::name_info(&member).format.is_none() {
            w.report.skip_member(name, &member);
            continue;
        }
        let size = f.size();
        let cut = Cell::new(false);
        let mut chunked = Chunked::with_buffer(&mut f, w.opts.chunk_len(), w.spare());
        w.member(
            &format!("{name}:{member}"),
            Some(size),
            &mut Exact::new(&mut chunked, size, &cut),
        );
        w.give_back(chunked.into_buffer());
        drop(f);
        // a member's own fault (its CRC, its compressed data) does not end the walk; a fault of
        // the archive's stream (truncated, corrupt around it) does
        if seen.failed.get() || seen.eof.get() {
            return;
        }
    }
    if let Some(e) = fault {
        let e = if seen.failed.get() {
            match e {
                zip::result::ZipError::Io(e) => e,
                e => broken("zip", e),
            }
        } else if seen.eof.get() {
            io::Error::new(
                io::ErrorKind::UnexpectedEof,
                format!(
                    "truncated zip archive: the input ends at byte {} before the central directory",
                    seen.pos.get()
                ),
            )
        } else if matches!(&e, zip::result::ZipError::UnsupportedArchive(m) if m.contains("length is not available"))
        {
            io::Error::new(
                io::ErrorKind::Unsupported,
                "a zip member written with a data descriptor (its sizes after its data, as a zip \
                 written to a pipe) cannot be read without the archive's central directory, \
                 which a zip read as a stream (or cut short) does not give: save the whole \
                 archive to a file and name the file",
            )
        } else {
            // damaged compression around the zip shows first as a broken header: read on to
            // find what the decoder says, and say both
            broken_because("zip", e, drain(&mut r).err())
        };
        return w.report.error(name, e);
    }
    // the central directory's first header is read (4 bytes of magic and 26 more)
    end_of_central_directory(w, name, &mut r, &seen, vec![0; 30])
}

/// Reads the rest of a zip stream (its central directory) to its end, which must be the end of
/// central directory record (with its comment).
#[cfg(feature = "zip")]
fn end_of_central_directory<F: FnMut(Entry<'_>) -> io::Result<()>>(
    w: &mut Walker<'_, F>,
    name: &str,
    r: &mut dyn Read,
    seen: &Seen,
    mut tail: Vec<u8>,
) {
    // the record is 22 bytes and a comment of at most 65,535
    const KEEP: usize = 22 + 65_535;
    let mut buf = [0u8; 8192];
    loop {
        match r.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                tail.extend_from_slice(&buf[..n]);
                if tail.len() > 2 * KEEP {
                    tail.drain(..tail.len() - KEEP);
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return w.report.error(name, e),
        }
    }
    let whole = (0..tail.len().saturating_sub(21)).rev().any(|p| {
        tail[p..].starts_with(b"PK\x05\x06")
            && p + 22 + u16::from_le_bytes([tail[p + 20], tail[p + 21]]) as usize == tail.len()
    });
    if !whole {
        w.report.error(
            name,
            io::Error::new(
                io::ErrorKind::UnexpectedEof,
                format!(
                    "truncated zip archive: the input ends at byte {} inside the central directory (no end record)",
                    seen.pos.get()
                ),
            ),
        );
    }
}
