//! `serde::Serialize` of [`kifu::pgn::Game`] against the `kifu json` binary: for the seed and a
//! sample of the corpus, each line `kifu json` writes, without its `"file"` key, is byte for byte
//! `serde_json::to_string(&game)`.

use std::path::Path;
use std::process::Command;

use kifu::pgn::{Game, Games};

/// Compares `kifu json FILE` with the DOM of `FILE`; returns the number of games.
fn compare(path: &Path) -> usize {
    let out = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .arg("json")
        .arg(path)
        .output()
        .unwrap();
    // exit status 1: an input without any game (named on stderr), so no line
    assert!(
        out.status.success() || out.status.code() == Some(1) && out.stdout.is_empty(),
        "kifu json {}",
        path.display()
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let data = std::fs::read(path).unwrap();
    let games: Vec<Game> = Games::new(&data).collect();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), games.len(), "{}", path.display());
    let file = format!(
        ",\"file\":{}",
        serde_json::to_string(&path.display().to_string()).unwrap()
    );
    for (line, game) in lines.iter().zip(&games) {
        let expected = line.replacen(&file, "", 1);
        let got = serde_json::to_string(game).unwrap();
        assert!(
            got == expected,
            "{} game {}:\nkifu json: {expected}\nserde:     {got}",
            path.display(),
            game.index
        );
        // and as values
        let mut v: serde_json::Value = serde_json::from_str(line).unwrap();
        v.as_object_mut().unwrap().remove("file");
        assert_eq!(v, serde_json::to_value(game).unwrap());
    }
    games.len()
}

#[test]
fn seed_as_kifu_json() {
    assert_eq!(
        compare(&kifu_testkit::data_path("seed-kasparov-kramnik-2001.pgn")),
        1
    );
}

#[test]
#[cfg_attr(not(kifu_shared), ignore = "needs ../shared (the corpus)")]
fn corpus_sample_as_kifu_json() {
    let root = kifu_testkit::shared().join("corpus").join("pgn");
    // every small file (they hold the odd cases), and one large file in eight; every file with
    // KIFU_JSON_ALL=1
    let all = std::env::var_os("KIFU_JSON_ALL").is_some();
    let files = kifu_testkit::files_with_ext(&root, "pgn");
    let mut games = 0;
    let mut n = 0;
    for (i, path) in files.iter().enumerate() {
        let small = path.starts_with(root.join("small"));
        let size = std::fs::metadata(path).unwrap().len();
        if all || (small && size < 2_000_000) || (i % 8 == 0 && size < 3_000_000) {
            games += compare(path);
            n += 1;
        }
    }
    assert!(n > 0, "no .pgn file below {}", root.display());
    eprintln!("kifu json = serde on {n} files, {games} games");
}

/// Problems outside games: the parser reports them only before the first game's first token
/// (a game stays open until the next one starts, so text after a result is its game's). Both
/// `kifu json` and the DOM give them to the first game; with no game, neither writes an object
/// (`kifu json` names the input on stderr, the builder keeps them as `unclaimed_errors`).
#[test]
fn problems_before_the_first_game_go_to_it() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&str, &[u8]); 3] = [
        (
            "head.pgn",
            b"Downloaded from somewhere\n) } $x .\n[Event \"a\"]\n\n1. e4 e5 1-0\nbetween the games\n\n[Event \"b\"]\n\n1. d4 *\n",
        ),
        ("comment.pgn", b"junk\n{a game comment} 1. e4 *\n"),
        ("nothing.pgn", b"no game here\n)\n"),
    ];
    for (name, data) in cases {
        let path = dir.path().join(name);
        std::fs::write(&path, data).unwrap();
        compare(&path);
    }
    let games: Vec<Game> = Games::new(cases[0].1).collect();
    let lines = |g: &Game| g.errors.iter().map(|e| e.pos.line).collect::<Vec<_>>();
    assert_eq!(lines(&games[0]), [1, 2, 2, 6]); // `} $x .` is one run of text
    assert!(games[1].errors.is_empty());
    assert_eq!(Games::new(cases[1].1).next().unwrap().errors.len(), 1);
    assert_eq!(Games::new(cases[2].1).count(), 0);
}
