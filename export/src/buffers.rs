//! The buffers of the positions tables' columns of numbers, kept from one batch to the next.
//!
//! A positions table is many rows of a few hundred bytes, made into batches of a few MiB each:
//! each batch's buffers taken fresh from the allocator were pages the kernel handed out and
//! zeroed again, batch after batch, and written while cold. [`Buffers`] keeps them instead: a
//! buffer made by [`Buffers::buffer`] goes back to its pool when the last array holding it is
//! dropped (the writer's, the collector's or the consumer's, on whatever thread), and the next
//! batch's builder, or the collector's cut into batches ([`Buffers::concat_batches`]), takes it
//! again, its pages mapped and most likely still in the cache. Safe code throughout: a buffer
//! is a [`bytes::Bytes`] that owns its `Vec`, made an Arrow [`Buffer`].
//!
//! The pool holds at most [`Buffers::MAX_KEPT`] bytes of buffers no array holds, and at most
//! [`Buffers::MAX_SHELVED`] of a type; one past that is freed, as is a buffer of less than
//! [`Buffers::MIN_KEPT`] bytes. A consumer that keeps its batches keeps their buffers out of
//! the pool: the pool then makes new ones, as the allocator would; and an array that outlives
//! the scan frees its buffer (a buffer holds its pool weakly). A batch that fills less than a
//! quarter of its buffers (a piece of few rows) is copied into buffers of its size, and the
//! large ones go back at once: a small batch holds no more than its rows.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, Weak};

use arrow_array::cast::AsArray;
use arrow_array::types::{
    ArrowPrimitiveType, Float64Type, Int8Type, Int16Type, Int32Type, Int64Type, UInt8Type,
    UInt32Type,
};
use arrow_array::{Array, ArrayRef, BinaryArray, ListArray, PrimitiveArray, RecordBatch};
use arrow_buffer::{ArrowNativeType, Buffer, OffsetBuffer, ScalarBuffer, ToByteSlice};
use arrow_schema::{ArrowError, DataType, SchemaRef};

/// A pool of column buffers that a scan's builders share (a clone shares the pool):
/// [`TableOptions::buffers`](crate::TableOptions::buffers).
///
/// ```
/// use arrow_array::{Array, Int64Array, RecordBatch};
/// use kifu_export::Buffers;
/// use std::sync::Arc;
///
/// let pool = Buffers::default();
/// let schema = Arc::new(arrow_schema::Schema::new(vec![arrow_schema::Field::new(
///     "n",
///     arrow_schema::DataType::Int64,
///     false,
/// )]));
/// let part = |v: std::ops::Range<i64>| {
///     RecordBatch::try_new(schema.clone(), vec![Arc::new(Int64Array::from_iter_values(v))])
///         .unwrap()
/// };
/// let one = pool.concat_batches(&schema, &[part(0..600), part(600..1000)]).unwrap();
/// assert_eq!(one.column(0).as_ref(), &Int64Array::from_iter_values(0..1000) as &dyn Array);
/// assert_eq!(pool.kept_bytes(), 0);
/// drop(one); // its buffer goes back to the pool: 1,024 values (1,000 rounded up)
/// assert_eq!(pool.kept_bytes(), 1024 * 8);
/// ```
#[derive(Clone, Default)]
pub struct Buffers(Arc<Shelves>);

impl core::fmt::Debug for Buffers {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Buffers")
            .field("kept_bytes", &self.kept_bytes())
            .finish()
    }
}

/// The buffers no array holds, by type, and their bytes.
#[derive(Default)]
struct Shelves {
    free: Mutex<Free>,
}

#[derive(Default)]
pub(crate) struct Free {
    i64: VecDeque<Vec<i64>>,
    i32: VecDeque<Vec<i32>>,
    i16: VecDeque<Vec<i16>>,
    i8: VecDeque<Vec<i8>>,
    f64: VecDeque<Vec<f64>>,
    u8: VecDeque<Vec<u8>>,
    u32: VecDeque<Vec<u32>>,
    /// The bytes of the buffers above (their capacities).
    bytes: usize,
}

/// A native type whose buffers the pool keeps.
pub(crate) trait Kept: ArrowNativeType {
    fn shelf(free: &mut Free) -> &mut VecDeque<Vec<Self>>;
}

macro_rules! kept {
    ($($t:ty => $field:ident),*) => {$(
        impl Kept for $t {
            fn shelf(free: &mut Free) -> &mut VecDeque<Vec<$t>> {
                &mut free.$field
            }
        }
    )*};
}
kept!(i64 => i64, i32 => i32, i16 => i16, i8 => i8, f64 => f64, u8 => u8, u32 => u32);

/// A `Vec` an Arrow buffer holds, back to its pool when the buffer goes (if the pool is still
/// there: an array that outlives its scan does not keep the scan's pool).
struct Lent<T: Kept> {
    values: Vec<T>,
    home: Weak<Shelves>,
}

impl<T: Kept> AsRef<[u8]> for Lent<T> {
    fn as_ref(&self) -> &[u8] {
        self.values.to_byte_slice()
    }
}

impl<T: Kept> Drop for Lent<T> {
    fn drop(&mut self) {
        if let Some(home) = self.home.upgrade() {
            Buffers(home).give_back(std::mem::take(&mut self.values));
        }
    }
}

impl Buffers {
    /// The most bytes of buffers kept while no array holds them (16 MiB): about twenty
    /// batches of 8,192 rows of the twelve bitboards.
    pub const MAX_KEPT: usize = 16 << 20;

    /// The most buffers of one type kept (64): the oldest goes first.
    pub const MAX_SHELVED: usize = 64;

    /// The fewest bytes of a buffer kept (4 KiB): smaller ones are the allocator's.
    pub const MIN_KEPT: usize = 4 << 10;

    /// The bytes of the buffers kept that no array holds.
    pub fn kept_bytes(&self) -> usize {
        self.free().bytes
    }

    fn free(&self) -> std::sync::MutexGuard<'_, Free> {
        // a panic while the lock was held left the lists whole (each step a push or a pop)
        self.0.free.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// An empty `Vec` with room for `n` values, `n` rounded up to its [`size_class`]: one the
    /// pool kept, the smallest with room for that and for no more than twice as many (the
    /// last given back of those), else a new one. A column of 8,192 numbers does not take the
    /// buffer of 8,192 rows of twelve bitboards, nor a buffer grow from batch to batch; and
    /// batches of about as many rows (a batch ends after the game that fills it) ask for
    /// buffers of one size.
    pub(crate) fn vec<T: Kept>(&self, n: usize) -> Vec<T> {
        let n = size_class(n);
        let kept = {
            let mut free = self.free();
            let shelf = T::shelf(&mut free);
            let best = shelf
                .iter()
                .enumerate()
                .filter(|(_, v)| (n..=2 * n).contains(&v.capacity()))
                .min_by_key(|&(i, v)| (v.capacity(), usize::MAX - i))
                .map(|(i, _)| i);
            let v = best.and_then(|i| shelf.remove(i));
            if let Some(v) = &v {
                free.bytes -= v.capacity() * size_of::<T>();
            }
            v
        };
        kept.unwrap_or_else(|| Vec::with_capacity(n))
    }

    /// `values` as an Arrow buffer, given back to the pool when the last array holding it is
    /// dropped; `values` copied into a `Vec` of their size first when they fill less than a
    /// quarter of it (the large one kept at once). A batch in a buffer the pool lent (room for
    /// up to twice what was asked), or made with a quarter more room than the batch before, is
    /// not copied.
    pub(crate) fn buffer<T: Kept>(&self, mut values: Vec<T>) -> ScalarBuffer<T> {
        if values.capacity() == 0 {
            return ScalarBuffer::from(values);
        }
        let bytes = values.capacity() * size_of::<T>();
        if values.capacity() > 4 * size_class(values.len()) && bytes >= 2 * Self::MIN_KEPT {
            // a batch of few rows in a buffer made for many: its values copied out, the buffer
            // kept for a batch to come
            let fitted = values.to_vec();
            self.give_back(std::mem::replace(&mut values, fitted));
        }
        let lent = Lent {
            values,
            home: Arc::downgrade(&self.0),
        };
        // a Vec<T>'s bytes are aligned for T, and as many as its values times T's size: the
        // buffer holds them whole
        ScalarBuffer::from(Buffer::from(bytes::Bytes::from_owner(lent)))
    }

    /// Keeps `values` (emptied) for a batch to come: past [`MAX_KEPT`](Self::MAX_KEPT) bytes
    /// or [`MAX_SHELVED`](Self::MAX_SHELVED) buffers, the buffers of its type kept longest
    /// are freed to make room; when freeing them all would not make room, `values` is freed
    /// instead, and so is a buffer of less than [`MIN_KEPT`](Self::MIN_KEPT) bytes.
    fn give_back<T: Kept>(&self, mut values: Vec<T>) {
        let size = values.capacity() * size_of::<T>();
        if !(Self::MIN_KEPT..=Self::MAX_KEPT).contains(&size) {
            return;
        }
        let mut free = self.free();
        let own: usize = T::shelf(&mut free)
            .iter()
            .map(|v| v.capacity() * size_of::<T>())
            .sum();
        if free.bytes - own + size > Self::MAX_KEPT {
            return;
        }
        while free.bytes + size > Self::MAX_KEPT || T::shelf(&mut free).len() >= Self::MAX_SHELVED {
            let old = T::shelf(&mut free)
                .pop_front()
                .expect("room made by its own type");
            free.bytes -= old.capacity() * size_of::<T>();
        }
        values.clear();
        free.bytes += size;
        T::shelf(&mut free).push_back(values);
    }

    /// The batches `parts` (of `schema`) as one, as [`arrow_select::concat::concat_batches`]
    /// makes it: the columns of numbers without nulls, the lists of such numbers (the
    /// `bitboards`) and the binary values without nulls (the Go `board`) copied into buffers
    /// of the pool, the others by Arrow.
    ///
    /// # Errors
    ///
    /// Those of Arrow's: parts whose columns do not match the schema.
    pub fn concat_batches(
        &self,
        schema: &SchemaRef,
        parts: &[RecordBatch],
    ) -> Result<RecordBatch, ArrowError> {
        match parts {
            [] => return Ok(RecordBatch::new_empty(schema.clone())),
            [one] => return one.clone().with_schema(schema.clone()),
            _ => {}
        }
        if parts
            .iter()
            .any(|b| b.num_columns() != schema.fields().len())
        {
            return arrow_select::concat::concat_batches(schema, parts);
        }
        let rows = parts.iter().map(RecordBatch::num_rows).sum();
        let columns = (0..schema.fields().len())
            .map(|i| {
                let arrays: Vec<&dyn Array> = parts.iter().map(|b| b.column(i).as_ref()).collect();
                self.concat(&arrays)
            })
            .collect::<Result<Vec<_>, _>>()?;
        let options = arrow_array::RecordBatchOptions::new().with_row_count(Some(rows));
        RecordBatch::try_new_with_options(schema.clone(), columns, &options)
    }

    /// One array of `arrays` (of one type), in order.
    fn concat(&self, arrays: &[&dyn Array]) -> Result<ArrayRef, ArrowError> {
        let Some(first) = arrays.first() else {
            return arrow_select::concat::concat(arrays);
        };
        if arrays
            .iter()
            .any(|a| a.null_count() > 0 || a.data_type() != first.data_type())
        {
            return arrow_select::concat::concat(arrays);
        }
        Ok(match first.data_type() {
            DataType::Int64 => self.numbers::<Int64Type>(arrays),
            DataType::Int32 => self.numbers::<Int32Type>(arrays),
            DataType::Int16 => self.numbers::<Int16Type>(arrays),
            DataType::Int8 => self.numbers::<Int8Type>(arrays),
            DataType::Float64 => self.numbers::<Float64Type>(arrays),
            DataType::UInt8 => self.numbers::<UInt8Type>(arrays),
            DataType::UInt32 => self.numbers::<UInt32Type>(arrays),
            DataType::List(field) if field.data_type().is_primitive() => {
                let values = arrays
                    .iter()
                    .map(|a| {
                        let l = a.as_list::<i32>();
                        let o = l.value_offsets();
                        let (start, end) = (o[0] as usize, o[o.len() - 1] as usize);
                        l.values().slice(start, end - start)
                    })
                    .collect::<Vec<_>>();
                let values: Vec<&dyn Array> = values.iter().map(|v| v.as_ref()).collect();
                let Some(offsets) =
                    joined_offsets(arrays.iter().map(|a| a.as_list::<i32>().offsets()))
                else {
                    return arrow_select::concat::concat(arrays);
                };
                let values = self.concat(&values)?;
                Arc::new(ListArray::try_new(field.clone(), offsets, values, None)?)
            }
            DataType::Binary => {
                let Some(offsets) =
                    joined_offsets(arrays.iter().map(|a| a.as_binary::<i32>().offsets()))
                else {
                    return arrow_select::concat::concat(arrays);
                };
                let total = arrays
                    .iter()
                    .map(|a| {
                        let o = a.as_binary::<i32>().value_offsets();
                        (o[o.len() - 1] - o[0]) as usize
                    })
                    .sum();
                let mut values = self.vec::<u8>(total);
                for a in arrays {
                    let b = a.as_binary::<i32>();
                    let o = b.value_offsets();
                    values.extend_from_slice(&b.values()[o[0] as usize..o[o.len() - 1] as usize]);
                }
                let values = self.buffer(values).into_inner();
                Arc::new(BinaryArray::try_new(offsets, values, None)?)
            }
            _ => return arrow_select::concat::concat(arrays),
        })
    }

    /// Arrays of numbers without nulls, as one in a buffer of the pool.
    fn numbers<A>(&self, arrays: &[&dyn Array]) -> ArrayRef
    where
        A: ArrowPrimitiveType,
        A::Native: Kept,
    {
        let n = arrays.iter().map(|a| a.len()).sum();
        let mut values = self.vec::<A::Native>(n);
        for a in arrays {
            values.extend_from_slice(a.as_primitive::<A>().values());
        }
        let buffer = self.buffer(values);
        Arc::new(
            PrimitiveArray::<A>::new(buffer, None).with_data_type(arrays[0].data_type().clone()),
        )
    }
}

/// `n` (at least 1) rounded up to a multiple of an eighth of the power of two at or above it:
/// at most an eighth more room, and requests a few percent apart the same size.
fn size_class(n: usize) -> usize {
    let n = n.max(1);
    let step = (n.next_power_of_two() / 8).max(1);
    n.div_ceil(step) * step
}

/// The offsets of lists or binary values one after the other: each array's own, from where
/// the values of those before it end; `None` past `i32::MAX` values in all.
fn joined_offsets<'a>(
    parts: impl Iterator<Item = &'a OffsetBuffer<i32>>,
) -> Option<OffsetBuffer<i32>> {
    let mut out: Vec<i32> = vec![0];
    for o in parts {
        let base = *out.last().expect("one at least");
        let first = o[0];
        base.checked_add(o[o.len() - 1] - first)?;
        out.extend(o.iter().skip(1).map(|&v| base + (v - first)));
    }
    // from 0, each offset at least the one before it (each part's are), none past i32::MAX:
    // valid
    Some(OffsetBuffer::new(ScalarBuffer::from(out)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::{Int32Array, Int64Array, StringArray};
    use arrow_schema::{Field, Schema};

    fn bitboard_batch(schema: &SchemaRef, rows: std::ops::Range<i64>) -> RecordBatch {
        let n = rows.end - rows.start;
        let values: Vec<i64> = rows
            .clone()
            .flat_map(|r| (0..12).map(move |k| r * 100 + k))
            .collect();
        let DataType::List(item) = schema.field(1).data_type() else {
            unreachable!()
        };
        let list = ListArray::new(
            item.clone(),
            OffsetBuffer::from_repeated_length(12, n as usize),
            Arc::new(Int64Array::from(values)),
            None,
        );
        let text: StringArray = rows.clone().map(|r| Some(format!("r{r}"))).collect();
        let maybe: Int32Array = rows
            .clone()
            .map(|r| (r % 3 != 0).then_some(r as i32))
            .collect();
        let columns: Vec<ArrayRef> = vec![
            Arc::new(Int64Array::from_iter_values(rows)),
            Arc::new(list),
            Arc::new(text),
            Arc::new(maybe),
        ];
        RecordBatch::try_new(schema.clone(), columns).unwrap()
    }

    #[test]
    fn concat_equals_arrows_on_slices_and_gives_its_buffers_back() {
        let schema = Arc::new(Schema::new(vec![
            Field::new("n", DataType::Int64, false),
            Field::new(
                "bitboards",
                DataType::new_list(DataType::Int64, false),
                false,
            ),
            Field::new("t", DataType::Utf8, false),
            Field::new("maybe", DataType::Int32, true),
        ]));
        let a = bitboard_batch(&schema, 0..600);
        let b = bitboard_batch(&schema, 600..1500);
        let parts = [a.slice(30, 500), b.slice(0, 200), b.slice(250, 600)];
        let pool = Buffers::default();
        let ours = pool.concat_batches(&schema, &parts).unwrap();
        let arrows = arrow_select::concat::concat_batches(&schema, &parts).unwrap();
        assert_eq!(ours, arrows);
        assert_eq!(pool.kept_bytes(), 0);
        let rows = ours.num_rows();
        let lent = (size_class(rows) + size_class(12 * rows)) * 8;
        drop(ours);
        assert_eq!(pool.kept_bytes(), lent);
        // taken again: the pool gives them back first
        let again = pool.concat_batches(&schema, &parts).unwrap();
        assert_eq!(again, arrows);
        assert_eq!(pool.kept_bytes(), 0);
        // one part, none, parts of another schema: as Arrow's
        assert_eq!(pool.concat_batches(&schema, &parts[..1]).unwrap(), parts[0]);
        assert_eq!(pool.concat_batches(&schema, &[]).unwrap().num_rows(), 0);
        let other = Arc::new(Schema::new(vec![Field::new("n", DataType::Int32, false)]));
        let wrong = RecordBatch::try_new(other, vec![Arc::new(Int32Array::from(vec![1]))]).unwrap();
        assert!(pool.concat_batches(&schema, &[a.clone(), wrong]).is_err());
    }

    #[test]
    fn size_classes() {
        let classes: Vec<usize> = [
            0, 1, 7, 9, 100, 8192, 98_304, 3_761_620, 3_786_890, 3_806_023,
        ]
        .map(size_class)
        .to_vec();
        assert_eq!(
            classes,
            [
                1, 1, 7, 10, 112, 8192, 98_304, 4_194_304, 4_194_304, 4_194_304
            ]
        );
    }

    #[test]
    fn binary_values_and_the_limits() {
        let pool = Buffers::default();
        let big = |n: usize, b: u8| vec![b; n];
        let parts: Vec<BinaryArray> = vec![
            BinaryArray::from_iter_values((0..5u8).map(|b| big(1000, b))).slice(1, 3),
            BinaryArray::from_iter_values([big(1000, 7), big(2000, 8)]),
        ];
        let arrays: Vec<&dyn Array> = parts.iter().map(|p| p as &dyn Array).collect();
        let ours = pool.concat(&arrays).unwrap();
        assert_eq!(&ours, &arrow_select::concat::concat(&arrays).unwrap());
        drop(ours);
        assert_eq!(pool.kept_bytes(), 6144, "6,000 bytes, in their class");
        // taken for 4,096 to 6,144 values, not for 2 nor for 13,000
        assert_eq!(pool.vec::<u8>(2).capacity(), 2);
        assert_eq!(pool.vec::<u8>(13_000).capacity(), 14_336);
        let v = pool.vec::<u8>(4000);
        assert_eq!((v.len(), v.capacity(), pool.kept_bytes()), (0, 6144, 0));
        drop(pool.buffer(v));
        assert_eq!(pool.kept_bytes(), 6144);
        // too small to keep, too large to keep
        drop(pool.buffer(vec![1u8; 100]));
        drop(pool.buffer(vec![1u8; Buffers::MAX_KEPT + 1]));
        assert_eq!(pool.kept_bytes(), 6144);
        // past the limit: the oldest of the type freed to make room
        drop(pool.buffer(vec![1u8; Buffers::MAX_KEPT - 4096]));
        assert_eq!(pool.kept_bytes(), Buffers::MAX_KEPT - 4096);
        // another type's buffer that would need them freed: freed itself
        drop(pool.buffer(vec![1i64; 1024]));
        assert_eq!(pool.kept_bytes(), Buffers::MAX_KEPT - 4096);
        assert_eq!(
            pool.vec::<u8>(5000).capacity(),
            5120,
            "the 6,144 were freed"
        );
    }

    #[test]
    fn a_few_rows_in_a_large_buffer_are_copied_out() {
        let pool = Buffers::default();
        let mut v: Vec<i64> = Vec::with_capacity(100_000);
        v.extend(0..10);
        let b = pool.buffer(v);
        assert_eq!(&b[..], &(0..10).collect::<Vec<i64>>()[..]);
        assert_eq!(pool.kept_bytes(), 800_000, "the large one kept at once");
        drop(b);
        assert_eq!(pool.kept_bytes(), 800_000, "the copy too small to keep");
        // at most 64 of a type
        let pool = Buffers::default();
        for _ in 0..70 {
            drop(pool.buffer(vec![0i32; 1024]));
        }
        assert_eq!(pool.kept_bytes(), Buffers::MAX_SHELVED * 4096);
        // a buffer that outlives its pool is freed, not kept
        let b = pool.buffer(vec![1i64; 1024]);
        drop(pool);
        drop(b);
    }
}
