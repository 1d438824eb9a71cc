//! `kifu.visit`: the library's visitor API from Python. The parser raises its events; each
//! goes to the method of the same name of a Python object, when the object has one (looked up
//! once per call). A method may answer `"skip"` (the variation, or the movetext after the
//! tags), `"skip_game"` or `"stop"`; `variations=False` and `headers_only=True` take the
//! parser's fast paths without calling Python at all.

use std::io::{self, Read};
use std::sync::Arc;

use kifu::{Control, Status, pgn, sgf};
use kifu_input::Format;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};

use kifu_pipeline::{Formats, Problem, Scan, ScanOptions};

use crate::diag::Diagnostic;
use crate::scan;
use crate::source::{extract, parse_format};

/// The methods a visitor object has.
struct Methods<'py> {
    on_input: Option<Bound<'py, PyAny>>,
    on_tree: Option<Bound<'py, PyAny>>,
    on_tree_end: Option<Bound<'py, PyAny>>,
    on_tag: Option<Bound<'py, PyAny>>,
    on_tags_end: Option<Bound<'py, PyAny>>,
    on_move: Option<Bound<'py, PyAny>>,
    on_nag: Option<Bound<'py, PyAny>>,
    on_comment: Option<Bound<'py, PyAny>>,
    on_result: Option<Bound<'py, PyAny>>,
    on_error: Option<Bound<'py, PyAny>>,
    on_node: Option<Bound<'py, PyAny>>,
    on_node_end: Option<Bound<'py, PyAny>>,
    on_property: Option<Bound<'py, PyAny>>,
    on_end: Option<Bound<'py, PyAny>>,
}

fn method<'py>(obj: &Bound<'py, PyAny>, name: &str) -> PyResult<Option<Bound<'py, PyAny>>> {
    match obj.getattr(name) {
        Ok(m) if m.is_callable() => Ok(Some(m)),
        Ok(m) if m.is_none() => Ok(None),
        Ok(_) => Err(PyValueError::new_err(format!(
            "visitor.{name} is not callable"
        ))),
        Err(_) => Ok(None),
    }
}

impl<'py> Methods<'py> {
    fn of(obj: &Bound<'py, PyAny>) -> PyResult<Methods<'py>> {
        if method(obj, "on_tag")?.is_some() && method(obj, "on_property")?.is_none() {
            return Err(pyo3::exceptions::PyTypeError::new_err(
                "the PGN visitor's tag callback is `on_property(name, value)`, the library's \
                 event name (not `on_tag`)",
            ));
        }
        let on_tag = method(obj, "on_property")?;
        Ok(Methods {
            on_input: method(obj, "on_input")?,
            on_tree: method(obj, "on_tree")?,
            on_tree_end: method(obj, "on_tree_end")?,
            on_tag,
            on_tags_end: method(obj, "on_tags_end")?,
            on_move: method(obj, "on_move")?,
            on_nag: method(obj, "on_nag")?,
            on_comment: method(obj, "on_comment")?,
            on_result: method(obj, "on_result")?,
            on_error: method(obj, "on_error")?,
            on_node: method(obj, "on_node")?,
            on_node_end: method(obj, "on_node_end")?,
            on_property: method(obj, "on_property")?,
            on_end: method(obj, "on_end")?,
        })
    }
}

/// The adapter: library events to Python calls.
struct Adapter<'py, 'm> {
    py: Python<'py>,
    m: &'m Methods<'py>,
    file: Arc<str>,
    variations: bool,
    headers_only: bool,
    error: Option<PyErr>,
    /// SGF: the property being read (its values are collected, then one call).
    prop: Option<(Bound<'py, PyString>, Vec<u8>, Vec<String>)>,
    value: Vec<u8>,
    skip: Bound<'py, PyString>,
    skip_game: Bound<'py, PyString>,
    stop: Bound<'py, PyString>,
}

impl<'py> Adapter<'py, '_> {
    /// Calls `f` with `args`; its answer as a `Control`.
    fn call<A>(&mut self, f: &Option<Bound<'py, PyAny>>, args: A) -> Control
    where
        A: pyo3::call::PyCallArgs<'py>,
    {
        let Some(f) = f else {
            return Control::Continue;
        };
        if self.error.is_some() {
            return Control::Stop;
        }
        match f.call1(args) {
            Ok(r) => self.answer(&r),
            Err(e) => {
                self.error = Some(e);
                Control::Stop
            }
        }
    }

    fn answer(&mut self, r: &Bound<'py, PyAny>) -> Control {
        if r.is_none() {
            return Control::Continue;
        }
        // the usual answers are the interned constants of the module: compare pointers first
        if r.is(&self.skip) {
            return Control::Skip;
        }
        if r.is(&self.skip_game) {
            return Control::SkipGame;
        }
        if r.is(&self.stop) {
            return Control::Stop;
        }
        match r.extract::<&str>() {
            Ok("skip") => Control::Skip,
            Ok("skip_game") => Control::SkipGame,
            Ok("stop") => Control::Stop,
            Ok("continue") => Control::Continue,
            Ok(other) => {
                self.error = Some(PyValueError::new_err(format!(
                    "a visitor method answers None, 'continue', 'skip', 'skip_game' or 'stop', not {other:?}"
                )));
                Control::Stop
            }
            Err(_) => Control::Continue,
        }
    }

    fn diag(&mut self, d: Diagnostic) -> Control {
        if self.m.on_error.is_none() {
            return Control::Continue;
        }
        match Py::new(self.py, d) {
            Ok(d) => {
                let f = self.m.on_error.clone();
                self.call(&f, (d,))
            }
            Err(e) => {
                self.error = Some(e);
                Control::Stop
            }
        }
    }

    /// SGF: the property being read is over.
    fn end_property(&mut self) -> Control {
        let Some((name, _, values)) = self.prop.take() else {
            return Control::Continue;
        };
        match PyList::new(self.py, values) {
            Ok(values) => {
                let f = self.m.on_property.clone();
                self.call(&f, (name, values))
            }
            Err(e) => {
                self.error = Some(e);
                Control::Stop
            }
        }
    }
}

fn text(b: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(b)
}

impl pgn::Visitor for Adapter<'_, '_> {
    fn on_tree(&mut self, ctx: &pgn::Context) -> Control {
        if ctx.in_variation() && !self.variations {
            return Control::Skip;
        }
        let f = self.m.on_tree.clone();
        self.call(&f, (ctx.game, ctx.depth))
    }
    fn on_tree_end(&mut self, ctx: &pgn::Context) -> Control {
        let f = self.m.on_tree_end.clone();
        self.call(&f, (ctx.game, ctx.depth))
    }
    fn on_property(&mut self, _: &pgn::Context, tag: &pgn::Tag<'_>) -> Control {
        if self.m.on_tag.is_none() {
            return Control::Continue;
        }
        let value = tag.value.decode();
        let f = self.m.on_tag.clone();
        self.call(&f, (text(tag.name), text(&value)))
    }
    fn on_tags_end(&mut self, ctx: &pgn::Context) -> Control {
        let f = self.m.on_tags_end.clone();
        let c = self.call(&f, (ctx.game,));
        if self.headers_only && c == Control::Continue {
            return Control::Skip;
        }
        c
    }
    fn on_move(&mut self, ctx: &pgn::Context, mv: &pgn::Move<'_>) -> Control {
        if self.m.on_move.is_none() {
            return Control::Continue;
        }
        let f = self.m.on_move.clone();
        self.call(&f, (text(mv.text), ctx.ply, ctx.depth))
    }
    fn on_nag(&mut self, _: &pgn::Context, nag: pgn::Nag, _: pgn::NagForm) -> Control {
        let f = self.m.on_nag.clone();
        self.call(&f, (nag.0,))
    }
    fn on_comment(&mut self, _: &pgn::Context, c: &pgn::Comment<'_>) -> Control {
        if self.m.on_comment.is_none() || c.kind == pgn::CommentKind::Escape {
            return Control::Continue;
        }
        let t = c.text.to_str_lossy();
        let f = self.m.on_comment.clone();
        self.call(&f, (t,))
    }
    fn on_result(&mut self, ctx: &pgn::Context, outcome: pgn::Outcome) -> Control {
        let f = self.m.on_result.clone();
        self.call(&f, (outcome.as_str(), ctx.depth))
    }
    fn on_error(&mut self, e: &pgn::Error<'_>) -> Control {
        if self.m.on_error.is_none() {
            return Control::Continue;
        }
        let d = Diagnostic::from(Problem::pgn(&self.file, e));
        self.diag(d)
    }
}

impl sgf::Visitor for Adapter<'_, '_> {
    fn on_tree(&mut self, ctx: &sgf::Context) -> Control {
        let c = self.end_property();
        if c != Control::Continue {
            return c;
        }
        if ctx.variation > 0 && !self.variations {
            return Control::Skip;
        }
        let f = self.m.on_tree.clone();
        self.call(&f, (ctx.game, ctx.depth))
    }
    fn on_tree_end(&mut self, ctx: &sgf::Context) -> Control {
        let c = self.end_property();
        if c != Control::Continue {
            return c;
        }
        let f = self.m.on_tree_end.clone();
        self.call(&f, (ctx.game, ctx.depth))
    }
    fn on_node(&mut self, ctx: &sgf::Context) -> Control {
        let f = self.m.on_node.clone();
        self.call(&f, (ctx.node, ctx.depth))
    }
    fn on_node_end(&mut self, ctx: &sgf::Context) -> Control {
        let c = self.end_property();
        if c != Control::Continue {
            return c;
        }
        let f = self.m.on_node_end.clone();
        let c = self.call(&f, (ctx.node, ctx.depth));
        if self.headers_only && ctx.node == 0 && ctx.depth == 0 && c == Control::Continue {
            return Control::Skip;
        }
        c
    }
    fn on_property(&mut self, _: &sgf::Context, prop: &sgf::Property<'_>) -> Control {
        let c = self.end_property();
        if c != Control::Continue || self.m.on_property.is_none() {
            return c;
        }
        let name = PyString::new(self.py, &text(prop.name));
        self.prop = Some((name, prop.name.to_vec(), Vec::new()));
        Control::Continue
    }
    fn on_value(&mut self, _: &sgf::Context, value: &sgf::Value<'_>) -> Control {
        let Some((_, ident, values)) = &mut self.prop else {
            return Control::Continue;
        };
        if value.first {
            self.value.clear();
        }
        self.value.extend_from_slice(&value.raw.decoded(ident));
        if value.last {
            values.push(String::from_utf8_lossy(&self.value).into_owned());
        }
        Control::Continue
    }
    fn on_move(&mut self, ctx: &sgf::Context, mv: &sgf::Move<'_>) -> Control {
        if self.m.on_move.is_none() {
            return Control::Continue;
        }
        let color = match mv.color {
            sgf::Color::Black => "B",
            sgf::Color::White => "W",
        };
        let point = mv.point.map(|p| p.to_string());
        let f = self.m.on_move.clone();
        self.call(&f, (color, point, ctx.node))
    }
    fn on_comment(&mut self, _: &sgf::Context, c: &sgf::Comment<'_>) -> Control {
        if self.m.on_comment.is_none() {
            return Control::Continue;
        }
        let t = c.text.text();
        let f = self.m.on_comment.clone();
        self.call(&f, (text(&t),))
    }
    fn on_error(&mut self, e: &sgf::Error<'_>) -> Control {
        if self.m.on_error.is_none() {
            return Control::Continue;
        }
        let d = Diagnostic::from(Problem::sgf(&self.file, e));
        self.diag(d)
    }
}

/// Feeds `reader` to `parser` through `v`; `false` when the visitor stopped.
fn drive<P, V>(
    parser: &mut P,
    feed: impl Fn(&mut P, &[u8], &mut V) -> Status,
    finish: impl Fn(&mut P, &mut V),
    reader: &mut dyn Read,
    v: &mut V,
) -> io::Result<bool> {
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = match reader.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => {
                finish(parser, v);
                return Err(e);
            }
        };
        if let Status::Stopped { .. } = feed(parser, &buf[..n], v) {
            return Ok(false);
        }
    }
    finish(parser, v);
    Ok(true)
}

/// Reads `source`, calling the methods of `visitor` for each event (see `docs/python.md`);
/// returns what `visitor.on_end()` returns (or `None`).
#[pyfunction]
#[pyo3(signature = (source, visitor, *, format = None, variations = true,
                    headers_only = false, name = None))]
pub fn visit<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    visitor: &Bound<'py, PyAny>,
    format: Option<&str>,
    variations: bool,
    headers_only: bool,
    name: Option<String>,
) -> PyResult<Py<PyAny>> {
    let formats = Formats {
        forced: parse_format(format)?,
        only: None,
    };
    let (source, slot) = extract(source, name)?;
    let m = Methods::of(visitor)?;
    let mut adapter = Adapter {
        py,
        m: &m,
        file: Arc::from(""),
        variations,
        headers_only,
        error: None,
        prop: None,
        value: Vec::new(),
        skip: PyString::intern(py, "skip"),
        skip_game: PyString::intern(py, "skip_game"),
        stop: PyString::intern(py, "stop"),
    };
    // one thread, this one: the visitor's methods are called with the GIL held
    let scan = Scan::new(source, formats).with_options(ScanOptions::with_threads(1));
    let scanned = scan.walk(|input, reader| {
        adapter.file = Arc::clone(&input.name);
        let f = adapter.m.on_input.clone();
        if adapter.call(&f, (&*input.name, input.format.name())) == Control::Stop {
            return Ok(false);
        }
        match input.format {
            Format::Pgn => drive(
                &mut pgn::Parser::new(),
                |p, b, v| p.feed(b, v),
                |p, v| p.finish(v),
                reader,
                &mut adapter,
            ),
            Format::Sgf => drive(
                &mut sgf::Parser::new(),
                |p, b, v| p.feed(b, v),
                |p, v| p.finish(v),
                reader,
                &mut adapter,
            ),
        }
    });
    if let Some(e) = adapter.error.take() {
        return Err(e);
    }
    let py_error = slot.lock().ok().and_then(|mut e| e.take());
    scan::finish(py, &scanned, py_error, None)?;
    match &m.on_end {
        Some(f) => Ok(f.call0()?.unbind()),
        None => Ok(py.None()),
    }
}
