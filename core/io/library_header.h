#pragma once
// What a compiled library in a package was built for, from its header alone: ELF (Linux) or Mach-O
// (macOS), word size and machine, and for ELF the compiler's `.comment` note. Every offset is checked
// against the buffer; nothing is mapped, relocated or loaded.

#include <cstddef>
#include <string>

namespace irlens::core {

/// "ELF 64-bit x86-64 shared object, GCC: (GNU) 14.2.1 20240910", "Mach-O 64-bit arm64 shared library",
/// or "not an ELF or Mach-O file".
std::string describeLibraryHeader(const std::byte* data, size_t size);

} // namespace irlens::core
