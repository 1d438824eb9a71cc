//! `kifu fmt`: games rewritten in the standard form, through the DOM (one game in memory at a
//! time): PGN in the export format of the standard (§8.1), SGF as FF\[4\].

use std::io::{self, Write};

use kifu::{pgn, sgf};

/// What `--strip` leaves out.
#[derive(Clone, Copy, Debug, Default)]
pub struct Strip {
    pub comments: bool,
    pub variations: bool,
    pub nags: bool,
}

/// How to write.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    pub strip: Strip,
    /// PGN: the movetext of a game on one line; SGF: a game tree on one line.
    pub compact: bool,
    /// SGF: one node per line.
    pub node_per_line: bool,
    /// The builders' limit on one game (`--max-game-bytes`).
    pub max_game_bytes: usize,
}

/// Problems met while reading, written to stderr in `kifu check`'s form.
pub struct Problems<'e, E: Write> {
    pub err: &'e mut E,
    pub found: u64,
}

impl<E: Write> Problems<'_, E> {
    fn report(&mut self, line: &str) -> io::Result<()> {
        self.found += 1;
        writeln!(self.err, "{line}")
    }
}

pub fn pgn_writer(o: &Options) -> pgn::Writer {
    pgn::Writer::new()
        .compact(o.compact)
        .comments(!o.strip.comments)
        .variations(!o.strip.variations)
        .nags(!o.strip.nags)
}

pub fn pgn_keep(o: &Options) -> pgn::Scope {
    if o.strip.variations {
        pgn::Scope::MainLine
    } else {
        pgn::Scope::Full
    }
}

/// Writes one PGN game; its problems go to `problems`.
pub fn write_pgn<W: Write, E: Write>(
    game: &pgn::Game,
    writer: &pgn::Writer,
    file: &str,
    out: &mut W,
    problems: &mut Problems<'_, E>,
) -> io::Result<()> {
    for e in &game.errors {
        let line = format!("{file}:{}", e.diagnostic(game.index));
        problems.report(&line)?;
    }
    writer.write(game, out)
}

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

pub fn sgf_scope(o: &Options) -> sgf::Scope {
    if o.strip.variations {
        sgf::Scope::MainLine
    } else {
        sgf::Scope::Full
    }
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
fn strip_tree(tree: &sgf::GameTree, strip: &Strip) -> sgf::GameTree {
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

/// Writes one SGF game tree; its problems go to `problems`.
pub fn write_sgf<W: Write, E: Write>(
    tree: &sgf::GameTree,
    writer: &sgf::Writer,
    strip: &Strip,
    file: &str,
    out: &mut W,
    problems: &mut Problems<'_, E>,
) -> io::Result<()> {
    for e in tree.errors() {
        let line = format!("{file}:{e}");
        problems.report(&line)?;
    }
    if strip.comments || strip.nags {
        writer.write(&strip_tree(tree, strip), &mut *out)
    } else {
        writer.write(tree, &mut *out)
    }
}

/// The problems of a PGN input that held no game (no game carries them), in `kifu check`'s
/// form; gives back their count.
pub fn report_unclaimed_pgn<E: Write>(
    errors: &[pgn::GameError],
    file: &str,
    problems: &mut Problems<'_, E>,
) -> io::Result<u64> {
    for e in errors {
        let line = format!("{file}:{}", e.diagnostic(0));
        problems.report(&line)?;
    }
    Ok(errors.len() as u64)
}

/// The problems of an SGF input that held no game tree, as [`report_unclaimed_pgn`].
pub fn report_unclaimed_sgf<E: Write>(
    errors: &[sgf::TreeError],
    file: &str,
    problems: &mut Problems<'_, E>,
) -> io::Result<u64> {
    for e in errors {
        let line = format!("{file}:{e}");
        problems.report(&line)?;
    }
    Ok(errors.len() as u64)
}
