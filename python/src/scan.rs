//! Running kifu-pipeline's scans from Python: on a thread of their own, the GIL released, what
//! they make handed to the Python side through a bounded channel (memory stays bounded, the
//! consumer gets results in input order), Ctrl-C turned into the scan's stop flag, and what
//! the scan reports turned into Python warnings and exceptions.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use kifu::Format;
use kifu_pipeline::{Formats, Note, Scan, ScanOptions, Scanned, Source};
use pyo3::exceptions::{PyOSError, PyUserWarning};
use pyo3::prelude::*;

use crate::source::PyErrSlot;

/// The options of a scan: `threads` (`None`: the machine's cores), the pipeline's other
/// defaults.
pub fn options(threads: Option<usize>) -> PyResult<ScanOptions> {
    Ok(match crate::threads(threads)? {
        Some(n) => ScanOptions::with_threads(n),
        None => ScanOptions::default(),
    })
}

/// A scan of `source`, stopped by `stop`.
pub fn scan<'s>(
    source: Source,
    formats: Formats,
    opts: ScanOptions,
    stop: &'s AtomicBool,
) -> Scan<'s> {
    Scan::new(source, formats)
        .with_options(opts)
        .with_stop(stop)
}

/// What the scan's thread sends.
pub enum Msg<T> {
    /// Results, in input order.
    Items(Vec<T>),
    /// Something to say as a Python warning (an input holding no game, one left out).
    Warn(String),
    /// The scan is over.
    End(Scanned),
}

/// The warning for a note of the scan (as `kifu` says it on stderr).
pub fn note_text(note: &Note) -> String {
    match note {
        Note::NoGame { problems, .. } if *problems > 0 => {
            format!("kifu: {note} (kifu.check lists them)")
        }
        _ => format!("kifu: {note}"),
    }
}

/// How often a thread waiting for a scan, the GIL released, looks for a signal (Ctrl-C) to
/// raise.
const SIGNAL_POLL: Duration = Duration::from_millis(100);

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
    /// consumer, and stops when the flag it is given is set (pass it to [`scan`]).
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
/// given (pass it to [`scan`]), and the signal's exception (`KeyboardInterrupt`) is raised once
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

/// Warns (a `UserWarning`) of each key named that is a tag kifu does not know but close to
/// one it does (`WhitElo>=2500`: did you mean `WhiteElo`?), as the command line does: such a
/// test is kept, as PGN allows any tag, but may match nothing.
pub fn warn_near_misses<'a>(
    keys: impl IntoIterator<Item = &'a kifu_pipeline::keys::Key>,
) -> PyResult<()> {
    let mut said: Vec<String> = Vec::new();
    for w in keys
        .into_iter()
        .filter_map(kifu_pipeline::keys::Key::near_miss)
    {
        if !said.contains(&w) {
            Python::attach(|py| warn(py, &w))?;
            said.push(w);
        }
    }
    Ok(())
}

/// Says `message` as a `UserWarning`.
pub fn warn(py: Python<'_>, message: &str) -> PyResult<()> {
    let category = py.get_type::<PyUserWarning>();
    let message =
        std::ffi::CString::new(message.replace('\0', " ")).expect("no NUL left in the message");
    PyErr::warn(py, &category, &message, 1)
}

/// The exception for the inputs of `scanned` that failed, if any: the file object's own
/// exception first, else an `InputError` naming every input that failed.
pub fn input_error(py: Python<'_>, scanned: &Scanned, py_error: Option<PyErr>) -> Option<PyErr> {
    if let Some(e) = py_error {
        return Some(e);
    }
    if scanned.errors.is_empty() {
        return None;
    }
    let message = scanned
        .errors
        .iter()
        .map(|e| format!("{}: {}", e.name, e.message))
        .collect::<Vec<_>>()
        .join("; ");
    // `kifu.InputError` (under `kifu.Error` and `OSError`) is the package's Python class;
    // an `OSError` if the package is not there (the native module imported alone)
    let class = py
        .import("kifu")
        .and_then(|m| m.getattr("InputError"))
        .unwrap_or_else(|_| py.get_type::<PyOSError>().into_any());
    let err = match class.call1((message,)) {
        Ok(value) => PyErr::from_value(value),
        Err(e) => e,
    };
    let pairs: Vec<(String, String)> = scanned
        .errors
        .iter()
        .map(|e| (e.name.clone(), e.message.clone()))
        .collect();
    let _ = err.value(py).setattr("errors", pairs);
    Some(err)
}

/// The warning for the inputs skipped because their names say the other format.
pub fn skipped_warning(scanned: &Scanned, wanted: Format) -> Option<String> {
    let skipped = &scanned.skipped_format;
    let first = skipped.first()?;
    let other = match wanted {
        Format::Pgn => "SGF",
        Format::Sgf => "PGN",
    };
    let n = skipped.len();
    Some(if n == 1 {
        format!("kifu: skipped {first}: its name says {other}")
    } else {
        format!("kifu: skipped {n} inputs whose names say {other} ({first}, ...)")
    })
}

/// The end of a call over a scan: warnings for the inputs skipped, then the exception for the
/// inputs that failed (a file object's own first).
///
/// # Errors
///
/// That exception, or a warning raised as an error (`warnings.simplefilter("error")`).
pub fn finish(
    py: Python<'_>,
    scanned: &Scanned,
    py_error: Option<PyErr>,
    wanted: Option<Format>,
) -> PyResult<()> {
    if let Some(w) = wanted.and_then(|f| skipped_warning(scanned, f)) {
        warn(py, &w)?;
    }
    match input_error(py, scanned, py_error) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}
