//! Counting the raw bytes read, for a progress bar.

use std::io::{self, Read, Seek, SeekFrom};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

/// Counters a progress bar reads from another thread: raw bytes read so far (the compressed
/// size for compressed input), the total raw size when known, inputs done.
///
/// Cloning shares the counters. They are updated once per read of the underlying file or stdin
/// (tens of KiB at a time), never per byte, with relaxed atomics.
///
/// ```
/// use kifu_input::{for_each_in_reader, Options, Progress};
/// let progress = Progress::new();
/// let bar = progress.clone(); // give this one to the thread drawing the bar
/// for_each_in_reader("x.pgn", std::io::Cursor::new(vec![b' '; 1000]), &Options::default(),
///     &progress, |e| { std::io::copy(e.reader, &mut std::io::sink())?; Ok(()) });
/// assert_eq!(bar.bytes_read(), 1000);
/// assert_eq!(bar.inputs_done(), 1);
/// assert_eq!(bar.total_bytes(), None); // a reader's size is not known
/// ```
#[derive(Debug, Clone, Default)]
pub struct Progress {
    inner: Arc<Counters>,
}

#[derive(Debug, Default)]
struct Counters {
    read: AtomicU64,
    total: AtomicU64,
    total_unknown: AtomicBool,
    total_set: AtomicBool,
    inputs_done: AtomicU64,
}

impl Progress {
    /// New counters, all zero, total unknown.
    pub fn new() -> Progress {
        Progress::default()
    }

    /// Raw bytes read so far from files and stdin (compressed bytes for compressed input).
    pub fn bytes_read(&self) -> u64 {
        self.inner.read.load(Relaxed)
    }

    /// The sum of the sizes of all inputs, when every one is known (files; not stdin nor a
    /// reader).
    pub fn total_bytes(&self) -> Option<u64> {
        let c = &self.inner;
        (c.total_set.load(Relaxed) && !c.total_unknown.load(Relaxed)).then(|| c.total.load(Relaxed))
    }

    /// Top-level inputs (files, stdin, readers) finished, with or without an error.
    pub fn inputs_done(&self) -> u64 {
        self.inner.inputs_done.load(Relaxed)
    }

    /// Counts `n` raw bytes read (for callers that read some input themselves).
    pub fn add_bytes(&self, n: u64) {
        self.inner.read.fetch_add(n, Relaxed);
    }

    /// Adds `n` bytes to the total, or marks it unknown (`None`).
    pub fn add_total(&self, n: Option<u64>) {
        let c = &self.inner;
        c.total_set.store(true, Relaxed);
        match n {
            Some(n) => {
                c.total.fetch_add(n, Relaxed);
            }
            None => c.total_unknown.store(true, Relaxed),
        }
    }

    pub(crate) fn input_done(&self) {
        self.inner.inputs_done.fetch_add(1, Relaxed);
    }
}

/// Where a raw stream stands, shared with the error messages of its decoder.
#[derive(Debug, Default)]
pub(crate) struct RawState {
    pub pos: AtomicU64,
    pub eof: AtomicBool,
    pub failed: AtomicBool,
}

impl RawState {
    pub fn pos(&self) -> u64 {
        self.pos.load(Relaxed)
    }
    pub fn at_eof(&self) -> bool {
        self.eof.load(Relaxed)
    }
    pub fn failed(&self) -> bool {
        self.failed.load(Relaxed)
    }
}

/// A raw reader that counts what it reads into the progress and the stream's state.
pub(crate) struct Counted<R> {
    pub inner: R,
    pub progress: Option<Progress>,
    pub state: Arc<RawState>,
}

impl<R> Counted<R> {
    /// Counts into `progress` (`None`: an archive member, whose bytes the archive's own reader
    /// counts).
    pub fn new(inner: R, progress: Option<&Progress>) -> Self {
        Counted {
            inner,
            progress: progress.cloned(),
            state: Arc::default(),
        }
    }
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = match self.inner.read(buf) {
            Ok(n) => n,
            Err(e) => {
                if e.kind() != io::ErrorKind::Interrupted {
                    self.state.failed.store(true, Relaxed);
                }
                return Err(e);
            }
        };
        if n == 0 && !buf.is_empty() {
            self.state.eof.store(true, Relaxed);
        }
        self.state.pos.fetch_add(n as u64, Relaxed);
        if let Some(p) = &self.progress {
            p.add_bytes(n as u64);
        }
        Ok(n)
    }
}

impl<R: Seek> Seek for Counted<R> {
    fn seek(&mut self, pos: SeekFrom) -> io::Result<u64> {
        let p = self.inner.seek(pos)?;
        self.state.pos.store(p, Relaxed);
        Ok(p)
    }
}
