//! Which world a store holds: the id drawn when the store was made, and
//! the seed, generator setting and content edition its levels are
//! rebuilt from, in the `meta` table. A world once settled is kept: a host who names another
//! is told so, never given it over the stored one.

use super::backend::Fault;
use super::{Store, StoreError};
use crate::config::{WorldSpec, WorldWish};
use crate::mapgen::GeneratorSetting;

impl Store {
    /// A name for this world that stays with the file wherever it is moved
    /// or copied: 16 hex digits, drawn when the store was made.
    pub fn world_id(&self) -> Result<String, StoreError> {
        let id = self.with(|b| b.meta("world-id"))?;
        let id =
            id.ok_or_else(|| self.failed(Fault::Damaged("the store has no world id".into())))?;
        Ok(id.iter().map(|b| format!("{b:02x}")).collect())
    }

    /// The world this store was made for, if it was given one yet.
    pub fn world(&self) -> Result<Option<WorldSpec>, StoreError> {
        self.with(|backend| {
            let Some(seed) = backend.meta("seed")? else { return Ok(None) };
            let mut text = |key: &str| -> Result<Option<String>, Fault> {
                Ok(backend.meta(key)?.map(|v| String::from_utf8_lossy(&v).into_owned()))
            };
            let damaged = |detail: &str| Fault::Damaged(detail.to_owned());
            let seed = <[u8; 8]>::try_from(seed.as_slice())
                .map(u64::from_le_bytes)
                .map_err(|_| damaged("the world seed is not 8 bytes"))?;
            let generator = text("generator")?
                .and_then(|name| GeneratorSetting::from_name(&name))
                .ok_or_else(|| damaged("unknown generator setting"))?;
            let mix = text("mix")?
                .and_then(|mix| mix.parse().ok())
                .ok_or_else(|| damaged("unreadable generator weights"))?;
            let edition = match text("edition")? {
                Some(e) => e.parse().map_err(|_| damaged(&format!("unreadable edition {e:?}")))?,
                // Worlds made before editions have none: the second had
                // vaults, the first not even those.
                None if text("vaults")?.is_some_and(|v| v == "1") => 2,
                None => 1,
            };
            Ok(Some(WorldSpec { seed, generator, mix, edition }))
        })
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
            self.write_world(&world)?;
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

    fn write_world(&self, spec: &WorldSpec) -> Result<(), StoreError> {
        let values = [
            ("seed", Some(spec.seed.to_le_bytes().to_vec())),
            ("generator", Some(spec.generator.name().as_bytes().to_vec())),
            ("mix", Some(spec.mix.to_string().into_bytes())),
            ("edition", Some(spec.edition.to_string().into_bytes())),
        ];
        self.with(|b| b.set_meta(&values))
    }
}
