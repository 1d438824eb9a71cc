//! Compressions recognised from the first bytes, and their streaming decoders.

use std::fmt;
use std::io::{self, Read};
use std::sync::Arc;

use crate::Options;
use crate::progress::{RawPos, RawState};

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

/// Whether a decoder's error says the input asked for more memory than it was allowed (a zstd
/// window over `window_log_max`, an xz dictionary over liblzma's memory limit).
pub(crate) fn over_limit(e: &io::Error) -> bool {
    #[cfg(feature = "xz")]
    if e.get_ref()
        .and_then(|i| i.downcast_ref::<liblzma::stream::Error>())
        .is_some_and(|x| matches!(x, liblzma::stream::Error::MemLimit))
    {
        return true;
    }
    e.kind() == io::ErrorKind::OutOfMemory
        || e.to_string()
            .contains("Frame requires too much memory for decoding")
}

/// A size in words, in the largest unit that holds it whole: `1 KiB`, `128 MiB`, `2 GiB`, else
/// bytes (`1500 bytes`).
pub(crate) fn size_in_words(bytes: u64) -> String {
    for (shift, unit) in [(30, "GiB"), (20, "MiB"), (10, "KiB")] {
        if bytes >= 1 << shift && bytes.is_multiple_of(1 << shift) {
            return format!("{} {unit}", bytes >> shift);
        }
    }
    if bytes == 1 {
        "1 byte".into()
    } else {
        format!("{bytes} bytes")
    }
}

/// The error for a frame or stream that asks for more memory than
/// [`Options::decoder_memory_limit`] allows.
pub(crate) fn limit_error(c: Compression, limit: usize, what: &str) -> io::Error {
    let needs = match c {
        Compression::Zstd => "a zstd window",
        Compression::Xz => "an xz dictionary",
        _ => "decoder memory",
    };
    io::Error::new(
        io::ErrorKind::OutOfMemory,
        format!(
            "{what}asks for {needs} larger than the decoder memory limit ({}): not decoded; \
             raise the limit with --decoder-memory SIZE to read it",
            size_in_words(limit as u64)
        ),
    )
}

/// A decoder's error in words: the memory limit (the frame or stream that asked for too much
/// named by where it starts, `asked_at`, when the decoder knows it), a read error of the input,
/// a truncated stream (the input ended inside compressed data), or corrupt data.
pub(crate) fn codec_error(
    c: Compression,
    e: io::Error,
    raw: &RawState,
    limit: usize,
    asked_at: Option<u64>,
) -> io::Error {
    if over_limit(&e) {
        let at = asked_at.unwrap_or_else(|| raw.pos());
        return limit_error(c, limit, &format!("the {c} data near byte {at} "));
    }
    if raw.failed() {
        return io::Error::new(e.kind(), format!("read error near byte {}: {e}", raw.pos()));
    }
    // the decoders say UnexpectedEof for an input that ends inside compressed data; a fault
    // found in the last bytes (a checksum, a length) is corrupt data, not a cut
    if raw.at_eof() && e.kind() == io::ErrorKind::UnexpectedEof {
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
    Zstd(zstd::stream::read::Decoder<'static, io::BufReader<Full<R>>>),
    #[cfg(feature = "gzip")]
    Gzip(Box<flate2::read::MultiGzDecoder<Full<R>>>),
    #[cfg(feature = "bzip2")]
    Bzip2(bzip2::read::MultiBzDecoder<Full<R>>),
    #[cfg(feature = "xz")]
    Xz(XzStreams<R>),
}

impl<R: Read> Decoder<R> {
    /// A decoder of `c` over `r`. The compressed bytes are read through [`Full`], so that the
    /// decoder sees the same pieces whatever the sizes the raw reader returns.
    pub fn new(c: Compression, r: R, opts: &Options) -> io::Result<Self> {
        let _ = opts;
        Ok(match c {
            Compression::None => Decoder::Plain(r),
            #[cfg(feature = "zstd")]
            Compression::Zstd => {
                let mut d = zstd::stream::read::Decoder::new(Full::new(r))?;
                d.window_log_max(opts.zstd_window_log())?;
                Decoder::Zstd(d)
            }
            #[cfg(feature = "gzip")]
            Compression::Gzip => {
                Decoder::Gzip(Box::new(flate2::read::MultiGzDecoder::new(Full::new(r))))
            }
            #[cfg(feature = "bzip2")]
            Compression::Bzip2 => Decoder::Bzip2(bzip2::read::MultiBzDecoder::new(Full::new(r))),
            #[cfg(feature = "xz")]
            Compression::Xz => Decoder::Xz(XzStreams::new(
                Full::new(r),
                xz_memlimit(opts.decoder_memory_limit),
            )?),
            #[allow(unreachable_patterns)]
            c => return Err(unsupported(c)),
        })
    }
}

impl<R: Read> Decoder<R> {
    /// Where the frame (zstd) or stream (xz) being decoded starts, counted in the decoder's
    /// input: what asked for a window or dictionary (the zstd decoder takes in no byte of a
    /// frame whose header it refuses, unless the header came in two reads).
    fn asked_at(&self) -> Option<u64> {
        match self {
            #[cfg(feature = "zstd")]
            Decoder::Zstd(d) => Some(taken(d.get_ref())),
            #[cfg(feature = "xz")]
            Decoder::Xz(d) => Some(d.stream_start),
            #[allow(unreachable_patterns)]
            _ => None,
        }
    }
}

/// The bytes of a [`Full`] reader that the reader of `r` has taken (read and consumed).
#[cfg(any(feature = "zstd", feature = "xz"))]
fn taken<R>(r: &io::BufReader<Full<R>>) -> u64 {
    r.get_ref().delivered - r.buffer().len() as u64
}

/// liblzma's memory limit for a decoder whose dictionary may take `limit` bytes: the limit
/// plus what liblzma's stream decoder takes besides its dictionary (measured once), so that a
/// dictionary of the limit exactly is decoded, as a zstd window of the limit exactly is.
#[cfg(feature = "xz")]
pub(crate) fn xz_memlimit(limit: usize) -> u64 {
    static OVERHEAD: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    let overhead = *OVERHEAD.get_or_init(xz_overhead);
    (limit as u64).max(1).saturating_add(overhead)
}

/// What liblzma's stream decoder takes besides the dictionary: the least memory limit that
/// decodes a stream of a 4 KiB dictionary, less 4 KiB (its tables and buffers; the same for
/// every dictionary, which liblzma counts byte for byte).
#[cfg(feature = "xz")]
fn xz_overhead() -> u64 {
    use liblzma::stream::{Action, Check, Filters, LzmaOptions, Status, Stream};
    const DICT: u64 = 4096;
    let stream = (|| {
        let mut opts = LzmaOptions::new_preset(0).ok()?;
        opts.dict_size(DICT as u32);
        let mut filters = Filters::new();
        filters.lzma2(&opts);
        let mut enc = Stream::new_stream_encoder(&filters, Check::None).ok()?;
        let mut out = Vec::with_capacity(4096);
        match enc.process_vec(b"kifu", &mut out, Action::Finish).ok()? {
            Status::StreamEnd => Some(out),
            _ => None,
        }
    })();
    let decodes = |memlimit: u64| -> bool {
        let Some(stream) = &stream else { return false };
        let Ok(mut dec) = Stream::new_stream_decoder(memlimit, 0) else {
            return false;
        };
        let mut out = Vec::with_capacity(64);
        matches!(
            dec.process_vec(stream, &mut out, Action::Finish),
            Ok(Status::StreamEnd)
        )
    };
    let (mut lo, mut hi) = (DICT, DICT + (16 << 20));
    if !decodes(hi) {
        // not measurable (never seen): the dictionary alone counts
        return 0;
    }
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if decodes(mid) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    lo - DICT
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
    dec: Option<liblzma::bufread::XzDecoder<io::BufReader<Full<R>>>>,
    /// liblzma's memory limit, bytes.
    memlimit: u64,
    /// Where the stream being decoded starts in the input.
    stream_start: u64,
}

#[cfg(feature = "xz")]
impl<R: Read> XzStreams<R> {
    fn new(r: Full<R>, memlimit: u64) -> io::Result<Self> {
        Ok(XzStreams {
            dec: Some(Self::stream(
                io::BufReader::with_capacity(1 << 16, r),
                memlimit,
            )?),
            memlimit,
            stream_start: 0,
        })
    }

    fn stream(
        r: io::BufReader<Full<R>>,
        memlimit: u64,
    ) -> io::Result<liblzma::bufread::XzDecoder<io::BufReader<Full<R>>>> {
        let s =
            liblzma::stream::Stream::new_stream_decoder(memlimit, 0).map_err(io::Error::other)?;
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
            let r = self.dec.take().map(|d| d.into_inner()).expect("a decoder");
            self.stream_start = taken(&r);
            self.dec = Some(Self::stream(r, self.memlimit)?);
        }
    }
}

/// A decoder whose errors say what went wrong in words ([`codec_error`]), and which, once
/// failed, keeps failing with the same error.
pub(crate) struct Checked<R: Read> {
    dec: Decoder<R>,
    c: Compression,
    raw: Arc<RawState>,
    limit: usize,
    /// Where the decoder's input starts in the stream.
    base: u64,
    failed: Option<(io::ErrorKind, String)>,
}

impl<R: Read> Checked<R> {
    pub fn new(c: Compression, r: R, raw: Arc<RawState>, opts: &Options) -> io::Result<Self> {
        Self::at(c, r, raw, opts, 0)
    }

    /// A decoder over `r`, whose first byte is byte `base` of the stream.
    pub fn at(
        c: Compression,
        r: R,
        raw: Arc<RawState>,
        opts: &Options,
        base: u64,
    ) -> io::Result<Self> {
        Ok(Checked {
            dec: Decoder::new(c, r, opts)?,
            c,
            raw,
            limit: opts.decoder_memory_limit,
            base,
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
                let at = self.dec.asked_at().map(|a| self.base + a);
                let e = codec_error(self.c, e, &self.raw, self.limit, at);
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
    /// The stream ended within the bytes read ahead: the reads after them end it too, without
    /// asking the reader again (a small file is read in two calls, not five).
    eof: bool,
    inner: R,
}

impl<R: Read> Prefixed<R> {
    /// Reads up to `n` bytes of `inner` ahead (fewer only at its end or at an error).
    pub fn new(mut inner: R, n: usize) -> Self {
        let mut head = vec![0; n];
        let mut len = 0;
        let mut err = None;
        let mut eof = false;
        while len < n {
            match inner.read(&mut head[len..]) {
                Ok(0) => {
                    eof = true;
                    break;
                }
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
            eof,
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
        if self.eof {
            return Ok(0);
        }
        self.inner.read(buf)
    }
}

/// A reader whose reads fill the buffer whole (fewer bytes only at the end of the input or
/// before an error, which comes at the next read): a decoder over it is fed the same pieces
/// whatever the raw reader returns (a pipe, a trickling socket), so that where it stops on a
/// damaged input does not depend on timing.
pub(crate) struct Full<R> {
    inner: R,
    err: Option<io::Error>,
    /// The bytes given out so far.
    delivered: u64,
}

impl<R> Full<R> {
    pub fn new(inner: R) -> Self {
        Full {
            inner,
            err: None,
            delivered: 0,
        }
    }
}

impl<R: Read> Read for Full<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if let Some(e) = self.err.take() {
            return Err(e);
        }
        let mut n = 0;
        while n < buf.len() {
            match self.inner.read(&mut buf[n..]) {
                Ok(0) => break,
                Ok(k) => n += k,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if n == 0 => return Err(e),
                Err(e) => {
                    // after the bytes before it
                    self.err = Some(e);
                    break;
                }
            }
        }
        self.delivered += n as u64;
        Ok(n)
    }
}

/// What [`fill`] got: bytes, then possibly the end or an error.
pub(crate) struct Filled {
    /// Bytes read into the buffer.
    pub n: usize,
    /// The error met after them.
    pub err: Option<io::Error>,
    /// The end of the source was met (a read returned 0).
    pub end: bool,
}

/// Fills `buf` from `src`, read after read, until it is full, the source ends or fails. Every
/// decoded stream is read this way, on a decoding thread ([`crate::pipe::pump`]) or inline
/// ([`Chunked`]), so that a decoder is called with the same buffers whatever the thread count.
pub(crate) fn fill(src: &mut dyn Read, buf: &mut [u8]) -> Filled {
    let mut n = 0;
    while n < buf.len() {
        match src.read(&mut buf[n..]) {
            Ok(0) => {
                return Filled {
                    n,
                    err: None,
                    end: true,
                };
            }
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => {
                return Filled {
                    n,
                    err: Some(e),
                    end: false,
                };
            }
        }
    }
    Filled {
        n,
        err: None,
        end: false,
    }
}

/// A decoder read inline in chunks of a fixed size, exactly as a decoding thread reads it
/// ([`fill`]), whatever the sizes the caller asks for; its error comes after the bytes before
/// it, and again at every later read.
pub(crate) struct Chunked<R> {
    src: R,
    buf: Vec<u8>,
    pos: usize,
    len: usize,
    end: bool,
    failed: Option<(io::ErrorKind, String)>,
}

impl<R: Read> Chunked<R> {
    /// Reads `src` in chunks of `chunk` bytes.
    pub fn new(src: R, chunk: usize) -> Self {
        Self::with_buffer(src, chunk, Vec::new())
    }

    /// The same, filling `buf` (a spent buffer, reused).
    pub fn with_buffer(src: R, chunk: usize, mut buf: Vec<u8>) -> Self {
        // (its old bytes are overwritten before they are read)
        buf.resize(chunk.max(1), 0);
        Chunked {
            src,
            buf,
            pos: 0,
            len: 0,
            end: false,
            failed: None,
        }
    }

    /// The buffer, to be reused.
    pub fn into_buffer(self) -> Vec<u8> {
        self.buf
    }
}

impl<R: RawPos> RawPos for Chunked<R> {
    /// The raw position of the chunk being read (where its source stood once it was filled).
    fn raw_pos(&self) -> u64 {
        self.src.raw_pos()
    }
}

impl<R: Read> Read for Chunked<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if out.is_empty() {
            return Ok(0);
        }
        if self.pos == self.len {
            if let Some((kind, msg)) = &self.failed {
                return Err(io::Error::new(*kind, msg.clone()));
            }
            if self.end {
                return Ok(0);
            }
            let f = fill(&mut self.src, &mut self.buf);
            self.pos = 0;
            self.len = f.n;
            self.end = f.end;
            if let Some(e) = f.err {
                self.failed = Some((e.kind(), e.to_string()));
                if f.n == 0 {
                    return Err(e);
                }
            }
            if f.n == 0 {
                return Ok(0);
            }
        }
        let n = out.len().min(self.len - self.pos);
        out[..n].copy_from_slice(&self.buf[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that counts the reads asked of it.
    struct Counting<'a>(&'a [u8], usize);

    impl Read for Counting<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            self.1 += 1;
            self.0.read(buf)
        }
    }

    /// A stream that ended within the bytes read ahead is not asked again: a small file read
    /// ahead whole (its size and one byte more) takes two reads, whatever reads the rest.
    #[test]
    fn a_stream_ended_within_the_look_ahead_is_not_read_again() {
        let data = b"(;GM[1]SZ[19];B[pd];W[dp])\n";
        let mut p = Prefixed::new(Counting(data, 0), data.len() + 1);
        assert_eq!(p.head(), data);
        let mut all = Vec::new();
        p.read_to_end(&mut all).unwrap();
        assert_eq!(all, data);
        assert_eq!(p.read(&mut [0; 64]).unwrap(), 0);
        assert_eq!(p.into_inner().1, 2, "the bytes, then the end");
        // a longer stream goes on being read past the bytes ahead
        let mut p = Prefixed::new(Counting(data, 0), 4);
        let mut all = Vec::new();
        p.read_to_end(&mut all).unwrap();
        assert_eq!(all, data);
        assert!(p.into_inner().1 >= 3);
    }

    #[test]
    fn sizes_are_said_in_the_unit_that_holds_them() {
        assert_eq!(size_in_words(1024), "1 KiB");
        assert_eq!(size_in_words(128 << 20), "128 MiB");
        assert_eq!(size_in_words(2 << 30), "2 GiB");
        assert_eq!(size_in_words(1536 << 10), "1536 KiB");
        assert_eq!(size_in_words(1500), "1500 bytes");
        assert_eq!(size_in_words(1), "1 byte");
    }

    /// liblzma's decoder takes a few tens of KiB besides its dictionary: the measure is no
    /// fallback (0) and no runaway.
    #[cfg(feature = "xz")]
    #[test]
    fn the_xz_overhead_is_measured() {
        let o = xz_overhead();
        assert!(o > 1024 && o < (4 << 20), "{o}");
        assert_eq!(xz_memlimit(1 << 20), (1 << 20) + o);
    }
}
