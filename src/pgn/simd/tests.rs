//! The versions tested against each other and against plain definitions.

use super::*;
use crate::pgn::lexer::{SKIP_STOP, VALUE_STOP, is_name_byte};
use crate::position::Lines;
use alloc::vec::Vec;

#[cfg(all(target_arch = "x86_64", feature = "std"))]
std::thread_local! {
    /// Makes [`has_avx2`] say no on this thread, so that the tests run the baseline code
    /// too on processors with AVX2.
    pub(in crate::pgn) static BASELINE: core::cell::Cell<bool> = const { core::cell::Cell::new(false) };
}

/// Whether this build has the SIMD versions (else the scalar code answers, and the quick
/// tag-line reader and brace search always leave it to the searches).
const SIMD: bool = cfg!(all(target_arch = "x86_64", target_feature = "sse2"));

/// Runs `f` with the code for AVX2 (where the processor has it) and without.
fn both(mut f: impl FnMut()) {
    f();
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    {
        BASELINE.set(true);
        f();
        BASELINE.set(false);
    }
}

/// A small deterministic generator (xorshift).
fn bytes(seed: u64, len: usize, alphabet: &[u8]) -> Vec<u8> {
    let mut x = seed | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            alphabet[(x % alphabet.len() as u64) as usize]
        })
        .collect()
}

/// The plain definition: first stop byte, line breaks counted one by one.
fn reference(s: &[u8], from: usize, lines: &mut Lines, base: u64) -> usize {
    let castling = |j: usize| s[j] == b'-' && j > from && s[j - 1] == b'O';
    let j = (from..s.len())
        .find(|&j| SKIP_STOP[s[j] as usize] && !castling(j))
        .unwrap_or(s.len());
    for (k, &b) in s[from..j].iter().enumerate() {
        if b == b'\n' || b == b'\r' {
            lines.brk(b, base + (from + k) as u64);
        }
    }
    j
}

#[test]
fn tag_scans_classify_every_byte_alike() {
    for b in 0..=255u8 {
        for at in [0usize, 5, 15, 16, 17, 31, 40] {
            for fill in [b'a', b'Z', b'0', b' '] {
                let mut s = [fill; 48];
                s[at] = b;
                for from in [0, 1, 16] {
                    let name = (from..48).find(|&j| !is_name_byte(s[j])).unwrap_or(48);
                    assert_eq!(name_end(&s, from), name, "{b:#x} at {at} in {fill}");
                    assert_eq!(name_end_scalar(&s, from), name);
                    let value = (from..48)
                        .find(|&j| VALUE_STOP[s[j] as usize])
                        .unwrap_or(48);
                    assert_eq!(value_end(&s, from), value, "{b:#x} at {at} in {fill}");
                    assert_eq!(value_end_scalar(&s, from), value);
                }
            }
        }
    }
}

#[test]
fn every_byte_value_is_classified_alike() {
    both(every_byte_value_is_classified_alike_once);
}

fn every_byte_value_is_classified_alike_once() {
    for b in 0..=255u8 {
        for at in [0usize, 5, 15, 16, 17, 31, 32, 40] {
            // `O` before the byte makes a `-` castling, unless the search starts at it
            for fill in [b'a', b'O'] {
                for from in [0, 1, 16, at] {
                    let mut s = [fill; 48];
                    s[at] = b;
                    let (mut a, mut r) = (Lines::default(), Lines::default());
                    let mut c = a;
                    let want = reference(&s, from, &mut r, 3);
                    let got = find_stop(Baseline, &s, from, &mut a, 3);
                    assert_eq!(got, want, "{b:#x} at {at} in {fill} from {from}");
                    assert_eq!(scalar(&s, from, &mut c, 3), want);
                    assert_eq!((a, c), (r, r));
                }
            }
        }
    }
}

#[test]
fn random_text_agrees_with_the_reference() {
    both(random_text_agrees_with_the_reference_once);
}

fn random_text_agrees_with_the_reference_once() {
    let alphabets: [&[u8]; 4] = [
        b"abcNBRQKO12345678 .+x=#\n\r",
        b"aO-\n\r\r\n -*",
        b"O-O-O 1-0 -O",
        b"e4 \n\r\r\n\n\n\r\r{)\xC2\xE2",
    ];
    for seed in 0..3000u64 {
        let alphabet = alphabets[(seed % 4) as usize];
        let len = (seed as usize * 7) % 200;
        let s = bytes(seed, len, alphabet);
        for from in [0, 1, 3, 16, 17].into_iter().filter(|&f| f <= len) {
            let mut start = Lines::default();
            if seed % 5 == 0 {
                start.scan(b"\r", 99 + from as u64); // a `\r` just before `from`
            }
            let (mut a, mut r, mut c) = (start, start, start);
            let want = reference(&s, from, &mut r, 100);
            assert_eq!(find_stop(Baseline, &s, from, &mut a, 100), want);
            assert_eq!(scalar(&s, from, &mut c, 100), want);
            assert_eq!((a, c), (r, r), "{s:?} from {from}");
        }
    }
}

#[test]
#[cfg(all(target_arch = "x86_64", feature = "std"))]
fn avx2_name_table_is_is_name_byte() {
    if !std::is_x86_feature_detected!("avx2") {
        return;
    }
    for b in 0..=255u8 {
        let s = [b; 64];
        // SAFETY: the processor has AVX2 (checked above); `s` has 32 bytes to load.
        let got = unsafe {
            let v = core::arch::x86_64::_mm256_loadu_si256(s.as_ptr().cast());
            tag::avx2::not_names_for_test(v)
        };
        let want = if is_name_byte(b) { 0 } else { u32::MAX };
        assert_eq!(got, want, "{b:#x}");
    }
}

/// A tag line, more or less well formed, and bytes after it.
pub(in crate::pgn) fn tag_like(seed: u64) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move |m: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % m
    };
    let mut s = Vec::new();
    s.push(b'[');
    let name_len = [1, 3, 5, 8, 14, 15, 16, 17, 30, 31, 32, 40][next(12) as usize];
    let name_bytes: &[u8] = if next(6) == 0 {
        b"Ab1_+#=:-x y]\""
    } else {
        b"WhiteEloBlackSite"
    };
    for _ in 0..name_len {
        s.push(name_bytes[next(name_bytes.len() as u64) as usize]);
    }
    let sep = next(10).saturating_sub(5) as usize; // mostly the usual form
    s.extend_from_slice([&b" \""[..], b"  \"", b"\t\"", b"\"", b" x"][sep]);
    let value_len = [0, 1, 5, 12, 20, 30, 40, 44, 45, 46, 47, 55, 60, 70][next(14) as usize];
    let value_bytes: &[u8] = match next(6) {
        0 => b"ab\\\"]\n\r \xC3\xA9",
        1 => b"ab ]\xE2\x80\x93",
        _ => b"Kasparov, Garry 2001.05.?",
    };
    for _ in 0..value_len {
        s.push(value_bytes[next(value_bytes.len() as u64) as usize]);
    }
    let close = next(8).saturating_sub(4) as usize;
    s.extend_from_slice([&b"\"]"[..], b"\" ]", b"\"", b"]"][close.min(3)]);
    s.extend_from_slice(
        [&b"\n["[..], b"\r\n[", b"\n\n", b" \n", b"\r[", b"\r", b""][next(7) as usize],
    );
    let pad = [0, 10, 64, 64, 80][next(5) as usize];
    for _ in 0..pad {
        s.push(b"[\"] \nab"[next(7) as usize]);
    }
    s
}

#[test]
fn tag_line_agrees_with_the_searches() {
    let mut taken = 0;
    for seed in 0..60_000u64 {
        let s = tag_like(seed);
        // the plain reading of the usual form
        let j = name_end_scalar(&s, 2);
        let want = (s.len() > 1 && s[1].is_ascii_alphabetic() && j + 1 < s.len())
            .then_some(j)
            .filter(|&j| s[j] == b' ' && s[j + 1] == b'"')
            .and_then(|j| {
                let q = value_end_scalar(&s, j + 2);
                (q + 1 < s.len() && s[q] == b'"' && s[q + 1] == b']').then_some((j, q))
            });
        for avx2 in [false, true] {
            if avx2 && !has_avx2() {
                continue;
            }
            if s.len() < 2 || !s[1].is_ascii_alphabetic() {
                continue;
            }
            let got = match Avx2::detect() {
                Some(isa) if avx2 => tag_line(isa, &s),
                _ => tag_line(Baseline, &s),
            };
            let Some(t) = got else {
                // only lines beyond the 64 bytes, or a name beyond the first block, go to
                // the searches (all of them where there is no SIMD code)
                if let Some((j, q)) = want.filter(|_| SIMD) {
                    assert!(
                        s.len() < 64 || q >= 62 || j >= if avx2 { 32 } else { 16 },
                        "{s:?}"
                    );
                }
                continue;
            };
            taken += 1;
            assert_eq!(Some((t.space, t.quote)), want, "{s:?}");
            let value = &s[t.space + 2..t.quote];
            assert!(!t.ascii || value.is_ascii(), "{s:?}");
            let q = t.quote;
            let next = if s[q + 2] == b'\n' {
                q + 3
            } else if q + 3 < 64 && s[q + 2] == b'\r' && s[q + 3] == b'\n' {
                q + 4
            } else {
                0
            };
            assert_eq!(t.next, next, "{s:?}");
        }
    }
    // (about half as many without AVX2, or without `std` to detect it)
    assert!(taken > 2_500 || !SIMD, "{taken}");
}

#[test]
fn brace_end_agrees_with_a_search() {
    let alphabet = b"ab }{\n\r[";
    for seed in 0..20_000u64 {
        let s = bytes(seed, (seed as usize * 3) % 70, alphabet);
        let want = s
            .iter()
            .position(|&b| b == b'}' || b == b'\n' || b == b'\r');
        let got = brace_end_32(&s);
        match got {
            Some(p) => assert_eq!((Some(p), s[p]), (want, b'}'), "{s:?}"),
            None => assert!(
                !SIMD || s.len() < 32 || want.is_none_or(|p| p >= 32 || s[p] != b'}'),
                "{s:?}"
            ),
        }
    }
}

#[test]
fn comment_stop_agrees_with_a_search() {
    let alphabet = b"ab }{\n\r[xyz";
    for seed in 0..20_000u64 {
        // long runs without a stop too, so that the 32-byte loop and its tail both serve
        let len = (seed as usize * 7) % 200;
        let s = if seed % 3 == 0 {
            let mut s = alloc::vec![b'x'; len];
            if len > 0 {
                s[(seed as usize / 3) % len] = alphabet[(seed as usize / 7) % alphabet.len()];
            }
            s
        } else {
            bytes(seed, len, alphabet)
        };
        for from in 0..=s.len() {
            let want = s[from..]
                .iter()
                .position(|&b| b == b'}' || b == b'\n' || b == b'\r')
                .map(|p| from + p);
            assert_eq!(comment_stop(Baseline, &s, from), want, "{s:?} {from}");
            #[cfg(all(target_arch = "x86_64", feature = "std"))]
            if let Some(isa) = Avx2::detect() {
                assert_eq!(comment_stop(isa, &s, from), want, "{s:?} {from}");
            }
        }
    }
}
