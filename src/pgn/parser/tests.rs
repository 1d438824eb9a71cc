//! The parser's own tests: skipping keeps games and positions.

use super::*;
use crate::pgn::visitor::Tag;
use alloc::vec::Vec;

/// What a headers-only reader sees: tag pairs and game ends, with their positions.
#[derive(Default, PartialEq, Eq, Debug)]
struct Tags {
    log: Vec<(u64, Position, Vec<u8>, Vec<u8>)>,
    skip: bool,
}

impl Visitor for Tags {
    fn on_property(&mut self, ctx: &Context, tag: &Tag<'_>) -> Control {
        self.log
            .push((ctx.game, ctx.pos, tag.name.to_vec(), tag.value.0.to_vec()));
        Control::Continue
    }
    fn on_tags_end(&mut self, _: &Context) -> Control {
        if self.skip {
            Control::Skip
        } else {
            Control::Continue
        }
    }
    fn on_tree_end(&mut self, ctx: &Context) -> Control {
        if ctx.depth == 0 {
            self.log.push((ctx.game, ctx.pos, Vec::new(), Vec::new()));
        }
        Control::Continue
    }
}

fn tags_of(input: &[u8], cut: usize, skip: bool) -> Vec<(u64, Position, Vec<u8>, Vec<u8>)> {
    let mut v = Tags {
        skip,
        ..Tags::default()
    };
    let mut p = Parser::new();
    assert_eq!(p.feed(&input[..cut], &mut v), Status::NeedInput);
    assert_eq!(p.feed(&input[cut..], &mut v), Status::NeedInput);
    p.finish(&mut v);
    v.log
}

/// Skipped movetext ends where visited movetext does, and counts its lines alike: the tags
/// and game ends of a headers-only pass are those of a full pass, positions included.
#[test]
fn skipping_keeps_games_and_positions() {
    let pieces: [&[u8]; 33] = [
        b"[Event \"x\"]\n",
        b"[WhiteFideId \"4102142\"][ECO \"B38\"]\n",
        b"[Round \"3\"] [Date \"?\"] {c}\n",
        b"[Site \"y\"]\r\n",
        b"[Site \"https://tests.stockfishchess.org/tests/view/62df67e48e4fa6ae4726677\"]\n",
        b"[White \"Alvarez Abejon, Amilcar\"]\r",
        b"[Event \"Tournament \\\"]\n",
        b"[Black \"M\xC3\xBCller\"] \n",
        b"[Round \"1\"]\n\n[Date \"?\"]\n",
        b"\n",
        b"\r\n",
        b"\r",
        b"1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 ",
        b"6. Re1 b5 7. Bb3 d6 8. c3 O-O-O\n9. h3 Nb8 10. d4 Nbd7 ",
        b"O-O ",
        b"1-0 ",
        b"0-1\n",
        b"1/2-1/2",
        b"\xC2\xBD-\xC2\xBD ",
        b"1\xE2\x80\x930 ",
        b"*",
        b"{ a comment\n over lines }",
        b"( 1... c5 2. Nf3 )",
        b"; rest of line\n",
        b"\n% escape\n",
        b"$1 $* ",
        b"Nbxd7+!? ",
        b"e4-e5 ",
        b"[%clk 0:01] ",
        b"{",
        b"garbage ",
        b"\t\x0b\x0c",
        b"1. d4 d5 2. c4 c6 3. Nc3 Nf6 4. e3 e6 5. Nf3 Nbd7 6. Qc2 Bd6 7. Bd3 O-O\n",
    ];
    // with the code for AVX2 (where the processor has it) and without
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    for baseline in [false, true] {
        crate::pgn::simd::tests::BASELINE.set(baseline);
        skipping_keeps_games_and_positions_with(&pieces);
        crate::pgn::simd::tests::BASELINE.set(false);
    }
    #[cfg(not(all(target_arch = "x86_64", feature = "std")))]
    skipping_keeps_games_and_positions_with(&pieces);
}

fn skipping_keeps_games_and_positions_with(pieces: &[&[u8]]) {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    for round in 0..1500 {
        let mut input = Vec::new();
        for _ in 0..(round % 40) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            input.extend_from_slice(pieces[(x % pieces.len() as u64) as usize]);
        }
        let whole = tags_of(&input, input.len(), false);
        for cut in [0, input.len() / 3, input.len() / 2, input.len()] {
            assert_eq!(
                tags_of(&input, cut, true),
                whole,
                "{:?} cut at {cut}",
                alloc::string::String::from_utf8_lossy(&input)
            );
        }
    }
}

/// Found by the fuzzer: a token longer than the carry-over buffer in a skipped variation,
/// fed byte by byte, marked "text since the move number" (so the next bad move number was
/// not reported) while the whole input jumped over it.
#[test]
fn long_tokens_in_skipped_text_do_not_depend_on_the_chunking() {
    let config = Config {
        max_token_len: 32,
        max_comment_piece: 8,
        max_depth: 1,
        ..Config::default()
    };
    let long = "9".repeat(40) + "x";
    for text in [
        alloc::format!("(()({long} \n))2"),
        alloc::format!("(()(${long} \n))2"),
        alloc::format!("1. e4 ({long} 1-0) 5. d4"),
    ] {
        let input = text.as_bytes();
        let log = |step: usize| {
            let mut log = crate::pgn::EventLog::default();
            let mut p = Parser::with_config(config);
            for chunk in input.chunks(step) {
                assert_eq!(p.feed(chunk, &mut log), Status::NeedInput);
            }
            p.finish(&mut log);
            log
        };
        let whole = log(input.len());
        for step in [1, 2, 3, 7, 33] {
            assert_eq!(log(step), whole, "{text} in chunks of {step}");
        }
    }
}

/// The same over the corpus, when `../shared` is there.
#[cfg(feature = "std")]
#[test]
#[cfg_attr(not(kifu_shared), ignore = "needs ../shared (the corpus)")]
fn skipping_keeps_games_and_positions_on_the_corpus() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/pgn");
    let Ok(dirs) = std::fs::read_dir(root.join("small")) else {
        return;
    };
    let mut stack: Vec<_> = dirs.flatten().map(|e| e.path()).collect();
    stack.push(root.join("large/notnil-chess-history"));
    let mut files = 0;
    while let Some(path) = stack.pop() {
        if path.is_dir() {
            stack.extend(
                std::fs::read_dir(&path)
                    .unwrap()
                    .flatten()
                    .map(|e| e.path()),
            );
            continue;
        }
        if !path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("pgn"))
        {
            continue;
        }
        let input = std::fs::read(&path).unwrap();
        let whole = tags_of(&input, input.len(), false);
        assert_eq!(tags_of(&input, input.len() / 2, true), whole, "{path:?}");
        // and without the code for AVX2
        #[cfg(target_arch = "x86_64")]
        {
            crate::pgn::simd::tests::BASELINE.set(true);
            assert_eq!(tags_of(&input, input.len() / 3, true), whole, "{path:?}");
            assert_eq!(tags_of(&input, input.len(), false), whole, "{path:?}");
            crate::pgn::simd::tests::BASELINE.set(false);
        }
        files += 1;
    }
    assert!(files > 100);
}

#[test]
fn on_end_comes_once_after_the_last_game() {
    #[derive(Default)]
    struct Ends {
        games: u32,
        ends: Vec<u32>,
    }
    impl Visitor for Ends {
        fn on_tree_end(&mut self, ctx: &Context) -> Control {
            if ctx.is_main_line() {
                self.games += 1;
            }
            Control::Continue
        }
        fn on_end(&mut self) {
            self.ends.push(self.games);
        }
    }
    let mut v = Ends::default();
    crate::pgn::parse(b"1. e4 e5 1-0\n\n1. d4 (1. c4) d5 *", &mut v);
    assert_eq!(v.ends, [2]);
    let mut v = Ends::default();
    crate::pgn::parse(b"", &mut v);
    assert_eq!(v.ends, [0]);
}
