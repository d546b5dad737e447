#pragma once
// Scalar types use the export serialization numbering (torch/_export/serde/schema.py), not c10's.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace irlens::core {

enum class ScalarType : int {
    Unknown = 0,
    UInt8 = 1,
    Int8 = 2,
    Int16 = 3,
    Int32 = 4,
    Int64 = 5,
    Float16 = 6,
    Float32 = 7,
    Float64 = 8,
    ComplexHalf = 9,
    Complex64 = 10,
    Complex128 = 11,
    Bool = 12,
    BFloat16 = 13,
    UInt16 = 28,
    Float8_e4m3fn = 29,
    Float8_e5m2 = 30,
    Float8_e4m3fnuz = 31,
    Float8_e5m2fnuz = 32,
    Float8_e8m0fnu = 33,
    UInt32 = 34,
    UInt64 = 35,
};

/// Bytes per element; 0 for Unknown or codes this build does not know.
int elementSize(ScalarType t);
/// torch name: "float32", "int64", "bool", ... ; "dtype(<code>)" for unknown codes.
std::string dtypeName(ScalarType t);
/// The short form used on edges and in FX text: "f32", "i64", "b8", "bf16", ...
std::string dtypeShortName(ScalarType t);
/// Parses "float32", "torch.float32", "float", "long", ... ; nullopt when unknown.
std::optional<ScalarType> dtypeFromName(std::string_view name);
bool isFloatingType(ScalarType t);
bool isIntegralType(ScalarType t, bool includeBool);
bool isComplexType(ScalarType t);

enum class Layout : int { Unknown = 0, SparseCoo = 1, SparseCsr = 2, SparseCsc = 3, SparseBsr = 4, SparseBsc = 5, Mkldnn = 6, Strided = 7 };
enum class MemoryFormat : int { Unknown = 0, Contiguous = 1, ChannelsLast = 2, ChannelsLast3d = 3, Preserve = 4 };

std::string layoutName(int layout);        // "torch.strided", ...
std::string memoryFormatName(int format);  // "torch.contiguous_format", ...

} // namespace irlens::core
