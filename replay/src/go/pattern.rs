//! Go patterns, Kombilo-style: a rectangle of black, white, empty and "any" points, or a whole
//! board, found on a position under the 8 symmetries of the board (and, on request, with the
//! colours swapped), anywhere, along an edge or in a corner.
//!
//! - [`Pattern`]: the pattern, parsed from text ([`Pattern::parse`]) or taken from a board
//!   ([`Pattern::from_board`], [`Pattern::from_sgf`]), with its [`Anchor`] and colour swap.
//! - [`Stones`]: a position as one bitboard per colour (a `u64` per row), made from a
//!   [`Board`] or kept up to date move by move.
//! - [`Pattern::matches`]: where the pattern stands on a position, each [`Match`] with its
//!   place, [`Symmetry`] and colour swap, and [`Match::to_pattern`]: a board point in the
//!   pattern's own coordinates (the symmetry undone), for "what was played next".
//!
//! # The text
//!
//! One line per row of the pattern, top row first, one character per point, as GNU Go's
//! pattern files write them:
//!
//! | char | the point holds          |
//! |------|--------------------------|
//! | `X`  | a black stone            |
//! | `O`  | a white stone            |
//! | `.`  | nothing (`*` too: GNU Go's move point is empty) |
//! | `x`  | a black stone or nothing |
//! | `o`  | a white stone or nothing |
//! | `?`  | anything                 |
//!
//! Blank lines and lines whose first character (after spaces) is `#` are skipped; spaces and
//! tabs inside a row are ignored (`X . O` is `X.O`). The rows must all have the same length,
//! 1 to 52 points; anything else is a [`PatternError`] with its line and column.
//!
//! The board's edge may be drawn as GNU Go draws it (a first or last row of `-` and `+`, a `|`
//! beginning or ending every row): it sets the anchor (one edge [`Anchor::Edge`], a corner
//! [`Anchor::Corner`]) and the pattern is turned to have it on top (upper left). A GNU Go
//! pattern file (a `Pattern NAME` line) is read as GNU Go writes it: the rows between the
//! header and the `:` line, each the first word of its line; GNU Go's points with no
//! equivalent here (`,` `!` `Q` …) are refused, named.
//!
//! # Anchors and symmetries
//!
//! A pattern is tried under the 8 symmetries of the square ([`Symmetry`]: the identity, 3
//! rotations, 4 reflections); a symmetry that gives the same points in the same places as an
//! earlier one is not tried again, so that a symmetric pattern is found once where it stands.
//! Where it may stand is its [`Anchor`]:
//!
//! - [`Anchor::Anywhere`]: wholly on the board, anywhere.
//! - [`Anchor::Edge`]: its top row along one of the board's four edges (the symmetries turn
//!   it to each edge, both ways).
//! - [`Anchor::Corner`]: its upper-left point on a corner point of the board (each symmetry
//!   puts it in one corner, one way or the other: 4 corners × 2).
//!
//! With [`Pattern::swap_colors`], the pattern with black and white exchanged is tried too
//! ([`Match::swapped`]).
//!
//! # Coordinates
//!
//! A pattern point is `(x, y)`, 0-based, `x` from the left of the pattern as written and `y`
//! from its top. [`Match::to_pattern`] takes a board point back to them: inside the pattern
//! `0 ≤ x < width`, `0 ≤ y < height`; up to [`Match::MARGIN`] points outside it ("near" the
//! pattern) the coordinates go from `-1` to `width` (`height`); farther away, `None`.
//!
//! # Example
//!
//! ```
//! use kifu::sgf::{BoardSize, Color, Point};
//! use kifu_replay::go::{Anchor, Board, Pattern, Stones};
//!
//! // a black stone on the 3-4 point of a corner, nothing else near it
//! let p = Pattern::parse("....\n....\n...X\n....\n").unwrap().anchor(Anchor::Corner);
//! let mut board = Board::new(BoardSize { cols: 19, rows: 19 });
//! board.play(Color::Black, Point { x: 16, y: 3 }); // upper right, the other way round
//! let found: Vec<_> = p.matches(&Stones::from_board(&board)).collect();
//! assert_eq!(found.len(), 1);
//! // the board's points in the pattern's own coordinates
//! assert_eq!(found[0].to_pattern(Point { x: 16, y: 3 }), Some((3, 2))); // the stone
//! assert_eq!(found[0].to_pattern(Point { x: 15, y: 3 }), Some((3, 3)));
//! assert_eq!(found[0].to_pattern(Point { x: 16, y: 5 }), None); // 2 points away
//! ```

use core::fmt;

use kifu::sgf::{self, BoardSize, Color, Point};

use super::board::{BLACK, Board, EMPTY, WHITE};

/// The most points on a side: of a board (`SZ` up to 52) and of a pattern.
pub const MAX_SIDE: usize = 52;

/// What a pattern point asks of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Want {
    /// A black stone (`X`).
    Black,
    /// A white stone (`O`).
    White,
    /// No stone (`.`, `*`).
    Empty,
    /// A black stone or none (`x`).
    BlackOrEmpty,
    /// A white stone or none (`o`).
    WhiteOrEmpty,
    /// Anything (`?`).
    Any,
}

impl Want {
    fn from_char(c: char) -> Option<Want> {
        Some(match c {
            'X' => Want::Black,
            'O' => Want::White,
            '.' | '*' => Want::Empty,
            'x' => Want::BlackOrEmpty,
            'o' => Want::WhiteOrEmpty,
            '?' => Want::Any,
            _ => return None,
        })
    }

    fn to_char(self) -> char {
        match self {
            Want::Black => 'X',
            Want::White => 'O',
            Want::Empty => '.',
            Want::BlackOrEmpty => 'x',
            Want::WhiteOrEmpty => 'o',
            Want::Any => '?',
        }
    }

    /// The same with black and white exchanged.
    fn swapped(self) -> Want {
        match self {
            Want::Black => Want::White,
            Want::White => Want::Black,
            Want::BlackOrEmpty => Want::WhiteOrEmpty,
            Want::WhiteOrEmpty => Want::BlackOrEmpty,
            w => w,
        }
    }

    /// How rarely a position satisfies it (the tests run rarest first, to fail early).
    fn rank(self) -> u8 {
        match self {
            Want::Black | Want::White => 0,
            Want::Empty => 1,
            Want::BlackOrEmpty | Want::WhiteOrEmpty => 2,
            Want::Any => 3,
        }
    }
}

/// Where a pattern may stand on the board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Anchor {
    /// Anywhere, wholly on the board.
    #[default]
    Anywhere,
    /// Its top row along an edge of the board (any of the four, by the symmetries).
    Edge,
    /// Its upper-left point on a corner point of the board (any of the four, both ways).
    Corner,
}

impl std::str::FromStr for Anchor {
    type Err = String;

    /// `anywhere`, `edge` or `corner`.
    fn from_str(s: &str) -> Result<Anchor, String> {
        match s {
            "anywhere" => Ok(Anchor::Anywhere),
            "edge" => Ok(Anchor::Edge),
            "corner" => Ok(Anchor::Corner),
            _ => Err(format!(
                "unknown anchor `{s}` (one of: corner, edge, anywhere)"
            )),
        }
    }
}

/// One of the 8 symmetries of the square, applied to the pattern to place it on the board: a
/// transposition (`x` and `y` exchanged, [`Symmetry::TRANSPOSE`]) first, then a left-right
/// flip ([`Symmetry::FLIP_X`]) and an upside-down flip ([`Symmetry::FLIP_Y`]) of the result.
///
/// ```
/// use kifu_replay::go::Symmetry;
/// // the pattern's point (1, 0) in a 3 wide, 2 high pattern, turned a quarter clockwise
/// let s = Symmetry(Symmetry::TRANSPOSE | Symmetry::FLIP_X);
/// assert_eq!(s.apply(1, 0, 3, 2), (1, 1));
/// assert_eq!(s.undo(1, 1, 3, 2), (1, 0));
/// assert_eq!(Symmetry::ALL.len(), 8);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Symmetry(pub u8);

impl Symmetry {
    /// Exchange `x` and `y` (first).
    pub const TRANSPOSE: u8 = 4;
    /// Flip left-right (after a transposition).
    pub const FLIP_X: u8 = 1;
    /// Flip upside down (after a transposition).
    pub const FLIP_Y: u8 = 2;
    /// The identity.
    pub const IDENTITY: Symmetry = Symmetry(0);
    /// All 8, the identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry(0),
        Symmetry(1),
        Symmetry(2),
        Symmetry(3),
        Symmetry(4),
        Symmetry(5),
        Symmetry(6),
        Symmetry(7),
    ];

    /// Whether it exchanges `x` and `y`.
    pub fn transposes(self) -> bool {
        self.0 & Self::TRANSPOSE != 0
    }

    /// The size of a `w` × `h` rectangle after it: `(w, h)`, or `(h, w)` transposed.
    pub fn dims(self, w: u8, h: u8) -> (u8, u8) {
        if self.transposes() { (h, w) } else { (w, h) }
    }

    /// Where the point `(x, y)` of a `w` × `h` rectangle goes (in the rectangle of
    /// [`dims`](Self::dims)). Points outside the rectangle map as the same linear map does.
    pub fn apply(self, x: i32, y: i32, w: u8, h: u8) -> (i32, i32) {
        let (tw, th) = self.dims(w, h);
        let (mut a, mut b) = if self.transposes() { (y, x) } else { (x, y) };
        if self.0 & Self::FLIP_X != 0 {
            a = i32::from(tw) - 1 - a;
        }
        if self.0 & Self::FLIP_Y != 0 {
            b = i32::from(th) - 1 - b;
        }
        (a, b)
    }

    /// The inverse of [`apply`](Self::apply): the point of the `w` × `h` rectangle that went
    /// to `(a, b)`.
    pub fn undo(self, a: i32, b: i32, w: u8, h: u8) -> (i32, i32) {
        let (tw, th) = self.dims(w, h);
        let a = if self.0 & Self::FLIP_X != 0 {
            i32::from(tw) - 1 - a
        } else {
            a
        };
        let b = if self.0 & Self::FLIP_Y != 0 {
            i32::from(th) - 1 - b
        } else {
            b
        };
        if self.transposes() { (b, a) } else { (a, b) }
    }

    /// Where the point `p` of a board of `size` goes (on the board of size
    /// [`dims`](Self::dims)`(cols, rows)`).
    ///
    /// ```
    /// use kifu::sgf::{BoardSize, Point};
    /// use kifu_replay::go::Symmetry;
    /// let size = BoardSize { cols: 19, rows: 19 };
    /// // a quarter turn clockwise takes the upper-left 3-4 point to the upper right
    /// let s = Symmetry(Symmetry::TRANSPOSE | Symmetry::FLIP_X);
    /// assert_eq!(s.point(Point { x: 2, y: 3 }, size), Point { x: 15, y: 2 });
    /// ```
    pub fn point(self, p: Point, size: BoardSize) -> Point {
        let (a, b) = self.apply(i32::from(p.x), i32::from(p.y), size.cols, size.rows);
        Point {
            x: a as u8,
            y: b as u8,
        }
    }

    /// A board's bytes under this symmetry: `points` (`size.cols * size.rows` bytes, row-major
    /// from the upper left, as [`Board::points`](super::Board::points)) turned or flipped into
    /// `out` (cleared first), a board of [`dims`](Self::dims)`(cols, rows)`: the point `(x, y)`
    /// goes to [`apply`](Self::apply)`(x, y, cols, rows)`. Bytes past `cols * rows` are not
    /// read; a short `points` gives empty points where it has none.
    ///
    /// ```
    /// use kifu::sgf::BoardSize;
    /// use kifu_replay::go::Symmetry;
    /// let size = BoardSize { cols: 3, rows: 2 };
    /// let mut out = Vec::new();
    /// Symmetry(Symmetry::FLIP_X).board(size, &[1, 0, 0, 0, 0, 2], &mut out);
    /// assert_eq!(out, [0, 0, 1, 2, 0, 0]);
    /// Symmetry(Symmetry::TRANSPOSE).board(size, &[1, 0, 0, 0, 0, 2], &mut out);
    /// assert_eq!(out, [1, 0, 0, 0, 0, 2]); // 2 wide, 3 high: the first column became the first row
    /// ```
    pub fn board(self, size: BoardSize, points: &[u8], out: &mut Vec<u8>) {
        let (cols, rows) = (usize::from(size.cols), usize::from(size.rows));
        let (tw, _) = self.dims(size.cols, size.rows);
        out.clear();
        out.resize(cols * rows, 0);
        for y in 0..rows {
            for x in 0..cols {
                let Some(&c) = points.get(y * cols + x) else {
                    return;
                };
                let (a, b) = self.apply(x as i32, y as i32, size.cols, size.rows);
                out[b as usize * usize::from(tw) + a as usize] = c;
            }
        }
    }
}

/// Why a pattern's text was refused, and where (line and column from 1, columns in
/// characters).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternError {
    /// The line, from 1 (0 when the whole text is at fault).
    pub line: u32,
    /// The column, from 1 (0 when the whole line is at fault).
    pub column: u32,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (0, _) => f.write_str(&self.message),
            (l, 0) => write!(f, "line {l}: {}", self.message),
            (l, c) => write!(f, "line {l}, column {c}: {}", self.message),
        }
    }
}

impl std::error::Error for PatternError {}

/// Where a variant's rectangle may stand along one axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Span {
    /// Anywhere it fits.
    Full,
    /// Against the low side (column or row 0).
    Low,
    /// Against the high side.
    High,
}

impl Span {
    /// The first and last offsets of a rectangle `len` long on a side of `side` points.
    #[inline]
    fn range(self, len: u8, side: u8) -> Option<(u8, u8)> {
        let last = side.checked_sub(len)?;
        Some(match self {
            Span::Full => (0, last),
            Span::Low => (0, 0),
            Span::High => (last, last),
        })
    }
}

/// One point test: the point `(dx, dy)` of the placed rectangle must be in `set`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Test {
    dy: u8,
    dx: u8,
    want: Want,
}

/// One row of a placed pattern: the black bits under `care_b` must be `want_b`, the white
/// bits under `care_w` must be `want_w` (bit `dx` for the rectangle's column `dx`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct RowTest {
    dy: u8,
    care_b: u64,
    want_b: u64,
    care_w: u64,
    want_w: u64,
}

/// The pattern under one symmetry (and colour swap), ready to test.
#[derive(Clone, Debug)]
struct Variant {
    symmetry: Symmetry,
    swapped: bool,
    /// The placed rectangle's size.
    w: u8,
    h: u8,
    xs: Span,
    ys: Span,
    /// The points that are not `?`, rarest first.
    tests: Vec<Test>,
    /// The same by row, for a place of one column (a corner, the left or right edge): the rows
    /// with a test, those with stones first.
    rows: Vec<RowTest>,
    /// Earlier variants with the same points (other places): a match of this one where one of
    /// them stands too is theirs.
    same_as: u32,
}

impl Variant {
    #[inline]
    fn places(&self, size: BoardSize) -> Option<((u8, u8), (u8, u8))> {
        Some((
            self.xs.range(self.w, size.cols)?,
            self.ys.range(self.h, size.rows)?,
        ))
    }
}

/// Whether a line is a GNU Go pattern's header, `Pattern NAME`.
fn is_gnugo_header(line: &str) -> bool {
    line.trim_start()
        .strip_prefix("Pattern")
        .is_some_and(|rest| rest.starts_with([' ', '\t']) && !rest.trim().is_empty())
}

/// `corner`, `edge`, `anywhere`.
fn anchor_name(a: Anchor) -> &'static str {
    match a {
        Anchor::Anywhere => "anywhere",
        Anchor::Edge => "edge",
        Anchor::Corner => "corner",
    }
}

/// A row-major grid (width, height, points).
type Grid = (usize, usize, Vec<Want>);

/// The grid upside down.
fn flip_rows((w, h, p): Grid) -> Grid {
    let rows: Vec<Want> = p.chunks(w).rev().flatten().copied().collect();
    (w, h, rows)
}

/// The grid left to right.
fn flip_columns((w, h, p): Grid) -> Grid {
    let rows: Vec<Want> = p.chunks(w).flat_map(|r| r.iter().rev().copied()).collect();
    (w, h, rows)
}

/// The grid's columns as rows (its left column the top row).
fn transpose((w, h, p): Grid) -> Grid {
    let mut out = Vec::with_capacity(p.len());
    for x in 0..w {
        for y in 0..h {
            out.push(p[y * w + x]);
        }
    }
    (h, w, out)
}

/// A Go pattern: a rectangle of wanted points ([`Want`]), with where it may stand
/// ([`Anchor`]) and whether the colours may be swapped. See the [module](self) for the text,
/// the anchors, the symmetries and the coordinates.
///
/// ```
/// use kifu_replay::go::{Anchor, Pattern, Stones};
///
/// let p = Pattern::parse("# a hane\nXO\n?X\n").unwrap();
/// assert_eq!((p.width(), p.height()), (2, 2));
/// assert_eq!(p.to_string(), "XO\n?X\n");
/// let e = Pattern::parse("XO\nX\n").unwrap_err();
/// assert_eq!(e.to_string(), "line 2: a row of 1 point where the first row has 2 (a pattern is a rectangle)");
/// ```
#[derive(Clone, Debug)]
pub struct Pattern {
    w: u8,
    h: u8,
    /// Row-major, as written.
    points: Vec<Want>,
    anchor: Anchor,
    /// Whether the text drew the board's edge (the anchor is then the one drawn).
    drawn: bool,
    swap: bool,
    variants: Vec<Variant>,
    /// The symmetries that map the pattern onto itself and keep its anchor (the identity
    /// first).
    own: Vec<Symmetry>,
}

impl PartialEq for Pattern {
    fn eq(&self, o: &Pattern) -> bool {
        (self.w, self.h, &self.points, self.anchor, self.swap)
            == (o.w, o.h, &o.points, o.anchor, o.swap)
    }
}

impl Eq for Pattern {}

impl fmt::Display for Pattern {
    /// The pattern's text, one line per row.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in self.points.chunks(usize::from(self.w)) {
            for w in row {
                write!(f, "{}", w.to_char())?;
            }
            f.write_str("\n")?;
        }
        Ok(())
    }
}

impl Pattern {
    /// Reads a pattern's text (see the [module](self)): anchored [`Anchor::Anywhere`], colours
    /// not swapped.
    ///
    /// # Errors
    ///
    /// A character that is no pattern point, rows of different lengths, no row, more than
    /// [`MAX_SIDE`] rows or columns: located by line and column.
    pub fn parse(text: &str) -> Result<Pattern, PatternError> {
        let err = |line: u32, column: usize, message: String| PatternError {
            line,
            column: u32::try_from(column).unwrap_or(u32::MAX),
            message,
        };
        // a file saved with a byte order mark (Notepad writes one): not a point of the first row
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        // GNU Go's pattern files: `Pattern NAME`, the diagram, then a `:` line and what
        // follows it (a constraint diagram, `;` constraints, `>` actions), all skipped
        let gnugo = text.lines().any(is_gnugo_header);
        let mut in_diagram = !gnugo;
        let mut named = 0u32;
        // the rows as written: (line, [(column, char)])
        let mut rows: Vec<(u32, Vec<(usize, char)>)> = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let lineno = u32::try_from(i + 1).unwrap_or(u32::MAX);
            let t = line.trim();
            if gnugo {
                if is_gnugo_header(line) {
                    named += 1;
                    if named > 1 {
                        return Err(err(
                            lineno,
                            0,
                            "a second pattern (`Pattern NAME`): a search finds one pattern, \
                             keep one in the file"
                                .into(),
                        ));
                    }
                    in_diagram = true;
                    continue;
                }
                if !in_diagram {
                    continue;
                }
                if t.starts_with(':') {
                    in_diagram = false;
                    continue;
                }
            }
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            let mut row = Vec::new();
            for (col, c) in line.chars().enumerate() {
                if c == ' ' || c == '\t' || c == '\r' {
                    // in GNU Go's files the row is the diagram's first word: a comment follows
                    if gnugo && !row.is_empty() {
                        break;
                    }
                    continue;
                }
                row.push((col + 1, c));
            }
            rows.push((lineno, row));
        }
        if rows.len() > MAX_SIDE + 2 {
            return Err(err(
                rows[MAX_SIDE + 2].0,
                0,
                format!("more than {MAX_SIDE} rows"),
            ));
        }
        // the board's edges: a first or last row of `-` and `+`, a first or last column of `|`
        let edge_row = |r: &[(usize, char)]| r.iter().all(|&(_, c)| c == '-' || c == '+');
        let top = rows.first().is_some_and(|r| edge_row(&r.1));
        let bottom = rows.len() > 1 && rows.last().is_some_and(|r| edge_row(&r.1));
        let body = &rows[usize::from(top)..rows.len() - usize::from(bottom)];
        let left = body
            .first()
            .is_some_and(|r| r.1.first().is_some_and(|x| x.1 == '|'));
        let right = body
            .first()
            .is_some_and(|r| r.1.last().is_some_and(|x| x.1 == '|'));
        if (top && bottom) || (left && right) {
            return Err(err(
                0,
                0,
                "the board's edge drawn on two opposite sides: a pattern stands along one edge \
                 or in one corner (a pattern as wide as the board: an SGF file of the position)"
                    .into(),
            ));
        }
        let mut points = Vec::new();
        let mut w = 0usize;
        for (k, (lineno, row)) in body.iter().enumerate() {
            let lineno = *lineno;
            for (side, at) in [(left, 0), (right, row.len().saturating_sub(1))] {
                let has = row.get(at).is_some_and(|x| x.1 == '|');
                if side != has {
                    return Err(err(
                        lineno,
                        row.get(at).map_or(0, |x| x.0),
                        "the board's edge `|` drawn on some rows only (every row of the \
                         diagram has it, or none)"
                            .into(),
                    ));
                }
            }
            let inner = &row[usize::from(left)..row.len() - usize::from(right && !row.is_empty())];
            let mut n = 0usize;
            for &(col, c) in inner {
                let Some(want) = Want::from_char(c) else {
                    let why = match c {
                        '|' | '-' | '+' => "a board edge inside the diagram: `|` begins or \
                                            ends every row, `-` and `+` make the first or last \
                                            row"
                        .to_string(),
                        ',' | '!' | 'Q' | 'Y' | 'a' | '@' | '$' | '%' => format!(
                            "`{c}` is a GNU Go pattern point with no equivalent here (X \
                             black, O white, . or * empty, ? any, x black or empty, o white \
                             or empty)"
                        ),
                        _ => format!(
                            "`{}` is no pattern point (X black, O white, . empty, ? any, x black \
                             or empty, o white or empty)",
                            c.escape_debug()
                        ),
                    };
                    return Err(err(lineno, col, why));
                };
                n += 1;
                if n > MAX_SIDE {
                    return Err(err(
                        lineno,
                        col,
                        format!("a row longer than {MAX_SIDE} points"),
                    ));
                }
                points.push(want);
            }
            if k == 0 {
                w = n;
            } else if n != w {
                return Err(err(
                    lineno,
                    0,
                    format!(
                        "a row of {n} point{} where the first row has {w} (a pattern is a rectangle)",
                        if n == 1 { "" } else { "s" }
                    ),
                ));
            }
        }
        let h = body.len();
        if h == 0 || w == 0 {
            return Err(err(
                0,
                0,
                "no pattern: no row of points (X, O, x, o, ., *, ?) in the text".into(),
            ));
        }
        if h > MAX_SIDE {
            return Err(err(
                body[MAX_SIDE].0,
                0,
                format!("more than {MAX_SIDE} rows"),
            ));
        }
        // an edge row as long as the rows and their `|`
        for (on, (lineno, row)) in [(top, rows.first()), (bottom, rows.last())]
            .into_iter()
            .filter_map(|(on, r)| r.map(|r| (on, r)))
        {
            let long = w + usize::from(left) + usize::from(right);
            if on && row.len() != long {
                return Err(err(
                    *lineno,
                    0,
                    format!(
                        "an edge row of {} characters where the rows (with their `|`) have {long}",
                        row.len()
                    ),
                ));
            }
        }
        // turned so that the edge is the top row, the corner the upper-left point
        let mut g = (w, h, points);
        if bottom {
            g = flip_rows(g);
        }
        if right {
            g = flip_columns(g);
        }
        let anchor = match (top || bottom, left || right) {
            (true, true) => Anchor::Corner,
            (true, false) => Anchor::Edge,
            (false, true) => {
                g = transpose(g);
                Anchor::Edge
            }
            (false, false) => Anchor::Anywhere,
        };
        let (w, h, points) = g;
        let mut p = Pattern::new(w as u8, h as u8, points);
        if anchor != Anchor::Anywhere {
            p.drawn = true;
            p = p.anchor(anchor);
        }
        Ok(p)
    }

    /// The pattern with the anchor asked for (`--anchor`, `anchor=`), if any: a pattern whose
    /// text draws the board's edge keeps the anchor drawn, and another asked is an error.
    ///
    /// ```
    /// use kifu_replay::go::{Anchor, Pattern};
    /// let p = Pattern::parse("+---\n|..X\n|...\n").unwrap();
    /// assert_eq!(p.anchor_kind(), Anchor::Corner);
    /// assert!(p.clone().with_anchor_asked(Some(Anchor::Corner)).is_ok());
    /// assert!(p.with_anchor_asked(Some(Anchor::Edge)).is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// An anchor other than the one the text draws.
    pub fn with_anchor_asked(self, asked: Option<Anchor>) -> Result<Pattern, String> {
        match asked {
            None => Ok(self),
            Some(a) if self.drawn && a != self.anchor => Err(format!(
                "the pattern draws the board's edge ({}): the anchor asked, {}, is another",
                anchor_name(self.anchor),
                anchor_name(a)
            )),
            Some(a) => Ok(self.anchor(a)),
        }
    }

    /// A whole-board position as a pattern: every point of `board` wanted as it is (its
    /// stones, and its empty points empty), to be found anywhere (so only on a board of the
    /// same size, under the symmetries that keep its shape).
    ///
    /// ```
    /// use kifu::sgf::{BoardSize, Color, Point};
    /// use kifu_replay::go::{Board, Pattern, Stones};
    ///
    /// let mut b = Board::new(BoardSize { cols: 9, rows: 9 });
    /// b.play(Color::Black, Point { x: 2, y: 2 });
    /// let p = Pattern::from_board(&b);
    /// // the same stone in another corner: the same position, turned
    /// let mut c = Board::new(BoardSize { cols: 9, rows: 9 });
    /// c.play(Color::Black, Point { x: 6, y: 2 });
    /// assert_eq!(p.matches(&Stones::from_board(&c)).count(), 1);
    /// ```
    pub fn from_board(board: &Board) -> Pattern {
        let size = board.size();
        let points = board
            .points()
            .iter()
            .map(|&c| match c {
                BLACK => Want::Black,
                WHITE => Want::White,
                _ => Want::Empty,
            })
            .collect();
        Pattern::new(size.cols.max(1), size.rows.max(1), points)
    }

    /// The position at the end of the main line of the first game tree of an SGF text (its
    /// setup and moves replayed as [`replay_tree`](super::replay_tree) does), as
    /// [`from_board`](Self::from_board) makes it.
    ///
    /// # Errors
    ///
    /// A text without a game tree, whose first tree is not Go (`GM` other than 1), or whose
    /// `SZ` is not a board size (a side of 1 to 52 points).
    ///
    /// ```
    /// use kifu_replay::go::Pattern;
    /// let p = Pattern::from_sgf(b"(;SZ[3]AB[aa];W[bb])").unwrap();
    /// assert_eq!(p.to_string(), "X..\n.O.\n...\n");
    /// ```
    pub fn from_sgf(sgf_text: &[u8]) -> Result<Pattern, PatternError> {
        let none = |m: &str| PatternError {
            line: 0,
            column: 0,
            message: m.into(),
        };
        let tree = sgf::game_trees(sgf_text)
            .next()
            .ok_or_else(|| none("no SGF game tree in the text"))?;
        let r = super::replay_tree(&tree);
        if !r.is_go {
            return Err(none("the SGF game tree is not Go (GM is not 1)"));
        }
        // a game would be replayed on 19x19 past a bad SZ; a pattern of another size is no
        // pattern
        if !tree.is_empty()
            && let Some(sz) = tree.root().properties().find(|p| p.name() == b"SZ")
            && let Some(v) = sz.values().next()
            && super::game::board_size(v).is_none()
        {
            return Err(none(&format!(
                "SZ[{}] is not a board size (1 to 52 points a side, or COLUMNS:ROWS)",
                String::from_utf8_lossy(v.0)
            )));
        }
        Ok(Pattern::from_board(&r.end))
    }

    fn new(w: u8, h: u8, points: Vec<Want>) -> Pattern {
        let mut p = Pattern {
            w,
            h,
            points,
            anchor: Anchor::Anywhere,
            drawn: false,
            swap: false,
            variants: Vec::new(),
            own: Vec::new(),
        };
        p.build();
        p
    }

    /// The same pattern with another anchor.
    pub fn anchor(mut self, anchor: Anchor) -> Pattern {
        self.anchor = anchor;
        self.build();
        self
    }

    /// The same pattern, found with black and white exchanged too (`swap`), or not.
    pub fn swap_colors(mut self, swap: bool) -> Pattern {
        self.swap = swap;
        self.build();
        self
    }

    /// Columns, as written.
    pub fn width(&self) -> u8 {
        self.w
    }

    /// Rows, as written.
    pub fn height(&self) -> u8 {
        self.h
    }

    /// Its anchor.
    pub fn anchor_kind(&self) -> Anchor {
        self.anchor
    }

    /// Whether the colours may be swapped.
    pub fn swaps_colors(&self) -> bool {
        self.swap
    }

    /// What the point `(x, y)` (pattern coordinates) wants; `None` outside the pattern.
    pub fn get(&self, x: u8, y: u8) -> Option<Want> {
        (x < self.w && y < self.h)
            .then(|| self.points[usize::from(y) * usize::from(self.w) + usize::from(x)])
    }

    /// The point of the pattern's own coordinates that stands for `(x, y)`: itself, or for a
    /// pattern that is its own mirror image (keeping its anchor: about the corner's diagonal
    /// for a corner, left-right for an edge, any of the 8 anywhere), the first of the
    /// equivalent points by row, then column. Two moves at mirrored points of a symmetric
    /// pattern are the same move.
    ///
    /// ```
    /// use kifu_replay::go::{Anchor, Pattern};
    /// // the 3-3 point: symmetric about the corner's diagonal
    /// let p = Pattern::parse("...\n...\n..X\n").unwrap().anchor(Anchor::Corner);
    /// assert_eq!(p.canonical(1, 3), (3, 1)); // the same move as (3, 1): row 1 comes first
    /// assert_eq!(p.canonical(3, 1), (3, 1));
    /// // not symmetric: every point is itself
    /// let q = Pattern::parse("...\n..O\n..X\n").unwrap().anchor(Anchor::Corner);
    /// assert_eq!(q.canonical(3, 1), (3, 1));
    /// ```
    pub fn canonical(&self, x: i32, y: i32) -> (i32, i32) {
        let mut best = (x, y);
        for s in &self.own[1..] {
            let (a, b) = s.apply(x, y, self.w, self.h);
            if (b, a) < (best.1, best.0) {
                best = (a, b);
            }
        }
        best
    }

    /// How many (symmetry, colour swap) variants are tried: 8 (16 with the swap) less those
    /// that are the same points in the same places as an earlier one.
    pub fn variants(&self) -> usize {
        self.variants.len()
    }

    /// The placed points of every variant, then drops the repeats.
    fn build(&mut self) {
        let swaps: &[bool] = if self.swap { &[false, true] } else { &[false] };
        let mut out: Vec<(Variant, Vec<Want>)> = Vec::with_capacity(16);
        for &swapped in swaps {
            for s in Symmetry::ALL {
                let (tw, th) = s.dims(self.w, self.h);
                let mut grid = vec![Want::Any; self.points.len()];
                for y in 0..self.h {
                    for x in 0..self.w {
                        let mut want =
                            self.points[usize::from(y) * usize::from(self.w) + usize::from(x)];
                        if swapped {
                            want = want.swapped();
                        }
                        let (a, b) = s.apply(i32::from(x), i32::from(y), self.w, self.h);
                        grid[b as usize * usize::from(tw) + a as usize] = want;
                    }
                }
                let flip_x = s.0 & Symmetry::FLIP_X != 0;
                let flip_y = s.0 & Symmetry::FLIP_Y != 0;
                let side = |flip: bool| if flip { Span::High } else { Span::Low };
                let (xs, ys) = match self.anchor {
                    Anchor::Anywhere => (Span::Full, Span::Full),
                    Anchor::Corner => (side(flip_x), side(flip_y)),
                    // the top row (y = 0) goes to b = 0 (or the bottom), or transposed to a = 0
                    Anchor::Edge if s.transposes() => (side(flip_x), Span::Full),
                    Anchor::Edge => (Span::Full, side(flip_y)),
                };
                let mut same_as = 0u32;
                let mut repeat = false;
                for (k, (v, g)) in out.iter().enumerate() {
                    if (v.w, v.h) == (tw, th) && *g == grid {
                        if (v.xs, v.ys) == (xs, ys) {
                            repeat = true;
                            break;
                        }
                        same_as |= 1 << k;
                    }
                }
                if repeat {
                    continue;
                }
                let mut tests: Vec<Test> = grid
                    .iter()
                    .enumerate()
                    .filter(|(_, w)| **w != Want::Any)
                    .map(|(i, &want)| Test {
                        dy: (i / usize::from(tw)) as u8,
                        dx: (i % usize::from(tw)) as u8,
                        want,
                    })
                    .collect();
                tests.sort_by_key(|t| t.want.rank());
                let mut rows: Vec<RowTest> = (0..th)
                    .map(|dy| RowTest {
                        dy,
                        care_b: 0,
                        want_b: 0,
                        care_w: 0,
                        want_w: 0,
                    })
                    .collect();
                for t in &tests {
                    let r = &mut rows[usize::from(t.dy)];
                    let bit = 1u64 << t.dx;
                    match t.want {
                        Want::Black => (r.care_b, r.want_b) = (r.care_b | bit, r.want_b | bit),
                        Want::White => (r.care_w, r.want_w) = (r.care_w | bit, r.want_w | bit),
                        Want::Empty => (r.care_b, r.care_w) = (r.care_b | bit, r.care_w | bit),
                        Want::BlackOrEmpty => r.care_w |= bit,
                        Want::WhiteOrEmpty => r.care_b |= bit,
                        Want::Any => {}
                    }
                }
                rows.retain(|r| (r.care_b | r.care_w) != 0);
                rows.sort_by_key(|r| core::cmp::Reverse((r.want_b | r.want_w).count_ones()));
                out.push((
                    Variant {
                        symmetry: s,
                        swapped,
                        w: tw,
                        h: th,
                        xs,
                        ys,
                        tests,
                        rows,
                        same_as,
                    },
                    grid,
                ));
            }
        }
        // the symmetries that keep the pattern and its anchor: the first 8 grids are unswapped
        let keeps: &[u8] = match self.anchor {
            Anchor::Anywhere => &[0, 1, 2, 3, 4, 5, 6, 7],
            Anchor::Edge => &[0, Symmetry::FLIP_X],
            Anchor::Corner => &[0, Symmetry::TRANSPOSE],
        };
        let mut own = vec![Symmetry::IDENTITY];
        for &k in &keeps[1..] {
            let s = Symmetry(k);
            if s.dims(self.w, self.h) != (self.w, self.h) {
                continue;
            }
            let same = (0..self.h).all(|y| {
                (0..self.w).all(|x| {
                    let (a, b) = s.apply(i32::from(x), i32::from(y), self.w, self.h);
                    self.get(x, y) == self.get(a as u8, b as u8)
                })
            });
            if same {
                own.push(s);
            }
        }
        self.own = own;
        self.variants = out.into_iter().map(|(v, _)| v).collect();
    }

    /// Where the pattern stands on `stones`: every place, each once (see the [module](self)),
    /// by variant (symmetry, then colour swap), then row, then column. Allocates nothing.
    pub fn matches<'a>(&'a self, stones: &'a Stones) -> Matches<'a> {
        Matches {
            pattern: self,
            stones,
            v: 0,
            fresh: true,
            y: 0,
            y_end: 0,
            xmask: 0,
            cand: 0,
        }
    }

    /// Whether the pattern stands anywhere on `stones` (the first match found ends the
    /// search).
    pub fn is_found(&self, stones: &Stones) -> bool {
        self.matches(stones).next().is_some()
    }

    /// The points of a board of `size` that decide whether and where the pattern stands:
    /// those under a point other than `?` of some place of some symmetry (one `u64` per row,
    /// bit `x` for column `x`; rows past the board empty). Two positions that differ only
    /// off them have the same [`matches`](Self::matches), so a search may test again only
    /// after a change on them: a corner pattern's points are the board's corners.
    ///
    /// ```
    /// use kifu::sgf::BoardSize;
    /// use kifu_replay::go::{Anchor, Pattern};
    ///
    /// // an empty 3-3 point, black stone on the 4-4, in any corner
    /// let p = Pattern::parse("????\n?...\n?...\n?..X\n").unwrap().anchor(Anchor::Corner);
    /// let area = p.area(BoardSize { cols: 19, rows: 19 });
    /// assert_eq!(area[0], 0); // the first line: `?`
    /// assert_eq!(area[1], 0b1110 | 0b1110 << 14);
    /// assert_eq!(area[9], 0); // the middle of the board
    /// ```
    pub fn area(&self, size: BoardSize) -> [u64; MAX_SIDE] {
        let mut rows = [0u64; MAX_SIDE];
        for v in &self.variants {
            let Some(((x0, x1), (y0, y1))) = v.places(size) else {
                continue;
            };
            let xmask = (((1u128 << (x1 + 1)) - 1) as u64) & !((1u64 << x0) - 1);
            for t in &v.tests {
                for y in y0..=y1 {
                    if let Some(r) = rows.get_mut(usize::from(y) + usize::from(t.dy)) {
                        *r |= xmask << t.dx;
                    }
                }
            }
        }
        rows
    }
}

/// A position as bitboards: for each colour, one `u64` per row, bit `x` for column `x`.
///
/// ```
/// use kifu::sgf::{BoardSize, Color, Point};
/// use kifu_replay::go::{Board, Stones, BLACK, EMPTY};
///
/// let mut b = Board::new(BoardSize { cols: 19, rows: 13 });
/// b.play(Color::Black, Point { x: 3, y: 12 });
/// let mut s = Stones::from_board(&b);
/// assert_eq!(s.get(Point { x: 3, y: 12 }), BLACK);
/// s.set(Point { x: 3, y: 12 }, EMPTY);
/// assert_eq!(s, Stones::new(b.size()));
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Stones {
    size: BoardSize,
    black: [u64; MAX_SIDE],
    white: [u64; MAX_SIDE],
}

impl fmt::Debug for Stones {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Stones {}x{}:\n{self}", self.size.cols, self.size.rows)
    }
}

impl fmt::Display for Stones {
    /// One line per row, `X` black, `O` white, `.` empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for y in 0..self.size.rows {
            for x in 0..self.size.cols {
                f.write_str(match self.get(Point { x, y }) {
                    BLACK => "X",
                    WHITE => "O",
                    _ => ".",
                })?;
            }
            f.write_str("\n")?;
        }
        Ok(())
    }
}

impl Stones {
    /// An empty board of `size` (each side clamped to 1..=52).
    pub fn new(size: BoardSize) -> Stones {
        Stones {
            size: Stones::clamped(size),
            black: [0; MAX_SIDE],
            white: [0; MAX_SIDE],
        }
    }

    /// `size` within 1 and [`MAX_SIDE`] each way.
    fn clamped(size: BoardSize) -> BoardSize {
        let clamp = |n: u8| n.clamp(1, MAX_SIDE as u8);
        BoardSize {
            cols: clamp(size.cols),
            rows: clamp(size.rows),
        }
    }

    /// The stones of `board`.
    pub fn from_board(board: &Board) -> Stones {
        let mut s = Stones::new(board.size());
        s.set_board(board);
        s
    }

    /// Makes it the position of `board` (its size too).
    pub fn set_board(&mut self, board: &Board) {
        /// The low bit of each byte.
        const LOW: u64 = 0x0101_0101_0101_0101;
        /// Each byte's low bit (the bytes 0 or 1) to one bit of a byte: byte `i` to bit `i`.
        #[inline]
        fn pack(x: u64) -> u64 {
            x.wrapping_mul(0x0102_0408_1020_4080) >> 56
        }
        // the rows past the old size are empty already: only those of either size are made
        let before = usize::from(self.size.rows);
        self.size = Stones::clamped(board.size());
        let cols = usize::from(board.size().cols.max(1));
        let rows = usize::from(self.size.rows);
        for y in 0..rows.max(before).min(MAX_SIDE) {
            let (mut b, mut w) = (0u64, 0u64);
            if y < rows
                && let Some(row) = board.points().get(y * cols..(y + 1) * cols)
            {
                let row = &row[..cols.min(MAX_SIDE)];
                let mut chunks = row.chunks_exact(8);
                let mut x = 0;
                for c in &mut chunks {
                    let Ok(bytes) = <[u8; 8]>::try_from(c) else {
                        continue;
                    };
                    // a point's byte: 0 empty, 1 black, 2 white
                    let v = u64::from_le_bytes(bytes);
                    let (lo, hi) = (v & LOW, (v >> 1) & LOW);
                    b |= pack(lo & !hi) << x;
                    w |= pack(hi & !lo) << x;
                    x += 8;
                }
                for (i, &c) in chunks.remainder().iter().enumerate() {
                    b |= u64::from(c == BLACK) << (x + i);
                    w |= u64::from(c == WHITE) << (x + i);
                }
            }
            self.black[y] = b;
            self.white[y] = w;
        }
    }

    /// The size.
    pub fn size(&self) -> BoardSize {
        self.size
    }

    /// What is on `p`: [`EMPTY`], [`BLACK`] or [`WHITE`] (empty off the board).
    #[inline]
    pub fn get(&self, p: Point) -> u8 {
        if p.x >= self.size.cols || p.y >= self.size.rows {
            return EMPTY;
        }
        let bit = 1u64 << p.x;
        let y = usize::from(p.y);
        if self.black[y] & bit != 0 {
            BLACK
        } else if self.white[y] & bit != 0 {
            WHITE
        } else {
            EMPTY
        }
    }

    /// Puts `what` ([`EMPTY`], [`BLACK`], [`WHITE`]) on `p`; nothing off the board.
    #[inline]
    pub fn set(&mut self, p: Point, what: u8) {
        if p.x >= self.size.cols || p.y >= self.size.rows {
            return;
        }
        let bit = 1u64 << p.x;
        let y = usize::from(p.y);
        self.black[y] &= !bit;
        self.white[y] &= !bit;
        match what {
            BLACK => self.black[y] |= bit,
            WHITE => self.white[y] |= bit,
            _ => {}
        }
    }

    /// The row `y` of the points that satisfy `want` (bits past the board's columns are
    /// set for the negative wants: a placement never reaches them).
    #[inline]
    fn row(&self, y: usize, want: Want) -> u64 {
        let (b, w) = (self.black[y], self.white[y]);
        match want {
            Want::Black => b,
            Want::White => w,
            Want::Empty => !(b | w),
            Want::BlackOrEmpty => !w,
            Want::WhiteOrEmpty => !b,
            Want::Any => !0,
        }
    }
}

/// Where a pattern stands on a position: its place, symmetry and colour swap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Match {
    /// The board column of the placed rectangle's left side.
    pub x: u8,
    /// The board row of its top side.
    pub y: u8,
    /// The symmetry that placed the pattern.
    pub symmetry: Symmetry,
    /// Whether it matched with black and white exchanged.
    pub swapped: bool,
    /// The pattern's size as written.
    w: u8,
    h: u8,
}

impl Match {
    /// How far outside the pattern a point is still "near" it, for
    /// [`to_pattern`](Self::to_pattern): 1 point.
    pub const MARGIN: i32 = 1;

    /// The board rectangle the pattern covers: `(x, y, width, height)`.
    pub fn area(&self) -> (u8, u8, u8, u8) {
        let (w, h) = self.symmetry.dims(self.w, self.h);
        (self.x, self.y, w, h)
    }

    /// The board point of the pattern point `(x, y)` (pattern coordinates; `None` when it
    /// is off the board, or the pattern's coordinates are farther than 255 points).
    pub fn to_board(&self, x: i32, y: i32) -> Option<Point> {
        let (a, b) = self.symmetry.apply(x, y, self.w, self.h);
        let bx = u8::try_from(i32::from(self.x) + a).ok()?;
        let by = u8::try_from(i32::from(self.y) + b).ok()?;
        Some(Point { x: bx, y: by })
    }

    /// A board point in the pattern's coordinates (the symmetry undone), however far.
    pub fn pattern_coords(&self, p: Point) -> (i32, i32) {
        let a = i32::from(p.x) - i32::from(self.x);
        let b = i32::from(p.y) - i32::from(self.y);
        self.symmetry.undo(a, b, self.w, self.h)
    }

    /// A board point in the pattern's coordinates, when it is in the pattern or within
    /// [`MARGIN`](Self::MARGIN) of it: `-1 ..= width` by `-1 ..= height`; else `None`.
    pub fn to_pattern(&self, p: Point) -> Option<(i32, i32)> {
        self.to_pattern_within(p, Self::MARGIN)
    }

    /// As [`to_pattern`](Self::to_pattern) with another margin (0: inside the pattern only).
    pub fn to_pattern_within(&self, p: Point, margin: i32) -> Option<(i32, i32)> {
        let (x, y) = self.pattern_coords(p);
        let m = margin.max(0);
        (x >= -m && y >= -m && x < i32::from(self.w) + m && y < i32::from(self.h) + m)
            .then_some((x, y))
    }

    /// A colour of the game in the pattern's colours: exchanged when the match is
    /// [`swapped`](Self::swapped) (a black move there is the pattern's white, `O`).
    pub fn pattern_color(&self, c: Color) -> Color {
        match (self.swapped, c) {
            (false, c) => c,
            (true, Color::Black) => Color::White,
            (true, Color::White) => Color::Black,
        }
    }
}

/// The matches of a pattern on a position ([`Pattern::matches`]).
#[derive(Clone, Debug)]
pub struct Matches<'a> {
    pattern: &'a Pattern,
    stones: &'a Stones,
    /// The variant being searched.
    v: usize,
    /// `v` is not set up yet (the search has not begun).
    fresh: bool,
    /// Its next row to search, and the end of its rows (`y == y_end`: the variant is done).
    y: u16,
    y_end: u16,
    /// The columns where its rectangle may stand.
    xmask: u64,
    /// The columns where it stands on row `y - 1`, not yet handed out.
    cand: u64,
}

impl Matches<'_> {
    /// Whether an earlier variant with the same points stands at `(x, y)` too.
    fn seen(&self, v: &Variant, x: u8, y: u8) -> bool {
        let mut m = v.same_as;
        while m != 0 {
            let k = m.trailing_zeros() as usize;
            m &= m - 1;
            let u = &self.pattern.variants[k];
            if let Some(((x0, x1), (y0, y1))) = u.places(self.stones.size)
                && (x0..=x1).contains(&x)
                && (y0..=y1).contains(&y)
            {
                return true;
            }
        }
        false
    }
}

impl Iterator for Matches<'_> {
    type Item = Match;

    fn next(&mut self) -> Option<Match> {
        let variants = &self.pattern.variants;
        loop {
            while self.cand != 0 {
                let x = self.cand.trailing_zeros() as u8;
                self.cand &= self.cand - 1;
                let v = &variants[self.v];
                let y = (self.y - 1) as u8;
                if v.same_as != 0 && self.seen(v, x, y) {
                    continue;
                }
                return Some(Match {
                    x,
                    y,
                    symmetry: v.symmetry,
                    swapped: v.swapped,
                    w: self.pattern.w,
                    h: self.pattern.h,
                });
            }
            if self.y == self.y_end {
                // the next variant that fits the board
                if !core::mem::take(&mut self.fresh) {
                    self.v += 1;
                }
                loop {
                    let v = variants.get(self.v)?;
                    if let Some(((x0, x1), (y0, y1))) = v.places(self.stones.size) {
                        self.xmask = (((1u128 << (x1 + 1)) - 1) as u64) & !((1u64 << x0) - 1);
                        self.y = u16::from(y0);
                        self.y_end = u16::from(y1) + 1;
                        break;
                    }
                    self.v += 1;
                }
            }
            // one row: the columns where every test holds, all at once
            let v = &variants[self.v];
            let y = usize::from(self.y);
            self.y += 1;
            let mut cand = self.xmask;
            if cand & cand.wrapping_sub(1) == 0 {
                // one column: the rows tested whole
                let x = cand.trailing_zeros();
                let st = self.stones;
                let holds = v.rows.iter().all(|r| {
                    let yy = y + usize::from(r.dy);
                    (st.black[yy] >> x) & r.care_b == r.want_b
                        && (st.white[yy] >> x) & r.care_w == r.want_w
                });
                if !holds {
                    cand = 0;
                }
            } else {
                for t in &v.tests {
                    cand &= self.stones.row(y + usize::from(t.dy), t.want) >> t.dx;
                    if cand == 0 {
                        break;
                    }
                }
            }
            self.cand = cand;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: u8, y: u8) -> Point {
        Point { x, y }
    }

    fn board(cols: u8, rows: u8, stones: &[(u8, u8, u8)]) -> Stones {
        let mut s = Stones::new(BoardSize { cols, rows });
        for &(x, y, c) in stones {
            s.set(p(x, y), c);
        }
        s
    }

    fn all(pat: &Pattern, s: &Stones) -> Vec<Match> {
        pat.matches(s).collect()
    }

    /// The reference: every place and every symmetry tried point by point, deduplicated by
    /// the set of (board point, wanted) pairs.
    fn naive(pat: &Pattern, s: &Stones) -> usize {
        let size = s.size();
        let mut seen = std::collections::HashSet::new();
        for &swapped in if pat.swap {
            &[false, true][..]
        } else {
            &[false][..]
        } {
            for sym in Symmetry::ALL {
                let (tw, th) = sym.dims(pat.w, pat.h);
                if tw > size.cols || th > size.rows {
                    continue;
                }
                for y0 in 0..=size.rows - th {
                    for x0 in 0..=size.cols - tw {
                        // the anchor
                        let (ox, oy) = sym.apply(0, 0, pat.w, pat.h);
                        let (ox, oy) = (x0 as i32 + ox, y0 as i32 + oy);
                        let corner_x = ox == 0 || ox == i32::from(size.cols) - 1;
                        let corner_y = oy == 0 || oy == i32::from(size.rows) - 1;
                        let ok = match pat.anchor {
                            Anchor::Anywhere => true,
                            Anchor::Corner => corner_x && corner_y,
                            Anchor::Edge => {
                                // the top row on an edge, the pattern going inwards from it
                                let (dx, dy) = sym.apply(0, 1, pat.w, pat.h);
                                let (dx, dy) = (x0 as i32 + dx - ox, y0 as i32 + dy - oy);
                                let c = i32::from(size.cols) - 1;
                                let r = i32::from(size.rows) - 1;
                                match (dx, dy) {
                                    (0, 1) => oy == 0,
                                    (0, -1) => oy == r,
                                    (1, 0) => ox == 0,
                                    _ => ox == c,
                                }
                            }
                        };
                        if !ok {
                            continue;
                        }
                        let mut key = Vec::new();
                        let mut good = true;
                        for py in 0..pat.h {
                            for px in 0..pat.w {
                                let mut want = pat.get(px, py).unwrap();
                                if swapped {
                                    want = want.swapped();
                                }
                                let (a, b) = sym.apply(i32::from(px), i32::from(py), pat.w, pat.h);
                                let bp = p(x0 + a as u8, y0 + b as u8);
                                let c = s.get(bp);
                                good &= match want {
                                    Want::Black => c == BLACK,
                                    Want::White => c == WHITE,
                                    Want::Empty => c == EMPTY,
                                    Want::BlackOrEmpty => c != WHITE,
                                    Want::WhiteOrEmpty => c != BLACK,
                                    Want::Any => true,
                                };
                                key.push((bp.x, bp.y, want));
                            }
                        }
                        if good {
                            key.sort_by_key(|k| (k.0, k.1));
                            seen.insert(key);
                        }
                    }
                }
            }
        }
        seen.len()
    }

    #[test]
    fn a_leading_byte_order_mark_is_skipped() {
        // as Notepad saves a file: the BOM, then the rows (CRLF)
        let p = Pattern::parse("\u{feff}XO\r\n?X\r\n").unwrap();
        assert_eq!(p.to_string(), "XO\n?X\n");
        assert_eq!(p, Pattern::parse("XO\n?X\n").unwrap());
        // before a comment, a drawn edge, a GNU Go header
        let p = Pattern::parse("\u{feff}# a corner\n+--\n|.X\n").unwrap();
        assert_eq!(p.anchor_kind(), Anchor::Corner);
        let p = Pattern::parse("\u{feff}Pattern EB1\n\n|..X\n|...\n\n:8,-\n").unwrap();
        assert_eq!(p.anchor_kind(), Anchor::Edge);
        // one BOM, at the start only: columns counted after it
        let e = Pattern::parse("\u{feff}.Z\n").unwrap_err();
        assert_eq!((e.line, e.column), (1, 2), "{e}");
        assert!(Pattern::parse("\u{feff}\u{feff}X").is_err());
        assert!(Pattern::parse("X\n\u{feff}X\n").is_err());
    }

    #[test]
    fn parse_errors_are_located() {
        let e = Pattern::parse("..\n.Z\n").unwrap_err();
        assert_eq!((e.line, e.column), (2, 2));
        assert!(
            e.to_string()
                .starts_with("line 2, column 2: `Z` is no pattern point")
        );
        let e = Pattern::parse("# nothing\n\n").unwrap_err();
        assert_eq!(e.line, 0);
        let e = Pattern::parse("...\n..\n").unwrap_err();
        assert_eq!((e.line, e.column), (2, 0));
        let e = Pattern::parse("|...\n....\n").unwrap_err();
        assert!(e.to_string().contains("some rows only"), "{e}");
        let e = Pattern::parse("|..|\n|..|\n").unwrap_err();
        assert!(e.to_string().contains("opposite sides"), "{e}");
        let e = Pattern::parse(".|.\n...\n").unwrap_err();
        assert!(e.to_string().contains("board edge inside"), "{e}");
        let long = ".".repeat(53);
        assert!(Pattern::parse(&long).is_err());
        let tall = ".\n".repeat(53);
        assert!(Pattern::parse(&tall).is_err());
        let p = Pattern::parse("  # c\r\nX . O\r\n\n? x o\r\n").unwrap();
        assert_eq!(p.to_string(), "X.O\n?xo\n");
        assert!(Pattern::parse("X\u{feff}").is_err()); // no panic on odd characters
        assert!(Pattern::from_sgf(b"").is_err());
        assert!(Pattern::from_sgf(b"(;GM[2])").is_err());
        // a bad SZ is refused, named, not read as 19x19
        for bad in ["53", "0", "x", "19:53"] {
            let text = format!("(;GM[1]SZ[{bad}];B[aa])");
            let e = Pattern::from_sgf(text.as_bytes()).unwrap_err();
            assert!(e.to_string().contains(&format!("SZ[{bad}]")), "{e}");
        }
        let p = Pattern::from_sgf(b"(;GM[1]SZ[52:3];B[aa])").unwrap();
        assert_eq!((p.width(), p.height()), (52, 3));
    }

    #[test]
    fn gnugo_pattern_files_are_read_with_their_edges() {
        // an edge pattern as GNU Go's patterns.db writes it: the header, a comment after a
        // row, the edge below, the colon line, the constraint diagram and lines after it
        let edge = "# Copyright\nPattern EB112\n\n?X?.?       jump under\nO.*oo\nO....\n\
                    o....\n-----\n\n:8,ed,NULL\n\n?X?.?\nO.*ab\n;lib(a)>1\n>action(b)\n";
        let p = Pattern::parse(edge).unwrap();
        let want = Pattern::parse("o....\nO....\nO.*oo\n?X?.?\n")
            .unwrap()
            .anchor(Anchor::Edge);
        assert_eq!(p, want);
        // a corner at the lower right: turned to the upper left
        let corner = "Pattern CC1\n\n??o|\n?Oo|\n..*|\n...|\n---+\n\n:8,s\n";
        let p = Pattern::parse(corner).unwrap();
        assert_eq!(p.anchor_kind(), Anchor::Corner);
        assert_eq!(p.to_string(), "...\n...\noO?\no??\n");
        // an edge on the left: its column the top row
        let p = Pattern::parse("|.X\n|..\n|.O\n").unwrap();
        assert_eq!(
            (p.anchor_kind(), p.to_string()),
            (Anchor::Edge, "...\nX.O\n".into())
        );
        // found where it is drawn: a black 3-3 stone in a corner, not on the side
        let p = Pattern::parse("Pattern T\n+----\n|....\n|....\n|..X.\n|....\n:8\n").unwrap();
        let mut s = board(19, 19, &[(16, 2, BLACK)]);
        assert_eq!(all(&p, &s).len(), 1);
        s = board(19, 19, &[(9, 2, BLACK)]);
        assert_eq!(all(&p, &s).len(), 0);
        // what has no equivalent is refused, named
        let e = Pattern::parse("Pattern A\n\n.,X\n...\n:8\n").unwrap_err();
        assert_eq!((e.line, e.column), (3, 2));
        assert!(e.to_string().contains("no equivalent"), "{e}");
        let e = Pattern::parse("Pattern A\n\nX\n:8\nPattern B\n\nO\n:8\n").unwrap_err();
        assert!(e.to_string().contains("a second pattern"), "{e}");
        let e = Pattern::parse("+--\n|..\n|..\n+-\n").unwrap_err();
        assert!(e.to_string().contains("opposite"), "{e}");
        let e = Pattern::parse("+-\n|..\n|..\n").unwrap_err();
        assert!(e.to_string().contains("edge row of 2"), "{e}");
        // the anchor drawn is kept; another asked is refused
        let p = Pattern::parse("----\n....\n").unwrap();
        assert!(p.clone().with_anchor_asked(None).is_ok());
        assert!(p.with_anchor_asked(Some(Anchor::Anywhere)).is_err());
    }

    #[test]
    fn each_symmetry_in_each_corner() {
        // an asymmetric corner shape: a black stone at pattern (2, 1)
        let pat = Pattern::parse("....\n..X.\n....\n")
            .unwrap()
            .anchor(Anchor::Corner);
        assert_eq!(pat.variants(), 8);
        for sym in Symmetry::ALL {
            // put the shape on a 19x19 board under `sym`, in its corner
            let (tw, th) = sym.dims(4, 3);
            let right = sym.0 & Symmetry::FLIP_X != 0;
            let bottom = sym.0 & Symmetry::FLIP_Y != 0;
            let x0 = if right { 19 - tw } else { 0 };
            let y0 = if bottom { 19 - th } else { 0 };
            let (a, b) = sym.apply(2, 1, 4, 3);
            let s = board(19, 19, &[(x0 + a as u8, y0 + b as u8, BLACK)]);
            let m = all(&pat, &s);
            assert_eq!(m.len(), 1, "{sym:?}");
            assert_eq!((m[0].symmetry, m[0].x, m[0].y), (sym, x0, y0));
            assert_eq!(m[0].to_pattern(p(x0 + a as u8, y0 + b as u8)), Some((2, 1)));
            // the corner point itself is the pattern's upper left
            let (cx, cy) = (if right { 18 } else { 0 }, if bottom { 18 } else { 0 });
            assert_eq!(m[0].to_pattern(p(cx, cy)), Some((0, 0)));
            assert_eq!(m[0].to_board(0, 0), Some(p(cx, cy)));
            assert_eq!(naive(&pat, &s), 1);
        }
    }

    #[test]
    fn symmetric_pattern_counted_once() {
        // the 3-3 point: symmetric about the corner's diagonal
        let pat = Pattern::parse("....\n....\n..X.\n....\n")
            .unwrap()
            .anchor(Anchor::Corner);
        assert_eq!(pat.variants(), 4);
        let s = board(19, 19, &[(2, 2, BLACK), (16, 16, BLACK)]);
        assert_eq!(all(&pat, &s).len(), 2);
        assert_eq!(naive(&pat, &s), 2);
        // a single stone anywhere: one variant, one match per stone
        let one = Pattern::parse("X").unwrap();
        assert_eq!(one.variants(), 1);
        assert_eq!(one.clone().swap_colors(true).variants(), 2);
        let s = board(9, 9, &[(4, 4, BLACK), (0, 8, BLACK), (1, 1, WHITE)]);
        assert_eq!(all(&one, &s).len(), 2);
        // the empty board against itself: once
        let empty = Stones::new(BoardSize { cols: 9, rows: 9 });
        let whole = Pattern::from_board(&Board::new(BoardSize { cols: 9, rows: 9 }));
        assert_eq!(whole.variants(), 1);
        assert_eq!(all(&whole, &empty).len(), 1);
        // "XO" swapped is "OX", its mirror: no new variant
        let xo = Pattern::parse("XO").unwrap().swap_colors(true);
        assert_eq!(xo.variants(), 4);
    }

    #[test]
    fn colour_swap() {
        let pat = Pattern::parse("XO.\n").unwrap().anchor(Anchor::Edge);
        let s = board(19, 19, &[(5, 0, WHITE), (6, 0, BLACK)]);
        // O X . along the top: X O . mirrored needs X at 6, O at 5, empty at 4: yes
        assert_eq!(all(&pat, &s).len(), 1);
        let s = board(19, 19, &[(5, 0, WHITE), (6, 0, BLACK), (4, 0, BLACK)]);
        assert!(all(&pat, &s).is_empty());
        // swapped, "O X ." at 5..8 (and its mirror ". X O" at 3..6)
        let sw = pat.clone().swap_colors(true);
        let m = all(&sw, &s);
        assert_eq!(m.len(), 2, "{m:?}");
        assert_eq!(naive(&sw, &s), 2);
        let m = m.iter().find(|m| m.x == 5).unwrap();
        assert!(m.swapped);
        assert_eq!((m.x, m.y, m.symmetry), (5, 0, Symmetry::IDENTITY));
        assert_eq!(m.pattern_color(Color::Black), Color::White);
        assert_eq!(m.to_pattern(p(7, 0)), Some((2, 0)));
        assert_eq!(m.to_pattern(p(8, 1)), Some((3, 1)));
        assert_eq!(m.to_pattern(p(9, 0)), None);
    }

    #[test]
    fn edge_and_anywhere() {
        let pat = Pattern::parse("X\n.\n").unwrap();
        let s = board(9, 9, &[(0, 4, BLACK), (4, 4, BLACK), (4, 0, BLACK)]);
        // anywhere: each stone with an empty point beside it in some direction
        let any = all(&pat, &s);
        assert_eq!(any.len(), naive(&pat, &s));
        // edge: only the two on an edge, each with its one empty point inwards
        let edge = pat.clone().anchor(Anchor::Edge);
        let m = all(&edge, &s);
        assert_eq!(m.len(), 2, "{m:?}");
        assert_eq!(naive(&edge, &s), 2);
        for m in &m {
            assert_eq!(m.to_pattern(p(4, 4)), None);
        }
        // corner: neither
        assert!(all(&edge.anchor(Anchor::Corner), &s).is_empty());
    }

    #[test]
    fn non_square_board() {
        // 19 columns, 13 rows: the corner shape fits the four corners
        let pat = Pattern::parse("...\n.X.\n...\n..O\n")
            .unwrap()
            .anchor(Anchor::Corner);
        let stones = [
            (1, 1, BLACK),
            (2, 3, WHITE),
            (17, 11, BLACK),
            (16, 9, WHITE),
        ];
        let s = board(19, 13, &stones);
        let m = all(&pat, &s);
        assert_eq!(m.len(), 2, "{m:?}");
        assert_eq!(naive(&pat, &s), 2);
        // bits past the 13th row or 19th column never match
        let tall = Pattern::parse(&"?\n".repeat(14)).unwrap();
        assert!(all(&tall, &s).iter().all(|m| m.area().2 == 14));
        let wide = Pattern::parse(&"?".repeat(20)).unwrap();
        assert!(all(&wide, &s).is_empty());
        // whole board of 19x13: only the 4 symmetries that keep its shape place it
        let mut b = Board::new(BoardSize { cols: 19, rows: 13 });
        b.play(Color::Black, p(3, 3));
        let whole = Pattern::from_board(&b);
        let mut c = Board::new(BoardSize { cols: 19, rows: 13 });
        c.play(Color::Black, p(15, 9));
        assert_eq!(all(&whole, &Stones::from_board(&c)).len(), 1);
        c.play(Color::White, p(0, 0));
        assert!(all(&whole, &Stones::from_board(&c)).is_empty());
    }

    #[test]
    fn against_the_naive_search() {
        // pseudo-random boards and patterns, every anchor, swapped or not
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut rnd = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        let chars = ['X', 'O', '.', '.', '?', 'x', 'o'];
        let mut total = 0;
        for round in 0..300 {
            let (cols, rows) = if round % 3 == 0 { (7, 5) } else { (6, 6) };
            let mut s = Stones::new(BoardSize { cols, rows });
            for y in 0..rows {
                for x in 0..cols {
                    s.set(p(x, y), [EMPTY, EMPTY, BLACK, WHITE][rnd(4) as usize]);
                }
            }
            let (w, h) = (1 + rnd(3) as usize, 1 + rnd(3) as usize);
            let mut text = String::new();
            for _ in 0..h {
                for _ in 0..w {
                    text.push(chars[rnd(chars.len() as u64) as usize]);
                }
                text.push('\n');
            }
            for anchor in [Anchor::Anywhere, Anchor::Edge, Anchor::Corner] {
                for swap in [false, true] {
                    let pat = Pattern::parse(&text)
                        .unwrap()
                        .anchor(anchor)
                        .swap_colors(swap);
                    let got = all(&pat, &s);
                    assert_eq!(got.len(), naive(&pat, &s), "{text}{anchor:?} {swap}\n{s}");
                    total += got.len();
                    // every match holds point by point
                    for m in got {
                        for py in 0..pat.h {
                            for px in 0..pat.w {
                                let bp = m.to_board(px.into(), py.into()).unwrap();
                                assert_eq!(m.pattern_coords(bp), (px.into(), py.into()));
                            }
                        }
                    }
                }
            }
        }
        assert!(total > 1000, "{total}");
    }

    /// A point off a pattern's area changes none of its matches; the area is within the board.
    #[test]
    fn only_the_area_decides_the_matches() {
        let mut seed = 11u64;
        let mut next = move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize
        };
        let patterns = [
            ("?????\n?....\n?....\n?..X.\n?....\n", Anchor::Corner, true),
            ("..X.\n.OX.\n....\n", Anchor::Edge, false),
            ("xX\nO.\n", Anchor::Anywhere, true),
        ];
        for (text, anchor, swap) in patterns {
            let pat = Pattern::parse(text)
                .unwrap()
                .anchor(anchor)
                .swap_colors(swap);
            for (cols, rows) in [(19u8, 19u8), (9, 9), (13, 7), (4, 4)] {
                let size = BoardSize { cols, rows };
                let area = pat.area(size);
                for (y, r) in area.iter().enumerate() {
                    assert_eq!(r >> cols.min(63), 0, "{text} row {y} past the columns");
                    assert!(y < usize::from(rows) || *r == 0, "{text} row {y}");
                }
                for _ in 0..20 {
                    let mut s = Stones::new(size);
                    // sparse boards, so that the patterns stand somewhere
                    for _ in 0..usize::from(cols) * usize::from(rows) / 4 {
                        let at = p(
                            (next() % usize::from(cols)) as u8,
                            (next() % usize::from(rows)) as u8,
                        );
                        s.set(at, [BLACK, WHITE][next() % 2]);
                    }
                    let before = all(&pat, &s);
                    for y in 0..rows {
                        for x in 0..cols {
                            if area[usize::from(y)] >> x & 1 != 0 {
                                continue;
                            }
                            let mut t = s.clone();
                            t.set(p(x, y), [EMPTY, BLACK, WHITE][next() % 3]);
                            assert_eq!(all(&pat, &t), before, "{text} ({x}, {y})");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn set_board_packs_every_point() {
        let mut seed = 7u64;
        for cols in [1u8, 7, 8, 9, 13, 19, 52] {
            let rows = cols.min(21);
            let mut b = Board::new(BoardSize { cols, rows });
            let mut s = Stones::new(b.size());
            for y in 0..rows {
                for x in 0..cols {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    let c = [EMPTY, BLACK, WHITE][(seed >> 33) as usize % 3];
                    b.set(p(x, y), c);
                    s.set(p(x, y), c);
                }
            }
            let mut t = Stones::new(BoardSize { cols: 52, rows: 52 });
            t.set(p(51, 51), BLACK);
            t.set_board(&b);
            assert_eq!(t, s, "{cols}");
        }
    }

    #[test]
    fn stones_follow_the_board() {
        let mut b = Board::new(BoardSize { cols: 52, rows: 52 });
        b.play(Color::White, p(51, 51));
        b.play(Color::Black, p(0, 51));
        let s = Stones::from_board(&b);
        assert_eq!(s.to_string(), b.to_string());
    }
}
