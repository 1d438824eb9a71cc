//! The archive-scale features as a user meets them: every core gives the one-thread output,
//! byte for byte (a property over random piece sizes and thread counts, for every command);
//! compressed and bundled inputs read as their plain files (made here with the crates
//! themselves); a cut-short input is named, exits 2, and keeps what was read; `check --json`;
//! `filter`, `split` and `dedup`; files written safely.

use std::ffi::OsString;
use std::io::Write;
use std::path::Path;
use std::process::Output;

mod common;
use common::{Files, kifu, text};

use proptest::prelude::*;

// ----- inputs --------------------------------------------------------------------------------

/// A small deterministic generator (xorshift64), for inputs made at test time.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[self.below(from.len())]
    }
}

const SANS: &[&str] = &[
    "e4", "e5", "d4", "d5", "Nf3", "Nc6", "Bb5", "a6", "c4", "c5", "Nc3", "Nf6", "g3", "g6", "Bg2",
    "Bg7", "O-O", "O-O-O", "exd5", "Nxe4", "Qd2", "Rad1", "Re1+", "Bxf7+", "Qxf7#", "h4", "b5",
    "a8=Q", "exd6", "Kh1", "f4", "Rxe8", "Nbd7", "R1e2", "Qh5!?", "Bxh7+?!",
];
const WORDS: &[&str] = &[
    "good",
    "bad",
    "a",
    "novelty",
    "the",
    "idea",
    "is",
    "to",
    "win",
    "time",
    "better",
    "was",
    "Nd4",
    "[%clk 0:01:02]",
    "(",
    ";",
];
const NAMES: &[&str] = &[
    "Carlsen, Magnus",
    "Tal, Mikhail",
    "Polgar, Judit",
    "Anand, Viswanathan",
    "Hou, Yifan",
    "Other",
];
const RESULTS: &[&str] = &["1-0", "0-1", "1/2-1/2", "*"];

/// The movetext of a generated game: moves (not checked for legality), numbers, comments, NAGs,
/// variations two deep, line breaks, and now and then a token that is no move.
fn movetext(r: &mut Rng) -> String {
    let mut s = String::new();
    let mut depth = 0;
    for ply in 0..r.below(90) {
        if ply % 2 == 0 {
            s += &format!("{}. ", ply / 2 + 1);
        }
        s += r.pick(SANS);
        s += " ";
        match r.below(40) {
            0..=2 => {
                s += "{";
                for _ in 0..=r.below(12) {
                    s += r.pick(WORDS);
                    s += " ";
                }
                s += "} ";
            }
            3 => s += &format!("${} ", 1 + r.below(20)),
            4 if depth < 2 => {
                s += "( ";
                depth += 1;
            }
            5 if depth > 0 => {
                s += ") ";
                depth -= 1;
            }
            6 => s += "\n",
            7 => s += "; a comment to the end of the line\n",
            8 if r.below(3) == 0 => s += "oh? ",
            _ => {}
        }
    }
    s + &") ".repeat(depth)
}

/// `n` generated PGN games: varied tags, dates, Elo and results; every tenth game repeats the
/// moves of the fifth before it under other tags (for `dedup`).
fn generated_pgn(n: usize) -> Vec<u8> {
    let mut r = Rng(0x9e37_79b9_7f4a_7c15);
    let mut out = String::new();
    let mut movetexts: Vec<String> = Vec::new();
    for i in 0..n {
        let result = r.pick(RESULTS);
        out += &format!(
            "[Event \"Generated {}\"]\n[Site \"?\"]\n[Date \"{}.{:02}.{:02}\"]\n[Round \"{i}\"]\n\
             [White \"{}\"]\n[Black \"{}\"]\n[Result \"{result}\"]\n",
            i % 13,
            1950 + r.below(75),
            1 + r.below(12),
            1 + r.below(28),
            r.pick(NAMES),
            r.pick(NAMES),
        );
        if r.below(3) == 0 {
            out += &format!("[WhiteElo \"{}\"]\n", 2000 + r.below(900));
        }
        out += "\n";
        let moves = if i % 10 == 9 {
            movetexts[i - 5].clone()
        } else {
            movetext(&mut r)
        };
        out += &moves;
        out += result;
        out += "\n\n";
        movetexts.push(moves);
    }
    out.into_bytes()
}

/// `n` generated SGF game trees: root properties, moves, variations, comments, setup, labels,
/// and now and then a property kifu warns about.
fn generated_sgf(n: usize) -> Vec<u8> {
    let mut r = Rng(0x2545_f491_4f6c_dd1d);
    let coord = |r: &mut Rng| {
        let c = b"abcdefghijklmnopqrs";
        format!("{}{}", c[r.below(19)] as char, c[r.below(19)] as char)
    };
    let mut out = String::new();
    for i in 0..n {
        out += &format!(
            "(;GM[1]FF[4]SZ[19]PB[{}]PW[{}]KM[6.5]RE[{}]DT[{}-{:02}-{:02}]GN[tree {i}]",
            r.pick(NAMES),
            r.pick(NAMES),
            r.pick(&["B+R", "W+3.5", "0", "?"]),
            1950 + r.below(75),
            1 + r.below(12),
            1 + r.below(28),
        );
        if r.below(4) == 0 {
            out += &format!("AB[{}][{}]", coord(&mut r), coord(&mut r));
        }
        let mut open = 0;
        for ply in 0..r.below(120) {
            let color = if ply % 2 == 0 { "B" } else { "W" };
            match r.below(30) {
                0 if open < 3 => {
                    out += "(";
                    open += 1;
                }
                1 if open > 0 => {
                    out += ")(";
                }
                _ => {}
            }
            out += &format!(";{color}[{}]", coord(&mut r));
            match r.below(25) {
                0 => out += "C[a comment with a \\] and a \\\\ in it]",
                1 => out += &format!("LB[{}:A]", coord(&mut r)),
                2 => out += "XX[an unknown property]",
                3 => out += "BM[1]",
                _ => {}
            }
        }
        out += &")".repeat(open);
        out += ")\n";
    }
    out.into_bytes()
}

/// PGN text for the tests: junk before any game, the seed game, `games` generated games, an
/// unclosed comment, a last game and trailing junk.
fn pgn_sample_of(games: usize) -> Vec<u8> {
    with_junk(
        &[
            kifu_testkit::data_file("seed-kasparov-kramnik-2001.pgn"),
            generated_pgn(games),
        ]
        .concat(),
    )
}

fn pgn_sample() -> Vec<u8> {
    pgn_sample_of(400)
}

/// Junk before the first game, between games and at the end.
fn with_junk(games: &[u8]) -> Vec<u8> {
    let mut out = b"junk before any game\n\n".to_vec();
    out.extend_from_slice(games);
    out.extend_from_slice(b"\n{unclosed comment\n\n[Event \"last\"]\n1. e4 *\n trailing junk");
    out
}

/// SGF text for the tests: the seed game tree and generated ones.
fn sgf_sample() -> Vec<u8> {
    [
        kifu_testkit::data_file("seed-takemiya-cho-meijin-1996.sgf"),
        generated_sgf(150),
    ]
    .concat()
}

/// PGN text from ../shared: the seed game and a few corpus files (a dense one, an engine one
/// with long comments, one with variations and errors).
fn pgn_corpus_sample() -> Vec<u8> {
    let shared = kifu_testkit::shared();
    let mut all = kifu_testkit::data_file("seed-kasparov-kramnik-2001.pgn");
    for rel in [
        "corpus/pgn/large/notnil-chess-history/twic0920.pgn",
        "corpus/pgn/small/pgn-extract/infiles/nested-comment.pgn",
        "corpus/pgn/small/chess.js/benchmarks/benchmark.pgn",
        "corpus/pgn/small/pychess/testing/gamefiles/world_matches.pgn",
    ] {
        let b = std::fs::read(shared.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
        // a prefix: the binary under test is unoptimized
        all.extend_from_slice(b"\n");
        all.extend_from_slice(&b[..b.len().min(100_000)]);
    }
    with_junk(&all)
}

/// SGF text from ../shared: the seed and six of SGFC's test files.
fn sgf_corpus_sample() -> Vec<u8> {
    let mut all = kifu_testkit::data_file("seed-takemiya-cho-meijin-1996.sgf");
    let files =
        kifu_testkit::files_with_ext(&kifu_testkit::shared().join("corpus/sgf/small/sgfc"), "sgf");
    assert!(files.len() >= 6, "SGFC's test files: {files:?}");
    for p in files.iter().take(6) {
        all.extend_from_slice(b"\n");
        all.extend_from_slice(&std::fs::read(p).unwrap());
    }
    all
}

/// The commands whose output must not depend on threads and pieces.
fn commands() -> Vec<Vec<&'static str>> {
    vec![
        vec!["check"],
        vec!["check", "--json"],
        vec!["json"],
        vec!["fmt"],
        vec!["filter", "--where", "Result=1-0"],
        vec!["filter", "--has", "comments", "--to", "jsonl"],
        vec!["dedup", "-q"],
        vec!["dedup", "--list", "-q"],
    ]
}

fn run_with(cmd: &[&str], file: &Path, threads: usize, piece: usize) -> Output {
    let mut args: Vec<OsString> = cmd.iter().map(OsString::from).collect();
    args.push(file.into());
    args.extend(["-q", "-j"].map(OsString::from));
    args.push(threads.to_string().into());
    args.push("--piece-size".into());
    args.push(piece.to_string().into());
    kifu(&args, None)
}

/// `cmd` on `file` with `threads` and `piece` gives what it gives with one thread.
fn one_thread_output(
    cmd: &[&str],
    file: &Path,
    threads: usize,
    piece: usize,
) -> Result<(), TestCaseError> {
    let one = run_with(cmd, file, 1, 1 << 30);
    let many = run_with(cmd, file, threads, piece);
    prop_assert_eq!(one.status.code(), many.status.code(), "{:?}", cmd);
    prop_assert!(
        one.stdout == many.stdout,
        "{:?} on {}: stdout differs with -j{} --piece-size {}",
        cmd,
        file.display(),
        threads,
        piece
    );
    prop_assert_eq!(text(&one.stderr), text(&many.stderr), "{:?}", cmd);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8))]

    /// A random command, piece size and thread count against the one-thread output.
    #[test]
    fn every_core_gives_the_one_thread_output(piece in 200usize..40_000, threads in 2usize..5,
                                              cmd in 0usize..8, sgf in proptest::bool::ANY) {
        let tmp = tempfile::tempdir().unwrap();
        let file = if sgf { tmp.file("trees.sgf", &sgf_sample()) } else { tmp.file("games.pgn", &pgn_sample()) };
        one_thread_output(&commands()[cmd], &file, threads, piece)?;
    }

    /// The same on samples of ../shared.
    #[test]
    #[cfg_attr(not(kifu_shared), ignore = "needs ../shared (the corpus)")]
    fn every_core_gives_the_one_thread_output_on_the_corpus(piece in 200usize..40_000,
                                                            threads in 2usize..5, cmd in 0usize..8,
                                                            sgf in proptest::bool::ANY) {
        let tmp = tempfile::tempdir().unwrap();
        let file = if sgf {
            tmp.file("trees.sgf", &sgf_corpus_sample())
        } else {
            tmp.file("games.pgn", &pgn_corpus_sample())
        };
        one_thread_output(&commands()[cmd], &file, threads, piece)?;
    }
}

fn every_command_gives_the_one_thread_output_on(pgn: &[u8], sgf: &[u8]) {
    let tmp = tempfile::tempdir().unwrap();
    let pgn = tmp.file("games.pgn", pgn);
    let sgf = tmp.file("trees.sgf", sgf);
    for file in [&pgn, &sgf] {
        for cmd in commands() {
            one_thread_output(&cmd, file, 2, 5000).unwrap();
        }
    }
}

#[test]
fn every_command_gives_the_one_thread_output() {
    every_command_gives_the_one_thread_output_on(&pgn_sample(), &sgf_sample());
}

#[test]
#[cfg_attr(not(kifu_shared), ignore = "needs ../shared (the corpus)")]
fn every_command_gives_the_one_thread_output_on_the_corpus() {
    every_command_gives_the_one_thread_output_on(&pgn_corpus_sample(), &sgf_corpus_sample());
}

#[test]
fn stats_agree_whatever_the_threads() {
    let tmp = tempfile::tempdir().unwrap();
    let pgn = tmp.file("games.pgn", &pgn_sample());
    let counts = |threads: usize, piece: usize| {
        let o = run_with(&["stats", "--json"], &pgn, threads, piece);
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let mut v = v.as_object().unwrap().clone();
        v.remove("seconds");
        v.remove("mb_per_s");
        v
    };
    let one = counts(1, 1 << 30);
    // the generated games hold comments, NAGs, variations and problems
    assert!(one["games"].as_u64().unwrap() > 400, "{one:?}");
    for k in ["comments", "nags", "variations", "errors"] {
        assert!(one[k].as_u64().unwrap() > 10, "{k}: {one:?}");
    }
    assert_eq!(counts(3, 3000), one);
}

// ----- compressed and bundled input --------------------------------------------------------------

fn zstd_of(b: &[u8]) -> Vec<u8> {
    zstd::encode_all(b, 3).unwrap()
}

/// What `pzstd` writes: each independent frame after a skippable frame holding its size.
fn pzstd_of(b: &[u8], frame: usize) -> Vec<u8> {
    let mut out = Vec::new();
    for part in b.chunks(frame) {
        let f = zstd::encode_all(part, 3).unwrap();
        out.extend_from_slice(&[0x50, 0x2a, 0x4d, 0x18, 4, 0, 0, 0]);
        out.extend_from_slice(&(f.len() as u32).to_le_bytes());
        out.extend_from_slice(&f);
    }
    out
}

fn gzip_of(b: &[u8]) -> Vec<u8> {
    // two members, as `cat a.gz b.gz` makes
    let mut out = Vec::new();
    let (x, y) = b.split_at(b.len() / 2);
    for part in [x, y] {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(part).unwrap();
        out.extend(e.finish().unwrap());
    }
    out
}

fn bzip2_of(b: &[u8]) -> Vec<u8> {
    let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
    e.write_all(b).unwrap();
    e.finish().unwrap()
}

fn xz_of(b: &[u8]) -> Vec<u8> {
    let mut e = liblzma::write::XzEncoder::new(Vec::new(), 1);
    e.write_all(b).unwrap();
    e.finish().unwrap()
}

fn tar_of(members: &[(&str, &[u8])]) -> Vec<u8> {
    let mut t = tar::Builder::new(Vec::new());
    for (name, data) in members {
        let mut h = tar::Header::new_gnu();
        h.set_size(data.len() as u64);
        h.set_mode(0o644);
        h.set_cksum();
        t.append_data(&mut h, name, *data).unwrap();
    }
    t.into_inner().unwrap()
}

fn zip_of(members: &[(&str, &[u8])]) -> Vec<u8> {
    let mut z = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default();
    for (name, data) in members {
        z.start_file(*name, opts).unwrap();
        z.write_all(data).unwrap();
    }
    z.finish().unwrap().into_inner()
}

/// `kifu json` on a plain file, with its name swapped for `name`.
fn json_named(plain: &Path, name: &str, threads: usize) -> String {
    let o = kifu(
        &[
            OsString::from("json"),
            plain.into(),
            "-q".into(),
            "-j".into(),
            threads.to_string().into(),
        ],
        None,
    );
    let from = serde_json::to_string(&plain.display().to_string()).unwrap();
    let to = serde_json::to_string(name).unwrap();
    text(&o.stdout).replace(&format!("\"file\":{from}"), &format!("\"file\":{to}"))
}

#[test]
fn compressed_input_reads_as_the_plain_file() {
    let tmp = tempfile::tempdir().unwrap();
    let data = pgn_sample();
    let plain = tmp.file("plain.pgn", &data);
    let variants: Vec<(&str, Vec<u8>)> = vec![
        ("g.pgn.zst", zstd_of(&data)),
        ("g.pgn.pzst", pzstd_of(&data, 7000)),
        ("g.pgn.gz", gzip_of(&data)),
        ("g.pgn.bz2", bzip2_of(&data)),
        ("g.pgn.xz", xz_of(&data)),
        // compression is told from the bytes, whatever the name
        ("g.pgn", zstd_of(&data)),
    ];
    for (name, bytes) in variants {
        let p = tmp.file(name, &bytes);
        for threads in [1, 2] {
            let want = json_named(&plain, &p.display().to_string(), threads);
            let o = kifu(
                &[
                    OsString::from("json"),
                    p.clone().into(),
                    "-q".into(),
                    "-j".into(),
                    threads.to_string().into(),
                ],
                None,
            );
            assert_eq!(o.status.code(), Some(0), "{name}: {}", text(&o.stderr));
            assert!(
                text(&o.stdout) == want,
                "{name} -j{threads}: not the plain file's JSON"
            );
        }
    }
}

#[test]
fn archives_read_as_their_members() {
    let tmp = tempfile::tempdir().unwrap();
    let pgn = pgn_sample();
    let sgf = sgf_sample();
    let members: Vec<(&str, &[u8])> = vec![
        ("games/a.pgn", &pgn),
        ("readme.txt", b"not a game"),
        ("games/b.sgf", &sgf),
    ];
    let plain_a = tmp.file("plain/a.pgn", &pgn);
    let plain_b = tmp.file("plain/b.sgf", &sgf);
    let tar = tar_of(&members);
    for (name, bytes) in [
        ("bundle.tar", tar.clone()),
        ("bundle.tar.gz", gzip_of(&tar)),
        ("bundle.tar.zst", zstd_of(&tar)),
        ("bundle.tar.bz2", bzip2_of(&tar)),
        ("bundle.tar.xz", xz_of(&tar)),
        ("bundle.zip", zip_of(&members)),
    ] {
        let p = tmp.file(&format!("arch/{name}"), &bytes);
        let arch = p.display().to_string();
        let want = json_named(&plain_a, &format!("{arch}:games/a.pgn"), 1)
            + &json_named(&plain_b, &format!("{arch}:games/b.sgf"), 1);
        for threads in [1, 2] {
            let o = kifu(
                &[
                    OsString::from("json"),
                    p.clone().into(),
                    "-q".into(),
                    "-j".into(),
                    threads.to_string().into(),
                ],
                None,
            );
            assert_eq!(o.status.code(), Some(0), "{name}: {}", text(&o.stderr));
            assert!(
                text(&o.stdout) == want,
                "{name} -j{threads}: not the members' JSON"
            );
        }
        // check names the member
        let o = kifu(&[OsString::from("check"), p.clone().into()], None);
        assert!(
            text(&o.stdout).contains(&format!("{arch}:games/a.pgn:")),
            "{name}"
        );
    }
    // a directory walks into the archives it holds
    let o = kifu(
        &[
            OsString::from("stats"),
            "--json".into(),
            tmp.path().join("arch").into(),
            "-q".into(),
        ],
        None,
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let one = kifu(
        &[
            OsString::from("stats"),
            "--json".into(),
            plain_a.into(),
            plain_b.into(),
            "-q".into(),
        ],
        None,
    );
    let w: serde_json::Value = serde_json::from_slice(&one.stdout).unwrap();
    assert_eq!(
        v["games"].as_u64().unwrap(),
        6 * w["games"].as_u64().unwrap()
    );
}

#[test]
fn a_cut_short_input_is_named_keeps_its_games_and_exits_2() {
    let tmp = tempfile::tempdir().unwrap();
    // large enough for the cut to fall after the first zstd blocks (128 KiB of text each)
    let data = pgn_sample_of(1500);
    assert!(data.len() > 500_000, "{} bytes", data.len());
    let z = zstd_of(&data);
    let cut = tmp.file("cut.pgn.zst", &z[..z.len() * 2 / 3]);
    let good = tmp.file("good.pgn", b"[Event \"x\"]\n\n1. e4 *\n");
    let misnamed = tmp.file("plain.pgn.gz", b"1. d4 *\n");
    for threads in [1, 2] {
        let o = kifu(
            &[
                OsString::from("stats"),
                "--json".into(),
                cut.clone().into(),
                misnamed.clone().into(),
                good.clone().into(),
                "-j".into(),
                threads.to_string().into(),
                "-q".into(),
            ],
            None,
        );
        assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
        let err = text(&o.stderr);
        assert!(err.contains("cut.pgn.zst"), "{err}");
        assert!(err.contains("plain.pgn.gz"), "{err}");
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        // the games before the cut, and the good file's
        let games = v["games"].as_u64().unwrap();
        assert!(games > 10 && games < 1500, "{v}");
    }
    let missing = kifu(&["stats", "/no/such/file.pgn", "-q"], None);
    assert_eq!(missing.status.code(), Some(2));
    assert!(text(&missing.stderr).contains("/no/such/file.pgn"));
}

// ----- check --json, filter, split, dedup ---------------------------------------------------------

#[test]
fn check_json_is_one_object_per_problem_and_a_summary() {
    let seed = kifu_testkit::data_path("seed-kasparov-kramnik-2001.pgn");
    let o = kifu(
        &[OsString::from("check"), "--json".into(), seed.into()],
        None,
    );
    assert_eq!(o.status.code(), Some(1));
    let lines: Vec<serde_json::Value> = text(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[0]["kind"], "stray_brace");
    assert_eq!(
        (lines[0]["line"].as_u64(), lines[0]["move"].as_str()),
        (Some(20), Some("14b"))
    );
    let summary = &lines[3];
    assert_eq!(summary["type"], "summary");
    assert_eq!(
        (summary["games"].as_u64(), summary["problems"].as_u64()),
        (Some(1), Some(3))
    );
    // a clean input: exit 0 (an empty stdin is no game at all: exit 1)
    let tmp = tempfile::tempdir().unwrap();
    let clean = tmp.file("clean.pgn", b"[Event \"x\"]\n\n1. e4 e5 *\n");
    let o = kifu(
        &[OsString::from("check"), "--json".into(), clean.into()],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let empty = kifu(&["check", "--json", "-"], None);
    assert_eq!(empty.status.code(), Some(1), "{}", text(&empty.stderr));
}

/// Every problem has a `kind`, a word; SGF's keep SGFC's `code` right after it, PGN's have
/// none: the keys and order of `kifu json`'s errors.
#[test]
fn check_json_kind_is_a_word_and_sgf_keeps_its_code() {
    let tmp = tempfile::tempdir().unwrap();
    let sgf = tmp.file("g.sgf", b"(;SZ[9];B[zz])");
    let pgn = tmp.file("g.pgn", b"1. e4 oh? e5 *\n");
    let o = kifu(
        &[
            OsString::from("check"),
            "--json".into(),
            sgf.into(),
            pgn.into(),
        ],
        None,
    );
    let out = text(&o.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].contains(r#""severity":"error","kind":"illegal_point","code":"E14","message":"#),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].contains(r#""kind":"unexpected_text","message":"#)
            && !lines[1].contains(r#""code""#),
        "{}",
        lines[1]
    );
    let json = kifu(
        &[OsString::from("json"), tmp.path().join("g.sgf").into()],
        None,
    );
    assert!(
        text(&json.stdout)
            .contains(r#""errors":[{"kind":"illegal_point","code":"E14","severity":"error","#),
        "{}",
        text(&json.stdout)
    );
}

const GAMES: &str = "[Event \"A\"]\n[White \"Carlsen, Magnus\"]\n[WhiteElo \"2850\"]\n[Date \"2021.05.01\"]\n[Result \"1-0\"]\n\n1. e4 {good} e5 2. Nf3 1-0\n\n\
[Event \"B\"]\n[White \"Tal\"]\n[WhiteElo \"2700\"]\n[Date \"1960.??.??\"]\n[Result \"0-1\"]\n\n1. d4 (1. e4) d5 2. c4 0-1\n\n\
[Event \"A\"]\n[White \"Other\"]\n[WhiteElo \"?\"]\n[Date \"2022.01.02\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3+ 1-0\n";

#[test]
fn filter_keeps_what_passes_every_test() {
    let tmp = tempfile::tempdir().unwrap();
    let f = tmp.file("g.pgn", GAMES.as_bytes());
    let run = |args: &[&str]| {
        let mut a: Vec<OsString> = vec!["filter".into(), f.clone().into()];
        a.extend(args.iter().map(OsString::from));
        kifu(&a, None)
    };
    let events = |o: &Output| -> Vec<String> {
        text(&o.stdout)
            .lines()
            .filter(|l| l.starts_with("[Event "))
            .map(str::to_string)
            .collect()
    };
    let o = run(&["-w", "WhiteElo>=2800"]);
    assert_eq!(events(&o), ["[Event \"A\"]"]);
    assert_eq!(run(&["-w", "Date>=2021", "-c"]).stdout, b"2\n");
    assert_eq!(run(&["-w", "White~carlsen", "-v", "-c"]).stdout, b"2\n");
    assert_eq!(run(&["--has", "variations", "-c"]).stdout, b"1\n");
    assert_eq!(
        run(&["--lacks", "comments", "--min-plies", "3", "-c"]).stdout,
        b"2\n"
    );
    let none = run(&["-w", "Event=Z"]);
    assert_eq!(none.status.code(), Some(1), "no game kept: 1, as grep");
    let json = run(&["-w", "Result=0-1", "--to", "jsonl"]);
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(
        (v["index"].as_u64(), v["tags"][0][1].as_str()),
        (Some(1), Some("B"))
    );
    let bad = run(&["-w", "WhiteElo"]);
    assert_eq!(bad.status.code(), Some(2), "a usage error");
}

/// `--where` on the values derived from tags and properties: speeds and seconds from
/// `TimeControl`, ranks compared as ranks, the result of a Go game.
#[test]
fn filter_on_time_controls_ranks_and_results() {
    let tmp = tempfile::tempdir().unwrap();
    let pgn = tmp.file(
        "t.pgn",
        b"[Event \"blitz\"]\n[TimeControl \"180+2\"]\n\n1. e4 *\n\n\
          [Event \"bullet\"]\n[TimeControl \"60+0\"]\n\n1. d4 *\n\n\
          [Event \"classical\"]\n[TimeControl \"40/7200:20/3600:900+30\"]\n\n1. c4 *\n\n\
          [Event \"none\"]\n\n1. Nf3 *\n",
    );
    let sgf = tmp.file(
        "r.sgf",
        "(;GM[1]PB[a]BR[7d]WR[3k]RE[B+R];B[pd])(;GM[1]PB[b]BR[9p]WR[8d]RE[W+6.5];B[pd])\
         (;GM[1]PB[c]BR[5 dan]WR[P1段]RE[B+T];B[pd])(;GM[1]PB[d]BR[?]RE[?];B[pd])"
            .as_bytes(),
    );
    let run = |file: &std::path::Path, args: &[&str], tag: &str| -> Vec<String> {
        let mut a: Vec<OsString> = vec!["filter".into(), file.into()];
        a.extend(args.iter().map(OsString::from));
        let o = kifu(&a, None);
        assert!(
            matches!(o.status.code(), Some(0 | 1)),
            "{args:?}: {}",
            text(&o.stderr)
        );
        text(&o.stdout)
            .split(tag)
            .skip(1)
            .map(|rest| rest.split(['"', ']']).next().unwrap().to_string())
            .collect()
    };
    let events = |args: &[&str]| run(&pgn, args, "[Event \"");
    assert_eq!(events(&["-w", "speed=blitz"]), ["blitz"]);
    assert_eq!(events(&["-w", "speed<=blitz"]), ["blitz", "bullet"]);
    assert_eq!(events(&["-w", "speed=classical"]), ["classical"]);
    assert_eq!(events(&["-w", "tc_base>=180"]), ["blitz"]);
    assert_eq!(events(&["-w", "tc_increment>0"]), ["blitz"]);
    assert_eq!(
        events(&["-w", "speed!=blitz", "-w", "Event!=none"]),
        ["bullet", "classical"]
    );
    let players = |args: &[&str]| run(&sgf, args, "PB[");
    assert_eq!(players(&["-w", "BR>=7d"]), ["a", "b"]);
    assert_eq!(players(&["-w", "black_rank>=7"]), ["a", "b"]);
    assert_eq!(players(&["-w", "WR>=1d"]), ["b", "c"]);
    assert_eq!(players(&["-w", "white_rank<0"]), ["a"]);
    assert_eq!(players(&["-w", "BR=5d"]), ["c"]);
    assert_eq!(players(&["-w", "winner=B"]), ["a", "c"]);
    assert_eq!(players(&["-w", "win_by=time"]), ["c"]);
    assert_eq!(players(&["-w", "margin>=6"]), ["b"]);
    let o = kifu(
        &[
            OsString::from("filter"),
            sgf.into(),
            "-w".into(),
            "BR>=7d".into(),
            "-c".into(),
        ],
        None,
    );
    assert_eq!(o.stdout, b"2\n");
}

/// `--where` on the opening named from the moves, whatever the tags say.
#[test]
fn filter_on_openings_named_from_the_moves() {
    let tmp = tempfile::tempdir().unwrap();
    let pgn = tmp.file(
        "o.pgn",
        b"[Event \"najdorf\"]\n[ECO \"A00\"]\n\n1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 *\n\n\
          [Event \"transposed\"]\n\n1. e4 c5 2. Nc3 d6 3. Nf3 Nf6 4. d4 cxd4 5. Nxd4 a6 *\n\n\
          [Event \"dragon\"]\n\n1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 g6 *\n\n\
          [Event \"none\"]\n\n*\n",
    );
    let events = |args: &[&str]| -> Vec<String> {
        let mut a: Vec<OsString> = vec!["filter".into(), pgn.clone().into()];
        a.extend(args.iter().map(OsString::from));
        let o = kifu(&a, None);
        assert!(
            matches!(o.status.code(), Some(0 | 1)),
            "{args:?}: {}",
            text(&o.stderr)
        );
        text(&o.stdout)
            .split("[Event \"")
            .skip(1)
            .map(|rest| rest.split('"').next().unwrap().to_string())
            .collect()
    };
    assert_eq!(
        events(&["-w", "opening_eco=B90"]),
        ["najdorf", "transposed"]
    );
    assert_eq!(
        events(&["-w", "opening_name~Sicilian Defense: Najdorf"]),
        ["najdorf", "transposed"]
    );
    assert_eq!(events(&["-w", "opening_name~dragon"]), ["dragon"]);
    assert_eq!(
        events(&["-w", "opening_ply>=10"]),
        ["najdorf", "transposed", "dragon"]
    );
    assert_eq!(events(&["-w", "opening_eco!=B90"]), ["dragon", "none"]);
}

/// `split --by` takes the keys of `stats --by`: files per opening named from the moves, per
/// speed, per month.
#[test]
fn split_by_opening_speed_and_month() {
    let tmp = tempfile::tempdir().unwrap();
    let f = tmp.file(
        "g.pgn",
        b"[TimeControl \"180+2\"]\n[UTCDate \"2024.01.31\"]\n[Date \"2024.02.01\"]\n\n1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 *\n\n\
          [TimeControl \"60\"]\n[Date \"2024.02.03\"]\n\n1. e4 c5 2. Nc3 d6 3. Nf3 Nf6 4. d4 cxd4 5. Nxd4 a6 *\n\n\
          [TimeControl \"-\"]\n\n1. d4 d5 2. c4 *\n",
    );
    let files = |by: &str| -> Vec<(String, usize)> {
        let out = tmp.path().join(format!("by-{by}"));
        let o = kifu(
            &[
                OsString::from("split"),
                f.clone().into(),
                "-o".into(),
                out.clone().into(),
                "--by".into(),
                by.into(),
                "-q".into(),
            ],
            None,
        );
        assert_eq!(o.status.code(), Some(0), "{by}: {}", text(&o.stderr));
        let mut v: Vec<(String, usize)> = std::fs::read_dir(&out)
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                let games = std::fs::read_to_string(e.path())
                    .unwrap()
                    .matches("\n1. ")
                    .count();
                (e.file_name().to_string_lossy().into_owned(), games)
            })
            .collect();
        v.sort();
        v
    };
    let v = |pairs: &[(&str, usize)]| -> Vec<(String, usize)> {
        pairs.iter().map(|(n, c)| (n.to_string(), *c)).collect()
    };
    assert_eq!(files("opening_eco"), v(&[("B90.pgn", 2), ("D06.pgn", 1)]));
    assert_eq!(
        files("speed"),
        v(&[
            ("blitz.pgn", 1),
            ("bullet.pgn", 1),
            ("correspondence.pgn", 1)
        ])
    );
    // UTCDate first, then Date: as the export's partitions and stats --by
    assert_eq!(
        files("month"),
        v(&[("2024-01.pgn", 1), ("2024-02.pgn", 1), ("unknown.pgn", 1)])
    );
}

#[test]
fn split_makes_files_of_n_games_or_per_value() {
    let tmp = tempfile::tempdir().unwrap();
    let f = tmp.file("g.pgn", GAMES.as_bytes());
    let out = tmp.path().join("out");
    let o = kifu(
        &[
            OsString::from("split"),
            f.clone().into(),
            "-o".into(),
            out.clone().into(),
            "--games".into(),
            "2".into(),
            "-q".into(),
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let p1 = std::fs::read_to_string(out.join("part-0001.pgn")).unwrap();
    let p2 = std::fs::read_to_string(out.join("part-0002.pgn")).unwrap();
    assert_eq!(
        (p1.matches("[Event ").count(), p2.matches("[Event ").count()),
        (2, 1)
    );
    // the files exist now: refused without --force, and nothing changed
    let again = kifu(
        &[
            OsString::from("split"),
            f.clone().into(),
            "-o".into(),
            out.clone().into(),
            "--games".into(),
            "2".into(),
            "-q".into(),
        ],
        None,
    );
    assert_eq!(again.status.code(), Some(2));
    assert!(text(&again.stderr).contains("--force"));
    assert_eq!(
        std::fs::read_to_string(out.join("part-0001.pgn")).unwrap(),
        p1
    );
    let by = tmp.path().join("by");
    let o = kifu(
        &[
            OsString::from("split"),
            f.clone().into(),
            "-o".into(),
            by.clone().into(),
            "--by".into(),
            "year".into(),
            "-q".into(),
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(0));
    let mut names: Vec<String> = std::fs::read_dir(&by)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["1960.pgn", "2021.pgn", "2022.pgn"]);
    let ev = tmp.path().join("ev");
    kifu(
        &[
            OsString::from("split"),
            f.into(),
            "-o".into(),
            ev.clone().into(),
            "--by".into(),
            "Event".into(),
            "--name".into(),
            "event-{value}.{ext}".into(),
        ],
        None,
    );
    assert_eq!(
        std::fs::read_to_string(ev.join("event-A.pgn"))
            .unwrap()
            .matches("[Event ")
            .count(),
        2
    );
}

#[test]
fn dedup_judges_by_the_moves() {
    let tmp = tempfile::tempdir().unwrap();
    // game C repeats A's moves with other tags and a check mark; B differs
    let f = tmp.file("g.pgn", GAMES.as_bytes());
    let o = kifu(&[OsString::from("dedup"), f.clone().into()], None);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(text(&o.stdout).matches("[Event ").count(), 2);
    assert!(
        text(&o.stderr).contains("3 games, 1 duplicates"),
        "{}",
        text(&o.stderr)
    );
    let list = kifu(
        &[
            OsString::from("dedup"),
            f.clone().into(),
            "--list".into(),
            "-q".into(),
        ],
        None,
    );
    let name = f.display().to_string();
    assert_eq!(
        text(&list.stdout),
        format!("{name}:3: duplicate of {name}:1\n")
    );
    // safe output: an input is refused even with --force
    let same = kifu(
        &[
            OsString::from("dedup"),
            f.clone().into(),
            "-o".into(),
            f.clone().into(),
            "--force".into(),
        ],
        None,
    );
    assert_eq!(same.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&f).unwrap(), GAMES);
    let out = tmp.path().join("unique.pgn");
    let o = kifu(
        &[
            OsString::from("dedup"),
            f.into(),
            "-o".into(),
            out.clone().into(),
            "-q".into(),
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        std::fs::read_to_string(out)
            .unwrap()
            .matches("[Event ")
            .count(),
        2
    );
}

// ----- replay on a board ------------------------------------------------------------------------

#[test]
fn replay_reaches_the_commands() {
    let tmp = tempfile::tempdir().unwrap();
    // the same game in SAN and in UCI, then one with an illegal move
    let f = tmp.file(
        "r.pgn",
        b"[Event \"san\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n[Event \"uci\"]\n\n1. e2e4 e7e5 2. g1f3 b8c6 *\n\n[Event \"bad\"]\n\n1. e4 e5 2. Ke3 *\n",
    );
    let run = |args: &[&str]| {
        let mut a: Vec<OsString> = args.iter().map(OsString::from).collect();
        a.push(f.clone().into());
        // `check -q` says nothing: its exit status answers
        if args[0] != "check" {
            a.push("-q".into());
        }
        kifu(&a, None)
    };
    let o = run(&["check", "--legal"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stdout).ends_with("illegal move: `Ke3` (game 3, move 2w)\n"),
        "{}",
        text(&o.stdout)
    );
    assert_eq!(
        run(&["check"]).status.code(),
        Some(0),
        "no problem for the parser alone"
    );

    let o = run(&["json", "--uci", "--fen"]);
    let games: Vec<serde_json::Value> = text(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(games[0]["moves"][2]["uci"], "g1f3");
    assert_eq!(games[1]["moves"][2]["fen"], games[0]["moves"][2]["fen"]);
    assert_eq!(games[2]["moves"][2]["uci"], serde_json::Value::Null);
    assert_eq!(games[2]["replay_errors"][0]["kind"], "illegal_move");

    let after_nf3 = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2";
    assert_eq!(
        run(&["filter", "--reaches", after_nf3, "-c"]).stdout,
        b"2\n"
    );

    let by_moves = run(&["dedup", "--list"]);
    assert_eq!(
        text(&by_moves.stdout),
        "",
        "written differently: not the same moves"
    );
    let by_positions = run(&["dedup", "--list", "--by", "positions"]);
    let name = f.display().to_string();
    assert_eq!(
        text(&by_positions.stdout),
        format!("{name}:2: duplicate of {name}:1\n")
    );

    let csv = tmp.path().join("moves.csv");
    let o = kifu(
        &[
            OsString::from("export"),
            f.clone().into(),
            "--to".into(),
            "csv".into(),
            "--table".into(),
            "moves".into(),
            "--replay".into(),
            "-o".into(),
            csv.clone().into(),
            "-q".into(),
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let rows = std::fs::read_to_string(&csv).unwrap();
    let header: Vec<&str> = rows.lines().next().unwrap().split(',').collect();
    assert!(header.ends_with(&["uci", "fen", "key"]), "{header:?}");
    assert!(rows.contains(",g1f3,"));
}
