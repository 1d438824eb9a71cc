//! Python strings for the short texts that repeat from game to game (SAN moves, tag names and
//! common values, SGF identifiers, points): a direct-mapped cache of string objects, so that a
//! list of moves mostly costs a reference count per move instead of a new string object.
//!
//! The cache is a table of slots, each holding one short text (at most 15 bytes, compared as
//! two words) and its string; a text goes to the slot its hash names, replacing what was
//! there. No hashing of long texts, no growth, no eviction policy beyond that.

use std::sync::{Mutex, MutexGuard};

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyList, PyString};

/// The slots: `1 << BITS`.
const BITS: u32 = 13;

/// A short text as two words: its bytes, zero-padded, the length in the last byte.
#[derive(Clone, Copy, PartialEq, Eq, Default)]
struct Key(u64, u64);

impl Key {
    fn new(text: &str) -> Option<Key> {
        let b = text.as_bytes();
        if b.is_empty() || b.len() > 15 {
            return None;
        }
        let mut bytes = [0u8; 16];
        bytes[..b.len()].copy_from_slice(b);
        bytes[15] = b.len() as u8;
        let (lo, hi) = bytes.split_at(8);
        Some(Key(
            u64::from_le_bytes(lo.try_into().expect("8 bytes")),
            u64::from_le_bytes(hi.try_into().expect("8 bytes")),
        ))
    }

    fn slot(self) -> usize {
        let h = (self.0.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ self.1)
            .wrapping_mul(0xD6E8_FEB8_6659_FD93);
        (h >> (64 - BITS)) as usize
    }
}

/// The shared strings of the interpreter.
pub struct Strings {
    slots: Mutex<Slots>,
}

/// The cache's slots: a key and its string, if made.
type Slots = Vec<(Key, Option<Py<PyString>>)>;

static STRINGS: PyOnceLock<Strings> = PyOnceLock::new();

/// The cache, locked (once per list or dict built).
pub struct Cache<'a>(Option<MutexGuard<'a, Slots>>);

impl Cache<'_> {
    /// The string for `text`: shared when short.
    pub fn get<'py>(&mut self, py: Python<'py>, text: &str) -> Bound<'py, PyString> {
        let (Some(slots), Some(key)) = (self.0.as_mut(), Key::new(text)) else {
            return PyString::new(py, text);
        };
        let slot = &mut slots[key.slot()];
        if slot.0 == key
            && let Some(s) = &slot.1
        {
            return s.bind(py).clone();
        }
        let s = PyString::new(py, text);
        *slot = (key, Some(s.clone().unbind()));
        s
    }
}

impl Strings {
    /// The interpreter's shared strings.
    pub fn get(py: Python<'_>) -> &'static Strings {
        STRINGS.get_or_init(py, || Strings {
            slots: Mutex::new((0..1 << BITS).map(|_| (Key::default(), None)).collect()),
        })
    }

    /// The cache, locked.
    pub fn cache(&self) -> Cache<'_> {
        Cache(self.slots.lock().ok())
    }

    /// A tag name, property identifier or move.
    pub fn name<'py>(&self, py: Python<'py>, text: &str) -> Bound<'py, PyString> {
        self.cache().get(py, text)
    }

    /// A list of short texts, the lock taken once.
    pub fn list<'py, 'a>(
        &self,
        py: Python<'py>,
        texts: impl ExactSizeIterator<Item = &'a str>,
    ) -> PyResult<Bound<'py, PyList>> {
        let mut cache = self.cache();
        PyList::new(py, texts.map(|t| cache.get(py, t)))
    }
}
