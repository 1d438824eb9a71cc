//! A Go board of any size up to 52×52: stones, captures, simple ko, suicide.

use kifu::sgf::{BoardSize, Color, Point};

/// An empty point, in [`Board::points`].
pub const EMPTY: u8 = 0;
/// A black stone, in [`Board::points`].
pub const BLACK: u8 = 1;
/// A white stone, in [`Board::points`].
pub const WHITE: u8 = 2;

/// The byte of a colour in [`Board::points`].
#[inline]
pub fn stone(color: Color) -> u8 {
    match color {
        Color::Black => BLACK,
        Color::White => WHITE,
    }
}

/// What playing a stone did, or why it was not played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlayOutcome {
    /// The stone was played; `captured` opponent stones were taken.
    Played {
        /// Opponent stones removed.
        captured: u32,
    },
    /// The point holds a stone: nothing was played (sgfmill raises here).
    Occupied,
    /// The stone retook a ko at once (simple ko): it was played all the same, as `FF[4]` asks an
    /// application to execute a move even if it is illegal (sgfmill does not check ko).
    KoViolation {
        /// Opponent stones removed (one).
        captured: u32,
    },
    /// The stone left its own group without liberties and took nothing: the group was removed
    /// (the opponent gets its stones), as New Zealand and Ing rules play it and as sgfmill
    /// does. Whether that is an error is the rules' business (see [`Rules`](super::Rules)).
    Suicide {
        /// Own stones removed (the stone played included).
        lost: u32,
    },
}

/// A Go board: the points row-major from the upper left (`aa` is index 0, `ba` index 1; index
/// = `y * cols + x`), one byte each: [`EMPTY`] 0, [`BLACK`] 1, [`WHITE`] 2; the prisoners each
/// side holds; the point simple ko forbids to the next move.
///
/// ```
/// use kifu::sgf::{BoardSize, Color, Point};
/// use kifu_replay::go::{Board, PlayOutcome, BLACK};
///
/// let mut b = Board::new(BoardSize { cols: 9, rows: 9 });
/// let p = |x, y| Point { x, y };
/// b.play(Color::White, p(0, 0));
/// b.play(Color::Black, p(1, 0));
/// assert_eq!(b.play(Color::Black, p(0, 1)), PlayOutcome::Played { captured: 1 });
/// assert_eq!(b.captures(Color::Black), 1);
/// assert_eq!(b.get(p(0, 1)), BLACK);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    size: BoardSize,
    points: Vec<u8>,
    /// Prisoners held by Black, White.
    captures: [u32; 2],
    /// The point simple ko forbids, and to whom.
    ko: Option<(u16, u8)>,
    /// The stones' part of [`key`](Board::key), kept as the stones change.
    hash: u64,
    scratch: Scratch,
}

/// Reused buffers of the flood fills (not part of the position).
#[derive(Clone, Debug, Default)]
struct Scratch {
    mark: Vec<u32>,
    epoch: u32,
    stack: Vec<u16>,
    group: Vec<u16>,
    /// Each point's neighbours and key place, for the board's size ([`Near::of`]).
    near: &'static [Near],
    /// The points the last move emptied ([`Board::removed`]).
    removed: Vec<u16>,
}

/// What a board of one size knows of a point, worked out once per size (no division by the
/// board's width on each move): its neighbours, and its place among the stones' keys.
#[derive(Clone, Copy, Debug, Default)]
struct Near {
    /// The neighbours' indexes, the first `n` of them.
    nb: [u16; 4],
    n: u8,
    /// `y * 52 + x`: the point's place in each colour's keys.
    key: u16,
}

/// `size`, at most 52 each way (SGF's largest board; the keys and [`Near`] have no more).
fn within_52(size: BoardSize) -> BoardSize {
    BoardSize {
        cols: size.cols.min(52),
        rows: size.rows.min(52),
    }
}

/// The tables of [`Near::of`], one per board size, made when first asked for.
static NEAR: [std::sync::OnceLock<Box<[Near]>>; 52 * 52] =
    [const { std::sync::OnceLock::new() }; 52 * 52];

impl Near {
    /// The table of a board of `size` (each way within 1 and 52), shared by every board of
    /// that size.
    fn of(size: BoardSize) -> &'static [Near] {
        let cols = usize::from(size.cols.clamp(1, 52));
        let rows = usize::from(size.rows.clamp(1, 52));
        NEAR[(rows - 1) * 52 + cols - 1].get_or_init(|| {
            let len = cols * rows;
            (0..len)
                .map(|i| {
                    let mut nb = [usize::MAX; 4];
                    let n = neighbours_of(i, cols, len, &mut nb);
                    Near {
                        nb: nb.map(|q| q.min(u16::MAX as usize) as u16),
                        n: n as u8,
                        key: ((i / cols) * 52 + i % cols) as u16,
                    }
                })
                .collect()
        })
    }

    /// The neighbours' indexes.
    #[inline]
    fn neighbours(&self) -> impl Iterator<Item = usize> + '_ {
        self.nb[..usize::from(self.n)]
            .iter()
            .map(|&q| usize::from(q))
    }
}

impl PartialEq for Scratch {
    fn eq(&self, _: &Scratch) -> bool {
        true
    }
}
impl Eq for Scratch {}

impl Board {
    /// An empty board (of at most 52 points each way: a larger size is read as 52).
    pub fn new(size: BoardSize) -> Board {
        let size = within_52(size);
        let n = usize::from(size.cols.max(1)) * usize::from(size.rows.max(1));
        Board {
            size,
            points: vec![EMPTY; n],
            captures: [0, 0],
            ko: None,
            hash: size_key(size),
            scratch: Scratch {
                mark: vec![0; n],
                near: Near::of(size),
                ..Scratch::default()
            },
        }
    }

    /// Empties the board for a game of size `size`, keeping the allocations.
    pub fn reset(&mut self, size: BoardSize) {
        let size = within_52(size);
        let n = usize::from(size.cols.max(1)) * usize::from(size.rows.max(1));
        if self.size != size || self.scratch.near.len() != n {
            self.scratch.near = Near::of(size);
        }
        self.size = size;
        self.points.clear();
        self.points.resize(n, EMPTY);
        self.scratch.mark.clear();
        self.scratch.mark.resize(n, 0);
        self.scratch.epoch = 0;
        self.scratch.removed.clear();
        self.captures = [0, 0];
        self.ko = None;
        self.hash = size_key(size);
    }

    /// The size.
    pub fn size(&self) -> BoardSize {
        self.size
    }

    /// The points, row-major from the upper left, one byte each (0 empty, 1 black, 2 white).
    pub fn points(&self) -> &[u8] {
        &self.points
    }

    /// What is on `p` (0 empty, 1 black, 2 white); 0 off the board.
    pub fn get(&self, p: Point) -> u8 {
        self.index(p).map_or(EMPTY, |i| self.points[i])
    }

    /// The prisoners `color` holds: the opponent's stones it captured, and the opponent's own
    /// stones lost to suicide.
    pub fn captures(&self, color: Color) -> u32 {
        self.captures[usize::from(stone(color) - 1)]
    }

    /// The point simple ko forbids to the next move of `color`, if any.
    pub fn ko_point(&self, color: Color) -> Option<Point> {
        let (i, c) = self.ko?;
        (c == stone(color)).then(|| self.point(usize::from(i)))
    }

    /// A 64-bit key of the position: the board's size, its stones and the side to move
    /// (Zobrist hashing, [`zobrist`]: equal positions, equal keys; the prisoners and the ko
    /// point are not in it). Kept as the stones change: no walk over the board.
    ///
    /// ```
    /// use kifu::sgf::{BoardSize, Color, Point};
    /// use kifu_replay::go::{Board, zobrist};
    ///
    /// let mut b = Board::new(BoardSize { cols: 9, rows: 9 });
    /// b.play(Color::Black, Point { x: 2, y: 2 });
    /// assert_eq!(b.key(Color::White), zobrist(b.size(), b.points(), Color::White));
    /// assert_ne!(b.key(Color::White), b.key(Color::Black));
    /// ```
    pub fn key(&self, to_play: Color) -> u64 {
        self.hash ^ side_key(to_play)
    }

    /// The index of `p` in [`points`](Self::points), when it is on the board.
    #[inline]
    pub fn index(&self, p: Point) -> Option<usize> {
        (p.x < self.size.cols && p.y < self.size.rows)
            .then(|| usize::from(p.y) * usize::from(self.size.cols) + usize::from(p.x))
    }

    fn point(&self, i: usize) -> Point {
        let cols = usize::from(self.size.cols);
        Point {
            x: (i % cols) as u8,
            y: (i / cols) as u8,
        }
    }

    /// Sets a point (`AB`, `AW`, `AE`): no capture, no suicide, whatever stood there (`FF[4]`:
    /// "adding a stone doesn't make any prisoners"). Clears the ko. `false` off the board.
    pub fn set(&mut self, p: Point, what: u8) -> bool {
        self.ko = None;
        self.scratch.removed.clear();
        match self.index(p) {
            Some(i) => {
                let what = what.min(WHITE);
                self.hash ^= self.key_of(i, self.points[i]) ^ self.key_of(i, what);
                self.points[i] = what;
                true
            }
            None => false,
        }
    }

    /// A pass: clears the ko.
    pub fn pass(&mut self) {
        self.ko = None;
        self.scratch.removed.clear();
    }

    /// The points the last [`play`](Self::play) emptied: the stones it captured, or its own
    /// group for a suicide (none after a pass, a setup or a move that removed nothing). A
    /// search that follows the stones takes them off where they were, rather than reading
    /// the whole board again.
    ///
    /// ```
    /// use kifu::sgf::{BoardSize, Color, Point};
    /// use kifu_replay::go::Board;
    ///
    /// let mut b = Board::new(BoardSize { cols: 9, rows: 9 });
    /// b.play(Color::White, Point { x: 0, y: 0 });
    /// b.play(Color::Black, Point { x: 1, y: 0 });
    /// assert_eq!(b.removed().count(), 0);
    /// b.play(Color::Black, Point { x: 0, y: 1 });
    /// assert_eq!(b.removed().collect::<Vec<_>>(), [Point { x: 0, y: 0 }]);
    /// ```
    pub fn removed(&self) -> impl Iterator<Item = Point> + '_ {
        self.scratch
            .removed
            .iter()
            .map(|&i| self.point(usize::from(i)))
    }

    /// Plays a stone of `color` on `p` (which must be on the board: off the board it is
    /// [`PlayOutcome::Occupied`]-like, nothing happens, and `Occupied` is returned).
    pub fn play(&mut self, color: Color, p: Point) -> PlayOutcome {
        self.scratch.removed.clear();
        let Some(at) = self.index(p) else {
            return PlayOutcome::Occupied;
        };
        if self.points[at] != EMPTY {
            return PlayOutcome::Occupied;
        }
        let me = stone(color);
        let them = 3 - me;
        let ko_violation = self.ko == Some((at as u16, me));
        self.ko = None;
        self.points[at] = me;
        self.hash ^= self.key_of(at, me);
        let mut captured = 0;
        let mut last_captured = 0;
        let mut nb = [usize::MAX; 4];
        let n = self.neighbours(at, &mut nb);
        for &q in &nb[..n] {
            if self.points[q] == them && !self.has_liberty(q) {
                let taken = self.remove_group();
                captured += taken;
                last_captured = q;
            }
        }
        if captured > 0 {
            self.captures[usize::from(me - 1)] += captured;
            if captured == 1 && self.lone_with_one_liberty(at, &nb[..n]) {
                self.ko = Some((last_captured as u16, them));
            }
            return if ko_violation {
                PlayOutcome::KoViolation { captured }
            } else {
                PlayOutcome::Played { captured }
            };
        }
        if !self.has_liberty(at) {
            let lost = self.remove_group();
            self.captures[usize::from(them - 1)] += lost;
            return PlayOutcome::Suicide { lost };
        }
        PlayOutcome::Played { captured: 0 }
    }

    /// Whether the stone at `at` is alone (no friendly neighbour) with exactly one liberty.
    fn lone_with_one_liberty(&self, at: usize, nb: &[usize]) -> bool {
        let me = self.points[at];
        let mut libs = 0;
        for &q in nb {
            match self.points[q] {
                EMPTY => libs += 1,
                c if c == me => return false,
                _ => {}
            }
        }
        libs == 1
    }

    #[inline]
    fn neighbours(&self, i: usize, out: &mut [usize; 4]) -> usize {
        let near = self.scratch.near[i];
        for (o, q) in out.iter_mut().zip(near.neighbours()) {
            *o = q;
        }
        usize::from(near.n)
    }

    /// The key of `what` on the point `i` (0 for an empty point).
    #[inline]
    fn key_of(&self, i: usize, what: u8) -> u64 {
        if what == EMPTY {
            return 0;
        }
        KEYS[usize::from(what - 1) * 52 * 52 + usize::from(self.scratch.near[i].key)]
    }

    /// Whether the group of the stone at `start` has a liberty; leaves the group's points in
    /// `scratch.group` when it has none.
    #[inline]
    fn has_liberty(&mut self, start: usize) -> bool {
        // most groups have a liberty beside the stone looked at: no walk then (and no call)
        if self.scratch.near[start]
            .neighbours()
            .any(|q| self.points[q] == EMPTY)
        {
            return true;
        }
        self.group_has_liberty(start)
    }

    /// [`has_liberty`](Self::has_liberty) by a walk of the group.
    #[inline(never)]
    fn group_has_liberty(&mut self, start: usize) -> bool {
        let color = self.points[start];
        let points = &self.points;
        let s = &mut self.scratch;
        s.epoch = s.epoch.wrapping_add(1);
        if s.epoch == 0 {
            s.mark.iter_mut().for_each(|m| *m = 0);
            s.epoch = 1;
        }
        let epoch = s.epoch;
        s.stack.clear();
        s.group.clear();
        s.stack.push(start as u16);
        s.mark[start] = epoch;
        while let Some(i) = s.stack.pop() {
            let i = usize::from(i);
            s.group.push(i as u16);
            for q in s.near[i].neighbours() {
                let c = points[q];
                if c == EMPTY {
                    return true;
                }
                if c == color && s.mark[q] != epoch {
                    s.mark[q] = epoch;
                    s.stack.push(q as u16);
                }
            }
        }
        false
    }

    /// Empties the points of `scratch.group` (a group just found without liberties).
    fn remove_group(&mut self) -> u32 {
        for k in 0..self.scratch.group.len() {
            let i = usize::from(self.scratch.group[k]);
            self.hash ^= self.key_of(i, self.points[i]);
            self.points[i] = EMPTY;
        }
        let Scratch { group, removed, .. } = &mut self.scratch;
        removed.extend_from_slice(group);
        self.scratch.group.len() as u32
    }

    /// Number of stones of each colour: (black, white).
    pub fn stones(&self) -> (u32, u32) {
        let mut b = 0;
        let mut w = 0;
        for &c in &self.points {
            match c {
                BLACK => b += 1,
                WHITE => w += 1,
                _ => {}
            }
        }
        (b, w)
    }
}

/// The Zobrist keys: one per point of a 52 × 52 board (by `y * 52 + x`) and colour, black's
/// first, then the side to move's, then the board sizes'. SplitMix64's sequence from a fixed
/// seed, made at compile time.
static KEYS: [u64; 2 * 52 * 52 + 1 + 52 * 52] = {
    let mut keys = [0u64; 2 * 52 * 52 + 1 + 52 * 52];
    let mut state: u64 = 0x6b69_6675_2d67_6f21; // "kifu-go!"
    let mut i = 0;
    while i < keys.len() {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        keys[i] = z ^ (z >> 31);
        i += 1;
    }
    keys
};

const SIDE_KEY: usize = 2 * 52 * 52;

/// The key of what stands on point `i` (an index `y * cols + x`): 0 for an empty point.
#[inline]
fn point_key(cols: u8, i: usize, what: u8) -> u64 {
    if what == EMPTY {
        return 0;
    }
    let cols = usize::from(cols.max(1));
    let at = (i / cols) * 52 + i % cols;
    KEYS[usize::from(what - 1) * 52 * 52 + at]
}

/// The side to move's part of a key: White's key, 0 for Black.
#[inline]
fn side_key(to_play: Color) -> u64 {
    match to_play {
        Color::Black => 0,
        Color::White => KEYS[SIDE_KEY],
    }
}

/// The board size's part of a key.
fn size_key(size: BoardSize) -> u64 {
    let c = usize::from(size.cols.clamp(1, 52)) - 1;
    let r = usize::from(size.rows.clamp(1, 52)) - 1;
    KEYS[SIDE_KEY + 1 + r * 52 + c]
}

/// The 64-bit key of a position given as board bytes (`cols * rows` bytes, row-major from the
/// upper left: 0 empty, 1 black, 2 white; other values read as white) and the side to move:
/// the XOR of a fixed random number for the board size, one per stone (its point and colour),
/// and one more when White is to move (Zobrist hashing: equal positions, equal keys; two
/// positions that differ share a key with a chance of about 2⁻⁶⁴). [`Board::key`] keeps the
/// same key as the stones change. A board whose bytes are not `cols * rows` long is read as far
/// as both go.
///
/// ```
/// use kifu::sgf::{BoardSize, Color};
/// use kifu_replay::go::zobrist;
///
/// let size = BoardSize { cols: 3, rows: 3 };
/// let a = zobrist(size, &[0, 0, 0, 0, 1, 0, 0, 0, 2], Color::White);
/// assert_eq!(a, zobrist(size, &[0, 0, 0, 0, 1, 0, 0, 0, 2], Color::White));
/// assert_ne!(a, zobrist(size, &[0, 0, 0, 0, 2, 0, 0, 0, 1], Color::White));
/// assert_ne!(a, zobrist(BoardSize { cols: 9, rows: 1 }, &[0, 0, 0, 0, 1, 0, 0, 0, 2], Color::White));
/// ```
pub fn zobrist(size: BoardSize, points: &[u8], to_play: Color) -> u64 {
    let n = usize::from(size.cols) * usize::from(size.rows);
    let mut key = size_key(size) ^ side_key(to_play);
    for (i, &c) in points.iter().enumerate().take(n) {
        if c != EMPTY {
            key ^= point_key(size.cols, i, c.min(WHITE));
        }
    }
    key
}

#[inline]
fn neighbours_of(i: usize, cols: usize, len: usize, out: &mut [usize; 4]) -> usize {
    let mut n = 0;
    let x = i % cols;
    if x > 0 {
        out[n] = i - 1;
        n += 1;
    }
    if x + 1 < cols {
        out[n] = i + 1;
        n += 1;
    }
    if i >= cols {
        out[n] = i - cols;
        n += 1;
    }
    if i + cols < len {
        out[n] = i + cols;
        n += 1;
    }
    n
}

impl core::fmt::Display for Board {
    /// The board as text: one line per row from the top, `.` empty, `X` black, `O` white.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        for row in self.points.chunks(usize::from(self.size.cols.max(1))) {
            for &c in row {
                f.write_str(match c {
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
