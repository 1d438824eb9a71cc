//! Every table built from every small corpus file (ignored without `../shared`): one row per
//! game the library reads (as `kifu stats` counts them), one moves row per ply, every problem
//! in its row, and never a panic.

mod common;

use arrow_array::cast::AsArray;
use arrow_array::types::Int32Type;
use common::{files, shared};
use kifu_export::{Builder, Table, TableOptions};

fn sum_i32(batch: &arrow_array::RecordBatch, name: &str) -> i64 {
    let a = batch
        .column_by_name(name)
        .unwrap()
        .as_primitive::<Int32Type>();
    a.values().iter().map(|&v| i64::from(v)).sum()
}

#[test]
#[cfg_attr(not(kifu_shared), ignore = "needs ../shared (the corpus)")]
fn pgn_corpus_every_game_a_row() {
    let shared = shared();
    let with_variations = TableOptions {
        variations: true,
        ..TableOptions::default()
    };
    let (mut games_total, mut files_seen) = (0u64, 0);
    for path in files(&shared.join("corpus/pgn/small"), "pgn") {
        let data = std::fs::read(&path).unwrap();
        let name = path.display().to_string();
        let mut games = Builder::new(Table::PgnGames, &TableOptions::default());
        let mut moves = Builder::new(Table::PgnMoves, &TableOptions::default());
        let mut all_moves = Builder::new(Table::PgnMoves, &with_variations);
        let (mut n, mut plies, mut tree_moves, mut problems) = (0u64, 0i64, 0u64, 0i64);
        for g in kifu::pgn::Games::new(&data) {
            n += 1;
            plies += g.moves.len() as i64;
            tree_moves += g.count_moves() as u64;
            problems += (g.errors.len() as u64 + g.errors_dropped) as i64;
            games.push_pgn(&name, &g).unwrap();
            moves.push_pgn(&name, &g).unwrap();
            all_moves.push_pgn(&name, &g).unwrap();
        }
        // the count kifu stats gives: games ended by the event parser
        let mut stats = GameCount(0);
        kifu::pgn::parse(&data, &mut stats);
        assert_eq!(n, stats.0, "{name}");
        let g = games.finish();
        assert_eq!(g.num_rows() as u64, n, "{name}");
        assert_eq!(sum_i32(&g, "plies"), plies, "{name}");
        assert_eq!(sum_i32(&g, "error_count"), problems, "{name}");
        assert_eq!(moves.finish().num_rows() as i64, plies, "{name}");
        assert_eq!(all_moves.finish().num_rows() as u64, tree_moves, "{name}");
        games_total += n;
        files_seen += 1;
    }
    assert!(
        files_seen > 50 && games_total > 1000,
        "{files_seen} files, {games_total} games"
    );
}

struct GameCount(u64);

impl kifu::pgn::Visitor for GameCount {
    fn on_tree_end(&mut self, ctx: &kifu::pgn::Context) -> kifu::Control {
        if ctx.depth == 0 {
            self.0 += 1;
        }
        kifu::Control::Continue
    }
}

#[test]
#[cfg_attr(not(kifu_shared), ignore = "needs ../shared (the corpus)")]
fn sgf_corpus_every_tree_a_row() {
    let shared = shared();
    let mut total = 0u64;
    for path in files(&shared.join("corpus/sgf/small"), "sgf") {
        let data = std::fs::read(&path).unwrap();
        let name = path.display().to_string();
        let mut trees = Builder::new(Table::SgfTrees, &TableOptions::default());
        let mut moves = Builder::new(Table::SgfMoves, &TableOptions::default());
        let mut json = Builder::new(Table::SgfJson, &TableOptions::default());
        let (mut n, mut not_json) = (0u64, 0u64);
        for t in kifu::sgf::game_trees(&data) {
            n += 1;
            trees.push_sgf(&name, &t).unwrap();
            moves.push_sgf(&name, &t).unwrap();
            if json.push_sgf(&name, &t).is_err() {
                not_json += 1;
            }
        }
        let t = trees.finish();
        assert_eq!(t.num_rows() as u64, n, "{name}");
        assert_eq!(
            moves.finish().num_rows() as i64,
            sum_i32(&t, "plies"),
            "{name}"
        );
        assert_eq!(json.finish().num_rows() as u64 + not_json, n, "{name}");
        total += n;
    }
    assert!(total > 500, "{total} trees");
}
