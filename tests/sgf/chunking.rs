//! SGF: the chunking property. Whatever the chunk boundaries, the events are the same.

use kifu::Status;
use kifu::sgf::{self, Config, EventLog, Parser};
use proptest::prelude::*;

/// Inputs that put tokens, long values, escapes, CRLF, UTF-8 and structure at awkward places.
const CASES: &[&[u8]] = &[
    b"\xef\xbb\xbfjunk before (see page 3)\r\n(;FF[4]GM[1]SZ[19]C[caf\xc3\xa9 \\] long comment\\\r\nsoft break]\r\n;B[pd]N[x];W[]\r\n(;B[tt];W[dd])(;AddBlack[aa:cc]LB[aa:a\\:b])) trailing ) junk",
    b"(;GM[1]FF[4]  AB\n((;\nN[\0x]\n;LB[aa][bb]N[keep]))\n(;W[ce][too much values]WL[x];B[90])",
    b"( GM[1]SZ[12] FF[4]\n;B [aa] W[ab]\n;MA[aa][ab] MA[aa]; C[\\\\]XXXXXXXXXXXXXXXXXXXXXXX[long]\n;[aa][bb] illegal_chars ;\n(;FF[4](;C[var 1]) ;C[var 2]))",
    b"(;C[unterminated value\r\n\\",
    b"(;B[aa](;W[bb](;B[cc](;W[dd](;B[ee])))))()(;)(((;)))",
    b"(;SZ[19:13]C[\xe4\xb8\xad\xe6\x96\x87\xe4\xb8\xad\xe6\x96\x87\xe4\xb8\xad\xe6\x96\x87]\n;B[sa];W[am];B[tt])\r(;GM[2];B[dd]",
];

fn log_of(input: &[u8], cuts: &[usize], config: Config) -> EventLog {
    let mut log = EventLog::default();
    let mut p = Parser::with_config(config);
    let mut last = 0;
    for &c in cuts.iter().chain(std::iter::once(&input.len())) {
        let c = c.clamp(last, input.len());
        assert_eq!(p.feed(&input[last..c], &mut log), Status::NeedInput);
        last = c;
    }
    p.finish(&mut log);
    log
}

fn small_config() -> Config {
    // small limits so that value pieces, over-long values and identifiers and too-deep trees
    // occur in short inputs
    Config {
        max_ident_len: 8,
        max_value_piece: 8,
        max_value_len: 24,
        max_depth: 3,
    }
}

#[test]
fn byte_by_byte_equals_whole() {
    for config in [Config::default(), small_config()] {
        for input in CASES {
            let whole = log_of(input, &[], config);
            let cuts: Vec<usize> = (1..input.len()).collect();
            assert_eq!(
                log_of(input, &cuts, config),
                whole,
                "input {:?}",
                String::from_utf8_lossy(input)
            );
        }
    }
}

#[test]
fn every_two_way_split_equals_whole() {
    for config in [Config::default(), small_config()] {
        for input in CASES {
            let whole = log_of(input, &[], config);
            for cut in 0..=input.len() {
                assert_eq!(log_of(input, &[cut], config), whole, "cut at {cut}");
            }
        }
    }
}

/// Every one-cut split, and byte by byte, of a file, with the default and a small config.
fn any_split(rel: &str, input: &[u8]) {
    for config in [Config::default(), small_config()] {
        let whole = log_of(input, &[], config);
        for cut in 0..=input.len() {
            assert_eq!(log_of(input, &[cut], config), whole, "{rel}: cut at {cut}");
        }
        let cuts: Vec<usize> = (1..input.len()).collect();
        assert_eq!(log_of(input, &cuts, config), whole, "{rel}: byte by byte");
    }
}

#[test]
fn fixtures_any_split() {
    let rel = "seed-takemiya-cho-meijin-1996.sgf";
    any_split(&format!("tests/data/{rel}"), &kifu_testkit::data_file(rel));
}

#[test]
#[cfg_attr(not(kifu_shared), ignore = "needs ../shared (the corpus)")]
fn sgfc_test_sgf_any_split() {
    let rel = "corpus/sgf/small/sgfc/test.sgf";
    any_split(rel, &kifu_testkit::shared_file(rel));
}

fn arb_sgfish() -> impl Strategy<Value = Vec<u8>> {
    // random sequences of SGF-ish pieces, including broken ones
    let piece = prop_oneof![
        Just(&b"(;"[..]),
        Just(&b"("[..]),
        Just(&b")"[..]),
        Just(&b";"[..]),
        Just(&b"B[pd]"[..]),
        Just(&b"W[]"[..]),
        Just(&b"AB[aa:cc][dd]"[..]),
        Just(&b"SZ[9]"[..]),
        Just(&b"C[a\\]b\\\\]"[..]),
        Just(&b"C[long comment that needs pieces \xc3\xa9\\\r\n]"[..]),
        Just(&b"["[..]),
        Just(&b"]"[..]),
        Just(&b"\\"[..]),
        Just(&b"AddWhite"[..]),
        Just(&b"lower"[..]),
        Just(&b" "[..]),
        Just(&b"\r\n"[..]),
        Just(&b"\r"[..]),
        Just(&b"\xef\xbb\xbf"[..]),
        Just(&b"junk_"[..]),
        Just(&b"\xff\x00"[..]),
        Just(&b"()"[..]),
    ];
    proptest::collection::vec(piece, 0..40).prop_map(|v| v.concat())
}

struct GameInfo(usize);

impl sgf::Visitor for GameInfo {
    fn on_node_end(&mut self, ctx: &sgf::Context) -> kifu::Control {
        if ctx.depth == 0 && ctx.node == 0 {
            kifu::Control::Skip
        } else {
            kifu::Control::Continue
        }
    }
    fn on_tree_end(&mut self, ctx: &sgf::Context) -> kifu::Control {
        if ctx.depth == 0 {
            self.0 += 1;
        }
        kifu::Control::Continue
    }
}

proptest! {
    // 256 cases in CI; PROPTEST_CASES=100000 for a long run
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(256),
        ..ProptestConfig::default()
    })]

    #[test]
    fn random_splits_give_identical_events(
        input in arb_sgfish(),
        cuts in proptest::collection::vec(any::<proptest::sample::Index>(), 0..12),
        small in any::<bool>(),
    ) {
        let config = if small { small_config() } else { Config::default() };
        let mut cuts: Vec<usize> = cuts.iter().map(|i| i.index(input.len() + 1)).collect();
        cuts.sort();
        let whole = log_of(&input, &[], config);
        prop_assert_eq!(log_of(&input, &cuts, config), whole.clone());
        let mut direct = EventLog::default();
        let _ = Parser::with_config(config).parse(&input, &mut direct);
        prop_assert_eq!(&direct, &whole);
        // a root-only scan finds the same game trees
        let mut r = GameInfo(0);
        let _ = Parser::with_config(config).parse(&input, &mut r);
        prop_assert_eq!(r.0, whole.games());
    }

    #[test]
    fn random_bytes_never_panic(input in proptest::collection::vec(any::<u8>(), 0..512), cut in any::<proptest::sample::Index>()) {
        let c = cut.index(input.len() + 1);
        let a = log_of(&input, &[c], small_config());
        let b = log_of(&input, &[], small_config());
        prop_assert_eq!(a, b);
        let mut log = EventLog::default();
        let _ = sgf::parse(&input, &mut log);
    }
}

/// Found by the `sgf_chunks` fuzz target: an empty `()` beyond the depth limit left the parser
/// after a variation (so the next `;` opened an implicit tree) where the skip scanner of a
/// root-only reader saw a node still open; the two then disagreed on where the game ended.
#[test]
fn root_only_agrees_with_full_reading_past_the_depth_limit() {
    for input in [&b"(;(W();))(;"[..], b"(;(;B[aa]()C[x]))(;B[bb])"] {
        let config = Config {
            max_depth: 1,
            ..Config::default()
        };
        let whole = log_of(input, &[], config);
        let mut r = GameInfo(0);
        let _ = Parser::with_config(config).parse(input, &mut r);
        assert_eq!(
            r.0,
            whole.games(),
            "input {:?}",
            String::from_utf8_lossy(input)
        );
    }
}

/// Logs every event and answers `control` at the `at`-th one (counting from 0).
struct AnswerAt {
    log: EventLog,
    seen: usize,
    at: usize,
    control: kifu::Control,
}

impl AnswerAt {
    fn answer(&mut self, c: kifu::Control) -> kifu::Control {
        self.seen += 1;
        if self.seen - 1 == self.at {
            self.control
        } else {
            c
        }
    }
}

impl sgf::Visitor for AnswerAt {
    fn on_tree(&mut self, ctx: &sgf::Context) -> kifu::Control {
        let c = self.log.on_tree(ctx);
        self.answer(c)
    }
    fn on_tree_end(&mut self, ctx: &sgf::Context) -> kifu::Control {
        let c = self.log.on_tree_end(ctx);
        self.answer(c)
    }
    fn on_node(&mut self, ctx: &sgf::Context) -> kifu::Control {
        let c = self.log.on_node(ctx);
        self.answer(c)
    }
    fn on_node_end(&mut self, ctx: &sgf::Context) -> kifu::Control {
        let c = self.log.on_node_end(ctx);
        self.answer(c)
    }
    fn on_property(&mut self, ctx: &sgf::Context, prop: &sgf::Property<'_>) -> kifu::Control {
        let c = self.log.on_property(ctx, prop);
        self.answer(c)
    }
    fn on_value(&mut self, ctx: &sgf::Context, value: &sgf::Value<'_>) -> kifu::Control {
        let c = self.log.on_value(ctx, value);
        self.answer(c)
    }
    fn on_move(&mut self, ctx: &sgf::Context, mv: &sgf::Move<'_>) -> kifu::Control {
        let c = self.log.on_move(ctx, mv);
        self.answer(c)
    }
    fn on_comment(&mut self, ctx: &sgf::Context, comment: &sgf::Comment<'_>) -> kifu::Control {
        let c = self.log.on_comment(ctx, comment);
        self.answer(c)
    }
    fn on_error(&mut self, error: &sgf::Error<'_>) -> kifu::Control {
        let c = self.log.on_error(error);
        self.answer(c)
    }
}

/// The events of `input` fed in chunks of `chunk` bytes, resumed after each stop, with
/// `control` answered at the `at`-th event.
fn answered_log(
    input: &[u8],
    chunk: usize,
    at: usize,
    control: kifu::Control,
    config: Config,
) -> EventLog {
    let mut v = AnswerAt {
        log: EventLog::default(),
        seen: 0,
        at,
        control,
    };
    let mut p = Parser::with_config(config);
    for piece in input.chunks(chunk) {
        let mut rest = piece;
        while let Status::Stopped { consumed } = p.feed(rest, &mut v) {
            rest = &rest[consumed..];
        }
    }
    p.finish(&mut v);
    v.log
}

/// A node that is a move and nothing else (`;B[pd]`) is read whole when its bytes are at
/// hand; fed a byte at a time it goes through the general path. Both give the same events,
/// errors and positions, whichever answer a visitor gives at whichever event: the cases of
/// the general path that the whole read must leave to it (a move at the root, off the board,
/// `tt`, another game, what follows the move in its node) included.
#[test]
fn a_move_node_read_whole_gives_the_events_of_the_general_path() {
    let inputs: &[&[u8]] = &[
        b"(;GM[1]SZ[19];B[pd];W[dp]\n;B[tt];W[zz];B[pp]B[dd];W[aa][bb];B[cc]W[dd];W[ee]AB[ff];B[ab]C[x])",
        b"(;B[aa];W[bb](;B[cc];W[sa])(;B[dd]\r\n;W[ee]))",
        b"(;SZ[9];B[ii];W[jj];B[tt];W[ss])",
        b"(;GM[2];B[aa];W[bb])(;FF[3];B[tt];W[])",
        b"(;SZ[19:13]\n;B[sm];W[am];B[an])",
        b"(;C[x];B[aa]BM[1];W[bb]N[n]\n;B[cc]LB[aa:x]",
        // letters past `s` are points on a board over 19 (`tt` too), off a smaller one
        b"(;SZ[25];B[tt];W[yy];B[zz];W[ss])(;SZ[52];B[zz];W[tt])",
        // nesting past a small depth limit, skipped
        b"(;B[aa](;W[bb](;B[cc](;W[dd](;B[ee];W[ff])))))",
    ];
    let small = Config {
        max_ident_len: 8,
        max_value_piece: 8,
        max_value_len: 8,
        max_depth: 2,
    };
    let controls = [
        kifu::Control::Skip,
        kifu::Control::SkipGame,
        kifu::Control::Stop,
    ];
    for input in inputs {
        for config in [Config::default(), small] {
            let log = |chunk, at, control| answered_log(input, chunk, at, control, config);
            let events = log(input.len(), usize::MAX, kifu::Control::Continue);
            assert_eq!(events, log(1, usize::MAX, kifu::Control::Continue));
            for at in 0..events.events.len() {
                for control in controls {
                    assert_eq!(
                        log(input.len(), at, control),
                        log(1, at, control),
                        "{} with {control:?} at event {at}, {config:?}",
                        String::from_utf8_lossy(input)
                    );
                }
            }
        }
    }
}
