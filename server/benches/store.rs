//! What a save costs: one character's position, explored cells and three
//! remembered piles of its depth committed (with fsync) to a store on this machine's disk, alone and
//! as part of a burst of 100. `cargo bench -p gloam-server --bench store`
//! (the store is made in the system's temporary folder; set TMPDIR to
//! measure another disk).

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use gloam_protocol::Pos;
use gloam_server::character::{Credential, KeptPile, Snapshot};
use gloam_server::store::{Store, StoreHandle};

/// A depth about two thirds explored: 400 bytes of bitset.
fn snapshot(i: u16) -> Snapshot {
    let bits = (0..400u16).map(|b| if b % 3 == 0 { 0 } else { 0xff ^ (b as u8) }).collect();
    Snapshot {
        depth: 1 + i % 4,
        pos: Pos { x: 10 + i % 60, y: 5 + i % 30 },
        vitals: gloam_server::character::Vitals::default(),
        explored: vec![(1 + i % 4, bits)],
        piles: vec![(1 + i % 4, (0..3).map(pile).collect())],
        pack: vec![("potion of healing".into(), 2), ("dart".into(), 12)],
        progress: Default::default(),
        known: vec!["potion of healing".into()],
        slain: vec![("jackal".into(), 3)],
        background: Some(("fighter".into(), gloam_server::character::Skills::default())),
    }
}

/// One of the few piles a player remembers on a depth.
fn pile(i: u16) -> KeptPile {
    KeptPile { at: Pos { x: 10 + i, y: 5 }, top: "dart".into(), count: 4 + i, more: i == 0 }
}

fn saves(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
    let (writer, _) = Store::open(dir.path()).expect("the store opens").start();
    let handle: StoreHandle = writer.handle();
    let names: Vec<String> = (0..100).map(|i| format!("player{i}")).collect();
    runtime.block_on(async {
        for (i, name) in names.iter().enumerate() {
            handle
                .create(Credential { name: name.clone(), token_hash: [i as u8; 32] })
                .await
                .unwrap();
        }
    });
    let mut i = 0u16;
    c.bench_function("store: one save, committed", |b| {
        b.iter(|| {
            i = i.wrapping_add(1);
            handle.save(&names[usize::from(i) % names.len()], snapshot(i));
            runtime.block_on(handle.flush());
        })
    });
    c.bench_function("store: 100 saves in one commit", |b| {
        b.iter_batched(
            || (),
            |()| {
                for (n, name) in names.iter().enumerate() {
                    handle.save(name, snapshot(n as u16 + i));
                }
                i = i.wrapping_add(1);
                runtime.block_on(handle.flush());
            },
            BatchSize::PerIteration,
        )
    });
    writer.close();
}

criterion_group!(benches, saves);
criterion_main!(benches);
