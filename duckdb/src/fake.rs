//! A stand-in for DuckDB's vectors, for the unit tests of [`crate::vector`]: the C API functions
//! that module calls, implemented over plain Rust vectors and installed as the extension's C
//! API table (`duckdb_rs_extension_api_init`, as DuckDB installs its own when it loads the
//! extension). So the writes are tested with `cargo test -p kifu-duckdb`, with no DuckDB, no
//! Python and no PyPI; the pytest suite (duckdb/tests) checks the same tables in DuckDB itself.
//!
//! A fake vector keeps what DuckDB's keeps for the calls made: its type id, its data (fixed-width
//! values, or a LIST's entries), a validity mask, the strings assigned, its children (a
//! STRUCT's fields, a LIST's or MAP's child) and a list's size. [`Value`] reads a row back.

use std::ffi::{c_char, c_void};
use std::sync::{Once, OnceLock};

use arrow_schema::{DataType, TimeUnit};
use duckdb::core::LogicalTypeId as Id;
use duckdb::ffi;

/// A fake DuckDB vector.
#[derive(Debug)]
pub struct Fake {
    id: Id,
    /// Bytes per value in `data` (a LIST's entry: 16).
    width: usize,
    capacity: usize,
    data: Vec<u64>,
    /// `None` until `duckdb_vector_ensure_validity_writable`, as in DuckDB (all rows valid).
    validity: Option<Vec<u64>>,
    strings: Vec<Option<Vec<u8>>>,
    children: Vec<Fake>,
    list_size: usize,
}

/// A row of a fake vector, read back.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// A NULL.
    Null,
    /// A BOOLEAN.
    Bool(bool),
    /// An integer of any width (DATE as its days, TIME and TIMESTAMP as their microseconds).
    Int(i128),
    /// A FLOAT or DOUBLE.
    Float(f64),
    /// A VARCHAR or BLOB.
    Bytes(Vec<u8>),
    /// A LIST or MAP.
    List(Vec<Value>),
    /// A STRUCT.
    Struct(Vec<Value>),
}

impl Fake {
    /// A vector of DuckDB's type for `data_type` (as `vector::logical_type` gives it) with room
    /// for `capacity` rows.
    pub fn new(data_type: &DataType, capacity: usize) -> Box<Fake> {
        let (id, width, children) = match data_type {
            DataType::Boolean => (Id::Boolean, 1, vec![]),
            DataType::Int8 => (Id::Tinyint, 1, vec![]),
            DataType::Int16 => (Id::Smallint, 2, vec![]),
            DataType::Int32 => (Id::Integer, 4, vec![]),
            DataType::Int64 => (Id::Bigint, 8, vec![]),
            DataType::UInt8 => (Id::UTinyint, 1, vec![]),
            DataType::UInt16 => (Id::USmallint, 2, vec![]),
            DataType::UInt32 => (Id::UInteger, 4, vec![]),
            DataType::UInt64 => (Id::UBigint, 8, vec![]),
            DataType::Float32 => (Id::Float, 4, vec![]),
            DataType::Float64 => (Id::Double, 8, vec![]),
            DataType::Date32 | DataType::Date64 => (Id::Date, 4, vec![]),
            DataType::Time64(_) => (Id::Time, 8, vec![]),
            DataType::Timestamp(_, Some(_)) => (Id::TimestampTZ, 8, vec![]),
            DataType::Timestamp(TimeUnit::Nanosecond, None) => (Id::TimestampNs, 8, vec![]),
            DataType::Timestamp(_, None) => (Id::Timestamp, 8, vec![]),
            DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View => (Id::Varchar, 16, vec![]),
            DataType::Binary | DataType::LargeBinary | DataType::BinaryView => {
                (Id::Blob, 16, vec![])
            }
            DataType::Dictionary(_, value) => return Fake::new(value, capacity),
            DataType::List(item) | DataType::LargeList(item) => {
                (Id::List, 16, vec![*Fake::new(item.data_type(), 0)])
            }
            DataType::Map(entries, _) => (Id::Map, 16, vec![*Fake::new(entries.data_type(), 0)]),
            DataType::Struct(fields) => (
                Id::Struct,
                0,
                fields
                    .iter()
                    .map(|f| *Fake::new(f.data_type(), capacity))
                    .collect(),
            ),
            other => panic!("no fake vector of {other}"),
        };
        let mut fake = Box::new(Fake {
            id,
            width,
            capacity: 0,
            data: Vec::new(),
            validity: None,
            strings: Vec::new(),
            children,
            list_size: 0,
        });
        fake.grow(capacity);
        fake
    }

    /// Room for `capacity` rows (a list's child grows so, keeping its rows).
    fn grow(&mut self, capacity: usize) {
        if capacity <= self.capacity {
            return;
        }
        self.capacity = capacity;
        self.data.resize((capacity * self.width).div_ceil(8), 0);
        self.strings.resize(capacity, None);
        if let Some(v) = &mut self.validity {
            v.resize(capacity.div_ceil(64), u64::MAX);
        }
        if self.id == Id::Struct {
            for c in &mut self.children {
                c.grow(capacity);
            }
        }
    }

    /// The vector as the C API hands it.
    pub fn raw(&mut self) -> ffi::duckdb_vector {
        (self as *mut Fake).cast()
    }

    /// Rows `0..n`, read back.
    pub fn rows(&self, n: usize) -> Vec<Value> {
        (0..n).map(|i| self.value(i)).collect()
    }

    /// Row `i`, read back.
    pub fn value(&self, i: usize) -> Value {
        assert!(
            i < self.capacity,
            "row {i} of a vector of {}",
            self.capacity
        );
        if let Some(v) = &self.validity
            && v[i / 64] & (1 << (i % 64)) == 0
        {
            return Value::Null;
        }
        let bytes: &[u8] = bytemuck_bytes(&self.data);
        let at = &bytes[i * self.width..(i + 1) * self.width];
        let int = |signed: bool| {
            let mut b = [0u8; 16];
            b[..at.len()].copy_from_slice(at);
            if signed && at[at.len() - 1] & 0x80 != 0 {
                b[at.len()..].fill(0xff);
            }
            Value::Int(i128::from_le_bytes(b))
        };
        match self.id {
            Id::Boolean => Value::Bool(at[0] != 0),
            Id::Tinyint | Id::Smallint | Id::Integer | Id::Bigint | Id::Date | Id::Time => {
                int(true)
            }
            Id::Timestamp | Id::TimestampTZ | Id::TimestampNs => int(true),
            Id::UTinyint | Id::USmallint | Id::UInteger | Id::UBigint => int(false),
            Id::Float => Value::Float(f64::from(f32::from_le_bytes(at.try_into().unwrap()))),
            Id::Double => Value::Float(f64::from_le_bytes(at.try_into().unwrap())),
            Id::Varchar | Id::Blob => Value::Bytes(
                self.strings[i]
                    .clone()
                    .expect("a valid string row is assigned"),
            ),
            Id::List | Id::Map => {
                let offset = u64::from_le_bytes(at[..8].try_into().unwrap()) as usize;
                let length = u64::from_le_bytes(at[8..].try_into().unwrap()) as usize;
                assert!(
                    offset + length <= self.list_size,
                    "an entry past the list's size"
                );
                let child = &self.children[0];
                Value::List((offset..offset + length).map(|j| child.value(j)).collect())
            }
            Id::Struct => Value::Struct(self.children.iter().map(|c| c.value(i)).collect()),
            other => panic!("no fake values of {other:?}"),
        }
    }

    /// Child `k` (a STRUCT's field, a LIST's values).
    pub fn child(&self, k: usize) -> &Fake {
        &self.children[k]
    }

    /// Whether a string was assigned to row `i`.
    pub fn is_assigned(&self, i: usize) -> bool {
        self.strings[i].is_some()
    }

    /// The values of a list vector's child (its size), read back.
    pub fn list_child(&self) -> Vec<Value> {
        self.children[0].rows(self.list_size)
    }
}

fn bytemuck_bytes(words: &[u64]) -> &[u8] {
    // SAFETY: a `u64` slice seen as its bytes: same memory, 8 times as many `u8`s, any bit
    // pattern valid, alignment of `u8` 1.
    unsafe { std::slice::from_raw_parts(words.as_ptr().cast(), words.len() * 8) }
}

/// The fake vector behind a raw vector.
///
/// # Safety
///
/// `v` is a [`Fake::raw`] of a live fake, used by this thread alone.
unsafe fn fake<'a>(v: ffi::duckdb_vector) -> &'a mut Fake {
    // SAFETY: the caller's contract.
    unsafe { &mut *v.cast::<Fake>() }
}

unsafe extern "C" fn get_column_type(v: ffi::duckdb_vector) -> ffi::duckdb_logical_type {
    // SAFETY: DuckDB's contract, a live vector: here a fake's.
    let id = unsafe { fake(v) }.id as usize;
    // a "logical type" that is its id (never 0: INVALID is no vector's type)
    id as ffi::duckdb_logical_type
}

unsafe extern "C" fn get_type_id(ty: ffi::duckdb_logical_type) -> ffi::duckdb_type {
    ty as usize as ffi::duckdb_type
}

unsafe extern "C" fn destroy_logical_type(ty: *mut ffi::duckdb_logical_type) {
    // SAFETY: a pointer to a logical type the caller owns.
    unsafe { *ty = std::ptr::null_mut() };
}

unsafe extern "C" fn get_data(v: ffi::duckdb_vector) -> *mut c_void {
    // SAFETY: a fake's raw vector.
    unsafe { fake(v) }.data.as_mut_ptr().cast()
}

unsafe extern "C" fn get_validity(v: ffi::duckdb_vector) -> *mut u64 {
    // SAFETY: a fake's raw vector.
    match &mut unsafe { fake(v) }.validity {
        Some(mask) => mask.as_mut_ptr(),
        None => std::ptr::null_mut(),
    }
}

unsafe extern "C" fn ensure_validity_writable(v: ffi::duckdb_vector) {
    // SAFETY: a fake's raw vector.
    let f = unsafe { fake(v) };
    if f.validity.is_none() {
        f.validity = Some(vec![u64::MAX; f.capacity.div_ceil(64).max(1)]);
    }
}

unsafe extern "C" fn set_row_invalid(validity: *mut u64, row: ffi::idx_t) {
    let row = row as usize;
    // SAFETY: a mask of `get_validity`, which covers the row (the caller's contract).
    unsafe { *validity.add(row / 64) &= !(1u64 << (row % 64)) };
}

unsafe extern "C" fn assign_string(
    v: ffi::duckdb_vector,
    index: ffi::idx_t,
    s: *const c_char,
    len: ffi::idx_t,
) {
    // SAFETY: a fake's raw vector.
    let f = unsafe { fake(v) };
    assert!(
        matches!(f.id, Id::Varchar | Id::Blob),
        "a string into {:?}",
        f.id
    );
    // SAFETY: `len` bytes at `s` (the caller's contract); copied, as DuckDB copies them.
    let bytes = unsafe { std::slice::from_raw_parts(s.cast::<u8>(), len as usize) };
    f.strings[index as usize] = Some(bytes.to_vec());
}

unsafe extern "C" fn list_get_size(v: ffi::duckdb_vector) -> ffi::idx_t {
    // SAFETY: a fake's raw vector.
    unsafe { fake(v) }.list_size as ffi::idx_t
}

unsafe extern "C" fn list_reserve(v: ffi::duckdb_vector, n: ffi::idx_t) -> ffi::duckdb_state {
    // SAFETY: a fake's raw vector.
    unsafe { fake(v) }.children[0].grow(n as usize);
    ffi::DuckDBSuccess
}

unsafe extern "C" fn list_set_size(v: ffi::duckdb_vector, n: ffi::idx_t) -> ffi::duckdb_state {
    // SAFETY: a fake's raw vector.
    let f = unsafe { fake(v) };
    assert!(
        n as usize <= f.children[0].capacity,
        "a size past the reserve"
    );
    f.list_size = n as usize;
    ffi::DuckDBSuccess
}

unsafe extern "C" fn list_get_child(v: ffi::duckdb_vector) -> ffi::duckdb_vector {
    // SAFETY: a fake's raw vector.
    unsafe { fake(v) }.children[0].raw()
}

unsafe extern "C" fn struct_get_child(v: ffi::duckdb_vector, k: ffi::idx_t) -> ffi::duckdb_vector {
    // SAFETY: a fake's raw vector.
    let f = unsafe { fake(v) };
    assert_eq!(f.id, Id::Struct);
    f.children[k as usize].raw()
}

unsafe extern "C" fn get_api(_: ffi::duckdb_extension_info, _: *const c_char) -> *const c_void {
    static API: OnceLock<ffi::duckdb_ext_api_v1> = OnceLock::new();
    let api = API.get_or_init(|| {
        // SAFETY: every field of the table is an `Option` of a function pointer, for which all
        // zeros is `None`.
        let mut api: ffi::duckdb_ext_api_v1 = unsafe { std::mem::zeroed() };
        api.duckdb_vector_get_column_type = Some(get_column_type);
        api.duckdb_get_type_id = Some(get_type_id);
        api.duckdb_destroy_logical_type = Some(destroy_logical_type);
        api.duckdb_vector_get_data = Some(get_data);
        api.duckdb_vector_get_validity = Some(get_validity);
        api.duckdb_vector_ensure_validity_writable = Some(ensure_validity_writable);
        api.duckdb_validity_set_row_invalid = Some(set_row_invalid);
        api.duckdb_vector_assign_string_element_len = Some(assign_string);
        api.duckdb_list_vector_get_size = Some(list_get_size);
        api.duckdb_list_vector_reserve = Some(list_reserve);
        api.duckdb_list_vector_set_size = Some(list_set_size);
        api.duckdb_list_vector_get_child = Some(list_get_child);
        api.duckdb_struct_vector_get_child = Some(struct_get_child);
        api
    });
    (api as *const ffi::duckdb_ext_api_v1).cast()
}

/// Installs the fake functions as the C API (once; every test may call it).
pub fn install() {
    static INSTALLED: Once = Once::new();
    INSTALLED.call_once(|| {
        let access = ffi::duckdb_extension_access {
            set_error: None,
            get_database: None,
            get_api: Some(get_api),
        };
        // SAFETY: `get_api` returns a table whose functions are the fakes above, or `None`.
        let ok =
            unsafe { ffi::duckdb_rs_extension_api_init(std::ptr::null_mut(), &access, "v1.2.0") };
        assert_eq!(ok, Ok(true));
    });
}
