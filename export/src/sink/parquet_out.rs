//! The Parquet encoder: rows gathered into row groups (at most `row_group_rows` rows; a group
//! also ends at the row that brings it to `row_group_bytes` of Arrow data, each batch's rows
//! counted at their mean size, the same way whatever the batches' buffers look like), each row
//! group's columns encoded as its
//! batches come — on the calling thread, or on one of [`SinkOptions::threads`] encoding threads
//! (row group `k` on thread `k mod N`, so that a group is encoded while the rows of the next
//! are still being built) — and the encoded groups appended to the file in order. Where a row
//! group ends depends only on the rows and batches written, and encoding is a pure function of
//! a group's batches, so the file is the same bytes at every thread count.

use std::io::BufWriter;
use std::sync::Arc;
use std::sync::mpsc::{SyncSender, sync_channel};
use std::thread::JoinHandle;

use arrow_array::{Array, RecordBatch};
use arrow_schema::SchemaRef;
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_writer::{
    ArrowColumnChunk, ArrowColumnWriter, ArrowRowGroupWriterFactory, compute_leaves,
};
use parquet::errors::ParquetError;
use parquet::file::writer::SerializedFileWriter;

use super::encode::parquet_properties;
use super::in_order::InOrder;
use super::{SinkOptions, Target};

type Chunks = Result<Vec<ArrowColumnChunk>, ParquetError>;

/// One row group being encoded: its column writers, fed batch by batch.
struct Group {
    writers: Vec<ArrowColumnWriter>,
    failed: Option<ParquetError>,
}

impl Group {
    fn new(factory: &ArrowRowGroupWriterFactory, index: usize) -> Group {
        match factory.create_column_writers(index) {
            Ok(writers) => Group {
                writers,
                failed: None,
            },
            Err(e) => Group {
                writers: Vec::new(),
                failed: Some(e),
            },
        }
    }

    /// Encodes a batch's rows.
    fn write(&mut self, schema: &SchemaRef, batch: &RecordBatch) {
        if self.failed.is_some() {
            return;
        }
        let mut w = self.writers.iter_mut();
        for (field, column) in schema.fields().iter().zip(batch.columns()) {
            let leaves = match compute_leaves(field, column) {
                Ok(l) => l,
                Err(e) => {
                    self.failed = Some(e);
                    return;
                }
            };
            for leaf in leaves {
                let r = match w.next() {
                    Some(writer) => writer.write(&leaf),
                    None => Err(ParquetError::General("a column without its writer".into())),
                };
                if let Err(e) = r {
                    self.failed = Some(e);
                    return;
                }
            }
        }
    }

    /// The group's column chunks, in column order.
    fn close(self) -> Chunks {
        if let Some(e) = self.failed {
            return Err(e);
        }
        self.writers.into_iter().map(|w| w.close()).collect()
    }
}

/// What an encoding thread is sent.
enum Msg {
    /// Rows of row group `index` (the first rows of a group start it).
    Rows(usize, RecordBatch),
    /// Row group `index` is complete.
    End(usize),
}

/// Encoding threads, each with its channel, and their row groups in order.
struct Pool {
    threads: Vec<(SyncSender<Msg>, JoinHandle<()>)>,
    done: InOrder<Chunks>,
}

impl Pool {
    fn start(n: usize, factory: &Arc<ArrowRowGroupWriterFactory>, schema: &SchemaRef) -> Pool {
        let (tx, done) = sync_channel(2 * n + 2);
        let threads = (0..n)
            .map(|k| {
                // one batch queued per thread: the builder runs ahead of the encoders by that much
                let (jobs, rx) = sync_channel::<Msg>(1);
                let tx = tx.clone();
                let (factory, schema) = (Arc::clone(factory), schema.clone());
                let handle = std::thread::Builder::new()
                    .name(format!("kifu-parquet-{k}"))
                    .spawn(move || {
                        let mut group: Option<Group> = None;
                        for msg in rx {
                            match msg {
                                Msg::Rows(index, batch) => group
                                    .get_or_insert_with(|| Group::new(&factory, index))
                                    .write(&schema, &batch),
                                Msg::End(index) => {
                                    let g =
                                        group.take().unwrap_or_else(|| Group::new(&factory, index));
                                    if tx.send((index, g.close())).is_err() {
                                        return;
                                    }
                                }
                            }
                        }
                    })
                    .expect("a thread to encode Parquet");
                (jobs, handle)
            })
            .collect();
        Pool {
            threads,
            done: InOrder::new(done),
        }
    }

    fn send(&self, group: usize, msg: Msg) -> Result<(), ParquetError> {
        let (jobs, _) = &self.threads[group % self.threads.len()];
        jobs.send(msg)
            .map_err(|_| ParquetError::General("an encoding thread stopped".into()))
    }
}

/// A Parquet file being written.
pub(crate) struct ParquetOut {
    writer: SerializedFileWriter<BufWriter<Target>>,
    factory: Arc<ArrowRowGroupWriterFactory>,
    schema: SchemaRef,
    /// The row group taking rows (on this thread when there is no pool).
    group: Option<Group>,
    group_rows: usize,
    group_bytes: usize,
    max_rows: usize,
    max_bytes: usize,
    /// Row groups ended so far (the index of the one taking rows).
    ended: usize,
    pool: Option<Pool>,
}

/// The Arrow bytes of a batch's rows: the bytes of its slice of each column (not of the
/// buffers it shares with other slices), so that the count is the same however the rows were
/// cut into batches.
pub(crate) fn slice_bytes(batch: &RecordBatch) -> usize {
    batch
        .columns()
        .iter()
        .map(|c| c.to_data().get_slice_memory_size().unwrap_or(0))
        .sum()
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
        // one thread fewer than asked (one at least): the rows are built on the others, and each
        // encoding thread holds a row group's pages (a peak that would grow with the threads)
        let encoders = opts.threads.saturating_sub(1).max(1);
        let pool = (opts.threads > 0).then(|| Pool::start(encoders, &factory, schema));
        Ok(ParquetOut {
            writer,
            factory,
            schema: schema.clone(),
            group: None,
            group_rows: 0,
            group_bytes: 0,
            max_rows: opts.row_group_rows.max(1),
            max_bytes: opts.row_group_bytes.max(1),
            ended: 0,
            pool,
        })
    }

    /// Takes a batch's rows; a row group ends when it is full.
    pub(crate) fn write(&mut self, batch: &RecordBatch) -> Result<(), ParquetError> {
        let mut start = 0;
        // the rows' mean size, so that a batch of large rows is cut where its group is full
        // rather than after it (the cut depends on the batch alone, as the batches do on the rows)
        let row_bytes = (slice_bytes(batch) / batch.num_rows().max(1)).max(1);
        while start < batch.num_rows() {
            let room = self
                .max_bytes
                .saturating_sub(self.group_bytes)
                .div_ceil(row_bytes);
            let n = (batch.num_rows() - start)
                .min(self.max_rows - self.group_rows)
                .min(room.max(1));
            let part = batch.slice(start, n);
            self.group_bytes += slice_bytes(&part);
            self.group_rows += n;
            start += n;
            let index = self.ended;
            match &self.pool {
                None => self
                    .group
                    .get_or_insert_with(|| Group::new(&self.factory, index))
                    .write(&self.schema, &part),
                Some(pool) => pool.send(index, Msg::Rows(index, part))?,
            }
            if self.group_rows >= self.max_rows || self.group_bytes >= self.max_bytes {
                self.end_group()?;
            }
        }
        Ok(())
    }

    /// Ends the row group taking rows: appended at once, or once encoded and its turn comes.
    fn end_group(&mut self) -> Result<(), ParquetError> {
        if self.group_rows == 0 {
            return Ok(());
        }
        let index = self.ended;
        self.ended += 1;
        self.group_rows = 0;
        self.group_bytes = 0;
        match &self.pool {
            None => {
                let group = self.group.take().expect("rows were written");
                append(&mut self.writer, group.close()?)?;
            }
            Some(pool) => {
                pool.send(index, Msg::End(index))?;
                // at most `n - 1` ended groups in flight beside the one taking rows (one at
                // one thread): the oldest is waited for first
                let n = pool.threads.len().saturating_sub(1).max(1);
                while self.ended - self.pool.as_ref().map_or(0, |p| p.done.taken()) > n {
                    self.take_one(true)?;
                }
                while self.take_one(false)? {}
            }
        }
        Ok(())
    }

    /// Appends the next row group if it is encoded (waiting for it when `wait`); whether one
    /// was appended.
    fn take_one(&mut self, wait: bool) -> Result<bool, ParquetError> {
        let pool = self.pool.as_mut().expect("a pool");
        let next = pool
            .done
            .next(self.ended, wait)
            .map_err(|_| ParquetError::General("an encoding thread stopped".into()))?;
        match next {
            Some(chunks) => {
                append(&mut self.writer, chunks?)?;
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// Ends the last row group, appends every group, writes the footer, and gives the file
    /// back.
    pub(crate) fn close(mut self) -> Result<BufWriter<Target>, ParquetError> {
        self.end_group()?;
        if self.pool.is_some() {
            while self.take_one(true)? {}
            if let Some(pool) = self.pool.take() {
                for (jobs, handle) in pool.threads {
                    drop(jobs);
                    let _ = handle.join();
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
