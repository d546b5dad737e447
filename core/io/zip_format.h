#pragma once
// ZIP record signatures and fixed sizes (PKWARE APPNOTE), shared by the reader and the writer.

#include <cstdint>

namespace irlens::core::zipfmt {

constexpr uint32_t kLocalHeaderSig = 0x04034b50;
constexpr uint32_t kCentralSig = 0x02014b50;
constexpr uint32_t kEndSig = 0x06054b50;
constexpr uint32_t kZip64EndSig = 0x06064b50;
constexpr uint32_t kZip64LocatorSig = 0x07064b50;
constexpr uint64_t kLocalSize = 30;   // local file header without name and extra field
constexpr uint64_t kCentralSize = 46; // central directory header without name, extra and comment
constexpr uint64_t kEndSize = 22;     // end of central directory record without comment

} // namespace irlens::core::zipfmt
