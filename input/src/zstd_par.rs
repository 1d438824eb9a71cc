//! pzstd files decoded frame by frame on several threads.
//!
//! `pzstd` (and every lichess monthly dump) writes each independent zstd frame after a 12-byte
//! skippable frame: magic `50 2A 4D 18`, payload size 4 (`04 00 00 00`), and a 4-byte
//! little-endian payload, the compressed size of the frame that follows. Those sizes let a
//! splitter cut the frames without decoding them. Other skippable frames are skipped; a frame
//! without a size header (or with one larger than [`crate::Options::max_frame_size`]) and
//! everything after it is decoded on one thread, streaming.

use std::io::{self, Read};
use std::sync::Arc;

use crate::Options;
use crate::compression::{self, Checked, Compression, ZSTD_MAGIC, is_skippable};
use crate::frames::{self, Frame, FrameDecoder, Inline, OrderedReader, Unit, read_full};
use crate::progress::{AtPos, Decoded, RawPos, RawState};

/// The magic number of pzstd's size header (a skippable frame).
const PZSTD_MAGIC: u32 = 0x184D_2A50;

/// Whether a stream starts with pzstd's frame size header.
pub(crate) fn is_pzstd(head: &[u8]) -> bool {
    head.len() >= 8
        && u32::from_le_bytes([head[0], head[1], head[2], head[3]]) == PZSTD_MAGIC
        && head[4..8] == [4, 0, 0, 0]
}

fn le(b: [u8; 4]) -> u32 {
    u32::from_le_bytes(b)
}

fn truncated(pos: u64, what: &str, last_end: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::UnexpectedEof,
        format!(
            "truncated zstd stream: the input ends at byte {pos} inside {what} (the last whole frame ends at byte {last_end})"
        ),
    )
}

/// Cuts a pzstd stream into frames.
struct Split {
    raw: Box<dyn Read + Send>,
    state: Arc<RawState>,
    pos: u64,
    last_end: u64,
    opts: Options,
}

impl Split {
    fn next(&mut self) -> io::Result<Unit> {
        loop {
            let mut magic = [0u8; 4];
            let n = read_full(&mut *self.raw, &mut magic)?;
            if n == 0 {
                return Ok(Unit::End);
            }
            if n < 4 {
                return Err(truncated(
                    self.pos + n as u64,
                    "a frame header",
                    self.last_end,
                ));
            }
            let m = le(magic);
            if m == ZSTD_MAGIC {
                // a frame without a size header: the rest on one thread
                return Ok(Unit::Rest(self.rest(magic.to_vec())?));
            }
            if !is_skippable(m) {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!(
                        "corrupt zstd data at byte {}: neither a frame nor a skippable frame starts there (the last whole frame ends at byte {})",
                        self.pos, self.last_end
                    ),
                ));
            }
            let mut size = [0u8; 4];
            if read_full(&mut *self.raw, &mut size)? < 4 {
                return Err(truncated(self.pos + 4, "a skippable frame", self.last_end));
            }
            let size = le(size);
            if m == PZSTD_MAGIC && size == 4 {
                let mut payload = [0u8; 4];
                if read_full(&mut *self.raw, &mut payload)? < 4 {
                    return Err(truncated(self.pos + 8, "a skippable frame", self.last_end));
                }
                self.pos += 12;
                let frame_size = le(payload) as u64;
                if frame_size > self.opts.max_frame_size as u64 {
                    return Ok(Unit::Rest(self.rest(Vec::new())?));
                }
                let mut data = Vec::new();
                (&mut *self.raw).take(frame_size).read_to_end(&mut data)?;
                let start = self.pos;
                let prev_end = self.last_end;
                self.pos += data.len() as u64;
                let truncated = (data.len() as u64) < frame_size;
                if !truncated {
                    self.last_end = self.pos;
                }
                return Ok(Unit::Frame(Frame {
                    data,
                    start,
                    truncated,
                    prev_end,
                }));
            }
            // another skippable frame: skip it
            let skipped = io::copy(&mut (&mut *self.raw).take(size as u64), &mut io::sink())?;
            if skipped < size as u64 {
                return Err(truncated(
                    self.pos + 8 + skipped,
                    "a skippable frame",
                    self.last_end,
                ));
            }
            self.pos += 8 + skipped;
            self.last_end = self.pos;
        }
    }

    /// The rest of the stream (after `head`, bytes already read), decoded on this thread; its
    /// raw position is the raw stream's.
    fn rest(&mut self, head: Vec<u8>) -> io::Result<Box<dyn Decoded>> {
        let raw = std::mem::replace(&mut self.raw, Box::new(io::empty()));
        let r = io::Cursor::new(head).chain(raw);
        Ok(Box::new(AtPos {
            inner: Checked::at(
                Compression::Zstd,
                r,
                Arc::clone(&self.state),
                &self.opts,
                self.pos,
            )?,
            state: Arc::clone(&self.state),
        }))
    }
}

/// One frame's decoded bytes; its fault in words (the memory limit, a truncated frame, corrupt
/// data) after the bytes decoded before it.
struct FrameReader {
    dec: io::Result<zstd::stream::read::Decoder<'static, io::Cursor<Vec<u8>>>>,
    start: u64,
    end: u64,
    truncated: bool,
    prev_end: u64,
    limit: usize,
}

impl FrameReader {
    fn new(frame: Frame, opts: &Options) -> Self {
        let end = frame.start + frame.data.len() as u64;
        let window = opts.zstd_window_log();
        let dec = zstd::stream::read::Decoder::with_buffer(io::Cursor::new(frame.data))
            .and_then(|mut d| d.window_log_max(window).map(|()| d));
        FrameReader {
            dec,
            start: frame.start,
            end,
            truncated: frame.truncated,
            prev_end: frame.prev_end,
            limit: opts.decoder_memory_limit,
        }
    }

    fn cut(&self) -> io::Error {
        truncated(
            self.end,
            &format!("the frame that starts at byte {}", self.start),
            self.prev_end,
        )
    }
}

impl RawPos for FrameReader {
    /// The frame's start and the compressed bytes its decoder took in (the decoder reads them
    /// straight from the frame's buffer: it is ahead of the decoded bytes by at most a block).
    fn raw_pos(&self) -> u64 {
        match &self.dec {
            Ok(d) => self.start + d.get_ref().position(),
            Err(_) => self.start,
        }
    }
}

impl Read for FrameReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let result = match &mut self.dec {
            Ok(d) => d.read(buf),
            Err(e) => Err(io::Error::new(e.kind(), e.to_string())),
        };
        match result {
            Ok(0) if self.truncated && !buf.is_empty() => Err(self.cut()),
            Ok(n) => Ok(n),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => Err(e),
            Err(e) if compression::over_limit(&e) => Err(compression::limit_error(
                Compression::Zstd,
                self.limit,
                &format!("the zstd frame at byte {} ", self.start),
            )),
            Err(_) if self.truncated => Err(self.cut()),
            Err(e) => Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "corrupt zstd data in the frame at bytes {}..{}: {e}",
                    self.start, self.end
                ),
            )),
        }
    }
}

fn parts(
    raw: Box<dyn Read + Send>,
    state: Arc<RawState>,
    opts: &Options,
) -> (frames::Splitter, FrameDecoder) {
    let mut split = Split {
        raw,
        state,
        pos: 0,
        last_end: 0,
        opts: opts.clone(),
    };
    let o = opts.clone();
    let decode: FrameDecoder =
        Arc::new(move |frame: Frame| Box::new(FrameReader::new(frame, &o)) as Box<dyn Decoded>);
    (Box::new(move || split.next()), decode)
}

/// Decodes a pzstd stream (`raw`, from its first byte) on `opts.threads` threads.
pub(crate) fn spawn(
    raw: Box<dyn Read + Send>,
    state: Arc<RawState>,
    opts: &Options,
) -> io::Result<OrderedReader> {
    let (split, decode) = parts(raw, state, opts);
    frames::spawn(split, decode, opts)
}

/// Decodes a pzstd stream frame by frame on the caller's thread, exactly as [`spawn`] does on
/// several (same bytes, same errors).
pub(crate) fn inline(raw: Box<dyn Read + Send>, state: Arc<RawState>, opts: &Options) -> Inline {
    let (split, decode) = parts(raw, state, opts);
    Inline::new(split, decode, opts)
}
