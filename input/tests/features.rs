//! A build without a decoder says so, for every input that needs it
//! (`cargo test -p kifu-input --no-default-features --test features`).

mod common;

use common::*;
use kifu_input::Compression;

#[test]
fn an_input_this_build_cannot_decode_is_a_clear_error() {
    let data = seed_pgn();
    for c in ALL {
        let (got, r) = read("-", compress(c, &data), 2);
        if c.is_supported() {
            assert!(r.is_clean());
            assert!(got[0].bytes == data);
        } else {
            assert!(got.is_empty());
            assert_eq!(
                errors(&r),
                [format!(
                    "-: {c} data, but built without {c} support (the `{c}` feature of kifu-input)"
                )]
            );
            // inside an archive too
            let t = tar(&[("a.pgn", &compress(c, &data))]);
            let (_, r) = read("x.tar", t, 1);
            if cfg!(feature = "tar") {
                assert_eq!(
                    errors(&r),
                    [format!(
                        "x.tar:a.pgn: {c} data, but built without {c} support (the `{c}` feature of kifu-input)"
                    )]
                );
            }
        }
    }
    if !cfg!(feature = "zip") {
        let (_, r) = read("x.zip", zip(&[("a.pgn", &data)]), 1);
        assert_eq!(
            errors(&r),
            [
                "x.zip: a zip archive, but built without zip support (the `zip` feature of kifu-input)"
            ]
        );
    }
    assert_eq!(Compression::Xz.is_supported(), cfg!(feature = "xz"));
}
