//! A player as a depth holds it: where it is, how it fares and what it
//! remembers.

use std::collections::BTreeMap;

use gloam_protocol::{PlayerId, Pos};

use super::memory::Memory;
use super::{Keep, KeptPile, Progress, Skills, Snapshot, Vitals};
use crate::items::{Catalogue, Known, Pack};

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Player {
    pub id: PlayerId,
    pub name: String,
    pub pos: Pos,
    pub vitals: Vitals,
    /// What it knows of every depth it has visited; travels with it. A
    /// tree, not a hash map: a player knows few depths, and a depth asks
    /// each player's memory of it for every monster it weighs.
    pub memories: BTreeMap<u16, Memory>,
    /// What it carries, in the order of its letters (`a` first).
    pub pack: Pack,
    /// Its experience points (its level follows from them).
    pub xp: u32,
    /// The kinds of potion and scroll it knows by name.
    pub known: Known,
    /// How many of its moves are still confused (each may go astray). It
    /// clears on the stairs and is not kept in the store.
    pub confused: u16,
    /// The monsters it killed, by the name of their kind (a name, not a
    /// `KindId`, so that a host who edits the bestiary keeps every count):
    /// its morgue file lists them. A character saved before kills were
    /// counted by kind has fewer here than `vitals.kills`.
    pub slain: BTreeMap<String, u32>,
    /// The background it was made as (none: made by a plain hello, or
    /// before backgrounds), and the skills that came with it.
    pub background: Option<String>,
    pub skills: Skills,
}

impl Player {
    pub fn new(id: PlayerId, name: String) -> Self {
        Self {
            id,
            name,
            pos: Pos::default(),
            vitals: Vitals::default(),
            memories: BTreeMap::new(),
            pack: Pack::default(),
            xp: 0,
            known: Known::new(),
            confused: 0,
            slain: BTreeMap::new(),
            background: None,
            skills: Skills::default(),
        }
    }

    /// Its experience level.
    pub fn level(&self) -> u8 {
        super::experience::level_of(self.xp)
    }

    pub(crate) fn memory(&self, depth: u16) -> Option<&Memory> {
        self.memories.get(&depth)
    }

    pub(crate) fn memory_mut(&mut self, depth: u16) -> &mut Memory {
        self.memories.entry(depth).or_default()
    }

    /// What the store keeps of this player, standing on `depth`; its
    /// items are named as `items` names them.
    pub(crate) fn snapshot(&self, depth: u16, keep: Keep, items: &Catalogue) -> Snapshot {
        let kept: Vec<(u16, &Memory)> = match keep {
            Keep::All => self.memories.iter().map(|(&d, m)| (d, m)).collect(),
            Keep::ThisDepth => self.memory(depth).map(|m| vec![(depth, m)]).unwrap_or_default(),
        };
        let explored = kept.iter().map(|&(d, m)| (d, m.explored().to_bytes())).collect();
        let piles = kept.iter().map(|&(d, m)| (d, kept_piles(m, items))).collect();
        let pack =
            self.pack.items().iter().map(|i| (items.kind(i.kind).name.clone(), i.count)).collect();
        let progress =
            Progress { xp: self.xp, wielded: self.pack.wielded(), worn: self.pack.worn() };
        let known = self.known.iter().map(|&k| items.kind(k).name.clone()).collect();
        let slain = self.slain.iter().map(|(kind, &n)| (kind.clone(), n)).collect();
        let vitals = self.vitals;
        let background = self.background.clone().map(|name| (name, self.skills));
        let pos = self.pos;
        Snapshot { depth, pos, vitals, explored, piles, pack, progress, known, slain, background }
    }
}

/// The piles `memory` holds, as the store keeps them.
fn kept_piles(memory: &Memory, items: &Catalogue) -> Vec<KeptPile> {
    let kept = |(&at, top): (&Pos, &gloam_protocol::Lying)| KeptPile {
        at,
        top: items.kind(top.kind).name.clone(),
        count: top.count,
        more: top.more,
    };
    memory.floor().iter().map(kept).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::items::Item;
    use gloam_protocol::CellSet;

    #[test]
    fn a_snapshot_carries_the_piles_remembered_by_kind_name() {
        let items = Catalogue::built_in();
        let dart = items.find("dart").unwrap();
        let mut player = Player::new(PlayerId(1), "ann".into());
        let at = Pos { x: 5, y: 6 };
        player
            .memory_mut(3)
            .see_pile(at, Some(gloam_protocol::Lying { kind: dart, count: 4, more: true }));
        player.memory_mut(1);
        let kept = player.snapshot(3, Keep::All, &items).piles;
        let pile = KeptPile { at, top: "dart".into(), count: 4, more: true };
        assert_eq!(kept, vec![(1, Vec::new()), (3, vec![pile.clone()])]);
        assert_eq!(player.snapshot(3, Keep::ThisDepth, &items).piles, vec![(3, vec![pile])]);
    }

    #[test]
    fn a_snapshot_carries_every_depth_or_only_this_one() {
        let mut player = Player::new(PlayerId(1), "ann".into());
        player.pos = Pos { x: 3, y: 4 };
        player.memories.insert(1, Memory::from_explored(CellSet::from_bytes(&[1, 2])));
        player.memories.insert(2, Memory::from_explored(CellSet::from_bytes(&[0, 0, 7])));
        let items = Catalogue::built_in();
        let dagger = Item { kind: items.find("dagger").unwrap(), count: 1 };
        let darts = Item { kind: items.find("dart").unwrap(), count: 9 };
        player.pack = Pack::with_gear(vec![darts, dagger], Some(1), None);
        player.xp = 77;
        let mut all = player.snapshot(2, Keep::All, &items);
        assert_eq!(all.pack, vec![("dart".to_owned(), 9), ("dagger".to_owned(), 1)]);
        assert_eq!(all.progress, Progress { xp: 77, wielded: Some(1), worn: None });
        all.explored.sort();
        assert_eq!((all.depth, all.pos), (2, Pos { x: 3, y: 4 }));
        assert_eq!(all.explored, vec![(1, vec![1, 2]), (2, vec![0, 0, 7])]);
        let here = player.snapshot(2, Keep::ThisDepth, &items);
        assert_eq!(here.explored, vec![(2, vec![0, 0, 7])]);
        assert_eq!(here.piles, vec![(2, Vec::new())], "none remembered there");
        assert!(player.snapshot(5, Keep::ThisDepth, &items).explored.is_empty());
    }
}
