//! The PGN `positions` table: a row per position of the main line (the final one included),
//! the boards as python-chess's bitboards, castling and en passant as python-chess has them,
//! the policy index back to the UCI for every move (of a sample, and of the whole corpus when
//! `../shared` is there), and what a move that cannot be played does.

mod common;

use arrow_array::cast::AsArray;
use arrow_array::types::{Int8Type, Int16Type, Int32Type, Int64Type};
use arrow_array::{Array, RecordBatch};
use common::{files, pgn_batch};
use kifu_export::{Builder, POLICY_SIZE, Table, TableOptions, policy_index, policy_uci};

fn batch(pgn: &str) -> RecordBatch {
    pgn_batch(
        Table::PgnPositions,
        &TableOptions::default(),
        "t.pgn",
        pgn.as_bytes(),
    )
}

fn i64s(b: &RecordBatch, name: &str) -> Vec<Option<i64>> {
    b.column_by_name(name)
        .unwrap()
        .as_primitive::<Int64Type>()
        .iter()
        .collect()
}

fn i32s(b: &RecordBatch, name: &str) -> Vec<Option<i32>> {
    b.column_by_name(name)
        .unwrap()
        .as_primitive::<Int32Type>()
        .iter()
        .collect()
}

fn i8s(b: &RecordBatch, name: &str) -> Vec<Option<i8>> {
    b.column_by_name(name)
        .unwrap()
        .as_primitive::<Int8Type>()
        .iter()
        .collect()
}

fn strs(b: &RecordBatch, name: &str) -> Vec<Option<String>> {
    b.column_by_name(name)
        .unwrap()
        .as_string::<i32>()
        .iter()
        .map(|s| s.map(str::to_string))
        .collect()
}

fn bitboards(b: &RecordBatch, row: usize) -> Vec<u64> {
    let list = b.column_by_name("bitboards").unwrap().as_list::<i32>();
    let v = list.value(row);
    v.as_primitive::<Int64Type>()
        .values()
        .iter()
        .map(|&x| x as u64)
        .collect()
}

#[test]
fn a_row_per_position_the_final_one_without_a_move() {
    let b = batch(
        "[White \"a\"]\n[Result \"1-0\"]\n[WhiteElo \"2100\"]\n[TimeControl \"180+2\"]\n\n\
         1. e4 {[%clk 0:03:00]} e5 {[%clk 0:02:59] [%eval 0.3]} 2. Nf3 1-0\n\n\
         [Result \"*\"]\n\n1. d4 *\n",
    );
    assert_eq!(b.num_rows(), 4 + 2);
    assert_eq!(
        i64s(&b, "game_index"),
        [0, 0, 0, 0, 1, 1].map(Some).to_vec()
    );
    assert_eq!(i32s(&b, "ply"), [0, 1, 2, 3, 0, 1].map(Some).to_vec());
    let san = strs(&b, "san");
    assert_eq!(
        san[..4],
        [
            Some("e4".into()),
            Some("e5".into()),
            Some("Nf3".into()),
            None
        ]
    );
    let uci = strs(&b, "uci");
    assert_eq!(
        uci[..4],
        [
            Some("e2e4".into()),
            Some("e7e5".into()),
            Some("g1f3".into()),
            None
        ]
    );
    let policy = b
        .column_by_name("policy")
        .unwrap()
        .as_primitive::<Int16Type>();
    assert!(policy.is_null(3) && policy.is_null(5));
    assert_eq!(policy.value(0), 12 * 64 + 28);
    // the game's score from the side to move's view
    assert_eq!(
        i8s(&b, "score"),
        [Some(1), Some(-1), Some(1), Some(-1), None, None]
    );
    let side = strs(&b, "side_to_move");
    assert_eq!(side[..2], [Some("white".into()), Some("black".into())]);
    // clock and evaluation after the move played from the position
    let clock = b
        .column_by_name("clock")
        .unwrap()
        .as_primitive::<arrow_array::types::Float64Type>();
    assert_eq!((clock.value(0), clock.value(1)), (180.0, 179.0));
    assert!(clock.is_null(2) && clock.is_null(3));
    assert_eq!(i32s(&b, "eval_cp")[..2], [None, Some(30)]);
    let elo = b
        .column_by_name("WhiteElo")
        .unwrap()
        .as_primitive::<Int16Type>();
    assert_eq!((elo.value(0), elo.is_null(4)), (2100, true));
    assert_eq!(strs(&b, "speed")[0].as_deref(), Some("blitz"));
    assert!(strs(&b, "error").iter().all(Option::is_none));
    // the key is the Polyglot key, the EPD the FEN without its counters
    assert_eq!(i64s(&b, "key")[0], Some(0x463b96181691fc9c_u64 as i64));
    assert_eq!(i64s(&b, "key")[1], Some(0x823c9b50fd114196_u64 as i64));
    assert_eq!(
        strs(&b, "epd")[0].as_deref(),
        Some("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -")
    );
    assert_eq!(
        strs(&b, "material")[0].as_deref(),
        Some("KQRRBBNNPPPPPPPPkqrrbbnnpppppppp")
    );
}

#[test]
fn bitboards_castling_and_en_passant() {
    let b = batch("1. e4 c5 2. Ke2 *");
    // python-chess: [board.pieces_mask(t, c) for c in (WHITE, BLACK) for t in PAWN..KING]
    let start: [u64; 12] = [
        0x0000_0000_0000_ff00,
        0x0000_0000_0000_0042,
        0x0000_0000_0000_0024,
        0x0000_0000_0000_0081,
        0x0000_0000_0000_0008,
        0x0000_0000_0000_0010,
        0x00ff_0000_0000_0000,
        0x4200_0000_0000_0000,
        0x2400_0000_0000_0000,
        0x8100_0000_0000_0000,
        0x0800_0000_0000_0000,
        0x1000_0000_0000_0000,
    ];
    assert_eq!(bitboards(&b, 0), start);
    let after_e4 = bitboards(&b, 1);
    assert_eq!(after_e4[0], 0x0000_0000_1000_ef00);
    assert_eq!(after_e4[1..], start[1..]);
    // KQkq = 1 | 2 | 4 | 8; after Ke2 White has none
    assert_eq!(i8s(&b, "castling"), [15, 15, 15, 12].map(Some).to_vec());
    // python-chess's ep_square: the square behind any double step (e3 = 20, c6 = 42)
    assert_eq!(i8s(&b, "ep_square"), [None, Some(20), Some(42), None]);
    assert_eq!(i32s(&b, "halfmove_clock"), [0, 0, 0, 1].map(Some).to_vec());
    // the bitboards are signed: h8's bit is the sign
    let b = batch("1. h4 *");
    assert!((bitboards(&b, 0)[9] as i64) < 0);
}

#[test]
fn an_illegal_move_ends_the_rows_and_says_why() {
    let b = batch("1. e4 e5 2. Ke3 Nc6 3. Nf3 *\n");
    // e4, e5, then the position where Ke3 is written: its row names the move, no UCI
    assert_eq!(b.num_rows(), 3);
    assert_eq!(strs(&b, "san")[2].as_deref(), Some("Ke3"));
    assert_eq!(strs(&b, "uci")[2], None);
    assert_eq!(
        strs(&b, "error"),
        [None, None, Some("illegal_move".to_string())]
    );
}

/// A game with no position to start from (a variant that is not chess, a FEN that does not
/// read) adds no row, and its push says why, for the caller to name it.
#[test]
fn a_game_that_is_not_replayed_is_refused_with_its_reason() {
    let mut b = Builder::new(Table::PgnPositions, &TableOptions::default());
    for (pgn, why) in [
        (
            "[Variant \"Crazyhouse\"]\n\n1. e4 *\n",
            "the variant \"Crazyhouse\" is not chess",
        ),
        (
            "[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4 *\n",
            "the FEN tag does not read",
        ),
    ] {
        let game = kifu::pgn::Games::new(pgn.as_bytes()).next().unwrap();
        let e = b.push_pgn("x.pgn", &game).unwrap_err();
        assert!(
            matches!(e, kifu_export::PushError::NotReplayed { index: 0, .. }),
            "{e:?}"
        );
        assert!(e.to_string().starts_with(why), "{e}");
    }
    assert_eq!(b.finish().num_rows(), 0);
}

#[test]
fn a_game_from_a_fen_counts_its_plies_from_zero() {
    let b =
        batch("[FEN \"4k3/P7/8/8/8/8/8/4K3 w - - 0 40\"]\n[SetUp \"1\"]\n\n40. a8=N Kd7 41. Kd2 *");
    assert_eq!(i32s(&b, "ply"), [0, 1, 2, 3].map(Some).to_vec());
    assert_eq!(strs(&b, "uci")[0].as_deref(), Some("a7a8n"));
    assert_eq!(strs(&b, "material")[0].as_deref(), Some("KPk"));
    assert_eq!(strs(&b, "material")[1].as_deref(), Some("KNk"));
    let p = b
        .column_by_name("policy")
        .unwrap()
        .as_primitive::<Int16Type>();
    assert_eq!(
        policy_uci(p.value(0) as u16, false).as_deref(),
        Some("a7a8n")
    );
}

#[test]
fn null_moves_have_no_policy() {
    let b = batch("1. e4 -- 2. d4 *");
    assert_eq!(strs(&b, "uci")[1].as_deref(), Some("0000"));
    let p = b
        .column_by_name("policy")
        .unwrap()
        .as_primitive::<Int16Type>();
    assert!(p.is_null(1) && !p.is_null(2));
    assert_eq!(b.num_rows(), 4);
}

/// Every under-promotion index decodes to its move, and every index that decodes encodes back.
#[test]
fn the_policy_encoding_round_trips() {
    let mut decoded = 0;
    for i in 0..POLICY_SIZE as u16 {
        if let Some(uci) = policy_uci(i, false) {
            assert_eq!(policy_index(&uci), Some(i), "{uci}");
            decoded += 1;
        }
    }
    // 4,096 from × to and 3 × 16 × 3 under-promotions less the 3 × 4 off the board
    assert_eq!(decoded, 4096 + 144 - 12);
    assert_eq!(policy_uci(POLICY_SIZE as u16, false), None);
}

/// The policy index of each row decodes to its UCI (a queen's `q` from the UCI's length).
fn policy_round_trips(b: &RecordBatch) -> usize {
    let uci = b.column_by_name("uci").unwrap().as_string::<i32>();
    let p = b
        .column_by_name("policy")
        .unwrap()
        .as_primitive::<Int16Type>();
    let mut n = 0;
    for k in 0..b.num_rows() {
        match (uci.is_null(k), p.is_null(k)) {
            (true, true) => {}
            (false, true) => assert_eq!(uci.value(k), "0000"),
            (false, false) => {
                let u = uci.value(k);
                let back = policy_uci(p.value(k) as u16, u.ends_with('q')).unwrap();
                assert_eq!(back, u);
                n += 1;
            }
            (true, false) => panic!("a policy without a move at row {k}"),
        }
    }
    n
}

#[test]
fn policy_round_trips_on_a_sample() {
    let b = batch(
        "1. e4 d5 2. exd5 c6 3. dxc6 Qd6 4. cxb7 Kd8 5. bxa8=R Nc6 6. Nf3 Nf6 7. Be2 e5 \
         8. O-O Be7 9. d4 e4 10. d5 *\n\n\
         [FEN \"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1\"]\n\n1. O-O-O O-O *\n\n\
         [Variant \"Chess960\"]\n[FEN \"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9\"]\n\n\
         9. g3 Qc7 *",
    );
    assert_eq!(policy_round_trips(&b), 19 + 2 + 2);
    let uci = strs(&b, "uci");
    assert!(uci.contains(&Some("b7a8r".into())));
    assert!(uci.contains(&Some("e1c1".into())) && uci.contains(&Some("e8g8".into())));
}

/// Every game of the corpus: plies + 1 rows (or up to the move that could not be played), the
/// final row without a move, every policy index back to its UCI.
#[test]
#[cfg_attr(not(kifu_shared), ignore = "needs ../shared (the corpus)")]
fn the_corpus() {
    let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/pgn");
    let (mut games, mut rows, mut moves, mut stopped) = (0u64, 0usize, 0usize, 0u64);
    for path in files(&corpus, "pgn") {
        let data = std::fs::read(&path).unwrap();
        let mut b = Builder::new(Table::PgnPositions, &TableOptions::default());
        let mut expected = 0usize;
        let mut game_rows = Vec::new();
        for g in kifu::pgn::Games::new(&data) {
            let before = b.rows();
            // a game with no start (a variant, a bad FEN) is refused and adds no row
            if let Err(e) = b.push_pgn("c.pgn", &g) {
                assert!(
                    matches!(e, kifu_export::PushError::NotReplayed { .. }),
                    "{}: {e}",
                    path.display()
                );
            }
            let n = b.rows() - before;
            assert!(n == 0 || n <= g.moves.len() + 1, "{}", path.display());
            game_rows.push((n, g.moves.len()));
            expected += n;
            games += 1;
        }
        let batch = b.finish();
        assert_eq!(batch.num_rows(), expected);
        // each game's last row: no move (a whole game) or the move that failed (its error)
        let uci = batch.column_by_name("uci").unwrap().as_string::<i32>();
        let error = batch.column_by_name("error").unwrap().as_string::<i32>();
        let mut at = 0;
        for (n, plies) in game_rows {
            if n == 0 {
                continue;
            }
            at += n;
            let last = at - 1;
            assert!(uci.is_null(last));
            if n == plies + 1 {
                assert!(error.is_null(last));
            } else {
                assert!(!error.is_null(last), "{} row {last}", path.display());
                stopped += 1;
            }
        }
        moves += policy_round_trips(&batch);
        rows += batch.num_rows();
    }
    eprintln!(
        "{games} games, {rows} positions, {moves} policy indexes, {stopped} games stopped at a move"
    );
    assert!(rows > 100_000, "{rows}");
}

/// A projection fills only the columns it keeps: each column alone, and a few together, equal
/// the full table's.
#[test]
fn every_projection_equals_the_full_tables_columns() {
    let pgn = "[White \"a\"]\n[WhiteElo \"2100\"]\n[TimeControl \"180+0\"]\n\n\
               1. e4 { [%clk 0:03:00] [%eval 0.3] } \
               e5 { [%clk 0:02:59] } 2. Nf3 Nc6 3. Bb5 a6 4. O-O d5 5. exd5 Qxd5 6. Ke2 1-0\n\n\
               [FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. e4 Kd7 2. e5 d5 3. exd6 *\n";
    let full = batch(pgn);
    let names: Vec<String> = full
        .schema()
        .fields()
        .iter()
        .map(|f| f.name().clone())
        .collect();
    let mut sets: Vec<Vec<&str>> = names.iter().map(|n| vec![n.as_str()]).collect();
    sets.push(vec!["ply", "policy", "bitboards", "score"]);
    sets.push(vec!["uci", "clock", "eval_mate"]);
    for set in sets {
        let mut b = Builder::new(Table::PgnPositions, &TableOptions::default())
            .project(&set)
            .unwrap();
        for game in kifu::pgn::Games::new(pgn.as_bytes()) {
            b.push_pgn("t.pgn", &game).unwrap();
        }
        let part = b.finish();
        assert_eq!(part.num_rows(), full.num_rows(), "{set:?}");
        for name in &set {
            assert_eq!(
                part.column_by_name(name).unwrap().to_data(),
                full.column_by_name(name).unwrap().to_data(),
                "{name} in {set:?}"
            );
        }
    }
}
