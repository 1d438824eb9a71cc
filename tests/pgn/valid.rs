//! Valid PGN survives: games generated as DOMs, made text (by `pgn::Writer`, and by the
//! generator's own spacing), read back by the push parser in chunks of random sizes with default
//! and with small limits, come back as the same `Game`, and the reading reports nothing, not even
//! a warning.
//!
//! The generator (`kifu_testkit::valid_gen`, shared with the fuzz targets `pgn_valid` and
//! `sgf_valid`) turns a byte string into games; proptest shrinks the bytes, so a failure ends
//! at a small game. 256 cases per property by default; `PROPTEST_CASES=20000` for a long run.

use kifu_testkit::valid_gen::prop::{arb_bytes, arb_lens, cases, ok};
use kifu_testkit::valid_gen::{self, PgnMode};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    /// Valid PGN text, spaced in any way the standard allows (`1.e4`, `e4{c}`, `(e4)`, `e4$1`,
    /// `e4!?`, line breaks LF or CRLF, `;` comments) and with comments kept exactly (lines in
    /// them that look like tag pairs, `%` at the start of a line, results, move numbers), reads
    /// as the game it was made from, `==`, without any diagnostic, whatever the chunks and
    /// limits.
    #[test]
    fn pgn_valid_text_reads_as_the_game_it_holds(
        bytes in arb_bytes(), lens in arb_lens(), small in any::<bool>()
    ) {
        ok(valid_gen::pgn_round_trip(&bytes, &lens, PgnMode::OwnText, small))?;
    }

    /// Written with exact comments (`wrap_comments(false)`), a game reads back `==` the one
    /// written (tags, moves, NAGs, comments byte for byte, variations, result, index, offset),
    /// without any diagnostic, whatever the chunks.
    #[test]
    fn pgn_exact_writer_round_trip_is_identity(bytes in arb_bytes(), lens in arb_lens()) {
        ok(valid_gen::pgn_round_trip(&bytes, &lens, PgnMode::Exact, false))?;
    }

    /// Written in the export format (comments laid out over lines), a game reads back with the
    /// same content (`Game::same_content`: comments up to white space), without any diagnostic,
    /// whatever the chunks.
    #[test]
    fn pgn_export_format_round_trip_keeps_content(bytes in arb_bytes(), lens in arb_lens()) {
        ok(valid_gen::pgn_round_trip(&bytes, &lens, PgnMode::Export, false))?;
    }

    /// Small limits that the writer's text still fits (comment pieces of 8..=64 bytes, tokens of
    /// 32..=64 bytes or the longest tag line, nesting as deep as the game's) read it as the
    /// defaults do: the same games, no diagnostic, whatever the chunks.
    #[test]
    fn pgn_small_limits_read_valid_games_alike(
        bytes in arb_bytes(), lens in arb_lens(), exact in any::<bool>()
    ) {
        let mode = if exact { PgnMode::Exact } else { PgnMode::Export };
        ok(valid_gen::pgn_round_trip(&bytes, &lens, mode, true))?;
    }
}
