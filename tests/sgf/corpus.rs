//! The shared SGF corpus (`../shared/corpus/sgf`, when present): every file parses without a
//! panic into well-nested events, the same through a small read buffer as from a slice, and
//! every file holding `(;` yields at least one game tree. Prints the game-tree count and a
//! table of the diagnostics kifu reports over the corpus.

use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};

use kifu::Control;
use kifu::sgf::{self, Context, Error, ErrorKind, Move, Reader, Visitor};

/// What the visitor saw, compared between the slice and the reader.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Summary {
    games: u64,
    trees: u64,
    nodes: u64,
    moves: u64,
    open: i64,
    depth: u32,
    errors: BTreeMap<&'static str, u64>,
    nested_ok: bool,
}

impl Visitor for Summary {
    fn on_tree(&mut self, ctx: &Context) -> Control {
        if ctx.depth as i64 != self.open {
            self.nested_ok = false;
        }
        self.open += 1;
        self.trees += 1;
        self.depth = self.depth.max(ctx.depth);
        Control::Continue
    }
    fn on_tree_end(&mut self, ctx: &Context) -> Control {
        self.open -= 1;
        if ctx.depth as i64 != self.open {
            self.nested_ok = false;
        }
        if ctx.depth == 0 {
            self.games += 1;
        }
        Control::Continue
    }
    fn on_node(&mut self, _: &Context) -> Control {
        self.nodes += 1;
        Control::Continue
    }
    fn on_move(&mut self, _: &Context, _: &Move<'_>) -> Control {
        self.moves += 1;
        Control::Continue
    }
    fn on_error(&mut self, e: &Error<'_>) -> Control {
        *self.errors.entry(e.kind.code()).or_default() += 1;
        Control::Continue
    }
}

#[test]
#[cfg_attr(not(kifu_shared), ignore = "needs ../shared (the corpus)")]
fn whole_corpus() {
    let dir = kifu_testkit::shared().join("corpus").join("sgf");
    let files = kifu_testkit::files_with_ext(&dir, "sgf");
    let mut total = Summary::default();
    let mut bytes = 0u64;
    for (i, path) in files.iter().enumerate() {
        let data = std::fs::read(path).unwrap();
        bytes += data.len() as u64;
        let name = path.strip_prefix(&dir).unwrap().display().to_string();
        let s = catch_unwind(AssertUnwindSafe(|| {
            let mut s = Summary {
                nested_ok: true,
                ..Summary::default()
            };
            let _ = sgf::parse(&data, &mut s);
            s
        }))
        .unwrap_or_else(|_| panic!("{name}: panic"));
        assert!(s.nested_ok && s.open == 0, "{name}: trees badly nested");
        if memchr::memmem::find(&data, b"(;").is_some() {
            assert!(s.games > 0, "{name}: no game tree found");
        }
        // every 16th file again through a small read buffer: the same events
        if i % 16 == 0 {
            let mut r = Summary {
                nested_ok: true,
                ..Summary::default()
            };
            Reader::with_config(&data[..], 61, sgf::Config::default())
                .read_all(&mut r)
                .unwrap();
            assert_eq!(r, s, "{name}: chunked reading differs");
        }
        total.games += s.games;
        total.trees += s.trees;
        total.nodes += s.nodes;
        total.moves += s.moves;
        total.depth = total.depth.max(s.depth);
        for (k, n) in s.errors {
            *total.errors.entry(k).or_default() += n;
        }
    }
    eprintln!(
        "SGF corpus: {} files, {bytes} bytes, {} game trees, {} trees, {} nodes, {} moves, deepest {}",
        files.len(),
        total.games,
        total.trees,
        total.nodes,
        total.moves,
        total.depth
    );
    for kind in ErrorKind::ALL {
        if let Some(n) = total.errors.get(kind.code()) {
            eprintln!("  {:>5} {n:>8}  {kind}", kind.code());
        }
    }
    assert!(total.games >= files.len() as u64 / 2);
}
