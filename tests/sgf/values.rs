//! The game-information values typed: `BR`/`WR` as [`Rank`]s, `RE` as a [`GoResult`]. Each
//! written in its short form reads back as itself; no text panics; and over the shared corpus
//! every value written in a form of `FF[4]` reads (a table of those that do not is printed).

use std::collections::BTreeMap;

use kifu::Control;
use kifu::sgf::{self, Color, GoResult, Rank, RankKind, RankMark, Value, Visitor, WinBy};
use proptest::prelude::*;

fn rank() -> impl Strategy<Value = Rank> {
    let kind = prop_oneof![
        (1..=Rank::MAX_KYU).prop_map(|n| (RankKind::Kyu, n)),
        (1u8..=9).prop_map(|n| (RankKind::Dan, n)),
        (1u8..=9).prop_map(|n| (RankKind::Pro, n)),
    ];
    let mark = prop_oneof![
        Just(None),
        Just(Some(RankMark::Uncertain)),
        Just(Some(RankMark::Established)),
    ];
    (kind, mark).prop_map(|((k, n), m)| Rank::new(k, n).unwrap().with_mark(m))
}

fn go_result() -> impl Strategy<Value = GoResult> {
    let by = prop_oneof![
        Just(None),
        Just(Some(WinBy::Resign)),
        Just(Some(WinBy::Time)),
        Just(Some(WinBy::Forfeit)),
        (0u32..2000).prop_map(|half| Some(WinBy::Points(f64::from(half) / 2.0))),
    ];
    let winner = prop_oneof![Just(Color::Black), Just(Color::White)];
    prop_oneof![
        (winner, by).prop_map(|(winner, by)| GoResult::Win { winner, by }),
        Just(GoResult::Draw),
        Just(GoResult::Void),
        Just(GoResult::Unknown),
    ]
}

/// The strength order of two ranks, from their parts (the order `value` must give).
fn stronger(a: Rank, b: Rank) -> std::cmp::Ordering {
    let key = |r: Rank| match r.kind() {
        RankKind::Kyu => (0, -i32::from(r.level())),
        RankKind::Dan => (1, i32::from(r.level())),
        RankKind::Pro => (2, i32::from(r.level())),
    };
    key(a).cmp(&key(b))
}

proptest! {
    #[test]
    fn ranks_read_back_as_written(r in rank()) {
        prop_assert_eq!(Rank::parse(r.to_string().as_bytes()), Some(r));
        prop_assert_eq!(Rank::from_value(r.value()), Some(r.with_mark(None)));
    }

    #[test]
    fn rank_values_order_as_ranks(a in rank(), b in rank()) {
        prop_assert_eq!(a.value().cmp(&b.value()), stronger(a, b));
    }

    #[test]
    fn results_read_back_as_written(r in go_result()) {
        prop_assert_eq!(GoResult::parse(r.to_string().as_bytes()), Some(r));
    }

    #[test]
    fn any_text_is_read_without_panic(s in "\\PC{0,12}", b in proptest::collection::vec(any::<u8>(), 0..12)) {
        let _ = (Rank::parse(s.as_bytes()), GoResult::parse(s.as_bytes()));
        let _ = (Rank::parse(&b), GoResult::parse(&b));
    }
}

/// The values of `BR`, `WR` and `RE` of a file, decoded as SimpleText.
#[derive(Default)]
struct Info(Vec<(&'static str, String)>);

impl Visitor for Info {
    fn on_value(&mut self, _: &sgf::Context, v: &Value<'_>) -> Control {
        let name = match v.name {
            b"BR" | b"WR" => "rank",
            b"RE" => "result",
            _ => return Control::Continue,
        };
        let text = String::from_utf8_lossy(&v.raw.simple_text()).into_owned();
        self.0.push((name, text));
        Control::Continue
    }
}

/// `7d`, `14k*`, `9p`, `3k?`: the form `FF[4]` recommends.
fn short_rank(s: &str) -> bool {
    let s = s.trim().trim_end_matches(['*', '?']);
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    (1..=2).contains(&digits) && matches!(&s[digits..], "k" | "d" | "p")
}

/// `B+R`, `W+3.5`, `0`, `Draw`, `Void`, `?`: the forms of `FF[4]`.
fn ff4_result(s: &str) -> bool {
    if matches!(s, "0" | "Draw" | "Void" | "?") {
        return true;
    }
    let Some(how) = s.strip_prefix("B+").or(s.strip_prefix("W+")) else {
        return false;
    };
    let number = |d: &str| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit());
    matches!(how, "" | "R" | "Resign" | "T" | "Time" | "F" | "Forfeit")
        || match how.split_once('.') {
            Some((a, b)) => number(a) && number(b),
            None => number(how),
        }
}

#[test]
#[cfg_attr(not(kifu_shared), ignore = "needs ../shared (the corpus)")]
fn corpus_values() {
    let dir = kifu_testkit::shared().join("corpus").join("sgf");
    let mut read = BTreeMap::<&str, (u64, u64)>::new();
    let mut unread = BTreeMap::<(&str, String), u64>::new();
    for path in kifu_testkit::files_with_ext(&dir, "sgf") {
        let data = std::fs::read(&path).unwrap();
        let mut info = Info::default();
        sgf::parse(&data, &mut info);
        for (name, text) in info.0 {
            let (ok, standard) = match name {
                "rank" => (Rank::parse(text.as_bytes()).is_some(), short_rank(&text)),
                _ => (
                    GoResult::parse(text.as_bytes()).is_some(),
                    ff4_result(&text),
                ),
            };
            assert!(
                ok || !standard,
                "{}: {name} {text:?} is of a standard form but does not read",
                path.display()
            );
            let counts = read.entry(name).or_default();
            counts.1 += 1;
            if ok {
                counts.0 += 1;
            } else {
                *unread.entry((name, text)).or_default() += 1;
            }
        }
    }
    for (name, (ok, all)) in &read {
        println!("{name}: {ok} of {all} values read");
    }
    let mut most: Vec<_> = unread.into_iter().collect();
    most.sort_by_key(|m| std::cmp::Reverse(m.1));
    for ((name, text), n) in most.iter().take(30) {
        println!("  not read: {name} {text:?} ×{n}");
    }
}
