// Writes a program built in test code (the residual block stack of tests/support) as a .pt2, for the
// package check of `scripts/irlens-dev package`: the unpacked package's irlens-cli reads it with `info`.
// A helper of the checks, not a test and never installed.
#include "core/io/pt2_writer.h"
#include "support/synthetic_program.h"

#include <cstdio>

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: irlens_make_program OUT.pt2\n");
        return 2;
    }
    auto program = irlens::testing::makeBlockStack(3);
    if (auto s = irlens::core::savePt2(*program, argv[1]); !s) {
        std::fprintf(stderr, "irlens_make_program: %s\n", s.message().c_str());
        return 1;
    }
    return 0;
}
