//! The opening names on real files: the embedded table against the shared copy of the lichess
//! data set, and the names given to lichess's own games against the `ECO` and `Opening` tags
//! lichess wrote in them (from the same table, as it stood when the games were played). Ignored
//! when `../shared` is absent.

use std::path::{Path, PathBuf};

use kifu::pgn::Games;
use kifu_replay::chess::openings;

/// The shared folder, as the crate's `build.rs` found it (see `tests/corpus.rs`).
fn shared() -> PathBuf {
    match option_env!("KIFU_SHARED_DIR") {
        Some(dir) if cfg!(kifu_shared) => PathBuf::from(dir),
        _ => panic!(
            "this test needs the shared corpus: ../shared beside the project root (or \
             KIFU_SHARED naming it), present when the tests were built (touch build.rs after \
             adding it)"
        ),
    }
}

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data/chess-openings")
}

#[test]
#[cfg_attr(not(kifu_shared), ignore = "needs ../shared (the corpus)")]
fn embedded_openings_equal_the_shared_tsvs() {
    let src = shared().join("data/chess-openings");
    let mut tsv = Vec::new();
    for f in ["a", "b", "c", "d", "e"] {
        tsv.extend(std::fs::read(src.join(format!("{f}.tsv"))).unwrap());
    }
    // the blob, byte for byte
    let blob = std::fs::read(data_dir().join("openings.tsv.zz")).unwrap();
    let text = miniz_oxide::inflate::decompress_to_vec_zlib(&blob).unwrap();
    assert!(
        text == tsv,
        "replay/data/chess-openings/openings.tsv.zz is not the shared a.tsv … e.tsv: run \
         scripts/data/openings.sh"
    );
    assert_eq!(
        std::fs::read(data_dir().join("COPYING.txt")).unwrap(),
        std::fs::read(src.join("COPYING.txt")).unwrap()
    );
    // and the table read from it has every line, in order
    let tsv = String::from_utf8(tsv).unwrap();
    let rows: Vec<(&str, &str, &str)> = tsv
        .lines()
        .filter(|l| *l != "eco\tname\tpgn")
        .map(|l| {
            let mut c = l.split('\t');
            (c.next().unwrap(), c.next().unwrap(), c.next().unwrap())
        })
        .collect();
    let table: Vec<_> = openings::table()
        .lines()
        .map(|e| (e.eco, e.name, e.pgn))
        .collect();
    assert_eq!(table, rows);
}

/// The lichess-format files of the corpus: game exports of the lichess database (ECO and
/// Opening tags set by lichess), two crazyhouse games, and study chapters.
fn lichess_files() -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![shared().join("corpus")];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p
                .file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.contains("lichess") && n.ends_with(".pgn"))
            {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Per file: games, games whose ECO agrees, games whose name agrees, and the disagreements as
/// lines `game: tags → ours`.
fn agreement(data: &[u8]) -> (usize, usize, usize, Vec<String>) {
    let (mut games, mut eco_ok, mut name_ok) = (0, 0, 0);
    let mut diffs = Vec::new();
    for (i, mut game) in Games::new(data).enumerate() {
        let tag = |g: &kifu::pgn::Game, n| g.tag(n).unwrap_or("?").to_string();
        let (eco, name) = (tag(&game, "ECO"), tag(&game, "Opening"));
        // the tags lichess set, removed before naming the game
        game.remove_tag("ECO");
        game.remove_tag("Opening");
        let o = openings::classify(&game);
        let (our_eco, our_name) = o.map_or(("?", "?"), |o| (o.eco, o.name));
        games += 1;
        eco_ok += usize::from(eco == our_eco);
        name_ok += usize::from(name == our_name);
        if eco != our_eco || name != our_name {
            diffs.push(format!(
                "game {} ({}): {eco} {name} → {our_eco} {our_name} (ply {})",
                i + 1,
                game.site().unwrap_or("?"),
                o.map_or(0, |o| o.ply)
            ));
        }
    }
    (games, eco_ok, name_ok, diffs)
}

#[test]
#[cfg_attr(not(kifu_shared), ignore = "needs ../shared (the corpus)")]
fn lichess_games_are_named_as_lichess_named_them() {
    let files = lichess_files();
    assert!(files.len() >= 4, "{files:?}");
    let mut db = (0, 0, 0);
    for f in &files {
        let data = std::fs::read(f).unwrap();
        let (games, eco, name, diffs) = agreement(&data);
        let rel = f.strip_prefix(shared()).unwrap_or(f);
        println!(
            "{}: {games} games, ECO {eco} ({:.2}%), name {name} ({:.2}%)",
            rel.display(),
            100.0 * eco as f64 / games as f64,
            100.0 * name as f64 / games as f64
        );
        for d in &diffs {
            println!("  {d}");
        }
        let file_name = f.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if file_name.starts_with("lichess_db_") {
            db.0 += games;
            db.1 += eco;
            db.2 += name;
        }
        if file_name == "lichess_db_1000k.pgn" {
            assert_eq!(games, 438);
            assert!(eco * 100 >= games * 99, "ECO: {eco} of {games}");
            assert!(name * 100 >= games * 97, "name: {name} of {games}");
        }
    }
    let (games, eco, name) = db;
    println!("lichess_db_*: {games} games, ECO {eco}, name {name}");
    assert!(games >= 438 && eco * 100 >= games * 99 && name * 100 >= games * 97);
}
