//! The DOM's own tests.

use super::*;
use crate::sgf::{Config, ErrorKind, Parser, parse};

#[test]
fn relocates_properties_of_an_earlier_node() {
    let mut t = GameTree::new();
    let a = t.add_node(NodeId::ROOT);
    t.add_property(a, "B", ["aa"]);
    t.add_property(NodeId::ROOT, "GM", ["1"]);
    t.add_property(a, "C", ["x]"]);
    t.add_property(NodeId::ROOT, "SZ", ["9"]);
    let names = |n: Node<'_>| {
        n.properties()
            .map(|p| (p.name().to_vec(), p.value().unwrap().0.to_vec()))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        names(t.root()),
        [
            (b"GM".to_vec(), b"1".to_vec()),
            (b"SZ".to_vec(), b"9".to_vec())
        ]
    );
    assert_eq!(
        names(t.node(a)),
        [
            (b"B".to_vec(), b"aa".to_vec()),
            (b"C".to_vec(), br"x\]".to_vec())
        ]
    );
    assert_eq!(t.board_size(), BoardSize { cols: 9, rows: 9 });
}

#[test]
fn content_eq_ignores_raw_idents_but_not_order() {
    let mut a = GameTree::new();
    a.add_property(NodeId::ROOT, "AddBlack", ["aa", "bb"]);
    let mut b = GameTree::new();
    b.add_property(NodeId::ROOT, "AB", ["aa", "bb"]);
    assert_eq!(a, b);
    let mut c = GameTree::new();
    c.add_property(NodeId::ROOT, "AB", ["bb", "aa"]);
    assert_ne!(a, c);
    let mut d = b.clone();
    d.add_node(NodeId::ROOT);
    assert_ne!(b, d);
}

#[test]
fn compose_escapes_colons_in_parts() {
    let mut t = GameTree::new();
    t.add_compose(NodeId::ROOT, "AP", [("kifu:x", "0.1")]);
    assert_eq!(t.root().value(b"AP").unwrap().0, br"kifu\:x:0.1");
    let (a, b) = t.root().value(b"AP").unwrap().compose().unwrap();
    assert_eq!(
        (a.simple_text().as_ref(), b.0),
        (&b"kifu:x"[..], &b"0.1"[..])
    );
}

// ----- the builder and the iterators ----------------------------------------------------------

#[test]
fn errors_outside_go_to_the_tree_before() {
    let input = b"head\n(;GM[1];B[aa])\nbetween\n(;GM[1])\ntail";
    let trees: Vec<GameTree> = game_trees(input).collect();
    assert_eq!(trees.len(), 2);
    let texts = |t: &GameTree| {
        t.errors()
            .iter()
            .map(|e| (e.kind, e.text.clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        texts(&trees[0]),
        [
            (ErrorKind::TextOutsideGame, b"head".to_vec()),
            (ErrorKind::TextOutsideGame, b"between".to_vec())
        ]
    );
    assert_eq!(
        texts(&trees[1]),
        [(ErrorKind::TextOutsideGame, b"tail".to_vec())]
    );
    assert_eq!(trees[1].index(), 1);
    assert_eq!(trees[1].offset(), 28);
}

#[test]
fn same_tree_both_ways() {
    let a: Vec<_> = game_trees(b"(;a[1](;b[2](;c[3])))").collect();
    let b: Vec<_> = game_trees(b"(;a[1];b[2];c[3])").collect();
    assert_eq!(a, b);
    assert_eq!(a[0].len(), 3);
}

#[test]
fn scopes() {
    let input = b"(;GM[1];B[aa](;W[bb];B[cc])(;W[dd](;B[ee])(;B[ff])))";
    let count = |scope| {
        let mut b = TreeBuilder::with_scope(scope);
        parse(input, &mut b);
        b.take_trees()[0].len()
    };
    assert_eq!(count(Scope::Full), 7);
    assert_eq!(count(Scope::MainLine), 4);
    assert_eq!(count(Scope::GameInfo), 1);
}

#[test]
fn long_values_joined_and_in_order() {
    let long = "x".repeat(10_000);
    let input = alloc::format!("(;C[{long}]AB[aa][bb][cc])");
    let cfg = Config {
        max_value_piece: 64,
        ..Config::default()
    };
    let t = GameTrees::with_config(input.as_bytes(), Scope::Full, cfg)
        .next()
        .unwrap();
    assert_eq!(t.root().value(b"C").unwrap().0, long.as_bytes());
    let ab: Vec<&[u8]> = t.root().get(b"AB").unwrap().values().map(|v| v.0).collect();
    assert_eq!(ab, [b"aa", b"bb", b"cc"]);
}

#[test]
fn error_nodes() {
    let t = game_trees(b"(;SZ[9];B[aa];W[zz])").next().unwrap();
    assert_eq!(t.errors().len(), 1);
    assert_eq!(t.errors()[0].node, Some(NodeId(2)));
}

fn limited(input: &[u8], max: usize) -> Vec<GameTree> {
    let b = TreeBuilder::with_scope(Scope::Full).with_max_game_bytes(max);
    GameTrees::with_builder(input, Config::default(), b).collect()
}

fn too_large(t: &GameTree) -> Vec<&TreeError> {
    t.errors()
        .iter()
        .filter(|e| e.kind == ErrorKind::GameTooLarge)
        .collect()
}

#[test]
fn a_tree_past_the_limit_is_cut_and_the_next_ones_are_read() {
    let moves: String = (0..200)
        .map(|i| if i % 2 == 0 { ";B[aa]" } else { ";W[bb]" })
        .collect();
    let input = alloc::format!("(;GM[1]{moves})(;GM[1];B[cc])(;GM[1];W[dd])");
    let full = limited(input.as_bytes(), usize::MAX);
    assert_eq!(full[0].len(), 201);
    let limit = full[0].estimated_bytes() / 2;
    let trees = limited(input.as_bytes(), limit);
    assert_eq!(trees.len(), 3);
    let cut = &trees[0];
    assert!(cut.len() < 201 && cut.len() > 50, "{}", cut.len());
    assert!(cut.estimated_bytes() <= limit + ERROR_BYTES);
    let e = too_large(cut);
    assert_eq!(e.len(), 1);
    assert_eq!(
        (e[0].code(), e[0].severity),
        ("E103", crate::Severity::Error)
    );
    assert_eq!(e[0].node, Some(NodeId(cut.len() as u32 - 1)));
    assert!(e[0].pos.offset > 0 && e[0].at.is_some());
    // the rest of the tree was skipped, to its `)`
    assert_eq!(trees[1], full[1]);
    assert_eq!(trees[2], full[2]);
    assert!(trees[1].errors().is_empty() && trees[2].errors().is_empty());
}

#[test]
fn the_root_node_is_always_kept() {
    let trees = limited(b"(;GM[1]SZ[19];B[aa])(;GM[1])", 0);
    assert_eq!(trees.len(), 2);
    for t in &trees {
        assert_eq!(t.len(), 1);
        assert!(t.root().properties().next().is_none());
        assert_eq!(too_large(t).len(), 1);
    }
}

#[test]
fn a_long_value_is_cut_in_its_pieces() {
    let long = "x".repeat(100_000);
    let input = alloc::format!("(;GM[1]C[{long}]PB[after];B[aa])(;GM[1])");
    let cfg = Config {
        max_value_piece: 64,
        ..Config::default()
    };
    let b = TreeBuilder::with_scope(Scope::Full).with_max_game_bytes(10_000);
    let trees: Vec<GameTree> = GameTrees::with_builder(input.as_bytes(), cfg, b).collect();
    assert_eq!(trees.len(), 2);
    let c = trees[0].root().value(b"C").unwrap().0.len();
    assert!(c > 9_000 && c < 10_000, "{c}");
    assert!(trees[0].root().get(b"PB").is_none());
    assert_eq!(trees[0].len(), 1);
    assert_eq!(too_large(&trees[0]).len(), 1);
    assert!(trees[0].estimated_bytes() <= 10_000 + ERROR_BYTES);
}

#[test]
fn an_unclosed_tree_swallows_the_rest_within_the_limit() {
    let mut input = b"(;GM[1];B[aa]".to_vec();
    for _ in 0..2_000 {
        input.extend_from_slice(b"\n(;GM[1]PB[x]PW[y];B[pd];W[dp];B[pp])");
    }
    let trees = limited(&input, 8_192);
    assert_eq!(trees.len(), 1); // every later `(;` is a variation of the first tree
    let t = &trees[0];
    assert!(t.estimated_bytes() <= 8_192 + 2 * ERROR_BYTES);
    let codes: Vec<&str> = t.errors().iter().map(|e| e.code()).collect();
    assert_eq!(codes[codes.len() - 2..], ["E103", "E09"]); // after some E32 (`GM` off root)
    // unbounded, the same tree holds every game
    assert_eq!(limited(&input, usize::MAX)[0].len(), 2 + 2_000 * 4);
}

#[test]
fn problems_outside_trees_are_bounded_too() {
    let mut input = b"(;GM[1])".to_vec();
    for _ in 0..1_000 {
        input.extend_from_slice(b"junk\n");
    }
    input.extend_from_slice(b"(;GM[1])");
    let trees = limited(&input, 20 * ERROR_BYTES);
    assert_eq!(trees.len(), 2);
    let n = trees[0].errors().len();
    assert!(n <= 21, "{n}");
    assert_eq!(trees[0].errors_dropped() + n as u64 - 1, 1_000);
    assert_eq!(too_large(&trees[0]).len(), 1);
    assert_eq!(trees[0].errors()[n - 1].kind, ErrorKind::GameTooLarge);
    assert!(trees[1].errors().is_empty());
    // before the first tree: they go to it, bounded the same way
    let mut input = b"junk\n".repeat(1_000);
    input.extend_from_slice(b"(;GM[1];B[aa])");
    let trees = limited(&input, 20 * ERROR_BYTES);
    assert_eq!(trees[0].len(), 2);
    assert!(trees[0].errors().len() <= 21);
    assert_eq!(too_large(&trees[0]).len(), 1);
}

#[test]
fn the_builder_counts_what_estimated_bytes_counts() {
    let long = "y".repeat(5_000);
    for (input, limit) in [
        (
            alloc::format!("(;GM[1]C[{long}]AB[aa][bb];B[zz](;W[cc]AddBlack[dd])(;W[dd]))"),
            usize::MAX,
        ),
        (
            alloc::format!("(;GM[1]C[{long}]AB[aa][bb];B[zz](;W[cc])(;W[dd]))"),
            3_000,
        ),
        (alloc::format!("(;GM[1];B[aa](;W[bb]C[{long}"), 1_000),
        (alloc::format!("(;GM[1];B[aa](;W[bb]C[{long}"), usize::MAX),
    ] {
        let mut b = TreeBuilder::with_scope(Scope::Full).with_max_game_bytes(limit);
        let cfg = Config {
            max_value_piece: 100,
            ..Config::default()
        };
        let mut p = Parser::with_config(cfg);
        let _ = p.feed(input.as_bytes(), &mut b);
        p.finish(&mut b);
        let used = b.used;
        let t = b.take_trees().remove(0);
        assert_eq!(used, t.estimated_bytes(), "{input:.40}");
    }
}

#[test]
fn the_default_limit() {
    let b = TreeBuilder::with_scope(Scope::Full);
    assert_eq!(b.max_game_bytes(), TreeBuilder::DEFAULT_MAX_GAME_BYTES);
    assert_eq!(TreeBuilder::default().max_game_bytes(), 64 << 20);
}

#[test]
fn the_end_of_input_makes_the_last_tree_available() {
    let mut b = TreeBuilder::with_scope(Scope::Full);
    parse(b"(;GM[1];B[aa])(;GM[1];W[bb])", &mut b);
    assert!(b.pop().is_some());
    assert!(b.pop().is_some(), "on_end released the last tree");
    assert!(b.pop().is_none());
    b.finish(); // still allowed, changes nothing
    assert!(b.pop().is_none());
}

#[test]
fn a_tree_starts_with_the_room_of_the_tree_before() {
    let moves: String = (0..200)
        .map(|i| if i % 2 == 0 { ";B[aa]" } else { ";W[bb]" })
        .collect();
    let text = alloc::format!("(;SZ[19]{moves})(;SZ[19];B[cc])(;SZ[9]{moves})");
    let trees: Vec<GameTree> = crate::sgf::game_trees(text.as_bytes()).collect();
    assert_eq!(trees.len(), 3);
    // the first starts with nothing; the second with the first's room, and its content is
    // its own; the third with the second's (two nodes)
    assert_eq!(trees[0].nodes.len(), 201);
    assert!(trees[1].nodes.capacity() >= 201 && trees[1].props.capacity() >= 201);
    assert!(trees[1].values.capacity() >= 201 && trees[1].bytes.capacity() >= trees[0].bytes.len());
    assert_eq!(
        (
            trees[1].nodes.len(),
            trees[1].estimated_bytes() < trees[0].estimated_bytes()
        ),
        (2, true)
    );
    assert_eq!(trees[2].nodes.len(), 201);
    assert_eq!(trees[2].main_line().count(), 201);
}
