//! The hash maps and sets of the analyses, with rustc's fast hasher (the `rustc-hash` crate) in
//! place of the standard library's SipHash: their keys are small numbers (instruction, block and
//! segment numbers), and SipHash's per-key cost was a tenth of the kernel verifier's time on the
//! grid-wide examples. Iteration order changes with the hasher, but the standard library's is
//! random per process, so no result may depend on it either way.

pub type HashMap<K, V> = rustc_hash::FxHashMap<K, V>;
pub type HashSet<T> = rustc_hash::FxHashSet<T>;

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
