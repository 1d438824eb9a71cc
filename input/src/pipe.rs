//! A reader fed by another thread through a bounded channel of chunks: decoding on that thread
//! overlaps with the caller's work on the chunks already decoded. Each chunk carries the raw
//! position its decoder had reached, so that the reader tells how much of the raw stream its
//! caller has consumed ([`RawPos`]), whatever the decoding thread read ahead.

use std::io::{self, Read};
use std::sync::mpsc::{Receiver, SyncSender, TryRecvError, sync_channel};
use std::thread;

use crate::compression::fill;
use crate::progress::{Decoded, RawPos};

/// What a producing thread sends.
pub(crate) enum Msg {
    /// Decoded bytes, and the raw position (from the stream's first byte) the decoder had
    /// reached when they were decoded.
    Data(Vec<u8>, u64),
    Err(io::Error),
    /// The clean end (a channel closed without it: the producer died).
    End,
}

/// The receiving end: a `Read` over the chunks, in order.
pub(crate) struct ChunkReader {
    rx: Receiver<Msg>,
    /// Spent chunks go back to the producer, to be filled again.
    back: Option<SyncSender<Vec<u8>>>,
    cur: Vec<u8>,
    pos: usize,
    /// The raw position of `cur`.
    stamp: u64,
    state: State,
}

#[derive(PartialEq)]
enum State {
    Open,
    Done,
    Failed(io::ErrorKind, String),
}

impl ChunkReader {
    pub fn new(rx: Receiver<Msg>, back: Option<SyncSender<Vec<u8>>>) -> Self {
        ChunkReader {
            rx,
            back,
            cur: Vec::new(),
            pos: 0,
            stamp: 0,
            state: State::Open,
        }
    }

    /// The next chunk into `cur`; false at the end.
    fn next_chunk(&mut self) -> io::Result<bool> {
        loop {
            match &self.state {
                State::Done => return Ok(false),
                State::Failed(kind, msg) => return Err(io::Error::new(*kind, msg.clone())),
                State::Open => {}
            }
            let spent = std::mem::take(&mut self.cur);
            self.pos = 0;
            if let Some(back) = &self.back
                && spent.capacity() > 0
            {
                let _ = back.try_send(spent);
            }
            match self.rx.recv() {
                Ok(Msg::Data(d, stamp)) => {
                    self.stamp = self.stamp.max(stamp);
                    if d.is_empty() {
                        continue;
                    }
                    self.cur = d;
                    return Ok(true);
                }
                Ok(Msg::Err(e)) => {
                    self.state = State::Failed(e.kind(), e.to_string());
                    return Err(e);
                }
                Ok(Msg::End) => self.state = State::Done,
                Err(_) => {
                    self.state = State::Failed(
                        io::ErrorKind::Other,
                        "the decoding thread stopped without finishing".into(),
                    )
                }
            }
        }
    }
}

impl Read for ChunkReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        if self.pos == self.cur.len() && !self.next_chunk()? {
            return Ok(0);
        }
        let n = buf.len().min(self.cur.len() - self.pos);
        buf[..n].copy_from_slice(&self.cur[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

impl RawPos for ChunkReader {
    /// The raw position of the chunk being read.
    fn raw_pos(&self) -> u64 {
        self.stamp
    }
}

/// Fills chunks of `chunk` bytes from `src` ([`fill`]) and sends them, each with the raw
/// position `src` had reached, in order, until the end or an error (sent after the bytes read
/// before it); stops when the receiver is gone. Reuses the chunks that come back on `back`.
pub(crate) fn pump(
    src: &mut dyn Decoded,
    chunk: usize,
    tx: &SyncSender<Msg>,
    back: Option<&Receiver<Vec<u8>>>,
) -> bool {
    loop {
        let mut buf = match back.map(Receiver::try_recv) {
            Some(Ok(b)) => b,
            Some(Err(TryRecvError::Empty | TryRecvError::Disconnected)) | None => Vec::new(),
        };
        buf.resize(chunk, 0);
        let f = fill(src, &mut buf);
        buf.truncate(f.n);
        if f.n > 0 && tx.send(Msg::Data(buf, src.raw_pos())).is_err() {
            return false;
        }
        if let Some(e) = f.err {
            let _ = tx.send(Msg::Err(e));
            return false;
        }
        if f.end {
            return tx.send(Msg::End).is_ok();
        }
    }
}

/// Reads `src` on a thread of its own, `chunk` bytes at a time, at most `depth` chunks ahead.
///
/// The thread ends at the end of `src`, at its first error, or when the reader is dropped
/// (after its current read of `src` returns).
pub(crate) fn spawn(
    mut src: Box<dyn Decoded>,
    chunk: usize,
    depth: usize,
) -> io::Result<ChunkReader> {
    let (tx, rx) = sync_channel(depth.max(1));
    let (back_tx, back_rx) = sync_channel(depth.max(1) + 2);
    thread::Builder::new()
        .name("kifu-input decode".into())
        .spawn(move || {
            pump(&mut *src, chunk, &tx, Some(&back_rx));
        })?;
    Ok(ChunkReader::new(rx, Some(back_tx)))
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Failing(usize);
    impl RawPos for Failing {
        fn raw_pos(&self) -> u64 {
            0
        }
    }
    impl Read for Failing {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.0 == 0 {
                return Err(io::Error::other("boom"));
            }
            let n = buf.len().min(self.0).min(7);
            buf[..n].fill(b'x');
            self.0 -= n;
            Ok(n)
        }
    }

    #[test]
    fn bytes_then_error() {
        let mut r = spawn(Box::new(Failing(100_000)), 4096, 2).unwrap();
        let mut out = Vec::new();
        let e = r.read_to_end(&mut out).unwrap_err();
        assert_eq!(out.len(), 100_000);
        assert_eq!(e.to_string(), "boom");
        // and again
        assert!(r.read(&mut [0; 4]).is_err());
    }

    /// A cursor whose raw position is its own: decoded bytes are raw bytes.
    struct Plain(io::Cursor<Vec<u8>>);
    impl RawPos for Plain {
        fn raw_pos(&self) -> u64 {
            self.0.position()
        }
    }
    impl Read for Plain {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            self.0.read(buf)
        }
    }

    #[test]
    fn all_bytes_in_order() {
        let data: Vec<u8> = (0..1_000_000u32).map(|i| (i * 7 % 251) as u8).collect();
        let mut r = spawn(Box::new(Plain(io::Cursor::new(data.clone()))), 4096, 3).unwrap();
        let mut out = Vec::new();
        r.read_to_end(&mut out).unwrap();
        assert_eq!(out, data);
    }

    #[test]
    fn the_raw_position_of_the_chunk_being_read() {
        let data = vec![7u8; 100_000];
        let mut r = spawn(Box::new(Plain(io::Cursor::new(data))), 4096, 4).unwrap();
        assert_eq!(r.raw_pos(), 0);
        let mut buf = [0u8; 1000];
        let mut taken = 0u64;
        loop {
            let n = r.read(&mut buf).unwrap();
            if n == 0 {
                break;
            }
            taken += n as u64;
            // the thread has read chunks ahead; the position is that of the chunk being read
            assert_eq!(
                r.raw_pos(),
                (taken.div_ceil(4096) * 4096).min(100_000),
                "{taken}"
            );
        }
        assert_eq!((taken, r.raw_pos()), (100_000, 100_000));
    }

    #[test]
    fn dropped_early() {
        let data = vec![1u8; 10_000_000];
        let mut r = spawn(Box::new(Plain(io::Cursor::new(data))), 4096, 2).unwrap();
        let mut b = [0; 10];
        r.read_exact(&mut b).unwrap();
        drop(r); // the thread ends on its own
    }
}
