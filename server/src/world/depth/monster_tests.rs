//! Monsters that do more than walk up and bite: the archer that shoots
//! from afar, the thief, the hider and the caller (see the head of
//! `assets/bestiary.toml`).

use super::testing::PlayAndTell;
use super::tests::level_from;
use super::*;
use crate::seeds::DepthSeeds;
use gloam_protocol::MonsterChange;

/// One hall with a pillar; '<' is where arrivals stand.
const HALL: &[&str] = &[
    "######################",
    "#<...................#",
    "#....................#",
    "#.........##.........#",
    "#....................#",
    "#...................>#",
    "######################",
];

const ANN: PlayerId = PlayerId(1);
const BOB: PlayerId = PlayerId(2);

pub(super) fn hall(seed: u64) -> DepthState {
    DepthState::with_bestiary(
        3,
        level_from(HALL),
        8,
        Arc::new(Bestiary::default()),
        DepthSeeds::from_level_seed(seed),
    )
}

fn put(d: &mut DepthState, id: PlayerId, name: &str, at: Pos) {
    d.come(Player::new(id, name.into()), Arrival::Resume(at));
    assert_eq!(d.rules.occupancy.players()[&id].pos, at);
}

fn awake(d: &mut DepthState, name: &str, at: Pos) -> MonsterId {
    let kind = d.rules.bestiary.find(name).unwrap();
    let id = d.spawn(kind, at).unwrap();
    d.rules.monsters.wake(id).unwrap();
    id
}

fn lines(outcome: &Outcome, id: PlayerId) -> Vec<String> {
    let text = |m: &ServerMsg| match m {
        ServerMsg::Combat(t) | ServerMsg::Note(t) | ServerMsg::Others(t) => Some(t.clone()),
        _ => None,
    };
    outcome.out.iter().filter(|o| o.to == id).filter_map(|o| text(&o.msg)).collect()
}

fn chebyshev(a: Pos, b: Pos) -> u16 {
    a.x.abs_diff(b.x).max(a.y.abs_diff(b.y))
}

/// An archer shoots prey it sees in range along an open line, without
/// moving, and the prey and those who see it read of it; a shot that
/// lands takes hit points.
#[test]
fn an_archer_in_range_with_a_clear_line_shoots_and_does_not_move() {
    let mut shots = 0;
    let mut hits = 0;
    for seed in 0..20 {
        let mut d = hall(seed);
        put(&mut d, ANN, "ann", Pos::new(4, 2));
        put(&mut d, BOB, "bob", Pos::new(4, 4));
        let archer = awake(&mut d, "kobold archer", Pos::new(9, 2));
        let out = d.play(ANN, Action::Wait);
        let out = [out.out, d.play(BOB, Action::Wait).out].concat();
        let out = Outcome { out, ..Outcome::default() };
        assert_eq!(d.rules.monsters[&archer].pos, Pos::new(9, 2), "it shot from where it stood");
        let ann = lines(&out, ANN);
        let shot = ann.iter().find(|l| l.starts_with("The kobold archer shoots an arrow"));
        let shot = shot.unwrap_or_else(|| panic!("seed {seed}: ann reads of the shot: {ann:?}"));
        shots += 1;
        let hp = d.rules.occupancy.players()[&ANN].vitals.hp;
        if let Some(rest) = shot.strip_prefix("The kobold archer shoots an arrow. It hits you (") {
            hits += 1;
            let damage: u16 = rest.trim_end_matches(").").parse().unwrap();
            assert!((1..=4).contains(&damage), "{shot}");
            assert!(hp < d.rules.occupancy.players()[&ANN].vitals.max_hp);
        } else {
            assert_eq!(shot, "The kobold archer shoots an arrow at you. It misses.");
        }
        let bob = lines(&out, BOB);
        assert!(
            bob.iter()
                .any(|l| l.starts_with("The kobold archer shoots an arrow") && l.contains("ann")),
            "{bob:?}"
        );
    }
    assert_eq!(shots, 20);
    assert!(hits > 0 && hits < 20, "{hits} of 20 shots landed");
}

/// Out of its range, or with a pillar or a monster on the line, the archer
/// does not shoot but comes (it keeps its distance, so it comes no nearer
/// than a few cells).
#[test]
fn an_archer_out_of_range_or_without_a_clear_line_comes_instead() {
    // Out of range: 7 cells off, it shoots at 6.
    let mut d = hall(1);
    put(&mut d, ANN, "ann", Pos::new(2, 2));
    let archer = awake(&mut d, "kobold archer", Pos::new(9, 2));
    let out = d.play(ANN, Action::Wait);
    assert!(lines(&out, ANN).iter().all(|l| !l.contains("shoots")), "{:?}", lines(&out, ANN));
    assert_eq!(chebyshev(d.rules.monsters[&archer].pos, Pos::new(2, 2)), 6, "it came a step");

    // A sleeping rat in the line between them, 6 cells apart: no shot over it.
    let mut d = hall(1);
    put(&mut d, ANN, "ann", Pos::new(4, 1));
    let rat = d.spawn(d.rules.bestiary.find("rat").unwrap(), Pos::new(6, 1)).unwrap();
    d.rules.monsters.get_mut(&rat).unwrap().dozing = 100;
    let archer = awake(&mut d, "kobold archer", Pos::new(10, 1));
    let out = d.play(ANN, Action::Wait);
    assert!(lines(&out, ANN).iter().all(|l| !l.contains("shoots")), "{:?}", lines(&out, ANN));
    assert_ne!(d.rules.monsters[&archer].pos, Pos::new(10, 1), "it moved for a clear line");
}

/// What ann carries for a thief: a wielded dagger, worn armour, darts, a
/// potion and the artifact.
fn ann_with_a_pack() -> Player {
    let items = crate::items::Catalogue::built_in();
    let item = |name: &str, count| crate::items::Item { kind: items.find(name).unwrap(), count };
    let pack = vec![
        item("dagger", 1),
        item("leather armour", 1),
        item("dart", 6),
        item("potion of healing", 1),
        item(&items.kind(items.artifact()).name, 1),
    ];
    let mut ann = Player::new(ANN, "ann".into());
    ann.pack = crate::items::Pack::with_gear(pack, Some(0), Some(1));
    ann
}

/// Plays ann waiting beside a thief until it steals (a few rounds at
/// most: its blows land seven times in ten).
fn robbed(seed: u64) -> (DepthState, MonsterId, Outcome) {
    let mut d = hall(seed);
    // A world whose potions are unknown until tried: ann knows none.
    d.set_items(std::sync::Arc::new(crate::items::Catalogue::built_in().disguised(7)));
    d.come(ann_with_a_pack(), Arrival::Resume(Pos::new(8, 2)));
    let thief = awake(&mut d, "pickpocket", Pos::new(9, 2));
    for _ in 0..40 {
        let out = d.play(ANN, Action::Wait);
        if d.rules.monsters[&thief].loot.is_some() {
            return (d, thief, out);
        }
    }
    panic!("seed {seed}: the pickpocket never stole");
}

/// A thief's blow takes one whole entry of the pack, never what is
/// wielded or worn nor the artifact; the victim reads what it lost (as
/// it knows it: a potion it never tried by its look), and the thief runs
/// with it.
#[test]
fn a_thief_takes_an_unequipped_entry_and_runs() {
    let items = crate::items::Catalogue::built_in().disguised(7);
    let mut taken = std::collections::BTreeSet::new();
    for seed in 0..12 {
        let (mut d, thief, out) = robbed(seed);
        let loot = d.rules.monsters[&thief].loot.unwrap();
        let name = &items.kind(loot.kind).name;
        assert!(["dart", "potion of healing"].contains(&name.as_str()), "{name}");
        taken.insert(name.clone());
        let pack = d.rules.occupancy.players()[&ANN].pack.clone();
        assert_eq!(pack.len(), 4, "one entry gone");
        assert!(pack.items().iter().all(|i| i.kind != loot.kind), "all of it");
        let (wielded, worn) = (pack.wielded().unwrap(), pack.worn().unwrap());
        assert_eq!(items.kind(pack.get(wielded).unwrap().kind).name, "dagger");
        assert_eq!(items.kind(pack.get(worn).unwrap().kind).name, "leather armour");
        let said = lines(&out, ANN);
        let what = items.described_for(loot.kind, loot.count, &crate::items::Known::new());
        let line = format!("The pickpocket steals {what} from you, and runs!");
        assert!(said.contains(&line), "{said:?}");
        assert!(!format!("{said:?}").contains("healing"), "never named unlearnt: {said:?}");
        for _ in 0..3 {
            d.play(ANN, Action::Wait);
        }
        let off = chebyshev(d.rules.monsters[&thief].pos, Pos::new(8, 2));
        assert!(off >= 3, "seed {seed}: it ran, {off} cells off");
    }
    assert_eq!(taken.len(), 2, "either may go: {taken:?}");
}

/// Killed, a thief drops what it stole where it dies.
#[test]
fn a_thief_drops_what_it_stole_where_it_dies() {
    let (mut d, thief, _) = robbed(3);
    let loot = d.rules.monsters[&thief].loot.unwrap();
    let at = d.rules.monsters[&thief].pos;
    d.rules.monsters.get_mut(&thief).unwrap().hp = 1;
    // Ann walks up to it and strikes until it dies.
    for _ in 0..60 {
        if !d.rules.monsters.contains_key(&thief) {
            break;
        }
        let m = d.rules.monsters[&thief].pos;
        let me = d.rules.occupancy.players()[&ANN].pos;
        let dir = gloam_protocol::Dir::ALL
            .into_iter()
            .min_by_key(|&dir| me.step(dir).map_or(u16::MAX, |p| chebyshev(p, m)))
            .unwrap();
        d.play(ANN, Action::Move(dir));
    }
    assert!(!d.rules.monsters.contains_key(&thief), "it died (it ran from {at:?})");
    let piles = d.rules.floor.sorted();
    let dropped = piles.iter().any(|(_, pile)| pile.contains(&loot));
    assert!(dropped, "{loot:?} lies where it died: {piles:?}");
}

/// Whether `id`'s client was told of monster `m` in `out`: an appearance.
fn appeared(out: &Outcome, id: PlayerId, m: MonsterId) -> bool {
    out.out.iter().filter(|o| o.to == id).any(|o| {
        let changes = match &o.msg {
            ServerMsg::Monsters(changes) => changes.as_slice(),
            ServerMsg::Sight(diff) | ServerMsg::Displaced(diff) => diff.monsters.as_slice(),
            _ => &[],
        };
        changes.iter().any(|c| matches!(c, MonsterChange::Appeared { id, .. } if *id == m))
    })
}

/// A lurker in plain sight is told to nobody until it stands next to
/// them: then to the one it stands beside, not to a friend who sees the
/// cell from afar; and nobody reads of it waking or biting another.
#[test]
fn a_lurker_is_shown_only_to_whom_it_stands_next_to() {
    let mut d = hall(5);
    put(&mut d, ANN, "ann", Pos::new(3, 2));
    put(&mut d, BOB, "bob", Pos::new(17, 2));
    let kind = d.rules.bestiary.find("lurker").unwrap();
    let lurker = d.spawn(kind, Pos::new(9, 2)).unwrap();
    // Ann lives through its grabs.
    d.rules.occupancy.get_mut(ANN).unwrap().vitals.hp = 500;
    let mut shown_to_ann = false;
    for round in 0..30 {
        let mut out = d.play(ANN, Action::Wait);
        out.out.extend(d.play(BOB, Action::Wait).out);
        let Some(m) = d.rules.monsters.get(&lurker) else { break };
        let next_to_ann = chebyshev(m.pos, Pos::new(3, 2)) <= 1;
        let told_ann = d.views.monsters_told(ANN).iter().any(|&(id, _)| id == lurker);
        assert_eq!(told_ann, next_to_ann, "round {round}: at {:?}", m.pos);
        assert!(!appeared(&out, BOB, lurker), "round {round}: bob is never told of it");
        assert!(d.views.monsters_told(BOB).is_empty(), "round {round}");
        let bob = lines(&out, BOB);
        assert!(bob.iter().all(|l| !l.contains("lurker")), "round {round}: {bob:?}");
        if next_to_ann {
            shown_to_ann = true;
            assert!(appeared(&out, ANN, lurker) || round > 0, "told as it came");
        }
    }
    assert!(shown_to_ann, "it woke and came to ann");
}

/// A crier that sets on prey calls those near it: they wake (out of magic
/// sleep too) and make for the prey; one farther off sleeps on. It calls
/// once, when it first sets on its prey.
#[test]
fn a_crier_calls_those_near_it_onto_its_prey() {
    let mut d = hall(2);
    put(&mut d, ANN, "ann", Pos::new(1, 2));
    let rat = d.rules.bestiary.find("rat").unwrap();
    let near = d.spawn(rat, Pos::new(16, 1)).unwrap();
    let far = d.spawn(rat, Pos::new(20, 5)).unwrap();
    for id in [near, far] {
        d.rules.monsters.get_mut(&id).unwrap().dozing = 100;
    }
    awake(&mut d, "gnoll crier", Pos::new(5, 2));
    let out = d.play(ANN, Action::Wait);
    let said = lines(&out, ANN);
    let call = "The gnoll crier calls out, and its kin answer!".to_string();
    assert!(said.contains(&call), "{said:?}");
    let near = &d.rules.monsters[&near];
    assert!(near.is_awake() && near.prey == Some(ANN), "{near:?}");
    assert_eq!((near.dozing, near.goal), (0, Some(Pos::new(1, 2))));
    assert!(!d.rules.monsters[&far].is_awake(), "out of its call");
    let out = d.play(ANN, Action::Wait);
    assert!(!lines(&out, ANN).contains(&call), "it calls once");
}
