#pragma once
// Writes `torch.save` files: a ZIP with <root>/data.pkl (a protocol-2 pickle whose tensors are
// `torch._utils._rebuild_tensor_v2` calls on persistent-id storages) and one <root>/data/<key> record per
// storage — what torch.load reads, and what the archive's data/sample_inputs/<m>.pt holds.

#include "core/ir/program.h"
#include "core/ir/status.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace irlens::core {

/// Protocol-2 pickle opcodes, appended to a byte string. No memo is written (BINPUT is optional).
class PickleWriter {
public:
    PickleWriter();                      // writes PROTO 2
    void global(std::string_view module, std::string_view name);
    void mark();
    void tuple();                        // MARK ... TUPLE
    void tuple(size_t n);                // n = 0..3: EMPTY_TUPLE / TUPLE1-3
    void emptyList();
    void appends();                      // MARK ... APPENDS
    void emptyDict();
    void setitems();                     // MARK ... SETITEMS
    void none();
    void boolean(bool b);
    void integer(int64_t v);
    void floating(double v);
    void string(std::string_view s);
    void reduce();
    void persistentId();                 // BINPERSID (the id object is on the stack)
    std::string finish();                // STOP and the bytes

private:
    std::string m_out;
};

/// torch.save of `(tuple(args), kwargs)`. Tensors sharing a storage share a data/<key> record.
/// `root` is the folder every record sits under ("archive" for buffers torch.export writes).
/// Fails for values it cannot represent (opaque objects).
Result<std::string> torchSaveSampleInputs(const std::vector<Value>& args, const std::map<std::string, Value>& kwargs,
                                          const std::string& root = "archive");

} // namespace irlens::core
