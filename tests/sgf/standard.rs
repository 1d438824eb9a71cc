//! Valid FF[4] input that looks like the trigger of a recovery rule is read without any
//! diagnostic, whole and in chunks of any size. Each test is named after its rule.

use kifu::Status;
use kifu::sgf::{self, Config, Event, EventLog, Parser};

fn log_with(input: &[u8], config: Config, chunk: usize) -> EventLog {
    let mut p = Parser::with_config(config);
    let mut log = EventLog::default();
    for c in input.chunks(chunk.max(1)) {
        assert_eq!(p.feed(c, &mut log), Status::NeedInput);
    }
    p.finish(&mut log);
    log
}

/// The events of a valid input: the same in every chunking, and free of diagnostics.
fn clean(input: &[u8]) -> EventLog {
    let mut whole = EventLog::default();
    sgf::parse(input, &mut whole);
    for chunk in [1, 2, 3, 7, 64] {
        assert_eq!(
            log_with(input, Config::default(), chunk),
            whole,
            "chunk {chunk}: {:?}",
            String::from_utf8_lossy(input)
        );
    }
    let errors: Vec<_> = whole.errors().collect();
    assert!(
        errors.is_empty(),
        "{:?}: {errors:?}",
        String::from_utf8_lossy(input)
    );
    whole
}

fn trees(log: &EventLog) -> usize {
    log.events
        .iter()
        .filter(|e| matches!(e, Event::TreeEnd(c) if c.depth == 0))
        .count()
}

fn nodes(log: &EventLog) -> usize {
    log.events
        .iter()
        .filter(|e| matches!(e, Event::Node(_)))
        .count()
}

#[test]
fn game_tree_opens_after_any_amount_of_white_space() {
    // FF[4] allows white space between any two tokens: the look-ahead that tells a `(` of a
    // game tree from text outside the game trees starts after it
    for blank in [" ".repeat(200), "\n".repeat(1000), " \r\n\t".repeat(300)] {
        let input = format!("({blank};FF[4]GM[1]SZ[19];B[aa])");
        let l = clean(input.as_bytes());
        assert_eq!(trees(&l), 1);
        assert_eq!(nodes(&l), 2);
    }
}

#[test]
fn white_space_between_every_token_is_no_repair() {
    let l =
        clean(b" ( ;\n FF [4] GM\r\n[1] SZ [9]\n AB [aa] \n [bb] ( ; B [cc] ) ( ; W [dd] ) ) \n");
    assert_eq!(trees(&l), 1);
    assert_eq!(nodes(&l), 3);
}

#[test]
fn text_values_hold_what_looks_like_structure() {
    // `(`, `)`, `;`, identifiers with values, `\]` and `\\` inside text: the value's text
    let l = clean(
        br"(;FF[4]GM[1]C[(;GM[1\]) ; B[aa\] (\] \\ ;W[bb\])
[ ) ( \]N[x\]y](;B[aa]C[)(])(;B[bb]))",
    );
    assert_eq!(trees(&l), 1);
    assert_eq!(nodes(&l), 3);
}

#[test]
fn several_game_trees_are_a_collection() {
    let l = clean(b"(;FF[4]GM[1];B[aa])\n\n(;FF[4]GM[1];W[bb])(;FF[4]GM[1])");
    assert_eq!(trees(&l), 3);
}

#[test]
fn variations_after_a_sequence_are_no_node_outside_a_variation() {
    // GameTree = "(" Sequence GameTree* ")": nodes, then variations, then `)`
    let l = clean(b"(;FF[4]GM[1];B[aa];W[bb](;B[cc];W[dd](;B[ee])(;B[ff]))(;B[gg]))");
    assert_eq!(nodes(&l), 8);
}

#[test]
fn lists_and_compose_values_are_one_property() {
    let l = clean(b"(;FF[4]GM[1]SZ[19]AB[aa][bb]\n[cc:dd]LB[ee:text \\: with colon]AR[aa:bb])");
    assert_eq!(nodes(&l), 1);
}
