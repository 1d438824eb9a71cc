//! The first acceptance test: `tests/data/seed-kasparov-kramnik-2001.pgn` (a copy of the
//! shared fixture, so that it runs in any clone).

use kifu::pgn::{self, CommentKind, ErrorKind, Event, EventLog, MoveRef};

fn mref(s: &str) -> MoveRef {
    let (num, side) = s.split_at(s.len() - 1);
    MoveRef {
        number: num.parse().unwrap(),
        black: side == "b",
    }
}

#[test]
fn kasparov_kramnik_2001() {
    let input = kifu_testkit::data_file("seed-kasparov-kramnik-2001.pgn");
    let mut log = EventLog::default();
    pgn::parse(&input, &mut log);

    let tags: Vec<String> = log
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Property { name, .. } => Some(String::from_utf8(name.clone()).unwrap()),
            _ => None,
        })
        .collect();
    assert_eq!(
        tags,
        [
            "Event",
            "Site",
            "Date",
            "Round",
            "White",
            "Black",
            "Result",
            "ECO",
            "WhiteElo",
            "BlackElo",
            "PlyCount",
            "EventDate"
        ]
    );

    let main: Vec<String> = log
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Move { ctx, text, .. } if ctx.is_main_line() => {
                Some(String::from_utf8(text.clone()).unwrap())
            }
            _ => None,
        })
        .collect();
    let expected = "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Nxe4 d4 b5 Bb3 d5 dxe5 Be6 Be3 Bc5 Qd3 O-O Nc3 Nb4 Qe2 Nxc3 \
                    bxc3 Bxe3 Qxe3 Nc6 a4 Na5 axb5 axb5 Nd4 Qe8 f4 c5 Nxe6";
    assert_eq!(main.join(" "), expected);
    assert_eq!(main.len(), 37);

    // annotations at the move they follow
    let mut seen = Vec::new();
    for e in &log.events {
        match e {
            Event::Comment {
                ctx, kind, text, ..
            } => seen.push((
                ctx.depth,
                ctx.last_move().map(|m| m.to_string()),
                format!("{kind:?}"),
                String::from_utf8_lossy(text).into_owned(),
            )),
            Event::Nag { ctx, nag, .. } if ctx.is_main_line() => seen.push((
                0,
                ctx.last_move().map(|m| m.to_string()),
                "Nag".into(),
                nag.to_string(),
            )),
            _ => {}
        }
    }
    let has = |depth: u32, at: &str, kind: &str, text: &str| {
        assert!(
            seen.iter().any(|(d, a, k, t)| *d == depth
                && a.as_deref() == Some(at)
                && k == kind
                && t.contains(text)),
            "missing {kind} {text:?} at {at} (depth {depth}) in {seen:#?}"
        );
    };
    has(0, "3b", "Nag", "$1");
    has(0, "3b", "Brace", "first comment");
    has(0, "5b", "Brace", "second comment");
    has(0, "6w", "Line", "comment starting with \";\" up to EOL");
    has(0, "9w", "Brace", "third comment");
    has(0, "13b", "Escape", "escaped line");
    has(0, "14b", "Brace", "wrong ");
    has(0, "16w", "Brace", "yet another \ncomment");
    has(1, "16w", "Brace", "nested comment");
    assert_eq!(
        seen.iter()
            .filter(|s| s.2 == "Brace" || s.2 == "Line")
            .count(),
        7
    );
    assert_eq!(seen.iter().filter(|s| s.2 == "Escape").count(), 1);
    let _ = CommentKind::Escape;

    // four variations, one nested, at the right places
    let opens: Vec<(u32, String)> = log
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Tree(c) if c.depth > 0 => {
                Some((c.depth, MoveRef::from_ply(c.ply + 1).unwrap().to_string()))
            }
            _ => None,
        })
        .collect();
    assert_eq!(
        opens,
        [
            (1, "11b".to_string()),
            (2, "15b".to_string()),
            (1, "16w".to_string()),
            (1, "17w".to_string())
        ]
    );
    let nags = log
        .events
        .iter()
        .filter(|e| matches!(e, Event::Nag { .. }))
        .count();
    // python-chess counts 6: it reads the `?` of the stray word `oh?` as a NAG. kifu reports
    // `oh?` as one piece of unexpected text instead.
    assert_eq!(nags, 5);

    // exactly three errors, at 14b, 15b, 19w
    let errors: Vec<(ErrorKind, Option<MoveRef>, String, u64, u32)> = log
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Error {
                kind,
                at,
                text,
                pos,
                ..
            } => Some((
                *kind,
                *at,
                String::from_utf8_lossy(text).into_owned(),
                pos.line,
                pos.column,
            )),
            _ => None,
        })
        .collect();
    assert_eq!(
        errors,
        [
            (
                ErrorKind::StrayBrace,
                Some(mref("14b")),
                "comment}".to_string(),
                20,
                23
            ),
            (
                ErrorKind::UnexpectedText,
                Some(mref("15b")),
                "oh?".to_string(),
                20,
                43
            ),
            (
                ErrorKind::UnexpectedText,
                Some(mref("19w")),
                "the end".to_string(),
                23,
                6
            ),
        ]
    );
    assert!(matches!(
        log.events
            .iter()
            .rev()
            .find(|e| matches!(e, Event::Result { .. })),
        Some(Event::Result {
            outcome: pgn::Outcome::Draw,
            ..
        })
    ));
    assert_eq!(log.games(), 1);
}
