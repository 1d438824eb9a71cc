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
    scratch: Scratch,
}

/// Reused buffers of the flood fills (not part of the position).
#[derive(Clone, Debug, Default)]
struct Scratch {
    mark: Vec<u32>,
    epoch: u32,
    stack: Vec<u16>,
    group: Vec<u16>,
}

impl PartialEq for Scratch {
    fn eq(&self, _: &Scratch) -> bool {
        true
    }
}
impl Eq for Scratch {}

impl Board {
    /// An empty board.
    pub fn new(size: BoardSize) -> Board {
        let n = usize::from(size.cols.max(1)) * usize::from(size.rows.max(1));
        Board {
            size,
            points: vec![EMPTY; n],
            captures: [0, 0],
            ko: None,
            scratch: Scratch {
                mark: vec![0; n],
                ..Scratch::default()
            },
        }
    }

    /// Empties the board for a game of size `size`, keeping the allocations.
    pub fn reset(&mut self, size: BoardSize) {
        let n = usize::from(size.cols.max(1)) * usize::from(size.rows.max(1));
        self.size = size;
        self.points.clear();
        self.points.resize(n, EMPTY);
        self.scratch.mark.clear();
        self.scratch.mark.resize(n, 0);
        self.scratch.epoch = 0;
        self.captures = [0, 0];
        self.ko = None;
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
        match self.index(p) {
            Some(i) => {
                self.points[i] = what.min(WHITE);
                true
            }
            None => false,
        }
    }

    /// A pass: clears the ko.
    pub fn pass(&mut self) {
        self.ko = None;
    }

    /// Plays a stone of `color` on `p` (which must be on the board: off the board it is
    /// [`PlayOutcome::Occupied`]-like, nothing happens, and `Occupied` is returned).
    pub fn play(&mut self, color: Color, p: Point) -> PlayOutcome {
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
        neighbours_of(i, usize::from(self.size.cols), self.points.len(), out)
    }

    /// Whether the group of the stone at `start` has a liberty; leaves the group's points in
    /// `scratch.group` when it has none.
    fn has_liberty(&mut self, start: usize) -> bool {
        let color = self.points[start];
        // most groups have a liberty beside the stone looked at: no walk then
        let mut nb = [usize::MAX; 4];
        let n = self.neighbours(start, &mut nb);
        if nb[..n].iter().any(|&q| self.points[q] == EMPTY) {
            return true;
        }
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
            let mut nb = [usize::MAX; 4];
            let n = neighbours_of(i, usize::from(self.size.cols), self.points.len(), &mut nb);
            for &q in &nb[..n] {
                let c = self.points[q];
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
        for &i in &self.scratch.group {
            self.points[usize::from(i)] = EMPTY;
        }
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
