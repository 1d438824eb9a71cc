//! One vocabulary: every game key that `-w`, `--by` and `--partition-by` name is a column of
//! its format's table (the PGN `games`, the SGF `trees`) of the same name, with the same
//! values, so that the keys work in SQL too (`WHERE year >= 2021`, `GROUP BY month`); `result`
//! is the column `outcome` (`Result` is the tag's column, as written, and SQL names do not
//! tell case).

use arrow_array::cast::AsArray;
use arrow_array::types::{Float64Type, Int16Type, Int32Type};
use arrow_array::{Array, RecordBatch};
use arrow_schema::DataType;
use kifu_export::{Builder, Table, TableOptions};
use kifu_pipeline::keys::{DERIVED, Key};

/// The column a derived key is read from.
fn column_of(name: &str) -> &str {
    if name == "result" { "outcome" } else { name }
}

/// Row `i` of `name` as the keys show a value (`None` for null).
fn shown(batch: &RecordBatch, name: &str, i: usize) -> Option<String> {
    let col = batch
        .column_by_name(column_of(name))
        .unwrap_or_else(|| panic!("the table has no column for the key `{name}`"));
    if col.is_null(i) {
        return None;
    }
    Some(match col.data_type() {
        DataType::Utf8 => col.as_string::<i32>().value(i).to_string(),
        DataType::Int32 => col.as_primitive::<Int32Type>().value(i).to_string(),
        DataType::Int16 => col.as_primitive::<Int16Type>().value(i).to_string(),
        DataType::Float64 => col.as_primitive::<Float64Type>().value(i).to_string(),
        t => panic!("`{name}`: a column of {t}"),
    })
}

const PGN: &str = r#"[Date "2015.??.??"]
[Result "1-0"]
[TimeControl "180+2"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 0-1

[UTCDate "2021.03.04"]
[Date "2021.03.??"]
[Result "?"]

1. d4 d5 1/2-1/2

[EventDate "1999.12.??"]
[TimeControl "40/9000:300"]

1. c4 *

[Date "????.??.??"]
[Result "0-1"]

1. e4 c5 0-1

[Date "0800.01.02"]
[Result "1/2-1/2"]
[TimeControl "60"]

"#;

const SGF: &str = "(;GM[1]FF[4]SZ[19]DT[2004-05-06,07]RE[W+3.5]BR[3k]WR[2d];B[pd];W[dd];B[])\
(;GM[1]DT[1996]RE[B+R]BR[9p];B[aa])\
(;GM[1]RE[0]WR[7 dan])\
(;GM[1]DT[2010-13]RE[Void])";

#[test]
fn every_pgn_key_is_a_games_column_with_the_keys_values() {
    let games: Vec<kifu::pgn::Game> = kifu::pgn::Games::new(PGN.as_bytes()).collect();
    assert_eq!(games.len(), 5);
    let mut b = Builder::new(Table::PgnGames, &TableOptions::default());
    for g in &games {
        b.push_pgn("k.pgn", g).unwrap();
    }
    let batch = b.finish();
    let mut seen = 0;
    for d in DERIVED.iter().filter(|d| d.pgn) {
        let key = Key::parse(d.name).unwrap();
        for (i, g) in games.iter().enumerate() {
            assert_eq!(
                shown(&batch, d.name, i),
                key.shown(g),
                "`{}` of game {i}",
                d.name
            );
        }
        seen += 1;
    }
    assert!(seen >= 11, "{seen} keys");
    // what the columns hold, spelt out
    let col = |n| (0..5).map(|i| shown(&batch, n, i)).collect::<Vec<_>>();
    let s = |v: &[Option<&str>]| v.iter().map(|x| x.map(String::from)).collect::<Vec<_>>();
    assert_eq!(
        col("year"),
        s(&[Some("2015"), Some("2021"), Some("1999"), None, Some("800")])
    );
    assert_eq!(
        col("month"),
        s(&[
            None,
            Some("2021-03"),
            Some("1999-12"),
            None,
            Some("0800-01")
        ])
    );
    // the Result tag before the marker; `?` is none of the four: the marker
    assert_eq!(
        col("outcome"),
        s(&[
            Some("1-0"),
            Some("1/2-1/2"),
            Some("*"),
            Some("0-1"),
            Some("1/2-1/2")
        ])
    );
    assert_eq!(
        col("winner"),
        s(&[Some("white"), None, None, Some("black"), None])
    );
}

#[test]
fn every_sgf_key_is_a_trees_column_with_the_keys_values() {
    let trees: Vec<kifu::sgf::GameTree> = kifu::sgf::GameTrees::new(SGF.as_bytes()).collect();
    assert_eq!(trees.len(), 4);
    let mut b = Builder::new(Table::SgfTrees, &TableOptions::default());
    for t in &trees {
        b.push_sgf("k.sgf", t).unwrap();
    }
    let batch = b.finish();
    let mut seen = 0;
    for d in DERIVED.iter().filter(|d| d.sgf) {
        let key = Key::parse(d.name).unwrap();
        for (i, t) in trees.iter().enumerate() {
            assert_eq!(
                shown(&batch, d.name, i),
                key.shown(t),
                "`{}` of tree {i}",
                d.name
            );
        }
        seen += 1;
    }
    assert!(seen >= 9, "{seen} keys");
    let col = |n| (0..4).map(|i| shown(&batch, n, i)).collect::<Vec<_>>();
    let s = |v: &[Option<&str>]| v.iter().map(|x| x.map(String::from)).collect::<Vec<_>>();
    assert_eq!(
        col("year"),
        s(&[Some("2004"), Some("1996"), None, Some("2010")])
    );
    assert_eq!(col("month"), s(&[Some("2004-05"), None, None, None]));
    assert_eq!(
        col("outcome"),
        s(&[Some("1-0"), Some("0-1"), Some("1/2-1/2"), Some("*")])
    );
    assert_eq!(
        col("plies"),
        s(&[Some("3"), Some("1"), Some("0"), Some("0")])
    );
}
