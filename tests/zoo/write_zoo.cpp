// irlens_write_zoo DIR: writes every zoo program as DIR/<name>/model.pt2 (the input of make_references.py).
#include "support/zoo_files.h"

#include <cstdio>

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: irlens_write_zoo DIR\n");
        return 2;
    }
    auto written = irlens::testing::writeZooPrograms(argv[1]);
    if (!written.isOk()) {
        std::fprintf(stderr, "irlens_write_zoo: %s\n", written.message().c_str());
        return 1;
    }
    for (const auto& name : irlens::testing::zooNames()) std::printf("%s/%s/model.pt2\n", argv[1], name.c_str());
    return 0;
}
