//! Python strings for the texts that repeat from game to game (SAN moves, tag names, SGF
//! identifiers, points): made once and shared, so that a list of moves costs a reference count
//! per move instead of a new string object.

use std::collections::HashMap;
use std::sync::Mutex;

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyList, PyString};

/// The shared strings of the interpreter.
#[derive(Default)]
pub struct Strings {
    short: Mutex<HashMap<Key, Py<PyString>>>,
}

/// A short text (at most [`Key::MAX`] bytes), held inline.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Key {
    len: u8,
    bytes: [u8; Key::MAX],
}

impl Key {
    const MAX: usize = 15;

    fn new(text: &str) -> Option<Key> {
        let b = text.as_bytes();
        if b.len() > Key::MAX {
            return None;
        }
        let mut bytes = [0u8; Key::MAX];
        bytes[..b.len()].copy_from_slice(b);
        Some(Key {
            len: b.len() as u8,
            bytes,
        })
    }
}

/// How many short strings are kept at most (moves, tag names, points: a few thousand).
const CAPACITY: usize = 16_384;

static STRINGS: PyOnceLock<Strings> = PyOnceLock::new();

impl Strings {
    /// The interpreter's shared strings.
    pub fn get(py: Python<'_>) -> &'static Strings {
        STRINGS.get_or_init(py, Strings::default)
    }

    fn shared<'py>(
        map: &mut HashMap<Key, Py<PyString>>,
        py: Python<'py>,
        text: &str,
    ) -> Bound<'py, PyString> {
        let Some(key) = Key::new(text) else {
            return PyString::new(py, text);
        };
        if let Some(s) = map.get(&key) {
            return s.bind(py).clone();
        }
        let s = PyString::new(py, text);
        if map.len() < CAPACITY {
            map.insert(key, s.clone().unbind());
        }
        s
    }

    /// A move's text.
    pub fn san<'py>(&self, py: Python<'py>, text: &str) -> Bound<'py, PyString> {
        match self.short.lock() {
            Ok(mut map) => Strings::shared(&mut map, py, text),
            Err(_) => PyString::new(py, text),
        }
    }

    /// A tag name or property identifier.
    pub fn name<'py>(&self, py: Python<'py>, text: &str) -> Bound<'py, PyString> {
        self.san(py, text)
    }

    /// A list of short texts, the lock taken once.
    pub fn list<'py, 'a>(
        &self,
        py: Python<'py>,
        texts: impl ExactSizeIterator<Item = &'a str>,
    ) -> PyResult<Bound<'py, PyList>> {
        match self.short.lock() {
            Ok(mut map) => PyList::new(py, texts.map(|t| Strings::shared(&mut map, py, t))),
            Err(_) => PyList::new(py, texts.map(|t| PyString::new(py, t))),
        }
    }
}
