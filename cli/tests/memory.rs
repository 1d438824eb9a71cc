//! Constant memory in every command (issue 32), at small scale: each command that reads games
//! is run on 2 MiB and on 16 MiB of PGN (the Go pattern search: of SGF), at `-j1` and `-j2`,
//! from a file and from stdin, and its peak resident memory (read by GNU time) may grow by
//! 12 MiB at most (the export: 64 MiB, its row groups). Before the one-thread scan streamed its
//! pieces, `kifu json -j1` held its whole output (about four times its input), which this
//! catches by a wide margin. `scripts/bench/command_memory.sh` measures the same at 64 MiB and
//! 512 MiB.
#![cfg(target_os = "linux")]

use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// Games of about 200 bytes, each its own (dedup keeps them all), a few events (the key of
/// `stats --by` and `split --by`).
fn pgn(bytes: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes + 512);
    let mut i = 0u64;
    while out.len() < bytes {
        let result = ["1-0", "0-1", "1/2-1/2"][(i % 3) as usize];
        write!(
            out,
            "[Event \"event {}\"]\n[White \"player {i}\"]\n[Black \"other {}\"]\n[Result \"{result}\"]\n\n\
             1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 {{a comment}} 4. Ba4 Nf6 5. O-O Be7 {result}\n\n",
            i % 7,
            i / 3
        )
        .unwrap();
        i += 1;
    }
    out
}

/// Go games of about 300 bytes, each its own: 19x19, Black's first stone on the 4-4 point
/// `pd` (so [`GO_PATTERN`] stands in every game, from its first move on), then 35 moves on
/// other points drawn from a small generator, no point played twice in a game.
fn sgf(bytes: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes + 512);
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut i = 0u64;
    while out.len() < bytes {
        let result = ["B+R", "W+3.5", "0"][(i % 3) as usize];
        write!(
            out,
            "(;GM[1]FF[4]SZ[19]KM[6.5]PB[player {i}]PW[other {}]RE[{result}]\n;B[pd]",
            i / 3
        )
        .unwrap();
        let mut taken = [false; 361];
        taken[3 * 19 + 15] = true;
        let mut moves = 1;
        while moves < 36 {
            // a linear congruential generator (Knuth's MMIX constants): its high bits
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let point = ((state >> 33) % 361) as usize;
            if std::mem::replace(&mut taken[point], true) {
                continue;
            }
            let colour = if moves % 2 == 0 { 'B' } else { 'W' };
            let (x, y) = (b'a' + (point % 19) as u8, b'a' + (point / 19) as u8);
            write!(out, ";{colour}[{}{}]", x as char, y as char).unwrap();
            moves += 1;
        }
        out.extend_from_slice(b")\n");
        i += 1;
    }
    out
}

/// The pattern of the Go commands: a lone black 4-4 stone in an empty corner (the first row
/// and column: anything).
const GO_PATTERN: &[u8] = b"?????\n?....\n?....\n?..X.\n?....\n";

/// GNU time, which reads its child's own peak: the kernel keeps a process's peak across
/// `execve`, so a child spawned straight from this (large) test process would report the test's
/// own size; `time` forks it from a small process.
const TIME: &str = "/usr/bin/time";

/// The peak resident memory of `kifu ARGS` in KiB, its stdin `stdin` (a file, or bytes piped).
fn peak(args: &[&str], dir: &Path, stdin: Stdin<'_>) -> u64 {
    let report = dir.join(".peak");
    let mut cmd = Command::new(TIME);
    cmd.arg("-f")
        .arg("%M")
        .arg("-o")
        .arg(&report)
        .arg(env!("CARGO_BIN_EXE_kifu"))
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    match stdin {
        Stdin::File(f) => cmd.stdin(fs::File::open(f).unwrap()),
        Stdin::Piped(_) => cmd.stdin(Stdio::piped()),
        Stdin::None => cmd.stdin(Stdio::null()),
    };
    let mut child = cmd.spawn().expect("GNU time");
    let writer = match (stdin, child.stdin.take()) {
        (Stdin::Piped(bytes), Some(mut w)) => {
            let bytes = bytes.to_vec();
            Some(std::thread::spawn(move || {
                let _ = w.write_all(&bytes);
            }))
        }
        _ => None,
    };
    let status = child.wait().unwrap();
    if let Some(w) = writer {
        w.join().unwrap();
    }
    assert!(
        status.code().is_some_and(|c| c <= 1),
        "kifu {args:?} ended with {status}"
    );
    let text = fs::read_to_string(&report).unwrap();
    text.lines()
        .last()
        .and_then(|l| l.trim().parse().ok())
        .unwrap_or_else(|| panic!("GNU time said {text:?}"))
}

/// Whether GNU time is here (`.ci/run` installs it); the tests say so and skip without it.
fn have_time() -> bool {
    if Path::new(TIME).exists() {
        return true;
    }
    eprintln!("skipped: needs GNU time at {TIME} (Debian's package time) to read a child's peak");
    false
}

#[derive(Clone, Copy)]
enum Stdin<'a> {
    File(&'a Path),
    Piped(&'a [u8]),
    None,
}

/// Every command that reads games, with its output where it does not go to stdout.
const COMMANDS: &[&[&str]] = &[
    &["stats"],
    &["stats", "--by", "Event"],
    &["check"],
    &["json"],
    &["fmt"],
    &["filter", "-w", "Result=1-0"],
    &["dedup"],
    &["split", "--games", "5000", "-o", "parts", "--force"],
    &["split", "--by", "Event", "-o", "by-event", "--force"],
    &["export", "-o", "games.parquet", "--force"],
    &[
        "export",
        "--table",
        "moves",
        "-o",
        "moves.parquet",
        "--force",
    ],
    &["export", "--table", "json", "-o", "json.jsonl", "--force"],
    &[
        "export",
        "--table",
        "positions",
        "-o",
        "positions.parquet",
        "--force",
    ],
    // every game of the input matches: all of them written
    &["find", "--subfen", "8/8/2n5/1B6/8/8/8/8"],
    &[
        "explore",
        "--json",
        "--fen",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ],
];

/// The Go pattern search, run on SGF games ([`sgf`]) with the pattern [`GO_PATTERN`] in the
/// file `44.txt`: it stands in every game, so `find` writes them all.
const GO_COMMANDS: &[&[&str]] = &[
    &["find", "--go-pattern", "44.txt", "--anchor", "corner"],
    &[
        "explore",
        "--json",
        "--go-pattern",
        "44.txt",
        "--anchor",
        "corner",
    ],
];

/// The peaks of the small and the large input, for each command, thread count and source:
/// the commands of [`COMMANDS`] on PGN, those of [`GO_COMMANDS`] on SGF.
#[test]
fn every_command_stays_flat_from_2_to_16_mib() {
    if !have_time() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (small, large) = (pgn(2 << 20), pgn(16 << 20));
    let (small_sgf, large_sgf) = (sgf(2 << 20), sgf(16 << 20));
    fs::write(dir.path().join("small.pgn"), &small).unwrap();
    fs::write(dir.path().join("large.pgn"), &large).unwrap();
    fs::write(dir.path().join("small.sgf"), &small_sgf).unwrap();
    fs::write(dir.path().join("large.sgf"), &large_sgf).unwrap();
    fs::write(dir.path().join("44.txt"), GO_PATTERN).unwrap();
    let pgn_inputs = [("small.pgn", &small[..]), ("large.pgn", &large[..])];
    let sgf_inputs = [("small.sgf", &small_sgf[..]), ("large.sgf", &large_sgf[..])];
    // the pattern stands in every game of the SGF input: `find` writes each
    let count = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(["find", "-c", "--go-pattern", "44.txt", "--anchor", "corner"])
        .arg("small.sgf")
        .current_dir(dir.path())
        .output()
        .unwrap();
    let games = small_sgf.windows(2).filter(|w| w == b"(;").count();
    assert_eq!(
        String::from_utf8_lossy(&count.stdout).trim(),
        games.to_string()
    );
    let runs = (COMMANDS.iter().map(|c| (c, pgn_inputs)))
        .chain(GO_COMMANDS.iter().map(|c| (c, sgf_inputs)));
    let mut grown = Vec::new();
    let mut report = String::new();
    for (command, [(small_name, small), (large_name, large)]) in runs {
        for threads in ["1", "2"] {
            for from_stdin in [false, true] {
                let run = |name: &str, bytes: &[u8]| {
                    let mut args: Vec<&str> = command.to_vec();
                    // pieces of 64 KiB: the pieces in flight and the pool are at their steady
                    // state within the small input already, at every -j
                    args.extend(["-j", threads, "--piece-size", "64K"]);
                    if from_stdin {
                        args.push("-");
                        peak(&args, dir.path(), Stdin::Piped(bytes))
                    } else {
                        args.push(name);
                        peak(&args, dir.path(), Stdin::None)
                    }
                };
                let a = run(small_name, small);
                let b = run(large_name, large);
                let line = format!(
                    "kifu {} -j{threads} {}: {a} KiB -> {b} KiB\n",
                    command.join(" "),
                    if from_stdin { "(stdin)" } else { "FILE" }
                );
                report.push_str(&line);
                // the export's allowance: the row groups it gathers (64 MiB, as issue 32 sets it)
                let allowed = if command[0] == "export" {
                    64 << 10
                } else {
                    12 << 10
                };
                if b > a + allowed {
                    grown.push(line);
                }
            }
        }
    }
    println!("{report}");
    assert!(
        grown.is_empty(),
        "memory grew with the input:\n{}",
        grown.concat()
    );
}

/// A game of a few kilobytes that raises a million problems: every command keeps 100 of them
/// and counts the rest (64 MiB at most, however many).
#[test]
fn a_million_problems_in_one_game_stay_bounded() {
    if !have_time() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut hostile = b"1. e4 ".to_vec();
    for _ in 0..1_000_000 {
        hostile.extend_from_slice(b") ");
    }
    hostile.extend_from_slice(b"*\n");
    let path = dir.path().join("hostile.pgn");
    fs::write(&path, &hostile).unwrap();
    for command in COMMANDS {
        let mut args: Vec<&str> = command.to_vec();
        args.extend(["-j1", "hostile.pgn"]);
        let kib = peak(&args, dir.path(), Stdin::File(&path));
        assert!(kib < 64 << 10, "kifu {args:?}: {kib} KiB");
    }
    // what check says of it: 100 problems, then one line that counts the rest
    let out = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(["check", "hostile.pgn"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 101, "{}", &text[..text.len().min(2000)]);
    assert_eq!(
        lines[100],
        "hostile.pgn: error: 999900 more problems in this game, not listed (the first 100 are) (game 1)"
    );
    let json = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(["check", "--json", "hostile.pgn"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&json.stdout);
    let last: Vec<serde_json::Value> = text
        .lines()
        .rev()
        .take(2)
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(last[0]["type"], "summary");
    assert_eq!(last[0]["problems"], 1_000_000);
    assert_eq!(last[1]["type"], "more");
    assert_eq!(last[1]["problems"], 999_900);
    // the game as JSON: 100 problems kept, the rest counted
    let json = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(["json", "hostile.pgn"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let game: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(game["errors"].as_array().unwrap().len(), 100);
    assert_eq!(game["errors_dropped"], 999_900);
}

/// Many small inputs: a .tgz of 5,000 one-game members exported. Each member's rows were a
/// batch holding builders' buffers sized for a thousand rows, kept until 8,192 rows came: the
/// export of 20,000 such members took 3 GB. Now: under 100 MiB at -j1, 256 MiB at -j2.
#[test]
fn many_small_inputs_export_in_bounded_memory() {
    if !have_time() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("many.tgz");
    let gz = flate2::write::GzEncoder::new(
        fs::File::create(&path).unwrap(),
        flate2::Compression::fast(),
    );
    let mut tar = tar::Builder::new(gz);
    let game = pgn(1);
    for i in 0..5_000 {
        let mut h = tar::Header::new_gnu();
        h.set_size(game.len() as u64);
        h.set_mode(0o644);
        h.set_cksum();
        tar.append_data(&mut h, format!("m/g{i:05}.pgn"), game.as_slice())
            .unwrap();
    }
    tar.into_inner().unwrap().finish().unwrap();
    for (threads, limit) in [("1", 100 << 10), ("2", 256 << 10)] {
        let args = [
            "export",
            "-j",
            threads,
            "many.tgz",
            "-o",
            "many.parquet",
            "--force",
        ];
        let kib = peak(&args, dir.path(), Stdin::None);
        assert!(kib < limit, "kifu {args:?}: {kib} KiB");
    }
}

/// Rows of 1 MiB each (SGF games whose `PB` is 1 MiB, PGN games with a comment of 1 MiB),
/// 200 of them in a `.zst` of a few KB. Batches were cut by their count of rows only (8,192),
/// so that every row waited in memory, then was copied into one batch: 415 MiB for these
/// (830 for 400). Now a batch also ends at 8 MiB of rows (`TableSpec::batch_bytes`), and the
/// Parquet row groups at 64 MiB: 35 to 105 MiB, whatever the count of rows (under 160 here).
#[test]
fn rows_of_a_mebibyte_export_in_bounded_memory() {
    if !have_time() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let big = "x".repeat(1 << 20);
    let sgf = format!("(;GM[1]FF[4]SZ[19]PB[{big}];B[aa])\n").repeat(200);
    let pgn = format!("[Event \"x\"]\n\n1. e4 {{{big}}} e5 1-0\n\n").repeat(200);
    for (name, text) in [("big.sgf.zst", sgf), ("big.pgn.zst", pgn)] {
        let packed = zstd::encode_all(text.as_bytes(), 3).unwrap();
        fs::write(dir.path().join(name), packed).unwrap();
    }
    for (input, table, out, threads) in [
        ("big.sgf.zst", "games", "t.parquet", "1"),
        ("big.sgf.zst", "games", "t.parquet", "2"),
        ("big.sgf.zst", "games", "t.csv", "1"),
        ("big.sgf.zst", "json", "t.jsonl", "1"),
        ("big.pgn.zst", "games", "g.parquet", "1"),
    ] {
        let args = [
            "export", "-j", threads, "--table", table, input, "-o", out, "--force",
        ];
        let kib = peak(&args, dir.path(), Stdin::None);
        assert!(kib < 160 << 10, "kifu {args:?}: {kib} KiB");
    }
    // every row written
    let out = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(["export", "big.sgf.zst", "-o", "all.csv", "--force"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success());
    let csv = fs::read(dir.path().join("all.csv")).unwrap();
    assert_eq!(csv.iter().filter(|&&b| b == b'\n').count(), 201);
}

/// One game of 16 MiB of moves, with no place to cut: the pieces after the first are cut
/// anyway, where no game starts. They were read ahead on the other threads as if a game
/// started there, each building a DOM of its moves (about 25 times its bytes) that the reading
/// before it then dropped: with pieces of 256 KiB, `-j2` peaked 60 to 80 MiB above `-j1`
/// (`kifu json -j2` 184–267 MiB on such a game of 200 MB, with the default pieces). Now such a
/// piece is left to the reading before it, and `-j2` stays within 12 MiB of `-j1`.
#[test]
fn a_huge_game_is_not_read_ahead_at_every_cut() {
    if !have_time() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut game = b"[Event \"huge\"]\n[Result \"*\"]\n\n".to_vec();
    let moves = b"1. Nf3 Nf6 2. Ng1 Ng8 ".repeat(1000);
    while game.len() < 16 << 20 {
        game.extend_from_slice(&moves);
    }
    game.extend_from_slice(b"*\n");
    fs::write(dir.path().join("huge.pgn"), &game).unwrap();
    let commands: &[&[&str]] = &[
        &["json"],
        &["fmt"],
        &["check"],
        &["filter", "-w", "Result=*"],
        &["export", "-o", "huge.parquet", "--force"],
    ];
    let mut grown = Vec::new();
    for command in commands {
        let run = |threads: &str| {
            let mut args: Vec<&str> = command.to_vec();
            // pieces of 256 KiB: a piece cut without a game start holds 512 KiB of moves
            args.extend(["-j", threads, "--piece-size", "256K", "huge.pgn"]);
            peak(&args, dir.path(), Stdin::None)
        };
        let (one, two) = (run("1"), run("2"));
        let line = format!("kifu {}: -j1 {one} KiB, -j2 {two} KiB\n", command.join(" "));
        print!("{line}");
        if two > one + (12 << 10) {
            grown.push(line);
        }
    }
    assert!(
        grown.is_empty(),
        "-j2 read ahead what -j1 does not:\n{}",
        grown.concat()
    );
}
