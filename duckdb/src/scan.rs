//! A query's scan, read on DuckDB's threads: kifu-pipeline's table scan
//! ([`scan_table_on`]) with DuckDB's threads as its executor.
//!
//! A thread of the scan's own walks the inputs (a folder, an archive's members, a compressed
//! stream decoded) and cuts each into pieces where games start (`kifu::par`); each piece's
//! reading (the parse, the rows built) is a job, which the DuckDB thread that next asks for a
//! chunk runs. The results come back in input order on the scan's thread, which numbers the
//! games, mends a wrong cut and cuts the rows into batches of a chunk's rows: the batches are
//! the same at every thread count, DuckDB's or the scan's. A DuckDB thread asking for a chunk
//! takes a batch when one is ready, else runs a job, else waits.
//!
//! When the query no longer wants rows (a `LIMIT` met, an error elsewhere) the scan is told to
//! stop within a read, the jobs still queued are run where they are (every job must run), and
//! the scan's thread is joined.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;

use arrow_array::RecordBatch;
use kifu::par::{Executor, Job};
use kifu_pipeline::tables::{TableScanned, TableSpec, scan_table_on};
use kifu_pipeline::{Formats, InputError, Scan, ScanOptions, Source};

use crate::bind::Call;

/// What a call of `func` writes into its chunk.
pub enum Piece {
    /// Rows of the table (a slice of a batch, at most a chunk's worth).
    Rows(RecordBatch),
    /// Inputs that could not be read whole, one row each (`ignore_errors := true`).
    Failed(Vec<InputError>),
}

/// The scan of one query, shared by DuckDB's threads.
pub struct Scanning {
    shared: Arc<Shared>,
    stop: Arc<AtomicBool>,
    /// The scan's thread, joined by the thread that meets its end.
    thread: Mutex<Option<JoinHandle<TableScanned>>>,
    /// Rows per chunk (DuckDB's vector size).
    chunk_rows: usize,
}

/// What the scan's thread and DuckDB's threads share: batches one way, jobs the other.
struct Shared {
    state: Mutex<State>,
    /// A batch, a job, room for a batch or the end: something changed.
    changed: Condvar,
    /// Batches ready at most (then the scan waits for DuckDB's threads to take one).
    capacity: usize,
}

struct State {
    /// Batches ready, in input order.
    batches: VecDeque<RecordBatch>,
    /// The batch being cut into chunks, and its next row.
    current: Option<(RecordBatch, usize)>,
    /// Pieces to read.
    jobs: VecDeque<Job>,
    /// The scan's thread has handed on its last batch.
    ended: bool,
    /// The query is over: no batch is taken any more, and a job is run where it is given.
    closed: bool,
    /// Failed inputs still to be handed on as rows (`ignore_errors`).
    failed: VecDeque<InputError>,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        // a panic while locked would be in this module's few lines, which do not panic; the
        // state stays whole whatever a job does (jobs run unlocked)
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// Tells DuckDB's threads, when dropped, that the scan's thread hands on no more batches.
struct End(Arc<Shared>);

impl Drop for End {
    fn drop(&mut self) {
        self.0.lock().ended = true;
        self.0.changed.notify_all();
    }
}

/// DuckDB's threads as the scan's executor.
struct Helpers(Arc<Shared>);

impl Executor for Helpers {
    fn execute(&self, job: Job) {
        let mut st = self.0.lock();
        if st.closed {
            // the query is over: nobody takes jobs any more, and each must run
            drop(st);
            job();
            return;
        }
        st.jobs.push_back(job);
        drop(st);
        // (all: the scan's thread may be the one waiting on this condition, for room)
        self.0.changed.notify_all();
    }
}

impl Scanning {
    /// Starts the scan `call` asks for, building the columns of `spec` (the call's spec with
    /// the query's projection); chunks of `chunk_rows` rows.
    ///
    /// # Errors
    ///
    /// The scan's thread could not be started.
    pub fn start(call: &Call, spec: TableSpec, chunk_rows: usize) -> std::io::Result<Scanning> {
        let stop = Arc::new(AtomicBool::new(false));
        let shared = Arc::new(Shared {
            state: Mutex::new(State {
                batches: VecDeque::new(),
                current: None,
                jobs: VecDeque::new(),
                ended: false,
                closed: false,
                failed: VecDeque::new(),
            }),
            changed: Condvar::new(),
            // a batch per reading thread, plus one: DuckDB's threads always find one, and
            // memory holds a few chunks' rows (2,048 TCEC games with their engine comments
            // are 90 MB)
            capacity: call.threads + 1,
        });
        let paths: Vec<PathBuf> = call.paths.clone();
        let options = ScanOptions::with_threads(call.threads);
        let formats = Formats::only(call.format);
        let (flag, to_scan) = (Arc::clone(&stop), Arc::clone(&shared));
        let thread = std::thread::Builder::new()
            .name(format!("kifu {}", call.name()))
            .spawn(move || {
                let scan = Scan::new(Source::Paths(paths), formats)
                    .with_options(options)
                    .with_stop(&flag);
                let out = {
                    let shared = Arc::clone(&to_scan);
                    move |_, batch| {
                        let mut st = shared.lock();
                        loop {
                            if st.closed {
                                return false;
                            }
                            if st.batches.len() < shared.capacity {
                                st.batches.push_back(batch);
                                drop(st);
                                shared.changed.notify_all();
                                return true;
                            }
                            st = shared.changed.wait(st).unwrap_or_else(|p| p.into_inner());
                        }
                    }
                };
                // the end is told whatever happens, a panic included (DuckDB's threads then
                // meet it when they join this thread), so that none waits for it forever
                let _end = End(Arc::clone(&to_scan));
                let helpers = Helpers(Arc::clone(&to_scan));
                scan_table_on(scan, &spec, &helpers, out, |_| {})
            })?;
        Ok(Scanning {
            shared,
            stop,
            thread: Mutex::new(Some(thread)),
            chunk_rows: chunk_rows.max(1),
        })
    }

    /// The next piece for a chunk (reading pieces of the input meanwhile, when there is one to
    /// read and no batch is ready); `None` at the end.
    ///
    /// # Errors
    ///
    /// The inputs that could not be read (without `ignore_errors`), each named, once the
    /// scan is over; the scan's thread failing.
    pub fn next(&self, call: &Call) -> Result<Option<Piece>, String> {
        let shared = &*self.shared;
        let mut st = shared.lock();
        loop {
            if let Some((batch, at)) = &mut st.current {
                let rows = (batch.num_rows() - *at).min(self.chunk_rows);
                if rows > 0 {
                    let piece = batch.slice(*at, rows);
                    *at += rows;
                    return Ok(Some(Piece::Rows(piece)));
                }
                st.current = None;
            }
            if let Some(batch) = st.batches.pop_front() {
                st.current = Some((batch, 0));
                // room for the scan's next batch
                shared.changed.notify_all();
                continue;
            }
            if let Some(job) = st.jobs.pop_front() {
                drop(st);
                // a piece read on this thread (its panics are caught inside the job)
                job();
                st = shared.lock();
                continue;
            }
            if st.ended {
                break;
            }
            st = shared.changed.wait(st).unwrap_or_else(|p| p.into_inner());
        }
        let thread = self.thread.lock().unwrap_or_else(|p| p.into_inner()).take();
        if let Some(thread) = thread {
            // the scan is over: its report, once
            drop(st);
            let scanned = thread
                .join()
                .map_err(|p| format!("{}: the scan failed: {}", call.name(), panic_text(&*p)))?;
            let errors = scanned.scanned.errors;
            if !errors.is_empty() && !call.ignore_errors {
                let errors: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
                return Err(format!(
                    "{}: {} (ignore_errors := true gives their rows instead)",
                    call.name(),
                    errors.join("; ")
                ));
            }
            st = shared.lock();
            st.failed.extend(errors);
        }
        if st.failed.is_empty() {
            return Ok(None);
        }
        let n = st.failed.len().min(self.chunk_rows);
        Ok(Some(Piece::Failed(st.failed.drain(..n).collect())))
    }
}

impl Drop for Scanning {
    /// The query is over (or stopped early): the scan stops within a read, the jobs left are
    /// run here (each must run, and they end quickly: reads fail now), and the scan's thread
    /// is joined.
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        let jobs = {
            let mut st = self.shared.lock();
            st.closed = true;
            st.batches.clear();
            st.current = None;
            std::mem::take(&mut st.jobs)
        };
        self.shared.changed.notify_all();
        for job in jobs {
            job();
        }
        let thread = self
            .thread
            .get_mut()
            .unwrap_or_else(|p| p.into_inner())
            .take();
        if let Some(t) = thread {
            let _ = t.join();
        }
    }
}

/// A panic's message.
fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".into())
}
