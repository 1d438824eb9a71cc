//! The columns a replay adds ([`TableOptions::replay`](crate::TableOptions::replay)),
//! kifu-replay's DOM helper: `final_fen` to PGN `games` (the position after the main line,
//! null when it could not be replayed whole); `uci`, `fen` and `key` (the Polyglot key after
//! the move, as a signed 64-bit integer of the same bits) to PGN `moves` (null for a move that
//! could not be replayed).

use std::sync::Arc;

use arrow_array::ArrayRef;
use arrow_array::builder::{Int64Builder, StringBuilder};
use arrow_schema::{DataType, Field};
use kifu::pgn;
use kifu_replay::chess::{DomOptions, for_each_node, replay_game};

use crate::{MoveRow, Table};

/// The names of the columns a replay adds, to either table.
pub const REPLAY_COLUMNS: [&str; 4] = ["final_fen", "uci", "fen", "key"];

/// The fields a replay adds to `table` (none for a table it adds nothing to).
pub(crate) fn fields(table: Table) -> Vec<Field> {
    match table {
        Table::PgnGames => vec![Field::new("final_fen", DataType::Utf8, true)],
        Table::PgnMoves => vec![
            Field::new("uci", DataType::Utf8, true),
            Field::new("fen", DataType::Utf8, true),
            Field::new("key", DataType::Int64, true),
        ],
        _ => Vec::new(),
    }
}

/// The replayed columns of the rows pushed since the last `finish`.
#[derive(Debug)]
pub(crate) struct Replayed {
    table: Table,
    variations: bool,
    final_fen: StringBuilder,
    uci: StringBuilder,
    fen: StringBuilder,
    key: Int64Builder,
    /// Each replayed entry's node's address and the entry's place in the replay, by address
    /// (kept for its allocation; the addresses are compared, never read through).
    order: Vec<(usize, usize)>,
}

impl Replayed {
    pub(crate) fn new(table: Table, variations: bool) -> Replayed {
        Replayed {
            table,
            variations,
            final_fen: StringBuilder::with_capacity(0, 0),
            uci: StringBuilder::with_capacity(0, 0),
            fen: StringBuilder::with_capacity(0, 0),
            key: Int64Builder::with_capacity(0),
            order: Vec::new(),
        }
    }

    /// PGN `games`: the row of `game`.
    pub(crate) fn push_game(&mut self, game: &pgn::Game) {
        let options = DomOptions {
            fen: false,
            variations: false,
        };
        self.final_fen
            .append_option(replay_game(game, &options).end_fen());
    }

    /// PGN `moves`: the rows of `game`, one per entry of `rows`, in order.
    pub(crate) fn push_moves(&mut self, game: &pgn::Game, rows: &[MoveRow<'_>]) {
        let options = DomOptions {
            variations: self.variations,
            ..Default::default()
        };
        let r = replay_game(game, &options);
        // the replay's entries are in text order; a row finds its entry by its node
        self.order.clear();
        for_each_node(game, self.variations, |_, node| {
            let k = self.order.len();
            self.order.push((node as *const pgn::Node as usize, k));
        });
        self.order.sort_unstable();
        for row in rows {
            let at = row.node as *const pgn::Node as usize;
            let n = self
                .order
                .binary_search_by_key(&at, |&(a, _)| a)
                .ok()
                .and_then(|i| r.nodes.get(self.order[i].1));
            self.uci
                .append_option(n.and_then(|n| n.uci).map(|u| u.to_string()));
            self.fen.append_option(n.and_then(|n| n.fen.as_deref()));
            self.key
                .append_option(n.and_then(|n| n.key).map(|k| k as i64));
        }
        self.order.clear();
    }

    /// The columns of the rows since the last call.
    pub(crate) fn finish(&mut self) -> Vec<ArrayRef> {
        match self.table {
            Table::PgnGames => vec![Arc::new(self.final_fen.finish())],
            _ => vec![
                Arc::new(self.uci.finish()),
                Arc::new(self.fen.finish()),
                Arc::new(self.key.finish()),
            ],
        }
    }
}
