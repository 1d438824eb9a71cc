//! Running a scan (`kifu::par`) over a source on a thread of its own, and handing what it makes
//! to the Python side through a bounded channel: the GIL is never held while parsing, memory
//! stays bounded (the channel holds a few batches), and the consumer gets results in input
//! order.

use std::io::{self, Read};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use kifu::par::{self, Event, Feeder, Work};
use kifu::{pgn, sgf};
use kifu_input::Format;
use pyo3::exceptions::{PyOSError, PyUserWarning};
use pyo3::prelude::*;

use crate::source::{Formats, PyErrSlot, Source};

/// One input of a scan.
#[derive(Debug)]
pub struct Input {
    /// `path`, `ARCHIVE:MEMBER`, `<bytes>`, or the file object's name.
    pub name: Arc<str>,
}

/// How a scan shares out its work.
#[derive(Clone, Copy, Debug)]
pub struct ScanOptions {
    /// Reading threads (1: one thread reads each input straight through).
    pub threads: usize,
    /// About how many bytes a piece holds.
    pub piece_size: usize,
    /// Bytes read at a time.
    pub read_size: usize,
}

impl ScanOptions {
    /// `threads` (`None`: the machine's cores), the library's other defaults.
    pub fn new(threads: Option<usize>) -> ScanOptions {
        let d = par::Options::default();
        ScanOptions {
            threads: threads.unwrap_or(d.threads).max(1),
            piece_size: d.piece_size,
            read_size: d.read_size,
        }
    }
}

/// What a scan met besides its games.
#[derive(Debug, Default)]
pub struct Outcome {
    /// Inputs that could not be read, or were cut short: `(name, what went wrong)`.
    pub errors: Vec<(String, String)>,
    /// Inputs skipped because their name says the other format.
    pub skipped: Vec<String>,
    /// The walk's counts, as `kifu stats` gives them: `(inputs, streams, skipped files,
    /// skipped archive members)`.
    pub read: (u64, u64, u64, u64),
    /// The first skipped files and members, with why.
    pub skipped_names: Vec<String>,
}

impl Outcome {
    /// What a walk read: its counts and the first skipped names, as `kifu stats` gives them.
    pub fn with_counts(mut self, r: &kifu_input::Report) -> Outcome {
        self.read = (r.inputs, r.entries, r.skipped_files, r.skipped_members);
        self.skipped_names = r.skipped.clone();
        self
    }
}

/// Why a sink stops a scan.
#[derive(Debug)]
pub struct Stopped;

/// How often a thread waiting for a scan, the GIL released, looks for a signal (Ctrl-C) to
/// raise.
const SIGNAL_POLL: Duration = Duration::from_millis(100);

/// A reader that fails once the scan is told to stop (Ctrl-C, the consumer gone): every input
/// is read through one, so that a scan stops within a read whatever it is doing.
struct Stoppable<'a, R> {
    inner: R,
    stop: &'a AtomicBool,
}

impl<R: Read> Read for Stoppable<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.stop.load(Ordering::Relaxed) {
            return Err(io::Error::other("the scan was interrupted"));
        }
        self.inner.read(buf)
    }
}

/// Runs `work` over `source` on `opts.threads` threads; `sink` gets each piece and each
/// input's end in input order. Once `stop` is set, reads fail and the sink is no longer
/// called: the scan ends within a read.
#[allow(clippy::too_many_arguments)]
pub fn run<W, S>(
    source: Source,
    formats: Formats,
    opts: ScanOptions,
    py_error: &PyErrSlot,
    stop: &AtomicBool,
    work: &W,
    mut sink: S,
) -> Outcome
where
    W: Work<Input = Input>,
    S: FnMut(Event<'_, W>) -> Result<(), Stopped>,
{
    let sink = move |event: Event<'_, W>| {
        if stop.load(Ordering::Relaxed) {
            return Err(Stopped);
        }
        sink(event)
    };
    let par_opts = par::Options {
        threads: opts.threads,
        piece_size: opts.piece_size,
        read_size: opts.read_size,
    };
    let input_opts = kifu_input::Options {
        threads: opts.threads,
        ..kifu_input::Options::default()
    };
    let mut report = None;
    let mut skipped = Vec::new();
    let result = par::scan(
        &par_opts,
        work,
        |feeder: &mut Feeder<'_, W, Stopped>| {
            report = Some(source.walk(&input_opts, py_error, |entry| {
                let Some(format) = formats.choose(&entry) else {
                    skipped.push(entry.name.to_string());
                    return Ok(());
                };
                let input = Input {
                    name: Arc::from(entry.name),
                };
                let reader = kifu::encoding::Utf16Reader::new(Stoppable {
                    inner: entry.reader,
                    stop,
                });
                let go_on = match format {
                    Format::Pgn => feeder.pgn(input, pgn::Config::default(), reader),
                    Format::Sgf => feeder.sgf(input, sgf::Config::default(), reader),
                };
                // told to stop (Ctrl-C, the consumer gone): an error of the callback's own, so
                // that the walk ends here rather than reading the rest of the input to its end
                if go_on && !stop.load(Ordering::Relaxed) {
                    Ok(())
                } else {
                    Err(io::Error::other("the scan stopped"))
                }
            }));
        },
        sink,
    );
    let mut outcome = Outcome {
        errors: Vec::new(),
        skipped,
        read: (0, 0, 0, 0),
        skipped_names: Vec::new(),
    };
    if let Some(r) = &report {
        outcome = outcome.with_counts(r);
    }
    if result.is_ok()
        && let Some(report) = report
    {
        outcome.errors = report
            .errors
            .iter()
            .map(|e| (e.name.clone(), e.error.to_string()))
            .collect();
    }
    outcome
}

/// What the scan's thread sends.
pub enum Msg<T> {
    /// Results, in input order.
    Items(Vec<T>),
    /// Something to say as a Python warning (an input skipped, an input holding no game).
    Warn(String),
    /// The scan is over.
    End(Outcome),
}

/// The consumer's end of a scan run on a thread of its own.
pub struct Pump<T> {
    rx: Option<Receiver<Msg<T>>>,
    thread: Option<JoinHandle<()>>,
    py_error: PyErrSlot,
    /// Tells the scan to stop (Ctrl-C, or the consumer gone).
    stop: Arc<AtomicBool>,
    /// When signals were last looked for.
    checked: Instant,
}

impl<T: Send + 'static> Pump<T> {
    /// Starts `produce` on a thread; it sends at most `capacity` messages ahead of the
    /// consumer, and stops when the flag it is given is set (pass it to [`run`]).
    pub fn start<F>(capacity: usize, py_error: PyErrSlot, produce: F) -> Pump<T>
    where
        F: FnOnce(SyncSender<Msg<T>>, Arc<AtomicBool>) + Send + 'static,
    {
        let (tx, rx) = sync_channel(capacity.max(1));
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let thread = std::thread::Builder::new()
            .name("kifu-scan".into())
            .spawn(move || produce(tx, flag))
            .expect("a thread for the scan");
        Pump {
            rx: Some(rx),
            thread: Some(thread),
            py_error,
            stop,
            checked: Instant::now(),
        }
    }

    /// The next message, waiting with the GIL released; `None` once the scan is over and
    /// everything was received.
    ///
    /// # Errors
    ///
    /// A signal's exception (`KeyboardInterrupt` for Ctrl-C), within [`SIGNAL_POLL`] of the
    /// signal; the scan is then told to stop.
    pub fn recv(&mut self, py: Python<'_>) -> PyResult<Option<Msg<T>>> {
        py.detach(|| self.recv_free())
    }

    /// The next message, for a consumer that does not hold the GIL; as [`recv`](Self::recv).
    ///
    /// # Errors
    ///
    /// As [`recv`](Self::recv).
    pub fn recv_free(&mut self) -> PyResult<Option<Msg<T>>> {
        let Some(rx) = self.rx.as_ref() else {
            return Ok(None);
        };
        loop {
            // a stream of messages never times out: look for signals by the clock too
            if self.checked.elapsed() >= SIGNAL_POLL {
                self.checked = Instant::now();
                if let Err(e) = Python::attach(|py| py.check_signals()) {
                    self.stop.store(true, Ordering::Relaxed);
                    return Err(e);
                }
            }
            match rx.recv_timeout(SIGNAL_POLL) {
                Ok(msg) => return Ok(Some(msg)),
                Err(RecvTimeoutError::Disconnected) => {
                    self.rx = None;
                    return Ok(None);
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    /// The Python exception a file object raised, if one did.
    pub fn take_py_error(&self) -> Option<PyErr> {
        self.py_error.lock().ok().and_then(|mut e| e.take())
    }
}

impl<T> Drop for Pump<T> {
    fn drop(&mut self) {
        // the scan's next read and send fail, so it stops; wait for it without the GIL (a
        // file object's read needs it)
        self.stop.store(true, Ordering::Relaxed);
        self.rx = None;
        if let Some(thread) = self.thread.take() {
            Python::attach(|py| py.detach(move || drop(thread.join())));
        }
    }
}

/// Runs `f` on a thread of its own while the caller waits with the GIL released, looking for
/// signals every [`SIGNAL_POLL`]: on one (Ctrl-C), `f` is told to stop through the flag it is
/// given (pass it to [`run`]), and the signal's exception (`KeyboardInterrupt`) is raised once
/// it has.
///
/// # Errors
///
/// The signal's exception.
pub fn interruptible<R, F>(py: Python<'_>, f: F) -> PyResult<R>
where
    R: Send,
    F: FnOnce(&AtomicBool) -> R + Send,
{
    let stop = AtomicBool::new(false);
    py.detach(|| {
        std::thread::scope(|scope| {
            let (tx, rx) = sync_channel(1);
            let stop = &stop;
            let worker = std::thread::Builder::new()
                .name("kifu-scan".into())
                .spawn_scoped(scope, move || {
                    let r = f(stop);
                    let _ = tx.send(());
                    r
                })
                .expect("a thread for the scan");
            let mut raised = None;
            loop {
                match rx.recv_timeout(SIGNAL_POLL) {
                    Ok(()) | Err(RecvTimeoutError::Disconnected) => break,
                    Err(RecvTimeoutError::Timeout) => {
                        if raised.is_none()
                            && let Err(e) = Python::attach(|py| py.check_signals())
                        {
                            stop.store(true, Ordering::Relaxed);
                            raised = Some(e);
                        }
                    }
                }
            }
            let r = worker
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            match raised {
                Some(e) => Err(e),
                None => Ok(r),
            }
        })
    })
}

/// Says `message` as a `UserWarning`.
pub fn warn(py: Python<'_>, message: &str) -> PyResult<()> {
    let category = py.get_type::<PyUserWarning>();
    let message =
        std::ffi::CString::new(message.replace('\0', " ")).expect("no NUL left in the message");
    PyErr::warn(py, &category, &message, 1)
}

/// The exception for the inputs of `outcome` that failed, if any: the file object's own
/// exception first, else an `InputError` naming every input that failed.
pub fn input_error(py: Python<'_>, outcome: &Outcome, py_error: Option<PyErr>) -> Option<PyErr> {
    if let Some(e) = py_error {
        return Some(e);
    }
    if outcome.errors.is_empty() {
        return None;
    }
    let message = outcome
        .errors
        .iter()
        .map(|(name, e)| format!("{name}: {e}"))
        .collect::<Vec<_>>()
        .join("; ");
    // `kifu.InputError` (under `kifu.Error` and `OSError`) is the package's Python class;
    // an `OSError` if the package is not there (the native module imported alone)
    let class = py
        .import("kifu")
        .and_then(|m| m.getattr("InputError"))
        .unwrap_or_else(|_| py.get_type::<PyOSError>().into_any());
    let err = match class.call1((message.clone(),)) {
        Ok(value) => PyErr::from_value(value),
        Err(e) => e,
    };
    let _ = err.value(py).setattr("errors", outcome.errors.clone());
    Some(err)
}

/// Warnings for the inputs skipped.
pub fn skipped_warning(outcome: &Outcome, wanted: Format) -> Option<String> {
    if outcome.skipped.is_empty() {
        return None;
    }
    let other = match wanted {
        Format::Pgn => "SGF",
        Format::Sgf => "PGN",
    };
    let n = outcome.skipped.len();
    let first = &outcome.skipped[0];
    Some(if n == 1 {
        format!("kifu: skipped {first}: its name says {other}")
    } else {
        format!("kifu: skipped {n} inputs whose names say {other} ({first}, ...)")
    })
}
