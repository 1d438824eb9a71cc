//! bzip2 files made of many streams (`pbzip2`, `lbzip2`) decoded on several threads.
//!
//! A bzip2 stream starts on a byte boundary with `BZh1`..`BZh9` and, unless it is empty, the
//! magic of its first block, `31 41 59 26 53 59`: a candidate start. A coordinating thread
//! reads the raw bytes, cuts them at candidates into jobs of at least [`job_size`] bytes,
//! decodes a batch of `threads` jobs at once, one per thread, and sends their output in order.
//! Each job is decoded streaming, in chunks, through a channel of its own; the channels of a
//! batch hold at most [`Options::frame_buffer`] decoded bytes in all (at least one chunk per
//! job): a job that decodes to gigabytes (a "bomb": runs of one byte compress 10,000 to 1)
//! never holds more than that.
//!
//! A candidate can lie: those ten bytes may occur inside compressed data. Every job is checked
//! by decoding it: it must hold whole streams and nothing else. A job that fails (a false
//! candidate cut a stream, or the data are truncated or corrupt) is not trusted: from its start
//! on, the rest of the file is decoded as a plain bzip2 file would be, streaming, on one
//! thread; the bytes the job already handed over (a prefix of what that decoding gives) are
//! skipped. So a false candidate costs speed, never bytes, and a real fault is reported after
//! every byte before it. A file whose first stream is longer than [`SINGLE`] (plain `bzip2`
//! writes one stream) is decoded that way from the start.
//!
//! Each decoded chunk carries the raw position its job's decoder had reached (the job's start
//! plus the compressed bytes the decoder took in), so the reader tells how much of the raw
//! stream its caller has consumed ([`RawPos`]), however far the coordinator read ahead.
//!
//! With one thread ([`inline`]) the same jobs are cut and decoded one after another on the
//! caller's thread, in the same chunks, with the same fallback: the bytes and the errors do not
//! depend on the thread count.

use std::io::{self, Read};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread;

use crate::Options;
use crate::compression::{Checked, Chunked, Compression};
use crate::frames::decode_chunks;
use crate::pipe::{ChunkReader, Msg, pump};
use crate::progress::{AtPos, Counted, Decoded, RawPos};

/// The least raw size of a parallel job (several small streams go into one): a quarter of
/// [`Options::buffer_size`], 256 KiB by default.
fn job_size(opts: &Options) -> usize {
    opts.chunk_len() / 4
}
/// A stream longer than this (no candidate found that far; or [`Options::max_frame_size`] if
/// less) ends parallel decoding: a pbzip2 stream, one block of at most 900 kB, compresses to
/// less.
const SINGLE: usize = 4 << 20;

/// Whether a stream may start at `i`: `BZh1`..`BZh9` and a block magic.
fn candidate(b: &[u8], i: usize) -> bool {
    b.len() >= i + 10
        && &b[i..i + 3] == b"BZh"
        && (b'1'..=b'9').contains(&b[i + 3])
        && &b[i + 4..i + 10] == b"\x31\x41\x59\x26\x53\x59"
}

/// The first candidate at or after `from`, in `b` (which must hold 10 bytes past it).
fn next_candidate(b: &[u8], from: usize) -> Option<usize> {
    let mut i = from;
    while i + 10 <= b.len() {
        match b[i..b.len() - 9].iter().position(|&x| x == b'B') {
            Some(k) => {
                if candidate(b, i + k) {
                    return Some(i + k);
                }
                i += k + 1;
            }
            None => return None,
        }
    }
    None
}

/// A job's compressed bytes, shared by its decoder and the fallback.
#[derive(Clone)]
struct Bytes(Arc<Vec<u8>>);

impl AsRef<[u8]> for Bytes {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

/// A job: whole streams (it is checked), and where it starts in the raw stream.
struct Job {
    data: Bytes,
    start: u64,
}

/// The decoder of one job: whole streams, nothing else (an error otherwise).
fn job_reader(job: &Job) -> JobReader {
    JobReader {
        dec: bzip2::bufread::MultiBzDecoder::new(io::Cursor::new(job.data.clone())),
        start: job.start,
    }
}

/// One job's decoded bytes.
struct JobReader {
    dec: bzip2::bufread::MultiBzDecoder<io::Cursor<Bytes>>,
    /// Where the job starts in the raw stream.
    start: u64,
}

impl Read for JobReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.dec.read(buf)
    }
}

impl RawPos for JobReader {
    /// The job's start and the compressed bytes its decoder took in (a block, 900 kB decoded
    /// at most, is taken in before it is decoded).
    fn raw_pos(&self) -> u64 {
        self.start + self.dec.get_ref().position()
    }
}

/// Skips the first `left` bytes of `inner` (those a failed job already handed over).
struct Skip<R> {
    inner: R,
    left: u64,
}

impl<R: Read> Read for Skip<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.left > 0 && !buf.is_empty() {
            let max = buf
                .len()
                .min(usize::try_from(self.left).unwrap_or(usize::MAX));
            let n = self.inner.read(&mut buf[..max])?;
            if n == 0 {
                return Ok(0);
            }
            self.left -= n as u64;
        }
        self.inner.read(buf)
    }
}

/// Why cutting jobs stopped before the end of the input.
enum Stop {
    /// A stream too long for a job: the rest is decoded sequentially.
    Single,
    /// The raw input failed.
    Err(io::Error),
}

struct Coordinator {
    raw: Box<dyn Read + Send>,
    /// Raw bytes read and not yet cut into jobs.
    pending: Vec<u8>,
    /// Where `pending` starts in the raw stream.
    pending_start: u64,
    eof: bool,
    opts: Options,
    /// Tests: cut jobs here too, as a false candidate would.
    #[cfg(test)]
    false_cut: Option<usize>,
}

impl Coordinator {
    fn new(raw: Box<dyn Read + Send>, opts: &Options) -> Self {
        Coordinator {
            raw,
            pending: Vec::new(),
            pending_start: 0,
            eof: false,
            opts: opts.clone(),
            #[cfg(test)]
            false_cut: None,
        }
    }

    /// Reads until `pending` holds `n` bytes or the input ends.
    fn fill(&mut self, n: usize) -> io::Result<()> {
        while self.pending.len() < n && !self.eof {
            let want = (n - self.pending.len()).max(64 << 10);
            let k = (&mut self.raw)
                .take(want as u64)
                .read_to_end(&mut self.pending)?;
            if k == 0 {
                self.eof = true;
            }
        }
        Ok(())
    }

    /// Cuts the first `at` pending bytes off as a job.
    fn cut(&mut self, at: usize) -> Job {
        let rest = self.pending.split_off(at);
        let data = std::mem::replace(&mut self.pending, rest);
        let start = self.pending_start;
        self.pending_start += data.len() as u64;
        Job {
            data: Bytes(Arc::new(data)),
            start,
        }
    }

    /// The next job: the pending bytes up to the first candidate at least [`job_size`] bytes
    /// in (or all of them at the end of the input); `Ok(None)` at the end, `Err(Stop)` when a
    /// stream is too long to be a pbzip2 one or the input fails.
    fn next_job(&mut self) -> Result<Option<Job>, Stop> {
        let job = job_size(&self.opts);
        let mut from = 1;
        loop {
            #[cfg(test)]
            if let Some(at) = self.false_cut
                && self.pending.len() > at
            {
                return Ok(Some(self.cut(at)));
            }
            if let Some(c) = next_candidate(&self.pending, from.max(job)) {
                return Ok(Some(self.cut(c)));
            }
            if self.eof {
                let n = self.pending.len();
                return Ok((n > 0).then(|| self.cut(n)));
            }
            if self.pending.len() >= SINGLE.min(self.opts.max_frame_size).max(job) {
                return Err(Stop::Single);
            }
            from = self.pending.len().saturating_sub(9);
            let n = self.pending.len() + (256 << 10);
            self.fill(n).map_err(Stop::Err)?;
        }
    }

    /// The rest of the file from `jobs[0]` (or the pending bytes) on, decoded as a plain bzip2
    /// file, its first `skip` decoded bytes left out; its raw position counts from the file's
    /// first byte.
    fn fallback(&mut self, jobs: &[Job], skip: u64) -> io::Result<Box<dyn Decoded>> {
        let start = jobs.first().map_or(self.pending_start, |j| j.start);
        let mut head = Vec::new();
        for job in jobs {
            head.extend_from_slice(job.data.as_ref());
        }
        head.append(&mut self.pending);
        let raw = std::mem::replace(&mut self.raw, Box::new(io::empty()));
        // positions in messages count from the file's first byte, whatever was read ahead
        let counted = Counted::new(io::Cursor::new(head).chain(raw), None);
        counted
            .state
            .pos
            .store(start, std::sync::atomic::Ordering::Relaxed);
        let state = Arc::clone(&counted.state);
        let d = Checked::new(Compression::Bzip2, counted, Arc::clone(&state), &self.opts)?;
        Ok(Box::new(AtPos {
            inner: Skip {
                inner: d,
                left: skip,
            },
            state,
        }))
    }

    /// Decodes batches of `threads` jobs in parallel, sending their chunks in order.
    fn run(mut self, tx: &SyncSender<Msg>, back: &Arc<Mutex<Receiver<Vec<u8>>>>) {
        let threads = self.opts.thread_count();
        let chunk = self.opts.chunk_len();
        // `frame_buffer` for the whole batch, at least a chunk per job (a pbzip2 job of
        // 256 KiB decodes to 1 to 2 MiB: its thread stays busy)
        let per_job = (self.opts.frame_buffer / chunk / threads).max(1);
        loop {
            let mut batch = Vec::with_capacity(threads);
            let mut stop = None;
            while batch.len() < threads {
                match self.next_job() {
                    Ok(Some(job)) => batch.push(job),
                    Ok(None) => break,
                    Err(s) => {
                        stop = Some(s);
                        break;
                    }
                }
            }
            if batch.is_empty() && stop.is_none() {
                let _ = tx.send(Msg::End);
                return;
            }
            // (job index, bytes it handed over) of the first job that failed
            let mut failed = None;
            let mut gone = false;
            thread::scope(|s| {
                let mut rxs = Vec::with_capacity(batch.len());
                for job in &batch {
                    let (jtx, jrx) = sync_channel::<Msg>(per_job);
                    let mut r = job_reader(job);
                    let back = Arc::clone(back);
                    s.spawn(move || {
                        let mut fresh = || {
                            back.lock()
                                .ok()
                                .and_then(|rx| rx.try_recv().ok())
                                .unwrap_or_default()
                        };
                        let result = decode_chunks(&mut r, chunk, &mut fresh, &mut |c, at| {
                            jtx.send(Msg::Data(c, at)).is_ok()
                        });
                        let _ = jtx.send(match result {
                            Ok(()) => Msg::End,
                            Err(e) => Msg::Err(e),
                        });
                    });
                    rxs.push(jrx);
                }
                // dropping the receivers (at a failure) stops the jobs after it
                for (i, rx) in rxs.into_iter().enumerate() {
                    let mut handed = 0u64;
                    loop {
                        match rx.recv() {
                            Ok(Msg::Data(d, at)) => {
                                handed += d.len() as u64;
                                if tx.send(Msg::Data(d, at)).is_err() {
                                    gone = true;
                                    return;
                                }
                            }
                            Ok(Msg::End) => break,
                            Ok(Msg::Err(_)) | Err(_) => {
                                failed = Some((i, handed));
                                return;
                            }
                        }
                    }
                }
            });
            if gone {
                return;
            }
            let rest = match (failed, stop) {
                (Some((i, handed)), _) => self.fallback(&batch[i..], handed),
                (None, Some(Stop::Single)) => self.fallback(&[], 0),
                (None, Some(Stop::Err(e))) => Err(e),
                (None, None) => continue,
            };
            match rest {
                Ok(mut r) => {
                    pump(&mut r, chunk, tx, None);
                }
                Err(e) => {
                    let _ = tx.send(Msg::Err(e));
                }
            }
            return;
        }
    }
}

/// Decodes a bzip2 file (`raw`, from its first byte) on `opts.threads` threads.
pub(crate) fn spawn(raw: Box<dyn Read + Send>, opts: &Options) -> io::Result<ChunkReader> {
    let (tx, rx) = sync_channel(4);
    let (back_tx, back_rx) = sync_channel(4);
    let back_rx = Arc::new(Mutex::new(back_rx));
    let c = Coordinator::new(raw, opts);
    thread::Builder::new()
        .name("kifu-input bzip2".into())
        .spawn(move || c.run(&tx, &back_rx))?;
    Ok(ChunkReader::new(rx, Some(back_tx)))
}

/// Where the inline decoding stands.
enum Stage {
    /// Decoding a job (and how many bytes it handed over).
    Job(Job, Chunked<Box<dyn Decoded>>, u64),
    /// Decoding the rest of the file sequentially.
    Rest(Chunked<Box<dyn Decoded>>),
    /// Between jobs.
    Next,
    Done,
    Failed(io::ErrorKind, String),
}

/// A bzip2 file decoded on the caller's thread exactly as [`spawn`] decodes it on several:
/// the same jobs, the same chunks, the same fallback.
pub(crate) struct Inline {
    co: Coordinator,
    stage: Stage,
    chunk: usize,
    /// The raw position of the bytes handed over.
    stamp: u64,
}

impl RawPos for Inline {
    fn raw_pos(&self) -> u64 {
        self.stamp
    }
}

/// Decodes a bzip2 file (`raw`, from its first byte) on the caller's thread.
pub(crate) fn inline(raw: Box<dyn Read + Send>, opts: &Options) -> Inline {
    Inline {
        co: Coordinator::new(raw, opts),
        stage: Stage::Next,
        chunk: opts.chunk_len(),
        stamp: 0,
    }
}

impl Inline {
    fn fail(&mut self, e: io::Error) -> io::Error {
        self.stage = Stage::Failed(e.kind(), e.to_string());
        e
    }
}

impl Read for Inline {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            match &mut self.stage {
                Stage::Done => return Ok(0),
                Stage::Failed(kind, msg) => return Err(io::Error::new(*kind, msg.clone())),
                Stage::Rest(r) => match r.read(buf) {
                    Ok(n) => {
                        self.stamp = self.stamp.max(r.raw_pos());
                        return Ok(n);
                    }
                    Err(e) => return Err(self.fail(e)),
                },
                Stage::Job(_, r, handed) => match r.read(buf) {
                    Ok(0) => self.stage = Stage::Next,
                    Ok(n) => {
                        *handed += n as u64;
                        self.stamp = self.stamp.max(r.raw_pos());
                        return Ok(n);
                    }
                    Err(_) => {
                        let Stage::Job(job, _, handed) =
                            std::mem::replace(&mut self.stage, Stage::Next)
                        else {
                            unreachable!()
                        };
                        match self.co.fallback(std::slice::from_ref(&job), handed) {
                            Ok(r) => self.stage = Stage::Rest(Chunked::new(r, self.chunk)),
                            Err(e) => return Err(self.fail(e)),
                        }
                    }
                },
                Stage::Next => match self.co.next_job() {
                    Ok(Some(job)) => {
                        let r: Box<dyn Decoded> = Box::new(job_reader(&job));
                        self.stage = Stage::Job(job, Chunked::new(r, self.chunk), 0);
                    }
                    Ok(None) => self.stage = Stage::Done,
                    Err(Stop::Single) => match self.co.fallback(&[], 0) {
                        Ok(r) => self.stage = Stage::Rest(Chunked::new(r, self.chunk)),
                        Err(e) => return Err(self.fail(e)),
                    },
                    Err(Stop::Err(e)) => return Err(self.fail(e)),
                },
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candidates() {
        let mut b = vec![0u8; 40];
        b[20..30].copy_from_slice(b"BZh91AY&SY");
        assert!(candidate(&b, 20));
        assert_eq!(next_candidate(&b, 0), Some(20));
        assert_eq!(next_candidate(&b, 21), None);
        b[23] = b'0';
        assert_eq!(next_candidate(&b, 0), None);
        assert_eq!(next_candidate(b"BZh", 0), None);
    }

    fn streams(data: &[u8], n: usize) -> Vec<u8> {
        use std::io::Write;
        let mut out = Vec::new();
        for c in data.chunks(n) {
            let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
            e.write_all(c).unwrap();
            out.extend(e.finish().unwrap());
        }
        out
    }

    fn run(bytes: Vec<u8>, false_cut: Option<usize>, threads: usize) -> (Vec<u8>, Option<String>) {
        let opts = Options {
            threads,
            buffer_size: 16 << 10,
            ..Options::default()
        };
        let mut c = Coordinator::new(Box::new(io::Cursor::new(bytes)), &opts);
        c.false_cut = false_cut;
        let mut out = Vec::new();
        let err = if threads == 1 {
            let mut r = Inline {
                co: c,
                stage: Stage::Next,
                chunk: opts.chunk_len(),
                stamp: 0,
            };
            r.read_to_end(&mut out).err()
        } else {
            let (tx, rx) = sync_channel(4);
            let (back_tx, back_rx) = sync_channel(4);
            let back_rx = Arc::new(Mutex::new(back_rx));
            thread::spawn(move || c.run(&tx, &back_rx));
            ChunkReader::new(rx, Some(back_tx))
                .read_to_end(&mut out)
                .err()
        };
        (out, err.map(|e| e.to_string()))
    }

    #[test]
    fn parallel_jobs_and_false_candidates() {
        let data: Vec<u8> = (0..400_000u32)
            .map(|i| b"e4 e5 Nf3 Nc6 Bb5 a6 "[(i % 21) as usize] ^ (i / 997) as u8)
            .collect();
        let bytes = streams(&data, 9_000);
        for threads in [1, 2, 3] {
            assert_eq!(run(bytes.clone(), None, threads), (data.clone(), None));
            // a cut inside compressed data, as a false candidate would make: same bytes
            for cut in [1, 100, 5_000, 20_001] {
                assert_eq!(
                    run(bytes.clone(), Some(cut), threads),
                    (data.clone(), None),
                    "{cut}"
                );
            }
        }
        // truncated: the bytes of the whole streams before the cut, then the error, the same
        // at every thread count
        let cut = bytes[..bytes.len() - 100].to_vec();
        let (out, err) = run(cut.clone(), None, 2);
        assert!(data.starts_with(&out) && out.len() >= data.len() - 9_000);
        assert!(err.as_ref().unwrap().contains("truncated bzip2"), "{err:?}");
        for threads in [1, 3] {
            assert_eq!(run(cut.clone(), None, threads), (out.clone(), err.clone()));
            assert_eq!(
                run(cut.clone(), Some(5_000), threads),
                (out.clone(), err.clone())
            );
        }
    }
}
