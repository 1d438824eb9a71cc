//! The exported files read by the real engines: pyarrow and DuckDB, from the Python environment
//! of `scripts/python_env.sh` (skipped, saying so, when it has not been made).
//!
//! For each group of inputs (the repository's test data; corpus files in a second test, ignored
//! without `../shared`) this writes the `games`/`trees` table as one Parquet file, as CSV and as a dataset
//! directory (with a planted temporary file and `_SUCCESS`, which readers must ignore), the
//! `moves` table as Parquet, and the `json` table as JSON Lines (the `kifu json` lines); then
//! `tests/engines/check.py` reads them all back and compares them with the games.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{data_path, files, shared};
use kifu_export::{Builder, OutFormat, SinkOptions, Table, TableOptions, create};

/// The venv's python: `KIFU_EXPORT_PYTHON`, else the one `scripts/python_env.sh --check`
/// names.
fn python() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("KIFU_EXPORT_PYTHON") {
        return Some(PathBuf::from(p));
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/python_env.sh");
    let out = Command::new("bash")
        .arg(script)
        .arg("--check")
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let path = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (!path.is_empty()).then(|| PathBuf::from(path))
}

struct Group {
    name: String,
    sgf: bool,
    inputs: Vec<PathBuf>,
    lichess: bool,
}

/// Builds every table of `group` and writes its files under `dir`; returns its manifest entry.
fn write_group(dir: &Path, group: &Group) -> serde_json::Value {
    let opts = TableOptions::default();
    let (games_table, moves_table, json_table) = if group.sgf {
        (Table::SgfTrees, Table::SgfMoves, Table::SgfJson)
    } else {
        (Table::PgnGames, Table::PgnMoves, Table::PgnJson)
    };
    let mut games = Builder::new(games_table, &opts);
    let mut moves = Builder::new(moves_table, &opts);
    let mut json = Builder::new(json_table, &opts);
    let (mut count, mut move_rows) = (0u64, 0u64);
    for input in &group.inputs {
        let bytes = std::fs::read(input).unwrap();
        let name = input.to_string_lossy().into_owned();
        if group.sgf {
            for t in kifu::sgf::game_trees(&bytes) {
                count += 1;
                games.push_sgf(&name, &t).unwrap();
                let before = moves.rows();
                moves.push_sgf(&name, &t).unwrap();
                move_rows += (moves.rows() - before) as u64;
                json.push_sgf(&name, &t).unwrap();
            }
        } else {
            for g in kifu::pgn::Games::new(&bytes) {
                count += 1;
                move_rows += g.moves.len() as u64;
                games.push_pgn(&name, &g).unwrap();
                moves.push_pgn(&name, &g).unwrap();
                json.push_pgn(&name, &g).unwrap();
            }
        }
    }
    let (games, moves, json) = (games.finish(), moves.finish(), json.finish());
    assert_eq!(games.num_rows() as u64, count);
    let base = dir.join(&group.name);
    let path = |suffix: &str| PathBuf::from(format!("{}{suffix}", base.display()));
    let write = |out: &Path, format, batch: &arrow_array::RecordBatch, opts: &SinkOptions| {
        let mut sink = create(out, format, batch.schema(), opts).unwrap();
        // in a few batches, as a pipeline's writer gets them
        let step = batch.num_rows().div_ceil(3).max(1);
        let mut start = 0;
        while start < batch.num_rows() {
            let n = step.min(batch.num_rows() - start);
            sink.write(&batch.slice(start, n)).unwrap();
            start += n;
        }
        sink.finish().unwrap()
    };
    let plain = SinkOptions::default();
    write(&path("_games.parquet"), OutFormat::Parquet, &games, &plain);
    write(&path("_moves.parquet"), OutFormat::Parquet, &moves, &plain);
    write(&path("_games.csv"), OutFormat::Csv, &games, &plain);
    write(&path("_json.jsonl"), OutFormat::Jsonl, &json, &plain);
    let ds = path("_dataset");
    let split = SinkOptions {
        max_rows_per_file: Some((count / 3).max(1)),
        ..SinkOptions::default()
    };
    let parts = write(&ds, OutFormat::Parquet, &games, &split).files.len();
    // what an interrupted export leaves: a hidden temporary file, truncated
    std::fs::write(ds.join(".part-00009.parquet.kifu-tmp-1"), b"PAR1 truncated").unwrap();
    serde_json::json!({
        "name": group.name,
        "format": if group.sgf { "sgf" } else { "pgn" },
        "games": count,
        "move_rows": move_rows,
        "lichess": group.lichess,
        "parts": parts,
        "files": {
            "games": path("_games.parquet"),
            "moves": path("_moves.parquet"),
            "csv": path("_games.csv"),
            "json": path("_json.jsonl"),
            "dataset": ds,
        },
    })
}

/// The groups of the repository's test data.
fn seed_groups() -> Vec<Group> {
    vec![
        Group {
            name: "seed_pgn".into(),
            sgf: false,
            inputs: vec![data_path("seed-kasparov-kramnik-2001.pgn")],
            lichess: false,
        },
        Group {
            name: "seed_sgf".into(),
            sgf: true,
            inputs: vec![data_path("seed-takemiya-cho-meijin-1996.sgf")],
            lichess: false,
        },
    ]
}

/// The groups of corpus files of ../shared.
fn corpus_groups() -> Vec<Group> {
    let mut g = Vec::new();
    let c = shared().join("corpus");
    g.push(Group {
        name: "lichess".into(),
        sgf: false,
        inputs: vec![c.join("pgn/small/shakmaty-benches/lichess_db_1000k.pgn")],
        lichess: true,
    });
    g.push(Group {
        name: "twic_tcec".into(),
        sgf: false,
        inputs: vec![
            c.join("pgn/large/notnil-chess-history/twic0920.pgn"),
            c.join("pgn/large/tcec/TCEC_Cup_16_Final.pgn"),
        ],
        lichess: false,
    });
    g.push(Group {
        name: "pgn_small".into(),
        sgf: false,
        inputs: files(&c.join("pgn/small/pgn-extract"), "pgn")
            .into_iter()
            .chain(files(&c.join("pgn/small/python-chess"), "pgn"))
            .collect(),
        lichess: false,
    });
    g.push(Group {
        name: "sgf_small".into(),
        sgf: true,
        inputs: [
            "sgfc",
            "sabaki-sgf",
            "kogo-joseki",
            "pachi",
            "littlego",
            "rooklift-sgf",
        ]
        .iter()
        .flat_map(|d| files(&c.join("sgf/small").join(d), "sgf"))
        .collect(),
        lichess: false,
    });
    for g in &g {
        assert!(!g.inputs.is_empty(), "{}: no input", g.name);
        for p in &g.inputs {
            assert!(p.exists(), "{}: {} is absent", g.name, p.display());
        }
    }
    g
}

// The engines come from scripts/python_env.sh (CI makes it): without it these tests skip, as
// their names say (cargo cannot list a test as ignored at run time).
#[test]
fn engines_read_what_kifu_writes_or_skip_without_the_export_venv() {
    engines_read_what_kifu_writes_of(seed_groups);
}

#[test]
#[cfg_attr(not(kifu_shared), ignore = "needs ../shared (the corpus)")]
fn engines_read_what_kifu_writes_on_the_corpus_or_skip_without_the_export_venv() {
    engines_read_what_kifu_writes_of(corpus_groups);
}

fn engines_read_what_kifu_writes_of(groups: fn() -> Vec<Group>) {
    let Some(python) = python() else {
        eprintln!(
            "SKIPPED: no Python environment with pyarrow and DuckDB: run scripts/python_env.sh --no-build \
             (or set KIFU_EXPORT_PYTHON) to check the exported files with the real engines"
        );
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let entries: Vec<serde_json::Value> = groups()
        .iter()
        .map(|g| write_group(tmp.path(), g))
        .collect();
    let manifest = tmp.path().join("manifest.json");
    std::fs::write(
        &manifest,
        serde_json::json!({ "groups": entries }).to_string(),
    )
    .unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines/check.py");
    let out = Command::new(&python)
        .arg(script)
        .arg(&manifest)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    eprintln!("{stdout}{stderr}");
    assert!(out.status.success(), "check.py failed:\n{stdout}\n{stderr}");
    assert!(stdout.contains(" passed, 0 failed"));
}
