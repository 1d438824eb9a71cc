//! The FF[4] / SGFC checks: of a property as its first value comes (case, duplicates, where
//! it may stand, move and setup mixed), and of a value against its property's type.

use super::*;

impl Parser {
    pub(super) fn is_go(&self) -> bool {
        self.gm <= 1
    }

    pub(super) fn at_root(&self) -> bool {
        self.depth == 0 && self.path_nodes == 1
    }

    /// Checks a property as its first value comes, then raises `on_property`.
    pub(super) fn property_start<V: Visitor>(&mut self, v: &mut V) {
        self.prop = Prop::Values;
        let pos = self.ident_pos;
        let mut err = |p: &mut Parser, kind: ErrorKind| p.ident_error(kind, v);
        if self.short.is_none() && self.raw_name.len() != self.name.len() {
            if self.ff == 4 {
                err(self, ErrorKind::LowercaseIdent);
            } else {
                err(self, ErrorKind::OldStyleIdent);
            }
        }
        let mut duplicate = false;
        if let Some(b) = self.short.or_else(|| props::bit(&self.name)) {
            let (w, m) = (b / 64, 1u64 << (b % 64));
            duplicate = self.seen[w] & m != 0;
            self.seen[w] |= m;
            self.seen_dirty |= 1 << w;
        }
        if duplicate {
            err(self, ErrorKind::DuplicateProperty);
        }
        match self.info {
            None if self.name().len() > 2 => err(self, ErrorKind::LongIdent),
            None if self.is_go() => err(self, ErrorKind::UnknownProperty),
            None => {}
            Some(info) => {
                let f = self.flags;
                match info.class {
                    Class::Move => {
                        let (me, other) = if self.name() == b"B" {
                            (HAS_B, HAS_W)
                        } else {
                            (HAS_W, HAS_B)
                        };
                        if f & other != 0 && f & me == 0 {
                            err(self, ErrorKind::TwoMoves);
                        }
                        if self.at_root() && !duplicate {
                            err(self, ErrorKind::MoveInRoot);
                        }
                        self.flags |= me | MOVE;
                    }
                    Class::MoveOther => self.flags |= MOVE,
                    Class::MoveAnnotation => {
                        if f & ANNOT_MOVE != 0 && !duplicate {
                            err(self, ErrorKind::ConflictingAnnotations);
                        }
                        if f & ANNOT_MOVE == 0 {
                            self.annot_pos = pos;
                        }
                        self.flags |= ANNOT_MOVE | MOVE;
                    }
                    Class::NodeAnnotation => {
                        if f & ANNOT_NODE != 0 && !duplicate {
                            err(self, ErrorKind::ConflictingAnnotations);
                        }
                        self.flags |= ANNOT_NODE;
                    }
                    Class::Setup => self.flags |= SETUP,
                    Class::Root => {
                        if !self.at_root() {
                            err(self, ErrorKind::RootPropertyOutsideRoot);
                        }
                    }
                    Class::GameInfo => {
                        let node = self.path_nodes - 1;
                        match self.game_info_at {
                            Some(k) if k != node => {
                                if self.flags & GAME_INFO == 0 {
                                    err(self, ErrorKind::GameInfoOutsideGameInfoNode);
                                }
                                self.flags |= GAME_INFO;
                            }
                            _ => self.game_info_at = Some(node),
                        }
                    }
                    Class::Obsolete => err(self, ErrorKind::ObsoleteProperty),
                    Class::Plain => {}
                }
                let f = self.flags;
                if f & MOVE != 0 && f & SETUP != 0 && f & MIXED == 0 && self.ff == 4 {
                    self.flags |= MIXED;
                    err(self, ErrorKind::MixedSetupMove);
                }
            }
        }
        let c = v.on_property(
            &self.ctx_at(pos),
            &Property {
                name: self.name(),
                raw: self.raw_name(),
            },
        );
        self.control(c);
    }

    /// Checks a value against its property's type (`whole`: the value is one piece) and reads
    /// the root properties. Returns the move for `B` / `W`.
    pub(super) fn check_value<V: Visitor>(
        &mut self,
        value: RawValue<'_>,
        whole: bool,
        pos: Position,
        v: &mut V,
    ) -> Option<Option<crate::sgf::Point>> {
        let info = self.info?;
        let text = value.0;
        let index = self.value_index;
        let mut err = |p: &mut Parser, kind: ErrorKind| p.emit_error(kind, text, pos, false, v);
        if index > 0 && !info.list {
            return None; // reported as TooManyValues
        }
        let point_type = matches!(info.ty, Ty::Move | Ty::Point | Ty::PointPair);
        if !whole {
            if point_type && self.is_go() {
                err(self, ErrorKind::IllegalPoint);
            } else if !matches!(info.ty, Ty::Any | Ty::Label) {
                err(self, ErrorKind::IllegalValue);
            }
            return None;
        }
        if text.is_empty() {
            let ok = match info.ty {
                Ty::Move => {
                    if (1..4).contains(&self.ff) {
                        err(self, ErrorKind::PassInOldFormat);
                    }
                    true
                }
                Ty::Any | Ty::Nothing => true,
                _ => info.elist && index == 0,
            };
            if index == 0 {
                self.had_empty = true;
            }
            if !ok {
                err(self, ErrorKind::EmptyValue);
            }
            if info.ty == Ty::Move && index == 0 && self.is_go() {
                return Some(None);
            }
            return None;
        }
        if self.had_empty && index == 1 {
            err(self, ErrorKind::EmptyValue);
        }
        let go = self.is_go();
        let size = self.size;
        let root = info.class == Class::Root;
        if root && !self.at_root() {
            return None;
        }
        match info.ty {
            Ty::Move if go => match value.go_move(size) {
                Some(p) if index == 0 => return Some(p),
                Some(_) => {}
                None => err(self, ErrorKind::IllegalPoint),
            },
            Ty::Point if go && value.points(size).is_none() => err(self, ErrorKind::IllegalPoint),
            Ty::PointPair if go => match value.compose() {
                Some((a, b)) => {
                    if a.point(size).is_none() || b.point(size).is_none() {
                        err(self, ErrorKind::IllegalPoint);
                    }
                }
                None => err(self, ErrorKind::ComposeExpected),
            },
            Ty::Label => match value.compose() {
                Some((a, _)) => {
                    if go && a.point(size).is_none() {
                        err(self, ErrorKind::IllegalPoint);
                    }
                }
                None => err(self, ErrorKind::ComposeExpected),
            },
            Ty::Number if root => {
                let n = value.number();
                if self.name() == b"FF" {
                    match n {
                        Some(f @ 1..=4) => self.ff = f as u8,
                        _ => err(self, ErrorKind::IllegalRootValue),
                    }
                } else if self.name() == b"GM" {
                    match n {
                        Some(g @ 1..=1000) => {
                            self.gm = g as u32;
                            if g != 1 {
                                err(self, ErrorKind::NotGo);
                            }
                        }
                        _ => err(self, ErrorKind::IllegalRootValue),
                    }
                } else if n.is_none() {
                    err(self, ErrorKind::IllegalValue);
                }
            }
            Ty::Size => {
                let dim = |r: RawValue<'_>| r.number().filter(|n| (1..=52).contains(n));
                let size = match value.compose() {
                    None => dim(value).map(|n| (n, n, true)),
                    Some((a, b)) => match (dim(a), dim(b)) {
                        (Some(a), Some(b)) => Some((a, b, a != b)),
                        _ => None,
                    },
                };
                match size {
                    Some((cols, rows, ok)) => {
                        self.size = BoardSize {
                            cols: cols as u8,
                            rows: rows as u8,
                        };
                        if !ok {
                            err(self, ErrorKind::IllegalRootValue);
                        }
                    }
                    None => err(self, ErrorKind::IllegalRootValue),
                }
            }
            Ty::Number if value.number().is_none() => err(self, ErrorKind::IllegalValue),
            Ty::Real if value.real().is_none() => err(self, ErrorKind::IllegalValue),
            Ty::Double if value.double().is_none() => err(self, ErrorKind::IllegalValue),
            Ty::Color if value.color().is_none() => err(self, ErrorKind::IllegalValue),
            Ty::Nothing => err(self, ErrorKind::IllegalValue),
            _ => {}
        }
        None
    }
}
