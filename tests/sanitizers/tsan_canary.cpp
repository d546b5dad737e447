// A deliberate data race in code run by TBB workers, built only in the tsan preset. Its test passes
// when ThreadSanitizer reports the race with a frame in this file: proof that the tsan setup (the
// suppressions in tsan.supp, the TSan-built libtbb) still catches a race the way one in a kernel
// would look, rather than passing because nothing is checked.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <cstdio>

namespace {

long g_sum = 0; // written by every chunk without synchronisation: the race

void racyAccumulate(const tbb::blocked_range<int>& r) {
    for (int i = r.begin(); i != r.end(); ++i) g_sum += i;
}

} // namespace

int main() {
    tbb::task_arena arena(2);
    arena.execute([] {
        for (int round = 0; round < 50; ++round)
            tbb::parallel_for(tbb::blocked_range<int>(0, 1 << 16, 256),
                              [](const tbb::blocked_range<int>& r) { racyAccumulate(r); });
    });
    std::printf("sum %ld\n", g_sum);
    return 0;
}
