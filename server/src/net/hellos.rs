//! How often one client address may say hello: a small token bucket per
//! address ([`HelloPace`]: a burst, then a steady pace), shared by every
//! connection. Each hello that gets in costs the world a claim, a load or a
//! new character in the store, and an arrival on a depth; a script saying
//! hello and quitting in a loop is refused after its burst, with how long
//! to wait, and costs none of these, while every other address joins as
//! before.
//!
//! An IPv6 address counts by its /64, the block one subscriber is usually
//! given (else a flooder would walk through its addresses); an IPv4
//! address written as IPv6 counts as itself. The host's own machine
//! (loopback) is not paced unless [`HelloPace::loopback`] says so, as it
//! is not held to the hourly quota of new characters either.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use tokio::time::Instant;

use super::pacer::RateLimit;
use crate::config::HelloPace;

/// Below this many addresses remembered, none is forgotten.
const PRUNE_FROM: usize = 1024;

/// The pace of hellos of every address, shared by the connections of one
/// server (see [`serve`](super::serve)).
#[derive(Debug)]
pub struct Hellos {
    pace: HelloPace,
    buckets: Mutex<Buckets>,
}

#[derive(Debug)]
struct Buckets {
    by_address: HashMap<IpAddr, RateLimit>,
    /// How many addresses are remembered before those with a full bucket
    /// (which remember nothing a new one would not) are forgotten.
    prune_at: usize,
}

impl Hellos {
    pub fn new(pace: HelloPace) -> Self {
        let buckets = Buckets { by_address: HashMap::new(), prune_at: PRUNE_FROM };
        Self { pace, buckets: Mutex::new(buckets) }
    }

    /// Lets a hello from `from` in, or gives how long until one may be.
    pub(super) fn admit(&self, from: IpAddr, now: Instant) -> Result<(), Duration> {
        let from = from.to_canonical();
        if from.is_loopback() && !self.pace.loopback {
            return Ok(());
        }
        let mut buckets = self.buckets.lock().unwrap_or_else(PoisonError::into_inner);
        buckets.prune(now);
        let HelloPace { per_second, burst, .. } = self.pace;
        let bucket = buckets
            .by_address
            .entry(block(from))
            .or_insert_with(|| RateLimit::new(per_second, burst, now));
        if bucket.try_take(now) { Ok(()) } else { Err(bucket.ready_at(now) - now) }
    }
}

impl Buckets {
    /// Forgets the addresses whose buckets are full again, once there are
    /// many: the map holds only those that said hello lately, and an
    /// address is looked at again only after as many others came.
    fn prune(&mut self, now: Instant) {
        if self.by_address.len() < self.prune_at {
            return;
        }
        self.by_address.retain(|_, bucket| !bucket.is_full(now));
        self.prune_at = (self.by_address.len() * 2).max(PRUNE_FROM);
    }
}

/// The address a hello counts against: an IPv6 address's /64.
fn block(from: IpAddr) -> IpAddr {
    match from {
        IpAddr::V4(_) => from,
        IpAddr::V6(v6) => {
            let prefix = u128::from(v6) & !u128::from(u64::MAX);
            IpAddr::V6(Ipv6Addr::from(prefix))
        }
    }
}

#[cfg(test)]
mod tests {
    use std::net::Ipv4Addr;

    use super::*;

    const SECOND: Duration = Duration::from_secs(1);

    fn v4(last: u8) -> IpAddr {
        IpAddr::V4(Ipv4Addr::new(192, 0, 2, last))
    }

    fn paced(loopback: bool) -> Hellos {
        Hellos::new(HelloPace { burst: 3, per_second: 1, loopback })
    }

    #[test]
    fn an_address_says_its_burst_then_a_hello_a_second_and_others_are_not_touched() {
        let t0 = Instant::now();
        let hellos = paced(false);
        for _ in 0..3 {
            assert_eq!(hellos.admit(v4(1), t0), Ok(()));
        }
        assert_eq!(hellos.admit(v4(1), t0), Err(SECOND), "a second until the next");
        assert_eq!(hellos.admit(v4(2), t0), Ok(()), "another address joins at once");
        let later = t0 + SECOND;
        assert_eq!(hellos.admit(v4(1), later), Ok(()));
        assert!(hellos.admit(v4(1), later).is_err(), "one a second");
    }

    #[test]
    fn the_hosts_own_machine_is_paced_only_when_asked() {
        let t0 = Instant::now();
        let local = [IpAddr::V4(Ipv4Addr::LOCALHOST), IpAddr::V6(Ipv6Addr::LOCALHOST)];
        let mapped = IpAddr::V6(Ipv4Addr::LOCALHOST.to_ipv6_mapped());
        let exempt = paced(false);
        for from in local.into_iter().chain([mapped]) {
            assert!((0..100).all(|_| exempt.admit(from, t0).is_ok()), "{from}");
        }
        let strict = paced(true);
        assert_eq!((0..10).filter(|_| strict.admit(local[0], t0).is_ok()).count(), 3);
        assert!(strict.admit(mapped, t0).is_err(), "written as IPv6, 127.0.0.1 is itself");
    }

    #[test]
    fn an_ipv6_block_counts_as_one_address() {
        let t0 = Instant::now();
        let hellos = paced(false);
        let in_block = |host: u16| IpAddr::V6(Ipv6Addr::new(0x2001, 0xdb8, 1, 2, 0, 0, 0, host));
        assert_eq!((0..10).filter(|&i| hellos.admit(in_block(i), t0).is_ok()).count(), 3);
        let next_block = IpAddr::V6(Ipv6Addr::new(0x2001, 0xdb8, 1, 3, 0, 0, 0, 1));
        assert_eq!(hellos.admit(next_block, t0), Ok(()));
    }

    #[test]
    fn addresses_that_said_hello_long_ago_are_forgotten() {
        let t0 = Instant::now();
        let hellos = paced(false);
        let many = |n: u32, at: Instant| {
            for i in 0..n {
                let from = IpAddr::V4(Ipv4Addr::from(0x0a00_0000 + i));
                assert_eq!(hellos.admit(from, at), Ok(()));
            }
        };
        many(PRUNE_FROM as u32, t0);
        // Their buckets are full again three seconds later.
        let later = t0 + 3 * SECOND;
        assert_eq!(hellos.admit(v4(1), later), Ok(()));
        let remembered = hellos.buckets.lock().unwrap().by_address.len();
        assert_eq!(remembered, 1, "only the address that just said hello");
        // An address still waiting is kept.
        assert!(hellos.admit(v4(1), later).is_ok() && hellos.admit(v4(1), later).is_ok());
        many(PRUNE_FROM as u32, later);
        assert!(hellos.admit(v4(1), later).is_err(), "still paced after the others came");
    }
}
