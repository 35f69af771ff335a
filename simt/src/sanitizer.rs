//! Sanitizer mode: every load and store of the kernel calls `check` (the host lowering inserts
//! the calls). Shared memory gets a shadow byte map that remembers, for the current barrier
//! interval, which thread wrote each byte and which threads read it; global memory accesses must
//! fall inside one of the launch's buffers.
//!
//! Happens-before within a block comes from barriers (a new interval forgets every access) and
//! from `bar.warp.sync` between the lanes of its mask: each warp keeps the syncs completed in the
//! current interval, and an access stamped before such a sync is ordered with the later accesses
//! of every lane of its mask.

use crate::report::{Access, AccessKind, SimtError, SourceLocation, ThreadId};
use crate::warp::WARP_SIZE;
use crate::Buffer;

/// Which memory an access names, as the host lowering encodes it (LLVM address spaces).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Space {
    /// A generic pointer: shared if it points into the block's shared memory, a buffer's if it
    /// points into one, else thread-private (the stack).
    Generic,
    Global,
    Shared,
    /// Constant or local memory: not checked.
    Other,
}

impl Space {
    pub fn from_address_space(space: u32) -> Space {
        match space {
            0 => Space::Generic,
            1 => Space::Global,
            3 => Space::Shared,
            _ => Space::Other,
        }
    }
}

/// Who last touched a byte: thread index + 1 (0: nobody), where, and how many warp syncs its
/// warp had completed then.
#[derive(Debug, Clone, Copy, Default)]
struct Stamp {
    thread: u32,
    location: u32,
    warp_syncs: u32,
}

#[derive(Debug, Clone, Copy, Default)]
struct Shadow {
    /// The interval this entry belongs to; an older one is empty.
    interval: u64,
    writer: Stamp,
    /// Two distinct readers are enough: a later writer differs from at least one of them.
    readers: [Stamp; 2],
}

/// One worker's sanitizer state, reused for each block it runs.
pub struct Sanitizer {
    /// Barrier intervals started by this worker so far; never repeats, so entries of earlier
    /// blocks and intervals are stale without clearing the shadow.
    interval: u64,
    shadow: Vec<Shadow>,
    /// Per warp: `(count before, mask)` of each `bar.warp.sync` completed in this interval.
    warp_syncs: Vec<Vec<(u32, u32)>>,
    buffers: Vec<Buffer>,
    block: u32,
}

impl Sanitizer {
    pub fn new(buffers: &[Buffer], shared_len: usize, block_size: u32) -> Sanitizer {
        let mut buffers = buffers.to_vec();
        buffers.sort_by_key(|b| b.start);
        Sanitizer {
            interval: 0,
            shadow: vec![Shadow::default(); shared_len],
            warp_syncs: vec![Vec::new(); block_size.div_ceil(WARP_SIZE) as usize],
            buffers,
            block: 0,
        }
    }

    pub fn start_block(&mut self, block: u32) {
        self.block = block;
        self.new_interval();
    }

    /// A barrier completed: every access before it happens before every access after it.
    pub fn new_interval(&mut self) {
        self.interval += 1;
        self.warp_syncs.iter_mut().for_each(Vec::clear);
    }

    /// A `bar.warp.sync` completed for the lanes of `mask` of warp `warp`.
    pub fn warp_synced(&mut self, warp: u32, mask: u32) {
        if let Some(syncs) = self.warp_syncs.get_mut(warp as usize) {
            let before = syncs.len() as u32;
            syncs.push((before, mask));
        }
    }

    fn stamp(&self, thread: u32, location: u32) -> Stamp {
        Stamp {
            thread: thread + 1,
            location,
            warp_syncs: self
                .warp_syncs
                .get((thread / WARP_SIZE) as usize)
                .map_or(0, |s| s.len() as u32),
        }
    }

    /// Whether `earlier` (by another thread, in this interval) happens before an access by
    /// `thread` now: only through a warp sync of both lanes completed after it.
    fn ordered(&self, earlier: Stamp, thread: u32) -> bool {
        let other = earlier.thread - 1;
        let warp = thread / WARP_SIZE;
        if other / WARP_SIZE != warp {
            return false;
        }
        let both = (1u32 << (other % WARP_SIZE)) | (1u32 << (thread % WARP_SIZE));
        self.warp_syncs.get(warp as usize).is_some_and(|syncs| {
            syncs
                .iter()
                .any(|(before, mask)| *before >= earlier.warp_syncs && mask & both == both)
        })
    }

    /// Checks a shared-memory access of `size` bytes at `offset` by `thread`, and records it.
    /// Returns the race it completes, if any, as `(offset, earlier stamp, earlier kind)`.
    pub fn shared_access(
        &mut self,
        thread: u32,
        offset: usize,
        size: usize,
        kind: AccessKind,
        location: u32,
    ) -> Option<(usize, u32, u32, AccessKind)> {
        let me = self.stamp(thread, location);
        let interval = self.interval;
        for byte in offset..offset + size {
            let entry = *self.shadow.get(byte)?;
            let mut entry = if entry.interval == interval {
                entry
            } else {
                Shadow {
                    interval,
                    ..Shadow::default()
                }
            };
            let conflicts = |s: Stamp| s.thread != 0 && s.thread != me.thread;
            if conflicts(entry.writer) && !self.ordered(entry.writer, thread) {
                let w = entry.writer;
                return Some((byte, w.thread - 1, w.location, AccessKind::Write));
            }
            match kind {
                AccessKind::Write => {
                    for reader in entry.readers {
                        if conflicts(reader) && !self.ordered(reader, thread) {
                            return Some((
                                byte,
                                reader.thread - 1,
                                reader.location,
                                AccessKind::Read,
                            ));
                        }
                    }
                    entry.writer = me;
                }
                AccessKind::Read => {
                    if let Some(slot) = entry
                        .readers
                        .iter_mut()
                        .find(|r| r.thread == 0 || r.thread == me.thread)
                    {
                        *slot = me;
                    }
                }
            }
            if let Some(slot) = self.shadow.get_mut(byte) {
                *slot = entry;
            }
        }
        None
    }

    /// `None` if `[address, address + size)` lies inside one buffer; else what lies nearest.
    pub fn global_access(&self, address: usize, size: usize) -> Option<String> {
        outside_buffers(&self.buffers, address, size)
    }

    pub fn race(
        &self,
        offset: usize,
        first: (u32, u32, AccessKind),
        second: (u32, u32, AccessKind),
        locate: impl Fn(u32) -> SourceLocation,
    ) -> SimtError {
        let access = |(thread, location, kind): (u32, u32, AccessKind)| Access {
            thread: ThreadId {
                block: self.block,
                thread,
            },
            kind,
            location: locate(location),
        };
        SimtError::SharedRace {
            offset,
            first: access(first),
            second: access(second),
        }
    }
}

/// `None` if `[address, address + size)` lies inside one of `buffers` (sorted by start); else
/// what lies nearest, in words.
pub fn outside_buffers(buffers: &[Buffer], address: usize, size: usize) -> Option<String> {
    let end = address.saturating_add(size);
    let after = buffers.partition_point(|b| b.start <= address);
    if let Some(b) = after.checked_sub(1).and_then(|i| buffers.get(i)) {
        if end <= b.start + b.len {
            return None;
        }
        if address < b.start + b.len {
            return Some(format!(
                "it runs past the end of `{}` ({} bytes)",
                b.name, b.len
            ));
        }
        let past = address - (b.start + b.len);
        let element = (address - b.start) / b.elem_size.max(1);
        return Some(format!(
            "{past} bytes past the end of `{}`: element {element} of an array of {} elements",
            b.name,
            b.len / b.elem_size.max(1)
        ));
    }
    match buffers.get(after) {
        Some(b) => Some(format!(
            "{} bytes before the start of `{}`",
            b.start - address,
            b.name
        )),
        None => Some(format!(
            "address {address:#x} is in no buffer of the launch"
        )),
    }
}

/// What an access of `size` bytes at `address` through `buffer`'s parameter does wrong, in
/// words: the element index it reaches (negative before the start) and the array's length.
pub fn outside_param(buffer: &Buffer, address: usize, size: usize) -> String {
    let elem = buffer.elem_size.max(1) as i128;
    let offset = address as i128 - buffer.start as i128;
    let elements = buffer.len as i128 / elem;
    if offset % elem == 0 && size as i128 <= elem {
        format!(
            "index {} of `{}`, an array of {elements} elements",
            offset / elem,
            buffer.name
        )
    } else {
        format!(
            "bytes {offset} to {} of `{}`, an array of {elements} elements ({} bytes)",
            offset + size as i128,
            buffer.name,
            buffer.len
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn write_then_read_by_another_thread_is_a_race_until_a_barrier() {
        let mut s = Sanitizer::new(&[], 64, 64);
        s.start_block(0);
        assert!(s.shared_access(3, 8, 4, AccessKind::Write, 1).is_none());
        assert!(s.shared_access(3, 8, 4, AccessKind::Read, 2).is_none());
        let race = s.shared_access(4, 10, 4, AccessKind::Read, 3);
        assert_eq!(race, Some((10, 3, 1, AccessKind::Write)));
        s.new_interval();
        assert!(s.shared_access(4, 10, 4, AccessKind::Read, 3).is_none());
        assert!(s.shared_access(5, 10, 4, AccessKind::Read, 3).is_none());
        // Two readers, then a write by one of them: a race with the other.
        assert_eq!(
            s.shared_access(5, 10, 1, AccessKind::Write, 4),
            Some((10, 4, 3, AccessKind::Read))
        );
    }

    #[test]
    fn a_warp_sync_orders_its_lanes_only() {
        let mut s = Sanitizer::new(&[], 64, 64);
        s.start_block(0);
        assert!(s.shared_access(0, 0, 4, AccessKind::Write, 1).is_none());
        assert!(s.shared_access(40, 16, 4, AccessKind::Write, 1).is_none());
        s.warp_synced(0, 0xffff_ffff);
        assert!(s.shared_access(1, 0, 4, AccessKind::Read, 2).is_none());
        // Thread 33 is in another warp: thread 0's write is not ordered before its read.
        assert!(s.shared_access(33, 0, 4, AccessKind::Read, 2).is_some());
        // Lane 2 was not in this sync's mask.
        s.warp_synced(1, 0x1);
        assert!(s.shared_access(41, 16, 4, AccessKind::Read, 2).is_some());
    }

    #[test]
    fn global_accesses_must_stay_in_a_buffer() {
        let buffers = [
            Buffer {
                name: "x".into(),
                start: 1000,
                len: 40,
                elem_size: 4,
                param: Some(1),
            },
            Buffer {
                name: "y".into(),
                start: 2000,
                len: 8,
                elem_size: 8,
                param: Some(2),
            },
        ];
        let s = Sanitizer::new(&buffers, 0, 32);
        assert_eq!(s.global_access(1036, 4), None);
        assert_eq!(s.global_access(2000, 8), None);
        let past = s.global_access(1040, 4).unwrap_or_default();
        assert!(
            past.contains("0 bytes past the end of `x`: element 10 of an array of 10"),
            "{past}"
        );
        assert!(s
            .global_access(1038, 4)
            .unwrap_or_default()
            .contains("runs past"));
        assert!(s
            .global_access(996, 4)
            .unwrap_or_default()
            .contains("4 bytes before the start of `x`"));
        assert_eq!(s.global_access(2007, 1), None);
        assert!(s.global_access(2008, 1).is_some());
    }
}
