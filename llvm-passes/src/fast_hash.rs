//! The hash maps and sets of the analyses, with a fast hasher in place of the standard
//! library's SipHash: their keys are small numbers (instruction, block and segment numbers), and
//! SipHash's per-key cost was a tenth of the kernel verifier's time on the grid-wide examples.
//! Iteration order changes with the hasher, but the standard library's is random per process,
//! so no result may depend on it either way.

use std::hash::{BuildHasherDefault, Hasher};

pub type HashMap<K, V> = std::collections::HashMap<K, V, BuildHasherDefault<FastHasher>>;
pub type HashSet<T> = std::collections::HashSet<T, BuildHasherDefault<FastHasher>>;

/// The hasher of rustc's `FxHashMap`: a rotate, an xor and a multiply per word.
#[derive(Debug, Default, Clone, Copy)]
pub struct FastHasher {
    hash: u64,
}

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FastHasher {
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for FastHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.add(u64::from(n));
    }

    fn write_u16(&mut self, n: u16) {
        self.add(u64::from(n));
    }

    fn write_u32(&mut self, n: u32) {
        self.add(u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    fn finish(&self) -> u64 {
        self.hash
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_keep_what_is_put_in() {
        let mut map = HashMap::default();
        for k in 0..10_000usize {
            map.insert((k, k % 7), k * 2);
        }
        assert_eq!(map.len(), 10_000);
        assert!((0..10_000usize).all(|k| map[&(k, k % 7)] == k * 2));
        let set: HashSet<&str> = ["a", "b", "a"].into_iter().collect();
        assert_eq!(set.len(), 2);
    }
}
