//! The text encoders, CSV and JSON Lines: each batch's rows turned into bytes — on the calling
//! thread, or on one of [`SinkOptions::threads`](super::SinkOptions::threads) encoding
//! threads (batch `k` on thread `k mod N`, while the rows of the next batches are still being
//! built) — and the bytes appended to the file in batch order. A batch's bytes are a pure
//! function of its rows (each row's text stands alone), so the file is the same bytes at every
//! thread count.

use std::io::{self, BufWriter, Write};
use std::sync::mpsc::{SyncSender, sync_channel};
use std::thread::JoinHandle;

use arrow_array::RecordBatch;

use super::Target;
use super::encode::{EncodeError, encode_rows};
use super::in_order::InOrder;
use super::parquet_out::slice_bytes;

/// The most Arrow bytes of the rows encoded at once, on a thread ([`TextOut::write`]).
const PART_BYTES: usize = 4 << 20;

/// What a text file holds.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Text {
    /// CSV rows (the header is written once, before them).
    Csv,
    /// JSON objects, one per line: `kifu json`'s lines for a `json` table.
    Jsonl { kifu_json: bool },
}

type Encoded = Result<Vec<u8>, EncodeError>;

/// Where an encoding thread takes its batches, each with its index.
type Jobs = SyncSender<(usize, RecordBatch)>;

/// Encoding threads, each with its channel, and their batches' bytes in order.
struct Pool {
    threads: Vec<(Jobs, JoinHandle<()>)>,
    done: InOrder<Encoded>,
}

impl Pool {
    fn start(n: usize, text: Text) -> Pool {
        let (tx, done) = sync_channel(2 * n + 2);
        let threads = (0..n)
            .map(|k| {
                let (jobs, rx) = sync_channel::<(usize, RecordBatch)>(1);
                let tx = tx.clone();
                let handle = std::thread::Builder::new()
                    .name(format!("kifu-text-{k}"))
                    .spawn(move || {
                        for (index, batch) in rx {
                            let mut out = Vec::new();
                            let encoded = encode_rows(text, &batch, &mut out).map(|()| out);
                            if tx.send((index, encoded)).is_err() {
                                return;
                            }
                        }
                    })
                    .expect("a thread to encode text");
                (jobs, handle)
            })
            .collect();
        Pool {
            threads,
            done: InOrder::new(done),
        }
    }
}

/// A CSV or JSON Lines file being written.
pub(crate) struct TextOut {
    out: BufWriter<Target>,
    text: Text,
    /// Batches sent so far (the index of the next).
    sent: usize,
    pool: Option<Pool>,
    /// The bytes of a batch encoded on this thread (no pool), kept from batch to batch.
    scratch: Vec<u8>,
}

fn stopped() -> EncodeError {
    EncodeError::Io(io::Error::other("an encoding thread stopped"))
}

impl TextOut {
    /// A text file on `out` (its CSV header already written), encoded on `threads` threads.
    pub(crate) fn new(out: BufWriter<Target>, text: Text, threads: usize) -> TextOut {
        TextOut {
            out,
            text,
            sent: 0,
            pool: (threads > 0).then(|| Pool::start(threads, text)),
            scratch: Vec::new(),
        }
    }

    /// Takes a batch's rows: encoded a slice of at most [`PART_BYTES`] of Arrow data at a
    /// time, so that the text held (on this thread, or one slice a thread in flight) does not
    /// grow with the batch: a batch of the `json` table is tens of MiB, its text as much again.
    pub(crate) fn write(&mut self, batch: &RecordBatch) -> Result<(), EncodeError> {
        // the rows' mean size: the cut depends on the batch alone (each row's text stands
        // alone, so the bytes are the same however the rows are cut)
        let row_bytes = (slice_bytes(batch) / batch.num_rows().max(1)).max(1);
        let rows = (PART_BYTES / row_bytes).max(1);
        let mut start = 0;
        while start < batch.num_rows() {
            let n = rows.min(batch.num_rows() - start);
            self.write_part(batch.slice(start, n))?;
            start += n;
        }
        Ok(())
    }

    fn write_part(&mut self, part: RecordBatch) -> Result<(), EncodeError> {
        let Some(pool) = &self.pool else {
            self.scratch.clear();
            encode_rows(self.text, &part, &mut self.scratch)?;
            self.out.write_all(&self.scratch)?;
            return Ok(());
        };
        let n = pool.threads.len();
        let (jobs, _) = &pool.threads[self.sent % n];
        jobs.send((self.sent, part)).map_err(|_| stopped())?;
        self.sent += 1;
        // at most one part a thread in flight: the oldest is waited for first
        while self.sent - self.pool.as_ref().map_or(0, |p| p.done.taken()) > n {
            self.append_next(true)?;
        }
        while self.append_next(false)? {}
        Ok(())
    }

    /// Appends the next batch's bytes if they are encoded (waiting for them when `wait`);
    /// whether some were appended.
    fn append_next(&mut self, wait: bool) -> Result<bool, EncodeError> {
        let pool = self.pool.as_mut().expect("a pool");
        match pool.done.next(self.sent, wait).map_err(|_| stopped())? {
            Some(bytes) => {
                self.out.write_all(&bytes?)?;
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// Appends every batch and gives the file back (not yet flushed).
    pub(crate) fn close(mut self) -> Result<BufWriter<Target>, EncodeError> {
        if self.pool.is_some() {
            while self.append_next(true)? {}
            if let Some(pool) = self.pool.take() {
                for (jobs, handle) in pool.threads {
                    drop(jobs);
                    let _ = handle.join();
                }
            }
        }
        Ok(self.out)
    }
}
