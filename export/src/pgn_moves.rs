//! The PGN `moves` table: one row per main-line ply (and per variation move on demand).

use std::sync::Arc;

use arrow_array::ArrayRef;
use arrow_array::builder::ArrayBuilder;
use arrow_array::builder::{
    Float64Builder, Int16Builder, Int32Builder, Int64Builder, StringBuilder,
};
use arrow_schema::{DataType, Field};
use kifu::pgn;

use crate::cols::{Lists, clamp_i64, list_of};
use crate::pgn_games::MoveData;
use crate::{MoveRow, TableOptions};

fn nags_type() -> DataType {
    list_of(DataType::Int16, false)
}

pub(crate) fn fields(opts: &TableOptions) -> Vec<Field> {
    let mut f = vec![
        Field::new("file", DataType::Utf8, false),
        Field::new("game_index", DataType::Int64, false),
        Field::new("ply", DataType::Int32, false),
        Field::new("move_number", DataType::Int32, false),
        Field::new("color", DataType::Utf8, false),
        Field::new("san", DataType::Utf8, false),
        Field::new("nags", nags_type(), false),
        Field::new("comment", DataType::Utf8, true),
        Field::new("clock", DataType::Float64, true),
        Field::new("eval_cp", DataType::Int32, true),
        Field::new("eval_mate", DataType::Int32, true),
        Field::new("eval_depth", DataType::Int32, true),
        Field::new("emt", DataType::Float64, true),
    ];
    if opts.variations {
        f.push(Field::new("line", DataType::Int32, false));
        f.push(Field::new("parent_line", DataType::Int32, true));
        f.push(Field::new("depth", DataType::Int32, false));
    }
    f
}

/// A line still to list: its moves, the ply before its first, the line it branches from, its
/// depth.
type Pending<'a> = (&'a [pgn::Node], u32, Option<u32>, u32);

/// The rows of a game: the main line first, then the variations depth first in the order
/// they appear in the movetext, each a new line. Walks with an explicit stack.
pub(crate) fn rows(game: &pgn::Game, variations: bool) -> Vec<(MoveRow<'_>, u32)> {
    let mut rows: Vec<(MoveRow<'_>, u32)> = Vec::with_capacity(game.moves.len());
    let mut stack: Vec<Pending<'_>> = vec![(&game.moves, game.starting_ply(), None, 0)];
    let mut next_line = 0u32;
    while let Some((line_moves, ply0, parent, depth)) = stack.pop() {
        let line = next_line;
        next_line += 1;
        for (k, node) in line_moves.iter().enumerate() {
            rows.push((
                MoveRow {
                    node,
                    ply: ply0.saturating_add(k as u32 + 1),
                    line,
                    parent_line: parent,
                },
                depth,
            ));
        }
        if !variations {
            break;
        }
        // the variations of this line, pushed last first so that the first is taken first
        for k in (0..line_moves.len()).rev() {
            for v in line_moves[k].variations.iter().rev() {
                if !v.moves.is_empty() {
                    let ply = ply0.saturating_add(k as u32);
                    stack.push((&v.moves, ply, Some(line), depth + 1));
                }
            }
        }
    }
    rows
}

#[derive(Debug)]
pub(crate) struct MovesBuilder {
    variations: bool,
    file: StringBuilder,
    index: Int64Builder,
    ply: Int32Builder,
    move_number: Int32Builder,
    color: StringBuilder,
    san: StringBuilder,
    nags: Lists,
    nag_values: Int16Builder,
    comment: StringBuilder,
    clock: Float64Builder,
    eval_cp: Int32Builder,
    eval_mate: Int32Builder,
    eval_depth: Int32Builder,
    emt: Float64Builder,
    line: Int32Builder,
    parent_line: Int32Builder,
    depth: Int32Builder,
    rows: usize,
    bytes: usize,
    text: String,
}

impl MovesBuilder {
    pub(crate) fn new(opts: &TableOptions) -> MovesBuilder {
        MovesBuilder {
            variations: opts.variations,
            file: StringBuilder::with_capacity(0, 0),
            index: Int64Builder::with_capacity(0),
            ply: Int32Builder::with_capacity(0),
            move_number: Int32Builder::with_capacity(0),
            color: StringBuilder::with_capacity(0, 0),
            san: StringBuilder::with_capacity(0, 0),
            nags: Lists::new(),
            nag_values: Int16Builder::with_capacity(0),
            comment: StringBuilder::with_capacity(0, 0),
            clock: Float64Builder::with_capacity(0),
            eval_cp: Int32Builder::with_capacity(0),
            eval_mate: Int32Builder::with_capacity(0),
            eval_depth: Int32Builder::with_capacity(0),
            emt: Float64Builder::with_capacity(0),
            line: Int32Builder::with_capacity(0),
            parent_line: Int32Builder::with_capacity(0),
            depth: Int32Builder::with_capacity(0),
            rows: 0,
            bytes: 0,
            text: String::new(),
        }
    }

    pub(crate) fn rows(&self) -> usize {
        self.rows
    }

    pub(crate) fn estimated_bytes(&self) -> usize {
        self.bytes
    }

    /// Adds the rows of `game`; returns them (for the added columns).
    pub(crate) fn push<'g>(&mut self, file: &str, game: &'g pgn::Game) -> Vec<MoveRow<'g>> {
        let rows = rows(game, self.variations);
        let index = clamp_i64(game.index);
        for &(row, depth) in &rows {
            let node = row.node;
            self.file.append_value(file);
            self.index.append_value(index);
            self.ply.append_value(row.ply as i32);
            self.move_number.append_value(row.ply.div_ceil(2) as i32);
            self.color
                .append_value(if row.ply % 2 == 1 { "white" } else { "black" });
            self.san.append_value(node.text.as_str());
            for nag in &node.nags {
                self.nag_values.append_value(i16::from(nag.0));
            }
            self.nags.close(self.nag_values.len());

            self.text.clear();
            for c in &node.comments {
                let c = pgn::strip_commands(c);
                if !c.is_empty() {
                    if !self.text.is_empty() {
                        self.text.push(' ');
                    }
                    self.text.push_str(&c);
                }
            }
            if self.text.is_empty() {
                self.comment.append_null();
            } else {
                self.comment.append_value(&self.text);
            }

            let d = MoveData::of(node);
            self.clock.append_option(d.clock);
            let (cp, mate) = d.score();
            self.eval_cp.append_option(cp);
            self.eval_mate.append_option(mate);
            self.eval_depth.append_option(
                d.eval
                    .and_then(|e| e.depth)
                    .map(|x| i32::try_from(x).unwrap_or(i32::MAX)),
            );
            self.emt.append_option(d.emt);
            if self.variations {
                self.line.append_value(row.line as i32);
                self.parent_line
                    .append_option(row.parent_line.map(|l| l as i32));
                self.depth.append_value(depth as i32);
            }
            self.bytes += file.len() + node.text.len() + self.text.len() + 64;
        }
        self.rows += rows.len();
        rows.into_iter().map(|(r, _)| r).collect()
    }

    pub(crate) fn finish(&mut self) -> Vec<ArrayRef> {
        let nags = Arc::new(self.nag_values.finish());
        let mut out: Vec<ArrayRef> = vec![
            Arc::new(self.file.finish()),
            Arc::new(self.index.finish()),
            Arc::new(self.ply.finish()),
            Arc::new(self.move_number.finish()),
            Arc::new(self.color.finish()),
            Arc::new(self.san.finish()),
            self.nags.finish_list(&nags_type(), nags),
            Arc::new(self.comment.finish()),
            Arc::new(self.clock.finish()),
            Arc::new(self.eval_cp.finish()),
            Arc::new(self.eval_mate.finish()),
            Arc::new(self.eval_depth.finish()),
            Arc::new(self.emt.finish()),
        ];
        if self.variations {
            out.push(Arc::new(self.line.finish()));
            out.push(Arc::new(self.parent_line.finish()));
            out.push(Arc::new(self.depth.finish()));
        }
        self.rows = 0;
        self.bytes = 0;
        out
    }
}
