//! The chunking property: whatever the chunk boundaries, the events are the same.

use kifu::Status;
use kifu::pgn::{self, Config, EventLog, Parser};
use proptest::prelude::*;

/// Inputs that put tokens, comments, CRLF, UTF-8 and structure at awkward places.
const CASES: &[&[u8]] = &[
    b"[Event \"a \\\"b\\\" c\"]\r\n[White \"Caf\xc3\xa9\"]\r\n\r\n1. e4 {\xc3\xa9t\xc3\xa9 long comment} e5 2. Nf3!? $14 (2. f4 exf4 (2... d5)) Nc6 1-0\r\n",
    b"\xef\xbb\xbf[Event \"x\"]\n1. d4 ; rest of line\n% escape\n1... d5 2 . c4 oh? the end }\n*\n\xef\xbb\xbf[Event \"y\"]\n1. e4 \xc2\xbd-\xc2\xbd",
    b"1. e4 e5 {unterminated comment\n[Event \"next\"]\n1. d4 *",
    b"1. e4 ((((( e5 ))))) ) $256 $ Z0 -- 0-0 0-0-0+ e8=Q# 12. 1/2-1/2\r2. Nf3\r[Event \"cr\"]\r1. c4 1-0",
    b"[Event \"The \"Big\" Open\"]\n[Site \"C:\\\"]\n[Bad tag]\n[Unterminated \"x\n\n1. e4 {",
    b"{pre-game comment}\n\n[Event \"x\"]\n\n{before move 1}\n1. e4 e5 1-0 {after the result}\n\n1. d4",
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
    // small limits so that comment pieces and over-long tokens occur in short inputs
    Config {
        max_token_len: 32,
        max_comment_piece: 8,
        max_depth: 3,
        comment_lookahead: 24,
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

#[test]
fn seed_fixture_any_split() {
    let input = kifu_testkit::data_file("seed-kasparov-kramnik-2001.pgn");
    for config in [Config::default(), small_config()] {
        let whole = log_of(&input, &[], config);
        for cut in 0..=input.len() {
            assert_eq!(log_of(&input, &[cut], config), whole, "cut at {cut}");
        }
        let cuts: Vec<usize> = (1..input.len()).collect();
        assert_eq!(log_of(&input, &cuts, config), whole);
    }
}

fn arb_pgnish() -> impl Strategy<Value = Vec<u8>> {
    // random sequences of PGN-ish pieces, including broken ones
    let piece = prop_oneof![
        Just(&b"[Event \"x\"]\n"[..]),
        Just(&b"[A \"q\\\"q\"]"[..]),
        Just(&b"1. "[..]),
        Just(&b"12... "[..]),
        Just(&b"e4 "[..]),
        Just(&b"Nbxd7+!? "[..]),
        Just(&b"O-O-O "[..]),
        Just(&b"{c\xc3\xa9 }"[..]),
        Just(&b"{"[..]),
        Just(&b"}"[..]),
        Just(&b"; line\n"[..]),
        Just(&b"\n% esc\n"[..]),
        Just(&b"("[..]),
        Just(&b")"[..]),
        Just(&b"$12 "[..]),
        Just(&b"$999"[..]),
        Just(&b"1-0\n\n"[..]),
        Just(&b"*"[..]),
        Just(&b"\r\n"[..]),
        Just(&b"\r"[..]),
        Just(&b"\xef\xbb\xbf"[..]),
        Just(&b"garbage "[..]),
        Just(&b"\xff\xfe"[..]),
        Just(&b"[Event \"unterminated\n"[..]),
    ];
    proptest::collection::vec(piece, 0..40).prop_map(|v| v.concat())
}

proptest! {
    // 256 cases in CI; PROPTEST_CASES=100000 for a long run
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(256),
        ..ProptestConfig::default()
    })]

    #[test]
    fn random_splits_give_identical_events(
        input in arb_pgnish(),
        cuts in proptest::collection::vec(any::<proptest::sample::Index>(), 0..12),
        small in any::<bool>(),
    ) {
        let config = if small { small_config() } else { Config::default() };
        let mut cuts: Vec<usize> = cuts.iter().map(|i| i.index(input.len() + 1)).collect();
        cuts.sort();
        let whole = log_of(&input, &[], config);
        prop_assert_eq!(log_of(&input, &cuts, config), whole.clone());
        // and the slice entry point agrees
        let mut direct = EventLog::default();
        let _ = Parser::with_config(config).parse(&input, &mut direct);
        prop_assert_eq!(&direct, &whole);
        // and skipping every movetext finds the same games
        let mut h = HeadersOnly(0);
        let _ = Parser::with_config(config).parse(&input, &mut h);
        prop_assert_eq!(h.0, whole.games());
    }

    #[test]
    fn random_bytes_never_panic(input in proptest::collection::vec(any::<u8>(), 0..512), cut in any::<proptest::sample::Index>()) {
        let c = cut.index(input.len() + 1);
        let a = log_of(&input, &[c], small_config());
        let b = log_of(&input, &[], small_config());
        prop_assert_eq!(a, b);
        let mut log = EventLog::default();
        let _ = pgn::parse(&input, &mut log);
    }
}

/// Inputs found by the fuzzers (fuzz/), each with the configuration and chunking that broke it.
#[test]
fn fuzz_regressions() {
    let small = small_config();
    let cases: &[(&[u8], Config, &[usize])] = &[
        // A: a run of digits longer than the carry-over buffer, split after its first byte
        (
            b"777777777777777777777777777777777777777777777777777777777 e4 *\n",
            small,
            &[1],
        ),
        // B: an unclosed `{`, then a line opening `[` with a name longer than the limit
        (
            b"{\n[ccccccccccccccccccccccccccccccccccccccccccccccccccccccc\"v\"]\n1. d4 *",
            small,
            &[1],
        ),
        // C: `$*` is a bad NAG, not a result, also for the skipping scanner
        (b"1. e4 $* e5", Config::default(), &[]),
        (b"e4 $1-0 e5", Config::default(), &[]),
        // D: an over-long NAG cut at a chunk boundary
        (b"1. e4 $000000000000000000000000000000005 *", small, &[39]),
        // E: an over-long word inside a skipped (too deep) variation, cut by chunk ends, must
        // not count as text before the next move number (which the whole input reports as bad)
        (
            b"((aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa)0",
            Config {
                max_depth: 1,
                ..small
            },
            &[1, 2, 3],
        ),
        // F: two tag pairs on one line, read whole by the 64-byte tag-line reader: the second
        // is on the first's line (it was put on the next)
        (
            b"[BlackFideId \"309095\"][ECO \"B38\"]\n[Opening \"Sicilian\"]\n\n1. e4 c5 2. Nf3 d6 *\n",
            Config::default(),
            &[7],
        ),
    ];
    for &(input, config, cuts) in cases {
        let whole = log_of(input, &[], config);
        assert_eq!(
            log_of(input, cuts, config),
            whole,
            "{:?}",
            String::from_utf8_lossy(input)
        );
        let every: Vec<usize> = (1..input.len()).collect();
        assert_eq!(log_of(input, &every, config), whole);
        // skipping every movetext finds the same games
        let mut h = HeadersOnly(0);
        let mut p = Parser::with_config(config);
        let _ = p.parse(input, &mut h);
        assert_eq!(h.0, whole.games(), "{:?}", String::from_utf8_lossy(input));
    }
}

struct HeadersOnly(usize);

impl kifu::pgn::Visitor for HeadersOnly {
    fn on_tags_end(&mut self, _: &kifu::pgn::Context) -> kifu::Control {
        kifu::Control::Skip
    }
    fn on_tree_end(&mut self, ctx: &kifu::pgn::Context) -> kifu::Control {
        if ctx.depth == 0 {
            self.0 += 1;
        }
        kifu::Control::Continue
    }
}
