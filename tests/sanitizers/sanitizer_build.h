// Is this test executable built with a sanitizer (the asan or tsan preset, or the fuzz build)?
// Speed comparisons and latency limits measure the sanitizer there, not irlens: such checks skip
// themselves with IRLENS_SKIP_IF_SANITIZED, everything else in the test still runs.
#pragma once

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define IRLENS_SANITIZED_BUILD 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define IRLENS_SANITIZED_BUILD 1
#endif
#endif
#ifndef IRLENS_SANITIZED_BUILD
#define IRLENS_SANITIZED_BUILD 0
#endif

// Inside a Qt Test function: skip the rest of it in a sanitizer build, saying why.
#define IRLENS_SKIP_IF_SANITIZED(what)                                                   \
    do {                                                                                 \
        if (IRLENS_SANITIZED_BUILD) QSKIP(what ": timing is meaningless in a sanitizer build"); \
    } while (false)
