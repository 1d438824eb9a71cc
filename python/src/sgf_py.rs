//! `kifu.GameTree` and `kifu.Node`: an SGF game tree as Python objects, over the library's DOM
//! (`kifu::sgf::GameTree`), its text decoded in the charset `CA` names (or a guess).

use std::sync::{Arc, OnceLock};

use kifu::encoding::Encoding;
use kifu::sgf::{self, Color, NodeId, Point};
use kifu_replay::go::TreeReplay;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};

use crate::diag::Diagnostic;
use crate::strings::Strings;
use kifu_pipeline::Problem;

/// An SGF game tree: nodes, properties, the main line, problems.
#[pyclass(module = "kifu", name = "GameTree", frozen)]
pub struct GameTree {
    file: Arc<str>,
    tree: sgf::GameTree,
    replay: Option<TreeReplay>,
    charset: kifu_export::Charset,
    encoding: OnceLock<&'static Encoding>,
}

impl GameTree {
    /// A tree read from `file`, its text decoded as `charset` says.
    pub fn new(
        file: Arc<str>,
        tree: sgf::GameTree,
        replay: Option<TreeReplay>,
        charset: kifu_export::Charset,
    ) -> GameTree {
        GameTree {
            file,
            tree,
            replay,
            charset,
            encoding: OnceLock::new(),
        }
    }

    /// The library's tree.
    pub fn inner(&self) -> &sgf::GameTree {
        &self.tree
    }

    fn encoding(&self) -> &'static Encoding {
        self.encoding
            .get_or_init(|| self.charset.encoding_of(&self.tree))
    }

    fn text(&self, ident: &[u8], value: &sgf::RawValue<'_>) -> String {
        kifu::encoding::decode(&value.decoded(ident), self.encoding()).into_owned()
    }

    fn props<'py>(&self, py: Python<'py>, id: NodeId) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        let strings = Strings::get(py);
        for p in self.tree.node(id).properties() {
            let name = std::str::from_utf8(p.name()).unwrap_or("?");
            let values: Vec<String> = p.values().map(|v| self.text(p.name(), &v)).collect();
            let key = strings.name(py, name);
            match d.get_item(&key)? {
                // a repeated property: its values added to the list
                Some(existing) => existing
                    .cast::<PyList>()?
                    .call_method1("extend", (values,))?,
                None => {
                    d.set_item(key, values)?;
                    continue;
                }
            };
        }
        Ok(d)
    }
}

fn color(c: Color) -> &'static str {
    match c {
        Color::Black => "B",
        Color::White => "W",
    }
}

fn point(p: Option<Point>) -> Option<String> {
    p.map(|p| p.to_string())
}

#[pymethods]
impl GameTree {
    /// The input's name (`ARCHIVE:MEMBER` inside an archive).
    #[getter]
    fn file(&self) -> &str {
        &self.file
    }

    /// The tree's index in its collection, 0-based.
    #[getter]
    fn index(&self) -> u64 {
        self.tree.index()
    }

    /// Byte offset of the tree's `(`.
    #[getter]
    fn offset(&self) -> u64 {
        self.tree.offset()
    }

    /// `GM` (1 for Go), 1 when absent.
    #[getter]
    fn game_type(&self) -> u32 {
        self.tree.game_type()
    }

    /// `(columns, rows)` from `SZ`, `(19, 19)` by default.
    #[getter]
    fn board_size(&self) -> (u8, u8) {
        let s = self.tree.board_size();
        (s.cols, s.rows)
    }

    /// The root node.
    #[getter]
    fn root(slf: &Bound<'_, Self>) -> Node {
        Node {
            tree: slf.clone().unbind(),
            id: NodeId::ROOT,
        }
    }

    /// The root's properties: `{identifier: [value, ...]}`, text decoded.
    #[getter]
    fn properties<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.props(py, NodeId::ROOT)
    }

    /// The first value of root property `ident`, decoded, or `default`.
    #[pyo3(signature = (ident, default = None))]
    fn get(&self, ident: &str, default: Option<String>) -> Option<String> {
        self.tree
            .root()
            .value(ident.as_bytes())
            .map(|v| self.text(ident.as_bytes(), &v))
            .or(default)
    }

    /// The main line: the root, its first child, that node's first child, ...
    #[getter]
    fn main_line(slf: &Bound<'_, Self>) -> Vec<Node> {
        let me = slf.get();
        me.tree
            .main_line()
            .map(|n| Node {
                tree: slf.clone().unbind(),
                id: n.id(),
            })
            .collect()
    }

    /// Every node, in file order.
    #[getter]
    fn nodes(slf: &Bound<'_, Self>) -> Vec<Node> {
        slf.get()
            .tree
            .nodes()
            .map(|n| Node {
                tree: slf.clone().unbind(),
                id: n.id(),
            })
            .collect()
    }

    /// The main line's Go moves: `(color, point)`, `color` `"B"` or `"W"`, `point` like
    /// `"pd"`, `None` for a pass.
    #[getter]
    fn moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let mut cache = Strings::get(py).cache();
        let items: Vec<_> = self
            .tree
            .main_line()
            .filter_map(|n| n.go_move())
            .map(|(c, p)| {
                let p = p.map(|p| {
                    let [a, b] = p.to_sgf();
                    let s = [a, b];
                    cache.get(py, std::str::from_utf8(&s).unwrap_or("??"))
                });
                (color(c), p)
            })
            .collect();
        PyList::new(py, items)
    }

    /// How many nodes the tree holds.
    #[getter]
    fn node_count(&self) -> usize {
        self.tree.len()
    }

    /// Alternatives: every child beyond the first, as `kifu stats` counts.
    #[getter]
    fn variations(&self) -> usize {
        self.tree
            .nodes()
            .map(|n| n.children().count().saturating_sub(1))
            .sum()
    }

    /// The charset the text is decoded with.
    #[getter]
    fn charset(&self) -> &'static str {
        self.encoding().name()
    }

    /// The problems met while reading the tree (and replaying it, with `replay=True`).
    #[getter]
    fn errors(&self) -> Vec<Diagnostic> {
        let game = self.tree.index();
        let mut out: Vec<Diagnostic> = self
            .tree
            .errors()
            .iter()
            .map(|e| Diagnostic::from(Problem::sgf_owned(&self.file, e, game)))
            .collect();
        if let Some(r) = &self.replay {
            out.extend(
                r.errors
                    .iter()
                    .map(|e| Diagnostic::from(Problem::go_owned(&self.file, e, game))),
            );
        }
        out
    }

    /// Whether the tree has problems.
    #[getter]
    fn has_errors(&self) -> bool {
        self.tree.has_errors() || self.replay.as_ref().is_some_and(|r| !r.errors.is_empty())
    }

    /// Whether the tree was replayed (`replay=True`).
    #[getter]
    fn replayed(&self) -> bool {
        self.replay.is_some()
    }

    /// With `replay=True`: the board after the main line, one byte per point, row-major from
    /// the upper left (0 empty, 1 black, 2 white): `numpy.frombuffer(b, numpy.uint8).reshape(rows,
    /// cols)`. `None` for a game that is not Go.
    #[getter]
    fn final_board<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyBytes>> {
        let r = self.replay.as_ref()?;
        r.is_go.then(|| PyBytes::new(py, r.end.points()))
    }

    /// With `replay=True`: per main-line move, `(captured, black_prisoners,
    /// white_prisoners, executed)`: the stones it removed, the prisoners each side holds after
    /// it, and whether it was played (not for an occupied point or one off the board).
    #[getter]
    fn captures(&self) -> Option<Vec<(u32, u32, u32, bool)>> {
        let r = self.replay.as_ref()?;
        Some(
            r.moves
                .iter()
                .map(|m| (m.captured, m.captures[0], m.captures[1], m.executed))
                .collect(),
        )
    }

    /// The tree as FF[4] SGF text.
    fn to_sgf(&self) -> String {
        sgf::Writer::new().to_string(&self.tree)
    }

    /// The object `kifu json` writes for this tree, as JSON text.
    fn to_json(&self) -> PyResult<String> {
        let mut object = kifu_export::JsonObject::default();
        object
            .sgf(&self.tree, kifu_export::Charset::Fixed(self.encoding()))
            .map_err(pyo3::exceptions::PyValueError::new_err)?;
        Ok(String::from_utf8_lossy(&object.with_file(&self.file)).into_owned())
    }

    fn __len__(&self) -> usize {
        self.tree.len()
    }

    fn __repr__(&self) -> String {
        let v = |id: &str| self.get(id, None);
        let players = match (v("PB"), v("PW")) {
            (Some(b), Some(w)) => format!(" {b} - {w}"),
            _ => String::new(),
        };
        format!(
            "<GameTree {}#{}{} {} nodes>",
            self.file,
            self.tree.index(),
            players,
            self.tree.len()
        )
    }
}

/// A node of a `GameTree`.
#[pyclass(module = "kifu", name = "Node", frozen)]
pub struct Node {
    tree: Py<GameTree>,
    id: NodeId,
}

impl Node {
    fn at(&self, id: NodeId) -> Node {
        Node {
            tree: Python::attach(|py| self.tree.clone_ref(py)),
            id,
        }
    }
}

#[pymethods]
impl Node {
    /// The node's index in its tree (file order; the root is 0).
    #[getter]
    fn id(&self) -> usize {
        self.id.index()
    }

    /// `{identifier: [value, ...]}`, text decoded.
    #[getter]
    fn properties<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.tree.get().props(py, self.id)
    }

    /// The first value of property `ident`, decoded, or `default`.
    #[pyo3(signature = (ident, default = None))]
    fn get(&self, ident: &str, default: Option<String>) -> Option<String> {
        let t = self.tree.get();
        t.tree
            .node(self.id)
            .value(ident.as_bytes())
            .map(|v| t.text(ident.as_bytes(), &v))
            .or(default)
    }

    /// The Go move of the node: `(color, point)` (`point` `None` for a pass), or `None`.
    #[getter]
    fn r#move(&self) -> Option<(&'static str, Option<String>)> {
        let (c, p) = self.tree.get().tree.node(self.id).go_move()?;
        Some((color(c), point(p)))
    }

    /// The node's comment (`C`), decoded.
    #[getter]
    fn comment(&self) -> Option<String> {
        self.get("C", None)
    }

    /// The children; the first continues the main line.
    #[getter]
    fn children(&self) -> Vec<Node> {
        self.tree
            .get()
            .tree
            .node(self.id)
            .children()
            .map(|c| self.at(c.id()))
            .collect()
    }

    /// The parent, or `None` for the root.
    #[getter]
    fn parent(&self) -> Option<Node> {
        let p = self.tree.get().tree.node(self.id).parent()?;
        Some(self.at(p.id()))
    }

    /// The tree the node belongs to.
    #[getter]
    fn tree(&self, py: Python<'_>) -> Py<GameTree> {
        self.tree.clone_ref(py)
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let t = self.tree.get();
        let names: Vec<String> = t
            .tree
            .node(self.id)
            .properties()
            .map(|p| String::from_utf8_lossy(p.name()).into_owned())
            .collect();
        let _ = py;
        format!("<Node {} {}>", self.id.index(), names.join(" "))
    }
}
