//! The `kifu` binary, run as a user would: the embedded sample, `stats --json`, `json`, `check`
//! and its exit status, buffer sizes, stdin, and directories.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Output;

mod common;
use common::{Files, kifu};

// ----- running the binary --------------------------------------------------------------------

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("stdout is UTF-8")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Asserts exit status 0 and returns stdout.
/// The output of a command that cut a game at `--max-game-bytes`: written, the game named on
/// stderr, exit status 1 (nothing lost in silence).
fn cut(o: &Output) -> String {
    assert_eq!(o.status.code(), Some(1), "stderr: {}", stderr(o));
    assert!(
        stderr(o).contains(": cut: larger than --max-game-bytes"),
        "{}",
        stderr(o)
    );
    stdout(o)
}

fn ok(o: &Output) -> String {
    assert_eq!(
        o.status.code(),
        Some(0),
        "kifu failed; stderr: {}",
        stderr(o)
    );
    stdout(o)
}

/// The seed fixture (the repository's own copy in `tests/data`, always there).
fn fixture() -> PathBuf {
    kifu_testkit::data_path("seed-kasparov-kramnik-2001.pgn")
}

/// A path as `kifu json` writes it in `"file"`.
fn json_name(p: &Path) -> String {
    json_string(&p.display().to_string())
}

fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

// ----- a minimal JSON reader (serde_json is no dev-dependency) -------------------------------

#[derive(Clone, Debug, PartialEq)]
enum Json {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

impl Json {
    fn parse(s: &str) -> Json {
        let mut p = JsonParser {
            b: s.as_bytes(),
            i: 0,
        };
        let v = p.value();
        p.ws();
        assert_eq!(
            p.i,
            p.b.len(),
            "trailing text after the JSON value in {s:?}"
        );
        v
    }

    fn get(&self, key: &str) -> &Json {
        match self {
            Json::Obj(fields) => {
                &fields
                    .iter()
                    .find(|(k, _)| k == key)
                    .unwrap_or_else(|| panic!("no key {key:?} in {self:?}"))
                    .1
            }
            _ => panic!("not an object: {self:?}"),
        }
    }

    fn keys(&self) -> Vec<&str> {
        match self {
            Json::Obj(fields) => fields.iter().map(|(k, _)| k.as_str()).collect(),
            _ => panic!("not an object: {self:?}"),
        }
    }

    fn arr(&self) -> &[Json] {
        match self {
            Json::Arr(a) => a,
            _ => panic!("not an array: {self:?}"),
        }
    }

    fn str(&self) -> &str {
        match self {
            Json::Str(s) => s,
            _ => panic!("not a string: {self:?}"),
        }
    }

    fn num(&self) -> f64 {
        match self {
            Json::Num(n) => *n,
            _ => panic!("not a number: {self:?}"),
        }
    }
}

struct JsonParser<'a> {
    b: &'a [u8],
    i: usize,
}

impl JsonParser<'_> {
    fn ws(&mut self) {
        while self.i < self.b.len() && matches!(self.b[self.i], b' ' | b'\t' | b'\n' | b'\r') {
            self.i += 1;
        }
    }

    fn eat(&mut self, c: u8) {
        self.ws();
        assert_eq!(
            self.b.get(self.i),
            Some(&c),
            "expected {:?} at byte {}",
            c as char,
            self.i
        );
        self.i += 1;
    }

    fn peek(&mut self) -> u8 {
        self.ws();
        *self.b.get(self.i).expect("JSON ends too early")
    }

    fn value(&mut self) -> Json {
        match self.peek() {
            b'{' => {
                self.i += 1;
                let mut fields = Vec::new();
                if self.peek() == b'}' {
                    self.i += 1;
                    return Json::Obj(fields);
                }
                loop {
                    let k = self.string();
                    self.eat(b':');
                    let v = self.value();
                    fields.push((k, v));
                    match self.peek() {
                        b',' => self.i += 1,
                        b'}' => {
                            self.i += 1;
                            return Json::Obj(fields);
                        }
                        c => panic!("unexpected {:?} in an object", c as char),
                    }
                }
            }
            b'[' => {
                self.i += 1;
                let mut items = Vec::new();
                if self.peek() == b']' {
                    self.i += 1;
                    return Json::Arr(items);
                }
                loop {
                    items.push(self.value());
                    match self.peek() {
                        b',' => self.i += 1,
                        b']' => {
                            self.i += 1;
                            return Json::Arr(items);
                        }
                        c => panic!("unexpected {:?} in an array", c as char),
                    }
                }
            }
            b'"' => Json::Str(self.string()),
            b't' => self.word("true", Json::Bool(true)),
            b'f' => self.word("false", Json::Bool(false)),
            b'n' => self.word("null", Json::Null),
            _ => {
                let start = self.i;
                while self.i < self.b.len()
                    && matches!(
                        self.b[self.i],
                        b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'
                    )
                {
                    self.i += 1;
                }
                let t = std::str::from_utf8(&self.b[start..self.i]).unwrap();
                Json::Num(t.parse().unwrap_or_else(|_| panic!("bad number {t:?}")))
            }
        }
    }

    fn word(&mut self, w: &str, v: Json) -> Json {
        assert!(self.b[self.i..].starts_with(w.as_bytes()), "bad literal");
        self.i += w.len();
        v
    }

    fn hex4(&mut self) -> u32 {
        let h = std::str::from_utf8(&self.b[self.i..self.i + 4]).unwrap();
        self.i += 4;
        u32::from_str_radix(h, 16).unwrap()
    }

    fn string(&mut self) -> String {
        self.eat(b'"');
        let mut out = Vec::new();
        loop {
            let c = self.b[self.i];
            self.i += 1;
            match c {
                b'"' => return String::from_utf8(out).expect("UTF-8 string"),
                b'\\' => {
                    let e = self.b[self.i];
                    self.i += 1;
                    let ch = match e {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let mut u = self.hex4();
                            if (0xD800..0xDC00).contains(&u) && self.b[self.i..].starts_with(b"\\u")
                            {
                                self.i += 2;
                                let lo = self.hex4();
                                u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
                            }
                            char::from_u32(u).unwrap_or('\u{fffd}')
                        }
                        _ => panic!("bad escape \\{}", e as char),
                    };
                    let mut buf = [0; 4];
                    out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                }
                c => out.push(c),
            }
        }
    }
}

#[test]
fn the_json_reader_reads_json() {
    let v =
        Json::parse(r#" {"a": [1, -2.5e1, true, null], "b\"\u00e9\ud83d\ude00": {"c": "x\ny"}} "#);
    assert_eq!(v.keys(), ["a", "b\"é😀"]);
    assert_eq!(v.get("a").arr()[1].num(), -25.0);
    assert_eq!(v.get("a").arr()[3], Json::Null);
    assert_eq!(v.get("b\"é😀").get("c").str(), "x\ny");
}

// ----- (a) the embedded sample ---------------------------------------------------------------

/// The number on the `games` line of `kifu stats`'s text output.
fn games_line(text: &str) -> u64 {
    let line = text
        .lines()
        .find(|l| l.split_whitespace().next() == Some("games"))
        .unwrap_or_else(|| panic!("no games line in {text:?}"));
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// `kifu` alone is the tour on the sample; a command reads the sample when asked (`--sample`)
/// or when stdin is a terminal (cli/tests/edges.rs), never from an empty stdin.
#[test]
fn stats_without_input_reads_the_sample() {
    let no_args: &[&str] = &[];
    for args in [&["stats", "--sample"][..], no_args] {
        let o = kifu(args, None);
        let out = ok(&o);
        let err = stderr(&o);
        assert!(
            err.contains("embedded sample"),
            "kifu {args:?}: stderr {err:?}"
        );
        assert_eq!(games_line(&out), 3, "kifu {args:?}: {out}");
    }
    // the same sample, as JSON
    let o = kifu(&["stats", "--json", "--sample"], None);
    let v = Json::parse(ok(&o).trim_end());
    assert_eq!(v.get("games").num(), 3.0);
    assert!(stderr(&o).contains("embedded sample"));
}

// ----- (b) stats --json ----------------------------------------------------------------------

const STATS_KEYS: [&str; 9] = [
    "games",
    "tags",
    "moves",
    "comments",
    "nags",
    "variations",
    "errors",
    "bytes",
    "seconds",
];

fn stats_json(file: &Path) -> Json {
    let o = kifu(
        &[OsStr::new("stats"), OsStr::new("--json"), file.as_os_str()],
        None,
    );
    let out = ok(&o);
    assert_eq!(out.lines().count(), 1, "one line expected: {out:?}");
    assert!(out.ends_with('\n'));
    let v = Json::parse(out.trim_end());
    let keys = v.keys();
    for k in STATS_KEYS {
        assert!(keys.contains(&k), "key {k:?} missing from {out}");
        assert!(
            matches!(v.get(k), Json::Num(n) if *n >= 0.0),
            "{k} in {out}"
        );
    }
    v
}

#[test]
fn stats_by_counts_per_value_the_same_at_every_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::new();
    for i in 0..3000 {
        let (date, result) = [
            ("2019.05.01", "1-0"),
            ("2020.01.02", "0-1"),
            ("????.??.??", "1/2-1/2"),
        ][i % 3];
        text.push_str(&format!(
            "[White \"p{}\"]\n[Date \"{date}\"]\n[Result \"{result}\"]\n\n1. e4 e5 2. Nf3 {result}\n\n",
            i % 50
        ));
    }
    let file = dir.file("many.pgn", text.as_bytes());
    let run = |args: &[&str]| {
        let mut all: Vec<&OsStr> = vec![OsStr::new("stats")];
        all.extend(args.iter().map(OsStr::new));
        all.push(file.as_os_str());
        kifu(&all, None)
    };
    // a table on stdout: the header, one row per year, the games without a date last
    let o = run(&["--by", "year", "--piece-size", "4K"]);
    let out = ok(&o);
    let rows: Vec<Vec<&str>> = out
        .lines()
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(rows[0][..3], ["year", "games", "mean"]);
    assert_eq!(rows[1][..4], ["2019", "1000", "3.0", "100.0%"]);
    assert_eq!(rows[2][..2], ["2020", "1000"]);
    assert_eq!(rows[3][..2], ["(none)", "1000"]);
    // JSON Lines, the same at -j1, -j2 and -j8, capped or not
    for extra in [&[][..], &["--max-groups", "7"][..]] {
        let lines = |j: &str| {
            let mut args = vec!["--by", "White", "--json", "--piece-size", "4K", "-j", j];
            args.extend_from_slice(extra);
            let o = run(&args);
            (ok(&o), stderr(&o))
        };
        let (one, note) = lines("1");
        for j in ["2", "8"] {
            assert_eq!(lines(j).0, one, "-j{j} {extra:?}");
        }
        let rows: Vec<Json> = one.lines().map(Json::parse).collect();
        let games: f64 = rows.iter().map(|r| r.get("games").num()).sum();
        assert_eq!(games, 3000.0, "no game lost");
        if extra.is_empty() {
            assert_eq!(rows.len(), 50);
            assert!(note.is_empty(), "{note}");
        } else {
            assert_eq!(rows.len(), 8, "7 values and the (other) row");
            assert!(matches!(rows[7].get("other"), Json::Bool(true)));
            assert!(note.contains("more than 7 distinct values"), "{note}");
        }
    }
    // a key that is no name
    let o = run(&["--by", "White Elo"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn json_openings_names_each_game_from_its_moves() {
    let pgn =
        b"[ECO \"A00\"]\n\n1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 *\n\n1. h4 *\n\n*\n";
    let o = kifu(&["json", "--openings"], Some(pgn));
    let lines: Vec<Json> = ok(&o).lines().map(Json::parse).collect();
    assert_eq!(lines.len(), 3);
    let najdorf = lines[0].get("opening");
    assert_eq!(najdorf.get("eco").str(), "B90");
    assert_eq!(
        najdorf.get("name").str(),
        "Sicilian Defense: Najdorf Variation"
    );
    assert_eq!(najdorf.get("ply").num(), 10.0);
    assert_eq!(
        lines[1].get("opening").get("eco").str(),
        "A00",
        "1. h4: Kadas Opening"
    );
    assert!(
        matches!(lines[2].get("opening"), Json::Null),
        "no move, no name"
    );
    // without the flag, no such key; with --uci too, both
    let plain = kifu(&["json"], Some(pgn));
    assert!(!ok(&plain).contains("\"opening\""));
    let both = kifu(&["json", "--openings", "--uci"], Some(pgn));
    let first = Json::parse(ok(&both).lines().next().unwrap());
    assert_eq!(first.get("opening").get("eco").str(), "B90");
    assert_eq!(first.get("moves").arr()[0].get("uci").str(), "e2e4");
}

#[test]
fn stats_json_has_every_count() {
    let dir = tempfile::tempdir().unwrap();
    let text = b"[Event \"x\"]\n[Site \"y\"]\n\n1. e4 e5 {good} 2. Nf3 $1 (2. f4 exf4) oh 1-0\n\n1. d4 *\n";
    let file = dir.file("two.pgn", text);
    let v = stats_json(&file);
    let n = |k: &str| v.get(k).num() as u64;
    assert_eq!(n("games"), 2);
    assert_eq!(n("tags"), 2);
    assert_eq!(n("moves"), 6); // e4 e5 Nf3 f4 exf4 d4
    assert_eq!(n("comments"), 1);
    assert_eq!(n("nags"), 1);
    assert_eq!(n("variations"), 1);
    assert_eq!(n("errors"), 1); // `oh`
    assert_eq!(n("bytes"), text.len() as u64);

    let seed = fixture();
    let v = stats_json(&seed);
    let n = |k: &str| v.get(k).num() as u64;
    assert_eq!(n("games"), 1);
    assert_eq!(n("tags"), 12);
    assert_eq!(n("variations"), 4);
    assert_eq!(n("errors"), 3);
    assert_eq!(n("bytes"), std::fs::metadata(&seed).unwrap().len());
}

// ----- (c) json on the seed fixture ----------------------------------------------------------

const SEED_MAIN_LINE: &str = "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Nxe4 d4 b5 Bb3 d5 dxe5 Be6 Be3 Bc5 \
     Qd3 O-O Nc3 Nb4 Qe2 Nxc3 bxc3 Bxe3 Qxe3 Nc6 a4 Na5 axb5 axb5 Nd4 Qe8 f4 c5 Nxe6";

#[test]
fn json_of_the_seed_game() {
    let seed = fixture();
    let out = ok(&kifu(&[OsStr::new("json"), seed.as_os_str()], None));
    assert_eq!(out.lines().count(), 1, "one game, one line: {out}");
    assert!(out.ends_with('\n'));
    let g = Json::parse(out.trim_end());
    assert_eq!(g.get("index").num(), 0.0);
    assert_eq!(g.get("file").str(), seed.display().to_string());
    assert_eq!(g.get("tags").arr().len(), 12);
    assert_eq!(g.get("result").str(), "1/2-1/2");
    let sans: Vec<&str> = g
        .get("moves")
        .arr()
        .iter()
        .map(|m| m.get("san").str())
        .collect();
    let expected: Vec<&str> = SEED_MAIN_LINE.split_whitespace().collect();
    assert_eq!(expected.len(), 37);
    assert_eq!(sans, expected);
    let errors = g.get("errors").arr();
    let at: Vec<&str> = errors.iter().map(|e| e.get("move").str()).collect();
    assert_eq!(at, ["14b", "15b", "19w"]);
    let texts: Vec<&str> = errors.iter().map(|e| e.get("text").str()).collect();
    assert_eq!(texts, ["comment}", "oh?", "the end"]);
    // the same facts by plain string matching, in case the reader above is too lenient
    for m in ["\"move\":\"14b\"", "\"move\":\"15b\"", "\"move\":\"19w\""] {
        assert_eq!(out.matches(m).count(), 1, "{m} in {out}");
    }
}

// ----- (d) check -----------------------------------------------------------------------------

/// 1-based (line, byte column) of byte offset `at` in `text`.
fn line_col(text: &[u8], at: usize) -> (usize, usize) {
    let line = 1 + text[..at].iter().filter(|&&b| b == b'\n').count();
    let start = text[..at]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    (line, at - start + 1)
}

fn find(hay: &[u8], needle: &[u8]) -> usize {
    hay.windows(needle.len())
        .position(|w| w == needle)
        .unwrap_or_else(|| panic!("{:?} not found", String::from_utf8_lossy(needle)))
}

#[test]
fn check_reports_each_problem_and_sets_the_exit_status() {
    let seed = fixture();
    let o = kifu(&[OsStr::new("check"), seed.as_os_str()], None);
    assert_eq!(o.status.code(), Some(1), "stderr: {}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    let text = std::fs::read(&seed).unwrap();
    let places = [
        (find(&text, b"} comment}") + 2, "14b"),
        (find(&text, b"oh?"), "15b"),
        (find(&text, b"the end"), "19w"),
    ];
    let name = seed.display().to_string();
    for (line, (at, mv)) in lines.iter().zip(places) {
        let (l, c) = line_col(&text, at);
        let prefix = format!("{name}:{l}:{c}: error: ");
        let suffix = format!(" (game 1, move {mv})");
        assert!(
            line.starts_with(&prefix) && line.ends_with(&suffix),
            "{line:?} is not {prefix:?}…{suffix:?}"
        );
    }

    let dir = tempfile::tempdir().unwrap();
    let clean = dir.file("clean.pgn", b"[Event \"x\"]\n\n1. e4 e5 1-0\n");
    let o = kifu(&[OsStr::new("check"), clean.as_os_str()], None);
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(&o));
    assert!(o.stdout.is_empty(), "{}", stdout(&o));
    assert!(o.stderr.is_empty(), "{}", stderr(&o));
}

// ----- (e) buffer sizes ----------------------------------------------------------------------

/// Small corpus files with comments, variations, odd tags, CRLF, BOM, Latin-1 and garbage.
const SMALL_CORPUS_PICKS: &[&str] = &[
    "chess-library/backslash_header.pgn",
    "chess-library/corrupted.pgn",
    "chess-library/comment_before_moves.pgn",
    "chess-library/empty_body.pgn",
    "chess-library/variations.pgn",
    "chess.js/__tests__/pgn/0.pgn",
    "pgn-extract/infiles/nested-comment.pgn",
    "pgn.net/examples/ReadPgnFile/Tarrasch.pgn",
    "pychess/testing/gamefiles/annotated.pgn",
    "pychess/testing/gamefiles/badpgn.pgn",
    "python-chess/utf8-bom.pgn",
];

/// `kifu json` with `--buffer-size 1` and `7` writes what it writes with the default buffer.
fn same_output_whatever_the_buffer(files: &[PathBuf]) {
    for f in files {
        let whole = ok(&kifu(&[OsStr::new("json"), f.as_os_str()], None));
        assert!(!whole.is_empty(), "{}: no output", f.display());
        for size in ["1", "7"] {
            let args = [
                OsStr::new("json"),
                OsStr::new("--buffer-size"),
                OsStr::new(size),
                f.as_os_str(),
            ];
            let small = ok(&kifu(&args, None));
            assert!(
                small == whole,
                "{}: --buffer-size {size} differs from the default",
                f.display()
            );
        }
    }
}

#[test]
#[cfg_attr(not(kifu_shared), ignore = "needs ../shared (the corpus)")]
fn buffer_size_one_gives_the_same_output_on_corpus_picks() {
    let small = kifu_testkit::shared()
        .join("corpus")
        .join("pgn")
        .join("small");
    let files: Vec<PathBuf> = SMALL_CORPUS_PICKS
        .iter()
        .map(|rel| small.join(rel))
        .collect();
    same_output_whatever_the_buffer(&files);
}

#[test]
fn buffer_size_one_gives_the_same_output() {
    let mut files = vec![fixture()];
    let dir = tempfile::tempdir().unwrap();
    files.push(dir.file(
        "mixed.pgn",
        b"\xef\xbb\xbf[Event \"A \\\"q\\\"\"]\r\n[White \"Caf\xe9\"]\r\n\r\n{pre} 1. e4 {long \
          comment}  e5 (1... c5 (1... e6) 2. Nf3) 2. Nf3!? $14 oh ; line\r\n% escape\r\n2... Nc6 1-0\r\n\r\n1. d4 (",
    ));
    same_output_whatever_the_buffer(&files);
}

// ----- (f) stdin -----------------------------------------------------------------------------

#[test]
fn stdin_dash_reads_the_same_as_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let mut files = vec![dir.file(
        "g.pgn",
        b"[Event \"x\"]\n\n1. e4 e5 {c} 2. Nf3 oh (2. f4) 1-0\n\n1. d4 d5 *\n",
    )];
    files.push(fixture());
    for f in &files {
        let bytes = std::fs::read(f).unwrap();
        let from_file = ok(&kifu(&[OsStr::new("json"), f.as_os_str()], None));
        let from_stdin = ok(&kifu(&["json", "-"], Some(&bytes)));
        let expected = from_file.replace(&format!("\"file\":{}", json_name(f)), "\"file\":\"-\"");
        assert_ne!(
            expected, from_file,
            "the file name was not found in the output"
        );
        assert_eq!(from_stdin, expected, "{}", f.display());
        // no file argument at all, input on stdin
        assert_eq!(ok(&kifu(&["json"], Some(&bytes))), expected);
        // stats and check agree too (counts, and problems named by `-`)
        let stats = |o: &Output| {
            let v = Json::parse(ok(o).trim_end());
            ["games", "tags", "moves", "errors", "bytes"].map(|k| v.get(k).num())
        };
        assert_eq!(
            stats(&kifu(&["stats", "--json", "-"], Some(&bytes))),
            stats(&kifu(
                &[OsStr::new("stats"), OsStr::new("--json"), f.as_os_str()],
                None
            ))
        );
        let check_file = kifu(&[OsStr::new("check"), f.as_os_str()], None);
        let check_stdin = kifu(&["check", "-"], Some(&bytes));
        assert_eq!(check_stdin.status.code(), check_file.status.code());
        assert_eq!(
            stdout(&check_stdin),
            stdout(&check_file).replace(&format!("{}:", f.display()), "-:")
        );
    }
}

// ----- (g) directories -----------------------------------------------------------------------

#[test]
fn a_directory_expands_to_its_pgn_files_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let b = dir.file("b.pgn", b"[Event \"b\"]\n\n1. e4 *\n");
    let a = dir.file(
        "a.pgn",
        b"[Event \"a\"]\n\n1. d4 *\n\n[Event \"a2\"]\n\n1. c4 *\n",
    );
    let c = dir.file("sub/c.PGN", b"1. Nf3 1-0\n");
    dir.file("notes.txt", b"[Event \"not read\"]\n\n1. f4 *\n");
    dir.file("sub/d.pgn.bak", b"[Event \"not read either\"]\n\n1. g4 *\n");

    let out = ok(&kifu(&[OsStr::new("json"), dir.path().as_os_str()], None));
    let games: Vec<Json> = out.lines().map(Json::parse).collect();
    let seen: Vec<(String, String)> = games
        .iter()
        .map(|g| {
            let event = g
                .get("tags")
                .arr()
                .iter()
                .find(|t| t.arr()[0].str() == "Event")
                .map_or(String::new(), |t| t.arr()[1].str().to_string());
            (g.get("file").str().to_string(), event)
        })
        .collect();
    let name = |p: &Path| p.display().to_string();
    assert_eq!(
        seen,
        [
            (name(&a), "a".to_string()),
            (name(&a), "a2".to_string()),
            (name(&b), "b".to_string()),
            (name(&c), String::new()),
        ]
    );
    // the same as naming the files one by one
    let listed = ok(&kifu(
        &[
            OsStr::new("json"),
            a.as_os_str(),
            b.as_os_str(),
            c.as_os_str(),
        ],
        None,
    ));
    assert_eq!(out, listed);
    // and stats count every game of every file
    let v = Json::parse(
        ok(&kifu(
            &[
                OsStr::new("stats"),
                OsStr::new("--json"),
                dir.path().as_os_str(),
            ],
            None,
        ))
        .trim_end(),
    );
    assert_eq!(v.get("games").num(), 4.0);
}

/// SGF through `stats`, told by the extension and by sniffing stdin (`check` on SGF:
/// `sgf_check_of_sgfcs_test_file`).
#[test]
fn sgf_stats_by_name_and_by_sniffing() {
    let seed = kifu_testkit::data_path("seed-takemiya-cho-meijin-1996.sgf");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(["stats", "--json"])
        .arg(&seed)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for want in [
        "\"games\":1",
        "\"nodes\":142",
        "\"variations\":6",
        "\"errors\":0",
    ] {
        assert!(text.contains(want), "{want} missing in {text}");
    }
    // the same bytes on stdin are recognised as SGF
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(["stats", "--json", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(&std::fs::read(&seed).unwrap()).unwrap();
    }
    let out = child.wait_with_output().unwrap();
    assert!(
        String::from_utf8(out.stdout)
            .unwrap()
            .contains("\"nodes\":142")
    );
}

/// SGF through `check`: SGFC-style lines, exit 1.
#[test]
#[cfg_attr(not(kifu_shared), ignore = "needs ../shared (the corpus)")]
fn sgf_check_of_sgfcs_test_file() {
    let test = kifu_testkit::shared().join("corpus/sgf/small/sgfc/test.sgf");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kifu"))
        .arg("check")
        .arg(&test)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    let first = text.lines().next().unwrap();
    assert!(first.contains(":1:1: warning W06: "), "{first}");
}

// ----- `kifu json` on SGF --------------------------------------------------------------------

/// Nodes, and variations beyond the first child of each branch point, over a `kifu json` tree.
fn sgf_tree_counts(tree: &Json) -> (usize, usize) {
    let (mut nodes, mut variations) = (0, 0);
    let mut stack = vec![tree];
    while let Some(t) = stack.pop() {
        nodes += t.get("nodes").arr().len();
        let v = t.get("variations").arr();
        variations += v.len().saturating_sub(1);
        stack.extend(v);
    }
    (nodes, variations)
}

fn sgf_json_lines(input: &[u8]) -> Vec<Json> {
    let out = kifu(&["json", "--format", "sgf", "-"], Some(input));
    ok(&out).lines().map(Json::parse).collect()
}

#[test]
fn sgf_json_of_the_seed_game() {
    let seed = kifu_testkit::data_path("seed-takemiya-cho-meijin-1996.sgf");
    let out = ok(&kifu(&[OsStr::new("json"), seed.as_os_str()], None));
    let games: Vec<Json> = out.lines().map(Json::parse).collect();
    assert_eq!(games.len(), 1);
    let g = &games[0];
    assert_eq!(g.get("index").num(), 0.0);
    assert_eq!(g.get("offset").num(), 0.0);
    assert_eq!(g.get("errors").arr().len(), 0);
    assert_eq!(sgf_tree_counts(g.get("tree")), (142, 6));
    let root = &g.get("tree").get("nodes").arr()[0];
    let props = root.get("props").arr();
    let pw = props
        .iter()
        .find(|p| p.arr()[0].str() == "PW")
        .expect("PW in the root");
    assert_eq!(pw.arr()[1].arr()[0].str(), "Cho Chikun");
}

#[test]
fn sgf_json_sequences_follow_single_children_and_values_are_decoded() {
    let games = sgf_json_lines(
        b"(;FF[4](;B[aa](;W[bb])))garbage\n(;GN[x\\]y\nz]C[a\\\nb\\\\]LB[dd:A\\]](;B[cc])(;B[dd]))",
    );
    assert_eq!(games.len(), 2);
    // `(;a(;b(;c)))` is the sequence a;b;c
    let t = games[0].get("tree");
    assert_eq!(t.get("nodes").arr().len(), 3);
    assert_eq!(t.get("variations").arr().len(), 0);
    // text after a game tree's `)` belongs to that game tree
    let errors = games[0].get("errors").arr();
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].get("kind").str(), "text_outside_game");
    assert_eq!(errors[0].get("code").str(), "W06");
    assert_eq!(errors[0].get("text").str(), "garbage");
    assert_eq!(errors[0].get("line").num(), 1.0);
    assert_eq!(errors[0].get("node"), &Json::Null);
    // SimpleText and Text decoded, compose values as written
    let t = games[1].get("tree");
    let props = t.get("nodes").arr()[0].get("props").arr();
    let value = |i: usize| props[i].arr()[1].arr()[0].str().to_string();
    assert_eq!(props[0].arr()[0].str(), "GN");
    assert_eq!(value(0), "x]y z");
    assert_eq!(value(1), "ab\\");
    assert_eq!(value(2), "dd:A\\]");
    assert_eq!(t.get("variations").arr().len(), 2);
    assert_eq!(games[1].get("index").num(), 1.0);
    assert_eq!(games[1].get("errors").arr().len(), 0);
}

#[test]
fn sgf_json_of_a_deep_chain_stays_flat() {
    // OGS and Fox files nest one level per move (below the default depth limit of 10,000)
    let depth = 9_000;
    let mut sgf = Vec::new();
    for i in 0..depth {
        sgf.extend_from_slice(if i % 2 == 0 { b"(;B[aa]" } else { b"(;W[bb]" });
    }
    sgf.extend(std::iter::repeat_n(b')', depth));
    let games = sgf_json_lines(&sgf);
    assert_eq!(games.len(), 1);
    let t = games[0].get("tree");
    assert_eq!(t.get("nodes").arr().len(), depth);
    assert_eq!(t.get("variations").arr().len(), 0);
}

#[test]
fn sgf_json_decodes_the_charset() {
    // CA names GBK: 古力
    let games = sgf_json_lines(b"(;CA[GB2312]PB[\xb9\xc5\xc1\xa6];B[aa])");
    let props = games[0].get("tree").get("nodes").arr()[0]
        .get("props")
        .arr();
    assert_eq!(props[1].arr()[1].arr()[0].str(), "古力");
    // no CA, UTF-8 with a byte lost to `?` (as in the Fox files): read as UTF-8
    let games = sgf_json_lines(
        "(;PB[风暴雷霆]PW[龙星无\u{FFFD}])"
            .replace('\u{FFFD}', "")
            .as_bytes(),
    );
    let props = games[0].get("tree").get("nodes").arr()[0]
        .get("props")
        .arr();
    assert_eq!(props[0].arr()[1].arr()[0].str(), "风暴雷霆");
    let mut damaged = "(;PB[风暴雷霆]PW[龙星无双])".as_bytes().to_vec();
    let at = damaged.len() - 4; // the middle byte of 双
    damaged[at] = b'?';
    let games = sgf_json_lines(&damaged);
    let props = games[0].get("tree").get("nodes").arr()[0]
        .get("props")
        .arr();
    assert_eq!(props[0].arr()[1].arr()[0].str(), "风暴雷霆");
    assert!(
        props[1].arr()[1].arr()[0]
            .str()
            .starts_with("龙星无\u{FFFD}")
    );
    // UTF-16 with a byte order mark, sniffed as SGF on stdin
    let utf16: Vec<u8> = "\u{feff}(;PB[柯洁];B[pd])"
        .encode_utf16()
        .flat_map(|u| u.to_le_bytes())
        .collect();
    let out = ok(&kifu(&["json", "-"], Some(&utf16)));
    assert!(out.contains("\"柯洁\""), "{out}");
    // --charset forces one
    let out = ok(&kifu(
        &["json", "--format", "sgf", "--charset", "latin1", "-"],
        Some(b"(;PB[Jos\xe9])"),
    ));
    assert!(out.contains("\"José\""), "{out}");
}

// ----- `kifu fmt` ------------------------------------------------------------------------------

#[test]
fn fmt_rewrites_pgn_in_export_form_and_is_idempotent() {
    let seed = fixture();
    let out = kifu(&[OsStr::new("fmt"), seed.as_os_str()], None);
    assert_eq!(out.status.code(), Some(0));
    // the three problems of the seed go to stderr, in `kifu check`'s form, and a summary
    let check = stdout(&kifu(&[OsStr::new("check"), seed.as_os_str()], None));
    let err = stderr(&out);
    assert_eq!(
        err.lines().take(3).collect::<Vec<_>>(),
        check.lines().collect::<Vec<_>>()
    );
    assert!(
        err.lines()
            .nth(3)
            .unwrap()
            .starts_with("kifu fmt: 3 problem(s)"),
        "{err}"
    );
    let once = stdout(&out);
    assert!(once.starts_with("[Event \"Botvinnik Memorial\"]\n[Site \"Moscow\"]\n"));
    assert!(once.lines().all(|l| l.chars().count() <= 80), "{once}");
    // formatting the output again changes nothing and finds nothing wrong
    let again = kifu(&["fmt", "--format", "pgn", "-"], Some(once.as_bytes()));
    assert_eq!(stderr(&again), "");
    assert_eq!(ok(&again), once);
    // the same tags and moves as the original
    let json = |text: &[u8]| {
        let out = ok(&kifu(&["json", "--format", "pgn", "-"], Some(text)));
        let g = Json::parse(out.lines().next().unwrap());
        let sans: Vec<String> = g
            .get("moves")
            .arr()
            .iter()
            .map(|m| m.get("san").str().to_string())
            .collect();
        (g.get("tags").clone(), sans, g.get("result").clone())
    };
    assert_eq!(json(once.as_bytes()), json(&std::fs::read(&seed).unwrap()));
    // stripped and compact: one movetext line, no comment, variation or NAG
    let out = kifu(
        &[
            OsStr::new("fmt"),
            OsStr::new("--compact"),
            OsStr::new("--strip"),
            OsStr::new("comments,variations,nags"),
            seed.as_os_str(),
        ],
        None,
    );
    let text = stdout(&out);
    let movetext: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('[') && !l.is_empty())
        .collect();
    assert_eq!(movetext.len(), 1, "{text}");
    assert!(
        !movetext[0].contains(['{', '(', '$', ';']),
        "{}",
        movetext[0]
    );
    assert!(
        movetext[0].starts_with("1. e4 e5 2. Nf3") && movetext[0].ends_with("19. Nxe6 1/2-1/2")
    );
}

#[test]
fn fmt_rewrites_sgf_and_keeps_the_tree() {
    let seed = kifu_testkit::data_path("seed-takemiya-cho-meijin-1996.sgf");
    let tmp = tempfile::tempdir().unwrap();
    let written = tmp.path().join("out.sgf");
    let out = kifu(
        &[
            OsStr::new("fmt"),
            seed.as_os_str(),
            OsStr::new("-o"),
            written.as_os_str(),
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "");
    let once = std::fs::read(&written).unwrap();
    // the same game tree: the same `kifu json` but for offsets and file names
    let tree = |text: &[u8]| {
        let out = ok(&kifu(&["json", "--format", "sgf", "-"], Some(text)));
        Json::parse(out.lines().next().unwrap()).get("tree").clone()
    };
    assert_eq!(tree(&once), tree(&std::fs::read(&seed).unwrap()));
    let again = ok(&kifu(&["fmt", "--format", "sgf", "-"], Some(&once)));
    assert_eq!(again.as_bytes(), &once[..]);
    // variations and comments stripped: the main line only, no C
    let out = ok(&kifu(
        &[
            OsStr::new("fmt"),
            OsStr::new("--strip"),
            OsStr::new("variations,comments"),
            OsStr::new("--node-per-line"),
            seed.as_os_str(),
        ],
        None,
    ));
    let t = tree(out.as_bytes());
    assert_eq!(sgf_tree_counts(&t).1, 0);
    assert!(!out.contains("C["), "{out}");
    assert!(
        out.lines()
            .filter(|l| l.starts_with(";B[") || l.starts_with(";W["))
            .count()
            > 100
    );
}

#[test]
fn max_game_bytes_bounds_json_and_fmt() {
    // a PGN game of many long comments, then a small one
    let mut pgn = b"[White \"big\"]\n\n".to_vec();
    for i in 1..=400 {
        pgn.extend_from_slice(format!("{i}. e4 {{{}}} e5 ", "x".repeat(500)).as_bytes());
    }
    pgn.extend_from_slice(b"*\n\n[White \"small\"]\n\n1. d4 d5 *\n");
    let out = cut(&kifu(
        &["json", "--format", "pgn", "--max-game-bytes", "20000", "-"],
        Some(&pgn),
    ));
    let games: Vec<Json> = out.lines().map(Json::parse).collect();
    assert_eq!(games.len(), 2);
    let kinds: Vec<&str> = games[0]
        .get("errors")
        .arr()
        .iter()
        .map(|e| e.get("kind").str())
        .collect();
    assert_eq!(kinds, ["game_too_large"]);
    assert!(games[0].get("moves").arr().len() < 100);
    assert_eq!(games[1].get("moves").arr().len(), 2);
    assert_eq!(games[1].get("errors").arr().len(), 0);
    // the same through the DOM
    let out = kifu(
        &["fmt", "--format", "pgn", "--max-game-bytes", "20000", "-"],
        Some(&pgn),
    );
    assert!(stderr(&out).contains("game too large"), "{}", stderr(&out));
    assert!(stdout(&out).contains("1. d4 d5 *"));
    // an SGF tree that never closes swallows what follows, but only up to the limit
    let mut sgf = b"(;GM[1]".to_vec();
    for _ in 0..2000 {
        sgf.extend_from_slice(b"(;B[aa]C[a comment of some length, again and again])");
    }
    let out = cut(&kifu(
        &["json", "--format", "sgf", "--max-game-bytes", "10000", "-"],
        Some(&sgf),
    ));
    let g = Json::parse(out.lines().next().unwrap());
    let codes: Vec<&str> = g
        .get("errors")
        .arr()
        .iter()
        .map(|e| e.get("code").str())
        .collect();
    assert!(codes.contains(&"E103"), "{codes:?}");
    assert!(sgf_tree_counts(g.get("tree")).0 < 300);
}

#[test]
fn fmt_refuses_to_overwrite_an_input() {
    let tmp = tempfile::tempdir().unwrap();
    let p = tmp.path().join("same.pgn");
    std::fs::write(&p, "1. e4 e5 *\n").unwrap();
    let out = kifu(
        &[
            OsStr::new("fmt"),
            p.as_os_str(),
            OsStr::new("-o"),
            p.as_os_str(),
        ],
        None,
    );
    assert_ne!(out.status.code(), Some(0));
    assert!(
        stderr(&out).contains("is one of the inputs"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read_to_string(&p).unwrap(), "1. e4 e5 *\n");
}

#[test]
fn json_says_how_many_errors_it_dropped() {
    // a PGN game of thousands of stray `)`, each a problem: the first 100 are kept
    // (`GameBuilder::with_max_game_errors`), and the object counts the rest
    let mut pgn = b"[White \"flood\"]\n\n1. e4 ".to_vec();
    for _ in 0..3000 {
        pgn.extend_from_slice(b") ");
    }
    pgn.extend_from_slice(b"*\n\n[White \"calm\"]\n\n1. d4 *\n");
    let out = ok(&kifu(
        &["json", "--format", "pgn", "--max-game-bytes", "20000", "-"],
        Some(&pgn),
    ));
    let games: Vec<Json> = out.lines().map(Json::parse).collect();
    assert_eq!(games.len(), 2);
    let errors = games[0].get("errors").arr();
    assert_eq!(errors.len(), 100);
    assert_eq!(errors.last().unwrap().get("kind").str(), "stray_paren");
    assert_eq!(games[0].get("errors_dropped").num() as usize, 2900);
    // past --max-game-bytes first (a limit smaller than 100 problems): the kept problems, the
    // `game_too_large` that says where the cut came, and the dropped ones
    let out = cut(&kifu(
        &["json", "--format", "pgn", "--max-game-bytes", "3000", "-"],
        Some(&pgn),
    ));
    let games: Vec<Json> = out.lines().map(Json::parse).collect();
    let errors = games[0].get("errors").arr();
    let kept = errors.len();
    assert!(kept < 100, "{kept}");
    assert_eq!(errors.last().unwrap().get("kind").str(), "game_too_large");
    assert_eq!(
        games[0].get("errors_dropped").num() as usize + kept - 1,
        3000
    );
    // absent when nothing was dropped
    assert!(!games[1].keys().contains(&"errors_dropped"));
    // SGF: a stray `]` in each of 3,000 nodes
    let mut sgf = b"(;GM[1];B[aa]".to_vec();
    for _ in 0..3000 {
        sgf.extend_from_slice(b";B[]] ");
    }
    sgf.extend_from_slice(b")(;GM[1])");
    let out = cut(&kifu(
        &["json", "--format", "sgf", "--max-game-bytes", "100000", "-"],
        Some(&sgf),
    ));
    let trees: Vec<Json> = out.lines().map(Json::parse).collect();
    assert_eq!(trees.len(), 2);
    let kept = trees[0].get("errors").arr().len() as u64;
    let dropped = trees[0].get("errors_dropped").num() as u64;
    // (the nodes count against the limit too, and past it the rest of the tree is skipped)
    assert!(dropped > 0 && kept + dropped < 3000, "{kept} {dropped}");
    assert!(!trees[1].keys().contains(&"errors_dropped"));
}

#[test]
fn fmt_counts_every_problem_as_check_does() {
    // 3,000 stray `)` in one game: fmt lists the first 100, then one line that counts the rest,
    // and its summary counts all of them, as `kifu check` does
    let mut pgn = b"[White \"flood\"]\n\n1. e4 ".to_vec();
    for _ in 0..3000 {
        pgn.extend_from_slice(b") ");
    }
    pgn.extend_from_slice(b"*\n");
    let o = kifu(&["fmt", "--format", "pgn", "-"], Some(&pgn));
    let stderr = String::from_utf8_lossy(&o.stderr);
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 102, "{stderr}");
    assert!(
        lines[100].contains(
            "error: 2900 more problems in this game, not listed (the first 100 are) (game 1)"
        ),
        "{}",
        lines[100]
    );
    assert!(
        lines[101].starts_with("kifu fmt: 3000 problem(s) met"),
        "{}",
        lines[101]
    );
    let check = kifu(&["check", "--format", "pgn", "-"], Some(&pgn));
    let listed = String::from_utf8_lossy(&check.stdout);
    assert_eq!(listed.lines().count(), 101, "{listed}");
    assert!(listed.contains("2900 more problems"), "{listed}");
}

#[test]
fn input_without_a_game_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.file("junk.pgn", b"no game here\n)\n");
    let sgf = dir.file("junk.sgf", b"hello world ] ; x\n");
    let good = dir.file("good.pgn", b"1. e4 *\n");
    for (file, n) in [(&pgn, 2), (&sgf, 1)] {
        let name = file.display().to_string();
        // json: nothing on stdout, a line on stderr, exit 1
        let out = kifu(&[OsStr::new("json"), file.as_os_str()], None);
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        assert_eq!(stdout(&out), "");
        assert!(
            stderr(&out).contains(&format!("kifu: {name}: no game read; {n} problem(s)")),
            "{}",
            stderr(&out)
        );
        // fmt: the problems as `kifu check` prints them, the summary, exit 1
        let out = kifu(&[OsStr::new("fmt"), file.as_os_str()], None);
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        let err = stderr(&out);
        assert!(err.contains(&format!("{name}:1:1: ")), "{err}");
        assert!(
            err.contains(&format!("kifu: {name}: no game read; {n} problem(s)")),
            "{err}"
        );
        // check: the problems, exit 1
        let out = kifu(&[OsStr::new("check"), file.as_os_str()], None);
        assert_eq!(out.status.code(), Some(1));
        assert_eq!(stdout(&out).lines().count(), n);
    }
    // a good file beside a bad one: its game is written, the bad one still reported
    let out = kifu(
        &[OsStr::new("json"), good.as_os_str(), pgn.as_os_str()],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout(&out).lines().count(), 1);
    // an empty file holds no game either: named, exit 1 (no game from nowhere)
    let empty = dir.file("empty.pgn", b"");
    let out = kifu(&[OsStr::new("json"), empty.as_os_str()], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("empty.pgn: no game in it"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn json_names_a_tree_too_deep_to_serialize_and_goes_on() {
    // 1,100 nested branch points, past `sgf::SERDE_MAX_DEPTH`, then a plain tree
    let mut sgf = b"(;GM[1]".to_vec();
    for _ in 0..1100 {
        sgf.extend_from_slice(b"(;B[aa])(;W[bb]");
    }
    sgf.extend(std::iter::repeat_n(b')', 1101));
    sgf.extend_from_slice(b"(;GM[1];B[cc])");
    let o = kifu(&["json", "--format", "sgf", "-"], Some(&sgf));
    assert_eq!(o.status.code(), Some(1), "stderr: {}", stderr(&o));
    assert!(
        stderr(&o).contains("game 1: not written: variations nested deeper than 1000"),
        "{}",
        stderr(&o)
    );
    let out = stdout(&o);
    let trees: Vec<Json> = out.lines().map(Json::parse).collect();
    assert_eq!(trees.len(), 1);
    assert_eq!(trees[0].get("index").num() as u64, 1);
}
