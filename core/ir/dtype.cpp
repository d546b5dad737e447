#include "core/ir/dtype.h"

#include <array>

namespace irlens::core {
namespace {

struct DtypeInfo {
    ScalarType type;
    int size;
    const char* name;
    const char* shortName;
};

constexpr std::array<DtypeInfo, 22> kDtypes{{
    {ScalarType::UInt8, 1, "uint8", "u8"},
    {ScalarType::Int8, 1, "int8", "i8"},
    {ScalarType::Int16, 2, "int16", "i16"},
    {ScalarType::Int32, 4, "int32", "i32"},
    {ScalarType::Int64, 8, "int64", "i64"},
    {ScalarType::Float16, 2, "float16", "f16"},
    {ScalarType::Float32, 4, "float32", "f32"},
    {ScalarType::Float64, 8, "float64", "f64"},
    {ScalarType::ComplexHalf, 4, "complex32", "c32"},
    {ScalarType::Complex64, 8, "complex64", "c64"},
    {ScalarType::Complex128, 16, "complex128", "c128"},
    {ScalarType::Bool, 1, "bool", "b8"},
    {ScalarType::BFloat16, 2, "bfloat16", "bf16"},
    {ScalarType::UInt16, 2, "uint16", "u16"},
    {ScalarType::Float8_e4m3fn, 1, "float8_e4m3fn", "f8e4m3fn"},
    {ScalarType::Float8_e5m2, 1, "float8_e5m2", "f8e5m2"},
    {ScalarType::Float8_e4m3fnuz, 1, "float8_e4m3fnuz", "f8e4m3fnuz"},
    {ScalarType::Float8_e5m2fnuz, 1, "float8_e5m2fnuz", "f8e5m2fnuz"},
    {ScalarType::Float8_e8m0fnu, 1, "float8_e8m0fnu", "f8e8m0fnu"},
    {ScalarType::UInt32, 4, "uint32", "u32"},
    {ScalarType::UInt64, 8, "uint64", "u64"},
    {ScalarType::Unknown, 0, "unknown", "?"},
}};

const DtypeInfo* find(ScalarType t) {
    for (const auto& d : kDtypes)
        if (d.type == t) return &d;
    return nullptr;
}

} // namespace

int elementSize(ScalarType t) {
    const auto* d = find(t);
    return d ? d->size : 0;
}

std::string dtypeName(ScalarType t) {
    const auto* d = find(t);
    return d ? d->name : "dtype(" + std::to_string(static_cast<int>(t)) + ")";
}

std::string dtypeShortName(ScalarType t) {
    const auto* d = find(t);
    return d ? d->shortName : "dtype" + std::to_string(static_cast<int>(t));
}

std::optional<ScalarType> dtypeFromName(std::string_view name) {
    if (name.substr(0, 6) == "torch.") name.remove_prefix(6);
    for (const auto& d : kDtypes)
        if (name == d.name && d.type != ScalarType::Unknown) return d.type;
    struct Alias { const char* name; ScalarType type; };
    static constexpr Alias aliases[] = {
        {"float", ScalarType::Float32}, {"double", ScalarType::Float64}, {"half", ScalarType::Float16},
        {"long", ScalarType::Int64},    {"int", ScalarType::Int32},      {"short", ScalarType::Int16},
        {"cfloat", ScalarType::Complex64}, {"cdouble", ScalarType::Complex128}, {"chalf", ScalarType::ComplexHalf},
    };
    for (const auto& a : aliases)
        if (name == a.name) return a.type;
    return std::nullopt;
}

bool isFloatingType(ScalarType t) {
    switch (t) {
    case ScalarType::Float16: case ScalarType::Float32: case ScalarType::Float64: case ScalarType::BFloat16:
    case ScalarType::Float8_e4m3fn: case ScalarType::Float8_e5m2: case ScalarType::Float8_e4m3fnuz:
    case ScalarType::Float8_e5m2fnuz: case ScalarType::Float8_e8m0fnu:
        return true;
    default:
        return false;
    }
}

bool isIntegralType(ScalarType t, bool includeBool) {
    switch (t) {
    case ScalarType::UInt8: case ScalarType::Int8: case ScalarType::Int16: case ScalarType::Int32:
    case ScalarType::Int64: case ScalarType::UInt16: case ScalarType::UInt32: case ScalarType::UInt64:
        return true;
    case ScalarType::Bool:
        return includeBool;
    default:
        return false;
    }
}

bool isComplexType(ScalarType t) {
    return t == ScalarType::ComplexHalf || t == ScalarType::Complex64 || t == ScalarType::Complex128;
}

std::string layoutName(int layout) {
    static const char* names[] = {"unknown", "torch.sparse_coo", "torch.sparse_csr", "torch.sparse_csc",
                                  "torch.sparse_bsr", "torch.sparse_bsc", "torch._mkldnn", "torch.strided"};
    if (layout >= 0 && layout < 8) return names[layout];
    return "layout(" + std::to_string(layout) + ")";
}

std::string memoryFormatName(int format) {
    static const char* names[] = {"unknown", "torch.contiguous_format", "torch.channels_last",
                                  "torch.channels_last_3d", "torch.preserve_format"};
    if (format >= 0 && format < 5) return names[format];
    return "memory_format(" + std::to_string(format) + ")";
}

} // namespace irlens::core
