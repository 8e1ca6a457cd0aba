//! A set of a level's cells as a row-major bitset: how `EnterLevel` names the
//! cells a player remembers, how the server keeps what a player explored,
//! and how the store saves it. The byte form is part of the wire contract:
//! bit `i % 8` of byte `i / 8` is cell `i` (row-major), and trailing empty
//! bytes are left off.

/// Cells of one level, by row-major index.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CellSet {
    words: Vec<u64>,
}

impl CellSet {
    pub fn new() -> Self {
        Self::default()
    }

    /// The set the byte form `bytes` names (see the module doc).
    pub fn from_bytes(bytes: &[u8]) -> Self {
        let mut words: Vec<u64> = bytes
            .chunks(8)
            .map(|chunk| {
                let mut word = [0u8; 8];
                word[..chunk.len()].copy_from_slice(chunk);
                u64::from_le_bytes(word)
            })
            .collect();
        while words.last() == Some(&0) {
            words.pop();
        }
        Self { words }
    }

    /// The byte form: what `EnterLevel` carries and the store keeps.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes: Vec<u8> = self.words.iter().flat_map(|w| w.to_le_bytes()).collect();
        while bytes.last() == Some(&0) {
            bytes.pop();
        }
        bytes
    }

    pub fn contains(&self, index: usize) -> bool {
        self.words.get(index / 64).is_some_and(|w| w & (1 << (index % 64)) != 0)
    }

    pub fn insert(&mut self, index: usize) {
        let word = index / 64;
        if self.words.len() <= word {
            self.words.resize(word + 1, 0);
        }
        self.words[word] |= 1 << (index % 64);
    }

    /// One past the highest index the set could hold without growing: a
    /// set read from the wire is checked against the map's size with this.
    pub fn capacity(&self) -> usize {
        self.words.len() * 64
    }

    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// The indices in the set, in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(w, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                if rest == 0 {
                    return None;
                }
                let bit = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                Some(w * 64 + bit)
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_byte_form_drops_trailing_empty_bytes() {
        let mut set = CellSet::new();
        for i in [0, 9, 64 + 63, 128 + 1] {
            set.insert(i);
        }
        let bytes = set.to_bytes();
        assert_eq!(bytes.len(), 17);
        assert_eq!(bytes[0], 1);
        assert_eq!(bytes[1], 2);
        assert!(CellSet::new().to_bytes().is_empty());
        assert!(CellSet::from_bytes(&[0, 0, 0]).is_empty());
    }

    proptest! {
        #[test]
        fn bytes_round_trip_and_iterate_in_order(mut cells in proptest::collection::vec(0usize..3200, 0..300)) {
            let mut set = CellSet::new();
            for &c in &cells {
                set.insert(c);
            }
            cells.sort_unstable();
            cells.dedup();
            let back = CellSet::from_bytes(&set.to_bytes());
            prop_assert_eq!(&back, &set);
            prop_assert_eq!(back.iter().collect::<Vec<_>>(), cells.clone());
            for c in 0..3200 {
                prop_assert_eq!(back.contains(c), cells.binary_search(&c).is_ok());
            }
        }
    }
}
