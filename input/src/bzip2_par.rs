//! bzip2 files made of many streams (`pbzip2`, `lbzip2`) decoded on several threads.
//!
//! A bzip2 stream starts on a byte boundary with `BZh1`..`BZh9` and, unless it is empty, the
//! magic of its first block, `31 41 59 26 53 59`: a candidate start. A coordinating thread
//! reads the raw bytes, cuts them at candidates into jobs of at least [`JOB`] bytes, decodes a
//! batch of `threads` jobs at once, one per thread, and sends their output in order.
//!
//! A candidate can lie: those ten bytes may occur inside compressed data. Every job is checked
//! by decoding it: it must hold whole streams and nothing else. A job that fails (a false
//! candidate cut a stream, or the data are truncated or corrupt) is not trusted: from its start
//! on, the rest of the file is decoded on one thread, streaming, as a plain bzip2 file would be,
//! so a false candidate costs speed, never bytes, and a real fault is reported after every byte
//! before it. A file whose first stream is longer than [`SINGLE`] (plain `bzip2` writes one
//! stream) is decoded that way from the start.

use std::io::{self, Read};
use std::sync::Arc;
use std::sync::mpsc::{SyncSender, sync_channel};
use std::thread;

use crate::Options;
use crate::compression::{Checked, Compression};
use crate::pipe::{ChunkReader, Msg, pump};
use crate::progress::RawState;

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

/// Decodes one job: whole streams, nothing else.
fn decode_job(data: &[u8]) -> io::Result<Vec<u8>> {
    let mut out = Vec::with_capacity(data.len() * 6);
    bzip2::read::MultiBzDecoder::new(data).read_to_end(&mut out)?;
    Ok(out)
}

struct Coordinator {
    raw: Box<dyn Read + Send>,
    state: Arc<RawState>,
    /// Raw bytes read and not yet cut into jobs.
    pending: Vec<u8>,
    eof: bool,
    opts: Options,
    /// Tests: cut jobs here too, as a false candidate would.
    #[cfg(test)]
    false_cut: Option<usize>,
}

impl Coordinator {
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

    /// The next job: the pending bytes up to the first candidate at least [`JOB`] bytes in
    /// (or all of them at the end of the input); `None` when the input is done or a stream is
    /// too long to be a pbzip2 one.
    fn next_job(&mut self) -> io::Result<Option<Vec<u8>>> {
        let job = job_size(&self.opts);
        let mut from = 1;
        loop {
            #[cfg(test)]
            if let Some(at) = self.false_cut
                && self.pending.len() > at
            {
                let rest = self.pending.split_off(at);
                return Ok(Some(std::mem::replace(&mut self.pending, rest)));
            }
            if let Some(c) = next_candidate(&self.pending, from.max(job)) {
                let rest = self.pending.split_off(c);
                return Ok(Some(std::mem::replace(&mut self.pending, rest)));
            }
            if self.eof {
                return Ok((!self.pending.is_empty()).then(|| std::mem::take(&mut self.pending)));
            }
            if self.pending.len() >= SINGLE.min(self.opts.max_frame_size).max(job) {
                return Ok(None);
            }
            from = self.pending.len().saturating_sub(9);
            let n = self.pending.len() + (256 << 10);
            self.fill(n)?;
        }
    }

    fn run(mut self, tx: &SyncSender<Msg>) {
        let threads = self.opts.thread_count();
        let chunk = self.opts.chunk_len();
        loop {
            let mut batch = Vec::with_capacity(threads);
            let mut single = false;
            while batch.len() < threads {
                match self.next_job() {
                    Ok(Some(job)) => batch.push(job),
                    Ok(None) => {
                        single = !self.pending.is_empty();
                        break;
                    }
                    Err(e) => {
                        let _ = tx.send(Msg::Err(e));
                        return;
                    }
                }
            }
            if batch.is_empty() && !single {
                let _ = tx.send(Msg::End);
                return;
            }
            let results: Vec<io::Result<Vec<u8>>> = if batch.len() == 1 {
                vec![decode_job(&batch[0])]
            } else {
                thread::scope(|s| {
                    let handles: Vec<_> = batch
                        .iter()
                        .map(|job| s.spawn(move || decode_job(job)))
                        .collect();
                    handles
                        .into_iter()
                        .map(|h| h.join().unwrap_or_else(|_| Err(io::Error::other("panic"))))
                        .collect()
                })
            };
            let mut failed = None;
            for (i, r) in results.into_iter().enumerate() {
                match r {
                    Ok(out) => {
                        for piece in out.chunks(chunk) {
                            if tx.send(Msg::Data(piece.to_vec())).is_err() {
                                return;
                            }
                        }
                    }
                    Err(_) => {
                        failed = Some(i);
                        break;
                    }
                }
            }
            if failed.is_some() || single {
                // the rest, from the failed job (or the long stream) on, on this thread
                let mut head = Vec::new();
                for job in batch.drain(failed.unwrap_or(batch.len())..) {
                    head.extend_from_slice(&job);
                }
                head.append(&mut self.pending);
                let raw = std::mem::replace(&mut self.raw, Box::new(io::empty()));
                let r = io::Cursor::new(head).chain(raw);
                match Checked::new(Compression::Bzip2, r, Arc::clone(&self.state), &self.opts) {
                    Ok(mut d) => {
                        pump(&mut d, chunk, tx, None);
                    }
                    Err(e) => {
                        let _ = tx.send(Msg::Err(e));
                    }
                }
                return;
            }
        }
    }
}

/// Decodes a bzip2 file (`raw`, from its first byte) on `opts.threads` threads.
pub(crate) fn spawn(
    raw: Box<dyn Read + Send>,
    state: Arc<RawState>,
    opts: &Options,
) -> io::Result<Box<dyn Read + Send>> {
    let (tx, rx) = sync_channel(4);
    let c = Coordinator {
        raw,
        state,
        pending: Vec::new(),
        eof: false,
        opts: opts.clone(),
        #[cfg(test)]
        false_cut: None,
    };
    thread::Builder::new()
        .name("kifu-input bzip2".into())
        .spawn(move || c.run(&tx))?;
    Ok(Box::new(ChunkReader::new(rx, None)))
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
        let (tx, rx) = sync_channel(4);
        let opts = Options {
            threads,
            buffer_size: 16 << 10,
            ..Options::default()
        };
        let c = Coordinator {
            raw: Box::new(io::Cursor::new(bytes)),
            state: Arc::default(),
            pending: Vec::new(),
            eof: false,
            opts,
            false_cut,
        };
        thread::spawn(move || c.run(&tx));
        let mut out = Vec::new();
        let err = ChunkReader::new(rx, None).read_to_end(&mut out).err();
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
        // truncated: the bytes of the whole streams before the cut, then the error
        let (out, err) = run(bytes[..bytes.len() - 100].to_vec(), None, 2);
        assert!(data.starts_with(&out) && out.len() >= data.len() - 9_000);
        assert!(
            err.unwrap().contains("bzip2"),
            "the raw state is not the one counted here"
        );
    }
}
