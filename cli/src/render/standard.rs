//! A piece's games in the standard form of their format (`kifu fmt`'s writers): PGN in the
//! export format of the standard (§8.1), SGF as FF\[4\], with what `--strip` leaves out.

use kifu::{pgn, sgf};
use kifu_pipeline::{DomScope, Listed, More, PerGame, Problem};

use crate::bufs::Out;

/// What `--strip` leaves out.
#[derive(Clone, Copy, Debug, Default)]
pub struct Strip {
    /// Comments (SGF: `C` and `GC`).
    pub comments: bool,
    /// Variations.
    pub variations: bool,
    /// NAGs (SGF: the annotation properties).
    pub nags: bool,
}

/// How to write.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// What is left out.
    pub strip: Strip,
    /// PGN: the movetext of a game on one line; SGF: a game tree on one line.
    pub compact: bool,
    /// SGF: one node per line.
    pub node_per_line: bool,
    /// The builders' limit on one game (`--max-game-bytes`).
    pub max_game_bytes: usize,
}

impl Options {
    /// The standard form: nothing stripped, the default layouts.
    pub fn standard() -> Options {
        Options {
            strip: Strip::default(),
            compact: false,
            node_per_line: false,
            max_game_bytes: pgn::GameBuilder::DEFAULT_MAX_GAME_BYTES,
        }
    }

    /// What the builders keep: every line, or the main line when variations are stripped (the
    /// parser then skips them).
    pub fn scope(&self) -> DomScope {
        let scope = if self.strip.variations {
            DomScope::MAIN_LINE
        } else {
            DomScope::FULL
        };
        scope.with_max_game_bytes(self.max_game_bytes)
    }
}

/// The PGN writer of `o`.
pub fn pgn_writer(o: &Options) -> pgn::Writer {
    pgn::Writer::new()
        .compact(o.compact)
        .comments(!o.strip.comments)
        .variations(!o.strip.variations)
        .nags(!o.strip.nags)
}

/// The SGF writer of `o`.
pub fn sgf_writer(o: &Options) -> sgf::Writer {
    let layout = if o.compact {
        sgf::Layout::Compact
    } else if o.node_per_line {
        sgf::Layout::NodePerLine
    } else {
        sgf::Layout::Pretty
    };
    sgf::Writer::new().layout(layout)
}

/// Comments (`C`, `GC`) and the SGF counterparts of NAGs: move annotations (`BM`, `DO`, `IT`,
/// `TE`), position annotations (`DM`, `GB`, `GW`, `UC`) and hotspots (`HO`).
fn stripped(name: &[u8], strip: &Strip) -> bool {
    (strip.comments && matches!(name, b"C" | b"GC"))
        || (strip.nags
            && matches!(
                name,
                b"BM" | b"DO" | b"IT" | b"TE" | b"DM" | b"GB" | b"GW" | b"UC" | b"HO"
            ))
}

/// `tree` without the properties `strip` names (a copy, built without recursion).
pub fn strip_tree(tree: &sgf::GameTree, strip: &Strip) -> sgf::GameTree {
    let mut out = sgf::GameTree::new();
    out.set_origin(tree.index(), tree.position());
    for e in tree.errors() {
        out.push_error(e.clone());
    }
    if tree.is_empty() {
        return out;
    }
    // (node in `tree`, its copy's parent in `out`); the root maps to the root
    let mut stack = vec![(tree.root(), None::<sgf::NodeId>)];
    while let Some((node, parent)) = stack.pop() {
        let id = match parent {
            None => sgf::NodeId::ROOT,
            Some(p) => out.add_node(p),
        };
        for prop in node.properties() {
            if !stripped(prop.name(), strip) {
                out.add_raw_property(id, prop.name(), prop.values().map(|v| v.as_bytes()));
            }
        }
        let children: Vec<_> = node.children().collect();
        for child in children.into_iter().rev() {
            stack.push((child, Some(id)));
        }
    }
    out
}

/// A piece's games in the standard form, and the problems met reading them.
pub struct Formatted {
    /// The games, written.
    pub out: Out,
    /// Where each game starts in `out`, and its index in the piece.
    pub starts: Vec<(usize, u64)>,
    /// Their problems, in order: each game's listed ones (the first
    /// [`kifu_pipeline::MAX_PROBLEMS_PER_GAME`]), then the count of those its builder left out.
    pub problems: Vec<Listed>,
    pgn: pgn::Writer,
    sgf: sgf::Writer,
    strip: Strip,
    file: std::sync::Arc<str>,
}

impl Formatted {
    /// Games of input `file` written as `o` says.
    pub fn new(o: &Options, file: &str) -> Formatted {
        Formatted {
            out: Out::new(),
            starts: Vec::new(),
            problems: Vec::new(),
            pgn: pgn_writer(o),
            sgf: sgf_writer(o),
            strip: o.strip,
            file: std::sync::Arc::from(file),
        }
    }

    /// Writes a PGN game (its problems kept).
    pub fn write_pgn(&mut self, game: &pgn::Game) {
        self.note_pgn(game);
        self.pgn
            .write(game, &mut self.out)
            .expect("writing to an Out cannot fail");
    }

    /// The writer of PGN games.
    pub fn pgn_writer(&self) -> pgn::Writer {
        self.pgn
    }

    /// Takes a PGN game written already (`text`, as [`pgn_writer`](Self::pgn_writer) writes
    /// it) from its events; `shell` is the game built without its content, with its index and
    /// problems.
    pub fn write_pgn_text(&mut self, shell: &pgn::Game, text: &str) {
        self.note_pgn(shell);
        self.out.extend_from_slice(text.as_bytes());
    }

    /// Where a PGN game starts, and its problems.
    fn note_pgn(&mut self, game: &pgn::Game) {
        let index = game.index;
        self.starts.push((self.out.len(), index));
        self.problems.extend(
            game.errors
                .iter()
                .map(|e| Listed::Problem(Problem::pgn_owned(&self.file, e, index))),
        );
        if game.errors_dropped > 0 {
            self.problems.push(Listed::More(More::dropped(
                &self.file,
                kifu::Format::Pgn,
                index,
                game.errors_dropped,
            )));
        }
    }

    /// Writes an SGF game tree (its problems kept), without what `--strip` leaves out.
    pub fn write_sgf(&mut self, tree: &sgf::GameTree) {
        self.starts.push((self.out.len(), tree.index()));
        self.problems.extend(
            tree.errors()
                .iter()
                .map(|e| Listed::Problem(Problem::sgf_owned(&self.file, e, e.game))),
        );
        if tree.errors_dropped() > 0 {
            self.problems.push(Listed::More(More::dropped(
                &self.file,
                kifu::Format::Sgf,
                tree.index(),
                tree.errors_dropped(),
            )));
        }
        let result = if self.strip.comments || self.strip.nags {
            self.sgf
                .write(&strip_tree(tree, &self.strip), &mut self.out)
        } else {
            self.sgf.write(tree, &mut self.out)
        };
        result.expect("writing to an Out cannot fail");
    }
}

impl PerGame for Formatted {
    fn pgn(&mut self, game: pgn::Game) -> Option<pgn::Game> {
        self.write_pgn(&game);
        Some(game)
    }
    fn sgf(&mut self, tree: sgf::GameTree) {
        self.write_sgf(&tree);
    }
}
