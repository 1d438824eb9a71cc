//! The SGF `trees` table: one row per game tree.

use std::sync::Arc;

use arrow_array::ArrayRef;
use arrow_array::builder::ArrayBuilder;
use arrow_array::builder::{
    Float64Builder, Int16Builder, Int32Builder, Int64Builder, StringBuilder,
};
use arrow_schema::{DataType, Field};
use kifu::encoding::Encoding;
use kifu::sgf::{self, Color, GoResult, Rank};

use crate::charset::text;
use crate::cols::{ErrorRow, Errors, Lists, clamp_i64, key_fields, list_of, map_of};
use crate::{Charset, TableOptions, values};

/// The type a root-property column holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PropType {
    /// `Utf8`: the first value, escapes resolved, decoded to UTF-8.
    Text,
    /// `Int32`: a Number.
    Int32,
    /// `Float64`: a Real.
    Real,
}

/// The root properties that have a column of their own in the SGF `trees` table, in column
/// order, each named as its FF\[4\] identifier but `ON`, a reserved word of SQL: its column
/// is `opening` (FF\[4\]'s name for it). `SZ` is the size of a square
/// board (a rectangular `SZ[19:13]` leaves it null, its text in `props`; `board_cols` /
/// `board_rows` always hold the size). Every other root property goes to the `props` map.
pub const SGF_ROOT_COLUMNS: [(&str, PropType); 26] = [
    ("GM", PropType::Int32),
    ("FF", PropType::Int32),
    ("CA", PropType::Text),
    ("AP", PropType::Text),
    ("SZ", PropType::Int32),
    ("GN", PropType::Text),
    ("EV", PropType::Text),
    ("RO", PropType::Text),
    ("DT", PropType::Text),
    ("PC", PropType::Text),
    ("PB", PropType::Text),
    ("BR", PropType::Text),
    ("BT", PropType::Text),
    ("PW", PropType::Text),
    ("WR", PropType::Text),
    ("WT", PropType::Text),
    ("RE", PropType::Text),
    ("KM", PropType::Real),
    ("HA", PropType::Int32),
    ("RU", PropType::Text),
    ("TM", PropType::Real),
    ("OT", PropType::Text),
    ("SO", PropType::Text),
    ("US", PropType::Text),
    ("AN", PropType::Text),
    ("ON", PropType::Text),
];

const NPROPS: usize = SGF_ROOT_COLUMNS.len();

/// The column of root property `id` (one of [`SGF_ROOT_COLUMNS`]): its identifier, but
/// `opening` for `ON` (the opening played), since `ON` is a reserved word of SQL that every
/// query would have to quote.
pub(crate) fn root_column_name(id: &str) -> &str {
    match id {
        "ON" => "opening",
        other => other,
    }
}

/// The columns of the SGF `trees` table read from the game information, right after
/// `board_cols` and `board_rows`: `black_rank` and `white_rank` (`Int16`: `BR`, `WR` as
/// [`kifu::sgf::Rank::value`], kyu N −N, dan N N, professional dan N 9 + N), `year`
/// (`Int32`) and `month` (`Utf8`, `YYYY-MM`) of `DT` (the game keys' reading,
/// [`values::Date::of_game`]), `outcome` (`Utf8`, never null: the game keys' `result`, `1-0`
/// a White win, `0-1` a Black win, `1/2-1/2` a draw, else `*`, as the PGN `games` table
/// writes it), `winner` (`Utf8`: `black` or `white`), `win_by` (`Utf8`: `points`, `resign`,
/// `time`, `forfeit`, `draw`, `void`) and `margin` (`Float64`: the points of a win on the
/// count), from `RE` ([`kifu::sgf::GoResult`]). Null where the property is missing or does
/// not read.
pub const SGF_GAME_INFO_COLUMNS: [&str; 8] = [
    "black_rank",
    "white_rank",
    "year",
    "month",
    "outcome",
    "winner",
    "win_by",
    "margin",
];

fn prop_column(name: &[u8]) -> Option<usize> {
    SGF_ROOT_COLUMNS
        .iter()
        .position(|(n, _)| n.as_bytes() == name)
}

fn props_type() -> DataType {
    map_of(list_of(DataType::Utf8, false))
}

fn moves_type() -> DataType {
    list_of(DataType::Utf8, true)
}

pub(crate) fn fields() -> Vec<Field> {
    let mut f: Vec<Field> = key_fields().into();
    f.extend(SGF_ROOT_COLUMNS.iter().map(|(name, ty)| {
        let dt = match ty {
            PropType::Text => DataType::Utf8,
            PropType::Int32 => DataType::Int32,
            PropType::Real => DataType::Float64,
        };
        Field::new(root_column_name(name), dt, true)
    }));
    f.push(Field::new("board_cols", DataType::Int32, false));
    f.push(Field::new("board_rows", DataType::Int32, false));
    f.push(Field::new("black_rank", DataType::Int16, true));
    f.push(Field::new("white_rank", DataType::Int16, true));
    f.push(Field::new("year", DataType::Int32, true));
    f.push(Field::new("month", DataType::Utf8, true));
    f.push(Field::new("outcome", DataType::Utf8, false));
    f.push(Field::new("winner", DataType::Utf8, true));
    f.push(Field::new("win_by", DataType::Utf8, true));
    f.push(Field::new("margin", DataType::Float64, true));
    f.push(Field::new("props", props_type(), false));
    f.push(Field::new("moves", moves_type(), false));
    f.push(Field::new("colors", DataType::Utf8, false));
    f.push(Field::new("plies", DataType::Int32, false));
    f.push(Field::new("nodes", DataType::Int64, false));
    f.push(Field::new("variations", DataType::Int64, false));
    f.push(Field::new("charset", DataType::Utf8, false));
    f.extend(Errors::fields(true));
    f
}

#[derive(Debug)]
enum PropCol {
    Text(StringBuilder),
    Int(Int32Builder),
    Real(Float64Builder),
}

/// Pushes the rows of a tree's errors (SGF).
pub(crate) fn push_errors(errors: &mut Errors, tree: &sgf::GameTree) {
    for e in tree.errors() {
        errors.push(ErrorRow {
            kind: e.kind.name(),
            code: Some(e.code()),
            severity: e.severity.as_str(),
            message: &e.message(),
            text: &String::from_utf8_lossy(&e.text),
            pos: e.pos,
            at_move: None,
            at_node: e.at.map(|a| (a.node, a.depth)),
        });
    }
    errors.end_row(tree.errors().len() as u64 + tree.errors_dropped());
}

/// The alternatives of a tree: every child beyond the first of a node (a branching into two
/// subtrees is one variation, as `kifu stats` counts).
pub(crate) fn variations(tree: &sgf::GameTree) -> u64 {
    tree.nodes()
        .map(|n| n.children().count().saturating_sub(1) as u64)
        .sum()
}

#[derive(Debug)]
pub(crate) struct TreesBuilder {
    charset: Charset,
    file: StringBuilder,
    index: Int64Builder,
    offset: Int64Builder,
    cols: Vec<PropCol>,
    board_cols: Int32Builder,
    board_rows: Int32Builder,
    black_rank: Int16Builder,
    white_rank: Int16Builder,
    year: Int32Builder,
    month: StringBuilder,
    outcome: StringBuilder,
    winner: StringBuilder,
    win_by: StringBuilder,
    margin: Float64Builder,
    props: Lists,
    prop_keys: StringBuilder,
    prop_values: Lists,
    prop_items: StringBuilder,
    moves: Lists,
    points: StringBuilder,
    colors: StringBuilder,
    plies: Int32Builder,
    nodes: Int64Builder,
    variations: Int64Builder,
    charset_col: StringBuilder,
    errors: Errors,
    rows: usize,
    bytes: usize,
    /// The current row's other properties, merged by identifier.
    other: Vec<(String, Vec<String>)>,
}

impl TreesBuilder {
    pub(crate) fn new(opts: &TableOptions) -> TreesBuilder {
        TreesBuilder {
            charset: opts.charset,
            file: StringBuilder::with_capacity(0, 0),
            index: Int64Builder::with_capacity(0),
            offset: Int64Builder::with_capacity(0),
            cols: SGF_ROOT_COLUMNS
                .iter()
                .map(|(_, t)| match t {
                    PropType::Text => PropCol::Text(StringBuilder::with_capacity(0, 0)),
                    PropType::Int32 => PropCol::Int(Int32Builder::with_capacity(0)),
                    PropType::Real => PropCol::Real(Float64Builder::with_capacity(0)),
                })
                .collect(),
            board_cols: Int32Builder::with_capacity(0),
            board_rows: Int32Builder::with_capacity(0),
            black_rank: Int16Builder::with_capacity(0),
            white_rank: Int16Builder::with_capacity(0),
            year: Int32Builder::with_capacity(0),
            month: StringBuilder::with_capacity(0, 0),
            outcome: StringBuilder::with_capacity(0, 0),
            winner: StringBuilder::with_capacity(0, 0),
            win_by: StringBuilder::with_capacity(0, 0),
            margin: Float64Builder::with_capacity(0),
            props: Lists::new(),
            prop_keys: StringBuilder::with_capacity(0, 0),
            prop_values: Lists::new(),
            prop_items: StringBuilder::with_capacity(0, 0),
            moves: Lists::new(),
            points: StringBuilder::with_capacity(0, 0),
            colors: StringBuilder::with_capacity(0, 0),
            plies: Int32Builder::with_capacity(0),
            nodes: Int64Builder::with_capacity(0),
            variations: Int64Builder::with_capacity(0),
            charset_col: StringBuilder::with_capacity(0, 0),
            errors: Errors::new(true),
            rows: 0,
            bytes: 0,
            other: Vec::new(),
        }
    }

    pub(crate) fn rows(&self) -> usize {
        self.rows
    }

    pub(crate) fn estimated_bytes(&self) -> usize {
        self.bytes
    }

    fn other(&mut self, name: &str, value: String) {
        self.bytes += value.len() + name.len();
        match self.other.iter_mut().find(|(k, _)| k == name) {
            Some((_, v)) => v.push(value),
            None => self.other.push((name.to_owned(), vec![value])),
        }
    }

    pub(crate) fn push(&mut self, file: &str, tree: &sgf::GameTree) {
        self.rows += 1;
        let enc: &'static Encoding = self.charset.encoding_of(tree);
        self.file.append_value(file);
        self.index.append_value(clamp_i64(tree.index()));
        self.offset.append_value(clamp_i64(tree.offset()));

        // root properties: the first value of the first of each typed one to its column
        let mut set = [false; NPROPS];
        let (mut black_rank, mut white_rank, mut result) = (None, None, None);
        let (mut year, mut month) = (None, None);
        if !tree.is_empty() {
            for prop in tree.root().properties() {
                let name_bytes = prop.name();
                let name = String::from_utf8_lossy(name_bytes);
                let mut values = prop.values();
                let col = prop_column(name_bytes).filter(|&i| !set[i]);
                if let Some(i) = col {
                    set[i] = true;
                    let first = values
                        .next()
                        .map(|v| text(v, name_bytes, enc).into_owned())
                        .unwrap_or_default();
                    let ok = match &mut self.cols[i] {
                        PropCol::Text(b) => {
                            b.append_value(&first);
                            true
                        }
                        PropCol::Int(b) => {
                            let n = values::int::<i32>(&first);
                            b.append_option(n);
                            n.is_some()
                        }
                        PropCol::Real(b) => {
                            let x = values::real(&first);
                            b.append_option(x);
                            x.is_some()
                        }
                    };
                    match name_bytes {
                        b"BR" => black_rank = Rank::parse(first.as_bytes()),
                        b"WR" => white_rank = Rank::parse(first.as_bytes()),
                        b"RE" => result = GoResult::parse(first.as_bytes()),
                        b"DT" => {
                            year = values::Date::of_game([Some(&*first)], false);
                            month = values::Date::of_game([Some(&*first)], true);
                        }
                        _ => {}
                    }
                    self.bytes += first.len();
                    if !ok {
                        self.other(&name, first);
                    }
                }
                for v in values {
                    let t = text(v, name_bytes, enc).into_owned();
                    self.other(&name, t);
                }
            }
        }
        for (i, col) in self.cols.iter_mut().enumerate() {
            if !set[i] {
                match col {
                    PropCol::Text(b) => b.append_null(),
                    PropCol::Int(b) => b.append_null(),
                    PropCol::Real(b) => b.append_null(),
                }
            }
        }
        let size = tree.board_size();
        self.board_cols.append_value(i32::from(size.cols));
        self.board_rows.append_value(i32::from(size.rows));
        self.black_rank.append_option(black_rank.map(Rank::value));
        self.white_rank.append_option(white_rank.map(Rank::value));
        // the game keys' `year`, `month` and `result` (kifu-pipeline's `keys`)
        self.year.append_option(
            year.and_then(|d| d.year)
                .and_then(|y| i32::try_from(y).ok()),
        );
        self.month.append_option(month.and_then(|d| d.month_text()));
        self.outcome
            .append_value(values::go_outcome(result.as_ref()).as_str());
        self.winner
            .append_option(result.and_then(GoResult::winner).map(|c| match c {
                Color::Black => "black",
                Color::White => "white",
            }));
        self.win_by.append_option(result.and_then(GoResult::win_by));
        self.margin.append_option(result.and_then(GoResult::margin));
        for (k, vs) in self.other.drain(..) {
            self.prop_keys.append_value(k);
            for v in vs {
                self.prop_items.append_value(v);
            }
            self.prop_values.close(self.prop_items.len());
        }
        self.props.close(self.prop_keys.len());

        // the main line's moves
        let mut colors = String::new();
        let mut n = 0i32;
        if !tree.is_empty() {
            for node in tree.main_line() {
                if let Some((color, point)) = node.go_move() {
                    n += 1;
                    colors.push(if color == Color::Black { 'B' } else { 'W' });
                    match point {
                        Some(p) => self.points.append_value(p.to_string()),
                        None => self.points.append_null(),
                    }
                }
            }
        }
        self.moves.close(self.points.len());
        self.bytes += colors.len() * 4 + 64;
        self.colors.append_value(&colors);
        self.plies.append_value(n);
        self.nodes.append_value(tree.len() as i64);
        self.variations.append_value(clamp_i64(variations(tree)));
        self.charset_col.append_value(enc.name());
        push_errors(&mut self.errors, tree);
    }

    pub(crate) fn finish(&mut self) -> Vec<ArrayRef> {
        let mut out: Vec<ArrayRef> = vec![
            Arc::new(self.file.finish()),
            Arc::new(self.index.finish()),
            Arc::new(self.offset.finish()),
        ];
        for col in &mut self.cols {
            out.push(match col {
                PropCol::Text(b) => Arc::new(b.finish()),
                PropCol::Int(b) => Arc::new(b.finish()),
                PropCol::Real(b) => Arc::new(b.finish()),
            });
        }
        out.push(Arc::new(self.board_cols.finish()));
        out.push(Arc::new(self.board_rows.finish()));
        out.push(Arc::new(self.black_rank.finish()));
        out.push(Arc::new(self.white_rank.finish()));
        out.push(Arc::new(self.year.finish()));
        out.push(Arc::new(self.month.finish()));
        out.push(Arc::new(self.outcome.finish()));
        out.push(Arc::new(self.winner.finish()));
        out.push(Arc::new(self.win_by.finish()));
        out.push(Arc::new(self.margin.finish()));
        let keys = Arc::new(self.prop_keys.finish());
        let items = Arc::new(self.prop_items.finish());
        let values = self
            .prop_values
            .finish_list(&list_of(DataType::Utf8, false), items);
        out.push(self.props.finish_map(&props_type(), keys, values));
        let points = Arc::new(self.points.finish());
        out.push(self.moves.finish_list(&moves_type(), points));
        out.push(Arc::new(self.colors.finish()));
        out.push(Arc::new(self.plies.finish()));
        out.push(Arc::new(self.nodes.finish()));
        out.push(Arc::new(self.variations.finish()));
        out.push(Arc::new(self.charset_col.finish()));
        out.extend(self.errors.finish());
        self.rows = 0;
        self.bytes = 0;
        out
    }
}
