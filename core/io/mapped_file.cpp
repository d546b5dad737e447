#include "core/io/mapped_file.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace irlens::core {
namespace {

struct Mapping {
    void* addr = nullptr;
    size_t size = 0;
    Mapping() = default;
    Mapping(const Mapping&) = delete;
    Mapping& operator=(const Mapping&) = delete;
    ~Mapping() {
        if (addr && size) ::munmap(addr, size);
    }
};

} // namespace

Result<std::shared_ptr<const Storage>> mapFile(const std::string& path, int* keepFd) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return Status::error("cannot open '" + path + "': " + std::strerror(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        return Status::error("cannot open '" + path + "': not a regular file");
    }
    auto mapping = std::make_shared<Mapping>();
    mapping->size = static_cast<size_t>(st.st_size);
    if (mapping->size > 0) {
        void* addr = ::mmap(nullptr, mapping->size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (addr == MAP_FAILED) {
            const int e = errno;
            ::close(fd);
            return Status::error("cannot map '" + path + "': " + std::strerror(e));
        }
        mapping->addr = addr;
    }
    if (keepFd) *keepFd = fd;
    else ::close(fd);
    auto storage = std::make_shared<Storage>();
    storage->data = static_cast<const std::byte*>(mapping->addr);
    storage->size = mapping->size;
    storage->owner = std::move(mapping);
    return std::shared_ptr<const Storage>(std::move(storage));
}

} // namespace irlens::core
