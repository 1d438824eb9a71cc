//! The SGF `positions` table's search and training columns (issues 34 and 35): `ply`, `key`,
//! `side_to_move`, `policy`, `ko_point`, `handicap_stones`, `score`, and the symmetries
//! (`TableOptions::symmetries`): each board, move, ko point and key turned together.

mod common;

use arrow_array::cast::AsArray;
use arrow_array::types::{Int8Type, Int16Type, Int32Type, Int64Type};
use arrow_array::{Array, RecordBatch};
use common::sgf_batch;
use kifu::sgf::{BoardSize, Color};
use kifu_export::{Table, TableOptions, schema};
use kifu_replay::go::{Symmetry, zobrist};

fn col<T: arrow_array::types::ArrowPrimitiveType>(
    b: &RecordBatch,
    name: &str,
) -> Vec<Option<T::Native>> {
    let a = b.column_by_name(name).unwrap().as_primitive::<T>();
    (0..a.len())
        .map(|i| (!a.is_null(i)).then(|| a.value(i)))
        .collect()
}

fn strs(b: &RecordBatch, name: &str) -> Vec<String> {
    let a = b.column_by_name(name).unwrap().as_string::<i32>();
    (0..a.len()).map(|i| a.value(i).to_string()).collect()
}

fn boards(b: &RecordBatch) -> Vec<Vec<u8>> {
    let a = b.column_by_name("board").unwrap().as_binary::<i32>();
    (0..a.len()).map(|i| a.value(i).to_vec()).collect()
}

fn positions(sgf: &str, symmetries: bool) -> RecordBatch {
    let opts = TableOptions {
        symmetries,
        ..TableOptions::default()
    };
    sgf_batch(Table::SgfPositions, &opts, "g.sgf", sgf.as_bytes())
}

/// The ko on the left edge of a 4x4 board: B[cb] takes bb, W retakes at once (a ko violation,
/// played all the same), then B elsewhere; RE says Black won.
const KO: &str = "(;GM[1]SZ[4]RE[B+R]AB[ba][ab][bc]AW[ca][bb][db][cc];B[cb];W[bb];B[dd];W[])";

#[test]
fn ply_key_side_policy_ko_score() {
    let p = positions(KO, false);
    assert_eq!(p.num_rows(), 4);
    assert_eq!(
        col::<Int32Type>(&p, "ply"),
        [Some(0), Some(1), Some(2), Some(3)]
    );
    // one name per concept, as the PGN positions table has them (issue 33)
    for gone in ["move_number", "to_play"] {
        assert!(p.column_by_name(gone).is_none(), "{gone}");
    }
    assert_eq!(
        strs(&p, "side_to_move"),
        ["black", "white", "black", "white"]
    );
    // y * cols + x; the pass is cols * rows
    assert_eq!(
        col::<Int16Type>(&p, "policy"),
        [Some(4 + 2), Some(4 + 1), Some(3 * 4 + 3), Some(16)]
    );
    // the ko point: bb (index 5) for White after B cb took it, cb (6) for Black after the retake
    assert_eq!(
        col::<Int16Type>(&p, "ko_point"),
        [None, Some(5), Some(6), None]
    );
    assert_eq!(strs(&p, "error")[1], "ko_violation");
    // Black won: +1 on Black's rows, -1 on White's
    assert_eq!(
        col::<Int8Type>(&p, "score"),
        [Some(1), Some(-1), Some(1), Some(-1)]
    );
    // a set-up position, white stones in it: no handicap stones
    assert_eq!(col::<Int32Type>(&p, "handicap_stones"), [None; 4]);
    assert_eq!(col::<Int8Type>(&p, "symmetry"), [Some(0); 4]);
    // the key: the board and the side to move, as kifu_replay::go::zobrist gives it
    let size = BoardSize { cols: 4, rows: 4 };
    let keys = col::<Int64Type>(&p, "key");
    for (i, board) in boards(&p).iter().enumerate() {
        let side = if i % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        assert_eq!(keys[i], Some(zobrist(size, board, side) as i64), "row {i}");
    }
    // the same types as the PGN positions table's columns of the same names
    let (pgn, sgf) = (
        schema(Table::PgnPositions, &TableOptions::default()),
        schema(Table::SgfPositions, &TableOptions::default()),
    );
    for name in ["ply", "key", "side_to_move", "policy", "score", "error"] {
        assert_eq!(
            pgn.field_with_name(name).unwrap().data_type(),
            sgf.field_with_name(name).unwrap().data_type(),
            "{name}"
        );
    }
}

#[test]
fn equal_positions_equal_keys() {
    // the same four stones in another order, then the same fifth move
    let p = positions(
        "(;SZ[9];B[cc];W[gg];B[cg];W[gc];B[ee])(;SZ[9];B[cg];W[gc];B[cc];W[gg];B[ee])",
        false,
    );
    let keys = col::<Int64Type>(&p, "key");
    assert_eq!(keys[4], keys[9]);
    assert_ne!(keys[3], keys[8]);
    // the same board, the other side to move: another key
    let q = positions("(;SZ[9];B[cc];W[gg];B[cg];W[gc];W[ee])", false);
    assert_ne!(col::<Int64Type>(&q, "key")[4], keys[4]);
}

#[test]
fn results_and_handicap_stones() {
    let p = positions(
        "(;SZ[9]HA[2]AB[cc][gg]RE[W+3.5];W[ee];B[])\
         (;SZ[9]HA[3]RE[Jigo];AB[cc][gg];W[ee])\
         (;SZ[9]RE[?];B[ee])\
         (;SZ[9]RE[Void];B[ee])\
         (;SZ[9];B[zz];W[ee])",
        false,
    );
    // White won: -1 for Black, +1 for White; a draw 0; unknown and void null
    assert_eq!(
        col::<Int8Type>(&p, "score"),
        [Some(1), Some(-1), Some(0), None, None, None, None]
    );
    // the stones before the first move, all black: 2 (HA says 2, then 3: the stones counted)
    assert_eq!(
        col::<Int32Type>(&p, "handicap_stones"),
        [
            Some(2),
            Some(2),
            Some(2),
            Some(0),
            Some(0),
            Some(0),
            Some(0)
        ]
    );
    assert_eq!(
        col::<Int32Type>(&p, "HA"),
        [Some(2), Some(2), Some(3), None, None, None, None]
    );
    // a move off the board: no x, y, policy
    assert_eq!(col::<Int16Type>(&p, "policy")[5], None);
    assert_eq!(col::<Int16Type>(&p, "policy")[6], Some(4 * 9 + 4));
}

#[test]
fn symmetries_turn_board_move_ko_and_key_together() {
    let plain = positions(KO, false);
    let p = positions(KO, true);
    assert_eq!(p.num_rows(), 8 * plain.num_rows());
    let size = BoardSize { cols: 4, rows: 4 };
    let syms = col::<Int8Type>(&p, "symmetry");
    let (b0, b) = (boards(&plain), boards(&p));
    let (x0, y0) = (col::<Int16Type>(&plain, "x"), col::<Int16Type>(&plain, "y"));
    let (x, y) = (col::<Int16Type>(&p, "x"), col::<Int16Type>(&p, "y"));
    let (policy, ko) = (
        col::<Int16Type>(&p, "policy"),
        col::<Int16Type>(&p, "ko_point"),
    );
    let ko0 = col::<Int16Type>(&plain, "ko_point");
    let keys = col::<Int64Type>(&p, "key");
    let sides = strs(&p, "side_to_move");
    let mut turned = Vec::new();
    for row in 0..p.num_rows() {
        let (i, s) = (row / 8, Symmetry((row % 8) as u8));
        assert_eq!(syms[row], Some(s.0 as i8));
        s.board(size, &b0[i], &mut turned);
        assert_eq!(b[row], turned, "row {i} {s:?}");
        let side = if sides[row] == "black" {
            Color::Black
        } else {
            Color::White
        };
        assert_eq!(keys[row], Some(zobrist(size, &turned, side) as i64));
        let at = |x: Option<i16>, y: Option<i16>| {
            x.zip(y)
                .map(|(x, y)| s.apply(i32::from(x), i32::from(y), 4, 4))
        };
        let moved = at(x0[i], y0[i]);
        assert_eq!(
            at(x0[i], y0[i]),
            x[row]
                .zip(y[row])
                .map(|(a, b)| (i32::from(a), i32::from(b)))
        );
        match moved {
            Some((a, b)) => assert_eq!(policy[row], Some((b * 4 + a) as i16)),
            None => assert_eq!(policy[row], Some(16)),
        }
        let k = ko0[i].map(|k| {
            let (a, b) = s.apply(i32::from(k % 4), i32::from(k / 4), 4, 4);
            (b * 4 + a) as i16
        });
        assert_eq!(ko[row], k, "row {i} {s:?}");
    }
    // the identity rows are the table without symmetries
    assert_eq!(
        (0..plain.num_rows())
            .map(|i| keys[i * 8])
            .collect::<Vec<_>>(),
        col::<Int64Type>(&plain, "key")
    );
    // a rectangular board: the 4 symmetries that keep its shape
    let r = positions("(;SZ[7:4];B[aa];W[gd])", true);
    assert_eq!(r.num_rows(), 2 * 4);
    assert_eq!(
        col::<Int8Type>(&r, "symmetry"),
        [0, 1, 2, 3, 0, 1, 2, 3].map(Some)
    );
    assert_eq!(col::<Int32Type>(&r, "board_cols"), [Some(7); 8]);
    // B aa under a left-right flip: ga, index 6; upside down: ad, 3 * 7
    assert_eq!(
        col::<Int16Type>(&r, "policy")[..4],
        [Some(0), Some(6), Some(21), Some(27)]
    );
}

#[test]
fn position_filters_apply_to_go() {
    use kifu_export::{PositionOptions, Sample};
    let sgf = "(;SZ[9]HA[2]AB[cc][gg];W[ee];B[ce];W[ec];B[ce];W[gc];B[cg])";
    let with = |positions: PositionOptions, symmetries: bool| {
        let opts = TableOptions {
            positions,
            symmetries,
            ..TableOptions::default()
        };
        sgf_batch(Table::SgfPositions, &opts, "g.sgf", sgf.as_bytes())
    };
    let all = with(PositionOptions::default(), false);
    assert_eq!(all.num_rows(), 6);
    // plies 2 to 4; the handicap stones still counted from the first position
    let p = with(
        PositionOptions {
            min_ply: 2,
            max_ply: Some(4),
            ..PositionOptions::default()
        },
        false,
    );
    assert_eq!(col::<Int32Type>(&p, "ply"), [Some(2), Some(3), Some(4)]);
    assert_eq!(col::<Int32Type>(&p, "handicap_stones"), [Some(2); 3]);
    // the rows end before B[ce] on an occupied point (ply 3)
    assert_eq!(strs(&all, "error")[3], "occupied_point");
    let p = with(
        PositionOptions {
            legal_only: true,
            ..PositionOptions::default()
        },
        false,
    );
    assert_eq!(col::<Int32Type>(&p, "ply"), [Some(0), Some(1), Some(2)]);
    // a sample keeps the same positions, each with its 8 symmetries
    let sample = || PositionOptions {
        sample: Sample::new(0.5, 3),
        ..PositionOptions::default()
    };
    let (a, b) = (with(sample(), false), with(sample(), true));
    assert!(a.num_rows() < 6);
    assert_eq!(b.num_rows(), 8 * a.num_rows());
    let plies: Vec<_> = col::<Int32Type>(&b, "ply").into_iter().step_by(8).collect();
    assert_eq!(plies, col::<Int32Type>(&a, "ply"));
}
