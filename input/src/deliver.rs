//! Handing streams to the caller's function, and telling the reader's faults from the
//! function's own.

use std::io::{self, Read};

use crate::compression::{Checked, Chunked, Prefixed};
use crate::names::NameInfo;
use crate::progress::Counted;
use crate::{Compression, Format, Options, Progress, Report, name_info};

/// One decompressed stream: a file, stdin, or a member of an archive.
///
/// ```
/// use kifu_input::{for_each_in_reader, Compression, Format, Options, Progress};
/// use std::io::Read;
/// let mut seen = Vec::new();
/// for_each_in_reader("-", std::io::Cursor::new(b"(;GM[1])".to_vec()), &Options::default(),
///     &Progress::new(), |e| {
///         assert_eq!((e.format_hint, e.sniffed, e.compression), (None, Format::Sgf, Compression::None));
///         let mut s = String::new();
///         e.reader.read_to_string(&mut s)?;
///         seen.push((e.name.to_string(), s));
///         Ok(())
///     });
/// assert_eq!(seen, [("-".to_string(), "(;GM[1])".to_string())]);
/// ```
pub struct Entry<'a> {
    /// `path/to/file.pgn.zst` (as given, or as found in a directory), `-` for stdin, or
    /// `ARCHIVE:MEMBER` for a member of an archive (`bundle.tar.bz2:dir/game.sgf`).
    pub name: &'a str,
    /// The format the (member) name names: `.pgn` / `.sgf`, also under a compression suffix.
    pub format_hint: Option<Format>,
    /// The format the first decoded bytes show ([`Format::sniff`]).
    pub sniffed: Format,
    /// The compression the stream had (already undone in `reader`).
    pub compression: Compression,
    /// The decoded size when known (a plain file, an uncompressed archive member), to choose
    /// between reading a stream whole and streaming it.
    pub size_hint: Option<u64>,
    /// The decoded bytes. A fault (truncated or corrupt data, a read error) is an error of this
    /// reader, after every byte decoded before it; the walk records it in the report whatever
    /// the function returns. It is not `Send`: archive members borrow their archive.
    pub reader: &'a mut dyn Read,
}

impl Entry<'_> {
    /// The format: the name's, else the sniffed one.
    pub fn format(&self) -> Format {
        self.format_hint.unwrap_or(self.sniffed)
    }
}

/// How many decoded bytes are looked at before a stream is handed over (the tar magic sits at
/// 257..262).
pub(crate) const LOOK_AHEAD: usize = 512;

/// A reader that remembers its first error (other than `Interrupted`).
pub(crate) struct Watch<R> {
    inner: R,
    failed: Option<(io::ErrorKind, String)>,
}

impl<R> Watch<R> {
    pub fn new(inner: R) -> Self {
        Watch {
            inner,
            failed: None,
        }
    }
    pub fn failed(&self) -> Option<io::Error> {
        self.failed
            .as_ref()
            .map(|(kind, msg)| io::Error::new(*kind, msg.clone()))
    }
}

impl<R: Read> Read for Watch<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self.inner.read(buf) {
            Err(e) if e.kind() != io::ErrorKind::Interrupted => {
                if self.failed.is_none() {
                    self.failed = Some((e.kind(), e.to_string()));
                }
                Err(e)
            }
            r => r,
        }
    }
}

/// The state of one walk: options, counters, the report, the caller's function.
pub(crate) struct Walker<'o, F> {
    pub opts: &'o Options,
    pub progress: &'o Progress,
    pub report: Report,
    pub f: F,
    pub stdin_used: bool,
    /// Spent chunk buffers ([`Chunked`]), to be filled again.
    pub spares: Vec<Vec<u8>>,
}

impl<F: FnMut(Entry<'_>) -> io::Result<()>> Walker<'_, F> {
    pub fn aborted(&self) -> bool {
        self.report.aborted.is_some()
    }

    /// A chunk buffer to fill (a spent one, or new).
    pub fn spare(&mut self) -> Vec<u8> {
        self.spares.pop().unwrap_or_default()
    }

    /// A spent chunk buffer, kept for the next member (two at most).
    pub fn give_back(&mut self, buf: Vec<u8>) {
        if self.spares.len() < 2 {
            self.spares.push(buf);
        }
    }

    /// Hands a decoded stream to the function and records what went wrong. What the function
    /// left unread is read to the end afterwards (unless it failed on its own), so that the
    /// stream's checks at its end (checksums, lengths) are always made.
    pub fn deliver(
        &mut self,
        name: &str,
        format_hint: Option<Format>,
        compression: Compression,
        size_hint: Option<u64>,
        reader: &mut dyn Read,
    ) {
        let mut watched = Prefixed::new(Watch::new(reader), LOOK_AHEAD);
        let sniffed = Format::sniff(watched.head());
        self.report.entries += 1;
        let result = (self.f)(Entry {
            name,
            format_hint,
            sniffed,
            compression,
            size_hint,
            reader: &mut watched,
        });
        if result.is_ok() {
            // the reader's error, if any, is recorded by `Watch`
            let _ = crate::archive::drain(&mut watched);
        }
        match (watched.into_inner().failed(), result) {
            (Some(e), _) => self.report.error(name, e),
            (None, Err(e)) => self.report.aborted = Some(crate::InputError::new(name, e)),
            (None, Ok(())) => {}
        }
    }

    /// An archive member (or any stream that gets no thread of its own): its compression
    /// recognised and undone inline, then handed over.
    pub fn member(&mut self, name: &str, size: Option<u64>, reader: &mut dyn Read) {
        let info = name_info(name);
        let counted = Counted::new(reader, None);
        let state = counted.state.clone();
        let raw = Prefixed::new(counted, Compression::HEAD);
        let c = Compression::detect(raw.head());
        if let Err(e) = check_claim(&info, c, raw.head()) {
            return self.report.error(name, e);
        }
        match Checked::new(c, raw, state, self.opts) {
            Ok(d) if c == Compression::None => {
                let mut d = d;
                self.deliver(name, info.format, c, size, &mut d);
            }
            // a compressed member is read in chunks, as every decoder is
            Ok(d) => {
                let spare = self.spare();
                let mut d = Chunked::with_buffer(d, self.opts.chunk_len(), spare);
                self.deliver(name, info.format, c, None, &mut d);
                self.give_back(d.into_buffer());
            }
            Err(e) => self.report.error(name, e),
        }
    }
}

/// A name that claims a compression the bytes do not have is an error (the bytes decide what
/// is decoded, but a `.gz` that is zstd or plain text is not what it says it is).
pub(crate) fn check_claim(info: &NameInfo, c: Compression, head: &[u8]) -> io::Result<()> {
    let Some(claimed) = info.compression else {
        return Ok(());
    };
    if claimed == c {
        return if c.is_supported() {
            Ok(())
        } else {
            Err(crate::compression::unsupported(c))
        };
    }
    let what = if head.is_empty() {
        "the input is empty".to_string()
    } else if c == Compression::None {
        "the bytes are not compressed".to_string()
    } else {
        format!("the bytes are {c} data")
    };
    Err(io::Error::new(
        io::ErrorKind::InvalidData,
        format!("named as {claimed} data, but {what}"),
    ))
}
