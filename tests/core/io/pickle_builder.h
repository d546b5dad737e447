#pragma once
// Writes pickle opcodes by hand, the way torch.save (protocol 2) lays them out, so tests can build
// both ordinary payloads and hostile ones byte by byte, and know the offset of every opcode.

#include "zip_builder.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace irlens::testing {

class PickleBuilder {
public:
    explicit PickleBuilder(int protocol = 2) { op(0x80); byte(protocol); }

    size_t size() const { return m_s.size(); }
    const std::string& bytes() const { return m_s; }

    PickleBuilder& global(const std::string& module, const std::string& name) { op('c'); m_s += module + "\n" + name + "\n"; return *this; }
    PickleBuilder& str(const std::string& v) { op('X'); u32(uint32_t(v.size())); m_s += v; return *this; }
    PickleBuilder& shortStr(const std::string& v) { op(0x8c); byte(int(v.size())); m_s += v; return *this; }
    PickleBuilder& shortBytes(const std::string& v) { op('C'); byte(int(v.size())); m_s += v; return *this; }
    PickleBuilder& integer(int64_t v) {
        if (v >= 0 && v < 256) { op('K'); byte(int(v)); }
        else if (v >= 0 && v < 65536) { op('M'); byte(int(v & 0xFF)); byte(int(v >> 8)); }
        else if (v >= INT32_MIN && v <= INT32_MAX) { op('J'); u32(uint32_t(int32_t(v))); }
        else { op(0x8a); byte(8); for (int k = 0; k < 8; ++k) byte(int((uint64_t(v) >> (8 * k)) & 0xFF)); }
        return *this;
    }
    PickleBuilder& long1(const std::string& littleEndian) { op(0x8a); byte(int(littleEndian.size())); m_s += littleEndian; return *this; }
    PickleBuilder& boolean(bool v) { op(v ? 0x88 : 0x89); return *this; }
    PickleBuilder& none() { op('N'); return *this; }
    PickleBuilder& mark() { op('('); return *this; }
    PickleBuilder& tuple() { op('t'); return *this; }
    PickleBuilder& tuple1() { op(0x85); return *this; }
    PickleBuilder& tuple2() { op(0x86); return *this; }
    PickleBuilder& tuple3() { op(0x87); return *this; }
    PickleBuilder& emptyTuple() { op(')'); return *this; }
    PickleBuilder& emptyList() { op(']'); return *this; }
    PickleBuilder& emptyDict() { op('}'); return *this; }
    PickleBuilder& append() { op('a'); return *this; }
    PickleBuilder& appends() { op('e'); return *this; }
    PickleBuilder& setitem() { op('s'); return *this; }
    PickleBuilder& setitems() { op('u'); return *this; }
    PickleBuilder& reduce() { op('R'); return *this; }
    PickleBuilder& build() { op('b'); return *this; }
    PickleBuilder& binpersid() { op('Q'); return *this; }
    PickleBuilder& put(int i) { op('q'); byte(i); return *this; }
    PickleBuilder& get(int i) { op('h'); byte(i); return *this; }
    PickleBuilder& memoize() { op(0x94); return *this; }
    PickleBuilder& stackGlobal() { op(0x93); return *this; }
    PickleBuilder& frame(uint64_t n) { op(0x95); for (int k = 0; k < 8; ++k) byte(int((n >> (8 * k)) & 0xFF)); return *this; }
    PickleBuilder& stop() { op('.'); return *this; }
    PickleBuilder& raw(const std::string& s) { m_s += s; return *this; }

    /// torch._utils._rebuild_tensor_v2(storage pid, offset, size, stride, False, OrderedDict()).
    PickleBuilder& tensor(const std::string& storageClass, const std::string& key, int64_t count, int64_t offset,
                          const std::vector<int64_t>& sizes, const std::vector<int64_t>& strides) {
        global("torch._utils", "_rebuild_tensor_v2");
        mark();
        mark().str("storage").global("torch", storageClass).str(key).str("cpu").integer(count).tuple().binpersid();
        integer(offset);
        mark(); for (auto s : sizes) integer(s); tuple();
        mark(); for (auto s : strides) integer(s); tuple();
        boolean(false);
        global("collections", "OrderedDict").emptyTuple().reduce();
        tuple();
        return reduce();
    }

private:
    void op(int c) { m_s.push_back(char(c)); }
    void byte(int c) { m_s.push_back(char(c)); }
    void u32(uint32_t v) { for (int k = 0; k < 4; ++k) byte(int((v >> (8 * k)) & 0xFF)); }
    std::string m_s;
};

/// A torch.save archive (root "archive/", PyTorchFileWriter style) holding `pickle` and storages.
inline std::string torchSaveZip(const std::string& pickle, const std::map<std::string, std::string>& storages,
                                const std::string& byteorder = "little") {
    ZipBuilder z;
    z.add(ZipItem{"archive/data.pkl", pickle, false, true, false, 64});
    z.add(ZipItem{"archive/byteorder", byteorder, false, true, false, 64});
    for (const auto& [key, bytes] : storages) z.add(ZipItem{"archive/data/" + key, bytes, false, true, false, 64});
    z.add(ZipItem{"archive/version", "3\n", false, true, false, 64});
    return z.build();
}

/// Little-endian float32 bytes.
inline std::string f32Bytes(const std::vector<float>& v) {
    return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(float));
}

} // namespace irlens::testing
