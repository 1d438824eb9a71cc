//! Counting the raw bytes read and the raw bytes the caller has consumed, for a progress bar.

use std::io::{self, Read, Seek, SeekFrom};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

/// Counters a progress bar reads from another thread: raw bytes read so far (the compressed
/// size for compressed input), raw bytes consumed, the total raw size when known, inputs done, games read.
///
/// *Read* counts the raw bytes taken from files and stdin, by whichever thread reads them: a
/// decoding thread reads ahead of the caller (a few frames of a pzstd file, a batch of bzip2
/// streams, a few decoded chunks of any other compressed stream). *Consumed* counts the raw
/// bytes behind the decoded bytes the caller has taken: each decoded chunk carries the raw
/// position it was decoded up to, and handing the chunk over advances the count. It is the
/// position a progress bar shows: it moves with the games parsed, not with the decoder. For a
/// plain input the two are the same; consumed never exceeds read, and catches up with it at the
/// end of each input.
///
/// Cloning shares the counters. They are updated once per read of the underlying file or stdin
/// (tens of KiB at a time) or per decoded chunk handed over, never per byte, with relaxed
/// atomics.
///
/// ```
/// use kifu_input::{for_each_in_reader, Options, Progress};
/// let progress = Progress::new();
/// let bar = progress.clone(); // give this one to the thread drawing the bar
/// for_each_in_reader("x.pgn", std::io::Cursor::new(vec![b' '; 1000]), &Options::default(),
///     &progress, |e| { std::io::copy(e.reader, &mut std::io::sink())?; Ok(()) });
/// assert_eq!(bar.bytes_read(), 1000);
/// assert_eq!(bar.bytes_consumed(), 1000);
/// assert!(!bar.compressed()); // plain text: consumed bytes are decoded bytes
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
    consumed: AtomicU64,
    compressed: AtomicBool,
    total: AtomicU64,
    total_unknown: AtomicBool,
    total_set: AtomicBool,
    inputs_done: AtomicU64,
    games: AtomicU64,
}

impl Progress {
    /// New counters, all zero, total unknown.
    pub fn new() -> Progress {
        Progress::default()
    }

    /// Raw bytes read so far from files and stdin (compressed bytes for compressed input),
    /// decoders' read-ahead included.
    pub fn bytes_read(&self) -> u64 {
        self.inner.read.load(Relaxed)
    }

    /// Raw bytes behind the decoded bytes handed to the caller so far: at most
    /// [`bytes_read`](Self::bytes_read), equal to it for plain input and at the end of every
    /// input. The position to show against [`total_bytes`](Self::total_bytes).
    ///
    /// ```
    /// use kifu_input::{for_each_in_reader, Options, Progress};
    /// use std::io::{Read, Write};
    ///
    /// let mut z = zstd::stream::Encoder::new(Vec::new(), 3).unwrap();
    /// z.write_all(&b"1. e4 e5 *\n".repeat(10_000)).unwrap();
    /// let z = z.finish().unwrap();
    /// let size = z.len() as u64;
    /// let progress = Progress::new();
    /// for_each_in_reader("x.pgn.zst", std::io::Cursor::new(z), &Options::default(), &progress,
    ///     |e| {
    ///         let mut first = [0u8; 100];
    ///         e.reader.read_exact(&mut first)?;
    ///         assert!(progress.bytes_consumed() <= progress.bytes_read());
    ///         Ok(()) // the walk reads the rest
    ///     });
    /// assert!(progress.compressed());
    /// assert_eq!((progress.bytes_consumed(), progress.bytes_read()), (size, size));
    /// ```
    pub fn bytes_consumed(&self) -> u64 {
        self.inner.consumed.load(Relaxed)
    }

    /// Whether a compressed input has been met: the counts are then (partly) compressed bytes,
    /// not the decoded bytes the parsers see.
    ///
    /// ```
    /// use kifu_input::{for_each_in_reader, Options, Progress};
    /// let gz = {
    ///     use std::io::Write;
    ///     let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    ///     e.write_all(b"1. e4 *\n").unwrap();
    ///     e.finish().unwrap()
    /// };
    /// let progress = Progress::new();
    /// assert!(!progress.compressed());
    /// for_each_in_reader("a.pgn.gz", std::io::Cursor::new(gz), &Options::default(), &progress,
    ///     |e| std::io::copy(e.reader, &mut std::io::sink()).map(drop));
    /// assert!(progress.compressed());
    /// ```
    pub fn compressed(&self) -> bool {
        self.inner.compressed.load(Relaxed)
    }

    /// The sum of the sizes of all inputs, when every one is known (files; not stdin nor a
    /// reader).
    pub fn total_bytes(&self) -> Option<u64> {
        let c = &self.inner;
        (c.total_set.load(Relaxed) && !c.total_unknown.load(Relaxed)).then(|| c.total.load(Relaxed))
    }

    /// Games read so far, as whoever reads them counts them ([`add_games`](Self::add_games):
    /// kifu-pipeline's scans add each piece's games as it is handed on).
    ///
    /// ```
    /// let progress = kifu_input::Progress::new();
    /// progress.clone().add_games(3);
    /// assert_eq!(progress.games(), 3);
    /// ```
    pub fn games(&self) -> u64 {
        self.inner.games.load(Relaxed)
    }

    /// Counts `n` more games read.
    pub fn add_games(&self, n: u64) {
        self.inner.games.fetch_add(n, Relaxed);
    }

    /// Top-level inputs (files, stdin, readers) finished, with or without an error.
    pub fn inputs_done(&self) -> u64 {
        self.inner.inputs_done.load(Relaxed)
    }

    /// Counts `n` raw bytes read and consumed (for callers that read some input themselves).
    ///
    /// ```
    /// let p = kifu_input::Progress::new();
    /// p.add_bytes(10);
    /// assert_eq!((p.bytes_read(), p.bytes_consumed()), (10, 10));
    /// ```
    pub fn add_bytes(&self, n: u64) {
        self.add_read(n);
        self.add_consumed(n);
    }

    /// Counts `n` raw bytes read (by a decoder, perhaps ahead of the caller).
    pub(crate) fn add_read(&self, n: u64) {
        self.inner.read.fetch_add(n, Relaxed);
    }

    /// Counts `n` raw bytes consumed.
    pub(crate) fn add_consumed(&self, n: u64) {
        self.inner.consumed.fetch_add(n, Relaxed);
    }

    /// Notes that a compressed input was met.
    pub(crate) fn set_compressed(&self) {
        self.inner.compressed.store(true, Relaxed);
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

    /// An input is finished: what was read of it was consumed (a decoder's last read, past its
    /// last chunk, is counted here).
    pub(crate) fn input_done(&self) {
        let c = &self.inner;
        c.consumed.fetch_max(c.read.load(Relaxed), Relaxed);
        c.inputs_done.fetch_add(1, Relaxed);
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
    /// What is read is consumed at once (a reader on the caller's thread that nothing reads
    /// ahead of it, such as a zip file's).
    pub consumed: bool,
}

impl<R> Counted<R> {
    /// Counts into `progress` (`None`: an archive member, whose bytes the archive's own reader
    /// counts) the bytes read; their consumption is counted by [`Consume`] over the decoded
    /// stream.
    pub fn new(inner: R, progress: Option<&Progress>) -> Self {
        Counted {
            inner,
            progress: progress.cloned(),
            state: Arc::default(),
            consumed: false,
        }
    }

    /// Counts into `progress` the bytes read as read and consumed.
    pub fn consumed(inner: R, progress: &Progress) -> Self {
        Counted {
            consumed: true,
            ..Counted::new(inner, Some(progress))
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
            if self.consumed {
                p.add_bytes(n as u64);
            } else {
                p.add_read(n as u64);
            }
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

/// A reader of decoded bytes that knows where, in the raw stream it decodes, the bytes it has
/// handed over so far come from: the raw position its decoder had reached when it decoded the
/// chunk it is handing over. Chunks decoded on another thread carry that position with them
/// ([`crate::pipe::Msg::Data`]).
pub(crate) trait RawPos {
    /// The raw position (from the stream's first byte) reached by the decoded bytes handed
    /// over so far; it never goes back.
    fn raw_pos(&self) -> u64;
}

impl<T: RawPos + ?Sized> RawPos for Box<T> {
    fn raw_pos(&self) -> u64 {
        (**self).raw_pos()
    }
}

/// A decoded stream that tells its raw position, to be read on any thread.
pub(crate) trait Decoded: Read + RawPos + Send {}

impl<T: Read + RawPos + Send> Decoded for T {}

/// A reader on the raw stream's own thread, whose raw position is that of the raw reader
/// under it ([`Counted`]'s state): a plain stream, or a decoder that reads its raw bytes as it
/// goes (the raw reader's buffer, tens of KiB, ahead).
pub(crate) struct AtPos<R> {
    pub inner: R,
    pub state: Arc<RawState>,
}

impl<R: Read> Read for AtPos<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner.read(buf)
    }
}

impl<R> RawPos for AtPos<R> {
    fn raw_pos(&self) -> u64 {
        self.state.pos()
    }
}

/// The decoded stream handed to the caller: each read advances [`Progress::bytes_consumed`]
/// to the raw position of what it handed over (one relaxed load per read, one add when the
/// position moved: once per chunk).
pub(crate) struct Consume<R> {
    inner: R,
    progress: Progress,
    /// The raw position counted so far.
    at: u64,
}

impl<R> Consume<R> {
    pub fn new(inner: R, progress: &Progress) -> Self {
        Consume {
            inner,
            progress: progress.clone(),
            at: 0,
        }
    }
}

impl<R: Read + RawPos> Read for Consume<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let r = self.inner.read(buf);
        let pos = self.inner.raw_pos();
        if pos > self.at {
            self.progress.add_consumed(pos - self.at);
            self.at = pos;
        }
        r
    }
}
