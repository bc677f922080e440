//! The checks of royal kinds, compound moves, choices of promotion and passing captures.

use crate::piece::{PLAYERS, Player};

impl super::Compiler<'_> {
    /// Checks royal kinds, compound moves, choices of promotion and passing captures.
    pub(crate) fn check_special(&mut self) {
        use crate::spec::{Pattern, Site};
        let spec = self.spec;
        let g = &self.core.geometry;
        let royal: Vec<usize> = (0..spec.kinds.len())
            .filter(|&k| spec.kinds[k].royal)
            .collect();
        if royal.len() > 1 {
            self.error(
                Site::Kind(royal[1]),
                format!(
                    "only one kind may be royal; {} already is",
                    spec.kinds[royal[0]].name
                ),
            );
        }
        if let Some(&k) = royal.first() {
            for p in Player::ALL {
                let there = spec
                    .setup
                    .iter()
                    .any(|(piece, _)| piece.kind().index() == k && piece.owner() == p);
                if !there {
                    self.error(
                        Site::Kind(k),
                        format!(
                            "{} is royal, but {} has none in the setup",
                            spec.kinds[k].name,
                            self.core.player_name(p)
                        ),
                    );
                }
            }
        }
        for (k, kind) in spec.kinds.iter().enumerate() {
            for (mi, m) in kind.moves.iter().enumerate() {
                if m.leaves_ghost && !matches!(m.pattern, Pattern::Slide { .. }) {
                    self.error(
                        Site::Move(k, mi),
                        "only a slide passes cells that can stay open to capture (`leaves ghost`)",
                    );
                }
                if m.takes_ghost
                    && matches!(
                        m.pattern,
                        Pattern::Slide { .. } | Pattern::Hop { .. } | Pattern::Place
                    )
                {
                    self.error(
                        Site::Move(k, mi),
                        "only a step, a leap or a jump can take a passing piece (`takes ghost`)",
                    );
                }
                if m.takes_ghost && m.mode == crate::spec::CaptureMode::Quiet {
                    self.error(
                        Site::Move(k, mi),
                        "a quiet pattern cannot capture a passing piece (`takes ghost`)",
                    );
                }
            }
            if let Some(p) = &kind.promotion
                && p.choices.len() > 1
                && p.choices.iter().any(|c| c.index() >= spec.kinds.len())
            {
                self.error(Site::Kind(k), "a promotion choice names no kind");
            }
        }
        for (i, c) in spec.compounds.iter().enumerate() {
            if c.mover == c.partner {
                self.error(
                    Site::Compound(i),
                    "the mover and its partner must be of different kinds",
                );
            }
            for cell in c.mover_to.iter().chain(&c.partner_to) {
                if !g.contains(*cell) {
                    self.error(Site::Compound(i), "a destination is not on the board");
                }
            }
            for p in 0..PLAYERS {
                if c.mover_to[p] == c.partner_to[p] {
                    self.error(
                        Site::Compound(i),
                        "the mover and its partner cannot end on the same cell",
                    );
                }
            }
        }
    }
}
