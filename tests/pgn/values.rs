//! The `TimeControl` tag typed ([`TimeControl`]): every control written reads back as itself,
//! no text panics, and over the shared corpus every value of the standard's forms reads (a
//! table of the values that do not is printed).

use std::collections::BTreeMap;
use std::time::Duration;

use kifu::Control;
use kifu::pgn::{self, Context, Period, Speed, Tag, TimeControl, Visitor};
use proptest::prelude::*;

fn secs() -> impl Strategy<Value = Duration> {
    prop_oneof![
        (0u64..100_000).prop_map(Duration::from_secs),
        (0u64..100_000_000).prop_map(Duration::from_millis),
    ]
}

fn period() -> impl Strategy<Value = Period> {
    prop_oneof![
        (1u32..200, secs(), secs()).prop_map(|(moves, time, increment)| Period::Moves {
            moves,
            time,
            increment
        }),
        (secs(), secs()).prop_map(|(time, increment)| Period::SuddenDeath { time, increment }),
        secs().prop_map(|time| Period::Sandclock { time }),
    ]
}

proptest! {
    #[test]
    fn controls_read_back_as_written(periods in proptest::collection::vec(period(), 1..5)) {
        let text = periods.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(":");
        let tc = TimeControl::parse(text.as_bytes()).unwrap();
        prop_assert_eq!(tc.periods(), &periods[..]);
        prop_assert_eq!(tc.to_string(), text);
    }

    #[test]
    fn one_period_of_sudden_death_is_lichess_s_clock(base in 0u64..20_000, inc in 0u64..200) {
        let tc = TimeControl::parse(format!("{base}+{inc}").as_bytes()).unwrap();
        prop_assert_eq!(tc.base(), Some(Duration::from_secs(base)));
        prop_assert_eq!(tc.increment(), Some(Duration::from_secs(inc)));
        let estimate = base + 40 * inc;
        prop_assert_eq!(tc.speed(), Some(Speed::of_duration(Duration::from_secs(estimate))));
        // more time never makes a game faster
        let slower = TimeControl::parse(format!("{}+{inc}", base + 1).as_bytes()).unwrap();
        prop_assert!(slower.speed() >= tc.speed());
    }

    #[test]
    fn any_text_is_read_without_panic(s in "[-0-9+/*:?. ]{0,16}", t in "\\PC{0,12}") {
        let _ = TimeControl::parse(s.as_bytes()).map(|tc| (tc.speed(), tc.to_string()));
        let _ = TimeControl::parse(t.as_bytes());
    }
}

/// The `TimeControl` values of a file.
#[derive(Default)]
struct Controls(Vec<String>);

impl Visitor for Controls {
    fn on_property(&mut self, _: &Context, tag: &Tag<'_>) -> Control {
        if tag.name == b"TimeControl" {
            self.0.push(tag.value.decode_utf8_lossy().into_owned());
        }
        Control::Continue
    }
}

/// Digits, `+`, `/`, `*`, `:` only, or `?`, `-`: a form of the standard (or so it seems).
fn standard_looking(s: &str) -> bool {
    matches!(s, "?" | "-")
        || (!s.is_empty()
            && s.bytes()
                .all(|b| b.is_ascii_digit() || b"+/*:".contains(&b))
            && s.split(':').all(|f| {
                f.bytes()
                    .next()
                    .is_some_and(|b| b.is_ascii_digit() || b == b'*')
            })
            && !s.contains("++"))
}

#[test]
#[cfg_attr(not(kifu_shared), ignore = "needs ../shared (the corpus)")]
fn corpus_time_controls() {
    let dir = kifu_testkit::shared().join("corpus").join("pgn");
    let (mut ok, mut all) = (0u64, 0u64);
    let mut speeds = BTreeMap::<Option<Speed>, u64>::new();
    let mut unread = BTreeMap::<String, u64>::new();
    for path in kifu_testkit::files_with_ext(&dir, "pgn") {
        let data = std::fs::read(&path).unwrap();
        let mut c = Controls::default();
        pgn::parse(&data, &mut c);
        for text in c.0 {
            all += 1;
            match TimeControl::parse(text.as_bytes()) {
                Some(tc) => {
                    ok += 1;
                    *speeds.entry(tc.speed()).or_default() += 1;
                }
                None => {
                    assert!(
                        !standard_looking(&text),
                        "{}: {text:?} looks standard but does not read",
                        path.display()
                    );
                    *unread.entry(text).or_default() += 1;
                }
            }
        }
    }
    println!("TimeControl: {ok} of {all} values read; speeds {speeds:?}");
    for (text, n) in unread.iter().take(20) {
        println!("  not read: {text:?} ×{n}");
    }
}
