//! The Parquet encoder: batches gathered into row groups (at most `row_group_rows` rows; a
//! group also ends after the batch that brings it to `row_group_bytes` of Arrow data, counted
//! the same way whatever the batches' buffers look like), each row group encoded column by
//! column — on the calling thread, or on
//! [`SinkOptions::threads`] encoding threads — and appended to the file in order. Where a row
//! group ends depends only on the rows and batches written, and encoding is a pure function of
//! a row group, so the file is the same bytes at every thread count.

use std::collections::BTreeMap;
use std::io::BufWriter;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use arrow_array::{Array, RecordBatch};
use arrow_schema::SchemaRef;
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_writer::{ArrowColumnChunk, ArrowRowGroupWriterFactory, compute_leaves};
use parquet::errors::ParquetError;
use parquet::file::writer::SerializedFileWriter;

use super::encode::parquet_properties;
use super::{SinkOptions, Target};

type Chunks = Result<Vec<ArrowColumnChunk>, ParquetError>;

/// A row group to encode: its index in the file and its rows.
type Job = (usize, Vec<RecordBatch>);

/// Encoding threads, and the row groups they have encoded but the file has not taken yet.
struct Pool {
    jobs: Option<SyncSender<Job>>,
    done: Receiver<(usize, Chunks)>,
    threads: Vec<JoinHandle<()>>,
    /// Encoded row groups waiting for the ones before them.
    ready: BTreeMap<usize, Chunks>,
    /// Row groups sent and not yet appended.
    in_flight: usize,
    /// The most row groups in flight (memory holds about this many).
    cap: usize,
}

/// A Parquet file being written.
pub(crate) struct ParquetOut {
    writer: SerializedFileWriter<BufWriter<Target>>,
    factory: Arc<ArrowRowGroupWriterFactory>,
    schema: SchemaRef,
    pending: Vec<RecordBatch>,
    pending_rows: usize,
    pending_bytes: usize,
    max_rows: usize,
    max_bytes: usize,
    /// Row groups cut so far.
    cut: usize,
    /// Row groups appended to the file so far.
    appended: usize,
    pool: Option<Pool>,
}

/// The Arrow bytes of a batch's rows: the bytes of its slice of each column (not of the
/// buffers it shares with other slices), so that the count is the same however the rows were
/// cut into batches.
fn slice_bytes(batch: &RecordBatch) -> usize {
    batch
        .columns()
        .iter()
        .map(|c| c.to_data().get_slice_memory_size().unwrap_or(0))
        .sum()
}

/// Encodes one row group: its column chunks, in column order.
fn encode(
    factory: &ArrowRowGroupWriterFactory,
    schema: &SchemaRef,
    index: usize,
    batches: &[RecordBatch],
) -> Chunks {
    let mut writers = factory.create_column_writers(index)?;
    for batch in batches {
        let mut w = writers.iter_mut();
        for (field, column) in schema.fields().iter().zip(batch.columns()) {
            for leaf in compute_leaves(field, column)? {
                w.next()
                    .ok_or_else(|| ParquetError::General("a column without its writer".into()))?
                    .write(&leaf)?;
            }
        }
    }
    writers.into_iter().map(|w| w.close()).collect()
}

impl ParquetOut {
    pub(crate) fn new(
        file: BufWriter<Target>,
        schema: &SchemaRef,
        opts: &SinkOptions,
    ) -> Result<ParquetOut, ParquetError> {
        let props = parquet_properties(schema, opts);
        // the Arrow writer sets the file up (the Arrow schema in its metadata), then hands over
        // the file writer and the row groups' column writers
        let (writer, factory) =
            ArrowWriter::try_new(file, schema.clone(), Some(props))?.into_serialized_writer()?;
        let factory = Arc::new(factory);
        let pool = (opts.threads > 0).then(|| {
            let n = opts.threads;
            let (jobs, rx) = sync_channel::<Job>(n);
            let rx = Arc::new(Mutex::new(rx));
            let (tx, done) = sync_channel(2 * n + 2);
            let threads = (0..n)
                .map(|k| {
                    let (rx, tx) = (Arc::clone(&rx), tx.clone());
                    let (factory, schema) = (Arc::clone(&factory), schema.clone());
                    std::thread::Builder::new()
                        .name(format!("kifu-parquet-{k}"))
                        .spawn(move || {
                            loop {
                                let job = match rx.lock() {
                                    Ok(rx) => rx.recv(),
                                    Err(_) => return,
                                };
                                let Ok((index, batches)) = job else { return };
                                let chunks = encode(&factory, &schema, index, &batches);
                                if tx.send((index, chunks)).is_err() {
                                    return;
                                }
                            }
                        })
                        .expect("a thread to encode Parquet")
                })
                .collect();
            Pool {
                jobs: Some(jobs),
                done,
                threads,
                ready: BTreeMap::new(),
                in_flight: 0,
                cap: n + 1,
            }
        });
        Ok(ParquetOut {
            writer,
            factory,
            schema: schema.clone(),
            pending: Vec::new(),
            pending_rows: 0,
            pending_bytes: 0,
            max_rows: opts.row_group_rows.max(1),
            max_bytes: opts.row_group_bytes.max(1),
            cut: 0,
            appended: 0,
            pool,
        })
    }

    /// Takes a batch's rows; a row group is cut (and encoded) when it is full.
    pub(crate) fn write(&mut self, batch: &RecordBatch) -> Result<(), ParquetError> {
        let mut start = 0;
        while start < batch.num_rows() {
            let n = (batch.num_rows() - start).min(self.max_rows - self.pending_rows);
            let part = batch.slice(start, n);
            self.pending_bytes += slice_bytes(&part);
            self.pending_rows += n;
            self.pending.push(part);
            start += n;
            if self.pending_rows >= self.max_rows || self.pending_bytes >= self.max_bytes {
                self.cut_group()?;
            }
        }
        Ok(())
    }

    /// Sends the pending rows to be encoded as the next row group.
    fn cut_group(&mut self) -> Result<(), ParquetError> {
        if self.pending_rows == 0 {
            return Ok(());
        }
        let batches = std::mem::take(&mut self.pending);
        let index = self.cut;
        self.cut += 1;
        self.pending_rows = 0;
        self.pending_bytes = 0;
        match &self.pool {
            None => {
                let chunks = encode(&self.factory, &self.schema, index, &batches)?;
                append(&mut self.writer, chunks)?;
                self.appended += 1;
            }
            Some(_) => {
                // memory holds at most `cap` row groups: wait for the oldest first
                while self.pool.as_ref().is_some_and(|p| p.in_flight >= p.cap) {
                    self.take_one(true)?;
                }
                let pool = self.pool.as_mut().expect("a pool");
                pool.jobs
                    .as_ref()
                    .expect("jobs are sent until the end")
                    .send((index, batches))
                    .map_err(|_| ParquetError::General("an encoding thread stopped".into()))?;
                pool.in_flight += 1;
                // append what is ready, without waiting
                while self.take_one(false)? {}
            }
        }
        Ok(())
    }

    /// Appends the next row group if it is encoded (waiting for it when `wait`); whether one
    /// was appended.
    fn take_one(&mut self, wait: bool) -> Result<bool, ParquetError> {
        let pool = self.pool.as_mut().expect("a pool");
        loop {
            if let Some(chunks) = pool.ready.remove(&self.appended) {
                pool.in_flight -= 1;
                append(&mut self.writer, chunks?)?;
                self.appended += 1;
                return Ok(true);
            }
            let got = if wait {
                pool.done.recv().ok()
            } else {
                pool.done.try_recv().ok()
            };
            match got {
                Some((index, chunks)) => {
                    pool.ready.insert(index, chunks);
                }
                None if wait => {
                    return Err(ParquetError::General("an encoding thread stopped".into()));
                }
                None => return Ok(false),
            }
        }
    }

    /// Encodes what is left, appends every row group, writes the footer, and gives the file
    /// back.
    pub(crate) fn close(mut self) -> Result<BufWriter<Target>, ParquetError> {
        self.cut_group()?;
        if self.pool.is_some() {
            while self.appended < self.cut {
                self.take_one(true)?;
            }
            if let Some(mut pool) = self.pool.take() {
                pool.jobs = None;
                for t in pool.threads.drain(..) {
                    let _ = t.join();
                }
            }
        }
        self.writer.into_inner()
    }
}

/// Appends an encoded row group to the file.
fn append(
    writer: &mut SerializedFileWriter<BufWriter<Target>>,
    chunks: Vec<ArrowColumnChunk>,
) -> Result<(), ParquetError> {
    let mut group = writer.next_row_group()?;
    for chunk in chunks {
        chunk.append_to_row_group(&mut group)?;
    }
    group.close()?;
    Ok(())
}
