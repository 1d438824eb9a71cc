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
//! The pool holds at most [`Buffers::MAX_KEPT`] bytes of buffers no array holds; one past that
//! is freed. A consumer that keeps its batches keeps their buffers out of the pool: the pool
//! then makes new ones, as the allocator would.

use std::sync::{Arc, Mutex};

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
/// let part = |v: Vec<i64>| {
///     RecordBatch::try_new(schema.clone(), vec![Arc::new(Int64Array::from(v))]).unwrap()
/// };
/// let one = pool.concat_batches(&schema, &[part(vec![1, 2]), part(vec![3])]).unwrap();
/// assert_eq!(one.column(0).as_ref(), &Int64Array::from(vec![1, 2, 3]) as &dyn Array);
/// assert_eq!(pool.kept_bytes(), 0);
/// drop(one); // its buffer goes back to the pool
/// assert_eq!(pool.kept_bytes(), 3 * 8);
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
    i64: Vec<Vec<i64>>,
    i32: Vec<Vec<i32>>,
    i16: Vec<Vec<i16>>,
    i8: Vec<Vec<i8>>,
    f64: Vec<Vec<f64>>,
    u8: Vec<Vec<u8>>,
    u32: Vec<Vec<u32>>,
    /// The bytes of the buffers above (their capacities).
    bytes: usize,
}

/// A native type whose buffers the pool keeps.
pub(crate) trait Kept: ArrowNativeType {
    fn shelf(free: &mut Free) -> &mut Vec<Vec<Self>>;
}

macro_rules! kept {
    ($($t:ty => $field:ident),*) => {$(
        impl Kept for $t {
            fn shelf(free: &mut Free) -> &mut Vec<Vec<$t>> {
                &mut free.$field
            }
        }
    )*};
}
kept!(i64 => i64, i32 => i32, i16 => i16, i8 => i8, f64 => f64, u8 => u8, u32 => u32);

/// A `Vec` an Arrow buffer holds, back to its pool when the buffer goes.
struct Lent<T: Kept> {
    values: Vec<T>,
    home: Buffers,
}

impl<T: Kept> AsRef<[u8]> for Lent<T> {
    fn as_ref(&self) -> &[u8] {
        self.values.to_byte_slice()
    }
}

impl<T: Kept> Drop for Lent<T> {
    fn drop(&mut self) {
        self.home.give_back(std::mem::take(&mut self.values));
    }
}

impl Buffers {
    /// The most bytes of buffers kept while no array holds them (16 MiB): about twenty
    /// batches of 8,192 rows of the twelve bitboards.
    pub const MAX_KEPT: usize = 16 << 20;

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
            let v = best.map(|i| shelf.remove(i));
            if let Some(v) = &v {
                free.bytes -= v.capacity() * size_of::<T>();
            }
            v
        };
        kept.unwrap_or_else(|| Vec::with_capacity(n))
    }

    /// `values` as an Arrow buffer, given back to the pool when the last array holding it is
    /// dropped.
    pub(crate) fn buffer<T: Kept>(&self, values: Vec<T>) -> ScalarBuffer<T> {
        if values.capacity() == 0 {
            return ScalarBuffer::from(values);
        }
        let lent = Lent {
            values,
            home: self.clone(),
        };
        // a Vec<T>'s bytes are aligned for T, and as many as its values times T's size: the
        // buffer holds them whole
        ScalarBuffer::from(Buffer::from(bytes::Bytes::from_owner(lent)))
    }

    /// Keeps `values` (emptied) for a batch to come; past [`MAX_KEPT`](Self::MAX_KEPT), the
    /// buffers of its type kept longest are freed first to make room.
    fn give_back<T: Kept>(&self, mut values: Vec<T>) {
        let size = values.capacity() * size_of::<T>();
        if size == 0 || size > Self::MAX_KEPT {
            return;
        }
        let mut free = self.free();
        while free.bytes + size > Self::MAX_KEPT {
            let shelf = T::shelf(&mut free);
            if shelf.is_empty() {
                return;
            }
            let old = shelf.remove(0);
            free.bytes -= old.capacity() * size_of::<T>();
        }
        values.clear();
        free.bytes += size;
        T::shelf(&mut free).push(values);
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
        if parts.len() == 1 {
            return Ok(parts[0].clone());
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
        if arrays.iter().any(|a| a.null_count() > 0) {
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
                let values = self.concat(&values)?;
                let offsets = joined_offsets(arrays.iter().map(|a| a.as_list::<i32>().offsets()));
                Arc::new(ListArray::try_new(field.clone(), offsets, values, None)?)
            }
            DataType::Binary => {
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
                let offsets = joined_offsets(arrays.iter().map(|a| a.as_binary::<i32>().offsets()));
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
/// the values of those before it end.
fn joined_offsets<'a>(parts: impl Iterator<Item = &'a OffsetBuffer<i32>>) -> OffsetBuffer<i32> {
    let mut out: Vec<i32> = vec![0];
    for o in parts {
        let base = *out.last().expect("one at least");
        let first = o[0];
        out.extend(o.iter().skip(1).map(|&v| base + (v - first)));
    }
    // from 0, each offset at least the one before it (each part's are): valid
    OffsetBuffer::new(ScalarBuffer::from(out))
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
        let a = bitboard_batch(&schema, 0..10);
        let b = bitboard_batch(&schema, 10..25);
        let parts = [a.slice(3, 7), b.slice(0, 4), b.slice(6, 9)];
        let pool = Buffers::default();
        let ours = pool.concat_batches(&schema, &parts).unwrap();
        let arrows = arrow_select::concat::concat_batches(&schema, &parts).unwrap();
        assert_eq!(ours, arrows);
        assert_eq!(pool.kept_bytes(), 0);
        let rows = ours.num_rows();
        let lent = (size_class(rows) + size_class(12 * rows)) * 8;
        drop(ours);
        assert_eq!(pool.kept_bytes(), lent);
        // taken again: the pool gives the last one back first
        let again = pool.concat_batches(&schema, &parts).unwrap();
        assert_eq!(again, arrows);
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
    fn binary_values_and_the_limit() {
        let pool = Buffers::default();
        let parts: Vec<BinaryArray> = vec![
            BinaryArray::from_iter_values([b"ab".as_slice(), b"", b"cde"]).slice(1, 2),
            BinaryArray::from_iter_values([b"x".as_slice(), b"yz"]),
        ];
        let arrays: Vec<&dyn Array> = parts.iter().map(|p| p as &dyn Array).collect();
        let ours = pool.concat(&arrays).unwrap();
        assert_eq!(&ours, &arrow_select::concat::concat(&arrays).unwrap());
        drop(ours);
        assert_eq!(pool.kept_bytes(), 6);
        // taken for a column of 4 to 6 values, not for one of 2 (nor of 13: 14, its class)
        assert_eq!(pool.vec::<u8>(2).capacity(), 2);
        assert_eq!(pool.vec::<u8>(13).capacity(), 14);
        let v = pool.vec::<u8>(4);
        assert_eq!((v.len(), v.capacity(), pool.kept_bytes()), (0, 6, 0));
        drop(pool.buffer(v));
        assert_eq!(pool.kept_bytes(), 6);
        // past the limit: the oldest of the type freed to make room, else the one given back
        drop(pool.buffer(Vec::<i64>::with_capacity(Buffers::MAX_KEPT / 8)));
        assert_eq!(pool.kept_bytes(), 6);
        drop(pool.buffer(Vec::<u8>::with_capacity(Buffers::MAX_KEPT + 1)));
        assert_eq!(pool.kept_bytes(), 6);
        drop(pool.buffer(Vec::<u8>::with_capacity(Buffers::MAX_KEPT)));
        assert_eq!(pool.kept_bytes(), Buffers::MAX_KEPT);
        assert_eq!(pool.vec::<u8>(5).capacity(), 5, "the 6 were freed");
    }
}
