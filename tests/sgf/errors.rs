//! SGF: each required problem located and recovered from; sloppy input read with warnings at
//! most; stop / resume and skipping.

use kifu::sgf::{self, Color, Context, ErrorKind, Event, EventLog, Parser, Point, Visitor};
use kifu::{Control, Severity, Status};

fn log(input: &[u8]) -> EventLog {
    let mut log = EventLog::default();
    let _ = sgf::parse(input, &mut log);
    log
}

/// (code, line, column, text) of every error.
fn errors(input: &str) -> Vec<(&'static str, u64, u32, String)> {
    log(input.as_bytes())
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Error {
                kind, pos, text, ..
            } => Some((
                kind.code(),
                pos.line,
                pos.column,
                String::from_utf8_lossy(text).into_owned(),
            )),
            _ => None,
        })
        .collect()
}

fn codes(input: &str) -> Vec<&'static str> {
    errors(input).into_iter().map(|e| e.0).collect()
}

fn moves(input: &str) -> Vec<String> {
    log(input.as_bytes())
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Move { point, .. } => Some(point.map_or("pass".into(), |p| p.to_string())),
            _ => None,
        })
        .collect()
}

#[test]
fn required_kinds_located() {
    let s = |x: &str| x.to_string();
    assert_eq!(errors("junk\n(;GM[1];B[aa])"), [("W06", 1, 1, s("junk"))]);
    assert_eq!(
        errors("(;;B[aa] #! W[bb])").first(),
        Some(&("E08", 1, 10, s("#!")))
    );
    assert_eq!(codes("( C[aa])"), ["E36"]);
    assert_eq!(errors("(;C[aa]())"), [("E12", 1, 8, s("()"))]);
    assert_eq!(
        errors("(;C[open"),
        [("E10", 1, 4, s("[")), ("E09", 1, 9, s(""))]
    );
    assert_eq!(errors("(;C[aa])\n)"), [("W101", 2, 1, s(")"))]);
    assert_eq!(codes("(;FF[4]AddBlack[aa])"), ["E16"]);
    assert_eq!(codes("(;FF[3]AddBlack[aa])"), ["W16"]);
    assert_eq!(codes("(;;B[aa];abc[x])"), ["E08", "E54"]);
    assert_eq!(errors("(;GM[1];B\n;W[aa])"), [("E20", 1, 9, s("B"))]);
    assert_eq!(codes("(;FF[4]GM[1]AP[a:1]AP[b:2])"), ["E28"]);
    assert_eq!(codes("(;FF[4];AB[aa]B[bb])"), ["E30"]);
    assert_eq!(codes("(;FF[3];AB[aa]B[bb])"), Vec::<&str>::new());
    assert_eq!(codes("(;GM[1];B[aa]W[bb])"), ["E37"]);
    assert_eq!(errors("(;SZ[9];B[jj])"), [("E14", 1, 10, s("jj"))]);
    assert_eq!(codes("(;SZ[9];B[ii])"), Vec::<&str>::new());
}

#[test]
fn value_too_long_and_pieces() {
    let config = sgf::Config {
        max_value_piece: 8,
        max_value_len: 16,
        ..Default::default()
    };
    let mut log = EventLog::default();
    let _ = Parser::with_config(config).parse(b"(;C[0123456789abcdefghij];B[aa])", &mut log);
    let pieces: Vec<(String, bool, bool)> = log
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Comment {
                text, first, last, ..
            } => Some((String::from_utf8_lossy(text).into_owned(), *first, *last)),
            _ => None,
        })
        .collect();
    assert_eq!(
        pieces,
        [
            ("01234567".to_string(), true, false),
            ("89abcdef".to_string(), false, false),
            ("".to_string(), false, true)
        ]
    );
    assert_eq!(log.errors().count(), 1);
    assert!(
        matches!(log.errors().next(), Some(Event::Error { kind, .. }) if *kind == ErrorKind::ValueTooLong)
    );
    assert!(log.events.iter().any(|e| matches!(e, Event::Move { .. })));
}

#[test]
fn sloppy_input_warnings_at_most() {
    let input = "\u{feff}\r\n(;FF[3]GM[1]SZ[19]PlayerBlack[x]CoPyright[y]\r\n;B[pd];W[tt])\r\nthanks for playing\r\n";
    let l = log(input.as_bytes());
    assert_eq!(l.games(), 1);
    for e in l.errors() {
        if let Event::Error { severity, .. } = e {
            assert_eq!(*severity, Severity::Warning, "{e:?}");
        }
    }
    assert_eq!(moves(input), ["pd", "pass"]);
}

#[test]
fn broken_game_does_not_hide_the_next() {
    let input = "(;B[aa];W[bb](;B[cc]\n(;GM[1];B[dd])";
    // the second `(;` is a variation of the unclosed first game: SGF has no other boundary
    assert_eq!(log(input.as_bytes()).games(), 1);
    // but a game closed too often is followed by the next one
    let input = "(;B[aa]))\n(;B[dd])";
    assert_eq!(log(input.as_bytes()).games(), 2);
    assert_eq!(codes(input), ["W24", "W101", "W24"]);
}

#[test]
fn moves_decoded_for_the_board() {
    assert_eq!(moves("(;SZ[21];B[tt];W[])"), ["tt", "pass"]);
    assert_eq!(moves("(;SZ[19:13];B[sm])"), ["sm"]);
    let l = log(b"(;GM[1];W[dp])");
    assert!(l.events.iter().any(|e| matches!(
        e,
        Event::Move {
            color: Color::White,
            point: Some(Point { x: 3, y: 15 }),
            ..
        }
    )));
    // other games: values only
    assert_eq!(moves("(;GM[2];B[dd])"), Vec::<String>::new());
}

#[test]
fn context_paths() {
    let l = log(b"(;B[aa];W[bb](;B[cc];W[dd])(;B[ee](;W[ff])(;W[gg])))");
    let trees: Vec<(u32, u32, u32, bool)> = l
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Tree(c) => Some((c.depth, c.node, c.variation, c.main_line)),
            _ => None,
        })
        .collect();
    assert_eq!(
        trees,
        [
            (0, 0, 0, true),
            (1, 2, 0, true),
            (1, 2, 1, false),
            (2, 3, 0, false),
            (2, 3, 1, false)
        ]
    );
    let last = l
        .events
        .iter()
        .rev()
        .find_map(|e| match e {
            Event::Move { ctx, .. } => Some((ctx.depth, ctx.node, ctx.variation)),
            _ => None,
        })
        .unwrap();
    assert_eq!(last, (2, 3, 1));
}

#[test]
fn stop_and_resume_gives_the_same_events() {
    struct StopEvery(EventLog, usize);
    impl Visitor for StopEvery {
        fn on_value(&mut self, ctx: &Context, v: &sgf::Value<'_>) -> Control {
            let _ = self.0.on_value(ctx, v);
            self.1 += 1;
            if self.1.is_multiple_of(2) {
                Control::Stop
            } else {
                Control::Continue
            }
        }
        fn on_node(&mut self, ctx: &Context) -> Control {
            self.0.on_node(ctx)
        }
        fn on_move(&mut self, ctx: &Context, mv: &sgf::Move<'_>) -> Control {
            self.0.on_move(ctx, mv)
        }
    }
    let input = b"(;GM[1]SZ[9]C[x];B[aa];W[bb](;B[cc])(;B[dd]C[y]))";
    let mut v = StopEvery(EventLog::default(), 0);
    let mut p = Parser::new();
    let mut rest = &input[..];
    let mut stops = 0;
    while let Status::Stopped { consumed } = p.feed(rest, &mut v) {
        rest = &rest[consumed..];
        stops += 1;
    }
    p.finish(&mut v);
    assert!(stops >= 3);
    let mut whole = StopEvery(EventLog::default(), 1_000_001);
    let _ = sgf::parse(input, &mut EventLog::default());
    let mut p = Parser::new();
    let mut rest = &input[..];
    while let Status::Stopped { consumed } = p.feed(rest, &mut whole) {
        rest = &rest[consumed..];
    }
    p.finish(&mut whole);
    assert_eq!(v.0, whole.0);
}

#[test]
fn root_only_scan() {
    #[derive(Default)]
    struct Root(Vec<String>, u32);
    impl Visitor for Root {
        fn on_node_end(&mut self, ctx: &Context) -> Control {
            if ctx.depth == 0 && ctx.node == 0 {
                Control::Skip
            } else {
                Control::Continue
            }
        }
        fn on_property(&mut self, _: &Context, p: &sgf::Property<'_>) -> Control {
            self.0.push(String::from_utf8_lossy(p.name).into_owned());
            Control::Continue
        }
        fn on_tree_end(&mut self, _: &Context) -> Control {
            self.1 += 1;
            Control::Continue
        }
    }
    let mut r = Root::default();
    sgf::parse(b"(;PB[a];B[aa](;W[bb])(;W[cc]))(;PW[b];B[dd])", &mut r);
    assert_eq!(r.0, ["PB", "PW"]);
    assert_eq!(r.1, 2); // only the game trees' ends
}

#[test]
fn a_skipped_variation_raises_no_node_events() {
    // Skip from `on_tree` of a variation, or from `on_node` inside one: the nodes the visitor
    // did not see open (or saw open before the skip) raise no `on_node_end`; every `on_tree`
    // still gets its `on_tree_end`.
    #[derive(Default)]
    struct Count {
        at: &'static str,
        nodes: u32,
        node_ends: u32,
        trees: u32,
        tree_ends: u32,
    }
    impl Visitor for Count {
        fn on_tree(&mut self, ctx: &Context) -> Control {
            self.trees += 1;
            if self.at == "tree" && ctx.variation > 0 {
                Control::Skip
            } else {
                Control::Continue
            }
        }
        fn on_tree_end(&mut self, _: &Context) -> Control {
            self.tree_ends += 1;
            Control::Continue
        }
        fn on_node(&mut self, ctx: &Context) -> Control {
            self.nodes += 1;
            if self.at == "node" && ctx.variation > 0 {
                Control::Skip
            } else {
                Control::Continue
            }
        }
        fn on_node_end(&mut self, _: &Context) -> Control {
            self.node_ends += 1;
            Control::Continue
        }
    }
    let input = b"(;GM[1];B[aa](;W[bb];B[cc])(;W[dd](;B[ee])(;B[ff]))(;W[gg]))";
    let mut tree = Count {
        at: "tree",
        ..Count::default()
    };
    sgf::parse(input, &mut tree);
    assert_eq!((tree.nodes, tree.node_ends), (4, 4), "main line only");
    assert_eq!((tree.trees, tree.tree_ends), (4, 4));
    let mut node = Count {
        at: "node",
        ..Count::default()
    };
    sgf::parse(input, &mut node);
    assert_eq!(
        (node.nodes, node.node_ends),
        (6, 4),
        "the skipping nodes have no end"
    );
    assert_eq!((node.trees, node.tree_ends), (4, 4));
}

/// Every kind's name (the `kind` of `kifu json`, `kifu check`, the export tables and Python) is
/// its variant's name in snake_case, unique, and stable: the published words are pinned here,
/// with their codes, so that renaming a variant cannot change a user's data.
#[test]
fn kind_names_unique_and_stable() {
    let published = [
        ("W06", "text_outside_game"),
        ("E08", "illegal_chars"),
        ("E09", "unclosed_tree"),
        ("E10", "unterminated_value"),
        ("E11", "ident_too_long"),
        ("E12", "empty_tree"),
        ("E13", "too_many_values"),
        ("E14", "illegal_point"),
        ("E15", "illegal_value"),
        ("E16", "lowercase_ident"),
        ("W16", "old_style_ident"),
        ("W17", "empty_value"),
        ("E18", "illegal_root_value"),
        ("W19", "not_go"),
        ("E20", "property_without_value"),
        ("E21", "variation_without_node"),
        ("W22", "nul_byte"),
        ("E23", "compose_expected"),
        ("W24", "move_in_root"),
        ("E28", "duplicate_property"),
        ("E30", "mixed_setup_move"),
        ("W31", "long_ident"),
        ("E32", "root_property_outside_root"),
        ("W35", "unknown_property"),
        ("E36", "missing_semicolon"),
        ("E37", "two_moves"),
        ("W40", "obsolete_property"),
        ("E41", "conflicting_annotations"),
        ("E43", "annotation_without_move"),
        ("E44", "game_info_outside_game_info_node"),
        ("E54", "value_without_ident"),
        ("W65", "pass_in_old_format"),
        ("E66", "node_outside_variation"),
        ("E100", "value_too_long"),
        ("W101", "stray_paren"),
        ("E102", "too_deep"),
        ("E103", "game_too_large"),
    ];
    let got: Vec<(&str, &str)> = ErrorKind::ALL
        .iter()
        .map(|k| (k.code(), k.name()))
        .collect();
    assert_eq!(got, published);
    let mut names: Vec<&str> = got.iter().map(|p| p.1).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), ErrorKind::ALL.len(), "two kinds share a name");
    for k in ErrorKind::ALL {
        let mut snake = String::new();
        for (i, c) in format!("{k:?}").chars().enumerate() {
            if c.is_ascii_uppercase() && i > 0 {
                snake.push('_');
            }
            snake.push(c.to_ascii_lowercase());
        }
        assert_eq!(k.name(), snake, "{k:?}");
        assert!(
            k.name()
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b == b'_' || b.is_ascii_digit())
        );
    }
}
