//! Valid SGF survives, under a fuzzer: the generator of `tests/sgf/valid.rs`
//! (`kifu_testkit::valid_gen`), driven by the fuzz input, makes 1 to 3 valid game trees; they
//! are written by `sgf::Writer` (a layout the input picks), read back in the chunks the input
//! says, and must come back equal to the trees written, without any diagnostic.
//!
//! Input layout (bytes past the end read as 0):
//!
//! | byte | meaning |
//! |---|---|
//! | 0 | bit 0 set: small limits (fitted to the trees, see `valid_gen::sgf_small_config`) |
//! | 1, 2 | unused |
//! | 3 | `k = 1 + b3 % 8`: how many chunk lengths follow |
//! | 4 .. 4+k | chunk lengths (0..=255, 0 feeds an empty chunk), used in turn, cycling; all zero means 1 |
//! | rest | the generator's choices |

#![no_main]

use kifu_fuzz::split_of;
use kifu_testkit::valid_gen;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let small = data.first().is_some_and(|b| b & 1 == 1);
    let (lens, start) = split_of(data);
    if let Err(e) = valid_gen::sgf_round_trip(&data[start..], &lens, small) {
        panic!("{e}");
    }
});
