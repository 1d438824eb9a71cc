//! The SGF `moves` table: one row per main-line move.

use std::sync::Arc;

use arrow_array::ArrayRef;
use arrow_array::builder::{Int16Builder, Int32Builder, Int64Builder, StringBuilder};
use arrow_schema::{DataType, Field};
use kifu::sgf::{self, Color};

use crate::charset::text;
use crate::cols::clamp_i64;
use crate::{Charset, TableOptions};

pub(crate) fn fields() -> Vec<Field> {
    vec![
        Field::new("file", DataType::Utf8, false),
        Field::new("game_index", DataType::Int64, false),
        Field::new("ply", DataType::Int32, false),
        Field::new("node", DataType::Int32, false),
        Field::new("color", DataType::Utf8, false),
        Field::new("point", DataType::Utf8, true),
        Field::new("x", DataType::Int16, true),
        Field::new("y", DataType::Int16, true),
        Field::new("comment", DataType::Utf8, true),
    ]
}

#[derive(Debug)]
pub(crate) struct MovesBuilder {
    charset: Charset,
    file: StringBuilder,
    index: Int64Builder,
    ply: Int32Builder,
    node: Int32Builder,
    color: StringBuilder,
    point: StringBuilder,
    x: Int16Builder,
    y: Int16Builder,
    comment: StringBuilder,
    rows: usize,
    bytes: usize,
}

impl MovesBuilder {
    pub(crate) fn new(opts: &TableOptions) -> MovesBuilder {
        MovesBuilder {
            charset: opts.charset,
            file: StringBuilder::with_capacity(0, 0),
            index: Int64Builder::with_capacity(0),
            ply: Int32Builder::with_capacity(0),
            node: Int32Builder::with_capacity(0),
            color: StringBuilder::with_capacity(0, 0),
            point: StringBuilder::with_capacity(0, 0),
            x: Int16Builder::with_capacity(0),
            y: Int16Builder::with_capacity(0),
            comment: StringBuilder::with_capacity(0, 0),
            rows: 0,
            bytes: 0,
        }
    }

    pub(crate) fn rows(&self) -> usize {
        self.rows
    }

    pub(crate) fn estimated_bytes(&self) -> usize {
        self.bytes
    }

    /// Adds the main-line moves of `tree`; returns their nodes.
    pub(crate) fn push(&mut self, file: &str, tree: &sgf::GameTree) -> Vec<sgf::NodeId> {
        let mut ids = Vec::new();
        if tree.is_empty() {
            return ids;
        }
        // the charset is only worked out when a comment needs it
        let mut enc = None;
        let index = clamp_i64(tree.index());
        for (depth, node) in tree.main_line().enumerate() {
            let Some((color, point)) = node.go_move() else {
                continue;
            };
            ids.push(node.id());
            self.file.append_value(file);
            self.index.append_value(index);
            self.ply.append_value(ids.len() as i32);
            self.node
                .append_value(i32::try_from(depth).unwrap_or(i32::MAX));
            self.color.append_value(if color == Color::Black {
                "black"
            } else {
                "white"
            });
            match point {
                Some(p) => {
                    self.point.append_value(p.to_string());
                    self.x.append_value(i16::from(p.x));
                    self.y.append_value(i16::from(p.y));
                }
                None => {
                    self.point.append_null();
                    self.x.append_null();
                    self.y.append_null();
                }
            }
            match node.get(b"C") {
                Some(c) => {
                    let enc = *enc.get_or_insert_with(|| self.charset.encoding_of(tree));
                    let mut all = String::new();
                    for v in c.values() {
                        if !all.is_empty() {
                            all.push('\n');
                        }
                        all.push_str(&text(v, b"C", enc));
                    }
                    self.bytes += all.len();
                    self.comment.append_value(all);
                }
                None => self.comment.append_null(),
            }
            self.bytes += file.len() + 48;
        }
        self.rows += ids.len();
        ids
    }

    pub(crate) fn finish(&mut self) -> Vec<ArrayRef> {
        let out: Vec<ArrayRef> = vec![
            Arc::new(self.file.finish()),
            Arc::new(self.index.finish()),
            Arc::new(self.ply.finish()),
            Arc::new(self.node.finish()),
            Arc::new(self.color.finish()),
            Arc::new(self.point.finish()),
            Arc::new(self.x.finish()),
            Arc::new(self.y.finish()),
            Arc::new(self.comment.finish()),
        ];
        self.rows = 0;
        self.bytes = 0;
        out
    }
}
