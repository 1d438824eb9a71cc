//! The SGF DOM: the seed file as a tree, very deep trees (built, written, read, dropped
//! without recursion), the iterators against the streaming parser, and read → write → read
//! round trips over the shared corpus.

use std::time::Instant;

use kifu::Control;
use kifu::sgf::{
    self, Config, Context, GameTree, Layout, NodeId, ReadTrees, Scope, TreeBuilder, Visitor, Writer,
};

/// Game trees as the streaming parser counts them (one `on_tree` at depth 0 each).
#[derive(Default)]
struct Games(u64);

impl Visitor for Games {
    fn on_tree(&mut self, ctx: &Context) -> Control {
        if ctx.is_game_level() {
            self.0 += 1;
        }
        Control::Continue
    }
}

fn one(input: &[u8]) -> GameTree {
    let mut it = sgf::game_trees(input);
    let t = it.next().expect("a game tree");
    assert!(it.next().is_none());
    t
}

#[test]
fn seed_as_a_tree() {
    let input = kifu_testkit::data_file("seed-takemiya-cho-meijin-1996.sgf");
    let t = one(&input);
    assert!(t.errors().is_empty(), "{:?}", t.errors());
    assert_eq!(t.len(), 142);
    let branches: usize = t
        .nodes()
        .map(|n| n.children().count().saturating_sub(1))
        .sum();
    assert_eq!(branches, 6);
    let root = t.root();
    let names: Vec<&[u8]> = root.properties().map(|p| p.name()).collect();
    assert_eq!(names[..3], [&b"FF"[..], b"GM", b"SZ"]);
    assert_eq!(root.value(b"FG").unwrap().0, b"257:Figure 1");
    assert_eq!(root.value(b"KM").unwrap().real(), Some(5.5));
    let main: Vec<String> = t
        .main_line()
        .filter_map(|n| n.go_move())
        .take(12)
        .map(|(_, p)| p.unwrap().to_string())
        .collect();
    assert_eq!(
        main,
        [
            "pd", "dp", "pp", "dd", "pj", "nc", "oe", "qc", "pc", "qd", "qf", "rf"
        ]
    );
    assert!(t.nodes().any(|n| {
        n.get(b"LB")
            .is_some_and(|p| p.values().any(|v| v.0 == b"qq:a"))
    }));
    // round trip, in every layout
    for layout in [Layout::Pretty, Layout::NodePerLine, Layout::Compact] {
        let w = Writer::new().layout(layout);
        let out = w.to_vec(&t);
        let back = one(&out);
        assert!(back.errors().is_empty(), "{layout:?}: {:?}", back.errors());
        assert_eq!(back, t, "{layout:?}");
        assert_eq!(w.to_vec(&back), out, "{layout:?}");
    }
    // scopes
    let main_only = sgf::GameTrees::with_config(&input, Scope::MainLine, Config::default())
        .next()
        .unwrap();
    assert_eq!(main_only.len(), t.main_line().count());
    let root_only = sgf::GameTrees::with_config(&input, Scope::GameInfo, Config::default())
        .next()
        .unwrap();
    assert_eq!(root_only.len(), 1);
    fn props(n: sgf::Node<'_>) -> Vec<(Vec<u8>, Vec<Vec<u8>>)> {
        n.properties()
            .map(|p| {
                (
                    p.name().to_vec(),
                    p.values().map(|v| v.0.to_vec()).collect(),
                )
            })
            .collect()
    }
    assert_eq!(props(root_only.root()), props(root));
}

const DEEP: usize = 1_000_000;

#[test]
fn million_deep_line() {
    let start = Instant::now();
    let mut t = GameTree::new();
    t.add_property(NodeId::ROOT, "GM", ["1"]);
    t.add_property(NodeId::ROOT, "SZ", ["19"]);
    let mut cur = NodeId::ROOT;
    for i in 0..DEEP {
        cur = t.add_node(cur);
        let p = [b'a' + (i % 19) as u8, b'a' + (i / 19 % 19) as u8];
        t.add_property(cur, if i % 2 == 0 { "B" } else { "W" }, [p]);
    }
    assert_eq!(t.main_line().count(), DEEP + 1);
    let out = Writer::new().to_vec(&t);
    assert!(out.split(|&b| b == b'\n').all(|l| l.len() <= 80));
    // about 83 MB estimated: past the builder's default limit (64 MiB)
    let unlimited = TreeBuilder::with_scope(Scope::Full).with_max_game_bytes(usize::MAX);
    let back = sgf::GameTrees::with_builder(&out, Config::default(), unlimited)
        .next()
        .unwrap();
    assert!(back.errors().is_empty());
    assert_eq!(back, t);
    let cut = one(&out);
    assert_eq!(cut.errors()[0].kind, sgf::ErrorKind::GameTooLarge);
    assert!(
        cut.len() > DEEP / 2 && cut.estimated_bytes() <= TreeBuilder::DEFAULT_MAX_GAME_BYTES + 200
    );
    drop(back);
    drop(t);
    eprintln!("10^6-node line: {:?}", start.elapsed());
}

#[test]
fn million_deep_variations() {
    // every node has two children: a leaf and the rest of the tree, so the variations nest
    // a million levels deep
    let start = Instant::now();
    let mut t = GameTree::new();
    let mut cur = NodeId::ROOT;
    for _ in 0..DEEP {
        let leaf = t.add_node(cur);
        t.add_property(leaf, "C", ["leaf"]);
        cur = t.add_node(cur);
        t.add_property(cur, "B", ["aa"]);
    }
    let out = Writer::new().to_vec(&t);
    let clone = t.clone();
    assert_eq!(clone, t);
    // the writer's indentation is bounded
    assert!(out.split(|&b| b == b'\n').all(|l| l.len() <= 80));
    let cfg = Config {
        max_depth: 2 * DEEP as u32,
        ..Config::default()
    };
    let unlimited = TreeBuilder::with_scope(Scope::Full).with_max_game_bytes(usize::MAX);
    let back = sgf::GameTrees::with_builder(&out, cfg, unlimited)
        .next()
        .unwrap();
    assert!(back.errors().is_empty(), "{:?}", &back.errors()[..1]);
    assert_eq!(back, t);
    // past the depth limit, serde reports an error instead of overflowing the stack
    #[cfg(feature = "serde")]
    assert!(serde_json::to_vec(&back).is_err());
    drop(back);
    drop(t);
    eprintln!("10^6-deep variations: {:?}", start.elapsed());
}

#[test]
fn reader_and_slice_agree() {
    let input = b"junk (;GM[1]PB[a];B[aa](;W[bb])(;W[cc]))\n(;GM[1]C[x\\]y]) tail (;)";
    let a: Vec<GameTree> = sgf::game_trees(input).collect();
    for size in [1, 2, 7, 64] {
        let b: Vec<GameTree> =
            ReadTrees::with_config(&input[..], Scope::Full, size, Config::default())
                .map(Result::unwrap)
                .collect();
        assert_eq!(a, b);
        let ea: Vec<_> = a.iter().map(|t| t.errors().to_vec()).collect();
        let eb: Vec<_> = b.iter().map(|t| t.errors().to_vec()).collect();
        assert_eq!(ea, eb, "buffer {size}");
    }
    let mut g = Games::default();
    sgf::parse(input, &mut g);
    assert_eq!(a.len() as u64, g.0);
    assert_eq!(a[0].errors()[0].text, b"junk");
    assert_eq!(a[1].errors()[0].text, b"tail");
}

#[test]
fn builder_into_trees() {
    let mut b = TreeBuilder::with_scope(Scope::Full);
    sgf::parse(b"(;B[aa])(;W[bb])", &mut b);
    let t = b.take_trees();
    assert_eq!(t.len(), 2);
    assert_eq!(t[1].index(), 1);
}

#[cfg(feature = "serde")]
#[test]
fn serde_shape() {
    let t = one(b"(;GM[1]PB[Cho\nChikun]C[a\\]b];B[aa](;W[bb];B[cc])(;W[dd]C[\xff]))");
    let v = serde_json::to_value(&t).unwrap();
    let want = serde_json::json!({
        "index": 0,
        "offset": 0,
        "tree": {
            "nodes": [
                {"props": [["GM", ["1"]], ["PB", ["Cho Chikun"]], ["C", ["a]b"]]]},
                {"props": [["B", ["aa"]]]}
            ],
            "variations": [
                {"nodes": [{"props": [["W", ["bb"]]]}, {"props": [["B", ["cc"]]]}], "variations": []},
                {"nodes": [{"props": [["W", ["dd"]], ["C", ["\u{fffd}"]]]}], "variations": []}
            ]
        },
        "errors": []
    });
    assert_eq!(v, want);
    let t = one(b"(;SZ[9];B[zz])");
    let v = serde_json::to_value(&t).unwrap();
    assert_eq!(
        v["errors"],
        serde_json::json!([{
            "kind": "illegal_point", "code": "E14", "severity": "error", "message": "illegal point", "text": "zz",
            "offset": 9, "line": 1, "column": 10, "node": 1, "depth": 0
        }])
    );
}

/// Serializing variations nested to the limit fits a test thread's stack (2 MiB, debug).
#[cfg(feature = "serde")]
#[test]
fn serde_depth_limit_fits_the_stack() {
    let mut t = GameTree::new();
    let mut cur = NodeId::ROOT;
    for _ in 0..sgf::SERDE_MAX_DEPTH {
        t.add_node(cur);
        cur = t.add_node(cur);
    }
    assert!(serde_json::to_vec(&t).is_ok());
    t.add_node(cur);
    t.add_node(cur);
    assert!(serde_json::to_vec(&t).is_err());
}

/// Branch points on the deepest path of a tree read from a file (parents come before their
/// children in arena order).
fn branch_depth(t: &GameTree) -> u32 {
    let mut depth = vec![0u32; t.len()];
    let mut max = 0;
    for n in t.nodes() {
        if let Some(p) = n.parent() {
            let d = depth[p.id().index()] + u32::from(p.children().nth(1).is_some());
            depth[n.id().index()] = d;
            max = max.max(d);
        }
    }
    max
}

/// Read → write → read over every SGF of the corpus: the iterator yields as many game trees as
/// the streaming parser, and each tree read without error-severity errors writes to SGF that
/// reads back to an equal tree, which writes to the same bytes.
#[test]
#[cfg_attr(not(kifu_shared), ignore = "needs ../shared (the corpus)")]
fn corpus_round_trip() {
    let dir = kifu_testkit::shared().join("corpus").join("sgf");
    let start = Instant::now();
    let files = kifu_testkit::files_with_ext(&dir, "sgf");
    let (mut trees, mut checked, mut bytes, mut deepest) = (0u64, 0u64, 0u64, 0u32);
    let mut repaired = [0u64; 2];
    for (i, path) in files.iter().enumerate() {
        let data = std::fs::read(path).unwrap();
        bytes += data.len() as u64;
        let name = path.strip_prefix(&dir).unwrap().display();
        let mut g = Games::default();
        sgf::parse(&data, &mut g);
        let read: Vec<GameTree> = sgf::game_trees(&data).collect();
        assert_eq!(read.len() as u64, g.0, "{name}: game trees");
        trees += g.0;
        // every 16th file also through the reader, with a small buffer
        if i % 16 == 0 {
            let r: Vec<GameTree> =
                ReadTrees::with_config(&data[..], Scope::Full, 509, Config::default())
                    .map(Result::unwrap)
                    .collect();
            assert!(r == read, "{name}: reader and slice differ");
        }
        let layout = [Layout::Pretty, Layout::NodePerLine, Layout::Compact][i % 3];
        let w = Writer::new().layout(layout);
        for t in &read {
            deepest = deepest.max(branch_depth(t));
            let out = w.to_vec(t);
            if t.has_errors() {
                // repaired on reading: the repaired tree usually survives too (counted only)
                let back: Vec<GameTree> = sgf::game_trees(&out).collect();
                repaired[usize::from(back.len() == 1 && back[0] == *t)] += 1;
                continue;
            }
            let back = one(&out);
            assert!(
                !back.has_errors(),
                "{name}: game {}: {:?}",
                t.index(),
                back.errors()
            );
            assert!(
                back == *t,
                "{name}: game {} differs after a round trip",
                t.index()
            );
            assert!(
                w.to_vec(&back) == out,
                "{name}: game {}: output unstable",
                t.index()
            );
            checked += 1;
        }
    }
    eprintln!(
        "{} files, {} bytes, {trees} game trees, {checked} round trips ({} of {} trees \
         with errors also equal after one), variations nested \
         {deepest} deep at most, in {:?}",
        files.len(),
        bytes,
        repaired[1],
        repaired[0] + repaired[1],
        start.elapsed()
    );
    assert!(deepest <= sgf::SERDE_MAX_DEPTH);
}

/// A `Read` that yields `head`, then `body` `times` times, without holding the stream.
struct Stream<'a> {
    head: &'a [u8],
    body: &'a [u8],
    times: usize,
    at: usize,
}

impl std::io::Read for Stream<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if !self.head.is_empty() {
            let n = self.head.len().min(buf.len());
            buf[..n].copy_from_slice(&self.head[..n]);
            self.head = &self.head[n..];
            return Ok(n);
        }
        if self.times == 0 {
            return Ok(0);
        }
        let n = (self.body.len() - self.at).min(buf.len());
        buf[..n].copy_from_slice(&self.body[self.at..self.at + n]);
        self.at += n;
        if self.at == self.body.len() {
            self.at = 0;
            self.times -= 1;
        }
        Ok(n)
    }
}

/// A tree whose `)` is missing, then thousands of games: the parser rightly makes them all
/// variations of that tree, and the builder's limit keeps it bounded (`E103`, then the rest
/// skipped to the end of input, `E09`).
#[test]
fn an_unclosed_tree_before_many_games_stays_within_the_limit() {
    let seed = kifu_testkit::data_file("seed-takemiya-cho-meijin-1996.sgf");
    let times = 3_000; // about 4.5 MB
    let stream = |times| Stream {
        head: b"(;GM[1]FF[4]SZ[19]PB[broken]PW[file];B[pd];W[dp]\n",
        body: &seed,
        times,
        at: 0,
    };
    let limit = 1 << 20;
    let start = Instant::now();
    // every problem kept (the count's limit is another test's): the byte limit alone
    let builder = TreeBuilder::with_scope(Scope::Full)
        .with_max_game_bytes(limit)
        .with_max_game_errors(usize::MAX);
    let reader = sgf::Reader::with_config(stream(times), 1 << 16, Config::default());
    let trees: Vec<GameTree> = ReadTrees::with_builder(reader, builder)
        .map(Result::unwrap)
        .collect();
    assert_eq!(trees.len(), 1);
    let t = &trees[0];
    let bytes = t.estimated_bytes();
    assert!(bytes <= limit + 400, "{bytes}");
    assert!(bytes > limit - 5_000, "{bytes}");
    let e103: Vec<_> = t.errors().iter().filter(|e| e.code() == "E103").collect();
    assert_eq!(e103.len(), 1);
    assert!(e103[0].pos.offset < 1_000_000); // far before the end: the rest was skipped
    assert_eq!(t.errors().last().unwrap().code(), "E09");
    assert_eq!(t.root().value(b"PB").unwrap().0, b"broken");
    // unbounded, the same tree grows with the stream
    let few = 100;
    let whole = ReadTrees::with_config(stream(few), Scope::Full, 1 << 16, Config::default())
        .next()
        .unwrap()
        .unwrap();
    let per_game = whole.estimated_bytes() / few;
    assert!(per_game * times > 10 * limit, "{per_game}");
    assert!(!whole.errors().iter().any(|e| e.code() == "E103"));
    eprintln!(
        "unclosed tree + {times} games ({} bytes): {} nodes kept, {bytes} bytes estimated \
         (unbounded: about {} bytes), {:.2?}",
        49 + times * seed.len(),
        t.len(),
        per_game * times,
        start.elapsed()
    );
}
