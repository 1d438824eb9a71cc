//! `kifu export --to npz|npy`: the positions tables as NumPy arrays. Every array holds the
//! values of the table's column (checked against the JSON Lines export of the same input, the
//! null conventions of docs/export.md included), `-jN` writes the bytes `-j1` writes, shards
//! hold exactly N rows but the last, Go boards of several sizes, text only when asked, and the
//! output as safely written as the other formats'. The files are read here with the zip crate
//! and a reader of NumPy's `.npy` format (python/tests/test_npz.py reads them with NumPy).

mod common;

use std::ffi::OsString;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use common::{Files, code, entries, err, kifu};
use serde_json::Value;

/// An array of an `.npy` file: its dtype, shape and values' bytes.
#[derive(Debug, PartialEq)]
struct Npy {
    descr: String,
    shape: Vec<usize>,
    data: Vec<u8>,
}

impl Npy {
    /// Reads an `.npy` file (version 1.0 or 2.0), checking its header as NumPy writes it.
    fn parse(bytes: &[u8]) -> Npy {
        assert_eq!(&bytes[..6], b"\x93NUMPY", "the magic string");
        let (len, start) = match bytes[6] {
            1 => (usize::from(u16::from_le_bytes([bytes[8], bytes[9]])), 10),
            2 => (
                u32::from_le_bytes(bytes[8..12].try_into().unwrap()) as usize,
                12,
            ),
            v => panic!("version {v}"),
        };
        let end = start + len;
        assert_eq!(end % 64, 0, "the values start at a multiple of 64");
        let dict = std::str::from_utf8(&bytes[start..end]).unwrap();
        assert!(dict.ends_with('\n'));
        assert!(dict.contains("'fortran_order': False"), "{dict}");
        let descr = dict.split("'descr': '").nth(1).unwrap();
        let descr = descr[..descr.find('\'').unwrap()].to_string();
        let shape = dict.split("'shape': (").nth(1).unwrap();
        let shape: Vec<usize> = shape[..shape.find(')').unwrap()]
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|s| s.parse().unwrap())
            .collect();
        let npy = Npy {
            descr,
            shape,
            data: bytes[end..].to_vec(),
        };
        assert_eq!(
            npy.data.len(),
            npy.shape.iter().product::<usize>() * npy.item(),
            "{dict}"
        );
        npy
    }

    fn item(&self) -> usize {
        self.descr[2..].parse().unwrap()
    }

    fn rows(&self) -> usize {
        self.shape[0]
    }

    /// The values as integers (any integer dtype).
    fn ints(&self) -> Vec<i64> {
        let w = self.item();
        let signed = self.descr.as_bytes()[1] == b'i';
        assert!(
            matches!(self.descr.as_bytes()[1], b'i' | b'u'),
            "{}",
            self.descr
        );
        self.data
            .chunks(w)
            .map(|c| {
                let mut b = [0u8; 8];
                b[..w].copy_from_slice(c);
                let v = u64::from_le_bytes(b);
                if signed && w < 8 {
                    let shift = 64 - 8 * w as u32;
                    ((v << shift) as i64) >> shift
                } else {
                    v as i64
                }
            })
            .collect()
    }

    fn floats(&self) -> Vec<f32> {
        assert_eq!(self.descr, "<f4");
        self.data
            .chunks(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
            .collect()
    }

    /// Fixed-width bytes, their NUL padding cut.
    fn texts(&self) -> Vec<String> {
        assert!(self.descr.starts_with("|S"), "{}", self.descr);
        self.data
            .chunks(self.item())
            .map(|c| {
                let end = c.iter().rposition(|&b| b != 0).map_or(0, |e| e + 1);
                String::from_utf8(c[..end].to_vec()).unwrap()
            })
            .collect()
    }
}

/// The members of an `.npz` archive, in order, each checked stored and read.
fn npz(path: &Path) -> Vec<(String, Npy)> {
    let bytes = fs::read(path).unwrap();
    let mut z = zip::ZipArchive::new(std::io::Cursor::new(&bytes[..])).unwrap();
    (0..z.len())
        .map(|i| {
            let mut f = z.by_index(i).unwrap();
            assert_eq!(f.compression(), zip::CompressionMethod::Stored);
            let start = f.data_start().unwrap() as usize;
            assert_eq!(
                start % 64,
                0,
                "{}: its bytes start at a multiple of 64",
                f.name()
            );
            let mut v = Vec::new();
            f.read_to_end(&mut v).unwrap();
            let name = f.name().strip_suffix(".npy").unwrap().to_string();
            (name, Npy::parse(&v))
        })
        .collect()
}

fn member<'a>(m: &'a [(String, Npy)], name: &str) -> &'a Npy {
    &m.iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no {name}"))
        .1
}

fn export(inputs: &[&Path], out: &Path, extra: &[&str]) -> std::process::Output {
    let mut args: Vec<OsString> = vec!["export".into()];
    args.extend(inputs.iter().map(OsString::from));
    args.extend(["-o".into(), out.into(), "-q".into()]);
    args.extend(extra.iter().map(OsString::from));
    kifu(&args, None)
}

fn ok(o: &std::process::Output) {
    assert_eq!(code(o), 0, "{}", err(o));
}

/// The rows of a JSON Lines file.
fn jsonl(path: &Path) -> Vec<serde_json::Map<String, Value>> {
    fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| match serde_json::from_str(l).unwrap() {
            Value::Object(o) => o,
            other => panic!("{other}"),
        })
        .collect()
}

/// Games with what the positions table's columns hold: clocks and evals, ratings, a speed,
/// an en-passant square, a promotion to a knight from a FEN, an illegal move, a result.
const CHESS: &str = r#"[Event "clocks"]
[WhiteElo "2100"]
[BlackElo "1900"]
[TimeControl "180+0"]
[Result "1-0"]

1. e4 {[%clk 0:03:00] [%eval 0.3]} e5 {[%clk 0:02:59] [%eval #-3]} 2. Qh5 Nc6 3. Bc4 Nf6
4. Qxf7# 1-0

[Event "en passant"]
[Result "*"]

1. e4 d5 2. e5 f5 3. exf6 *

[Event "under-promotion"]
[FEN "8/P7/8/8/8/8/8/k6K w - - 0 1"]
[SetUp "1"]
[Result "1/2-1/2"]

1. a8=N Ka2 1/2-1/2

[Event "illegal"]
[Result "0-1"]

1. e4 e5 2. Ke3 Nc6 0-1

"#;

/// The value a null of an integer column becomes (docs/export.md): -1 in the columns whose
/// values are never negative, the largest value of an unsigned type, else the smallest.
fn null_of(column: &str, a: &Npy) -> i64 {
    let minus_one = [
        "policy",
        "ep_square",
        "x",
        "y",
        "ko_point",
        "WhiteElo",
        "BlackElo",
        "HA",
        "handicap_stones",
    ];
    let bits = 8 * a.item() as u32;
    match (a.descr.as_bytes()[1], column) {
        (b'u', _) => ((1u128 << bits) - 1) as i64,
        (_, c) if minus_one.contains(&c) => -1,
        _ => i64::MIN >> (64 - bits),
    }
}

/// Each array equals the column of the JSON Lines export of the same input.
fn same_as_jsonl(members: &[(String, Npy)], rows: &[serde_json::Map<String, Value>]) {
    for (name, a) in members {
        assert_eq!(a.rows(), rows.len(), "{name}");
        let col: Vec<&Value> = rows.iter().map(|r| &r[name.as_str()]).collect();
        match name.as_str() {
            "bitboards" => {
                assert_eq!((a.descr.as_str(), &a.shape[1..]), ("<u8", &[12][..]));
                let got = a.ints();
                for (k, v) in col.iter().enumerate() {
                    let want: Vec<i64> = v
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|b| b.as_i64().unwrap())
                        .collect();
                    // the same 64 bits: an int64 read as uint64
                    assert_eq!(&got[12 * k..12 * k + 12], &want[..], "row {k}");
                }
            }
            "side_to_move" => {
                assert_eq!(a.descr, "|u1");
                let want: Vec<i64> = col
                    .iter()
                    .map(|v| match v.as_str().unwrap() {
                        "white" => 0,
                        "black" => 1,
                        other => panic!("{other}"),
                    })
                    .collect();
                assert_eq!(a.ints(), want);
            }
            "clock" | "KM" => {
                assert_eq!(a.descr, "<f4");
                for (got, v) in a.floats().iter().zip(&col) {
                    match v.as_f64() {
                        None => assert!(got.is_nan(), "{name}: null is NaN"),
                        Some(x) => assert_eq!(*got, x as f32, "{name}"),
                    }
                }
            }
            _ if a.descr.starts_with("|S") => {
                let want: Vec<String> = col
                    .iter()
                    .map(|v| v.as_str().unwrap_or("").to_string())
                    .collect();
                assert_eq!(a.texts(), want, "{name}");
            }
            _ => {
                let want: Vec<i64> = col
                    .iter()
                    .map(|v| v.as_i64().unwrap_or_else(|| null_of(name, a)))
                    .collect();
                assert_eq!(a.ints(), want, "{name}");
            }
        }
    }
}

#[test]
fn chess_arrays_are_the_table() {
    let tmp = tempfile::tempdir().unwrap();
    let pgn = tmp.file("games.pgn", CHESS.as_bytes());
    let seed = kifu_testkit::data_path("seed-kasparov-kramnik-2001.pgn");
    let out = tmp.path().join("positions.npz");
    ok(&export(&[&pgn, &seed], &out, &["--table", "positions"]));
    let m = npz(&out);
    let names: Vec<&str> = m.iter().map(|(n, _)| n.as_str()).collect();
    // the columns of numbers, in the table's order; no text unless asked
    let known = [
        "game_index",
        "ply",
        "key",
        "side_to_move",
        "policy",
        "bitboards",
        "castling",
        "ep_square",
        "halfmove_clock",
        "score",
        "clock",
        "eval_cp",
        "eval_mate",
        "WhiteElo",
        "BlackElo",
    ];
    let kept: Vec<&str> = names
        .iter()
        .filter(|n| known.contains(n))
        .copied()
        .collect();
    assert_eq!(kept, known, "every one, in the table's order");
    for text in ["file", "epd", "san", "uci", "material", "speed", "error"] {
        assert!(!names.contains(&text), "{text} is text: left out");
    }
    let dtypes: Vec<(&str, &str)> = m
        .iter()
        .map(|(n, a)| (n.as_str(), a.descr.as_str()))
        .collect();
    for (name, descr) in [
        ("ply", "<i4"),
        ("game_index", "<i8"),
        ("key", "<i8"),
        ("policy", "<i2"),
        ("castling", "|i1"),
        ("ep_square", "|i1"),
        ("score", "|i1"),
        ("clock", "<f4"),
        ("WhiteElo", "<i2"),
    ] {
        assert!(dtypes.contains(&(name, descr)), "{name}: {dtypes:?}");
    }

    // the same columns as JSON Lines
    let json = tmp.path().join("positions.jsonl");
    let columns = names.join(",");
    ok(&export(
        &[&pgn, &seed],
        &json,
        &["--table", "positions", "--columns", &columns],
    ));
    let rows = jsonl(&json);
    same_as_jsonl(&m, &rows);

    // what the input holds is there: nulls and values both
    let col = |name: &str| member(&m, name).ints();
    assert!(col("ep_square").contains(&20) && col("ep_square").contains(&-1));
    assert!(
        col("policy").contains(&-1),
        "the final positions' and the illegal move's"
    );
    let under = 4096 + 1; // a7a8n: a knight (0), the a-file (0), a push (1)
    assert!(col("policy").contains(&under), "{:?}", col("policy"));
    assert!(col("score").contains(&-128) && col("score").contains(&1));
    assert!(col("eval_mate").contains(&-3) && col("eval_cp").contains(&30));
    assert!(member(&m, "clock").floats().contains(&180.0));
    assert!(col("WhiteElo").contains(&2100) && col("WhiteElo").contains(&-1));

    // text when asked: fixed-width bytes, null as empty
    let text = tmp.path().join("text.npz");
    ok(&export(
        &[&pgn, &seed],
        &text,
        &["--table", "positions", "--columns", "ply,uci,epd,error"],
    ));
    let t = npz(&text);
    assert_eq!(member(&t, "uci").descr, "|S5", "a7a8n is the longest");
    let json = tmp.path().join("text.jsonl");
    ok(&export(
        &[&pgn, &seed],
        &json,
        &["--table", "positions", "--columns", "ply,uci,epd,error"],
    ));
    same_as_jsonl(&t, &jsonl(&json));
}

/// A file of `n` games in `dir`: the seed game over and over (each PGN game with its own
/// `Event`).
fn many_games(dir: &Path, ext: &str, n: usize) -> PathBuf {
    let seed = match ext {
        "pgn" => "seed-kasparov-kramnik-2001.pgn",
        _ => "seed-takemiya-cho-meijin-1996.sgf",
    };
    let seed = fs::read_to_string(kifu_testkit::data_path(seed)).unwrap();
    let mut text = String::new();
    for i in 0..n {
        let event = format!("[Event \"game {i}\"]");
        text.push_str(&seed.replace("[Event \"Botvinnik Memorial\"]", &event));
        text.push_str("\n\n");
    }
    let p = dir.join(format!("many.{ext}"));
    fs::write(&p, text).unwrap();
    p
}

/// Every file under `dir` (relative path, bytes), sorted.
fn tree(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
                out.push((rel, fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_core_writes_the_bytes_of_one() {
    let tmp = tempfile::tempdir().unwrap();
    let pgn = many_games(tmp.path(), "pgn", 150);
    let sgf = many_games(tmp.path(), "sgf", 40);
    for (input, name) in [(&pgn, "pgn"), (&sgf, "sgf")] {
        for (to, extra) in [
            ("npz", &[][..]),
            ("npz", &["--rows-per-file", "1000"][..]),
            ("npy", &[][..]),
            ("npy", &["--rows-per-file", "1000"][..]),
        ] {
            let run = |j: &str| {
                let out = tmp.path().join(format!("{name}-{to}-{}-{j}", extra.len()));
                let mut args = vec![
                    "--table",
                    "positions",
                    "--to",
                    to,
                    j,
                    "--piece-size",
                    "20000",
                ];
                args.extend_from_slice(extra);
                ok(&export(&[input], &out, &args));
                out
            };
            let (one, two) = (run("-j1"), run("-j2"));
            if one.is_dir() {
                let (a, b) = (tree(&one), tree(&two));
                assert!(a.len() > 1);
                assert!(a == b, "{name} {to} {extra:?}");
            } else {
                assert!(
                    fs::read(&one).unwrap() == fs::read(&two).unwrap(),
                    "{name} {to}"
                );
            }
        }
    }
}

#[test]
#[cfg_attr(not(kifu_shared), ignore = "needs ../shared (the corpus)")]
fn every_core_writes_the_bytes_of_one_on_the_corpus() {
    let tmp = tempfile::tempdir().unwrap();
    let s = kifu_testkit::shared();
    for (input, name) in [
        (s.join("corpus/pgn/small/chess.js"), "pgn"),
        (s.join("corpus/sgf/small/katrain"), "sgf"),
    ] {
        let run = |j: &str| {
            let out = tmp.path().join(format!("{name}-{j}"));
            ok(&export(
                &[&input],
                &out,
                &["--table", "positions", "--to", "npz", "--dataset", j],
            ));
            tree(&out)
        };
        assert!(run("-j1") == run("-j3"), "{name}");
    }
}

#[test]
fn shards_hold_exactly_n_rows_but_the_last() {
    let tmp = tempfile::tempdir().unwrap();
    let pgn = many_games(tmp.path(), "pgn", 60);
    let whole = tmp.path().join("whole.npz");
    ok(&export(&[&pgn], &whole, &["--table", "positions"]));
    let whole = npz(&whole);
    let total = member(&whole, "ply").rows();
    assert!(total > 1000, "{total}");
    let n = 333;
    let shards = tmp.path().join("shards");
    ok(&export(
        &[&pgn],
        &shards,
        &[
            "--table",
            "positions",
            "--to",
            "npz",
            "--rows-per-file",
            "333",
        ],
    ));
    let parts = total.div_ceil(n);
    let mut want: Vec<String> = (0..parts)
        .map(|k| format!("part-{k:05}.npz"))
        .chain(["_SUCCESS".to_string()])
        .collect();
    want.sort();
    assert_eq!(entries(&shards), want);
    // each part exactly n rows but the last; together, the single file's arrays
    let mut joined: Vec<(String, Vec<u8>)> = Vec::new();
    for k in 0..parts {
        let part = npz(&shards.join(format!("part-{k:05}.npz")));
        let rows = if k + 1 < parts {
            n
        } else {
            total - n * (parts - 1)
        };
        for (name, a) in &part {
            assert_eq!(a.rows(), rows, "part {k} {name}");
            match joined.iter_mut().find(|(m, _)| m == name) {
                Some((_, v)) => v.extend_from_slice(&a.data),
                None => joined.push((name.clone(), a.data.clone())),
            }
        }
    }
    for (name, a) in &whole {
        let got = &joined.iter().find(|(m, _)| m == name).unwrap().1;
        assert!(got == &a.data, "{name}");
    }
    // --max-rows-per-file is the same option
    let again = tmp.path().join("again");
    ok(&export(
        &[&pgn],
        &again,
        &[
            "--table",
            "positions",
            "--to",
            "npz",
            "--max-rows-per-file",
            "333",
        ],
    ));
    assert!(tree(&again) == tree(&shards));
}

/// Three Go games: 9×9, 19×19 (the default size), 9×9 again.
const GO: &str = "(;GM[1]SZ[9]KM[6.5];B[ee];W[cc];B[gc])\n\
                  (;GM[1]PB[b]PW[w];B[pd];W[dp])\n\
                  (;GM[1]SZ[9];B[aa];W[];B[ba])\n";

#[test]
fn go_boards_one_size_an_array() {
    let tmp = tempfile::tempdir().unwrap();
    let sgf = tmp.file("go.sgf", GO.as_bytes());
    // one file: the first size; the others left out, said, exit status 1
    let one = tmp.path().join("go.npz");
    let o = export(&[&sgf], &one, &["--table", "positions"]);
    assert_eq!(code(&o), 1, "{}", err(&o));
    assert!(
        err(&o).contains("2 positions left out") && err(&o).contains("--rows-per-file"),
        "{}",
        err(&o)
    );
    let m = npz(&one);
    let board = member(&m, "board");
    assert_eq!(
        (board.descr.as_str(), &board.shape[..]),
        ("|u1", &[6, 9, 9][..])
    );
    // the boards before each move: 0 empty, 1 black, 2 white, row-major from the upper left
    let at = |row: usize, x: usize, y: usize| board.data[row * 81 + y * 9 + x];
    assert!(board.data[..81].iter().all(|&p| p == 0), "the empty board");
    assert_eq!(at(1, 4, 4), 1, "B[ee] played");
    assert_eq!((at(2, 4, 4), at(2, 2, 2)), (1, 2));
    assert_eq!(
        (at(3, 4, 4), at(3, 2, 2), at(3, 6, 2)),
        (0, 0, 0),
        "the third game"
    );
    assert_eq!(at(5, 0, 0), 1, "B[aa], then a pass");
    assert_eq!(member(&m, "x").ints(), [4, 2, 6, 0, -1, 1], "a pass: -1");
    // the side to move as the chess arrays have it: 0 white, 1 black
    assert_eq!(member(&m, "side_to_move").ints(), [1, 0, 1, 1, 0, 1]);
    assert!(
        !m.iter()
            .any(|(name, _)| name == "to_play" || name == "move_number")
    );
    let komi = member(&m, "KM").floats();
    assert_eq!(komi[0], 6.5);
    assert!(komi[3].is_nan());

    // a dataset: a folder per size, every row
    let ds = tmp.path().join("ds");
    ok(&export(
        &[&sgf],
        &ds,
        &[
            "--table",
            "positions",
            "--to",
            "npz",
            "--rows-per-file",
            "4",
        ],
    ));
    assert_eq!(entries(&ds), ["_SUCCESS", "board=19x19", "board=9x9"]);
    assert_eq!(
        entries(&ds.join("board=9x9")),
        ["part-00000.npz", "part-00001.npz"]
    );
    let rows = |p: &Path| member(&npz(p), "board").shape.clone();
    assert_eq!(rows(&ds.join("board=9x9/part-00000.npz")), [4, 9, 9]);
    assert_eq!(rows(&ds.join("board=9x9/part-00001.npz")), [2, 9, 9]);
    assert_eq!(rows(&ds.join("board=19x19/part-00000.npz")), [2, 19, 19]);

    // the board needs its shape
    let o = export(
        &[&sgf],
        &tmp.path().join("bare.npz"),
        &["--table", "positions", "--columns", "board,x"],
    );
    assert_eq!(code(&o), 2);
    assert!(err(&o).contains("board_rows"), "{}", err(&o));
}

#[test]
fn the_seed_go_game_places_each_stone_on_an_empty_point() {
    let tmp = tempfile::tempdir().unwrap();
    let sgf = kifu_testkit::data_path("seed-takemiya-cho-meijin-1996.sgf");
    let out = tmp.path().join("go");
    ok(&export(
        &[&sgf],
        &out,
        &["--table", "positions", "--to", "npy"],
    ));
    let read = |name: &str| Npy::parse(&fs::read(out.join(format!("{name}.npy"))).unwrap());
    let board = read("board");
    assert_eq!(&board.shape[1..], &[19, 19]);
    let (x, y, side) = (
        read("x").ints(),
        read("y").ints(),
        read("side_to_move").ints(),
    );
    let n = board.rows();
    for k in 0..n {
        if x[k] < 0 {
            continue;
        }
        let point = (y[k] * 19 + x[k]) as usize;
        assert_eq!(board.data[k * 361 + point], 0, "move {k} on an empty point");
        if k + 1 < n {
            assert_eq!(
                i64::from(board.data[(k + 1) * 361 + point]),
                2 - side[k],
                "move {k}'s stone on the next board (1 black, 2 white)"
            );
        }
    }
}

#[test]
fn an_npy_directory_is_the_npz_unzipped() {
    let tmp = tempfile::tempdir().unwrap();
    let pgn = kifu_testkit::data_path("seed-kasparov-kramnik-2001.pgn");
    let zipped = tmp.path().join("p.npz");
    ok(&export(&[&pgn], &zipped, &["--table", "positions"]));
    // `.npy` names the format too
    let dir = tmp.path().join("p.npy");
    ok(&export(&[&pgn], &dir, &["--table", "positions"]));
    assert!(dir.is_dir());
    let bytes = fs::read(&zipped).unwrap();
    let mut z = zip::ZipArchive::new(std::io::Cursor::new(&bytes[..])).unwrap();
    let mut names = vec!["_SUCCESS".to_string()];
    for i in 0..z.len() {
        let mut f = z.by_index(i).unwrap();
        let mut v = Vec::new();
        f.read_to_end(&mut v).unwrap();
        assert!(fs::read(dir.join(f.name())).unwrap() == v, "{}", f.name());
        names.push(f.name().to_string());
    }
    names.sort();
    assert_eq!(entries(&dir), names);

    // an existing directory: refused, then replaced with --force
    let o = export(&[&pgn], &dir, &["--table", "positions"]);
    assert_eq!(code(&o), 2, "{}", err(&o));
    assert!(err(&o).contains("exists"), "{}", err(&o));
    ok(&export(&[&pgn], &dir, &["--table", "positions", "--force"]));
    // parts are folders of the same files
    let parts = tmp.path().join("parts");
    ok(&export(
        &[&pgn],
        &parts,
        &[
            "--table",
            "positions",
            "--to",
            "npy",
            "--rows-per-file",
            "20",
        ],
    ));
    assert_eq!(entries(&parts), ["_SUCCESS", "part-00000", "part-00001"]);
    let first = Npy::parse(&fs::read(parts.join("part-00001/bitboards.npy")).unwrap());
    assert_eq!(first.shape, [18, 12]);
    ok(&export(
        &[&pgn],
        &parts,
        &[
            "--table",
            "positions",
            "--to",
            "npy",
            "--rows-per-file",
            "20",
            "--force",
        ],
    ));
    // a directory holding other files is not replaced
    fs::write(parts.join("notes.txt"), "mine").unwrap();
    let o = export(
        &[&pgn],
        &parts,
        &["--table", "positions", "--to", "npy", "--force"],
    );
    assert_eq!(code(&o), 2, "{}", err(&o));
    assert!(parts.join("notes.txt").exists());
    assert_eq!(
        entries(tmp.path()),
        ["p.npy", "p.npz", "parts"],
        "no temporary left beside them"
    );
}

#[test]
fn written_safely() {
    let tmp = tempfile::tempdir().unwrap();
    let pgn = tmp.file("in/games.pgn", CHESS.as_bytes());
    let out_dir = tmp.path().join("out");
    fs::create_dir(&out_dir).unwrap();
    // a link to a file is replaced, never written through
    let target = out_dir.join("target.bin");
    fs::write(&target, b"keep").unwrap();
    #[cfg(unix)]
    {
        let link = out_dir.join("link.npz");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let o = export(&[&pgn], &link, &["--table", "positions"]);
        assert_eq!(code(&o), 2, "without --force: {}", err(&o));
        ok(&export(
            &[&pgn],
            &link,
            &["--table", "positions", "--force"],
        ));
        assert_eq!(fs::read(&target).unwrap(), b"keep");
        assert!(
            !fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert!(!npz(&link).is_empty());
    }
    // an input is never the output
    let o = export(
        &[&pgn],
        &pgn,
        &["--table", "positions", "--to", "npz", "--force"],
    );
    assert_eq!(code(&o), 2, "{}", err(&o));
    assert_eq!(fs::read(&pgn).unwrap(), CHESS.as_bytes());
    // a column that is no array: refused, nothing left
    let o = export(
        &[&pgn],
        &out_dir.join("games.npz"),
        &["--columns", "White,tags"],
    );
    assert_eq!(code(&o), 2, "{}", err(&o));
    assert!(err(&o).contains("`tags`"), "{}", err(&o));
    // standard output
    let mut args: Vec<OsString> = vec!["export".into(), pgn.clone().into()];
    args.extend(["--table", "positions", "--to", "npz", "-o", "-", "-q"].map(OsString::from));
    let o = kifu(&args, None);
    ok(&o);
    let piped = out_dir.join("piped.npz");
    fs::write(&piped, &o.stdout).unwrap();
    // 7 plies and the final position, 5 and the final, 2 and the final, 2 and the illegal move
    assert_eq!(member(&npz(&piped), "ply").rows(), 8 + 6 + 3 + 3);
    let mut names = entries(&out_dir);
    names.retain(|n| n != "link.npz");
    assert_eq!(names, ["piped.npz", "target.bin"], "no temporary left");
}

#[test]
fn no_rows_make_empty_arrays() {
    let tmp = tempfile::tempdir().unwrap();
    // a game of a variant the replay does not play: no position
    let pgn = tmp.file("atomic.pgn", b"[Variant \"Atomic\"]\n\n1. e4 *\n");
    let out = tmp.path().join("empty.npz");
    // the game is named on stderr, exit status 1 (b428bab); the file is written all the same
    let o = export(&[&pgn], &out, &["--table", "positions"]);
    assert_eq!(code(&o), 1, "{}", err(&o));
    assert!(err(&o).contains("Atomic"), "{}", err(&o));
    let m = npz(&out);
    assert_eq!(member(&m, "bitboards").shape, [0, 12]);
    assert_eq!(member(&m, "ply").shape, [0]);
}

#[test]
fn partitions_keep_the_columns_they_name() {
    let tmp = tempfile::tempdir().unwrap();
    let pgn = tmp.file("games.pgn", CHESS.as_bytes());
    let out = tmp.path().join("by-speed");
    ok(&export(
        &[&pgn],
        &out,
        &[
            "--table",
            "positions",
            "--to",
            "npz",
            "--partition-by",
            "speed",
        ],
    ));
    assert_eq!(
        entries(&out),
        [
            "_SUCCESS",
            "speed=__HIVE_DEFAULT_PARTITION__",
            "speed=blitz"
        ]
    );
    let blitz = npz(&out.join("speed=blitz/part-00000.npz"));
    assert_eq!(member(&blitz, "speed").texts(), vec!["blitz"; 8]);
    assert_eq!(member(&blitz, "bitboards").shape, [8, 12]);
}

#[test]
fn long_text_is_cut_to_256_bytes_said_and_the_same_at_every_core() {
    let tmp = tempfile::tempdir().unwrap();
    // one result of 2,000 bytes (a two-byte character across byte 256), 30 small ones: the
    // column is `S255` (cut before the character), not `S2000` for every row
    let long = format!("{}é{}", "x".repeat(255), "y".repeat(1_742));
    let mut sgf = format!("(;GM[1]SZ[9]RE[{long}];B[aa])");
    sgf.push_str(&"(;GM[1]SZ[9]RE[B+R];B[aa])".repeat(30));
    let input = tmp.file("amp.sgf", sgf.as_bytes());
    let cols = ["--table", "positions", "--columns", "ply,RE"];
    let mut outs = Vec::new();
    for (to, j) in [
        ("npz", "-j1"),
        ("npz", "-j2"),
        ("npy", "-j1"),
        ("npy", "-j2"),
    ] {
        let out = tmp.path().join(format!("amp-{j}.{to}"));
        let mut args = cols.to_vec();
        args.extend(["--to", to, j, "--piece-size", "600"]);
        let o = export(&[&input], &out, &args);
        assert_eq!(code(&o), 1, "lossy: {}", err(&o));
        assert!(
            err(&o).contains("1 text values cut to 256 bytes"),
            "{}",
            err(&o)
        );
        let result = if to == "npz" {
            let m = npz(&out);
            member(&m, "RE").texts()
        } else {
            Npy::parse(&fs::read(out.join("RE.npy")).unwrap()).texts()
        };
        assert_eq!(result.len(), 31);
        assert_eq!(result[0], "x".repeat(255), "cut before the é");
        assert_eq!(result[1], "B+R");
        outs.push(out);
    }
    let m = npz(&outs[0]);
    assert_eq!(member(&m, "RE").descr, "|S255");
    assert!(fs::read(&outs[0]).unwrap() == fs::read(&outs[1]).unwrap());
    assert!(tree(&outs[2]) == tree(&outs[3]));
    // Parquet, CSV and JSON Lines keep the value whole
    let whole = tmp.path().join("amp.jsonl");
    let mut args = cols.to_vec();
    args.extend(["--to", "jsonl"]);
    ok(&export(&[&input], &whole, &args));
    assert_eq!(jsonl(&whole)[0]["RE"].as_str(), Some(long.as_str()));
}

/// Standard base64, padded (what `base64.b64encode` gives).
fn b64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::new();
    for c in bytes.chunks(3) {
        let n = c.len();
        let v = u32::from(c[0]) << 16
            | u32::from(*c.get(1).unwrap_or(&0)) << 8
            | u32::from(*c.get(2).unwrap_or(&0));
        for k in 0..4 {
            s.push(if k <= n {
                A[(v >> (18 - 6 * k) & 63) as usize] as char
            } else {
                '='
            });
        }
    }
    s
}

#[test]
fn go_boards_are_base64_in_csv_and_json_lines() {
    let tmp = tempfile::tempdir().unwrap();
    let sgf = tmp.file("go.sgf", GO.as_bytes());
    let cols = [
        "--table",
        "positions",
        "--columns",
        "ply,board,board_rows,board_cols",
    ];
    let arrays = tmp.path().join("go-ds");
    let mut args = cols.to_vec();
    args.extend(["--to", "npz", "--rows-per-file", "100"]);
    ok(&export(&[&sgf], &arrays, &args));
    let m = npz(&arrays.join("board=9x9/part-00000.npz"));
    let board = member(&m, "board");
    let want: Vec<String> = board.data.chunks(81).map(b64).collect();
    assert_eq!(want.len(), 6);

    let jl = tmp.path().join("go.jsonl");
    let mut args = cols.to_vec();
    args.extend(["--to", "jsonl"]);
    ok(&export(&[&sgf], &jl, &args));
    let rows = jsonl(&jl);
    let nine: Vec<&str> = rows
        .iter()
        .filter(|r| r["board_rows"] == 9)
        .map(|r| r["board"].as_str().expect("a string"))
        .collect();
    assert_eq!(nine, want);

    let csv = tmp.path().join("go.csv");
    let mut args = cols.to_vec();
    args.extend(["--to", "csv"]);
    ok(&export(&[&sgf], &csv, &args));
    let text = fs::read_to_string(&csv).unwrap();
    assert!(!text.contains("Binary"), "{text}");
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    let at = |name: &str| head.iter().position(|&h| h == name).unwrap();
    let (b, r) = (at("board"), at("board_rows"));
    let cells: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    let nine: Vec<&str> = cells.iter().filter(|c| c[r] == "9").map(|c| c[b]).collect();
    assert_eq!(nine, want);
}
