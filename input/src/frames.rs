//! Independent compressed frames decoded on several threads and read back in order, with
//! bounded memory.
//!
//! One thread (the splitter) reads the raw stream and cuts it into frames; for each it opens a
//! bounded channel for the frame's decoded chunks, queues the channel's receiving end for the
//! reader (in stream order), and hands the frame to a pool of decoding threads. The reader
//! drains the channels one after another. Bounds: the queue holds `threads` frames ahead of the
//! one being read, the job queue one frame; each frame's channel holds at most `frame_buffer`
//! decoded bytes. A decoder that gets that far ahead waits for the reader.
//!
//! Every decoded chunk carries the raw position its frame's decoder had reached (the frame's
//! start plus the compressed bytes the decoder took in), so the reader tells how much of the
//! raw stream its caller has consumed ([`RawPos`]), however far the splitter read ahead.
//!
//! No deadlock: frames are taken from the job queue in stream order, so the frame the reader
//! waits for is always being decoded (or next in the job queue, when every decoding thread has
//! finished an earlier frame), and its channel is being drained.

use std::io::{self, Read};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread;

use crate::Options;
use crate::compression::{Chunked, fill};
use crate::pipe::{ChunkReader, Msg, pump};
use crate::progress::{Decoded, RawPos};

/// A frame cut from the raw stream.
pub(crate) struct Frame {
    /// Its compressed bytes.
    pub data: Vec<u8>,
    /// Where it starts in the raw stream.
    pub start: u64,
    /// The raw stream ended before the frame's announced end.
    pub truncated: bool,
    /// Where the last whole frame before it ends (its size header included).
    pub prev_end: u64,
}

/// What the splitter found next.
pub(crate) enum Unit {
    /// A frame to decode in parallel.
    Frame(Frame),
    /// The rest of the stream, as a reader decoding it sequentially (the splitter thread drives
    /// it): for a stream whose next frame has no size header, or too large a one.
    Rest(Box<dyn Decoded>),
    /// The end of the stream.
    End,
}

/// Cuts a raw stream into frames (runs on the splitter thread).
pub(crate) type Splitter = Box<dyn FnMut() -> io::Result<Unit> + Send>;

/// Opens one frame: its decoded bytes, read in chunks ([`decode_chunks`] on a decoding thread,
/// [`Chunked`] inline: the same chunks), with its error, if any, after the good bytes; its raw
/// position is that of the compressed bytes its decoder took in.
pub(crate) type FrameDecoder = Arc<dyn Fn(Frame) -> Box<dyn Decoded> + Send + Sync>;

enum Queued {
    Frame(Receiver<Msg>),
    Err(io::Error),
    End,
}

/// Starts the splitter and `opts.threads` decoding threads; returns the ordered reader.
pub(crate) fn spawn(
    mut split: Splitter,
    decode: FrameDecoder,
    opts: &Options,
) -> io::Result<OrderedReader> {
    let threads = opts.thread_count();
    let chunk = opts.chunk_len();
    let per_frame = (opts.frame_buffer / chunk).max(1);
    let (queue_tx, queue_rx) = sync_channel::<Queued>(threads);
    let (job_tx, job_rx) = sync_channel::<(Frame, SyncSender<Msg>)>(1);
    let job_rx = Arc::new(Mutex::new(job_rx));
    // spent chunks come back here, to be filled again without allocating (and faulting in)
    // fresh pages
    let (back_tx, back_rx) = sync_channel::<Vec<u8>>(2 * threads + 4);
    let back_rx = Arc::new(Mutex::new(back_rx));
    for i in 0..threads {
        let job_rx = Arc::clone(&job_rx);
        let back_rx = Arc::clone(&back_rx);
        let decode = Arc::clone(&decode);
        thread::Builder::new()
            .name(format!("kifu-input frame decoder {i}"))
            .spawn(move || {
                loop {
                    let job = job_rx
                        .lock()
                        .map_err(drop)
                        .and_then(|rx| rx.recv().map_err(drop));
                    let Ok((frame, tx)) = job else { return };
                    let mut fresh = || {
                        back_rx
                            .lock()
                            .ok()
                            .and_then(|rx| rx.try_recv().ok())
                            .unwrap_or_default()
                    };
                    let mut r = decode(frame);
                    let result = decode_chunks(&mut *r, chunk, &mut fresh, &mut |c, at| {
                        tx.send(Msg::Data(c, at)).is_ok()
                    });
                    drop(r);
                    let _ = tx.send(match result {
                        Ok(()) => Msg::End,
                        Err(e) => Msg::Err(e),
                    });
                }
            })?;
    }
    thread::Builder::new()
        .name("kifu-input frame splitter".into())
        .spawn(move || {
            loop {
                match split() {
                    Ok(Unit::Frame(frame)) => {
                        let (tx, rx) = sync_channel(per_frame);
                        if queue_tx.send(Queued::Frame(rx)).is_err()
                            || job_tx.send((frame, tx)).is_err()
                        {
                            return;
                        }
                    }
                    Ok(Unit::Rest(mut r)) => {
                        let (tx, rx) = sync_channel(per_frame);
                        if queue_tx.send(Queued::Frame(rx)).is_err() {
                            return;
                        }
                        if pump(&mut *r, chunk, &tx, None) {
                            let _ = queue_tx.send(Queued::End);
                        }
                        return;
                    }
                    Ok(Unit::End) => {
                        let _ = queue_tx.send(Queued::End);
                        return;
                    }
                    Err(e) => {
                        let _ = queue_tx.send(Queued::Err(e));
                        return;
                    }
                }
            }
        })?;
    Ok(OrderedReader {
        back: back_tx,
        queue: queue_rx,
        cur: None,
        stamp: 0,
        failed: None,
        done: false,
    })
}

/// The decoded frames, in stream order.
pub(crate) struct OrderedReader {
    back: SyncSender<Vec<u8>>,
    queue: Receiver<Queued>,
    cur: Option<ChunkReader>,
    /// The raw position of the bytes handed over.
    stamp: u64,
    failed: Option<(io::ErrorKind, String)>,
    done: bool,
}

impl RawPos for OrderedReader {
    fn raw_pos(&self) -> u64 {
        self.stamp
    }
}

impl Read for OrderedReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            if let Some((kind, msg)) = &self.failed {
                return Err(io::Error::new(*kind, msg.clone()));
            }
            if self.done {
                return Ok(0);
            }
            if let Some(cur) = &mut self.cur {
                match cur.read(buf) {
                    Ok(0) => self.cur = None,
                    Ok(n) => {
                        self.stamp = self.stamp.max(cur.raw_pos());
                        return Ok(n);
                    }
                    Err(e) => {
                        self.failed = Some((e.kind(), e.to_string()));
                        return Err(e);
                    }
                }
                continue;
            }
            match self.queue.recv() {
                Ok(Queued::Frame(rx)) => {
                    self.cur = Some(ChunkReader::new(rx, Some(self.back.clone())))
                }
                Ok(Queued::End) => self.done = true,
                Ok(Queued::Err(e)) => {
                    self.failed = Some((e.kind(), e.to_string()));
                    return Err(e);
                }
                Err(_) => {
                    self.failed = Some((
                        io::ErrorKind::Other,
                        "the frame splitting thread stopped without finishing".into(),
                    ))
                }
            }
        }
    }
}

/// The frames of a stream decoded one after another on the caller's thread (one thread): the
/// same splitter and frame decoder as [`spawn`]'s, read in the same chunks, so the bytes and
/// the errors are those of the parallel decoding.
pub(crate) struct Inline {
    split: Splitter,
    decode: FrameDecoder,
    chunk: usize,
    cur: Option<Chunked<Box<dyn Decoded>>>,
    spare: Vec<u8>,
    /// The raw position of the bytes handed over.
    stamp: u64,
    failed: Option<(io::ErrorKind, String)>,
    done: bool,
}

impl RawPos for Inline {
    fn raw_pos(&self) -> u64 {
        self.stamp
    }
}

impl Inline {
    pub fn new(split: Splitter, decode: FrameDecoder, opts: &Options) -> Self {
        Inline {
            split,
            decode,
            chunk: opts.chunk_len(),
            cur: None,
            spare: Vec::new(),
            stamp: 0,
            failed: None,
            done: false,
        }
    }
}

impl Read for Inline {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            if let Some((kind, msg)) = &self.failed {
                return Err(io::Error::new(*kind, msg.clone()));
            }
            if self.done {
                return Ok(0);
            }
            if let Some(cur) = &mut self.cur {
                match cur.read(buf) {
                    Ok(0) => {
                        if let Some(c) = self.cur.take() {
                            self.spare = c.into_buffer();
                        }
                    }
                    Ok(n) => {
                        self.stamp = self.stamp.max(cur.raw_pos());
                        return Ok(n);
                    }
                    Err(e) => {
                        self.failed = Some((e.kind(), e.to_string()));
                        return Err(e);
                    }
                }
                continue;
            }
            let r = match (self.split)() {
                Ok(Unit::Frame(frame)) => (self.decode)(frame),
                Ok(Unit::Rest(r)) => {
                    // the splitter is done: the rest is this reader
                    self.split = Box::new(|| Ok(Unit::End));
                    r
                }
                Ok(Unit::End) => {
                    self.done = true;
                    continue;
                }
                Err(e) => {
                    self.failed = Some((e.kind(), e.to_string()));
                    return Err(e);
                }
            };
            let spare = std::mem::take(&mut self.spare);
            self.cur = Some(Chunked::with_buffer(r, self.chunk, spare));
        }
    }
}

/// Reads up to `buf.len()` bytes; fewer only at the end of `r`.
pub(crate) fn read_full(r: &mut dyn Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// Sends what `r` decodes, `chunk` bytes at a time ([`fill`]), each with the raw position `r`
/// had reached, through `send` (false: the reader is gone); gives back its error, after the
/// bytes decoded before it.
pub(crate) fn decode_chunks(
    r: &mut dyn Decoded,
    chunk: usize,
    fresh: &mut dyn FnMut() -> Vec<u8>,
    send: &mut dyn FnMut(Vec<u8>, u64) -> bool,
) -> io::Result<()> {
    loop {
        let mut buf = fresh();
        buf.resize(chunk, 0);
        let f = fill(r, &mut buf);
        buf.truncate(f.n);
        if f.n > 0 && !send(buf, r.raw_pos()) {
            return Ok(());
        }
        if let Some(e) = f.err {
            return Err(e);
        }
        if f.end {
            return Ok(());
        }
    }
}
