//! Bad input: every problem located and reported, parsing goes on; sloppy input: no errors.

use kifu::pgn::{self, ErrorKind, Event, EventLog, Parser, Visitor};
use kifu::{Control, Position};

fn log(input: &[u8]) -> EventLog {
    let mut log = EventLog::default();
    let _ = pgn::parse(input, &mut log);
    log
}

/// (kind, line, column, move reference, text) of every error.
fn errors(input: &[u8]) -> Vec<(ErrorKind, u64, u32, Option<String>, String)> {
    log(input)
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Error {
                kind,
                pos,
                at,
                text,
                ..
            } => Some((
                *kind,
                pos.line,
                pos.column,
                at.map(|m| m.to_string()),
                String::from_utf8_lossy(text).into_owned(),
            )),
            _ => None,
        })
        .collect()
}

fn one(input: &str) -> (ErrorKind, u64, u32, Option<String>, String) {
    let e = errors(input.as_bytes());
    assert_eq!(e.len(), 1, "{input:?} gave {e:?}");
    e.into_iter().next().unwrap()
}

fn moves(input: &[u8]) -> Vec<String> {
    log(input)
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Move { text, .. } => Some(String::from_utf8_lossy(text).into_owned()),
            _ => None,
        })
        .collect()
}

use ErrorKind::*;

#[test]
fn each_kind_located() {
    let s = |x: &str| x.to_string();
    assert_eq!(
        one("1. e4 oh? e5 *"),
        (UnexpectedText, 1, 7, Some(s("1w")), s("oh?"))
    );
    assert_eq!(
        one("1. e4 } e5 *"),
        (StrayBrace, 1, 7, Some(s("1w")), s("}"))
    );
    assert_eq!(
        one("1. e4 e5 {never closed"),
        (UnterminatedComment, 1, 10, Some(s("1b")), s("{"))
    );
    assert_eq!(one("[Event \"open\n1. e4 *").0, UnterminatedTag);
    assert_eq!(
        one("[Event open]\n1. e4 *"),
        (MalformedTag, 1, 1, None, s("[Event open]"))
    );
    assert_eq!(one("1. e4 (1. d4 d5 *").0, UnclosedVariation);
    assert_eq!(
        one("1. e4 ) e5 *"),
        (StrayParen, 1, 7, Some(s("1w")), s(")"))
    );
    assert_eq!(
        one("1. e4 e5 3. Nf3 *"),
        (BadMoveNumber, 1, 10, Some(s("1b")), s("3"))
    );
    assert_eq!(
        one("1. e4 $256 *"),
        (NagOutOfRange, 1, 7, Some(s("1w")), s("$256"))
    );
    assert_eq!(one("1. e4 $x *"), (BadNag, 1, 7, Some(s("1w")), s("$x")));
    assert_eq!(one("( e4 ) *").0, VariationBeforeMove);
    assert_eq!(errors(b"[Event \"Caf\xe9\"]\n*")[0].0, InvalidUtf8);
    assert_eq!(one("[Event \"The \"Big\" Open\"]\n*").0, UnescapedQuote);
    assert_eq!(
        errors(format!("1. e4 {} e5 *", "x".repeat(2000)).as_bytes())[0].0,
        TokenTooLong
    );
}

#[test]
fn invalid_utf8_tag_value_is_kept() {
    let l = log(b"[Event \"Caf\xe9\"]\n*");
    assert!(
        l.events
            .iter()
            .any(|e| matches!(e, Event::Property { value, .. } if value == b"Caf\xe9"))
    );
}

#[test]
fn stray_words_on_one_line_are_one_error_and_parsing_goes_on() {
    let e = errors(b"1. e4 the end 1-0");
    assert_eq!(e.len(), 1);
    assert_eq!(e[0].4, "the end");
    assert_eq!(
        moves(b"1. e4 oh? e5 2. Nf3 what now Nc6 *"),
        ["e4", "e5", "Nf3", "Nc6"]
    );
}

#[test]
fn sloppy_but_fine_input_has_no_errors() {
    let sloppy: &[&[u8]] = &[
        b"\xef\xbb\xbf[Event \"bom\"]\n\n1. e4 e5 1-0\n\xef\xbb\xbf[Event \"bom again\"]\n\n1. d4 *",
        b"[Event \"crlf\"]\r\n\r\n1. e4 e5\r\n2. Nf3 1-0\r\n",
        b"[Event \"cr\"]\r\r1. e4 e5\r2. Nf3 1-0\r",
        b"[Event \"a\"]\n1. e4 1-0\n[Event \"b\"]\n1. d4 0-1",
        b"1. e4 e5 2. Nf3 *",
        b"1. e4 e5 2. 0-0 0-0-0 3. -- Z0 *",
        b"1. e4 {comment} 1... e5 {again} 2. Nf3 {x} 2... Nc6 *",
        b"1. e4 e5 2 . Nf3 2 ... Nc6 *",
        "1. e4 e5 ½-½".as_bytes(),
        "1. e4 e5 1–0".as_bytes(),
        b"1. e4 { [%eval 0.18] [%clk 0:30:00] } 1... c6 { [%eval 0.2] [%clk 0:29:58] } 2. d4 {[%clk 0:09:59.9][%timestamp 1]} *",
        b"[Event \"x\"]\n\n1. e4 e5\n\n\n[Event \"y\"]\n\n1. d4",
        b"[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\"]\n[SetUp \"1\"]\n\n1... e5 2. Nf3 *",
        b"1. e4!? e5?! 2. Nf3!! Nc6?? 3. Bb5! a6? 4. Ba4 $1 $14 *",
        b"1. e4 e5 (1... c5 2. Nf3 (2. c3)) (1... e6) 2. Nf3 *",
        b"[Event \"tags only\"]\n[Site \"x\"]\n\n[Event \"tags only 2\"]\n",
        b"",
        b"\n\n   \n",
    ];
    for input in sloppy {
        assert_eq!(
            errors(input),
            vec![],
            "{:?}",
            String::from_utf8_lossy(input)
        );
    }
}

#[test]
fn last_game_is_always_delivered() {
    for input in [
        &b"[Event \"a\"]\n\n1. e4 1-0\n\n[Event \"b\"]\n\n1. d4"[..],
        b"[Event \"a\"]\n\n1. e4 1-0\n\n[Event \"b\"]\n\n1. d4 *",
        b"[Event \"a\"]\n\n1. e4 1-0\n\n[Event \"b\"]\n\n1. d4 *\n",
        b"[Event \"a\"]\n\n1. e4 1-0\n\n[Event \"b\"]\n\n1. d4 *\n\n",
        b"[Event \"a\"]\n\n1. e4 1-0\n\n[Event \"b\"]",
        b"[Event \"a\"]\n1. e4 1-0\n[Event \"b\"]\n1. d4",
        b"1. e4 1-0 1. d4",
    ] {
        assert_eq!(
            log(input).games(),
            2,
            "{:?}",
            String::from_utf8_lossy(input)
        );
    }
}

#[test]
fn unterminated_comment_does_not_swallow_next_game() {
    let l = log(b"[Event \"a\"]\n\n1. e4 {oops\n\n[Event \"b\"]\n\n1. d4 d5 *");
    assert_eq!(l.games(), 2);
    assert_eq!(
        moves(b"[Event \"a\"]\n\n1. e4 {oops\n\n[Event \"b\"]\n\n1. d4 d5 *"),
        ["e4", "d4", "d5"]
    );
    assert_eq!(l.errors().count(), 1);
}

/// A tag line longer than `max_token_len` is too long wherever the parser meets it: also at
/// the input's end, where a parser arrives that waited for a comment's `}` (an unclosed comment
/// ended by the next game's tags). A parser placed at that game's start reads the same events
/// (`kifu find` reads a game again from its start; `kifu::par` places a parser at each cut).
#[test]
fn a_tag_line_past_the_limit_is_too_long_at_the_end_too() {
    let long = format!(
        "[Event \"{}\"]\n[FEN \"8/8/8/8/8/8/8/K1k5 w - - 0 30\"]\n\n1. Kb2 *\n",
        "x".repeat(1100)
    );
    let whole = format!("[Event \"a\"]\n\n1. e4 {{open\n{long}");
    let kinds =
        |input: &[u8]| -> Vec<ErrorKind> { errors(input).into_iter().map(|e| e.0).collect() };
    assert_eq!(kinds(whole.as_bytes()), [UnterminatedComment, TokenTooLong]);
    assert_eq!(kinds(long.as_bytes()), [TokenTooLong]);
    // the events of the second game, read from the start or from its own first byte
    let from_start = log(whole.as_bytes());
    let game = |l: &EventLog| -> Vec<String> {
        l.events
            .iter()
            .skip_while(|e| !matches!(e, Event::Tree(c) if c.game == 1))
            .skip(1)
            .map(|e| match e {
                Event::Property { name, .. } => format!("tag {}", String::from_utf8_lossy(name)),
                Event::Error { kind, .. } => format!("{kind:?}"),
                Event::Move { san, .. } => format!("{san:?}"),
                other => format!("{:?}", core::mem::discriminant(other)),
            })
            .collect()
    };
    let mut alone = EventLog::default();
    let mut p = Parser::new();
    p.start_at(
        Position {
            offset: whole.len() as u64 - long.len() as u64,
            line: 4,
            column: 1,
        },
        1,
    );
    let _ = p.feed(long.as_bytes(), &mut alone);
    p.finish(&mut alone);
    assert_eq!(game(&from_start), game(&alone));
    assert!(game(&alone).contains(&"TokenTooLong".to_string()));
}

#[test]
fn a_million_open_variations_neither_overflow_nor_grow() {
    let mut input = b"1. e4 ".to_vec();
    input.extend(std::iter::repeat_n(b'(', 1_000_000));
    input.extend_from_slice(b" e5 ");
    input.extend(std::iter::repeat_n(b')', 1_000_000));
    input.extend_from_slice(b" 2. Nf3 *");
    let l = log(&input);
    let e: Vec<_> = l.errors().collect();
    // one error: the first variation beyond the depth limit (everything deeper is skipped);
    // the first variation opens before any move of its own line
    assert!(
        e.iter()
            .any(|e| matches!(e, Event::Error { kind: TooDeep, .. }))
    );
    assert_eq!(l.games(), 1);
    let main: Vec<_> = l
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Move { ctx, text, .. } if ctx.is_main_line() => Some(text.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(main, [b"e4".to_vec(), b"Nf3".to_vec()]);

    // unclosed, a million deep, at end of input
    let mut input = b"1. e4 ".to_vec();
    input.extend(std::iter::repeat_n(b'(', 1_000_000));
    let l = log(&input);
    assert_eq!(l.games(), 1);
}

#[test]
fn positions_count_lines_in_every_line_ending() {
    let l = log(b"1. e4\r\n1... oops\r2. x\n");
    let pos: Vec<Position> = l
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Error { pos, .. } => Some(*pos),
            _ => None,
        })
        .collect();
    assert_eq!(
        pos[0],
        Position {
            offset: 12,
            line: 2,
            column: 6
        }
    );
    assert_eq!(pos.last().unwrap().line, 3);
}

#[test]
fn long_comments_arrive_in_pieces_never_truncated() {
    let text = "é".repeat(5000); // 10,000 bytes
    let input = format!("1. e4 {{{text}}} *");
    let l = log(input.as_bytes());
    let pieces: Vec<(&Vec<u8>, bool, bool)> = l
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Comment {
                text, first, last, ..
            } => Some((text, *first, *last)),
            _ => None,
        })
        .collect();
    assert!(pieces.len() >= 3);
    assert!(pieces[0].1 && !pieces[0].2 && pieces.last().unwrap().2);
    let joined: Vec<u8> = pieces.iter().flat_map(|p| p.0.iter().copied()).collect();
    assert_eq!(joined, text.as_bytes());
    for p in &pieces {
        assert!(
            std::str::from_utf8(p.0).is_ok(),
            "a piece split a character"
        );
        assert!(p.0.len() <= 4096);
    }
    assert_eq!(l.errors().count(), 0);
}

/// Reads headers only: skips every movetext from `on_tags_end`.
#[derive(Default)]
struct Headers {
    games: u64,
    tags: Vec<String>,
    moves: u64,
}

impl Visitor for Headers {
    fn on_tree_end(&mut self, ctx: &kifu::pgn::Context) -> Control {
        if ctx.is_main_line() {
            self.games += 1;
        }
        Control::Continue
    }
    fn on_property(&mut self, _: &kifu::pgn::Context, tag: &kifu::pgn::Tag<'_>) -> Control {
        self.tags.push(tag.value.decode_utf8_lossy().into_owned());
        Control::Continue
    }
    fn on_tags_end(&mut self, _: &kifu::pgn::Context) -> Control {
        Control::Skip
    }
    fn on_move(&mut self, _: &kifu::pgn::Context, _: &kifu::pgn::Move<'_>) -> Control {
        self.moves += 1;
        Control::Continue
    }
}

#[test]
fn skipping_movetext_keeps_game_boundaries() {
    let input = b"[Event \"a\"]\n\n1. e4 {x ) ( } (1. d4 (1. c4) ) e5 1-0\n[Event \"b\"]\n1. d4 *\n1. c4 {tagless} 1-0 {after} [Event \"c\"] 1. f4";
    let mut h = Headers::default();
    let _ = pgn::parse(input, &mut h);
    assert_eq!(h.games, log(input).games() as u64);
    assert_eq!(h.games, 4);
    assert_eq!(h.tags, ["a", "b", "c"]);
    assert_eq!(h.moves, 0);
}

/// Stops after every game; the caller resumes with the rest.
struct StopEachGame(u64);
impl Visitor for StopEachGame {
    fn on_tree_end(&mut self, ctx: &kifu::pgn::Context) -> Control {
        if ctx.is_main_line() {
            self.0 += 1;
            return Control::Stop;
        }
        Control::Continue
    }
}

#[test]
fn stop_and_resume() {
    let input = b"1. e4 1-0 1. d4 0-1 1. c4 * 1. f4 *";
    let mut v = StopEachGame(0);
    let mut p = Parser::new();
    let mut rest = &input[..];
    let mut stops = 0;
    loop {
        match p.feed(rest, &mut v) {
            kifu::Status::NeedInput => break,
            kifu::Status::Stopped { consumed } => {
                stops += 1;
                rest = &rest[consumed..];
            }
        }
    }
    p.finish(&mut v);
    assert_eq!(v.0, 4);
    assert_eq!(stops, 3);
}

#[test]
fn tag_only_games_are_split_at_a_repeated_roster_tag() {
    let input =
        b"[Event \"a\"]\n[Round \"1.1\"]\n\n[Round \"1.2\"]\n[White \"x\"]\n\n[Round \"1.3\"]\n";
    assert_eq!(log(input).games(), 3);
    // a blank line between tags of one game (a ChessBase quirk) does not split it
    assert_eq!(
        log(b"[Event \"a\"]\n\n[Date \"2000.01.01\"]\n\n1. e4 *").games(),
        1
    );
}

#[test]
fn fen_games_may_number_from_one() {
    let input = b"[FEN \"r2qk1nr/ppp3pp/2n1bp2/2p1p3/2P1P3/3P1N2/PP2BPPP/RN1Q1RK1 b kq - 0 8\"]\n[SetUp \"1\"]\n\n1... Nge7 2. Nc3 O-O 3. Nd5 *";
    assert_eq!(errors(input), vec![]);
    let input = b"[FEN \"r2qk1nr/ppp3pp/2n1bp2/2p1p3/2P1P3/3P1N2/PP2BPPP/RN1Q1RK1 b kq - 0 8\"]\n\n8... Nge7 9. Nc3 *";
    assert_eq!(errors(input), vec![]);
    // without a FEN, the numbers must follow the moves
    assert_eq!(errors(b"5. e4 e5 *")[0].0, BadMoveNumber);
}

#[test]
fn long_algebraic_and_uci_moves() {
    assert_eq!(
        moves(b"1. e2-e4 e7e5 2. Ng1-f3 Nb8xc6 3. d7d8q *"),
        ["e2-e4", "e7e5", "Ng1-f3", "Nb8xc6", "d7d8q"]
    );
}

#[test]
fn a_tag_without_its_bracket_is_not_a_tag() {
    let l = log(b"[kj90trkm\"sdfsdf\"yl]\ng(erg)");
    assert!(!l.events.iter().any(|e| matches!(e, Event::Property { .. })));
    // the malformed tag, `g`, a variation before any move, `erg`
    assert_eq!(l.errors().count(), 4);
}

#[test]
fn an_unreadable_move_is_one_error_not_a_cascade_of_move_numbers() {
    let e = errors(b"1. e4 e5 2. Nf3/E Nc6 3. Bb5 a6 4. Ba4/H Nf6 5. O-O *");
    assert_eq!(
        e.iter().map(|e| e.0).collect::<Vec<_>>(),
        [UnexpectedText, UnexpectedText]
    );
    // a real numbering mistake is still reported, once
    let e = errors(b"1. e4 e5 3. Nf3 Nc6 4. Bb5 *");
    assert_eq!(e.iter().map(|e| e.0).collect::<Vec<_>>(), [BadMoveNumber]);
}
