#include "core/io/library_header.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace irlens::core {

namespace {

struct Bytes {
    const std::byte* data;
    size_t size;
    bool little;

    bool has(uint64_t offset, uint64_t n) const { return offset <= size && n <= size - offset; }
    uint64_t get(uint64_t offset, int n) const { // caller checked has(offset, n)
        uint64_t v = 0;
        for (int k = 0; k < n; ++k) {
            const uint64_t b = uint64_t(std::to_integer<uint8_t>(data[offset + uint64_t(k)]));
            v |= little ? b << (8 * k) : b << (8 * (n - 1 - k));
        }
        return v;
    }
};

const char* elfMachine(uint64_t m) {
    switch (m) {
    case 0x03: return "x86";
    case 0x28: return "arm";
    case 0x3E: return "x86-64";
    case 0xB7: return "aarch64";
    case 0x14: return "powerpc";
    case 0x15: return "powerpc64";
    case 0x16: return "s390";
    case 0xF3: return "riscv";
    default: return nullptr;
    }
}

const char* elfType(uint64_t t) {
    switch (t) {
    case 1: return "relocatable object";
    case 2: return "executable";
    case 3: return "shared object";
    default: return "file";
    }
}

// The `.comment` section's first string ("GCC: (GNU) 14.2.1 20240910"), or "".
std::string elfComment(const Bytes& b, bool is64) {
    const uint64_t shoff = is64 ? b.get(0x28, 8) : b.get(0x20, 4);
    const uint64_t shentsize = b.get(is64 ? 0x3A : 0x2E, 2);
    const uint64_t shnum = b.get(is64 ? 0x3C : 0x30, 2);
    const uint64_t shstrndx = b.get(is64 ? 0x3E : 0x32, 2);
    const uint64_t need = is64 ? 0x40 : 0x28;
    if (shentsize < need || shnum == 0 || shnum > 4096 || shstrndx >= shnum || !b.has(shoff, shnum * shentsize)) return {};
    auto section = [&](uint64_t i, uint64_t& offset, uint64_t& size) {
        const uint64_t h = shoff + i * shentsize;
        offset = is64 ? b.get(h + 0x18, 8) : b.get(h + 0x10, 4);
        size = is64 ? b.get(h + 0x20, 8) : b.get(h + 0x14, 4);
        return b.has(offset, size);
    };
    uint64_t namesAt = 0, namesSize = 0;
    if (!section(shstrndx, namesAt, namesSize)) return {};
    for (uint64_t i = 0; i < shnum; ++i) {
        const uint64_t nameOffset = b.get(shoff + i * shentsize, 4);
        const std::string_view want = ".comment";
        if (nameOffset + want.size() + 1 > namesSize) continue;
        if (std::memcmp(b.data + namesAt + nameOffset, want.data(), want.size() + 1) != 0) continue;
        uint64_t at = 0, size = 0;
        if (!section(i, at, size) || size == 0) return {};
        const char* text = reinterpret_cast<const char*>(b.data + at);
        std::string s(text, strnlen(text, size_t(std::min<uint64_t>(size, 200))));
        for (char& c : s)
            if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7E) c = '?';
        return s;
    }
    return {};
}

std::string describeElf(const std::byte* data, size_t size) {
    if (size < 0x34) return "ELF file (truncated header)";
    const auto cls = std::to_integer<uint8_t>(data[4]);
    const auto order = std::to_integer<uint8_t>(data[5]);
    if ((cls != 1 && cls != 2) || (order != 1 && order != 2)) return "ELF file (unknown class or byte order)";
    const bool is64 = cls == 2;
    Bytes b{data, size, order == 1};
    if (is64 && size < 0x40) return "ELF file (truncated header)";
    const uint64_t machine = b.get(18, 2);
    const char* m = elfMachine(machine);
    std::string s = std::string("ELF ") + (is64 ? "64" : "32") + "-bit " +
                    (m ? m : "machine " + std::to_string(machine)) + " " + elfType(b.get(16, 2));
    if (std::string comment = elfComment(b, is64); !comment.empty()) s += ", " + comment;
    return s;
}

std::string describeMachO(const std::byte* data, size_t size, bool is64, bool little) {
    Bytes b{data, size, little};
    if (!b.has(0, 16)) return "Mach-O file (truncated header)";
    const uint64_t cpu = b.get(4, 4);
    const char* arch = cpu == 0x0100000C ? "arm64" : cpu == 0x01000007 ? "x86-64" : cpu == 7 ? "x86" : cpu == 12 ? "arm" : nullptr;
    const uint64_t type = b.get(12, 4);
    const char* kind = type == 6 ? "shared library" : type == 8 ? "bundle" : type == 1 ? "object" : type == 2 ? "executable" : "file";
    return std::string("Mach-O ") + (is64 ? "64" : "32") + "-bit " + (arch ? arch : "cpu " + std::to_string(cpu)) + " " +
           kind + " (built on macOS)";
}

} // namespace

std::string describeLibraryHeader(const std::byte* data, size_t size) {
    if (size >= 4 && std::memcmp(data, "\x7f" "ELF", 4) == 0) return describeElf(data, size);
    if (size >= 4) {
        const uint32_t le = uint32_t(std::to_integer<uint8_t>(data[0])) | uint32_t(std::to_integer<uint8_t>(data[1])) << 8 |
                            uint32_t(std::to_integer<uint8_t>(data[2])) << 16 | uint32_t(std::to_integer<uint8_t>(data[3])) << 24;
        if (le == 0xFEEDFACF || le == 0xFEEDFACE) return describeMachO(data, size, le == 0xFEEDFACF, true);
        if (le == 0xCFFAEDFE || le == 0xCEFAEDFE) return describeMachO(data, size, le == 0xCFFAEDFE, false);
        if (le == 0xBEBAFECA) return "Mach-O universal binary (built on macOS)";
    }
    return "not an ELF or Mach-O file";
}

} // namespace irlens::core
