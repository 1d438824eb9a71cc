//! `kifu export --table positions` on Go games: the search and training columns, `--symmetries`
//! (each position once per symmetry, its board, move, ko point and key turned together), the
//! same bytes at every thread count, and the position filters on Go rows.

mod common;
use common::{Files, code, err, kifu, out};

/// A ko fought on a 9x9 board, a pass, a rectangular game.
const GAMES: &[u8] =
    b"(;GM[1]SZ[9]RE[W+R]AB[ba][ab][bc]AW[ca][bb][db][cc];B[cb];W[bb];B[ee];W[])\n\
(;GM[1]SZ[7:4]RE[B+2.5];B[aa];W[gd])\n";

fn rows(text: &str) -> Vec<serde_json::Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn symmetries_and_the_new_columns() {
    let dir = tempfile::tempdir().unwrap();
    let g = dir.file("g.sgf", GAMES);
    let export = |extra: &[&str], j: &str, name: &str| {
        let o_path = dir.path().join(name);
        let mut args = vec![
            "export",
            g.to_str().unwrap(),
            "--table",
            "positions",
            "--to",
            "jsonl",
            "-j",
            j,
            "-o",
            o_path.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let o = kifu(&args, None);
        assert_eq!(code(&o), 0, "{}{}", out(&o), err(&o));
        std::fs::read_to_string(&o_path).unwrap()
    };
    let plain = rows(&export(&[], "1", "plain.jsonl"));
    assert_eq!(plain.len(), 6);
    let col = |rows: &[serde_json::Value], name: &str| -> Vec<serde_json::Value> {
        rows.iter().map(|r| r[name].clone()).collect()
    };
    use serde_json::json;
    assert_eq!(col(&plain, "ply"), [0, 1, 2, 3, 0, 1].map(|n| json!(n)));
    assert_eq!(
        col(&plain, "side_to_move"),
        ["black", "white", "black", "white", "black", "white"].map(|s| json!(s))
    );
    // cb is 1 * 9 + 2; the pass 81; the ko point bb (10) for White, then cb (11) for Black
    assert_eq!(
        col(&plain, "policy")[..4],
        [json!(11), json!(10), json!(40), json!(81)]
    );
    assert_eq!(
        col(&plain, "ko_point")[..4],
        [json!(null), json!(10), json!(11), json!(null)]
    );
    // White won the first game, Black the second
    assert_eq!(
        col(&plain, "score"),
        [-1, 1, -1, 1, 1, -1].map(|n| json!(n))
    );
    // --symmetries: 8 rows a position on 9x9, 4 on 7x4; the same bytes at -j2
    let turned = export(&["--symmetries"], "1", "sym1.jsonl");
    assert_eq!(export(&["--symmetries"], "2", "sym2.jsonl"), turned);
    let turned = rows(&turned);
    assert_eq!(turned.len(), 4 * 8 + 2 * 4);
    let syms: Vec<i64> = col(&turned, "symmetry")
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect();
    assert_eq!(syms[..8], [0, 1, 2, 3, 4, 5, 6, 7]);
    assert_eq!(syms[32..], [0, 1, 2, 3, 0, 1, 2, 3]);
    // the identity rows are the plain rows
    let firsts: Vec<_> = turned
        .iter()
        .filter(|r| r["symmetry"] == 0)
        .cloned()
        .collect();
    assert_eq!(firsts, plain);
    // the ko point turned with the board: bb (1, 1) mirrored left-right is (7, 1)
    assert_eq!(turned[8 + 1]["ko_point"], json!(9 + 7));
    // with --legal-only the first game's rows end before W's retake (a ko violation)
    let legal = rows(&export(&["--legal-only"], "1", "legal.jsonl"));
    assert_eq!(col(&legal, "ply"), [0, 0, 1].map(|n| json!(n)));
}

#[test]
fn symmetries_only_where_go_positions_may_be() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.file("x.pgn", b"[Result \"1-0\"]\n\n1. e4 e5 1-0\n");
    let out_path = dir.path().join("o.jsonl");
    let o_arg = out_path.to_str().unwrap();
    // no table but positions turns: refused before anything is read
    let o = kifu(
        &["export", "--table", "games", "--symmetries", "-o", o_arg],
        None,
    );
    assert_eq!(code(&o), 2, "{}", err(&o));
    assert!(err(&o).contains("--table positions"), "{}", err(&o));
    assert!(!out_path.exists());
    // PGN positions only: written once each, and said so
    let o = kifu(
        &[
            "export",
            pgn.to_str().unwrap(),
            "--table",
            "positions",
            "--symmetries",
            "-o",
            o_arg,
        ],
        None,
    );
    assert_eq!(code(&o), 0, "{}", err(&o));
    assert!(
        err(&o).contains("PGN positions have no symmetries"),
        "{}",
        err(&o)
    );
    assert_eq!(out(&o), "");
    assert_eq!(
        std::fs::read_to_string(&out_path).unwrap().lines().count(),
        3
    );
    // a folder of both: the SGF positions turned, nothing to say
    let both = tempfile::tempdir().unwrap();
    both.file("a.pgn", b"[Result \"1-0\"]\n\n1. e4 e5 1-0\n");
    both.file("b.sgf", GAMES);
    let o = kifu(
        &[
            "export",
            both.path().to_str().unwrap(),
            "--table",
            "positions",
            "--symmetries",
            "--force",
            "-o",
            o_arg,
        ],
        None,
    );
    assert_eq!(code(&o), 0, "{}", err(&o));
    assert!(!err(&o).contains("no symmetries"), "{}", err(&o));
}

/// The Go positions table to Parquet, every column and the board and move only, with and
/// without `--symmetries`: the same bytes at one thread and two, over an input of several
/// pieces (its batches cut across the pieces' ends).
#[test]
fn parquet_is_the_same_at_every_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let seed = std::fs::read(kifu_testkit::data_path("seed-takemiya-cho-meijin-1996.sgf")).unwrap();
    let mut data = Vec::new();
    for k in 0..700 {
        data.extend_from_slice(if k % 2 == 0 { &seed } else { GAMES });
        data.push(b'\n');
    }
    assert!(data.len() > 2 * 256 * 1024, "several pieces");
    let g = dir.file("many.sgf", &data);
    for extra in [
        &[][..],
        &["--symmetries"],
        &["--columns", "game_index,ply,board,policy"],
    ] {
        let export = |j: &str| {
            let o_path = dir.path().join(format!("p{j}.parquet"));
            let mut args = vec![
                "export",
                g.to_str().unwrap(),
                "--table",
                "positions",
                "--force",
                "-j",
                j,
                "-o",
                o_path.to_str().unwrap(),
            ];
            args.extend_from_slice(extra);
            let o = kifu(&args, None);
            assert_eq!(code(&o), 0, "{}{}", out(&o), err(&o));
            std::fs::read(&o_path).unwrap()
        };
        let one = export("1");
        assert!(one.len() > 1000);
        assert!(export("2") == one, "-j2 {extra:?}");
    }
}
