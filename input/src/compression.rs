//! Compressions recognised from the first bytes, and their streaming decoders.

use std::fmt;
use std::io::{self, Read};
use std::sync::Arc;

use crate::Options;
use crate::progress::RawState;

/// The compression of a stream, as its first bytes show it.
///
/// ```
/// use kifu_input::Compression;
/// assert_eq!(Compression::detect(b"\x28\xB5\x2F\xFD\x04"), Compression::Zstd);
/// assert_eq!(Compression::detect(b"\x50\x2A\x4D\x18\x04\0\0\0"), Compression::Zstd); // pzstd
/// assert_eq!(Compression::detect(b"\x1F\x8B\x08"), Compression::Gzip);
/// assert_eq!(Compression::detect(b"BZh91AY&SY"), Compression::Bzip2);
/// assert_eq!(Compression::detect(b"\xFD7zXZ\0"), Compression::Xz);
/// assert_eq!(Compression::detect(b"[Event \"?\"]"), Compression::None);
/// assert_eq!(Compression::Bzip2.to_string(), "bzip2");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Compression {
    /// Not compressed (or not in a way this crate knows).
    None,
    /// zstd (`28 B5 2F FD`), also starting with a skippable frame (`5? 2A 4D 18`), as `pzstd`
    /// writes it.
    Zstd,
    /// gzip (`1F 8B`), one member or several.
    Gzip,
    /// bzip2 (`BZh1`..`BZh9`), one stream or several (`pbzip2`).
    Bzip2,
    /// xz (`FD 37 7A 58 5A 00`), one stream or several.
    Xz,
}

/// The magic number of a zstd frame, little-endian.
pub(crate) const ZSTD_MAGIC: u32 = 0xFD2F_B528;

/// Whether a little-endian word is the magic number of a zstd skippable frame.
pub(crate) fn is_skippable(magic: u32) -> bool {
    magic & 0xFFFF_FFF0 == 0x184D_2A50
}

impl Compression {
    /// How many first bytes [`Compression::detect`] looks at.
    pub const HEAD: usize = 6;

    /// The compression the first bytes show (at least [`Compression::HEAD`] bytes, fewer at the
    /// end of a short stream).
    pub fn detect(head: &[u8]) -> Compression {
        if let Some(m) = head.get(..4) {
            let m = u32::from_le_bytes([m[0], m[1], m[2], m[3]]);
            if m == ZSTD_MAGIC || is_skippable(m) {
                return Compression::Zstd;
            }
        }
        if head.starts_with(b"\x1F\x8B") {
            Compression::Gzip
        } else if head.starts_with(b"BZh") && matches!(head.get(3), Some(b'1'..=b'9')) {
            Compression::Bzip2
        } else if head.starts_with(b"\xFD7zXZ\0") {
            Compression::Xz
        } else {
            Compression::None
        }
    }

    /// The name used in messages: `zstd`, `gzip`, `bzip2`, `xz`, `none`.
    pub fn name(self) -> &'static str {
        match self {
            Compression::None => "none",
            Compression::Zstd => "zstd",
            Compression::Gzip => "gzip",
            Compression::Bzip2 => "bzip2",
            Compression::Xz => "xz",
        }
    }

    /// Whether this build decodes it (its cargo feature is on).
    ///
    /// ```
    /// assert!(kifu_input::Compression::None.is_supported());
    /// ```
    pub fn is_supported(self) -> bool {
        match self {
            Compression::None => true,
            Compression::Zstd => cfg!(feature = "zstd"),
            Compression::Gzip => cfg!(feature = "gzip"),
            Compression::Bzip2 => cfg!(feature = "bzip2"),
            Compression::Xz => cfg!(feature = "xz"),
        }
    }

    /// What a decoder reads in: frames (zstd), members (gzip), streams (bzip2, xz).
    fn unit(self) -> &'static str {
        match self {
            Compression::Zstd => "frame",
            Compression::Gzip => "member",
            _ => "stream",
        }
    }
}

impl fmt::Display for Compression {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error for a compression this build does not decode.
pub(crate) fn unsupported(c: Compression) -> io::Error {
    io::Error::new(
        io::ErrorKind::Unsupported,
        format!("{c} data, but built without {c} support (the `{c}` feature of kifu-input)"),
    )
}

/// A decoder's error in words: a read error of the input, a truncated stream (the input ended
/// inside compressed data), or corrupt data.
pub(crate) fn codec_error(c: Compression, e: io::Error, raw: &RawState) -> io::Error {
    if raw.failed() {
        return io::Error::new(e.kind(), format!("read error near byte {}: {e}", raw.pos()));
    }
    if raw.at_eof() {
        return io::Error::new(
            io::ErrorKind::UnexpectedEof,
            format!(
                "truncated {c} stream: the input ends at byte {} inside a {} ({e})",
                raw.pos(),
                c.unit()
            ),
        );
    }
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("corrupt {c} data near byte {}: {e}", raw.pos()),
    )
}

/// A streaming decoder of any compression over `R` (Send when `R` is).
pub(crate) enum Decoder<R: Read> {
    Plain(R),
    #[cfg(feature = "zstd")]
    Zstd(zstd::stream::read::Decoder<'static, io::BufReader<R>>),
    #[cfg(feature = "gzip")]
    Gzip(Box<flate2::read::MultiGzDecoder<R>>),
    #[cfg(feature = "bzip2")]
    Bzip2(bzip2::read::MultiBzDecoder<R>),
    #[cfg(feature = "xz")]
    Xz(XzStreams<R>),
}

impl<R: Read> Decoder<R> {
    /// A decoder of `c` over `r`.
    pub fn new(c: Compression, r: R, opts: &Options) -> io::Result<Self> {
        let _ = opts;
        Ok(match c {
            Compression::None => Decoder::Plain(r),
            #[cfg(feature = "zstd")]
            Compression::Zstd => {
                let mut d = zstd::stream::read::Decoder::new(r)?;
                d.window_log_max(opts.zstd_window_log_max)?;
                Decoder::Zstd(d)
            }
            #[cfg(feature = "gzip")]
            Compression::Gzip => Decoder::Gzip(Box::new(flate2::read::MultiGzDecoder::new(r))),
            #[cfg(feature = "bzip2")]
            Compression::Bzip2 => Decoder::Bzip2(bzip2::read::MultiBzDecoder::new(r)),
            #[cfg(feature = "xz")]
            Compression::Xz => Decoder::Xz(XzStreams::new(r)?),
            #[allow(unreachable_patterns)]
            c => return Err(unsupported(c)),
        })
    }
}

impl<R: Read> Read for Decoder<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Decoder::Plain(r) => r.read(buf),
            #[cfg(feature = "zstd")]
            Decoder::Zstd(d) => d.read(buf),
            #[cfg(feature = "gzip")]
            Decoder::Gzip(d) => d.read(buf),
            #[cfg(feature = "bzip2")]
            Decoder::Bzip2(d) => d.read(buf),
            #[cfg(feature = "xz")]
            Decoder::Xz(d) => d.read(buf),
        }
    }
}

/// xz streams one after another, each decoded by a decoder of its own: liblzma's decoder of
/// concatenated streams drops the last bytes it decoded when garbage follows them.
#[cfg(feature = "xz")]
pub(crate) struct XzStreams<R: Read> {
    dec: Option<liblzma::bufread::XzDecoder<io::BufReader<R>>>,
}

#[cfg(feature = "xz")]
impl<R: Read> XzStreams<R> {
    fn new(r: R) -> io::Result<Self> {
        Ok(XzStreams {
            dec: Some(Self::stream(io::BufReader::with_capacity(1 << 16, r))?),
        })
    }

    fn stream(r: io::BufReader<R>) -> io::Result<liblzma::bufread::XzDecoder<io::BufReader<R>>> {
        let s =
            liblzma::stream::Stream::new_stream_decoder(u64::MAX, 0).map_err(io::Error::other)?;
        Ok(liblzma::bufread::XzDecoder::new_stream(r, s))
    }
}

#[cfg(feature = "xz")]
impl<R: Read> Read for XzStreams<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        use io::BufRead;
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            let Some(d) = &mut self.dec else { return Ok(0) };
            let n = d.read(buf)?;
            if n > 0 {
                return Ok(n);
            }
            // the end of a stream: stream padding (zero bytes), another stream, or the end
            let r = d.get_mut();
            loop {
                let avail = r.fill_buf()?;
                let zeros = avail.iter().take_while(|b| **b == 0).count();
                if zeros == 0 || avail.is_empty() {
                    break;
                }
                r.consume(zeros);
            }
            let avail = r.fill_buf()?;
            if avail.is_empty() {
                self.dec = None;
                return Ok(0);
            }
            if !avail.starts_with(b"\xFD7zXZ\0") && avail.len() >= 6 {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    "bytes after the last xz stream that are not an xz stream",
                ));
            }
            let r = self.dec.take().map(|d| d.into_inner());
            self.dec = Some(Self::stream(r.expect("a decoder"))?);
        }
    }
}

/// A decoder whose errors say what went wrong in words ([`codec_error`]), and which, once
/// failed, keeps failing with the same error.
pub(crate) struct Checked<R: Read> {
    dec: Decoder<R>,
    c: Compression,
    raw: Arc<RawState>,
    failed: Option<(io::ErrorKind, String)>,
}

impl<R: Read> Checked<R> {
    pub fn new(c: Compression, r: R, raw: Arc<RawState>, opts: &Options) -> io::Result<Self> {
        Ok(Checked {
            dec: Decoder::new(c, r, opts)?,
            c,
            raw,
            failed: None,
        })
    }
}

impl<R: Read> Read for Checked<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if let Some((kind, msg)) = &self.failed {
            return Err(io::Error::new(*kind, msg.clone()));
        }
        match self.dec.read(buf) {
            Ok(n) => Ok(n),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => Err(e),
            Err(e) => {
                if self.c == Compression::None {
                    return Err(e);
                }
                let e = codec_error(self.c, e, &self.raw);
                self.failed = Some((e.kind(), e.to_string()));
                Err(e)
            }
        }
    }
}

/// A stream's first bytes, read ahead to look at them, then the rest; an error met while
/// reading them comes after them, as it would have without the look ahead.
pub(crate) struct Prefixed<R> {
    head: Vec<u8>,
    pos: usize,
    err: Option<(io::ErrorKind, String)>,
    inner: R,
}

impl<R: Read> Prefixed<R> {
    /// Reads up to `n` bytes of `inner` ahead (fewer only at its end or at an error).
    pub fn new(mut inner: R, n: usize) -> Self {
        let mut head = vec![0; n];
        let mut len = 0;
        let mut err = None;
        while len < n {
            match inner.read(&mut head[len..]) {
                Ok(0) => break,
                Ok(k) => len += k,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    err = Some((e.kind(), e.to_string()));
                    break;
                }
            }
        }
        head.truncate(len);
        Prefixed {
            head,
            pos: 0,
            err,
            inner,
        }
    }

    /// The bytes read ahead.
    pub fn head(&self) -> &[u8] {
        &self.head
    }

    /// The reader inside.
    pub fn into_inner(self) -> R {
        self.inner
    }
}

impl<R: Read> Read for Prefixed<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.pos < self.head.len() {
            let n = buf.len().min(self.head.len() - self.pos);
            buf[..n].copy_from_slice(&self.head[self.pos..self.pos + n]);
            self.pos += n;
            if self.pos == self.head.len() {
                self.head = Vec::new();
                self.pos = 0;
            }
            return Ok(n);
        }
        if let Some((kind, msg)) = &self.err {
            return Err(io::Error::new(*kind, msg.clone()));
        }
        self.inner.read(buf)
    }
}
