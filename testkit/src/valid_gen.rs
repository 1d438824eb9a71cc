//! Generators of valid game records, shared by `tests/pgn/valid.rs`, `tests/sgf/valid.rs` and
//! the fuzz targets `pgn_valid` and `sgf_valid`.
//!
//! Every choice is read from a byte string ([`Source`]): proptest hands it random bytes (and
//! shrinks them towards fewer and smaller bytes), libFuzzer hands it its input. A byte past the
//! end reads as 0, and 0 always picks the simplest option (stop a loop, the first item of a
//! list), so a shorter or smaller input gives a smaller game.
//!
//! The games are *valid*: written by the project's writers, they must read back to the same DOM
//! without any diagnostic. What PGN or SGF cannot hold is left out (a `}` in a brace comment, a
//! line break in a tag value, a move in the SGF root, two properties of one name in a node…);
//! everything else that is awkward for a reader is put in on purpose: line breaks (LF, CRLF),
//! comment lines that look like tag pairs, `%` at the start of a line, `;`, quotes, backslashes,
//! brackets, results and move numbers inside comments, non-ASCII text.

use kifu::Status;
use kifu::pgn::{self, Game, GameBuilder, Nag, Node, Outcome, Variation};
use kifu::sgf::{self, GameTree, NodeId, Scope, TreeBuilder};

/// The choices, read one byte at a time; 0 past the end.
pub struct Source<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Source<'a> {
    pub fn new(data: &'a [u8]) -> Source<'a> {
        Source { data, pos: 0 }
    }

    pub fn byte(&mut self) -> u8 {
        let b = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }

    /// Whether the input has bytes left.
    pub fn is_empty(&self) -> bool {
        self.pos >= self.data.len()
    }

    /// A number in `0..n` (`n` ≤ 256; 0 when the bytes ran out).
    pub fn below(&mut self, n: usize) -> usize {
        debug_assert!((1..=256).contains(&n));
        self.byte() as usize % n
    }

    /// A number in `0..n`, for `n` up to 65536.
    pub fn below16(&mut self, n: usize) -> usize {
        let v = (self.byte() as usize) << 8 | self.byte() as usize;
        v % n
    }

    /// Whether to go on (a loop, an option): true with about `pct` percent, never once the
    /// bytes ran out.
    pub fn more(&mut self, pct: usize) -> bool {
        let b = self.byte() as usize;
        b != 0 && (b - 1) * 100 < pct * 255
    }

    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

// ----- text -------------------------------------------------------------------------------

/// Pieces of comment text (no `}`, which a brace comment cannot hold).
const COMMENT_BITS: &[&str] = &[
    "a",
    " ",
    "word",
    "\n",
    "\r\n",
    "[Event \"x\"]",
    "\n[Event \"x\"]\n",
    "\r\n[Site \"?\"]",
    "[White \"Tal\"]\n",
    "\n[ Round \"1\" ]",
    "[Event",
    " \"x\"]",
    ";",
    "; not a line comment",
    "%",
    "\n%",
    "\n% not an escape",
    "\"",
    "\\",
    "\\\"",
    "[",
    "]",
    "1-0",
    "0-1",
    "1/2-1/2",
    "*",
    "\n1-0\n",
    "\n*",
    "1.",
    "12...",
    "1. e4",
    "{",
    "(",
    ")",
    "$1",
    "!?",
    "Nf3",
    "[%clk 0:01:00]",
    "[%eval +0.3]",
    "\t",
    "  ",
    "é",
    "café",
    "中文",
    "½",
    "–",
    "\u{a0}",
    "😀",
    "\n\n",
    "\n ",
    " \n",
];

/// Pieces of a tag value: no line break or tab (written as a space), anything else.
const TAG_BITS: &[&str] = &[
    "x",
    " ",
    "Tal, Mikhail",
    "\"",
    "\\",
    "\\\"",
    "\"]",
    "]",
    "[",
    "[Event \"x\"]",
    "{",
    "}",
    ";",
    "%",
    "(",
    ")",
    "1-0",
    "*",
    "?",
    "1.",
    "é",
    "Ĳ",
    "中文",
    "😀",
    "\u{a0}",
    "½",
    "",
];

fn text_of(src: &mut Source<'_>, bits: &[&str], max: usize) -> String {
    let mut s = String::new();
    let mut n = 0;
    while n < max && src.more(80) {
        s.push_str(src.pick(bits));
        n += 1;
    }
    s
}

// ----- PGN --------------------------------------------------------------------------------

/// How big a PGN game may grow.
#[derive(Clone, Copy, Debug)]
pub struct PgnLimits {
    /// Moves in the whole tree.
    pub moves: usize,
    /// Variation nesting.
    pub depth: usize,
}

impl Default for PgnLimits {
    fn default() -> Self {
        PgnLimits {
            moves: 60,
            depth: 4,
        }
    }
}

const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];
const OTHER_TAGS: &[&str] = &[
    "ECO",
    "WhiteElo",
    "BlackElo",
    "Annotator",
    "PlyCount",
    "TimeControl",
    "Termination",
    "Opening",
    "Variation",
    "EventDate",
    "Mode",
    "Time",
    "UTCDate",
    "WhiteTitle",
    "Board",
    "Variant",
];

fn tag_name(src: &mut Source<'_>) -> String {
    if src.more(70) {
        return src.pick(OTHER_TAGS).to_string();
    }
    // a name of its own: a letter, then letters, digits and `_`
    const FIRST: &[u8] = b"ABCXYZabcxyz";
    const REST: &[u8] = b"AZaz09_+#=:-";
    let mut s = String::new();
    s.push(src.pick(FIRST) as char);
    while s.len() < 20 && src.more(60) {
        s.push(src.pick(REST) as char);
    }
    s
}

const OUTCOMES: [Outcome; 4] = [
    Outcome::Unknown,
    Outcome::WhiteWins,
    Outcome::BlackWins,
    Outcome::Draw,
];

/// A move text: any syntactically valid SAN (moves need not be legal).
pub fn san_text(src: &mut Source<'_>) -> String {
    let file = |src: &mut Source<'_>| (b'a' + src.below(8) as u8) as char;
    let rank = |src: &mut Source<'_>| (b'1' + src.below(8) as u8) as char;
    let mut s = String::new();
    match src.below(12) {
        0..=3 => {
            // a pawn: e4, exd5, e8=Q, exd1=N
            let f = file(src);
            let capture = src.more(40);
            let promo = src.more(25);
            s.push(f);
            if capture {
                s.push('x');
                s.push(file(src));
            }
            if promo {
                s.push(if src.more(50) { '8' } else { '1' });
                s.push('=');
                s.push(src.pick(&['Q', 'R', 'B', 'N']));
            } else {
                s.push(rank(src));
            }
        }
        4..=8 => {
            // a piece: Nf3, Nbd7, R1e2, Qh4xe1, Kxe2
            s.push(src.pick(&['N', 'B', 'R', 'Q', 'K']));
            match src.below(4) {
                0 => {}
                1 => s.push(file(src)),
                2 => s.push(rank(src)),
                _ => {
                    s.push(file(src));
                    s.push(rank(src));
                }
            }
            if src.more(40) {
                s.push('x');
            }
            s.push(file(src));
            s.push(rank(src));
        }
        9 => s.push_str(src.pick(&["O-O", "O-O-O", "0-0", "0-0-0"])),
        10 => s.push_str("--"),
        _ => {
            s.push(file(src));
            s.push(rank(src));
        }
    }
    match src.below(6) {
        4 => s.push('+'),
        5 => s.push('#'),
        _ => {}
    }
    s
}

/// A comment: a brace comment's text (no `}`), or now and then a `;` comment's (a `}` but
/// no line break: the writer writes it after `;`).
fn comment(src: &mut Source<'_>) -> String {
    if src.more(10) {
        let mut s: String = text_of(src, COMMENT_BITS, 8).replace(['\r', '\n'], " ");
        s.push('}');
        s.push_str(&text_of(src, COMMENT_BITS, 4).replace(['\r', '\n'], " "));
        return s;
    }
    text_of(src, COMMENT_BITS, 12)
}

fn comments(src: &mut Source<'_>, pct: usize) -> Vec<String> {
    let mut v = Vec::new();
    while v.len() < 3 && src.more(pct) {
        v.push(comment(src));
    }
    v
}

struct MoveBudget {
    left: usize,
}

/// A line of moves at nesting `depth`; `first_comments`: whether its first move may have
/// comments before it (the first move of a variation).
fn line(
    src: &mut Source<'_>,
    budget: &mut MoveBudget,
    lim: &PgnLimits,
    depth: usize,
    in_variation: bool,
) -> Vec<Node> {
    let mut moves = Vec::new();
    while budget.left > 0 && (moves.is_empty() && in_variation || src.more(85)) {
        budget.left -= 1;
        let text = san_text(src);
        let mut node = Node::parse(&text)
            .unwrap_or_else(|| panic!("the generator's move {text:?} is no SAN to kifu"));
        if in_variation && moves.is_empty() {
            node.comments_before = comments(src, 20);
        }
        while node.nags.len() < 3 && src.more(15) {
            // often the suffixes (1-6) and the common ones, else any 0-255
            let nag = if src.more(60) {
                src.below(20) as u8
            } else {
                src.byte()
            };
            node.nags.push(Nag(nag));
        }
        node.comments = comments(src, 20);
        if depth < lim.depth {
            while node.variations.len() < 3 && src.more(12) {
                let moves = line(src, budget, lim, depth + 1, true);
                let mut var = Variation::from_moves(moves);
                if var.moves.is_empty() {
                    var.comments = comments(src, 50);
                }
                node.variations.push(var);
            }
        }
        moves.push(node);
    }
    moves
}

/// A game in the shape a reader gives it back: the Seven Tag Roster first, in its order, the
/// `Result` tag equal to the result, other tags after it with distinct names, a result.
pub fn pgn_game(src: &mut Source<'_>, lim: &PgnLimits) -> Game {
    let mut game = Game::new();
    let result = src.pick(&OUTCOMES);
    for name in ROSTER {
        let value = match name {
            "Result" => result.as_str().to_string(),
            "Date" if src.more(50) => "????.??.??".to_string(),
            "Date" => format!(
                "{:04}.{:02}.{:02}",
                1800 + src.below(230),
                1 + src.below(12),
                1 + src.below(28)
            ),
            _ if src.more(20) => "?".to_string(),
            _ => text_of(src, TAG_BITS, 6),
        };
        game.tags.push((name.to_string(), value));
    }
    if src.more(15) {
        // a game from a position: the numbers follow the FEN's move number and side to move
        let side = if src.more(50) { "b" } else { "w" };
        let number = 1 + src.below16(300);
        game.tags.push(("SetUp".into(), "1".into()));
        game.tags.push((
            "FEN".into(),
            format!("4k3/8/8/8/8/8/8/4K3 {side} - - 0 {number}"),
        ));
    }
    while game.tags.len() < 14 && src.more(40) {
        let name = tag_name(src);
        if game.tags.iter().any(|(n, _)| *n == name) || ROSTER.contains(&name.as_str()) {
            continue;
        }
        let value = text_of(src, TAG_BITS, 6);
        game.tags.push((name, value));
    }
    game.comments = comments(src, 25);
    let mut budget = MoveBudget { left: lim.moves };
    game.moves = line(src, &mut budget, lim, 0, false);
    game.result = Some(result);
    game
}

/// The deepest variation nesting of a move tree (0: no variation).
pub fn pgn_depth(moves: &[Node]) -> usize {
    let mut deepest = 0;
    let mut stack = vec![(moves, 0usize)];
    while let Some((line, d)) = stack.pop() {
        deepest = deepest.max(d);
        for node in line {
            for v in &node.variations {
                stack.push((&v.moves, d + 1));
            }
        }
    }
    deepest
}

/// A writer: with `exact`, one that writes comments exactly (`wrap_comments(false)`), else one
/// that lays them out (the export format); on one line, or at some line width.
pub fn pgn_writer(src: &mut Source<'_>, exact: bool) -> pgn::Writer {
    let w = pgn::Writer::new().wrap_comments(!exact);
    match src.below(3) {
        0 => w,
        1 => w.compact(true),
        _ => w.line_width(1 + src.below(100)),
    }
}

// ----- SGF --------------------------------------------------------------------------------

/// Pieces of SGF text values: everything is allowed in a Text or SimpleText value once the
/// writer (or `GameTree::add_property`) escaped `]` and `\`.
const SGF_BITS: &[&str] = &[
    "a",
    " ",
    "word",
    "]",
    "\\",
    "\\]",
    "\\\\",
    ":",
    "(",
    ")",
    ";",
    "(;",
    ")(",
    "[",
    "\n",
    "\r\n",
    "\r",
    "\\\n",
    "C[x]",
    "XX[...]",
    "B[aa]",
    ";W[]",
    "AB[aa:cc]",
    "\t",
    "é",
    "中文",
    "囲碁",
    "😀",
    "\u{a0}",
    "",
];

fn sgf_text(src: &mut Source<'_>) -> String {
    text_of(src, SGF_BITS, 10)
}

/// A point of a board `cols` × `rows` (`a`–`z`, then `A`–`Z`).
fn coord(i: usize) -> char {
    if i < 26 {
        (b'a' + i as u8) as char
    } else {
        (b'A' + (i - 26) as u8) as char
    }
}

fn point(src: &mut Source<'_>, cols: usize, rows: usize) -> String {
    let mut s = String::new();
    s.push(coord(src.below(cols)));
    s.push(coord(src.below(rows)));
    s
}

/// Distinct points not in `taken` (which gets them).
fn points(
    src: &mut Source<'_>,
    cols: usize,
    rows: usize,
    taken: &mut Vec<String>,
    max: usize,
) -> Vec<String> {
    let mut v = Vec::new();
    let mut tries = 0;
    while v.len() < max && tries < 2 * max && (v.is_empty() || src.more(60)) {
        tries += 1;
        let p = point(src, cols, rows);
        if !taken.contains(&p) {
            taken.push(p.clone());
            v.push(p);
        }
    }
    v
}

/// How big an SGF tree may grow.
#[derive(Clone, Copy, Debug)]
pub struct SgfLimits {
    pub nodes: usize,
    /// Nodes of a path with more than one child.
    pub branches: usize,
}

impl Default for SgfLimits {
    fn default() -> Self {
        SgfLimits {
            nodes: 80,
            branches: 5,
        }
    }
}

/// A Go game tree with nothing a reader would report: `GM[1]` (`FF[4]`, `CA[UTF-8]`, `SZ`,
/// `AP`, game information) in the root, then nodes of a move (`B`/`W`, a point or a pass) or
/// of setup (`AB`/`AW`/`AE`, `PL`), with comments, names, labels and marks, in nested
/// variations.
pub fn sgf_tree(src: &mut Source<'_>, lim: &SgfLimits) -> GameTree {
    let mut t = GameTree::new();
    let root = NodeId::ROOT;
    t.add_property(root, "GM", ["1"]);
    if src.more(70) {
        t.add_property(root, "FF", ["4"]);
    }
    t.add_property(root, "CA", ["UTF-8"]);
    let (cols, rows) = match src.below(6) {
        0 => (19, 19),
        1 => {
            t.add_property(root, "SZ", ["9"]);
            (9, 9)
        }
        2 => {
            t.add_property(root, "SZ", ["13"]);
            (13, 13)
        }
        3 => {
            let n = 1 + src.below(52);
            t.add_property(root, "SZ", [n.to_string()]);
            (n, n)
        }
        4 => {
            let c = 1 + src.below(52);
            let mut r = 1 + src.below(52);
            if r == c {
                r = if c == 52 { 51 } else { c + 1 };
            }
            t.add_property(root, "SZ", [format!("{c}:{r}")]);
            (c, r)
        }
        _ => {
            t.add_property(root, "SZ", ["19"]);
            (19, 19)
        }
    };
    if src.more(40) {
        let (a, b) = (sgf_text(src), sgf_text(src));
        t.add_compose(root, "AP", [(a, b)]);
    }
    const INFO: &[&str] = &[
        "PB", "PW", "GN", "GC", "EV", "RE", "DT", "PC", "BR", "WR", "RO", "SO", "US", "AN", "CP",
        "ON", "OT", "RU", "BT", "WT",
    ];
    let mut used: Vec<&str> = Vec::new();
    while used.len() < 8 && src.more(60) {
        let name = src.pick(INFO);
        if !used.contains(&name) {
            used.push(name);
            t.add_property(root, name, [sgf_text(src)]);
        }
    }
    if src.more(30) {
        t.add_property(root, "KM", [src.pick(&["6.5", "0", "-3.5", "7.5", "375"])]);
    }
    if src.more(20) {
        t.add_property(root, "HA", [(2 + src.below(8)).to_string()]);
    }
    node_extras(src, &mut t, root, cols, rows);

    // the tree: a stack of open nodes, each to get children
    let mut made = 1;
    let mut stack = vec![(root, 0usize)];
    while let Some((parent, branches)) = stack.pop() {
        if made >= lim.nodes {
            break;
        }
        let mut kids = 1;
        if branches < lim.branches {
            while kids < 3 && src.more(15) {
                kids += 1;
            }
        }
        // the first `kids` children; a leaf if the bytes say stop
        if !src.more(92) {
            continue;
        }
        let b = branches + usize::from(kids > 1);
        for _ in 0..kids {
            if made >= lim.nodes {
                break;
            }
            made += 1;
            let n = t.add_node(parent);
            sgf_node(src, &mut t, n, cols, rows);
            stack.push((n, b));
        }
    }
    t
}

fn sgf_node(src: &mut Source<'_>, t: &mut GameTree, n: NodeId, cols: usize, rows: usize) {
    match src.below(8) {
        0 => {
            // setup
            let mut taken = Vec::new();
            for name in ["AB", "AW", "AE"] {
                if src.more(50) {
                    let ps = points(src, cols, rows, &mut taken, 6);
                    if !ps.is_empty() {
                        t.add_property(n, name, ps);
                    }
                }
            }
            if src.more(20) {
                t.add_property(n, "PL", [src.pick(&["B", "W"])]);
            }
        }
        1 => {} // an empty node
        _ => {
            let color = if src.more(50) { "W" } else { "B" };
            let value = if src.more(10) {
                String::new() // a pass
            } else {
                point(src, cols, rows)
            };
            t.add_property(n, color, [value]);
            if src.more(10) {
                t.add_property(n, "MN", [(1 + src.below16(300)).to_string()]);
            }
            // move annotations (one of them), timing, ko
            match src.below(8) {
                0 => t.add_property(n, src.pick(&["BM", "TE"]), [src.pick(&["1", "2"])]),
                1 => t.add_property(n, src.pick(&["DO", "IT"]), [""]),
                2 => t.add_property(n, "KO", [""]),
                3 => {
                    let c = if color == "B" {
                        ["BL", "OB"]
                    } else {
                        ["WL", "OW"]
                    };
                    t.add_property(n, c[0], [src.pick(&["12.5", "300", "0", "59.9"])]);
                    t.add_property(n, c[1], [src.below(30).to_string()]);
                }
                _ => {}
            }
        }
    }
    node_extras(src, t, n, cols, rows);
}

/// Comments, names, labels and marks (any node).
fn node_extras(src: &mut Source<'_>, t: &mut GameTree, n: NodeId, cols: usize, rows: usize) {
    if src.more(30) {
        t.add_property(n, "C", [sgf_text(src)]);
    }
    if src.more(10) {
        t.add_property(n, "N", [sgf_text(src)]);
    }
    if src.more(10) {
        let mut taken = Vec::new();
        let labels: Vec<(String, String)> = points(src, cols, rows, &mut taken, 3)
            .into_iter()
            .map(|p| (p, sgf_text(src)))
            .collect();
        t.add_compose(n, "LB", labels);
    }
    if src.more(10) {
        let mut taken = Vec::new();
        let name = src.pick(&["MA", "TR", "CR", "SQ", "SL"]);
        t.add_property(n, name, points(src, cols, rows, &mut taken, 4));
    }
    if src.more(8) {
        // point pairs: arrows and lines
        let name = src.pick(&["AR", "LN"]);
        let mut pairs = Vec::new();
        while pairs.len() < 3 && (pairs.is_empty() || src.more(50)) {
            let (a, b) = (point(src, cols, rows), point(src, cols, rows));
            if a != b && !pairs.contains(&(a.clone(), b.clone())) {
                pairs.push((a, b));
            } else {
                break;
            }
        }
        if !pairs.is_empty() {
            t.add_compose(n, name, pairs);
        }
    }
    match src.below(10) {
        // elists: `[]` alone, or points
        0 => t.add_property(n, src.pick(&["VW", "DD"]), [""]),
        1 => {
            let mut taken = Vec::new();
            let name = src.pick(&["VW", "DD", "TB", "TW"]);
            t.add_property(n, name, points(src, cols, rows, &mut taken, 3));
        }
        // a node annotation, a value
        2 => t.add_property(
            n,
            src.pick(&["GB", "GW", "DM", "UC"]),
            [src.pick(&["1", "2"])],
        ),
        3 => t.add_property(n, "V", [src.pick(&["0.5", "-12", "3"])]),
        _ => {}
    }
}

/// The deepest nesting the writer gives the tree: the number of nodes with several children on
/// the deepest path.
pub fn sgf_depth(t: &GameTree) -> usize {
    let mut deepest = 0;
    let mut stack = vec![(t.root(), 0usize)];
    while let Some((n, d)) = stack.pop() {
        deepest = deepest.max(d);
        let k = n.children().count();
        let d = d + usize::from(k > 1);
        for c in n.children() {
            stack.push((c, d));
        }
    }
    deepest
}

/// The longest value of a tree, in bytes (as written).
pub fn sgf_longest_value(t: &GameTree) -> usize {
    let mut longest = 0;
    for n in t.nodes() {
        for p in n.properties() {
            for v in p.values() {
                longest = longest.max(v.0.len());
            }
        }
    }
    longest
}

pub fn sgf_writer(src: &mut Source<'_>) -> sgf::Writer {
    let w = sgf::Writer::new();
    match src.below(4) {
        0 => w,
        1 => w.layout(sgf::Layout::NodePerLine),
        2 => w.layout(sgf::Layout::Compact),
        _ => w.width(1 + src.below(100)).max_indent(src.below(10)),
    }
}

// ----- PGN text of our own --------------------------------------------------------------------

/// White space between two tokens: none where PGN allows it (`glue`: one of them delimits
/// itself), else a space, several, or a line break (LF or CRLF).
fn gap(src: &mut Source<'_>, out: &mut String, glue: bool) {
    match src.below(8) {
        0 | 1 if glue => {}
        5 => out.push('\n'),
        6 => out.push_str("\r\n"),
        7 => out.push_str("  "),
        _ => out.push(' '),
    }
}

/// What the last token written was, for the spacing of the next.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Last {
    /// Start of the movetext, or a line break just written.
    Start,
    /// A move number (`12.` or `12...`): a move may follow without a space.
    Number,
    /// A move or a NAG.
    Symbol,
    /// `{…}`, `(` or `)`: anything may follow without a space.
    Delimiter,
}

struct Text<'s, 'a> {
    src: &'s mut Source<'a>,
    out: String,
    last: Last,
}

impl Text<'_, '_> {
    /// Writes `tok` after the white space the source picks; `delim`: whether `tok` delimits
    /// itself on the left (`{`, `(`, `)`, `$`).
    fn token(&mut self, tok: &str, delim: bool, last: Last) {
        if self.last != Last::Start {
            let glue = delim || matches!(self.last, Last::Number | Last::Delimiter);
            gap(self.src, &mut self.out, glue);
        }
        self.out.push_str(tok);
        self.last = last;
    }

    fn comment(&mut self, c: &str) {
        if c.contains('}') {
            // a `;` comment, to the end of its line
            self.token(&format!(";{c}"), true, Last::Start);
            self.out
                .push_str(if self.src.more(50) { "\n" } else { "\r\n" });
        } else {
            self.token(&format!("{{{c}}}"), true, Last::Delimiter);
        }
    }

    fn line(&mut self, moves: &[Node], start: u32) {
        let mut number = true;
        for (i, node) in moves.iter().enumerate() {
            for c in &node.comments_before {
                self.comment(c);
                number = true;
            }
            let ply = start + i as u32 + 1;
            let n = ply.div_ceil(2);
            if ply % 2 == 1 {
                self.token(&format!("{n}."), false, Last::Number);
            } else if number || self.src.more(20) {
                self.token(&format!("{n}..."), false, Last::Number);
            }
            self.token(&node.text, false, Last::Symbol);
            number = false;
            let mut nags = &node.nags[..];
            // the first NAG may be a suffix of the move: `e4!?`
            const SUFFIX: [&str; 7] = ["", "!", "?", "!!", "??", "!?", "?!"];
            if let Some(&Nag(k @ 1..=6)) = nags.first()
                && self.src.more(50)
            {
                self.out.push_str(SUFFIX[k as usize]);
                nags = &nags[1..];
            }
            for nag in nags {
                self.token(&format!("${}", nag.0), true, Last::Symbol);
            }
            for c in &node.comments {
                self.comment(c);
                number = true;
            }
            for v in &node.variations {
                self.token("(", true, Last::Delimiter);
                for c in &v.comments {
                    self.comment(c);
                }
                self.line(&v.moves, ply - 1);
                self.token(")", true, Last::Delimiter);
                number = true;
            }
        }
    }
}

/// `game` as PGN text of our own making, valid by the standard but not laid out like the
/// writer's: tags as written (values escaped), comments exactly as they are (a line of one that
/// looks like a tag pair included), `;` comments for those holding `}`, and any white space
/// between tokens, none where a token delimits itself (`1.e4`, `e4{c}`, `(e4)`, `e4$1`).
pub fn pgn_text(src: &mut Source<'_>, game: &Game, out: &mut String) {
    for (name, value) in &game.tags {
        out.push('[');
        out.push_str(name);
        out.push_str(" \"");
        for c in value.chars() {
            if c == '"' || c == '\\' {
                out.push('\\');
            }
            out.push(c);
        }
        out.push_str("\"]");
        out.push_str(if src.more(20) { "\r\n" } else { "\n" });
    }
    out.push_str(if src.more(20) { "\r\n" } else { "\n" });
    let mut t = Text {
        src,
        out: String::new(),
        last: Last::Start,
    };
    for c in &game.comments {
        t.comment(c);
    }
    t.line(&game.moves, game.starting_ply());
    let result = game.termination().as_str();
    // a result after a symbol needs a space: `e4 1-0`
    t.token(result, false, Last::Symbol);
    out.push_str(&t.out);
    out.push_str("\n\n");
}

// ----- the round trips ----------------------------------------------------------------------

/// `input` cut into chunks of the given lengths, in turn (0 feeds an empty chunk; all zero
/// means 1).
pub fn chunks<'a>(input: &'a [u8], lens: &[usize]) -> Vec<&'a [u8]> {
    let lens: Vec<usize> = if lens.iter().all(|&l| l == 0) {
        vec![1]
    } else {
        lens.to_vec()
    };
    let mut out = Vec::new();
    let mut at = 0;
    for &len in lens.iter().cycle() {
        if at >= input.len() {
            break;
        }
        let end = (at + len).min(input.len());
        out.push(&input[at..end]);
        at = end;
    }
    out
}

/// How the PGN text of a round trip is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PgnMode {
    /// [`pgn_text`]: the generator's own spacing, comments exact; read back `==`.
    OwnText,
    /// `pgn::Writer` with `wrap_comments(false)`; read back `==`.
    Exact,
    /// `pgn::Writer` laying comments out (the export format); read back
    /// [`Game::same_content`], same index and offset.
    Export,
}

pub fn read_pgn(input: &[u8], lens: &[usize], config: pgn::Config) -> Vec<Game> {
    let mut b = GameBuilder::new();
    let mut p = pgn::Parser::with_config(config);
    for c in chunks(input, lens) {
        assert_eq!(p.feed(c, &mut b), Status::NeedInput);
    }
    p.finish(&mut b);
    b.take_games()
}

/// Small limits that the text still fits: `max_comment_piece` 8..=64, `max_token_len` 32..=64
/// or the longest tag line, `max_depth` the deepest nesting of the games, `comment_lookahead`
/// the text's length.
pub fn pgn_small_config(src: &mut Source<'_>, games: &[Game], text: &str) -> pgn::Config {
    let longest_tag = text
        .lines()
        .filter(|l| l.starts_with('['))
        .map(|l| l.trim_end_matches('\r').len())
        .max()
        .unwrap_or(0);
    let depth = games.iter().map(|g| pgn_depth(&g.moves)).max().unwrap_or(0);
    pgn::Config {
        max_token_len: (32 + src.below(33)).max(longest_tag),
        max_comment_piece: 8 + src.below(57),
        max_depth: depth.max(1) as u32,
        // a bound past every comment's `}`: valid text is read whole within it
        comment_lookahead: text.len(),
    }
}

/// One PGN round trip: 1 to 3 games from `bytes`, made text as `mode` says, read back in
/// chunks of `lens` with default or (`small`) small limits. `Err` says what went wrong, with
/// the text.
pub fn pgn_round_trip(
    bytes: &[u8],
    lens: &[usize],
    mode: PgnMode,
    small: bool,
) -> Result<(), String> {
    let mut src = Source::new(bytes);
    let w = match mode {
        PgnMode::OwnText => pgn::Writer::new(),
        PgnMode::Exact => pgn_writer(&mut src, true),
        PgnMode::Export => pgn_writer(&mut src, false),
    };
    let n = 1 + src.below(3);
    let mut text = String::new();
    let mut games = Vec::new();
    for i in 0..n {
        let mut g = pgn_game(&mut src, &PgnLimits::default());
        g.index = i as u64;
        g.offset = text.len() as u64;
        if mode == PgnMode::OwnText {
            pgn_text(&mut src, &g, &mut text);
        } else {
            w.write_to_string(&g, &mut text);
        }
        games.push(g);
    }
    let config = if small {
        pgn_small_config(&mut src, &games, &text)
    } else {
        pgn::Config::default()
    };
    let back = read_pgn(text.as_bytes(), lens, config);
    let errors: Vec<String> = back
        .iter()
        .flat_map(|g| g.errors.iter().map(|e| format!("game {}: {e}", g.index)))
        .collect();
    let fail = |what: String| {
        Err(format!(
            "{what}\n--- {config:?}, chunks {lens:?}, text:\n{text}"
        ))
    };
    if !errors.is_empty() {
        return fail(format!("diagnostics reading valid PGN: {errors:#?}"));
    }
    if back.len() != games.len() {
        return fail(format!(
            "{} games written, {} read",
            games.len(),
            back.len()
        ));
    }
    for (g, b) in games.iter().zip(&back) {
        let same = if mode == PgnMode::Export {
            g.same_content(b) && (g.index, g.offset) == (b.index, b.offset)
        } else {
            g == b
        };
        if !same {
            return fail(format!("game written:\n{g:#?}\n--- read back:\n{b:#?}"));
        }
    }
    Ok(())
}

/// Small limits that the trees still fit: value pieces of 8..=64 bytes, values as long as the
/// longest, nesting as deep as the trees'.
pub fn sgf_small_config(src: &mut Source<'_>, trees: &[GameTree]) -> sgf::Config {
    let piece = 8 + src.below(57);
    let longest = trees.iter().map(sgf_longest_value).max().unwrap_or(0);
    let depth = trees.iter().map(sgf_depth).max().unwrap_or(0);
    sgf::Config {
        max_ident_len: 8 + src.below(8),
        max_value_piece: piece,
        max_value_len: longest.max(piece) as u64,
        max_depth: depth.max(1) as u32,
    }
}

pub fn read_sgf(input: &[u8], lens: &[usize], config: sgf::Config) -> Vec<GameTree> {
    let mut b = TreeBuilder::with_scope(Scope::Full);
    let mut p = sgf::Parser::with_config(config);
    for c in chunks(input, lens) {
        assert_eq!(p.feed(c, &mut b), Status::NeedInput);
    }
    p.finish(&mut b);
    b.take_trees()
}

/// One SGF round trip: 1 to 3 trees from `bytes`, written by `sgf::Writer` (a layout from the
/// bytes), read back in chunks of `lens` with default or (`small`) small limits.
pub fn sgf_round_trip(bytes: &[u8], lens: &[usize], small: bool) -> Result<(), String> {
    let mut src = Source::new(bytes);
    let w = sgf_writer(&mut src);
    let n = 1 + src.below(3);
    let mut out = Vec::new();
    let mut trees = Vec::new();
    for _ in 0..n {
        let t = sgf_tree(&mut src, &SgfLimits::default());
        w.write_to_vec(&t, &mut out);
        trees.push(t);
    }
    let config = if small {
        sgf_small_config(&mut src, &trees)
    } else {
        sgf::Config::default()
    };
    let back = read_sgf(&out, lens, config);
    let text = String::from_utf8_lossy(&out);
    let fail = |what: String| {
        Err(format!(
            "{what}\n--- {config:?}, chunks {lens:?}, text:\n{text}"
        ))
    };
    let errors: Vec<String> = back
        .iter()
        .flat_map(|t| {
            t.errors()
                .iter()
                .map(|e| format!("tree {}: {e}", t.index()))
        })
        .collect();
    if !errors.is_empty() {
        return fail(format!("diagnostics reading valid SGF: {errors:#?}"));
    }
    if back.len() != trees.len() {
        return fail(format!(
            "{} trees written, {} read",
            trees.len(),
            back.len()
        ));
    }
    for (i, (t, b)) in trees.iter().zip(&back).enumerate() {
        if t != b {
            return fail(format!("tree {i} written:\n{t}\n--- read back:\n{b}"));
        }
    }
    Ok(())
}

/// What the proptest properties over the generator share (feature `proptest`; the fuzz targets
/// hand the generator their own bytes and go without it).
#[cfg(feature = "proptest")]
pub mod prop {
    use proptest::prelude::*;

    /// Cases per property: 256, or `PROPTEST_CASES` (20000 for a long run).
    pub fn cases() -> u32 {
        std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(256)
    }

    /// Chunk lengths: byte by byte, or a few lengths from 1 up, used in turn.
    pub fn arb_lens() -> impl Strategy<Value = Vec<usize>> {
        prop_oneof![
            Just(vec![1]),
            proptest::collection::vec(1usize..=8, 1..6),
            proptest::collection::vec(1usize..=300, 1..6),
        ]
    }

    /// The generator's choices.
    pub fn arb_bytes() -> impl Strategy<Value = Vec<u8>> {
        proptest::collection::vec(any::<u8>(), 0..1500)
    }

    /// A round trip's failure as a proptest failure (which proptest then shrinks).
    pub fn ok(r: Result<(), String>) -> Result<(), TestCaseError> {
        r.map_err(TestCaseError::fail)
    }
}
