//! A query's scan: kifu-pipeline's table scan ([`scan_table`]) run on a thread of its own, its
//! record batches (in input order, the same at every thread count) handed through a bounded
//! queue to DuckDB's threads, which cut them into chunks and write them into DuckDB's vectors
//! side by side.
//!
//! The scan itself reads on `threads` threads as `kifu export -j` does: inputs in parallel,
//! large ones cut into pieces at game boundaries (`kifu::par`). It stops within a read when
//! the query no longer wants rows (a `LIMIT` met, an error elsewhere): the queue is dropped and
//! the scan's stop flag set.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use arrow_array::RecordBatch;
use kifu_pipeline::table::{TableScanned, TableSpec, scan_table};
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
    state: Mutex<State>,
    stop: Arc<AtomicBool>,
    /// Rows per chunk (DuckDB's vector size).
    chunk_rows: usize,
}

struct State {
    /// The scan's batches; `None` once it ended.
    batches: Option<Receiver<RecordBatch>>,
    /// The batch being cut into chunks, and its next row.
    current: Option<(RecordBatch, usize)>,
    /// The scan's thread, joined when the queue ends.
    thread: Option<JoinHandle<TableScanned>>,
    /// Failed inputs still to be handed on as rows (`ignore_errors`).
    failed: VecDeque<InputError>,
}

impl Scanning {
    /// Starts the scan `call` asks for, building the columns of `spec` (the call's spec with
    /// the query's projection); chunks of `chunk_rows` rows.
    ///
    /// # Errors
    ///
    /// The thread could not be started.
    pub fn start(call: &Call, spec: TableSpec, chunk_rows: usize) -> std::io::Result<Scanning> {
        let stop = Arc::new(AtomicBool::new(false));
        // a batch ahead per thread reading: the readers stay busy while DuckDB's threads
        // write the chunks, and memory holds a few chunks' rows (a chunk of 2,048 TCEC games
        // with their engine comments is 90 MB)
        let (tx, rx) = sync_channel::<RecordBatch>(call.threads + 1);
        let paths: Vec<PathBuf> = call.paths.clone();
        let options = ScanOptions::with_threads(call.threads);
        let formats = Formats::only(call.format);
        let flag = Arc::clone(&stop);
        let thread = std::thread::Builder::new()
            .name(format!("kifu {}", call.name()))
            .spawn(move || {
                let scan = Scan::new(Source::Paths(paths), formats)
                    .with_options(options)
                    .with_stop(&flag);
                scan_table(scan, &spec, |_, batch| tx.send(batch).is_ok(), |_| {})
            })?;
        Ok(Scanning {
            state: Mutex::new(State {
                batches: Some(rx),
                current: None,
                thread: Some(thread),
                failed: VecDeque::new(),
            }),
            stop,
            chunk_rows: chunk_rows.max(1),
        })
    }

    /// The next piece for a chunk; `None` at the end.
    ///
    /// # Errors
    ///
    /// The inputs that could not be read (without `ignore_errors`), each named, once the
    /// scan is over; the scan's thread failing.
    pub fn next(&self, call: &Call) -> Result<Option<Piece>, String> {
        let mut st = self
            .state
            .lock()
            .map_err(|_| "the scan failed on another thread".to_string())?;
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
            let Some(rx) = &st.batches else { break };
            match rx.recv() {
                Ok(batch) => st.current = Some((batch, 0)),
                Err(_) => {
                    // the scan is over: its report
                    st.batches = None;
                    let thread = st.thread.take().expect("one end");
                    let scanned = thread.join().map_err(|p| {
                        format!("{}: the scan failed: {}", call.name(), panic_text(&p))
                    })?;
                    if scanned.scanned.errors.is_empty() {
                        break;
                    }
                    if !call.ignore_errors {
                        let errors: Vec<String> = scanned
                            .scanned
                            .errors
                            .iter()
                            .map(|e| e.to_string())
                            .collect();
                        return Err(format!(
                            "{}: {} (ignore_errors := true gives their rows instead)",
                            call.name(),
                            errors.join("; ")
                        ));
                    }
                    st.failed.extend(scanned.scanned.errors);
                }
            }
        }
        if st.failed.is_empty() {
            return Ok(None);
        }
        let n = st.failed.len().min(self.chunk_rows);
        Ok(Some(Piece::Failed(st.failed.drain(..n).collect())))
    }
}

impl Drop for Scanning {
    /// The query is over (or stopped early): the scan stops within a read, and its thread is
    /// joined.
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        let state = self.state.get_mut().ok();
        if let Some(st) = state {
            // the reader's sends fail from now on
            st.batches = None;
            st.current = None;
            if let Some(t) = st.thread.take() {
                let _ = t.join();
            }
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
