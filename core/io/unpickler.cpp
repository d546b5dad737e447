#include "core/io/unpickler.h"

#include "core/io/payload_config.h"

#include <bit>
#include <cstring>
#include <map>
#include <unordered_map>
#include <unordered_set>

namespace irlens::core {

namespace {

using K = PyObject::Kind;

// What a whitelisted global does when called. Everything not listed here never becomes a PyObject.
enum class Callable : int {
    None, OrderedDict, RebuildV2, RebuildV3, RebuildParameter, RebuildParameterWithState, CodecsEncode,
    FakeTensor, TorchSize, StorageClass, UntypedStorage, Dtype
};

struct GlobalInfo {
    Callable callable = Callable::None;
    ScalarType dtype = ScalarType::Unknown;
    std::string refusal; // non-empty: known but unsupported, with the reason
};

std::optional<ScalarType> storageDtype(const std::string& cls) {
    static const std::map<std::string, ScalarType> table = {
        {"DoubleStorage", ScalarType::Float64}, {"FloatStorage", ScalarType::Float32},
        {"HalfStorage", ScalarType::Float16}, {"BFloat16Storage", ScalarType::BFloat16},
        {"LongStorage", ScalarType::Int64}, {"IntStorage", ScalarType::Int32},
        {"ShortStorage", ScalarType::Int16}, {"CharStorage", ScalarType::Int8},
        {"ByteStorage", ScalarType::UInt8}, {"BoolStorage", ScalarType::Bool},
        {"ComplexFloatStorage", ScalarType::Complex64}, {"ComplexDoubleStorage", ScalarType::Complex128},
        {"ComplexHalfStorage", ScalarType::ComplexHalf}, {"QInt8Storage", ScalarType::Int8},
        {"QUInt8Storage", ScalarType::UInt8}, {"QInt32Storage", ScalarType::Int32},
        {"QUInt4x2Storage", ScalarType::UInt8}, {"QUInt2x4Storage", ScalarType::UInt8},
        {"UInt16Storage", ScalarType::UInt16}, {"UInt32Storage", ScalarType::UInt32},
        {"UInt64Storage", ScalarType::UInt64},
    };
    auto it = table.find(cls);
    if (it == table.end()) return std::nullopt;
    return it->second;
}

GlobalInfo classifyGlobal(const std::string& module, const std::string& name) {
    GlobalInfo g;
    if (module == "collections" && name == "OrderedDict") g.callable = Callable::OrderedDict;
    else if (module == "torch._utils" && name == "_rebuild_tensor_v2") g.callable = Callable::RebuildV2;
    else if (module == "torch._utils" && name == "_rebuild_tensor_v3") g.callable = Callable::RebuildV3;
    else if (module == "torch._utils" && name == "_rebuild_parameter") g.callable = Callable::RebuildParameter;
    else if (module == "torch._utils" && name == "_rebuild_parameter_with_state") g.callable = Callable::RebuildParameterWithState;
    else if (module == "_codecs" && name == "encode") g.callable = Callable::CodecsEncode;
    else if (module == "torch._export.serde.serialize" && name == "_reconstruct_fake_tensor") g.callable = Callable::FakeTensor;
    else if (module == "torch" && name == "Size") g.callable = Callable::TorchSize;
    else if ((module == "torch" || module == "torch.storage") && name == "UntypedStorage") g.callable = Callable::UntypedStorage;
    else if (module == "torch" && storageDtype(name)) { g.callable = Callable::StorageClass; g.dtype = *storageDtype(name); }
    else if (module == "torch" && dtypeFromName(name) && name.find("Storage") == std::string::npos && name != "Tensor") {
        g.callable = Callable::Dtype;
        g.dtype = *dtypeFromName(name);
    } else if ((module == "torch._tensor" && name == "_rebuild_from_type_v2") ||
               (module == "torch._utils" && (name == "_rebuild_wrapper_subclass" || name == "_rebuild_qtensor" ||
                                             name == "_rebuild_sparse_tensor" || name == "_rebuild_nested_tensor" ||
                                             name == "_rebuild_mkldnn_tensor" || name == "_rebuild_meta_tensor_no_storage" ||
                                             name == "_rebuild_device_tensor_from_numpy" || name == "_rebuild_xla_tensor"))) {
        g.refusal = "tensor subclasses and non-strided tensors are not supported";
    }
    return g;
}

double readDoubleBE(const std::byte* p) {
    uint64_t v = 0;
    for (int k = 0; k < 8; ++k) v = v << 8 | uint8_t(p[k]);
    return std::bit_cast<double>(v);
}

// Python's str.encode('latin1') inverse: the UTF-8 text a pickle stores for `bytes` maps code points
// 0..255 back to bytes.
bool latin1FromUtf8(const std::string& in, std::string& out) {
    out.clear();
    for (size_t k = 0; k < in.size();) {
        uint8_t c = uint8_t(in[k]);
        if (c < 0x80) { out.push_back(char(c)); ++k; }
        else if ((c & 0xE0) == 0xC0 && k + 1 < in.size()) {
            uint32_t cp = (c & 0x1F) << 6 | (uint8_t(in[k + 1]) & 0x3F);
            if (cp > 0xFF) return false;
            out.push_back(char(cp));
            k += 2;
        } else return false;
    }
    return true;
}

class Machine {
public:
    Machine(const std::byte* data, size_t size, const std::string& name, const StorageLoader& loader, const PickleLimits& lim)
        : m_data(data), m_size(size), m_name(name), m_loader(loader), m_lim(lim) {}

    Result<PyRef> run();

private:
    Status fail(const std::string& what) const { return Status::error(m_name + ": " + what + " at byte " + std::to_string(m_op)); }
    bool need(uint64_t n) const { return n <= m_size - m_pos; }
    Status push(PyRef v) {
        if (m_stack.size() >= m_lim.maxStack) return fail("stack grows past " + std::to_string(m_lim.maxStack) + " values");
        m_stack.push_back(std::move(v));
        return Status::ok();
    }
    Result<PyRef> pop() {
        if (m_stack.size() <= (m_marks.empty() ? 0 : m_marks.back())) return fail("stack underflow");
        PyRef v = std::move(m_stack.back());
        m_stack.pop_back();
        return v;
    }
    Result<std::vector<PyRef>> popMark() {
        if (m_marks.empty()) return fail("no MARK to pop to");
        size_t m = m_marks.back();
        m_marks.pop_back();
        std::vector<PyRef> out(std::make_move_iterator(m_stack.begin() + m), std::make_move_iterator(m_stack.end()));
        m_stack.resize(m);
        return out;
    }
    Status top(PyRef*& out) {
        if (m_stack.size() <= (m_marks.empty() ? 0 : m_marks.back())) return fail("stack underflow");
        out = &m_stack.back();
        return Status::ok();
    }
    Result<PyRef> makeContainer(K kind, std::vector<PyRef> items) {
        auto o = std::make_shared<PyObject>();
        o->kind = kind;
        for (const auto& it : items) o->depth = std::max(o->depth, it->depth + 1);
        if (o->depth > m_lim.maxDepth) return fail("nesting deeper than " + std::to_string(m_lim.maxDepth));
        o->items = std::move(items);
        return o;
    }
    Status addChild(PyObject& container, const PyRef& child);
    Status setItems(PyObject& dict, std::vector<PyRef>& kv);
    Result<std::string> readString(uint64_t len);
    Result<uint64_t> readUInt(int bytes);
    Result<PyRef> makeGlobal(const std::string& module, const std::string& name);
    Result<PyRef> call(const PyObject& callable, const PyObject& args);
    Result<PyRef> persistentLoad(const PyObject& pid);
    Result<PyRef> rebuildTensor(const std::vector<PyRef>& a, bool v3);

    const std::byte* m_data;
    size_t m_size;
    size_t m_pos = 0;
    size_t m_op = 0;
    const std::string& m_name;
    const StorageLoader& m_loader;
    const PickleLimits& m_lim;
    std::vector<PyRef> m_stack;
    std::vector<size_t> m_marks;
    std::unordered_map<uint64_t, PyRef> m_memo;
    std::unordered_map<std::string, PyRef> m_storages;
};

Status Machine::addChild(PyObject& container, const PyRef& child) {
    if (child->isContainer()) {
        // Refuse cycles: the container must not be reachable from what is being put into it.
        std::vector<const PyObject*> todo{child.get()};
        std::unordered_set<const PyObject*> seen;
        while (!todo.empty()) {
            const PyObject* o = todo.back();
            todo.pop_back();
            if (o == &container) return fail("recursive structure (a container that contains itself)");
            if (!seen.insert(o).second) continue;
            for (const auto& c : o->items) if (c->isContainer()) todo.push_back(c.get());
            for (const auto& [k, v] : o->dict) {
                if (k->isContainer()) todo.push_back(k.get());
                if (v->isContainer()) todo.push_back(v.get());
            }
        }
        container.depth = std::max(container.depth, child->depth + 1);
        if (container.depth > m_lim.maxDepth) return fail("nesting deeper than " + std::to_string(m_lim.maxDepth));
    }
    return Status::ok();
}

Status Machine::setItems(PyObject& dict, std::vector<PyRef>& kv) {
    if (dict.kind != K::Dict) return fail(std::string("SETITEM(S) on a ") + dict.kindName() + ", expected a dict");
    if (kv.size() % 2) return fail("SETITEMS with an odd number of values");
    for (size_t k = 0; k < kv.size(); k += 2) {
        IRLENS_TRY(addChild(dict, kv[k]));
        IRLENS_TRY(addChild(dict, kv[k + 1]));
        dict.dict.emplace_back(kv[k], kv[k + 1]);
    }
    return Status::ok();
}

Result<std::string> Machine::readString(uint64_t len) {
    if (len > m_lim.maxString) return fail("string of " + std::to_string(len) + " bytes, more than the limit");
    if (!need(len)) return fail("truncated pickle (string runs past the end)");
    std::string s(reinterpret_cast<const char*>(m_data + m_pos), len);
    m_pos += len;
    return s;
}

Result<uint64_t> Machine::readUInt(int bytes) {
    if (!need(bytes)) return fail("truncated pickle");
    uint64_t v = 0;
    for (int k = bytes; k-- > 0;) v = v << 8 | uint8_t(m_data[m_pos + k]);
    m_pos += bytes;
    return v;
}

Result<PyRef> Machine::makeGlobal(const std::string& module, const std::string& name) {
    GlobalInfo g = classifyGlobal(module, name);
    std::string full = module + "." + name;
    if (g.callable == Callable::None)
        return fail("unsupported global '" + full + "'" + (g.refusal.empty() ? "" : " (" + g.refusal + ")"));
    auto o = std::make_shared<PyObject>();
    o->kind = g.callable == Callable::Dtype ? K::Dtype : K::Global;
    o->s = full;
    o->i = static_cast<int>(g.callable);
    o->dtype = g.dtype;
    return o;
}

Result<PyRef> Machine::run() {
    while (true) {
        m_op = m_pos;
        if (m_pos >= m_size) return fail("truncated pickle (no STOP opcode)");
        const uint8_t op = uint8_t(m_data[m_pos++]);
        switch (op) {
        case 0x80: { // PROTO
            auto v = readUInt(1);
            if (!v) return v.status();
            if (*v > 5) return fail("pickle protocol " + std::to_string(*v) + " is not supported");
            break;
        }
        case 0x95: { auto v = readUInt(8); if (!v) return v.status(); break; } // FRAME: a hint only
        case '.': { // STOP
            auto v = pop();
            if (!v) return v.status();
            return *v;
        }
        case 'c': { // GLOBAL "module\nname\n"
            std::string parts[2];
            for (auto& part : parts) {
                const void* nl = std::memchr(m_data + m_pos, '\n', std::min<size_t>(m_size - m_pos, 1024));
                if (!nl) return fail("malformed GLOBAL");
                size_t len = static_cast<const std::byte*>(nl) - (m_data + m_pos);
                part.assign(reinterpret_cast<const char*>(m_data + m_pos), len);
                m_pos += len + 1;
            }
            auto g = makeGlobal(parts[0], parts[1]);
            if (!g) return g.status();
            IRLENS_TRY(push(*g));
            break;
        }
        case 0x93: { // STACK_GLOBAL
            auto name = pop();
            if (!name) return name.status();
            auto module = pop();
            if (!module) return module.status();
            if ((*name)->kind != K::String || (*module)->kind != K::String) return fail("STACK_GLOBAL needs two strings");
            auto g = makeGlobal((*module)->s, (*name)->s);
            if (!g) return g.status();
            IRLENS_TRY(push(*g));
            break;
        }
        case 'q': case 'r': case 0x94: { // BINPUT, LONG_BINPUT, MEMOIZE
            uint64_t idx = m_memo.size();
            if (op != 0x94) {
                auto v = readUInt(op == 'q' ? 1 : 4);
                if (!v) return v.status();
                idx = *v;
            }
            PyRef* t = nullptr;
            IRLENS_TRY(top(t));
            if (m_memo.size() >= m_lim.maxMemo && !m_memo.count(idx))
                return fail("memo grows past " + std::to_string(m_lim.maxMemo) + " entries");
            m_memo[idx] = *t;
            break;
        }
        case 'h': case 'j': { // BINGET, LONG_BINGET
            auto v = readUInt(op == 'h' ? 1 : 4);
            if (!v) return v.status();
            auto it = m_memo.find(*v);
            if (it == m_memo.end()) return fail("memo entry " + std::to_string(*v) + " read before it was written");
            IRLENS_TRY(push(it->second));
            break;
        }
        case '(': // MARK
            if (m_marks.size() >= m_lim.maxDepth) return fail("MARKs nested deeper than " + std::to_string(m_lim.maxDepth));
            m_marks.push_back(m_stack.size());
            break;
        case '0': { auto v = pop(); if (!v) return v.status(); break; } // POP
        case '1': { auto v = popMark(); if (!v) return v.status(); break; } // POP_MARK
        case '2': { PyRef* t = nullptr; IRLENS_TRY(top(t)); IRLENS_TRY(push(*t)); break; } // DUP
        case ')': { auto t = makeContainer(K::Tuple, {}); IRLENS_TRY(push(*t)); break; }
        case 't': case 'l': { // TUPLE, LIST
            auto items = popMark();
            if (!items) return items.status();
            auto t = makeContainer(op == 't' ? K::Tuple : K::List, std::move(*items));
            if (!t) return t.status();
            IRLENS_TRY(push(*t));
            break;
        }
        case 0x85: case 0x86: case 0x87: { // TUPLE1..3
            std::vector<PyRef> items(op - 0x84);
            for (size_t k = items.size(); k-- > 0;) {
                auto v = pop();
                if (!v) return v.status();
                items[k] = *v;
            }
            auto t = makeContainer(K::Tuple, std::move(items));
            if (!t) return t.status();
            IRLENS_TRY(push(*t));
            break;
        }
        case ']': { auto t = makeContainer(K::List, {}); IRLENS_TRY(push(*t)); break; }
        case '}': { auto t = makeContainer(K::Dict, {}); IRLENS_TRY(push(*t)); break; }
        case 'a': case 'e': { // APPEND, APPENDS
            std::vector<PyRef> items;
            if (op == 'a') {
                auto v = pop();
                if (!v) return v.status();
                items.push_back(*v);
            } else {
                auto v = popMark();
                if (!v) return v.status();
                items = std::move(*v);
            }
            PyRef* list = nullptr;
            IRLENS_TRY(top(list));
            if ((*list)->kind != K::List) return fail(std::string("APPEND to a ") + (*list)->kindName() + ", expected a list");
            for (auto& it : items) {
                IRLENS_TRY(addChild(**list, it));
                (*list)->items.push_back(std::move(it));
            }
            break;
        }
        case 'd': { // DICT
            auto kv = popMark();
            if (!kv) return kv.status();
            auto d = makeContainer(K::Dict, {});
            IRLENS_TRY(setItems(**d, *kv));
            IRLENS_TRY(push(*d));
            break;
        }
        case 's': case 'u': { // SETITEM, SETITEMS
            std::vector<PyRef> kv;
            if (op == 's') {
                auto v = pop(); if (!v) return v.status();
                auto k = pop(); if (!k) return k.status();
                kv = {*k, *v};
            } else {
                auto v = popMark();
                if (!v) return v.status();
                kv = std::move(*v);
            }
            PyRef* d = nullptr;
            IRLENS_TRY(top(d));
            IRLENS_TRY(setItems(**d, kv));
            break;
        }
        case 'J': case 'K': case 'M': { // BININT, BININT1, BININT2
            auto v = readUInt(op == 'J' ? 4 : op == 'K' ? 1 : 2);
            if (!v) return v.status();
            auto o = std::make_shared<PyObject>();
            o->kind = K::Int;
            o->i = op == 'J' ? int64_t(int32_t(uint32_t(*v))) : int64_t(*v);
            IRLENS_TRY(push(o));
            break;
        }
        case 0x8a: case 0x8b: { // LONG1, LONG4: little-endian two's complement
            auto n = readUInt(op == 0x8a ? 1 : 4);
            if (!n) return n.status();
            if (*n > 8) return fail("integer of " + std::to_string(*n) + " bytes does not fit 64 bits");
            auto v = readUInt(static_cast<int>(*n));
            if (!v) return v.status();
            int64_t x = int64_t(*v);
            if (*n > 0 && *n < 8 && (*v >> (8 * *n - 1)) & 1) x = int64_t(*v | (~uint64_t(0) << (8 * *n)));
            auto o = std::make_shared<PyObject>();
            o->kind = K::Int;
            o->i = x;
            IRLENS_TRY(push(o));
            break;
        }
        case 'G': { // BINFLOAT, big-endian
            if (!need(8)) return fail("truncated pickle");
            auto o = std::make_shared<PyObject>();
            o->kind = K::Float;
            o->f = readDoubleBE(m_data + m_pos);
            m_pos += 8;
            IRLENS_TRY(push(o));
            break;
        }
        case 'X': case 0x8c: case 0x8d: case 'T': case 'U': // unicode and py2 strings
        case 'B': case 'C': case 0x8e: {                    // bytes
            int lenBytes = (op == 0x8c || op == 'U' || op == 'C') ? 1 : (op == 0x8d || op == 0x8e) ? 8 : 4;
            auto len = readUInt(lenBytes);
            if (!len) return len.status();
            auto s = readString(*len);
            if (!s) return s.status();
            auto o = std::make_shared<PyObject>();
            o->kind = (op == 'B' || op == 'C' || op == 0x8e) ? K::Bytes : K::String;
            o->s = std::move(*s);
            IRLENS_TRY(push(o));
            break;
        }
        case 0x88: case 0x89: { // NEWTRUE, NEWFALSE
            auto o = std::make_shared<PyObject>();
            o->kind = K::Bool;
            o->b = op == 0x88;
            IRLENS_TRY(push(o));
            break;
        }
        case 'N': IRLENS_TRY(push(std::make_shared<PyObject>())); break;
        case 'R': case 0x81: { // REDUCE callable(*args); NEWOBJ cls.__new__(cls, *args)
            auto args = pop();
            if (!args) return args.status();
            auto fn = pop();
            if (!fn) return fn.status();
            if ((*args)->kind != K::Tuple) return fail("REDUCE arguments are not a tuple");
            if (op == 0x81 && Callable((*fn)->i) != Callable::OrderedDict)
                return fail("NEWOBJ of '" + (*fn)->s + "' is not supported");
            auto r = call(**fn, **args);
            if (!r) return r.status();
            IRLENS_TRY(push(*r));
            break;
        }
        case 'b': { // BUILD: only empty state is meaningful for the objects we rebuild
            auto state = pop();
            if (!state) return state.status();
            PyRef* obj = nullptr;
            IRLENS_TRY(top(obj));
            const PyObject& st = **state;
            bool empty = st.kind == K::None || (st.isContainer() && st.items.empty() && st.dict.empty());
            if (!empty && (*obj)->kind != K::Opaque)
                return fail(std::string("BUILD with state on a ") + (*obj)->kindName() + " is not supported");
            break;
        }
        case 'Q': { // BINPERSID
            auto pid = pop();
            if (!pid) return pid.status();
            auto st = persistentLoad(**pid);
            if (!st) return st.status();
            IRLENS_TRY(push(*st));
            break;
        }
        default: {
            char buf[8];
            std::snprintf(buf, sizeof buf, "0x%02x", op);
            return fail(std::string("unsupported pickle opcode ") + buf);
        }
        }
    }
}

Result<PyRef> Machine::persistentLoad(const PyObject& pid) {
    const auto& t = pid.items;
    if (pid.kind != K::Tuple || t.size() != 5 || t[0]->kind != K::String || t[0]->s != "storage" ||
        t[1]->kind != K::Global || t[2]->kind != K::String || t[3]->kind != K::String || t[4]->kind != K::Int)
        return fail("persistent id is not ('storage', <storage class>, key, location, count)");
    Callable cls = Callable(t[1]->i);
    if (cls != Callable::StorageClass && cls != Callable::UntypedStorage)
        return fail("persistent id names '" + t[1]->s + "', not a storage class");
    const std::string& key = t[2]->s;
    if (auto it = m_storages.find(key); it != m_storages.end()) return it->second; // shared storage
    auto bytes = m_loader(key);
    if (!bytes) return fail(bytes.error());
    const bool untyped = cls == Callable::UntypedStorage;
    const uint64_t es = untyped ? 1 : uint64_t(elementSize(t[1]->dtype));
    const int64_t count = t[4]->i;
    if (count < 0 || es == 0 || uint64_t(count) > (*bytes)->size / es)
        return fail("storage 'data/" + key + "' holds " + std::to_string((*bytes)->size) + " bytes but the pickle declares " +
                    std::to_string(count) + (untyped ? " bytes" : " elements of " + dtypeName(t[1]->dtype)));
    auto o = std::make_shared<PyObject>();
    o->kind = K::Storage;
    o->storage = *bytes;
    o->dtype = untyped ? ScalarType::UInt8 : t[1]->dtype;
    o->untypedStorage = untyped;
    o->device = t[3]->s;
    m_storages.emplace(key, o);
    return o;
}

Result<PyRef> Machine::rebuildTensor(const std::vector<PyRef>& a, bool v3) {
    const size_t minArgs = v3 ? 7 : 6;
    if (a.size() < minArgs || a[0]->kind != K::Storage || a[1]->kind != K::Int || a[2]->kind != K::Tuple ||
        a[3]->kind != K::Tuple || a[4]->kind != K::Bool || (v3 && a[6]->kind != K::Dtype))
        return fail(std::string("_rebuild_tensor_") + (v3 ? "v3" : "v2") +
                    " expects (storage, offset, size, stride, requires_grad, hooks" + (v3 ? ", dtype)" : ")"));
    const PyObject& st = *a[0];
    auto o = std::make_shared<PyObject>();
    o->kind = K::Tensor;
    TensorData& t = o->tensor;
    t.dtype = v3 ? a[6]->dtype : st.dtype;
    if (!v3 && st.untypedStorage) return fail("_rebuild_tensor_v2 on an untyped storage (dtype unknown)");
    t.storage = st.storage;
    t.storageOffset = a[1]->i;
    t.requiresGrad = a[4]->b;
    t.device = st.device;
    if (a[2]->items.size() != a[3]->items.size() || a[2]->items.size() > limits::kMaxTensorRank)
        return fail("tensor size and stride tuples disagree or exceed rank " + std::to_string(limits::kMaxTensorRank));
    for (size_t k = 0; k < a[2]->items.size(); ++k) {
        if (a[2]->items[k]->kind != K::Int || a[3]->items[k]->kind != K::Int) return fail("tensor sizes/strides must be integers");
        t.sizes.push_back(a[2]->items[k]->i);
        t.strides.push_back(a[3]->items[k]->i);
    }
    if (!tensorViewFits(t, t.storage ? t.storage->size : 0))
        return fail("tensor view " + dtypeShortName(t.dtype) + shapeString(t.sizes) + " (strides " + shapeString(t.strides) +
                    ", offset " + std::to_string(t.storageOffset) + ") does not fit its storage of " +
                    std::to_string(t.storage ? t.storage->size : 0) + " bytes");
    return o;
}

Result<PyRef> Machine::call(const PyObject& fn, const PyObject& args) {
    if (fn.kind != K::Global) return fail(std::string("cannot call a ") + fn.kindName());
    const auto& a = args.items;
    auto o = std::make_shared<PyObject>();
    switch (Callable(fn.i)) {
    case Callable::OrderedDict:
        if (!a.empty()) return fail("OrderedDict() with arguments is not supported");
        o->kind = K::Dict;
        return o;
    case Callable::RebuildV2: return rebuildTensor(a, false);
    case Callable::RebuildV3: return rebuildTensor(a, true);
    case Callable::RebuildParameter:
    case Callable::RebuildParameterWithState:
        if (a.size() < 3 || a[0]->kind != K::Tensor || a[1]->kind != K::Bool)
            return fail("_rebuild_parameter expects (tensor, requires_grad, hooks)");
        *o = *a[0];
        o->tensor.isParameter = true;
        o->tensor.requiresGrad = a[1]->b;
        return o;
    case Callable::CodecsEncode: {
        if (a.size() != 2 || a[0]->kind != K::String || a[1]->kind != K::String ||
            (a[1]->s != "latin1" && a[1]->s != "latin-1"))
            return fail("_codecs.encode expects (str, 'latin1')");
        o->kind = K::Bytes;
        if (!latin1FromUtf8(a[0]->s, o->s)) return fail("_codecs.encode text is not latin-1");
        return o;
    }
    case Callable::FakeTensor: {
        if (a.size() < 2 || (a[0]->kind != K::Bytes && a[0]->kind != K::String) || a[1]->kind != K::Bool)
            return fail("_reconstruct_fake_tensor expects (meta JSON bytes, is_parameter)");
        auto meta = tensorMetaFromJsonText(a[0]->s, m_name + ": fake tensor");
        if (!meta) return meta.status();
        o->kind = K::Tensor;
        o->tensor = std::move(*meta);
        o->tensor.isParameter = a[1]->b;
        return o;
    }
    case Callable::TorchSize:
        if (a.size() != 1 || a[0]->kind != K::Tuple) return fail("torch.Size expects one tuple");
        return a[0];
    default: return fail("'" + fn.s + "' cannot be called");
    }
}

} // namespace

const char* PyObject::kindName() const {
    switch (kind) {
    case Kind::None: return "None";
    case Kind::Bool: return "bool";
    case Kind::Int: return "int";
    case Kind::Float: return "float";
    case Kind::String: return "str";
    case Kind::Bytes: return "bytes";
    case Kind::Tuple: return "tuple";
    case Kind::List: return "list";
    case Kind::Dict: return "dict";
    case Kind::Global: return "global";
    case Kind::Storage: return "storage";
    case Kind::Dtype: return "dtype";
    case Kind::Tensor: return "tensor";
    case Kind::Opaque: return "object";
    }
    return "object";
}

Result<PyRef> unpickle(const std::byte* data, size_t size, const std::string& name, const StorageLoader& loadStorage,
                       const PickleLimits& limits) {
    if (size > limits::kMaxPickleBytes)
        return Status::error(name + ": " + std::to_string(size) + " bytes, more than the pickle limit");
    Machine m(data, size, name, loadStorage, limits);
    return m.run();
}

} // namespace irlens::core
