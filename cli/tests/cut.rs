//! A game larger than `--max-game-bytes` (issue 32, nothing lost in silence): the DOM builder
//! keeps what came before the limit and skips the rest; every command that builds games names
//! the game on stderr and exits 1, at every thread count. They wrote the cut game with `*`,
//! exit 0 and nothing said (`filter`, `dedup`, `split`, `export`, `json`).

use std::fs;

mod common;
use common::{code, err, kifu};

/// One PGN game of about 300 KB (knights back and forth), then a small one.
fn long_pgn() -> Vec<u8> {
    let mut s = String::from("[Event \"x\"]\n\n");
    for n in (1..20_000).step_by(2) {
        s.push_str(&format!("{n}. Nf3 Nf6 {}. Ng1 Ng8 ", n + 1));
    }
    s.push_str("*\n\n[Event \"y\"]\n\n1. e4 e5 1-0\n");
    s.into_bytes()
}

/// One SGF tree of about 300 KB, then a small one.
fn long_sgf() -> Vec<u8> {
    let mut s = String::from("(;GM[1]FF[4]SZ[19]");
    for _ in 0..25_000 {
        s.push_str(";B[aa];W[bb]");
    }
    s.push_str(")\n(;GM[1]FF[4]SZ[19];B[dd])\n");
    s.into_bytes()
}

/// Every command that builds games, its output in `dir`.
const COMMANDS: &[&[&str]] = &[
    &["fmt"],
    &["filter", "-w", "Event!=z"],
    &["dedup"],
    &["json"],
    &["split", "--games", "5", "-o", "parts", "--force"],
    &["export", "-o", "t.parquet", "--force"],
    &["export", "--table", "moves", "-o", "m.csv", "--force"],
    &["export", "--table", "json", "-o", "j.jsonl", "--force"],
    &[
        "export",
        "--table",
        "positions",
        "-o",
        "p.parquet",
        "--force",
    ],
];

#[test]
fn a_game_cut_at_the_limit_is_named_and_exits_1_in_every_command() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("long.pgn"), long_pgn()).unwrap();
    fs::write(dir.path().join("long.sgf"), long_sgf()).unwrap();
    for input in ["long.pgn", "long.sgf"] {
        let path = dir.path().join(input);
        let path = path.to_str().unwrap();
        for command in COMMANDS {
            for threads in ["1", "2"] {
                let mut args: Vec<String> = command.iter().map(|s| s.to_string()).collect();
                if let Some(k) = args.iter().position(|a| a == "-o") {
                    let at = dir.path().join(&args[k + 1]);
                    args[k + 1] = at.to_str().unwrap().to_string();
                }
                args.extend(["-j", threads, "--max-game-bytes", "100K", path].map(String::from));
                let o = kifu(&args, None);
                let e = err(&o);
                assert_eq!(code(&o), 1, "kifu {args:?}: {e}");
                assert!(
                    e.contains(&format!(
                        "{input}: game 1: cut: larger than --max-game-bytes"
                    )),
                    "kifu {args:?}: {e}"
                );
                assert!(!e.contains("game 2: cut"), "kifu {args:?}: {e}");
                // the default limit keeps it whole: nothing said
                let whole: Vec<&String> = args
                    .iter()
                    .filter(|a| *a != "--max-game-bytes" && *a != "100K")
                    .collect();
                let o = kifu(&whole, None);
                assert!(!err(&o).contains("cut"), "kifu {whole:?}: {}", err(&o));
                if !command.contains(&"json") || command[0] == "export" {
                    assert_eq!(code(&o), 0, "kifu {whole:?}: {}", err(&o));
                }
            }
        }
    }
}

/// `kifu find`: a matching game cut at the limit is named too, whether its search ran on the
/// parser's events (the default) or on the built game (`--dom-search`), at every thread count.
#[test]
fn find_names_a_matching_game_it_cut() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("long.pgn");
    fs::write(&path, long_pgn()).unwrap();
    let path = path.to_str().unwrap();
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    for search in [None, Some("--dom-search")] {
        for threads in ["1", "2"] {
            let mut args = vec!["find", "--fen", start, "-j", threads, path];
            args.extend(search);
            let o = kifu(&[&args[..], &["--max-game-bytes", "100K"]].concat(), None);
            let e = err(&o);
            assert_eq!(code(&o), 1, "kifu {args:?}: {e}");
            assert!(
                e.contains("long.pgn: game 1: cut: larger than --max-game-bytes"),
                "kifu {args:?}: {e}"
            );
            let o = kifu(&args, None);
            assert_eq!(code(&o), 0, "kifu {args:?}: {}", err(&o));
            assert!(!err(&o).contains("cut"), "kifu {args:?}: {}", err(&o));
        }
    }
}

/// An input of many games each past the limit: the first 100 named, the rest counted in one
/// line (a million cut games are not a million names held until the input's end).
#[test]
fn many_cut_games_are_named_up_to_a_hundred_then_counted() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("many.pgn");
    fs::write(
        &path,
        "[Event \"a\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n".repeat(250),
    )
    .unwrap();
    let path = path.to_str().unwrap();
    for threads in ["1", "2"] {
        let args = [
            "filter",
            "-c",
            "-j",
            threads,
            "--max-game-bytes",
            "100",
            path,
        ];
        let o = kifu(&args, None);
        let e = err(&o);
        assert_eq!(code(&o), 1, "{e}");
        assert_eq!(e.matches(": cut: larger than").count(), 100, "{e}");
        assert!(e.contains("many.pgn: game 100: cut"), "{e}");
        assert!(
            e.contains("many.pgn: 150 more game(s) cut at --max-game-bytes"),
            "{e}"
        );
    }
}
