//! Which world a store holds: the id drawn when the store was made, and
//! the seed, generator setting and content edition its levels are
//! rebuilt from, in the `meta` table. A world once settled is kept: a host who names another
//! is told so, never given it over the stored one.

use redb::ReadableDatabase;

use super::tables::META;
use super::{Store, StoreError, open};
use crate::config::{WorldSpec, WorldWish};
use crate::mapgen::GeneratorSetting;

impl Store {
    /// A name for this world that stays with the file wherever it is moved
    /// or copied: 16 hex digits, drawn when the store was made.
    pub fn world_id(&self) -> Result<String, StoreError> {
        let read = || -> Result<String, redb::Error> {
            let txn = self.db.begin_read()?;
            let meta = txn.open_table(META)?;
            let id = meta
                .get("world-id")?
                .ok_or_else(|| redb::Error::Corrupted("the store has no world id".into()))?;
            Ok(id.value().iter().map(|b| format!("{b:02x}")).collect())
        };
        read().map_err(|e| open::failed(self.path(), e))
    }

    /// The world this store was made for, if it was given one yet.
    pub fn world(&self) -> Result<Option<WorldSpec>, StoreError> {
        let read = || -> Result<Option<WorldSpec>, redb::Error> {
            let txn = self.db.begin_read()?;
            let meta = txn.open_table(META)?;
            let text = |key: &str| -> Result<Option<String>, redb::Error> {
                Ok(meta.get(key)?.map(|v| String::from_utf8_lossy(v.value()).into_owned()))
            };
            let Some(seed) = meta.get("seed")? else { return Ok(None) };
            let seed = <[u8; 8]>::try_from(seed.value())
                .map(u64::from_le_bytes)
                .map_err(|_| redb::Error::Corrupted("the world seed is not 8 bytes".into()))?;
            let generator = text("generator")?
                .and_then(|name| GeneratorSetting::from_name(&name))
                .ok_or_else(|| redb::Error::Corrupted("unknown generator setting".into()))?;
            let mix = text("mix")?
                .and_then(|mix| mix.parse().ok())
                .ok_or_else(|| redb::Error::Corrupted("unreadable generator weights".into()))?;
            let edition = match text("edition")? {
                Some(e) => e
                    .parse()
                    .map_err(|_| redb::Error::Corrupted(format!("unreadable edition {e:?}")))?,
                // Worlds made before editions have none: the second had
                // vaults, the first not even those.
                None if meta.get("vaults")?.is_some_and(|v| v.value() == b"1") => 2,
                None => 1,
            };
            Ok(Some(WorldSpec { seed, generator, mix, edition }))
        };
        read().map_err(|e| open::failed(self.path(), e))
    }

    /// Settles which world this store holds: the stored one if there is
    /// one (a part the host named that differs is an error), else the one
    /// `asked` for, written now (`new_seed` and the defaults for what it
    /// leaves out).
    pub fn settle_world(
        &self,
        asked: &WorldWish,
        new_seed: impl FnOnce() -> u64,
    ) -> Result<WorldSpec, StoreError> {
        let Some(stored) = self.world()? else {
            let world = WorldSpec {
                seed: asked.seed.unwrap_or_else(new_seed),
                generator: asked.generator.unwrap_or_default(),
                mix: asked.mix.clone().unwrap_or_default(),
                edition: crate::config::EDITION,
            };
            self.write_world(&world).map_err(|e| open::failed(self.path(), e))?;
            return Ok(world);
        };
        let mut clashes = Vec::new();
        if let Some(seed) = asked.seed.filter(|&s| s != stored.seed) {
            clashes.push((format!("seed {}", stored.seed), format!("--seed {seed}")));
        }
        if let Some(generator) = asked.generator.filter(|&g| g != stored.generator) {
            clashes.push((
                format!("generator {}", stored.generator.name()),
                format!("--generator {}", generator.name()),
            ));
        }
        if let Some(mix) = asked.mix.as_ref().filter(|&m| *m != stored.mix) {
            clashes.push((format!("mix {}", stored.mix), format!("--mix {mix}")));
        }
        if clashes.is_empty() {
            return Ok(stored);
        }
        let (stored_text, asked): (Vec<_>, Vec<_>) = clashes.into_iter().unzip();
        Err(StoreError::OtherWorld {
            file: self.path().to_path_buf(),
            stored: stored_text.join(", "),
            asked: asked.join(" "),
        })
    }

    fn write_world(&self, spec: &WorldSpec) -> Result<(), redb::Error> {
        let txn = self.db.begin_write()?;
        {
            let mut meta = txn.open_table(META)?;
            meta.insert("seed", spec.seed.to_le_bytes().as_slice())?;
            meta.insert("generator", spec.generator.name().as_bytes())?;
            meta.insert("mix", spec.mix.to_string().as_bytes())?;
            meta.insert("edition", spec.edition.to_string().as_bytes())?;
        }
        txn.commit()?;
        Ok(())
    }
}
