//! Property: whatever the thread count, buffer size, frame or member size and read size, the
//! bytes handed over are the original bytes.

mod common;

use std::sync::OnceLock;

use common::*;
use kifu_input::{Options, Progress, for_each_in_reader};
use proptest::prelude::*;

fn data() -> &'static [u8] {
    static D: OnceLock<Vec<u8>> = OnceLock::new();
    D.get_or_init(|| big_pgn(120_000))
}

fn encode(kind: u8, data: &[u8], unit: usize) -> Vec<u8> {
    match kind {
        0 => data.to_vec(),
        1 => pzstd(data, unit),
        2 => zstd_frames(data, unit),
        3 => gzip_members(data, unit),
        4 => bzip2_streams(data, unit.max(5_000)),
        5 => xz_streams(data, unit.max(5_000)),
        _ => tar(&[
            ("a.pgn", data),
            ("b.txt", b"x"),
            ("c.pgn", &data[..unit.min(data.len())]),
        ]),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn same_bytes_whatever_the_chunking(
        kind in 0u8..7,
        len in 0usize..120_000,
        unit in 1usize..40_000,
        threads in 1usize..5,
        buffer in 1usize..200_000,
        frame_buffer in 1usize..100_000,
        read in 1usize..20_000,
        trickle in prop_oneof![Just(usize::MAX), 1usize..5_000],
    ) {
        let data = &data()[..len];
        let bytes = encode(kind, data, unit);
        let opts = Options { threads, buffer_size: buffer, frame_buffer, ..Options::default() };
        let mut got = Vec::new();
        let r = for_each_in_reader(
            "-",
            Trickle(std::io::Cursor::new(bytes), trickle),
            &opts,
            &Progress::new(),
            |e| take(e, read, &mut got),
        );
        prop_assert!(r.is_clean(), "{:?}", errors(&r));
        if kind == 6 {
            prop_assert_eq!(got.len(), 2);
            prop_assert!(got[0].bytes == data);
            prop_assert!(got[1].bytes == data[..unit.min(len)]);
        } else {
            prop_assert_eq!(got.len(), 1);
            prop_assert!(got[0].bytes == data);
        }
    }
}
