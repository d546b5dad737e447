#pragma once
// Whole-process allocator setting for the executables: call first thing in main().

#ifdef IRLENS_WITH_MIMALLOC
#include <mimalloc.h>
#endif

namespace irlens::core {

/// Asks mimalloc (when the build links it) to back its memory with 2 MiB pages where the kernel
/// gives them (transparent huge pages on "always" or "madvise"; elsewhere a no-op). Opening the
/// 100,000-node program allocates about 600 MB; faulted in 4 KiB at a time that is 0.3 s of its
/// 1.1 s load (`irlens-cli info`: 1.11-1.17 s without them, 0.77-0.94 s with them; a first run after other
/// processes freed much memory can take 1.3 s while the kernel compacts it into 2 MiB pages).
///
/// Memory freed stays mapped for a second instead of mimalloc's 25 ms: the engine frees a run's
/// tensors at its end and allocates them again in the next, and with the short delay part of them was
/// handed back to the system in between and faulted in again on first touch (mobilenet_v2 repeated
/// at one thread: 17 page faults per run, none with the longer delay).
inline void preferLargePages() {
#ifdef IRLENS_WITH_MIMALLOC
    mi_option_enable(mi_option_large_os_pages);
    mi_option_set(mi_option_decommit_delay, 1000);
#endif
}

} // namespace irlens::core
