//! A global allocator wrapper that counts the bytes live on the heap and their peak.
//! Resident memory cannot show what a server holds: allocators keep freed memory (glibc
//! keeps Argon2's 19 MiB work areas and any large buffer in its arenas once its dynamic
//! mmap threshold has risen), so the load benchmark reports live heap per match and the
//! misbehaviour matrix bounds the peak of live heap.
//!
//! ```ignore
//! #[global_allocator]
//! static HEAP: Counting<std::alloc::System> = Counting::new(std::alloc::System);
//! ```

use std::alloc::{GlobalAlloc, Layout};
use std::sync::atomic::{AtomicUsize, Ordering};

/// `inner`, counting live heap bytes (requested sizes) and the highest count seen.
pub struct Counting<A> {
    inner: A,
    live: AtomicUsize,
    peak: AtomicUsize,
}

impl<A> Counting<A> {
    pub const fn new(inner: A) -> Counting<A> {
        Counting {
            inner,
            live: AtomicUsize::new(0),
            peak: AtomicUsize::new(0),
        }
    }

    /// Bytes allocated and not yet freed.
    pub fn live(&self) -> usize {
        self.live.load(Ordering::Relaxed)
    }

    /// The most bytes live at once since the start (or the last [`Self::reset_peak`]).
    pub fn peak(&self) -> usize {
        self.peak.load(Ordering::Relaxed)
    }

    /// Start the peak again from what is live now.
    pub fn reset_peak(&self) {
        self.peak.store(self.live(), Ordering::Relaxed);
    }

    fn grew(&self, bytes: usize) {
        let live = self.live.fetch_add(bytes, Ordering::Relaxed) + bytes;
        self.peak.fetch_max(live, Ordering::Relaxed);
    }

    fn shrank(&self, bytes: usize) {
        self.live.fetch_sub(bytes, Ordering::Relaxed);
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
