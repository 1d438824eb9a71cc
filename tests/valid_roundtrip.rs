//! Valid input survives: games generated as DOMs, written with the project's writers and read
//! back by the push parsers (in chunks of random sizes, with default and with small limits),
//! come back as the same DOM, and the reading reports nothing, not even a warning.
//!
//! The generator (`tests/valid_gen/mod.rs`, shared with the fuzz targets `pgn_valid` and
//! `sgf_valid`) turns a byte string into games; proptest shrinks the bytes, so a failure ends
//! at a small game. 256 cases per property by default; `PROPTEST_CASES=20000` for a long run.

mod valid_gen;

use kifu::Status;
use kifu::pgn::{self, Game, GameBuilder};
use kifu::sgf::{self, GameTree, Scope, TreeBuilder};
use proptest::prelude::*;
use valid_gen::{PgnLimits, SgfLimits, Source};

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(256)
}

/// `input` cut into chunks of the given lengths, in turn (0 feeds an empty chunk; all zero
/// means 1).
fn chunks<'a>(input: &'a [u8], lens: &[usize]) -> Vec<&'a [u8]> {
    let lens: Vec<usize> = if lens.iter().all(|&l| l == 0) {
        vec![1]
    } else {
        lens.to_vec()
    };
    let mut out = Vec::new();
    let mut at = 0;
    for &len in lens.iter().cycle() {
        if at >= input.len() {
            break;
        }
        let end = (at + len).min(input.len());
        out.push(&input[at..end]);
        at = end;
    }
    out
}

/// Chunk lengths: byte by byte, or a few lengths from 1 up, used in turn.
fn arb_lens() -> impl Strategy<Value = Vec<usize>> {
    prop_oneof![
        Just(vec![1]),
        proptest::collection::vec(1usize..=8, 1..6),
        proptest::collection::vec(1usize..=300, 1..6),
    ]
}

fn arb_bytes() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(any::<u8>(), 0..1500)
}

// ----- PGN --------------------------------------------------------------------------------

/// Games generated from `src`, written by `w`, each with the index and offset a reader gives
/// it; and the text.
fn pgn_games(src: &mut Source<'_>, w: pgn::Writer) -> (Vec<Game>, String) {
    let n = 1 + src.below(3);
    let mut text = String::new();
    let mut games = Vec::new();
    for i in 0..n {
        let mut g = valid_gen::pgn_game(src, &PgnLimits::default());
        g.index = i as u64;
        g.offset = text.len() as u64;
        w.write_to_string(&g, &mut text);
        games.push(g);
    }
    (games, text)
}

fn read_pgn(input: &[u8], lens: &[usize], config: pgn::Config) -> Vec<Game> {
    let mut b = GameBuilder::new();
    let mut p = pgn::Parser::with_config(config);
    for c in chunks(input, lens) {
        assert_eq!(p.feed(c, &mut b), Status::NeedInput);
    }
    p.finish(&mut b);
    b.take_games()
}

/// Small limits that the text still fits: `max_comment_piece` 8..=64, `max_token_len` 32..=64
/// or the longest tag line, `max_depth` the deepest nesting of the games.
fn pgn_small_config(src: &mut Source<'_>, games: &[Game], text: &str) -> pgn::Config {
    let longest_tag = text
        .lines()
        .filter(|l| l.starts_with('['))
        .map(str::len)
        .max()
        .unwrap_or(0);
    let depth = games
        .iter()
        .map(|g| valid_gen::pgn_depth(&g.moves))
        .max()
        .unwrap_or(0);
    pgn::Config {
        max_token_len: (32 + src.below(33)).max(longest_tag),
        max_comment_piece: 8 + src.below(57),
        max_depth: depth.max(1) as u32,
    }
}

fn errors_of(games: &[Game]) -> Vec<String> {
    games
        .iter()
        .flat_map(|g| g.errors.iter().map(|e| format!("game {}: {e}", g.index)))
        .collect()
}

/// The rule of a writer: exact comments read back `==`; laid-out comments read back with
/// [`Game::same_content`] (white space in comments may change), and with the same index and
/// offset.
fn check_pgn(exact: bool, games: &[Game], back: &[Game], text: &str) -> Result<(), TestCaseError> {
    let errors = errors_of(back);
    prop_assert!(
        errors.is_empty(),
        "diagnostics reading valid PGN: {errors:#?}\n--- text:\n{text}"
    );
    prop_assert_eq!(
        back.len(),
        games.len(),
        "games read back\n--- text:\n{}",
        text
    );
    for (g, b) in games.iter().zip(back) {
        if exact {
            prop_assert_eq!(g, b, "--- text:\n{}", text);
        } else {
            prop_assert!(
                g.same_content(b) && (g.index, g.offset) == (b.index, b.offset),
                "not the same content:\n{g:#?}\n--- read back:\n{b:#?}\n--- text:\n{text}"
            );
        }
    }
    Ok(())
}

fn pgn_case(bytes: &[u8], lens: &[usize], exact: bool, small: bool) -> Result<(), TestCaseError> {
    let mut src = Source::new(bytes);
    let w = valid_gen::pgn_writer(&mut src, exact);
    let (games, text) = pgn_games(&mut src, w);
    let config = if small {
        pgn_small_config(&mut src, &games, &text)
    } else {
        pgn::Config::default()
    };
    let back = read_pgn(text.as_bytes(), lens, config);
    check_pgn(exact, &games, &back, &text)
}

/// Games generated from `src` as PGN text of the generator's own making
/// ([`valid_gen::pgn_text`]: any white space, none where a token delimits itself, comment lines
/// that look like tag pairs left as they are), read back with default or small limits.
fn pgn_text_case(bytes: &[u8], lens: &[usize], small: bool) -> Result<(), TestCaseError> {
    let mut src = Source::new(bytes);
    let n = 1 + src.below(3);
    let mut text = String::new();
    let mut games = Vec::new();
    for i in 0..n {
        let mut g = valid_gen::pgn_game(&mut src, &PgnLimits::default());
        g.index = i as u64;
        g.offset = text.len() as u64;
        valid_gen::pgn_text(&mut src, &g, &mut text);
        games.push(g);
    }
    let config = if small {
        pgn_small_config(&mut src, &games, &text)
    } else {
        pgn::Config::default()
    };
    let back = read_pgn(text.as_bytes(), lens, config);
    check_pgn(true, &games, &back, &text)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    /// Valid PGN text, spaced in any way the standard allows (`1.e4`, `e4{c}`, `(e4)`, `e4$1`,
    /// line breaks LF or CRLF, `;` comments) and with comments kept exactly (lines in them that
    /// look like tag pairs, `%` at the start of a line, results, move numbers), reads as the
    /// game it was made from, `==`, without any diagnostic, whatever the chunks and limits.
    #[test]
    fn pgn_valid_text_reads_as_the_game_it_holds(
        bytes in arb_bytes(), lens in arb_lens(), small in any::<bool>()
    ) {
        pgn_text_case(&bytes, &lens, small)?;
    }

    /// Written with exact comments (`wrap_comments(false)`), a game reads back `==` the one
    /// written (tags, moves, NAGs, comments byte for byte, variations, result, index, offset),
    /// without any diagnostic, whatever the chunks.
    #[test]
    fn pgn_exact_writer_round_trip_is_identity(bytes in arb_bytes(), lens in arb_lens()) {
        pgn_case(&bytes, &lens, true, false)?;
    }

    /// Written in the export format (comments laid out over lines), a game reads back with the
    /// same content (`Game::same_content`: comments up to white space), without any diagnostic,
    /// whatever the chunks.
    #[test]
    fn pgn_export_format_round_trip_keeps_content(bytes in arb_bytes(), lens in arb_lens()) {
        pgn_case(&bytes, &lens, false, false)?;
    }

    /// Small limits that valid text still fits (comment pieces of 8..=64 bytes, tokens of
    /// 32..=64 bytes or the longest tag line, nesting as deep as the game's) read it as the
    /// defaults do: the same games, no diagnostic, whatever the chunks.
    #[test]
    fn pgn_small_limits_read_valid_games_alike(
        bytes in arb_bytes(), lens in arb_lens(), exact in any::<bool>()
    ) {
        pgn_case(&bytes, &lens, exact, true)?;
    }
}

// ----- SGF --------------------------------------------------------------------------------

/// Trees generated from `src`, written by `w` one after the other; and the bytes.
fn sgf_trees(src: &mut Source<'_>, w: sgf::Writer) -> (Vec<GameTree>, Vec<u8>) {
    let n = 1 + src.below(3);
    let mut out = Vec::new();
    let mut trees = Vec::new();
    for _ in 0..n {
        let t = valid_gen::sgf_tree(src, &SgfLimits::default());
        w.write_to_vec(&t, &mut out);
        trees.push(t);
    }
    (trees, out)
}

fn read_sgf(input: &[u8], lens: &[usize], config: sgf::Config) -> Vec<GameTree> {
    let mut b = TreeBuilder::new(Scope::Full);
    let mut p = sgf::Parser::with_config(config);
    for c in chunks(input, lens) {
        assert_eq!(p.feed(c, &mut b), Status::NeedInput);
    }
    p.finish(&mut b);
    b.into_trees()
}

/// Small limits that the trees still fit: value pieces of 8..=64 bytes, values as long as the
/// longest, nesting as deep as the trees'.
fn sgf_small_config(src: &mut Source<'_>, trees: &[GameTree]) -> sgf::Config {
    let piece = 8 + src.below(57);
    let longest = trees
        .iter()
        .map(valid_gen::sgf_longest_value)
        .max()
        .unwrap_or(0);
    let depth = trees.iter().map(valid_gen::sgf_depth).max().unwrap_or(0);
    sgf::Config {
        max_ident_len: 8 + src.below(8),
        max_value_piece: piece,
        max_value_len: longest.max(piece) as u64,
        max_depth: depth.max(1) as u32,
    }
}

fn sgf_case(bytes: &[u8], lens: &[usize], small: bool) -> Result<(), TestCaseError> {
    let mut src = Source::new(bytes);
    let w = valid_gen::sgf_writer(&mut src);
    let (trees, out) = sgf_trees(&mut src, w);
    let config = if small {
        sgf_small_config(&mut src, &trees)
    } else {
        sgf::Config::default()
    };
    let back = read_sgf(&out, lens, config);
    let text = String::from_utf8_lossy(&out);
    let errors: Vec<String> = back
        .iter()
        .flat_map(|t| {
            t.errors()
                .iter()
                .map(|e| format!("tree {}: {e}", t.index()))
        })
        .collect();
    prop_assert!(
        errors.is_empty(),
        "diagnostics reading valid SGF: {errors:#?}\n--- text:\n{text}"
    );
    prop_assert_eq!(
        back.len(),
        trees.len(),
        "trees read back\n--- text:\n{}",
        text
    );
    for (i, (t, b)) in trees.iter().zip(&back).enumerate() {
        prop_assert!(
            t == b,
            "tree {i} differs\n--- written:\n{t}\n--- read back:\n{b}\n--- text:\n{text}"
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    /// A game tree written by `sgf::Writer` (any layout) reads back equal (structure,
    /// identifiers, values), without any diagnostic, whatever the chunks.
    #[test]
    fn sgf_written_trees_read_back_equal(bytes in arb_bytes(), lens in arb_lens()) {
        sgf_case(&bytes, &lens, false)?;
    }

    /// Small limits that valid trees still fit (value pieces of 8..=64 bytes, values as long as
    /// the longest, nesting as deep as the trees') read them as the defaults do.
    #[test]
    fn sgf_small_limits_read_valid_trees_alike(bytes in arb_bytes(), lens in arb_lens()) {
        sgf_case(&bytes, &lens, true)?;
    }
}
