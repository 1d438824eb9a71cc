//! Valid input is read exactly as the PGN standard says, under any chunking and any limits;
//! the recovery rules act only on input that breaks it. Each test is named after its rule.

use kifu::pgn::{self, CommentKind, Config, ErrorKind, Event, EventLog, NagForm, Parser};
use kifu::{Severity, Status};

fn log_with(input: &[u8], config: Config, chunk: usize) -> EventLog {
    let mut p = Parser::with_config(config);
    let mut log = EventLog::default();
    for c in input.chunks(chunk.max(1)) {
        assert_eq!(p.feed(c, &mut log), Status::NeedInput);
    }
    p.finish(&mut log);
    log
}

fn log(input: &[u8]) -> EventLog {
    let mut log = EventLog::default();
    pgn::parse(input, &mut log);
    log
}

/// The same events whole, byte by byte and in odd chunks, with the default and small limits
/// (comment pieces joined, since their cuts depend on `max_comment_piece`).
fn same_reading_everywhere(input: &[u8]) -> EventLog {
    let whole = log(input);
    for config in [
        Config::default(),
        Config {
            max_token_len: 32,
            max_comment_piece: 8,
            ..Config::default()
        },
    ] {
        let reference = joined(&log_with(input, config, input.len()));
        for chunk in [1, 2, 3, 7, 64] {
            assert_eq!(
                joined(&log_with(input, config, chunk)),
                reference,
                "chunk {chunk}, {config:?}, {:?}",
                String::from_utf8_lossy(input)
            );
        }
        assert_eq!(reference, joined(&whole), "{config:?}");
    }
    whole
}

/// The comments of a log with their pieces joined, and every other event as it is.
fn joined(log: &EventLog) -> Vec<Event> {
    let mut out: Vec<Event> = Vec::new();
    for e in &log.events {
        if let Event::Comment {
            text, first: false, ..
        } = e
        {
            if let Some(Event::Comment {
                text: t, last: l, ..
            }) = out.last_mut()
            {
                t.extend_from_slice(text);
                *l = matches!(e, Event::Comment { last: true, .. });
                continue;
            }
        }
        out.push(e.clone());
    }
    out
}

fn comments(log: &EventLog) -> Vec<String> {
    joined(log)
        .iter()
        .filter_map(|e| match e {
            Event::Comment { kind, text, .. } if *kind == CommentKind::Brace => {
                Some(String::from_utf8_lossy(text).into_owned())
            }
            _ => None,
        })
        .collect()
}

fn moves(log: &EventLog) -> Vec<String> {
    log.events
        .iter()
        .filter_map(|e| match e {
            Event::Move { text, .. } => Some(String::from_utf8_lossy(text).into_owned()),
            _ => None,
        })
        .collect()
}

fn error_kinds(log: &EventLog) -> Vec<ErrorKind> {
    log.events
        .iter()
        .filter_map(|e| match e {
            Event::Error { kind, .. } => Some(*kind),
            _ => None,
        })
        .collect()
}

fn results(log: &EventLog) -> Vec<String> {
    log.events
        .iter()
        .filter_map(|e| match e {
            Event::Result { outcome, .. } => Some(outcome.to_string()),
            _ => None,
        })
        .collect()
}

fn nags(log: &EventLog) -> Vec<(u8, NagForm)> {
    log.events
        .iter()
        .filter_map(|e| match e {
            Event::Nag { nag, form, .. } => Some((nag.0, *form)),
            _ => None,
        })
        .collect()
}

// ----- 1. a brace comment ends at `}` and nowhere else ------------------------------------

#[test]
fn brace_comment_ends_at_its_brace_even_past_a_tag_line() {
    let text = "quoting the header:\n[Event \"Linares\"]\n[White \"Kasparov\"]\nend of quote ";
    let input = format!("[Event \"a\"]\n\n1. e4 {{{text}}} e5 *\n\n[Event \"b\"]\n\n1. d4 *\n");
    let l = same_reading_everywhere(input.as_bytes());
    assert_eq!(l.games(), 2);
    assert_eq!(comments(&l), [text]);
    assert_eq!(moves(&l), ["e4", "e5", "d4"]);
    assert!(error_kinds(&l).is_empty(), "{:?}", error_kinds(&l));
}

#[test]
fn brace_comment_holds_any_text_but_its_brace() {
    // line breaks (LF, CRLF, CR), `;`, `%` in column 1, `[`, quotes, results, move numbers, `{`
    let text = "a\n; not a line comment\r\n% not an escape\r[Event \"x\"]\n\"q\" 1-0 * 12. {";
    let input = format!("1. e4 {{{text}}} 1... e5 2. Nf3 1-0");
    let l = same_reading_everywhere(input.as_bytes());
    assert_eq!(l.games(), 1);
    assert_eq!(comments(&l), [text]);
    assert_eq!(moves(&l), ["e4", "e5", "Nf3"]);
    assert_eq!(results(&l), ["1-0"]);
    assert!(error_kinds(&l).is_empty(), "{:?}", error_kinds(&l));
}

#[test]
fn brace_comment_before_the_tags_quoting_a_header_is_one_comment() {
    let input = b"{ from the archive:\n[Event \"x\"]\n}\n[Event \"real\"]\n\n1. e4 *\n";
    let l = same_reading_everywhere(input);
    assert_eq!(l.games(), 1);
    assert_eq!(comments(&l), [" from the archive:\n[Event \"x\"]\n"]);
    assert!(error_kinds(&l).is_empty());
}

#[test]
fn brace_comment_closed_just_within_the_lookahead_is_one_comment() {
    let config = Config {
        comment_lookahead: 64,
        ..Config::default()
    };
    let tag = "[Event \"x\"]\n";
    let fill = "y".repeat(64 - tag.len() - 1);
    let inside = format!("1. e4 {{c\n{tag}{fill}}} e5 *");
    let l = log_with(inside.as_bytes(), config, 5);
    assert_eq!(l.games(), 1);
    assert!(error_kinds(&l).is_empty());
    // one byte more and the `}` is past the bound: the comment was left unclosed
    let past = format!("1. e4 {{c\n{tag}{fill}y}} e5 *");
    let l = log_with(past.as_bytes(), config, 5);
    assert_eq!(l.games(), 2);
    assert_eq!(error_kinds(&l)[0], ErrorKind::UnterminatedComment);
    for chunk in [1, 3, 100] {
        assert_eq!(log_with(past.as_bytes(), config, chunk), l, "chunk {chunk}");
    }
}

#[test]
fn unclosed_brace_comment_ends_at_the_next_game_when_no_brace_follows() {
    let input = b"[Event \"a\"]\n\n1. e4 {oops\n\n[Event \"b\"]\n\n1. d4 d5 *\n";
    let l = same_reading_everywhere(input);
    assert_eq!(l.games(), 2);
    assert_eq!(moves(&l), ["e4", "d4", "d5"]);
    assert_eq!(error_kinds(&l), [ErrorKind::UnterminatedComment]);
}

#[test]
fn unclosed_brace_comment_does_not_swallow_an_archive() {
    // the `}` that comes first is a later game's, past the lookahead: every game is kept
    let mut input = b"[Event \"0\"]\n\n1. e4 {never closed\n\n".to_vec();
    for g in 1..400 {
        input.extend_from_slice(format!("[Event \"{g}\"]\n\n1. d4 d5 2. c4 *\n\n").as_bytes());
    }
    input.extend_from_slice(b"[Event \"last\"]\n\n1. e4 {closed} *\n");
    let l = same_reading_everywhere(&input);
    assert_eq!(l.games(), 401);
    assert_eq!(error_kinds(&l), [ErrorKind::UnterminatedComment]);
}

// ----- 2. tokens end where the standard ends them -----------------------------------------

#[test]
fn move_suffix_and_result_run_together_are_three_tokens() {
    let l = same_reading_everywhere(b"1. e4 e5 2. O-O-O#!?0-1");
    assert_eq!(moves(&l), ["e4", "e5", "O-O-O#"]);
    assert_eq!(nags(&l), [(5, NagForm::Suffix)]);
    assert_eq!(results(&l), ["0-1"]);
    assert!(error_kinds(&l).is_empty(), "{:?}", error_kinds(&l));
}

#[test]
fn adjacent_tokens_without_spaces_read_as_the_standard_tokenizes() {
    // each pair of token kinds the standard separates without white space
    let cases: &[(&[u8], &[&str], &[&str])] = &[
        (b"1.e4 e5*", &["e4", "e5"], &["*"]),             // move + `*`
        (b"1.e4!1-0", &["e4"], &["1-0"]),                 // suffix + result
        (b"1.e4 $1Nf6 *", &["e4", "Nf6"], &["*"]),        // NAG + move
        (b"1.e4 !?e5 *", &["e4", "e5"], &["*"]),          // glyph + move
        (b"1.e4(1.d4)e5 *", &["e4", "d4", "e5"], &["*"]), // `)` + move
        (b"1.e4{c}e5{d}1-0", &["e4", "e5"], &["1-0"]),    // comment + move, + result
        (b"1.e4 e5 1-0{after}", &["e4", "e5"], &["1-0"]), // result + comment
        (b"1.e4 e5 *;end", &["e4", "e5"], &["*"]),        // result + `;` comment
        (b"1.e4 e5 2.Nf3?!*", &["e4", "e5", "Nf3"], &["*"]), // suffix + `*`
        (b"1.e4 e5 2.Nf3$2*", &["e4", "e5", "Nf3"], &["*"]), // NAG + `*`
    ];
    for (input, want_moves, want_results) in cases {
        let l = same_reading_everywhere(input);
        let what = String::from_utf8_lossy(input);
        assert_eq!(moves(&l), *want_moves, "{what}");
        assert_eq!(results(&l), *want_results, "{what}");
        assert!(error_kinds(&l).is_empty(), "{what}: {:?}", error_kinds(&l));
    }
}

#[test]
fn nag_ends_at_its_last_digit() {
    let l = same_reading_everywhere(b"1. e4 $14Nf6 2. d4 $1$2 *");
    assert_eq!(moves(&l), ["e4", "Nf6", "d4"]);
    assert_eq!(
        nags(&l),
        [
            (14, NagForm::Numeric),
            (1, NagForm::Numeric),
            (2, NagForm::Numeric)
        ]
    );
    assert!(error_kinds(&l).is_empty());
    // `$` with no digit stays an error
    assert_eq!(error_kinds(&log(b"1. e4 $x *")), [ErrorKind::BadNag]);
}

#[test]
fn move_glued_to_a_result_is_read_with_a_warning() {
    // one symbol token by the standard (`#`, digits and `-` continue a symbol), so not valid
    // PGN; read as the move and the result it is made of, and said
    for (input, last, result) in [
        (&b"1. e4 e5 2. Qh5#1-0"[..], "Qh5#", "1-0"),
        (b"1. e4 e5 2. Qh5+1/2-1/2", "Qh5+", "1/2-1/2"),
        (b"1. e4 e5 2. Qh5*", "Qh5", "*"),
    ] {
        let l = same_reading_everywhere(input);
        assert_eq!(moves(&l), ["e4", "e5", last]);
        assert_eq!(results(&l), [result]);
        let e: Vec<_> = l.errors().collect();
        if result == "*" {
            assert!(e.is_empty(), "`*` ends a symbol: {e:?}");
        } else {
            assert!(
                matches!(
                    e[..],
                    [Event::Error {
                        kind: ErrorKind::MissingSpace,
                        severity: Severity::Warning,
                        ..
                    }]
                ),
                "{e:?}"
            );
        }
    }
}

#[test]
fn text_that_is_no_token_stays_one_error() {
    // Seirawan chess writes `Nf3/E`: no standard token, so one unexpected_text as before
    let l = log(b"1. Nf3/E d5 *");
    assert_eq!(moves(&l), ["d5"]);
    assert_eq!(error_kinds(&l), [ErrorKind::UnexpectedText]);
    let l = log(b"1. e4!!! e5 *");
    assert_eq!(moves(&l), ["e4", "e5"]);
    assert_eq!(error_kinds(&l), [ErrorKind::UnexpectedText]);
}
