//! Where each part of the spec came from.
//!
//! The kernel knows nothing of files: it reports what it finds at load time against parts of
//! the spec (the third capture rule, a piece of the setup). The readers record here the file
//! location of each part as they build it, so that those findings are reported at the line
//! that caused them.

use crate::diag::Loc;
use ply_kernel::spec::Site;

/// Where each part of the spec came from, to place the kernel's findings.
#[derive(Default)]
pub(crate) struct Locs {
    pub(crate) enter: Vec<Loc>,
    pub(crate) capture: Vec<Loc>,
    pub(crate) place: Vec<Loc>,
    pub(crate) after: Vec<Loc>,
    pub(crate) end: Vec<Loc>,
    pub(crate) winner: Vec<Loc>,
    pub(crate) moves: Vec<Vec<Loc>>,
    pub(crate) setup: Vec<Loc>,
    pub(crate) kinds: Vec<Loc>,
    pub(crate) zones: Vec<Loc>,
    pub(crate) players: Option<Loc>,
    pub(crate) effects: Vec<Loc>,
    pub(crate) compounds: Vec<Loc>,
}

impl Locs {
    /// The location of a part of the spec, if it was recorded.
    pub(crate) fn site(&self, site: Site) -> Option<Loc> {
        match site {
            Site::Enter(i) => self.enter.get(i).copied(),
            Site::Capture(i) => self.capture.get(i).copied(),
            Site::Place(i) => self.place.get(i).copied(),
            Site::After(i) => self.after.get(i).copied(),
            Site::End(i) => self.end.get(i).copied(),
            Site::Winner(i) => self.winner.get(i).copied(),
            Site::Move(k, i) => self.moves.get(k).and_then(|m| m.get(i)).copied(),
            Site::Setup(i) => self.setup.get(i).copied(),
            Site::Kind(i) => self.kinds.get(i).copied(),
            Site::Zone(i) => self.zones.get(i).copied(),
            Site::Effect(i) => self.effects.get(i).copied(),
            Site::Compound(i) => self.compounds.get(i).copied(),
            // The game as a whole, and sites a newer kernel may add: the players' line.
            _ => self.players,
        }
    }
}
