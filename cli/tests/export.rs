//! `kifu export` as a user runs it: `-jN` writes the bytes `-j1` writes; a dataset directory;
//! outputs refused; and the files read by DuckDB and pyarrow (from the venv of
//! `scripts/python_env.sh`; skipped, saying so, when it was not made; ignored without
//! ../shared): row counts equal `kifu stats`, game keys and offsets equal `kifu json`'s.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;
use common::{kifu, text};

/// The inputs: the seed files (PGN, SGF).
fn inputs() -> (Vec<PathBuf>, Vec<PathBuf>) {
    (
        vec![kifu_testkit::data_path("seed-kasparov-kramnik-2001.pgn")],
        vec![kifu_testkit::data_path("seed-takemiya-cho-meijin-1996.sgf")],
    )
}

/// The seed files and corpus collections of ../shared.
fn corpus_inputs() -> (Vec<PathBuf>, Vec<PathBuf>) {
    let (mut pgn, mut sgf) = inputs();
    let s = kifu_testkit::shared();
    pgn.push(s.join("corpus/pgn/small/chess.js"));
    pgn.push(s.join("corpus/pgn/small/notnil-chess"));
    sgf.push(s.join("corpus/sgf/small/sabaki-sgf"));
    sgf.push(s.join("corpus/sgf/small/katrain"));
    (pgn, sgf)
}

/// A file of `n` games in `dir`, `many.pgn` or `many.sgf`: the seed game over and over (each
/// PGN game with its own `Event`).
fn many_games(dir: &Path, ext: &str, n: usize) -> PathBuf {
    let seed = match ext {
        "pgn" => "seed-kasparov-kramnik-2001.pgn",
        _ => "seed-takemiya-cho-meijin-1996.sgf",
    };
    let seed = std::fs::read_to_string(kifu_testkit::data_path(seed)).unwrap();
    let mut text = String::new();
    for i in 0..n {
        let event = format!("[Event \"game {i}\"]");
        text.push_str(&seed.replace("[Event \"Botvinnik Memorial\"]", &event));
        text.push_str("\n\n");
    }
    let p = dir.join(format!("many.{ext}"));
    std::fs::write(&p, text).unwrap();
    p
}

fn export(inputs: &[PathBuf], out: &Path, extra: &[&str]) -> Output {
    let mut args: Vec<OsString> = vec!["export".into()];
    args.extend(inputs.iter().map(OsString::from));
    args.extend(["-o".into(), out.into(), "-q".into()]);
    args.extend(extra.iter().map(OsString::from));
    kifu(&args, None)
}

#[test]
fn every_core_writes_the_bytes_of_one() {
    let tmp = tempfile::tempdir().unwrap();
    let (mut pgn, mut sgf) = inputs();
    pgn.push(many_games(tmp.path(), "pgn", 200));
    sgf.push(many_games(tmp.path(), "sgf", 100));
    every_core_writes_the_bytes_of_one_on(&tmp, &pgn, &sgf);
}

#[test]
#[cfg_attr(not(kifu_shared), ignore = "needs ../shared (the corpus)")]
fn every_core_writes_the_bytes_of_one_on_the_corpus() {
    let tmp = tempfile::tempdir().unwrap();
    let (pgn, sgf) = corpus_inputs();
    every_core_writes_the_bytes_of_one_on(&tmp, &pgn, &sgf);
}

fn every_core_writes_the_bytes_of_one_on(
    tmp: &tempfile::TempDir,
    pgn: &[PathBuf],
    sgf: &[PathBuf],
) {
    for (inputs, table) in [
        (&pgn, "games"),
        (&pgn, "moves"),
        (&sgf, "trees"),
        (&sgf, "positions"),
    ] {
        for to in ["parquet", "csv", "jsonl"] {
            let one = tmp.path().join(format!("one-{table}.{to}"));
            let many = tmp.path().join(format!("many-{table}.{to}"));
            let o = export(inputs, &one, &["--to", to, "--table", table, "-j1"]);
            assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
            let o = export(
                inputs,
                &many,
                &["--to", to, "--table", table, "-j3", "--piece-size", "20000"],
            );
            assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
            assert!(
                std::fs::read(&one).unwrap() == std::fs::read(&many).unwrap(),
                "{table} {to}"
            );
        }
    }
}

/// The `games` table with `--replay` holds the same rows (its `final_fen` aside) as without,
/// whatever the threads and pieces.
#[test]
fn games_from_events_are_the_dom_rows() {
    let tmp = tempfile::tempdir().unwrap();
    let (mut pgn, _) = inputs();
    pgn.push(many_games(tmp.path(), "pgn", 200));
    games_from_events_are_the_dom_rows_on(&tmp, &pgn);
}

#[test]
#[cfg_attr(not(kifu_shared), ignore = "needs ../shared (the corpus)")]
fn games_from_events_are_the_dom_rows_on_the_corpus() {
    let tmp = tempfile::tempdir().unwrap();
    games_from_events_are_the_dom_rows_on(&tmp, &corpus_inputs().0);
}

fn games_from_events_are_the_dom_rows_on(tmp: &tempfile::TempDir, pgn: &[PathBuf]) {
    let events = tmp.path().join("events.jsonl");
    let dom = tmp.path().join("dom.jsonl");
    let extra = ["--to", "jsonl", "--table", "games"];
    let o = export(
        pgn,
        &events,
        &[&extra[..], &["-j3", "--piece-size", "20000"]].concat(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let o = export(pgn, &dom, &[&extra[..], &["-j1", "--replay"]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let rows = |path: &Path| -> Vec<serde_json::Value> {
        let text = std::fs::read_to_string(path).unwrap();
        text.lines()
            .map(|l| {
                let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
                v.as_object_mut().unwrap().remove("final_fen");
                v
            })
            .collect()
    };
    let (a, b) = (rows(&events), rows(&dom));
    assert!(!a.is_empty());
    assert_eq!(a.len(), b.len());
    for (k, (x, y)) in a.iter().zip(&b).enumerate() {
        assert_eq!(x, y, "row {k}");
    }
}

#[test]
fn outputs_are_safe() {
    let tmp = tempfile::tempdir().unwrap();
    let (mut pgn, _) = inputs();
    pgn.push(many_games(tmp.path(), "pgn", 1500));
    let out = tmp.path().join("g.parquet");
    assert_eq!(
        export(&pgn, &out, &["--to", "parquet"]).status.code(),
        Some(0)
    );
    let again = export(&pgn, &out, &["--to", "parquet"]);
    assert_eq!(
        again.status.code(),
        Some(2),
        "an existing output is refused"
    );
    assert!(
        text(&again.stderr).contains("--force") || text(&again.stderr).contains("exists"),
        "{}",
        text(&again.stderr)
    );
    assert_eq!(
        export(&pgn, &out, &["--to", "parquet", "--force"])
            .status
            .code(),
        Some(0)
    );
    let seed = kifu_testkit::data_path("seed-kasparov-kramnik-2001.pgn");
    let copy = tmp.path().join("seed.pgn");
    std::fs::copy(&seed, &copy).unwrap();
    let onto = export(
        std::slice::from_ref(&copy),
        &copy,
        &["--to", "csv", "--force"],
    );
    assert_eq!(onto.status.code(), Some(2), "an input is never overwritten");
    assert_eq!(std::fs::read(&copy).unwrap(), std::fs::read(&seed).unwrap());
    // a dataset directory: parts of bounded size, no temporary file left
    let ds = tmp.path().join("ds");
    let o = export(
        &pgn,
        &ds,
        &["--to", "parquet", "--max-rows-per-file", "700"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let names: Vec<String> = std::fs::read_dir(&ds)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert!(
        names
            .iter()
            .all(|n| n.starts_with("part-") || n == "_SUCCESS"),
        "{names:?}"
    );
    // 1501 games, 700 rows a file
    let parts = names.iter().filter(|n| n.starts_with("part-")).count();
    assert_eq!(parts, 3, "{names:?}");
}

/// `--to` and an output whose extension names another format are refused (exit 2), naming
/// both, and nothing is written: never CSV under a `.parquet` name. A name whose extension
/// names no format takes any `--to`; a dataset directory's name tells no format.
#[test]
fn to_and_an_extension_that_disagree_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let seed = kifu_testkit::data_path("seed-kasparov-kramnik-2001.pgn");
    for (name, to) in [
        ("x.parquet", "csv"),
        ("x.csv", "parquet"),
        ("x.ndjson", "csv"),
        ("x.json", "parquet"),
        ("x.npz", "parquet"),
        ("x.npy", "npz"),
        ("x.PQ", "jsonl"),
    ] {
        let out = tmp.path().join(name);
        let o = export(std::slice::from_ref(&seed), &out, &["--to", to]);
        assert_eq!(
            o.status.code(),
            Some(2),
            "{name} --to {to}: {}",
            text(&o.stderr)
        );
        let e = text(&o.stderr);
        assert!(
            e.contains(&format!("--to {to}")) && e.contains("extension says"),
            "{e}"
        );
        assert!(!out.exists(), "{name}");
    }
    // a compressed file's name: kifu writes none (it wrote plain CSV as `x.csv.gz`)
    for (name, to) in [("x.csv.gz", "csv"), ("x.parquet.zst", "parquet")] {
        let out = tmp.path().join(name);
        let o = export(std::slice::from_ref(&seed), &out, &["--to", to]);
        assert_eq!(o.status.code(), Some(2), "{name}: {}", text(&o.stderr));
        assert!(
            text(&o.stderr).contains("writes no `."),
            "{}",
            text(&o.stderr)
        );
        assert!(!out.exists(), "{name}");
    }
    for (name, to) in [("x.csv", "csv"), ("x.out", "csv"), ("x.jsonl", "jsonl")] {
        let out = tmp.path().join(name);
        let o = export(std::slice::from_ref(&seed), &out, &["--to", to]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{name} --to {to}: {}",
            text(&o.stderr)
        );
    }
    let ds = tmp.path().join("ds.parquet");
    let o = export(
        std::slice::from_ref(&seed),
        &ds,
        &["--to", "csv", "--dataset"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
}

/// The venv's python, if `scripts/python_env.sh` made it.
fn python() -> Option<PathBuf> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/python_env.sh");
    let out = Command::new("bash")
        .arg(script)
        .arg("--check")
        .output()
        .ok()?;
    let path = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (out.status.success() && !path.is_empty()).then(|| PathBuf::from(path))
}

const CHECK: &str = r#"
import json, sys, duckdb, pyarrow.parquet as pq
parquet, stats, jsonl, table = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
con = duckdb.connect()
n = con.execute(f"select count(*) from read_parquet('{parquet}')").fetchone()[0]
assert n == stats, (n, stats)
t = pq.read_table(parquet)
assert t.num_rows == stats
keys = [(r["file"], r["game_index"], r["byte_offset"]) for r in t.select(["file", "game_index", "byte_offset"]).to_pylist()]
want = [(o["file"], o["index"], o["offset"]) for o in map(json.loads, open(jsonl))]
assert keys == want, (keys[:3], want[:3])
assert str(t.schema.field("game_index").type) == "int64", t.schema.field("game_index").type
# the key columns are named so that DuckDB's SQL and pandas take them as they are
assert con.execute(f"select max(byte_offset) >= 0 from read_parquet('{parquet}')").fetchone()[0]
if table == "games":
    elo = con.execute(f"select typeof(WhiteElo) from read_parquet('{parquet}') limit 1").fetchone()[0]
    assert elo in ("SMALLINT", "INTEGER", "USMALLINT", "UINTEGER", "BIGINT"), elo
print("ok", n)
"#;

#[test]
#[cfg_attr(not(kifu_shared), ignore = "needs ../shared (the corpus)")]
fn duckdb_and_pyarrow_read_what_kifu_export_writes_or_skip_without_the_export_venv() {
    let Some(python) = python() else {
        eprintln!(
            "the export venv is absent (scripts/python_env.sh --no-build makes it): skipping the DuckDB/pyarrow check"
        );
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let (pgn, sgf) = corpus_inputs();
    for (inputs, table) in [(&pgn, "games"), (&sgf, "trees")] {
        let out = tmp.path().join(format!("{table}.parquet"));
        let o = export(
            inputs,
            &out,
            &[
                "--to",
                "parquet",
                "--table",
                table,
                "-j2",
                "--piece-size",
                "50000",
            ],
        );
        assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
        let mut args: Vec<OsString> = vec!["stats".into(), "--json".into(), "-q".into()];
        args.extend(inputs.iter().map(OsString::from));
        let stats: serde_json::Value = serde_json::from_slice(&kifu(&args, None).stdout).unwrap();
        let mut args: Vec<OsString> = vec!["json".into(), "-q".into()];
        args.extend(inputs.iter().map(OsString::from));
        let json = tmp.path().join(format!("{table}.jsonl"));
        std::fs::write(&json, kifu(&args, None).stdout).unwrap();
        let o = Command::new(&python)
            .args(["-c", CHECK])
            .arg(&out)
            .arg(stats["games"].to_string())
            .arg(&json)
            .arg(table)
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "{table}: {}{}",
            text(&o.stdout),
            text(&o.stderr)
        );
    }
}

/// `--columns` keeps the columns named, in the table's order, and their values are those of
/// the whole table; a name that is no column is a usage error naming the columns.
#[test]
fn columns_keep_the_values_of_the_whole_table() {
    let tmp = tempfile::tempdir().unwrap();
    let pgn = vec![many_games(tmp.path(), "pgn", 50)];
    let all = tmp.path().join("all.jsonl");
    let some = tmp.path().join("some.jsonl");
    assert!(export(&pgn, &all, &[]).status.success());
    let o = export(&pgn, &some, &["--columns", "plies,White,Event", "-j2"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let rows = |p: &Path| -> Vec<serde_json::Map<String, serde_json::Value>> {
        std::fs::read_to_string(p)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let (all, some) = (rows(&all), rows(&some));
    assert_eq!(all.len(), 50);
    let expected: Vec<_> = all
        .iter()
        .map(|r| {
            let mut m = serde_json::Map::new();
            for k in ["Event", "White", "plies"] {
                m.insert(k.to_string(), r[k].clone());
            }
            m
        })
        .collect();
    assert_eq!(some, expected);
    let keys: Vec<&String> = some[0].keys().collect();
    assert_eq!(keys, ["Event", "White", "plies"], "the table's order");
    let o = export(&pgn, &tmp.path().join("x.csv"), &["--columns", "Whyte"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("no column `Whyte` in the pgn_games table"));
}

/// `--partition-by` writes Hive folders whose files are the same bytes at every `-j`.
#[test]
fn partitions_are_the_same_bytes_at_every_core_count() {
    let tmp = tempfile::tempdir().unwrap();
    let pgn = vec![many_games(tmp.path(), "pgn", 300)];
    let mut trees = Vec::new();
    for j in ["-j1", "-j2", "-j3"] {
        let out = tmp.path().join(format!("ds{j}"));
        let o = export(
            &pgn,
            &out,
            &[
                j,
                "--piece-size",
                "8K",
                "--partition-by",
                "year,Round",
                "--max-rows-per-file",
                "70",
            ],
        );
        assert!(o.status.success(), "{}", text(&o.stderr));
        let mut files = Vec::new();
        let mut stack = vec![out.clone()];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    stack.push(p);
                } else {
                    let rel = p.strip_prefix(&out).unwrap().to_string_lossy().into_owned();
                    files.push((rel, std::fs::read(&p).unwrap()));
                }
            }
        }
        files.sort();
        trees.push(files);
    }
    assert!(
        trees[0]
            .iter()
            .any(|(n, _)| n.starts_with("year=2001/Round="))
    );
    assert!(trees[0].len() >= 6, "300 rows in files of 70, and _SUCCESS");
    assert!(trees.windows(2).all(|w| w[0] == w[1]));
}

/// Columns that only the other format's table has: an input of that format is said and left
/// out (exit 1), never a row of no column (it was a panic).
#[test]
fn columns_of_the_other_formats_table_leave_its_inputs_out() {
    let tmp = tempfile::tempdir().unwrap();
    let sgf = tmp.path().join("g.sgf");
    std::fs::write(&sgf, "(;GM[1]SZ[9]PB[a];B[aa])").unwrap();
    let pgn = tmp.path().join("w.pgn");
    std::fs::write(&pgn, "[White \"a\"]\n\n1. e4 *\n").unwrap();
    let out = tmp.path().join("x.csv");
    let o = export(std::slice::from_ref(&sgf), &out, &["--columns", "White"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("holds no SGF game"),
        "{}",
        text(&o.stderr)
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "White\n");
    let o = export(&[sgf, pgn], &out, &["--columns", "White", "--force"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "White\na\n");
}

/// An output without rows holds the table of the format of the first input read, even when
/// its name does not say it (a directory of SGF files whose games have no move).
#[test]
fn no_rows_keep_the_table_of_the_inputs_format() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("setups");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join("a.sgf"), "(;GM[1]SZ[9]AB[aa][bb])").unwrap();
    let out = tmp.path().join("p.csv");
    let o = export(&[dir], &out, &["--table", "positions"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let header = std::fs::read_to_string(&out).unwrap();
    assert!(header.starts_with("file,game_index,game_key,"), "{header}");
}
