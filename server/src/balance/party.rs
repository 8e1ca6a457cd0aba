//! A party: several characters, each of its own background and each
//! played by the same policy, in one world, on the same fair clock. Each
//! goes its own way (the policy does not keep them together, though they
//! start together and tend to follow one another down); what becomes of
//! each is a life, as a lone character's is.

use std::collections::BTreeMap;

use gloam_protocol::{Action, PlayerId};

use super::policy::Policy;
use super::{Life, look};
use crate::backgrounds::Background;
use crate::config::Config;
use crate::world::{Arrival, Departure, Flow, Nobody, Player, Rules, fresh_depth};

/// One member of the party: its id, its policy, its life so far, and
/// whether it still plays.
struct Member {
    id: PlayerId,
    policy: Policy,
    life: Life,
    playing: bool,
}

/// The depths of a party's world, built as they are first come to.
struct Depths<'a> {
    config: &'a Config,
    all: BTreeMap<u16, Rules>,
}

impl Depths<'_> {
    fn get(&mut self, depth: u16) -> &mut Rules {
        let config = self.config;
        self.all.entry(depth).or_insert_with(|| fresh_depth(config, depth).rules)
    }

    /// Where player `id` stands.
    fn depth_of(&self, id: PlayerId) -> Option<u16> {
        self.all.iter().find(|(_, r)| r.player(id).is_some()).map(|(&d, _)| d)
    }
}

/// Plays one party, a member of each of `backgrounds`, in the world of
/// `seed` for at most `max_rounds` loops (each member acting once a loop).
pub fn play_party(
    config: &Config,
    seed: u64,
    max_rounds: u64,
    backgrounds: &[Background],
) -> Vec<Life> {
    let config = Config { seed, ..config.clone() };
    let mut depths = Depths { config: &config, all: BTreeMap::new() };
    let mut members: Vec<Member> = Vec::new();
    for (i, background) in backgrounds.iter().enumerate() {
        let id = PlayerId(i as u32 + 1);
        let mut player = Player::new(id, format!("member{i}"));
        background.outfit(&mut player, &config.items);
        let flow = depths.get(1).arrive(player, Arrival::Join, &mut Nobody);
        members.push(Member {
            id,
            policy: Policy::default(),
            life: Life::new(seed),
            playing: true,
        });
        take(1, flow, &mut depths, &mut members);
    }
    for _ in 0..max_rounds {
        if members.iter().all(|m| !m.playing) {
            break;
        }
        for i in 0..members.len() {
            let Some(depth) = members[i].playing.then(|| depths.depth_of(members[i].id)).flatten()
            else {
                continue;
            };
            let here = depths.get(depth);
            let Some(action) =
                look(here, &config, members[i].id).map(|l| members[i].policy.choose(&l))
            else {
                continue;
            };
            members[i].life.zaps += u32::from(matches!(action, Action::Zap { .. }));
            if let Some(flow) = here.act(members[i].id, action, &mut Nobody) {
                take(depth, flow, &mut depths, &mut members);
            }
        }
        for m in members.iter_mut().filter(|m| m.playing) {
            let Some(depth) = depths.depth_of(m.id) else { continue };
            let me = depths.all[&depth].player(m.id).expect("on its depth");
            m.life.note(depth, me);
            m.life.found_artifact |=
                me.pack.items().iter().any(|i| i.kind == config.items.artifact());
        }
    }
    members.into_iter().map(|m| m.life).collect()
}

/// What a flow hands back: the dead end their lives, those who took the
/// stairs arrive below or above (and may win).
fn take(depth: u16, flow: Flow, depths: &mut Depths, members: &mut [Member]) {
    let mut flows = vec![(depth, flow)];
    while let Some((depth, flow)) = flows.pop() {
        for death in flow.deaths {
            let id = death.player.id;
            if let Some(m) = members.iter_mut().find(|m| m.id == id) {
                m.life.end(death, depths.get(depth));
                m.playing = false;
            }
        }
        for Departure { player, depth, via } in flow.departures {
            let id = player.id;
            let here = depths.get(depth);
            flows.push((depth, here.arrive(player, via, &mut Nobody)));
            if here.wins(id, via) {
                flows.push((depth, here.escape(id, &mut Nobody)));
            }
        }
    }
}
