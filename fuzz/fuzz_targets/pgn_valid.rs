//! Valid PGN survives, under a fuzzer: the generator of `tests/pgn/valid.rs`
//! (`kifu_testkit::valid_gen`), driven by the fuzz input, makes 1 to 3 valid games; they are
//! made text (the generator's own spacing, or `pgn::Writer`), read back in the chunks the input
//! says, and must come back as the games written, without any diagnostic.
//!
//! Input layout (bytes past the end read as 0):
//!
//! | byte | meaning |
//! |---|---|
//! | 0 | bit 0 set: small limits (fitted to the text, see `valid_gen::pgn_small_config`); bits 1-2: 0 or 3 the generator's own text (read back `==`), 1 `Writer` with exact comments (`==`), 2 `Writer` in the export format (`same_content`) |
//! | 1, 2 | unused |
//! | 3 | `k = 1 + b3 % 8`: how many chunk lengths follow |
//! | 4 .. 4+k | chunk lengths (0..=255, 0 feeds an empty chunk), used in turn, cycling; all zero means 1 |
//! | rest | the generator's choices |

#![no_main]

use kifu_fuzz::split_of;
use kifu_testkit::valid_gen;
use libfuzzer_sys::fuzz_target;
use valid_gen::PgnMode;

fuzz_target!(|data: &[u8]| {
    let b0 = data.first().copied().unwrap_or(0);
    let (lens, start) = split_of(data);
    let mode = match (b0 >> 1) & 3 {
        1 => PgnMode::Exact,
        2 => PgnMode::Export,
        _ => PgnMode::OwnText,
    };
    if let Err(e) = valid_gen::pgn_round_trip(&data[start..], &lens, mode, b0 & 1 == 1) {
        panic!("{mode:?}: {e}");
    }
});
