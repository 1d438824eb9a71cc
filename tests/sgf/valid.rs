//! Valid SGF survives: game trees generated as DOMs, written by `sgf::Writer`, read back by the
//! push parser in chunks of random sizes with default and with small limits, come back as the
//! same `GameTree`, and the reading reports nothing, not even a warning.
//!
//! The generator (`kifu_testkit::valid_gen`, shared with the fuzz targets `pgn_valid` and
//! `sgf_valid`) turns a byte string into game trees; proptest shrinks the bytes, so a failure
//! ends at a small tree. 256 cases per property by default; `PROPTEST_CASES=20000` for a long
//! run.

use kifu_testkit::valid_gen;
use kifu_testkit::valid_gen::prop::{arb_bytes, arb_lens, cases, ok};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    /// A game tree written by `sgf::Writer` (any layout) reads back equal (structure,
    /// identifiers, values), without any diagnostic, whatever the chunks.
    #[test]
    fn sgf_written_trees_read_back_equal(bytes in arb_bytes(), lens in arb_lens()) {
        ok(valid_gen::sgf_round_trip(&bytes, &lens, false))?;
    }

    /// Small limits that valid trees still fit (value pieces of 8..=64 bytes, values as long as
    /// the longest, nesting as deep as the trees') read them as the defaults do.
    #[test]
    fn sgf_small_limits_read_valid_trees_alike(bytes in arb_bytes(), lens in arb_lens()) {
        ok(valid_gen::sgf_round_trip(&bytes, &lens, true))?;
    }
}
