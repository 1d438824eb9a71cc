//! Nothing lost in silence (issue 32): every game read is written in every form, or named on
//! stderr with exit status 1; values that mean nothing are refused; what could not be read is
//! named. Each test builds what it needs at test time.

use std::ffi::OsStr;
use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

mod common;
use common::{GAME, code, entries, err, kifu, out};

/// The text of every file of `dir`, in name order.
fn texts(dir: &Path) -> String {
    entries(dir)
        .iter()
        .map(|n| fs::read_to_string(dir.join(n)).unwrap())
        .collect()
}

// ----- deep SGF trees ------------------------------------------------------------------------

/// A game tree with `n` branch points nested in each other (each `B[aa]` has two children,
/// `W[bb]` and the next branch point), then a plain tree `B[dd]`.
fn deep_sgf(n: usize) -> Vec<u8> {
    let mut s = b"(;GM[1]".to_vec();
    for _ in 0..n {
        s.extend_from_slice(b"(;B[aa](;W[bb])");
    }
    s.extend(std::iter::repeat_n(b')', n));
    s.extend_from_slice(b")\n(;GM[1];B[dd])\n");
    s
}

/// A tree nested past the JSON serialization's depth is written in the standard form by every
/// command, and in JSON by none: each JSON form names it on stderr and exits 1, never drops it
/// in silence nor panics; the other tree is written everywhere.
#[test]
fn a_tree_too_deep_for_json_is_named_by_every_json_form() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("deep.sgf");
    fs::write(&input, deep_sgf(1100)).unwrap();
    let input = input.to_str().unwrap();
    let named = "deep.sgf: game 1: not written: variations nested deeper than 1000";
    let plain = "[\"B\",[\"dd\"]]";

    // the JSON forms to stdout: the plain tree, the deep one named, exit 1
    for args in [
        &["json"][..],
        &["filter", "--to", "jsonl"],
        &["dedup", "--to", "jsonl"],
    ] {
        let o = kifu(&[args, &[input]].concat(), None);
        assert_eq!(code(&o), 1, "{args:?}: {}", err(&o));
        assert!(err(&o).contains(named), "{args:?}: {}", err(&o));
        assert_eq!(out(&o).lines().count(), 1, "{args:?}: {}", out(&o));
        assert!(out(&o).contains(plain), "{args:?}: {}", out(&o));
    }
    // the standard form: both trees, exit 0
    for args in [&["fmt"][..], &["filter"], &["dedup"]] {
        let o = kifu(&[args, &[input]].concat(), None);
        assert_eq!(code(&o), 0, "{args:?}: {}", err(&o));
        assert_eq!(out(&o).matches("(;GM[1]").count(), 2, "{args:?}");
        assert!(out(&o).contains("B[dd]"), "{args:?}");
    }
    // split, both ways of sharing out, both forms
    for share in [&["--games", "1"][..], &["--by", "GM"]] {
        for (to, trees, status) in [("jsonl", 1, 1), ("std", 2, 0)] {
            let to_dir = dir.path().join(format!("split-{to}-{}", share[0]));
            let to_dir = to_dir.to_str().unwrap();
            let args = [&["split", "-o", to_dir, "--to", to][..], share, &[input]].concat();
            let o = kifu(&args, None);
            assert_eq!(code(&o), status, "{args:?}: {}", err(&o));
            assert_eq!(
                err(&o).contains(named),
                status == 1,
                "{args:?}: {}",
                err(&o)
            );
            let written = texts(Path::new(to_dir));
            let count = if to == "jsonl" {
                written.lines().count()
            } else {
                written.matches("(;GM[1]").count()
            };
            assert_eq!(count, trees, "{args:?}: {written}");
            assert!(written.contains("B[dd]") || written.contains(plain));
        }
    }
}

// ----- split --by keeps values bounded -------------------------------------------------------

/// Values longer than a file name are kept as their first bytes and a hash of the whole: two
/// long values that begin alike go to two files whose names end with their hashes, never to
/// one, and the same value always to the same file.
#[test]
fn split_by_a_long_value_names_its_file_by_a_prefix_and_a_hash() {
    let dir = tempfile::tempdir().unwrap();
    let mut sgf = Vec::new();
    for (k, tail) in ["a", "b", "a"].iter().enumerate() {
        let value = format!("{}{tail}", "x".repeat(5000));
        sgf.extend_from_slice(format!("(;GM[1]PB[{value}]C[game {k}];B[dd])\n").as_bytes());
    }
    let input = dir.path().join("long.sgf");
    fs::write(&input, sgf).unwrap();
    let to = dir.path().join("by");
    let o = kifu(
        &[
            "split",
            "--by",
            "PB",
            "-o",
            to.to_str().unwrap(),
            input.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(code(&o), 0, "{}", err(&o));
    let names = entries(&to);
    assert_eq!(names.len(), 2, "{names:?}");
    for name in &names {
        let stem = name.strip_suffix(".sgf").unwrap();
        let (prefix, hash) = stem.rsplit_once('-').unwrap();
        assert!(prefix.bytes().all(|b| b == b'x'), "{name}");
        assert_eq!(hash.len(), 16, "{name}");
        assert!(hash.bytes().all(|b| b.is_ascii_hexdigit()), "{name}");
        assert!(name.len() <= 104, "{name}");
    }
    let games: Vec<usize> = names
        .iter()
        .map(|n| {
            fs::read_to_string(to.join(n))
                .unwrap()
                .matches("(;GM[1]")
                .count()
        })
        .collect();
    let mut sorted = games.clone();
    sorted.sort();
    assert_eq!(sorted, [1, 2], "{names:?}: {games:?}");
}

// ----- values that mean nothing --------------------------------------------------------------

/// A count or a limit of 0 means nothing: refused as a usage error (exit 2, the flag named)
/// before any input is read, by every command that takes it.
#[test]
fn zero_counts_and_limits_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("g.pgn");
    fs::write(&input, GAME).unwrap();
    let input = input.to_str().unwrap();
    let out_dir = dir.path().join("out");
    let out_dir = out_dir.to_str().unwrap();
    let parquet = dir.path().join("t.parquet");
    let parquet = parquet.to_str().unwrap();
    let cases: &[(&[&str], &str)] = &[
        (
            &["stats", "--by", "Event", "--max-groups", "0"],
            "--max-groups",
        ),
        (
            &["export", "-o", parquet, "--row-group-rows", "0"],
            "--row-group-rows",
        ),
        (
            &[
                "export",
                "-o",
                out_dir,
                "--dataset",
                "--max-rows-per-file",
                "0",
            ],
            "--max-rows-per-file",
        ),
        (
            &[
                "export",
                "-o",
                parquet,
                "--table",
                "positions",
                "--distinct",
                "--distinct-memory",
                "0",
            ],
            "--distinct-memory",
        ),
        (&["split", "-o", out_dir, "--games", "0"], "--games"),
        (&["json", "--max-game-bytes", "0"], "--max-game-bytes"),
        (&["stats", "--decoder-memory", "0"], "--decoder-memory"),
        (&["stats", "--piece-size", "0K"], "--piece-size"),
        (&["stats", "--buffer-size", "0"], "--buffer-size"),
        (&["stats", "--frame-buffer", "0"], "--frame-buffer"),
    ];
    for (args, flag) in cases {
        let o = kifu(&[*args, &[input]].concat(), None);
        assert_eq!(code(&o), 2, "{args:?}: {}", err(&o));
        assert!(err(&o).contains(flag), "{args:?}: {}", err(&o));
        assert!(err(&o).contains("at least 1"), "{args:?}: {}", err(&o));
        assert!(out(&o).is_empty(), "{args:?}: {}", out(&o));
    }
    assert!(!Path::new(parquet).exists());
    assert!(!Path::new(out_dir).exists());
    // 1 is a value
    let o = kifu(
        &["stats", "--by", "Event", "--max-groups", "1", input],
        None,
    );
    assert_eq!(code(&o), 0, "{}", err(&o));
}

// ----- messages that say what happened -------------------------------------------------------

/// A zstd frame of one raw block holding `payload`, whose header asks for a window of
/// `2^window_log` bytes (no content size, so the window is what the decoder must hold).
fn zstd_frame(window_log: u8, payload: &[u8]) -> Vec<u8> {
    let mut f = b"\x28\xb5\x2f\xfd\x00".to_vec();
    f.push((window_log - 10) << 3);
    f.extend_from_slice(&(((payload.len() as u32) << 3) | 1).to_le_bytes()[..3]);
    f.extend_from_slice(payload);
    f
}

/// An xz stream of `payload` whose LZMA2 dictionary is `dict` bytes.
fn xz_stream(dict: u32, payload: &[u8]) -> Vec<u8> {
    use liblzma::stream::{Check, Filters, LzmaOptions, Stream};
    let mut opts = LzmaOptions::new_preset(0).unwrap();
    opts.dict_size(dict);
    let mut filters = Filters::new();
    filters.lzma2(&opts);
    let stream = Stream::new_stream_encoder(&filters, Check::Crc32).unwrap();
    let mut w = liblzma::write::XzEncoder::new_stream(Vec::new(), stream);
    w.write_all(payload).unwrap();
    w.finish().unwrap()
}

/// The frame or stream that asks for too much is named by where it starts (not where the
/// reading had got to), at every `-j`; the limit is said in the unit that holds it.
#[test]
fn the_decoder_memory_message_names_the_frame_and_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let first = zstd::encode_all(GAME.repeat(200).as_slice(), 3).unwrap();
    let mut bytes = first.clone();
    bytes.extend(zstd_frame(28, GAME));
    let zst = dir.path().join("two.pgn.zst");
    fs::write(&zst, &bytes).unwrap();
    let zst = zst.to_str().unwrap();
    for j in ["1", "2"] {
        let o = kifu(&["stats", "-j", j, zst], None);
        assert_eq!(code(&o), 2, "{}", err(&o));
        let said = format!(
            "two.pgn.zst: the zstd data near byte {} asks for a zstd window larger than the \
             decoder memory limit (128 MiB)",
            first.len()
        );
        assert!(err(&o).contains(&said), "-j {j}: {}", err(&o));
    }
    for (limit, said) in [
        ("1K", "(1 KiB)"),
        ("1500", "(1500 bytes)"),
        ("3M", "(3 MiB)"),
    ] {
        let o = kifu(&["stats", "--decoder-memory", limit, zst], None);
        assert_eq!(code(&o), 2, "{}", err(&o));
        assert!(err(&o).contains(said), "{limit}: {}", err(&o));
    }
    // xz: the stream that asks, after one that does not
    let small = xz_stream(64 << 10, GAME);
    let mut bytes = small.clone();
    bytes.extend(xz_stream(1 << 20, GAME));
    let xz = dir.path().join("two.pgn.xz");
    fs::write(&xz, &bytes).unwrap();
    let o = kifu(
        &["stats", "--decoder-memory", "1023K", xz.to_str().unwrap()],
        None,
    );
    assert_eq!(code(&o), 2, "{}", err(&o));
    let said = format!(
        "the xz data near byte {} asks for an xz dictionary larger than the decoder memory \
         limit (1023 KiB)",
        small.len()
    );
    assert!(err(&o).contains(&said), "{}", err(&o));
}

/// One rule for every decoder: a window or dictionary of the limit exactly is taken, one
/// larger refused.
#[test]
fn the_decoder_memory_limit_is_inclusive_for_zstd_and_xz() {
    let dir = tempfile::tempdir().unwrap();
    let zst = dir.path().join("w.pgn.zst");
    fs::write(&zst, zstd_frame(20, GAME)).unwrap();
    let xz = dir.path().join("d.pgn.xz");
    fs::write(&xz, xz_stream(1 << 20, GAME)).unwrap();
    for input in [&zst, &xz] {
        let input = input.to_str().unwrap();
        let o = kifu(&["stats", "--json", "--decoder-memory", "1M", input], None);
        assert_eq!(code(&o), 0, "{input}: {}", err(&o));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(v["games"], 1, "{input}");
        let o = kifu(&["stats", "--decoder-memory", "1023K", input], None);
        assert_eq!(code(&o), 2, "{input}: {}", err(&o));
        assert!(err(&o).contains("near byte 0 asks for"), "{}", err(&o));
    }
}

/// `split -o FILE` where FILE is a file: said to be no directory (not "File exists").
#[test]
fn split_into_a_file_says_it_is_not_a_directory() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("afile");
    fs::write(&file, b"kept").unwrap();
    let o = kifu(
        &["split", "--games", "1", "-o", file.to_str().unwrap(), "-"],
        Some(GAME),
    );
    assert_eq!(code(&o), 2, "{}", err(&o));
    assert!(err(&o).contains("afile: not a directory"), "{}", err(&o));
    assert!(!err(&o).contains("File exists"), "{}", err(&o));
    assert_eq!(fs::read(&file).unwrap(), b"kept");
}

/// The export's json table names a tree it cannot write once: `FILE: game N: not written`.
#[test]
fn export_names_an_unwritten_tree_once() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("deep.sgf");
    fs::write(&input, deep_sgf(1100)).unwrap();
    let out_file = dir.path().join("t.jsonl");
    let o = kifu(
        &[
            "export",
            "--table",
            "json",
            "-o",
            out_file.to_str().unwrap(),
            input.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(code(&o), 1, "{}", err(&o));
    assert!(
        err(&o).starts_with("kifu export: ")
            && err(&o)
                .contains("deep.sgf: game 1: not written: variations nested deeper than 1000"),
        "{}",
        err(&o)
    );
    assert!(!err(&o).contains("game 1: game 1"), "{}", err(&o));
    assert_eq!(fs::read_to_string(&out_file).unwrap().lines().count(), 1);
}

// ----- what could not be read is named -------------------------------------------------------

/// A `.pgn` link inside a directory that leads nowhere, or round in a loop, is an input that
/// could not be read: named on stderr, exit status 2, the other files read.
#[cfg(unix)]
#[test]
fn a_dangling_or_looping_link_in_a_directory_is_named() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games");
    fs::create_dir(&games).unwrap();
    fs::write(games.join("a.pgn"), GAME).unwrap();
    symlink("nowhere.pgn", games.join("dangling.pgn")).unwrap();
    symlink("loop.pgn", games.join("loop.pgn")).unwrap();
    // a link of another name is a skipped file, as any file of that name
    symlink("nowhere", games.join("notes.txt")).unwrap();
    let o = kifu(&["stats", "--json", games.to_str().unwrap()], None);
    assert_eq!(code(&o), 2, "{}", err(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["games"], 1);
    let e = err(&o);
    assert!(
        e.contains("dangling.pgn: cannot open: a symbolic link to nothing (dangling)"),
        "{e}"
    );
    assert!(
        e.contains("loop.pgn: cannot open: a symbolic link that cannot be followed"),
        "{e}"
    );
    assert!(!e.contains("notes.txt"), "{e}");
}

// ----- split over files that exist -----------------------------------------------------------

/// `split --by --force` over more files than it keeps open, each of them read-only: every file
/// replaced, its mode kept (a parked temporary is opened again, so it stays writable by its
/// owner until the commit). Run as another user when the test runs as root, whom no mode stops.
#[cfg(unix)]
#[test]
fn split_force_replaces_read_only_files_beyond_the_open_ones() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    use std::os::unix::process::CommandExt;
    let dir = tempfile::tempdir().unwrap();
    let root = fs::metadata(dir.path()).unwrap().uid() == 0;
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o777)).unwrap();
    let mut pgn = Vec::new();
    for k in 0..140 {
        pgn.extend_from_slice(
            format!("[Event \"e{k}\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n\n").as_bytes(),
        );
    }
    let input = dir.path().join("g.pgn");
    fs::write(&input, &pgn).unwrap();
    let to = dir.path().join("by");
    let split = |force: bool| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_kifu"));
        cmd.args(["split", "-q", "--by", "Event", "-o"])
            .arg(&to)
            .arg(&input)
            .args(force.then_some("--force"))
            .stdin(Stdio::null());
        if root {
            // nobody
            cmd.uid(65534).gid(65534);
        }
        cmd.output()
    };
    let o = match split(false) {
        Ok(o) => o,
        Err(e) if root => {
            eprintln!("skipped: the binary cannot be run as another user here: {e}");
            return;
        }
        Err(e) => panic!("{e}"),
    };
    assert_eq!(code(&o), 0, "{}", err(&o));
    assert_eq!(entries(&to).len(), 140);
    for name in entries(&to) {
        fs::set_permissions(to.join(name), fs::Permissions::from_mode(0o444)).unwrap();
    }
    let o = split(true).unwrap();
    assert_eq!(code(&o), 0, "{}", err(&o));
    let names = entries(&to);
    assert_eq!(names.len(), 140, "{names:?}");
    for name in names {
        let m = fs::metadata(to.join(&name)).unwrap();
        assert_eq!(m.permissions().mode() & 0o777, 0o444, "{name}");
        assert!(
            fs::read_to_string(to.join(&name))
                .unwrap()
                .contains("1. e4")
        );
    }
}

/// A tar.gz whose first member is an SGF game and whose second holds three PGN games.
fn mixed_archive(dir: &Path) -> std::path::PathBuf {
    let path = dir.join("tour.tar.gz");
    let gz = flate2::write::GzEncoder::new(
        fs::File::create(&path).unwrap(),
        flate2::Compression::default(),
    );
    let mut tar = tar::Builder::new(gz);
    let sgf = b"(;GM[1]SZ[9]PB[Black]PW[White];B[ee];W[cc])\n".as_slice();
    let pgn = GAME.repeat(3);
    for (name, bytes) in [("parts/go.sgf", sgf), ("parts/games.pgn", &pgn)] {
        let mut h = tar::Header::new_gnu();
        h.set_size(bytes.len() as u64);
        h.set_mode(0o644);
        h.set_cksum();
        tar.append_data(&mut h, name, bytes).unwrap();
    }
    tar.into_inner().unwrap().finish().unwrap();
    path
}

/// Rows of a JSON Lines file.
fn rows(path: &Path) -> usize {
    fs::read_to_string(path).unwrap().lines().count()
}

#[test]
fn a_mixed_archive_exports_every_game_one_table_per_format() {
    let dir = tempfile::tempdir().unwrap();
    let archive = mixed_archive(dir.path());
    // the default table (games: PGN games, SGF trees): the first format's table at OUT, the
    // other's beside it; nothing left out, exit 0
    let out = dir.path().join("mixed.jsonl");
    let o = kifu(
        &[
            OsStr::new("export"),
            archive.as_os_str(),
            OsStr::new("-o"),
            out.as_os_str(),
        ],
        None,
    );
    assert_eq!(code(&o), 0, "{}", err(&o));
    assert_eq!(rows(&out), 1, "the SGF tree, first met");
    let beside = dir.path().join("mixed.pgn.jsonl");
    assert_eq!(rows(&beside), 3, "the three PGN games");
    assert!(err(&o).contains("mixed.pgn.jsonl"), "{}", err(&o));
    assert!(
        fs::read_to_string(&out)
            .unwrap()
            .contains("\"PB\":\"Black\"")
    );
    // the moves of both formats
    let moves = dir.path().join("moves.jsonl");
    let o = kifu(
        &[
            OsStr::new("export"),
            archive.as_os_str(),
            OsStr::new("--table"),
            OsStr::new("moves"),
            OsStr::new("-o"),
            moves.as_os_str(),
        ],
        None,
    );
    assert_eq!(code(&o), 0, "{}", err(&o));
    assert_eq!(fs::read_to_string(&moves).unwrap().lines().count(), 2);
    let pgn_moves = dir.path().join("moves.pgn.jsonl");
    assert_eq!(fs::read_to_string(&pgn_moves).unwrap().lines().count(), 12);
    // the positions of both formats: Go's boards at OUT, chess's beside
    let both = dir.path().join("both.jsonl");
    let o = kifu(
        &[
            OsStr::new("export"),
            archive.as_os_str(),
            OsStr::new("--table"),
            OsStr::new("positions"),
            OsStr::new("-o"),
            both.as_os_str(),
        ],
        None,
    );
    assert_eq!(code(&o), 0, "{}", err(&o));
    assert_eq!(rows(&both), 2, "the Go game's two positions");
    let chess = dir.path().join("both.pgn.jsonl");
    assert_eq!(
        rows(&chess),
        15,
        "three games of four plies: five positions each"
    );
    // a table of one format (columns only Go's positions have): the other's inputs named,
    // exit 1
    let trees = dir.path().join("trees.jsonl");
    let o = kifu(
        &[
            OsStr::new("export"),
            archive.as_os_str(),
            OsStr::new("--table"),
            OsStr::new("positions"),
            OsStr::new("--columns"),
            OsStr::new("board,ko_point"),
            OsStr::new("-o"),
            trees.as_os_str(),
        ],
        None,
    );
    assert_eq!(code(&o), 1, "{}", err(&o));
    assert_eq!(rows(&trees), 2, "the Go game's two positions");
    assert!(err(&o).contains("parts/games.pgn"), "{}", err(&o));
    assert!(!dir.path().join("trees.pgn.jsonl").exists());
    // the same bytes at every -j
    for j in ["1", "2", "3"] {
        let again = dir.path().join(format!("again{j}.jsonl"));
        let o = kifu(
            &[
                OsStr::new("export"),
                archive.as_os_str(),
                OsStr::new("-j"),
                OsStr::new(j),
                OsStr::new("-o"),
                again.as_os_str(),
            ],
            None,
        );
        assert_eq!(code(&o), 0, "{}", err(&o));
        let beside = dir.path().join(format!("again{j}.pgn.jsonl"));
        assert_eq!(
            fs::read(&beside).unwrap(),
            fs::read(dir.path().join("mixed.pgn.jsonl")).unwrap()
        );
    }
}

/// Through stdin at `-j1`, games are written as they are read, not at the end of the input:
/// the first lines come while stdin is still open (after the input's first chunk, 1 MiB, and
/// a piece: pieces of 64 KiB here).
#[test]
fn one_thread_writes_from_stdin_before_its_end() {
    use std::io::{BufRead, BufReader};
    use std::time::Duration;
    let mut child = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(["json", "-j1", "--piece-size", "64K", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        let mut n = 0;
        for line in BufReader::new(stdout).lines() {
            let line = line.unwrap();
            if n == 0 {
                let _ = tx.send(line);
            }
            n += 1;
        }
        n
    });
    // about 4 MB of games, and the pipe kept open
    let games = 40_000;
    for _ in 0..games {
        stdin.write_all(GAME).unwrap();
    }
    stdin.flush().unwrap();
    let first = rx.recv_timeout(Duration::from_secs(60));
    drop(stdin);
    let first = match first {
        Ok(line) => line,
        Err(_) => {
            let _ = child.kill();
            panic!("no line while stdin was open");
        }
    };
    assert!(first.contains(r#"["White","w"]"#), "{first}");
    assert_eq!(reader.join().unwrap(), games);
    assert!(child.wait().unwrap().success());
}
