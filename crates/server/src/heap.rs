//! A global allocator wrapper that counts the bytes live on the heap, and their peak
//! where asked. Resident memory cannot show what a server holds: allocators keep freed
//! memory (glibc keeps Argon2's 19 MiB work areas and any large buffer in its arenas
//! once its dynamic mmap threshold has risen), so the load benchmark reports live heap
//! per match and the misbehaviour matrix bounds the peak of live heap.
//!
//! The count is kept per thread (a cache line each), not in one shared counter: every
//! allocation of every thread wrote that one cache line, and in the load benchmark the
//! lines bounced between the two cores on each allocation (a sixth of the Tokio
//! workers' samples under `perf`), which slowed the server it measures. An exact peak
//! needs the one shared counter, so only [`Counting::with_peak`] keeps it.
//!
//! ```ignore
//! #[global_allocator]
//! static HEAP: Counting<std::alloc::System> = Counting::new(std::alloc::System);
//! ```

use std::alloc::{GlobalAlloc, Layout};
use std::cell::Cell;
use std::sync::atomic::{AtomicIsize, AtomicUsize, Ordering};

/// Per-thread counters; threads past this many share them (a shared one is still right,
/// only slower).
const SHARDS: usize = 32;

/// One thread's count of bytes it allocated minus bytes it freed (which may be negative:
/// a block can be freed by another thread than the one that allocated it), on a cache
/// line of its own.
#[repr(align(128))]
struct Shard(AtomicIsize);

/// The shards handed out, in order, to threads as they first allocate.
static NEXT_SHARD: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// This thread's shard, once it has one. A `Cell<usize>` has no destructor, so the
    /// thread-local needs no allocation to register one (the allocator cannot allocate).
    static SHARD: Cell<usize> = const { Cell::new(usize::MAX) };
}

fn this_threads_shard() -> usize {
    SHARD
        .try_with(|shard| {
            if shard.get() == usize::MAX {
                shard.set(NEXT_SHARD.fetch_add(1, Ordering::Relaxed) % SHARDS);
            }
            shard.get()
        })
        // A thread's last frees, after its thread-locals are gone.
        .unwrap_or(0)
}

/// The exact live count and its peak: one counter every thread writes.
struct Peak {
    live: AtomicUsize,
    peak: AtomicUsize,
}

/// `inner`, counting live heap bytes (requested sizes), and with [`Counting::with_peak`]
/// the highest count seen.
pub struct Counting<A> {
    inner: A,
    shards: [Shard; SHARDS],
    peak: Option<Peak>,
}

impl<A> Counting<A> {
    /// Live bytes only, counted per thread.
    pub const fn new(inner: A) -> Counting<A> {
        Counting {
            inner,
            shards: [const { Shard(AtomicIsize::new(0)) }; SHARDS],
            peak: None,
        }
    }

    /// Live bytes and their exact peak, which costs a counter shared by every thread.
    pub const fn with_peak(inner: A) -> Counting<A> {
        let mut counting = Counting::new(inner);
        counting.peak = Some(Peak {
            live: AtomicUsize::new(0),
            peak: AtomicUsize::new(0),
        });
        counting
    }

    /// Bytes allocated and not yet freed.
    pub fn live(&self) -> usize {
        let sum: isize = self
            .shards
            .iter()
            .map(|shard| shard.0.load(Ordering::Relaxed))
            .fold(0, isize::wrapping_add);
        sum.max(0).unsigned_abs()
    }

    /// The most bytes live at once since the start (or the last [`Self::reset_peak`]);
    /// 0 unless made [`Counting::with_peak`].
    pub fn peak(&self) -> usize {
        self.peak
            .as_ref()
            .map_or(0, |peak| peak.peak.load(Ordering::Relaxed))
    }

    /// Start the peak again from what is live now.
    pub fn reset_peak(&self) {
        if let Some(peak) = &self.peak {
            peak.peak
                .store(peak.live.load(Ordering::Relaxed), Ordering::Relaxed);
        }
    }

    fn grew(&self, bytes: usize) {
        self.shards[this_threads_shard()]
            .0
            .fetch_add(bytes as isize, Ordering::Relaxed);
        if let Some(peak) = &self.peak {
            let live = peak.live.fetch_add(bytes, Ordering::Relaxed) + bytes;
            peak.peak.fetch_max(live, Ordering::Relaxed);
        }
    }

    fn shrank(&self, bytes: usize) {
        self.shards[this_threads_shard()]
            .0
            .fetch_sub(bytes as isize, Ordering::Relaxed);
        if let Some(peak) = &self.peak {
            peak.live.fetch_sub(bytes, Ordering::Relaxed);
        }
    }
}

// SAFETY: every call is passed to `inner` unchanged; the counters only observe sizes.
unsafe impl<A: GlobalAlloc> GlobalAlloc for Counting<A> {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let ptr = unsafe { self.inner.alloc(layout) };
        if !ptr.is_null() {
            self.grew(layout.size());
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let ptr = unsafe { self.inner.alloc_zeroed(layout) };
        if !ptr.is_null() {
            self.grew(layout.size());
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { self.inner.dealloc(ptr, layout) };
        self.shrank(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let new = unsafe { self.inner.realloc(ptr, layout, new_size) };
        if !new.is_null() {
            self.shrank(layout.size());
            self.grew(new_size);
        }
        new
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::alloc::System;

    fn block(bytes: usize) -> Layout {
        Layout::from_size_align(bytes, 8).expect("a valid layout")
    }

    #[test]
    fn live_bytes_add_up_across_threads_whichever_thread_frees() {
        static HEAP: Counting<System> = Counting::new(System);
        let small = block(100);
        let pointer = unsafe { HEAP.alloc(small) } as usize;
        assert_eq!(HEAP.live(), 100);
        // Allocated here, grown and freed on other threads: their counts go negative,
        // and the sum stays right.
        let grown = std::thread::spawn(move || unsafe {
            HEAP.realloc(pointer as *mut u8, small, 300) as usize
        })
        .join()
        .expect("the thread ran");
        assert_eq!(HEAP.live(), 300);
        std::thread::spawn(move || unsafe { HEAP.dealloc(grown as *mut u8, block(300)) })
            .join()
            .expect("the thread ran");
        assert_eq!(HEAP.live(), 0);
        assert_eq!(HEAP.peak(), 0, "no peak kept unless asked");
    }

    #[test]
    fn the_peak_is_the_most_live_at_once() {
        static HEAP: Counting<System> = Counting::with_peak(System);
        let (a, b) = (block(1000), block(24));
        unsafe {
            let first = HEAP.alloc(a);
            let second = HEAP.alloc_zeroed(b);
            HEAP.dealloc(first, a);
            assert_eq!((HEAP.live(), HEAP.peak()), (24, 1024));
            HEAP.reset_peak();
            assert_eq!(HEAP.peak(), 24);
            HEAP.dealloc(second, b);
        }
        assert_eq!((HEAP.live(), HEAP.peak()), (0, 24));
    }
}
