//! `Serialize`, in the shape `kifu json` writes for SGF.

use alloc::string::{String, ToString};

use serde::ser::{Error as _, Serialize, SerializeMap, SerializeSeq, Serializer};

use super::{GameTree, NONE, PropRec, TreeError};
use crate::sgf::RawValue;

/// The deepest nesting of branch points serialized; deeper trees give a serde error
/// instead of overflowing the stack.
pub(super) const MAX_DEPTH: u32 = super::SERDE_MAX_DEPTH;

fn lossy(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// How a text value's bytes become a string (a charset's decoder).
type Decode<'a> = &'a dyn Fn(&[u8]) -> String;

impl Serialize for GameTree {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        serialize_tree(self, &lossy, s)
    }
}

/// [`GameTree::with_decoder`]: the tree with its values decoded by a given decoder.
struct Decoded<'a> {
    tree: &'a GameTree,
    decode: Decode<'a>,
}

impl Serialize for Decoded<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        serialize_tree(self.tree, self.decode, s)
    }
}

impl GameTree {
    /// The tree to serialize with its property values decoded by `decode` (raw bytes to
    /// text, escapes already resolved), for text in a charset other than UTF-8: for example
    /// `|b| kifu::encoding::decode(b, encoding).into_owned()` with the encoding `CA` names
    /// (feature `encoding`). The plain `Serialize` decodes UTF-8, invalid sequences replaced.
    ///
    /// ```
    /// let tree = kifu::sgf::game_trees(b"(;GM[1]C[caf\xe9])").next().unwrap();
    /// let latin1 = |b: &[u8]| b.iter().map(|&c| c as char).collect::<String>();
    /// let json = serde_json::to_string(&tree.with_decoder(&latin1)).unwrap();
    /// assert!(json.contains("café"));
    /// ```
    pub fn with_decoder<'a>(&'a self, decode: &'a dyn Fn(&[u8]) -> String) -> impl Serialize + 'a {
        Decoded { tree: self, decode }
    }
}

fn serialize_tree<S: Serializer>(
    tree: &GameTree,
    decode: Decode<'_>,
    s: S,
) -> Result<S::Ok, S::Error> {
    let mut m = s.serialize_map(Some(4))?;
    m.serialize_entry("index", &tree.index)?;
    m.serialize_entry("offset", &tree.pos.offset)?;
    if tree.nodes.is_empty() {
        m.serialize_entry("tree", &Empty)?;
    } else {
        m.serialize_entry(
            "tree",
            &Sub {
                tree,
                decode,
                start: 0,
                depth: 0,
            },
        )?;
    }
    m.serialize_entry("errors", &tree.errors)?;
    if tree.errors_dropped > 0 {
        m.serialize_entry("errors_dropped", &tree.errors_dropped)?;
    }
    m.end()
}

struct Empty;

impl Serialize for Empty {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(2))?;
        m.serialize_entry("nodes", &[(); 0])?;
        m.serialize_entry("variations", &[(); 0])?;
        m.end()
    }
}

/// A tree `T`: the nodes from `start` following single children, then the variations.
struct Sub<'a> {
    tree: &'a GameTree,
    decode: Decode<'a>,
    start: u32,
    depth: u32,
}

impl Sub<'_> {
    /// The last node of the sequence starting at `start`.
    fn last(&self) -> u32 {
        let nodes = &self.tree.nodes;
        let mut n = self.start;
        loop {
            let c = nodes[n as usize].first_child;
            if c == NONE || nodes[c as usize].next_sibling != NONE {
                return n;
            }
            n = c;
        }
    }
}

impl Serialize for Sub<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.depth > MAX_DEPTH {
            return Err(S::Error::custom(alloc::format!(
                "variations nested deeper than {MAX_DEPTH}"
            )));
        }
        let last = self.last();
        let mut m = s.serialize_map(Some(2))?;
        m.serialize_entry(
            "nodes",
            &Seq {
                tree: self.tree,
                decode: self.decode,
                start: self.start,
                last,
            },
        )?;
        m.serialize_entry(
            "variations",
            &Vars {
                tree: self.tree,
                decode: self.decode,
                node: last,
                depth: self.depth,
            },
        )?;
        m.end()
    }
}

struct Seq<'a> {
    tree: &'a GameTree,
    decode: Decode<'a>,
    start: u32,
    last: u32,
}

impl Serialize for Seq<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(None)?;
        let mut n = self.start;
        loop {
            seq.serialize_element(&NodeSer {
                tree: self.tree,
                decode: self.decode,
                node: n,
            })?;
            if n == self.last {
                break;
            }
            n = self.tree.nodes[n as usize].first_child;
        }
        seq.end()
    }
}

struct Vars<'a> {
    tree: &'a GameTree,
    decode: Decode<'a>,
    node: u32,
    depth: u32,
}

impl Serialize for Vars<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let nodes = &self.tree.nodes;
        let first = nodes[self.node as usize].first_child;
        let mut seq = s.serialize_seq(None)?;
        // exactly one child never opens a variation (`last` stops only at 0 or >= 2)
        let mut c = first;
        while c != NONE {
            seq.serialize_element(&Sub {
                tree: self.tree,
                decode: self.decode,
                start: c,
                depth: self.depth + 1,
            })?;
            c = nodes[c as usize].next_sibling;
        }
        seq.end()
    }
}

struct NodeSer<'a> {
    tree: &'a GameTree,
    decode: Decode<'a>,
    node: u32,
}

impl Serialize for NodeSer<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let rec = &self.tree.nodes[self.node as usize];
        let props = &self.tree.props[rec.props as usize..][..rec.nprops as usize];
        let mut m = s.serialize_map(Some(1))?;
        m.serialize_entry(
            "props",
            &Props {
                tree: self.tree,
                decode: self.decode,
                props,
            },
        )?;
        m.end()
    }
}

struct Props<'a> {
    tree: &'a GameTree,
    decode: Decode<'a>,
    props: &'a [PropRec],
}

impl Serialize for Props<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.props.len()))?;
        for p in self.props {
            let name = self.tree.bytes_of(p.name);
            let values: alloc::vec::Vec<String> = self.tree.values[p.values as usize..]
                [..p.nvalues as usize]
                .iter()
                .map(|&v| (self.decode)(&RawValue(self.tree.bytes_of(v)).decoded(name)))
                .collect();
            seq.serialize_element(&(lossy(name), values))?;
        }
        seq.end()
    }
}

/// `{"kind", "code", "severity", "message", "text", "offset", "line", "column", "node",
/// "depth"}`: the keys in the order `kifu json` writes them (a PGN error's order, `code` after
/// `kind`).
impl Serialize for TreeError {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(10))?;
        m.serialize_entry("kind", self.kind.name())?;
        m.serialize_entry("code", self.kind.code())?;
        m.serialize_entry("severity", self.severity.as_str())?;
        m.serialize_entry("message", &self.kind.to_string())?;
        m.serialize_entry("text", &lossy(&self.text))?;
        m.serialize_entry("offset", &self.pos.offset)?;
        m.serialize_entry("line", &self.pos.line)?;
        m.serialize_entry("column", &self.pos.column)?;
        m.serialize_entry("node", &self.at.map(|a| a.node))?;
        m.serialize_entry("depth", &self.at.map(|a| a.depth))?;
        m.end()
    }
}
