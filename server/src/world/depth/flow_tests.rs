//! The rules alone, with a recording observer instead of the views: what
//! they decide (the events, in order) and what they hand back of the
//! game's flow (who was answered, who went and how, who died of what),
//! with no message made.

use gloam_protocol::{Action, Dir, PlayerId, Pos};
use proptest::prelude::*;

use super::rules::events::{Blow, Event, Observer};
use super::rules::{End, Flow, Killer, Leaving, Rules};
use super::tests::level_from;
use super::*;
use crate::seeds::DepthSeeds;

/// What the rules did, as they did it.
#[derive(Debug, Default)]
struct Recorder(Vec<Event>);

impl Observer for Recorder {
    fn observe(&mut self, _: &Rules, event: Event) {
        self.0.push(event);
    }
}

const HALL: &[&str] = &["##########", "#<.......#", "#........#", "#.......>#", "##########"];
const ANN: PlayerId = PlayerId(1);
const BOB: PlayerId = PlayerId(2);

fn rules() -> Rules {
    let bestiary = Arc::new(Bestiary::default());
    Rules::new(3, level_from(HALL), 8, bestiary, DepthSeeds::from_level_seed(7))
}

fn put(rules: &mut Rules, id: PlayerId, name: &str, at: Pos) -> Flow {
    rules.arrive(Player::new(id, name.into()), Arrival::Resume(at), &mut Recorder::default())
}

fn awake(rules: &mut Rules, name: &str, at: Pos) -> MonsterId {
    let kind = rules.bestiary.find(name).unwrap();
    let id = rules.spawn(kind, at, &mut Recorder::default()).unwrap();
    rules.monsters.wake(id).unwrap();
    id
}

#[test]
fn an_arrival_answers_what_brought_it() {
    let mut r = rules();
    let flow = put(&mut r, ANN, "ann", Pos::new(2, 2));
    assert_eq!((flow.answered, flow.arrivals), (vec![ANN], vec![ANN]));
    assert!(flow.left.is_empty() && flow.deaths.is_empty());
}

#[test]
fn an_action_is_answered_and_a_second_in_the_round_is_held() {
    let mut r = rules();
    // With --pvp, players who see each other share their rounds.
    r.host.pvp = true;
    put(&mut r, ANN, "ann", Pos::new(2, 2));
    put(&mut r, BOB, "bob", Pos::new(3, 2));
    let mut heard = Recorder::default();
    let flow = r.act(ANN, Action::Move(Dir::S), &mut heard).expect("applied");
    assert_eq!(flow.answered, [ANN]);
    assert!(heard.0.iter().any(|e| matches!(e, Event::Saw { id: ANN, answers: true, .. })));
    // Ann's round waits for Bob, who has not acted: her next is held.
    assert!(r.act(ANN, Action::Wait, &mut Recorder::default()).is_none(), "held");
    let flow = r.act(BOB, Action::Wait, &mut Recorder::default()).expect("applied");
    assert_eq!(flow.answered, [BOB, ANN], "the round closes, and ann's held wait applies");
}

#[test]
fn the_stairs_hand_the_player_on_with_how_it_went() {
    let mut r = rules();
    put(&mut r, ANN, "ann", Pos::new(8, 3));
    let mut heard = Recorder::default();
    let flow = r.act(ANN, Action::Descend, &mut heard).expect("applied");
    assert_eq!(flow.left, [(ANN, Leaving::WentDown)]);
    assert!(flow.answered.is_empty(), "its arrival below answers it");
    let [departure] = flow.departures.as_slice() else { panic!("{:?}", flow.departures) };
    assert_eq!((departure.player.id, departure.depth, departure.via), (ANN, 4, Arrival::FromAbove));
    let left = heard.0.iter().any(|e| matches!(e, Event::Left { how: Leaving::WentDown, .. }));
    assert!(left, "{:?}", heard.0);
}

#[test]
fn a_death_is_handed_back_with_who_struck_the_blow() {
    let mut r = rules();
    put(&mut r, ANN, "ann", Pos::new(2, 2));
    let ogre = awake(&mut r, "ogre", Pos::new(3, 2));
    r.occupancy.get_mut(ANN).unwrap().vitals.hp = 1;
    let kind = r.monsters[&ogre].kind;
    for _ in 0..60 {
        let mut heard = Recorder::default();
        let flow = r.act(ANN, Action::Wait, &mut heard).expect("applied");
        let Some(death) = flow.deaths.first() else { continue };
        assert_eq!(death.end, End::Killed(Killer::Monster(kind)));
        assert_eq!(death.player.id, ANN);
        assert_eq!(flow.left, [(ANN, Leaving::Died)]);
        assert!(flow.answered.is_empty(), "a death answers the last action, not a sight");
        let blow = heard.0.iter().position(|e| {
            matches!(e, Event::MonsterStruck { target: ANN, blow: Blow::Hit(_), .. })
        });
        let died = heard.0.iter().position(|e| matches!(e, Event::Died { id: ANN, .. }));
        assert!(blow < died && died.is_some(), "struck, then died: {:?}", heard.0);
        assert!(r.player(ANN).is_none());
        return;
    }
    panic!("an ogre kills a player of one hit point");
}

#[test]
fn leaving_hands_back_the_player_and_how_it_left() {
    let mut r = rules();
    put(&mut r, ANN, "ann", Pos::new(2, 2));
    let (player, flow) = r.leave(ANN, Leaving::Lost, &mut Recorder::default());
    assert_eq!(player.map(|p| p.id), Some(ANN));
    assert_eq!(flow.left, [(ANN, Leaving::Lost)]);
    let (nobody, flow) = r.leave(ANN, Leaving::Quit, &mut Recorder::default());
    assert!(nobody.is_none() && flow.left.is_empty(), "one not here leaves nothing");
}

/// A closet of six cells: a crowd soon stands on every one, and more
/// arrivals stack.
const CLOSET: &[&str] = &["#####", "#<..#", "#..>#", "#####"];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Whatever players come, step, swap, go, and whatever monsters are
    /// put down, woken, lulled and struck down, each index of who stands
    /// where agrees with the other after every command, and the parties
    /// kept from before are the parties found afresh: nobody has to tell
    /// them of a change. Their stamp grows whenever they changed.
    #[test]
    fn who_stands_where_agrees_by_id_and_by_cell(
        commands in proptest::collection::vec((0u8..12, 1u32..9, 0u8..8), 1..80)
    ) {
        let bestiary = Arc::new(Bestiary::default());
        let mut r = Rules::new(3, level_from(CLOSET), 8, bestiary, DepthSeeds::from_level_seed(1));
        let rat = r.bestiary.find("rat").or_else(|| r.bestiary.find("jackal")).unwrap();
        let heard = &mut Recorder::default();
        let mut told = (r.parties_stamp(), Vec::new());
        for (what, who, dir) in commands {
            let id = PlayerId(who);
            let here = r.player(id).is_some();
            match what {
                0..=1 if !here => {
                    r.arrive(Player::new(id, format!("p{who}")), Arrival::Join, heard);
                }
                0..=5 => {
                    r.act(id, Action::Move(Dir::ALL[usize::from(dir)]), heard);
                }
                6 => {
                    r.leave(id, Leaving::Quit, heard);
                }
                7 => {
                    let at = Pos::new(1 + u16::from(dir % 3), 1 + u16::from(dir / 3 % 2));
                    r.spawn(rat, at, heard);
                }
                8 => {
                    if let Some(&m) = r.monsters.keys().next() {
                        r.monsters.remove(m);
                    }
                }
                9 => {
                    if let Some(&m) = r.monsters.keys().nth(usize::from(dir % 2)) {
                        r.monsters.wake(m);
                    }
                }
                10 => {
                    if let Some(&m) = r.monsters.keys().nth(usize::from(dir % 2)) {
                        r.monsters.lull(m);
                    }
                }
                _ => {
                    r.act(id, Action::Wait, heard);
                }
            }
            prop_assert!(r.occupancy.agrees(), "players: {:?}", r.players());
            prop_assert!(r.monsters.agrees(), "monsters: {:?}", r.monsters.by_id());
            let ids: Vec<PlayerId> = r.players().keys().copied().collect();
            let stamp = r.parties_stamp();
            let kept: Vec<_> = ids.iter().map(|&p| (p, r.party_of(p))).collect();
            // The stamp never goes back, and grows when the parties changed.
            prop_assert!(stamp >= told.0);
            prop_assert!(kept == told.1 || stamp > told.0, "{:?} then {kept:?}", told.1);
            told = (r.parties_stamp(), kept.clone());
            r.parties.forget();
            let afresh: Vec<_> = ids.iter().map(|&p| (p, r.party_of(p))).collect();
            prop_assert_eq!(kept, afresh, "monsters: {:?}", r.monsters.by_id());
        }
    }
}
