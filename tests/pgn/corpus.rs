//! The whole shared corpus (`../shared/corpus/pgn`, when present): every file parses without a
//! panic into well-nested events, the same whatever the chunking, and with as many games as an
//! independent, naive line-based counter finds (except in the few files listed in
//! [`MISMATCHES`], each with its reason). Also prints a table of every error kind kifu reports
//! over the corpus, with examples.

use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;

use kifu::pgn::Visitor;
use kifu::pgn::{
    self, Comment, Context, Error, ErrorKind, Move, Nag, NagForm, Outcome, Parser, Tag,
};
use kifu::{Control, Status};

/// Files (relative to `corpus/pgn`) where kifu's game count and the naive count differ, with
/// kifu's count, the naive count and why. Each was checked by looking at the file; in each one
/// kifu's count is the right one.
///
/// The naive counter takes a run of tag lines with only blank lines between them as one tag
/// section, and skips the rest of a tag line. kifu also ends a tag section at a repeated Seven
/// Tag Roster name (a second `Event`, `Round`, `Result`, …), which splits tag-only games, and
/// reads movetext on a tag line.
const MISMATCHES: &[(&str, u64, u64, &str)] = &[
    (
        "small/chess-library/empty_body.pgn",
        2,
        1,
        "a tag-only game, then a line holding one space and a blank line, then the next tag section",
    ),
    (
        "small/pgn-extract/infiles/test-nobadresults.pgn",
        9,
        1,
        "nine one-line games `[Result \"1-0\"] e4 *`: tag pair and movetext share each line",
    ),
    (
        "small/scalachess/test-kit/src/test/resources/FWWRC.pgn",
        605,
        1,
        "605 tag-only games (no movetext, no result) separated only by blank lines",
    ),
    (
        "small/scalachess/test-kit/src/test/resources/uzchesscup.pgn",
        45,
        1,
        "45 tag-only games (no movetext, no result) separated only by blank lines",
    ),
];

// ----- the checking visitor ------------------------------------------------------------------

/// What the visitor saw, compared between chunkings.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Summary {
    games: u64,
    tags: u64,
    moves: u64,
    nags: u64,
    comment_pieces: u64,
    results: u64,
    errors: u64,
}

/// One error kifu reported, kept for the table.
#[derive(Clone, Debug)]
struct Seen {
    kind: ErrorKind,
    line: u64,
    column: u32,
    text: String,
}

/// Counts games and checks that the events are well nested.
#[derive(Default)]
struct Checker {
    sum: Summary,
    /// Depths of the open trees (`[0]` inside a game, `[0, 1]` inside a variation, …).
    open: Vec<u32>,
    /// `on_tags_end` calls in the current game.
    tags_ends: u32,
    /// A depth-0 result was seen in the current game.
    result_seen: bool,
    /// Nesting violations (the first few).
    problems: Vec<String>,
    /// Errors reported, when collected.
    errors: Option<Vec<Seen>>,
}

impl Checker {
    fn collecting() -> Checker {
        Checker {
            errors: Some(Vec::new()),
            ..Checker::default()
        }
    }

    fn problem(&mut self, ctx: &Context, what: &str) {
        if self.problems.len() < 5 {
            self.problems.push(format!(
                "{} (game {}, depth {}): {what}",
                ctx.pos, ctx.game, ctx.depth
            ));
        }
    }

    /// Checks an event that must come inside a game's movetext at the current depth.
    fn in_movetext(&mut self, ctx: &Context, what: &str) {
        if self.open.is_empty() {
            self.problem(ctx, &format!("{what} outside any game"));
        } else if self.tags_ends != 1 {
            self.problem(ctx, &format!("{what} before on_tags_end"));
        } else if self.open.len() as u32 != ctx.depth + 1 {
            self.problem(
                ctx,
                &format!(
                    "{what} at depth {} with {} trees open",
                    ctx.depth,
                    self.open.len()
                ),
            );
        } else if ctx.game != self.sum.games {
            self.problem(
                ctx,
                &format!(
                    "{what} carries game {} in game {}",
                    ctx.game, self.sum.games
                ),
            );
        }
    }
}

impl Visitor for Checker {
    fn on_tree(&mut self, ctx: &Context) -> Control {
        if ctx.is_main_line() {
            if !self.open.is_empty() {
                self.problem(ctx, "game begins inside a game");
            }
            if ctx.game != self.sum.games {
                self.problem(
                    ctx,
                    &format!("game index {} for game {}", ctx.game, self.sum.games),
                );
            }
            self.tags_ends = 0;
            self.result_seen = false;
        } else {
            if self.result_seen {
                self.problem(ctx, "variation after the game's result");
            }
            if self.open.is_empty() || self.tags_ends != 1 || ctx.game != self.sum.games {
                self.problem(ctx, "variation outside a game's movetext");
            }
        }
        if self.open.last().map_or(0, |d| d + 1) != ctx.depth {
            self.problem(
                ctx,
                &format!("tree at depth {} inside {:?}", ctx.depth, self.open),
            );
        }
        self.open.push(ctx.depth);
        Control::Continue
    }

    fn on_tree_end(&mut self, ctx: &Context) -> Control {
        match self.open.pop() {
            Some(d) if d == ctx.depth => {}
            other => self.problem(
                ctx,
                &format!("tree end at depth {} closes {other:?}", ctx.depth),
            ),
        }
        if ctx.is_main_line() {
            if self.tags_ends != 1 {
                self.problem(
                    ctx,
                    &format!("game ends after {} on_tags_end", self.tags_ends),
                );
            }
            self.sum.games += 1;
        }
        Control::Continue
    }

    fn on_property(&mut self, ctx: &Context, _: &Tag<'_>) -> Control {
        self.sum.tags += 1;
        if self.open != [0] || self.tags_ends != 0 || ctx.depth != 0 {
            self.problem(ctx, "tag pair outside a tag section");
        }
        Control::Continue
    }

    fn on_tags_end(&mut self, ctx: &Context) -> Control {
        self.tags_ends += 1;
        if self.open != [0] || self.tags_ends != 1 || ctx.depth != 0 {
            self.problem(
                ctx,
                &format!("on_tags_end #{} with {:?} open", self.tags_ends, self.open),
            );
        }
        Control::Continue
    }

    fn on_move(&mut self, ctx: &Context, mv: &Move<'_>) -> Control {
        self.sum.moves += 1;
        if self.result_seen {
            self.problem(ctx, "move after the game's result");
        }
        self.in_movetext(ctx, "move");
        if ctx.ply == 0 || mv.text.is_empty() {
            self.problem(ctx, "move without ply or text");
        }
        Control::Continue
    }

    fn on_nag(&mut self, ctx: &Context, _: Nag, _: NagForm) -> Control {
        self.sum.nags += 1;
        self.in_movetext(ctx, "NAG");
        Control::Continue
    }

    fn on_comment(&mut self, ctx: &Context, _: &Comment<'_>) -> Control {
        self.sum.comment_pieces += 1;
        if self.open.is_empty() || self.open.len() as u32 != ctx.depth + 1 {
            self.problem(ctx, "comment outside a game or at the wrong depth");
        }
        Control::Continue
    }

    fn on_result(&mut self, ctx: &Context, _: Outcome) -> Control {
        self.sum.results += 1;
        self.in_movetext(ctx, "result");
        if ctx.is_main_line() {
            if self.result_seen {
                self.problem(ctx, "second result in one game");
            }
            self.result_seen = true;
        }
        Control::Continue
    }

    fn on_error(&mut self, e: &Error<'_>) -> Control {
        self.sum.errors += 1;
        if let Some(errors) = &mut self.errors {
            let mut text = String::from_utf8_lossy(e.text).into_owned();
            if e.truncated {
                text.push('…');
            }
            errors.push(Seen {
                kind: e.kind,
                line: e.pos.line,
                column: e.pos.column,
                text,
            });
        }
        Control::Continue
    }
}

/// Parses `data` whole (collecting errors) and fed in `chunk`-byte pieces.
fn run(data: &[u8], chunk: Option<usize>) -> Checker {
    let mut v = match chunk {
        None => Checker::collecting(),
        Some(_) => Checker::default(),
    };
    match chunk {
        None => {
            let status = pgn::parse(data, &mut v);
            assert_eq!(status, Status::NeedInput);
        }
        Some(n) => {
            let mut p = Parser::new();
            for c in data.chunks(n) {
                assert_eq!(p.feed(c, &mut v), Status::NeedInput);
            }
            p.finish(&mut v);
        }
    }
    if !v.open.is_empty() {
        let ctx = Context {
            pos: Default::default(),
            game: v.sum.games,
            depth: 0,
            ply: 0,
        };
        let open = v.open.clone();
        v.problem(&ctx, &format!("trees still open at the end: {open:?}"));
    }
    v
}

// ----- the naive, independent game counter ---------------------------------------------------

/// Whether `line` (leading blanks already skipped) opens a tag pair: `[`, a letter, more name
/// bytes, blanks, `"`.
fn naive_is_tag_line(line: &[u8]) -> bool {
    if line.len() < 2 || line[0] != b'[' || !line[1].is_ascii_alphabetic() {
        return false;
    }
    let mut j = 1;
    while j < line.len() && !matches!(line[j], b' ' | b'\t' | b'"' | b']') {
        j += 1;
    }
    while j < line.len() && matches!(line[j], b' ' | b'\t') {
        j += 1;
    }
    line.get(j) == Some(&b'"')
}

fn naive_is_result(tok: &[u8]) -> bool {
    matches!(tok, b"1-0" | b"0-1" | b"1/2-1/2" | b"*")
}

/// Counts games line by line: a tag section (tag lines, the first one not preceded by another tag
/// line, outside brace comments) is a game, and so is movetext that follows a result (or starts
/// the file) without tags. Brace comments span lines and do not nest; `;` and column-1 `%` lines
/// are skipped; results count only at parenthesis depth 0. O(n), one pass.
fn naive_games(data: &[u8]) -> u64 {
    let data = data.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(data);
    let mut games = 0u64;
    let mut in_brace = false;
    let mut prev_was_tag = false;
    // true at the start of the file and after a game's result: the next movetext is a new game
    let mut open_for_movetext = true;
    let mut depth = 0u32;
    for line in data.split(|&b| b == b'\n' || b == b'\r') {
        let start = line
            .iter()
            .position(|&b| b != b' ' && b != b'\t')
            .unwrap_or(line.len());
        let body = &line[start..];
        if body.is_empty() && !in_brace {
            continue; // blank: does not change "the previous non-blank line"
        }
        if !in_brace && naive_is_tag_line(body) {
            if !prev_was_tag {
                games += 1;
            }
            prev_was_tag = true;
            open_for_movetext = false;
            depth = 0;
            continue;
        }
        if !body.is_empty() {
            prev_was_tag = false;
        }
        if !in_brace && start == 0 && line.first() == Some(&b'%') {
            continue;
        }
        let mut i = 0;
        while i < line.len() {
            if in_brace {
                match line[i..].iter().position(|&b| b == b'}') {
                    Some(p) => {
                        in_brace = false;
                        i += p + 1;
                    }
                    None => break,
                }
                continue;
            }
            match line[i] {
                b' ' | b'\t' => i += 1,
                b'{' => {
                    in_brace = true;
                    i += 1;
                }
                b';' => break,
                b'(' => {
                    depth += 1;
                    i += 1;
                }
                b')' => {
                    depth = depth.saturating_sub(1);
                    i += 1;
                }
                _ => {
                    let mut j = i;
                    while j < line.len()
                        && !matches!(line[j], b' ' | b'\t' | b'{' | b';' | b'(' | b')')
                    {
                        j += 1;
                    }
                    let tok = &line[i..j];
                    if open_for_movetext {
                        games += 1;
                        open_for_movetext = false;
                        depth = 0;
                    }
                    if depth == 0 && naive_is_result(tok) {
                        open_for_movetext = true;
                    }
                    i = j;
                }
            }
        }
    }
    games
}

// ----- the test ------------------------------------------------------------------------------

#[test]
fn naive_counter_on_small_inputs() {
    assert_eq!(naive_games(b""), 0);
    assert_eq!(
        naive_games(b"[Event \"a\"]\n[Site \"b\"]\n\n1. e4 e5 1-0\n\n[Event \"c\"]\n\n1. d4 *\n"),
        2
    );
    assert_eq!(naive_games(b"1. e4 e5 1-0\n1. d4 d5 *\n1. c4 0-1"), 3);
    assert_eq!(
        naive_games(b"1. e4 {a comment\n[Event \"not a tag\"]\n1-0 } (1. d4 *) 1-0"),
        1
    );
    assert_eq!(
        naive_games(b"\xEF\xBB\xBF[Event \"x\"]\n1. e4 ; 1-0\n% 1-0\ne5 1/2-1/2\n"),
        1
    );
}

#[test]
#[cfg_attr(not(kifu_shared), ignore = "needs ../shared (the corpus)")]
fn every_corpus_file() {
    let root = kifu_testkit::shared().join("corpus").join("pgn");
    let files = kifu_testkit::files_with_ext(&root, "pgn");
    assert!(!files.is_empty(), "no .pgn file below {}", root.display());

    let mut total_games = 0u64;
    let mut total_bytes = 0u64;
    let mut failures: Vec<String> = Vec::new();
    let mut mismatches: Vec<(String, u64, u64)> = Vec::new();
    // kind -> (count, examples)
    let mut kinds: BTreeMap<&'static str, (u64, Vec<String>)> = BTreeMap::new();

    for path in &files {
        let rel = relative(&root, path);
        let data = std::fs::read(path).unwrap_or_else(|e| panic!("{rel}: {e}"));
        total_bytes += data.len() as u64;

        let runs = catch_unwind(AssertUnwindSafe(|| {
            (
                run(&data, None),
                run(&data, Some(4096)),
                run(&data, Some(7)),
            )
        }));
        let (whole, big, small) = match runs {
            Ok(r) => r,
            Err(_) => {
                failures.push(format!("{rel}: kifu panicked"));
                continue;
            }
        };
        for (name, v) in [
            ("whole", &whole),
            ("4096-byte chunks", &big),
            ("7-byte chunks", &small),
        ] {
            if !v.problems.is_empty() {
                failures.push(format!(
                    "{rel} ({name}): badly nested events: {:?}",
                    v.problems
                ));
            }
        }
        if big.sum != whole.sum {
            failures.push(format!(
                "{rel}: 4096-byte chunks give {:?}, whole {:?}",
                big.sum, whole.sum
            ));
        }
        if small.sum != whole.sum {
            failures.push(format!(
                "{rel}: 7-byte chunks give {:?}, whole {:?}",
                small.sum, whole.sum
            ));
        }
        total_games += whole.sum.games;

        let naive = naive_games(&data);
        let listed = MISMATCHES.iter().find(|m| m.0 == rel);
        match listed {
            Some(&(_, kifu_n, naive_n, _)) if (kifu_n, naive_n) != (whole.sum.games, naive) => {
                failures.push(format!(
                    "{rel}: listed as kifu {kifu_n} / naive {naive_n}, now kifu {} / naive {naive}",
                    whole.sum.games
                ));
            }
            Some(_) => {}
            None if naive != whole.sum.games => {
                mismatches.push((rel.clone(), whole.sum.games, naive));
                failures.push(format!(
                    "{rel}: kifu counts {} games, the naive counter {naive}",
                    whole.sum.games
                ));
            }
            None => {}
        }

        for e in whole.errors.unwrap_or_default() {
            let entry = kinds.entry(e.kind.code()).or_default();
            entry.0 += 1;
            if entry.1.len() < 3 {
                entry
                    .1
                    .push(format!("{rel}:{}:{}: {:?}", e.line, e.column, e.text));
            }
        }
    }
    for m in MISMATCHES {
        if !files.iter().any(|p| relative(&root, p) == m.0) {
            failures.push(format!(
                "{}: listed in MISMATCHES but not in the corpus",
                m.0
            ));
        }
    }

    eprintln!(
        "corpus: {} files, {total_games} games, {total_bytes} bytes ({} known count mismatches)",
        files.len(),
        MISMATCHES.len()
    );
    for (file, kifu_n, naive_n, why) in MISMATCHES {
        eprintln!("    {file}: kifu {kifu_n}, naive {naive_n}: {why}");
    }
    let mut table: Vec<_> = kinds.into_iter().collect();
    table.sort_by(|a, b| b.1.0.cmp(&a.1.0).then(a.0.cmp(b.0)));
    eprintln!("errors reported over the corpus, by kind:");
    eprintln!("| kind | count | examples (file:line:col: text) |");
    eprintln!("|---|---:|---|");
    for (kind, (count, examples)) in &table {
        eprintln!("| {kind} | {count} | {} |", examples.join("<br>"));
    }
    if !mismatches.is_empty() {
        eprintln!("unlisted count mismatches (file, kifu, naive):");
        for m in &mismatches {
            eprintln!("    (\"{}\", {}, {}, \"\"),", m.0, m.1, m.2);
        }
    }
    assert!(
        failures.is_empty(),
        "{} problems:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// `path` relative to `root`, with `/` separators.
fn relative(root: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}
