//! An array's bytes for `loomc run`: zeroed without a pass over them, and starting on a cache line.
//! A large `Vec<u8>` starts 16 bytes past a page (the allocator's header), so every other
//! 32-byte vector access of the CPU backend's loops over it straddled two cache lines: saxpy over
//! 2^22 elements ran at 0.81 of PoCL's speed on such arrays and 0.9 on aligned ones
//! (bench/results/cpu_backend-2026-11-28b.md).

use std::alloc::Layout;
use std::ops::{Deref, DerefMut};

/// Where the data starts: a multiple of this (a cache line).
const ALIGN: usize = 64;

pub struct Bytes {
    /// The allocation, `ALIGN - 1` bytes longer than the data; null when the data is empty.
    raw: *mut u8,
    /// The data's offset in the allocation.
    start: usize,
    len: usize,
}

// SAFETY: `Bytes` owns its allocation alone, as a `Vec<u8>` does.
unsafe impl Send for Bytes {}
unsafe impl Sync for Bytes {}

impl Bytes {
    /// `len` zero bytes, or `None` if they cannot be allocated. From `calloc`: a large block
    /// comes as fresh pages the system zeroes when first touched, with no pass over the memory
    /// here (an allocation aligned through the allocator would be cleared with `memset`). On
    /// Linux a large block also asks for transparent huge pages (`madvise(MADV_HUGEPAGE)`, as
    /// NumPy does for its arrays): reading 64 MB into 4 KiB pages took 16,384 page faults, most
    /// of the time of `loomc run`'s `.npy` reading (perf), where 2 MiB pages take 32.
    pub fn zeroed(len: usize) -> Option<Bytes> {
        if len == 0 {
            return Some(Bytes {
                raw: std::ptr::null_mut(),
                start: 0,
                len: 0,
            });
        }
        let layout = Self::layout(len)?;
        // SAFETY: `layout` has a non-zero size.
        let raw = unsafe { std::alloc::alloc_zeroed(layout) };
        if raw.is_null() {
            return None;
        }
        let start = (raw as usize).next_multiple_of(ALIGN) - raw as usize;
        #[cfg(target_os = "linux")]
        huge_pages(raw, layout.size());
        Some(Bytes { raw, start, len })
    }

    fn layout(len: usize) -> Option<Layout> {
        Layout::array::<u8>(len.checked_add(ALIGN - 1)?).ok()
    }
}

impl Deref for Bytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        if self.len == 0 {
            return &[];
        }
        // SAFETY: `raw + start` holds `len` initialised bytes inside the allocation.
        unsafe { std::slice::from_raw_parts(self.raw.add(self.start), self.len) }
    }
}

impl DerefMut for Bytes {
    fn deref_mut(&mut self) -> &mut [u8] {
        if self.len == 0 {
            return &mut [];
        }
        // SAFETY: as in `deref`, borrowed exclusively.
        unsafe { std::slice::from_raw_parts_mut(self.raw.add(self.start), self.len) }
    }
}

impl Drop for Bytes {
    fn drop(&mut self) {
        if let (false, Some(layout)) = (self.raw.is_null(), Self::layout(self.len)) {
            // SAFETY: allocated in `zeroed` with this layout.
            unsafe { std::alloc::dealloc(self.raw, layout) };
        }
    }
}

impl Clone for Bytes {
    /// A copy; out of memory, the process ends as a `Vec`'s clone would end it.
    fn clone(&self) -> Bytes {
        let Some(mut copy) = Bytes::zeroed(self.len) else {
            std::alloc::handle_alloc_error(Self::layout(self.len).unwrap_or(Layout::new::<u8>()))
        };
        copy.copy_from_slice(self);
        copy
    }

    /// Into the same allocation where the lengths agree (`loomc run --repeat` restores its
    /// inputs before every launch).
    fn clone_from(&mut self, source: &Bytes) {
        if self.len == source.len {
            self.copy_from_slice(source);
        } else {
            *self = source.clone();
        }
    }
}

#[cfg(test)]
impl From<Vec<u8>> for Bytes {
    fn from(v: Vec<u8>) -> Bytes {
        let mut bytes = Bytes::zeroed(v.len()).unwrap();
        bytes.copy_from_slice(&v);
        bytes
    }
}

impl PartialEq for Bytes {
    fn eq(&self, other: &Bytes) -> bool {
        **self == **other
    }
}

impl PartialEq<Vec<u8>> for Bytes {
    fn eq(&self, other: &Vec<u8>) -> bool {
        **self == **other
    }
}

impl std::fmt::Debug for Bytes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        (**self).fmt(f)
    }
}

/// Asks for transparent huge pages over the whole 2 MiB pages inside `[data, data + len)`, for
/// blocks of 4 MiB and more (where the system allows them on request, as by default; a refusal
/// changes nothing but the speed).
#[cfg(target_os = "linux")]
fn huge_pages(data: *mut u8, len: usize) {
    const HUGE: usize = 2 << 20;
    if len < 2 * HUGE {
        return;
    }
    let start = (data as usize).next_multiple_of(HUGE);
    let end = (data as usize + len) / HUGE * HUGE;
    if end > start {
        // SAFETY: the range lies inside the block just allocated; madvise changes no contents.
        unsafe { libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_data_starts_on_a_cache_line_and_is_zero() {
        for len in [0, 1, 63, 64, 1000, 5 << 20] {
            let mut bytes = Bytes::zeroed(len).unwrap();
            assert_eq!(bytes.len(), len);
            assert!(bytes.iter().all(|&b| b == 0));
            if len > 0 {
                assert_eq!(bytes.as_ptr() as usize % ALIGN, 0, "{len} bytes");
                bytes[len - 1] = 7;
                let mut copy = bytes.clone();
                assert_eq!((copy[len - 1], copy.as_ptr() as usize % ALIGN), (7, 0));
                copy[0] = 9;
                copy.clone_from(&bytes);
                assert_eq!((copy[0], copy[len - 1]), (bytes[0], 7));
            }
        }
        assert_eq!(Bytes::from(vec![1, 2, 3]), vec![1, 2, 3]);
    }
}
