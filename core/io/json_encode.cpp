// Schema-8 JSON encoder, in the form current producers write: single-key unions, enums as numbers,
// `kind` on named arguments, keys in the order of schema.py's dataclass fields.
#include "core/io/json_encode_writer.h"
#include "core/io/json_codec.h"

namespace irlens::core {

namespace json {

Writer& Writer::string(std::string_view s) {
    prefix();
    m_out += '"';
    size_t run = 0;
    for (size_t k = 0; k < s.size(); ++k) {
        unsigned char c = static_cast<unsigned char>(s[k]);
        if (c >= 0x20 && c != '"' && c != '\\') continue;
        m_out.append(s.data() + run, k - run);
        run = k + 1;
        switch (c) {
        case '"': m_out += "\\\""; break;
        case '\\': m_out += "\\\\"; break;
        case '\n': m_out += "\\n"; break;
        case '\r': m_out += "\\r"; break;
        case '\t': m_out += "\\t"; break;
        case '\b': m_out += "\\b"; break;
        case '\f': m_out += "\\f"; break;
        default: {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            m_out += buf;
        }
        }
    }
    m_out.append(s.data() + run, s.size() - run);
    m_out += '"';
    m_needComma = true;
    return *this;
}

Writer& Writer::number(double v) {
    // JSON has no infinities or NaN: PyTorch writes these strings, and its loader reads them back.
    if (std::isnan(v)) return string("NaN");
    if (std::isinf(v)) return string(v > 0 ? "Infinity" : "-Infinity");
    prefix();
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    std::string_view text(buf, static_cast<size_t>(r.ptr - buf));
    m_out += text;
    // Python's repr keeps floats recognisable ("2.0"): readers that type by token need it.
    if (text.find_first_of(".eE") == std::string_view::npos) m_out += ".0";
    m_needComma = true;
    return *this;
}

Writer& Writer::integer(int64_t v) {
    prefix();
    char buf[24];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    m_out.append(buf, static_cast<size_t>(r.ptr - buf));
    m_needComma = true;
    return *this;
}

} // namespace json

namespace {

using json::Writer;

void encodeGraph(Writer& w, const Graph& g);

template <class T>
void scalar(Writer& w, T value) {
    if constexpr (std::is_same_v<T, bool>) w.boolean(value);
    else if constexpr (std::is_same_v<T, double>) w.number(value);
    else w.integer(value);
}

// A SymInt, SymBool or SymFloat: `{"as_int": n}` or `{"as_expr": {"expr_str": ..., "hint": ...}}`.
template <class T>
void symValue(Writer& w, const Sym<T>& s) {
    const char* literalKey = SymSchema<T>::literalKey;
    w.beginObject();
    if (s.isExpr()) {
        w.key("as_expr").beginObject().key("expr_str").string(s.expr()).key("hint");
        if (s.hint()) {
            w.beginObject().key(literalKey);
            scalar(w, *s.hint());
            w.endObject();
        } else {
            w.null();
        }
        w.endObject();
    } else {
        w.key(literalKey);
        scalar(w, s.value);
    }
    w.endObject();
}

// A table of named symbolic values (sym_int_values, ...).
template <class T>
void symValues(Writer& w, const char* key, const std::map<std::string, Sym<T>>& values) {
    w.key(key).beginObject();
    for (const auto& [name, s] : values) {
        w.key(name);
        symValue(w, s);
    }
    w.endObject();
}

void device(Writer& w, const Device& d) {
    w.beginObject().key("type").string(d.type).key("index");
    if (d.index) w.integer(*d.index);
    else w.null();
    w.endObject();
}

void tensorArg(Writer& w, const std::string& name) { w.beginObject().key("name").string(name).endObject(); }

void symArgument(Writer& w, const Argument& a) {
    w.beginObject();
    if (a.isName) {
        w.key("as_name").string(a.s);
    } else if (a.kind == ArgKind::SymInt) {
        w.key("as_int").integer(a.i);
    } else if (a.kind == ArgKind::SymBool) {
        w.key("as_bool").boolean(a.b);
    } else {
        w.key("as_float").number(a.f);
    }
    w.endObject();
}

void optionalTensor(Writer& w, const Argument& a) {
    w.beginObject();
    if ((a.kind == ArgKind::Tensor || a.kind == ArgKind::OptionalTensor) && !a.s.empty()) {
        w.key("as_tensor");
        tensorArg(w, a.s);
    } else {
        w.key("as_none").boolean(true);
    }
    w.endObject();
}

template <class Fn>
void list(Writer& w, const std::vector<Argument>& items, Fn each) {
    w.beginArray();
    for (const auto& e : items) each(e);
    w.endArray();
}

void argument(Writer& w, const Argument& a) {
    w.beginObject();
    switch (a.kind) {
    case ArgKind::None: w.key("as_none").boolean(true); break;
    case ArgKind::Tensor: w.key("as_tensor"); tensorArg(w, a.s); break;
    case ArgKind::Tensors: w.key("as_tensors"); list(w, a.list, [&](const Argument& e) { tensorArg(w, e.s); }); break;
    case ArgKind::OptionalTensor: w.key("as_optional_tensor"); optionalTensor(w, a); break;
    case ArgKind::OptionalTensors:
        w.key("as_optional_tensors");
        list(w, a.list, [&](const Argument& e) { optionalTensor(w, e); });
        break;
    case ArgKind::NestedTensors:
        w.key("as_nested_tensors");
        list(w, a.list, [&](const Argument& e) { list(w, e.list, [&](const Argument& t) { tensorArg(w, t.s); }); });
        break;
    case ArgKind::Int: w.key("as_int").integer(a.i); break;
    case ArgKind::Ints: w.key("as_ints"); list(w, a.list, [&](const Argument& e) { w.integer(e.i); }); break;
    case ArgKind::IntLists:
        w.key("as_int_lists");
        list(w, a.list, [&](const Argument& e) { list(w, e.list, [&](const Argument& t) { w.integer(t.i); }); });
        break;
    case ArgKind::Float: w.key("as_float").number(a.f); break;
    case ArgKind::Floats: w.key("as_floats"); list(w, a.list, [&](const Argument& e) { w.number(e.f); }); break;
    case ArgKind::FloatLists:
        w.key("as_float_lists");
        list(w, a.list, [&](const Argument& e) { list(w, e.list, [&](const Argument& t) { w.number(t.f); }); });
        break;
    case ArgKind::Bool: w.key("as_bool").boolean(a.b); break;
    case ArgKind::Bools: w.key("as_bools"); list(w, a.list, [&](const Argument& e) { w.boolean(e.b); }); break;
    case ArgKind::String: w.key("as_string").string(a.s); break;
    case ArgKind::Strings: w.key("as_strings"); list(w, a.list, [&](const Argument& e) { w.string(e.s); }); break;
    case ArgKind::Complex: w.key("as_complex").beginObject().key("real").number(a.f).key("imag").number(a.imag).endObject(); break;
    case ArgKind::SymInt: w.key("as_sym_int"); symArgument(w, a); break;
    case ArgKind::SymInts: w.key("as_sym_ints"); list(w, a.list, [&](const Argument& e) { symArgument(w, e); }); break;
    case ArgKind::SymBool: w.key("as_sym_bool"); symArgument(w, a); break;
    case ArgKind::SymBools: w.key("as_sym_bools"); list(w, a.list, [&](const Argument& e) { symArgument(w, e); }); break;
    case ArgKind::SymFloat: w.key("as_sym_float"); symArgument(w, a); break;
    case ArgKind::SymFloats: w.key("as_sym_floats"); list(w, a.list, [&](const Argument& e) { symArgument(w, e); }); break;
    case ArgKind::ScalarType: w.key("as_scalar_type").integer(a.i); break;
    case ArgKind::MemoryFormat: w.key("as_memory_format").integer(a.i); break;
    case ArgKind::Layout: w.key("as_layout").integer(a.i); break;
    case ArgKind::Device: w.key("as_device"); device(w, a.device()); break;
    case ArgKind::Graph:
        w.key("as_graph").beginObject().key("name").string(a.s).key("graph");
        if (a.graph()) encodeGraph(w, *a.graph());
        else encodeGraph(w, Graph{});
        w.endObject();
        break;
    case ArgKind::CustomObj:
        w.key("as_custom_obj").beginObject().key("name").string(a.s).key("class_fqn").string(a.s2()).endObject();
        break;
    case ArgKind::Operator: w.key("as_operator").string(a.s); break;
    case ArgKind::StringToArgument:
        w.key("as_string_to_argument").beginObject();
        for (const auto& e : a.list) {
            w.key(e.key());
            argument(w, e);
        }
        w.endObject();
        break;
    case ArgKind::Opaque:
        // Written back verbatim: a member this build does not know survives a round trip.
        w.key(a.s).raw(a.raw().empty() ? std::string_view("null") : std::string_view(a.raw()));
        break;
    }
    w.endObject();
}

void tensorMeta(Writer& w, const TensorMeta& m) {
    w.beginObject().key("dtype").integer(static_cast<int>(m.dtype)).key("sizes").beginArray();
    for (const auto& s : m.sizes) symValue(w, s);
    w.endArray().key("requires_grad").boolean(m.requiresGrad).key("device");
    device(w, m.device);
    w.key("strides").beginArray();
    for (const auto& s : m.strides) symValue(w, s);
    w.endArray().key("storage_offset");
    symValue(w, m.storageOffset);
    w.key("layout").integer(m.layout).endObject();
}

// A node needs an explicit `name` only when the first-output rule would not give it back. `name` is
// a late schema field, and PyTorch's loader refuses keys its schema lacks: write it only when needed.
bool needsName(const Node& n) {
    auto names = n.outputNames();
    return names.empty() || names.front() != n.name;
}

void node(Writer& w, const Node& n) {
    w.beginObject().key("target").string(n.target.full).key("inputs").beginArray();
    for (const auto& in : n.inputs) {
        w.beginObject().key("name").string(in.name).key("arg");
        argument(w, in.arg);
        w.key("kind").integer(static_cast<int>(in.kind)).endObject();
    }
    w.endArray().key("outputs");
    list(w, n.outputs, [&](const Argument& o) { argument(w, o); });
    w.key("metadata").beginObject();
    for (const auto& [k, v] : n.meta.raw) w.key(k).string(v.str());
    w.endObject().key("is_hop_single_tensor_return");
    if (n.isHopSingleTensorReturn) w.boolean(*n.isHopSingleTensorReturn);
    else w.null();
    if (needsName(n)) w.key("name").string(n.name);
    w.endObject();
}

void encodeGraph(Writer& w, const Graph& g) {
    w.beginObject().key("inputs");
    list(w, g.inputs, [&](const Argument& a) { argument(w, a); });
    w.key("outputs");
    list(w, g.outputs, [&](const Argument& a) { argument(w, a); });
    w.key("nodes").beginArray();
    for (const auto& n : g.nodes) node(w, n);
    w.endArray().key("tensor_values").beginObject();
    for (const auto& [name, m] : g.tensorValues) {
        w.key(name);
        tensorMeta(w, m);
    }
    w.endObject();
    symValues(w, "sym_int_values", g.symIntValues);
    symValues(w, "sym_bool_values", g.symBoolValues);
    w.key("is_single_tensor_return").boolean(g.isSingleTensorReturn).key("custom_obj_values").beginObject();
    for (const auto& [name, c] : g.customObjValues)
        w.key(name).beginObject().key("name").string(c.name).key("class_fqn").string(c.classFqn).endObject();
    w.endObject();
    symValues(w, "sym_float_values", g.symFloatValues);
    w.endObject();
}

void inputSpec(Writer& w, const InputSpec& s, const Program& p) {
    w.beginObject();
    switch (s.kind) {
    case InputKind::UserInput:
        w.key("user_input").beginObject().key("arg");
        argument(w, s.arg);
        w.endObject();
        break;
    case InputKind::Parameter:
        w.key("parameter").beginObject().key("arg");
        tensorArg(w, s.arg.s);
        w.key("parameter_name").string(s.target).endObject();
        break;
    case InputKind::Buffer:
        w.key("buffer").beginObject().key("arg");
        tensorArg(w, s.arg.s);
        // 2.2-era files lack `persistent` (schema 8 requires it): a buffer is persistent unless its data
        // sits with the constants, which is where non-persistent buffers live.
        w.key("buffer_name").string(s.target).key("persistent").boolean(s.persistent.value_or(!p.constants.count(s.target)));
        w.endObject();
        break;
    case InputKind::TensorConstant:
        w.key("tensor_constant").beginObject().key("arg");
        tensorArg(w, s.arg.s);
        w.key("tensor_constant_name").string(s.target).endObject();
        break;
    case InputKind::CustomObj:
        w.key("custom_obj").beginObject().key("arg").beginObject().key("name").string(s.arg.s).key("class_fqn").string(s.arg.s2());
        w.endObject().key("custom_obj_name").string(s.target).endObject();
        break;
    case InputKind::Token:
        w.key("token").beginObject().key("arg");
        tensorArg(w, s.arg.s);
        w.endObject();
        break;
    case InputKind::ConstantInput:
        w.key("constant_input").beginObject().key("name").string(s.name).key("value");
        argument(w, s.arg);
        w.endObject();
        break;
    }
    w.endObject();
}

void outputSpec(Writer& w, const OutputSpec& s) {
    const char* member = "user_output";
    const char* targetKey = nullptr;
    switch (s.kind) {
    case OutputKind::UserOutput: member = "user_output"; break;
    case OutputKind::LossOutput: member = "loss_output"; break;
    case OutputKind::BufferMutation: member = "buffer_mutation"; targetKey = "buffer_name"; break;
    case OutputKind::ParameterMutation: member = "parameter_mutation"; targetKey = "parameter_name"; break;
    case OutputKind::GradientToParameter: member = "gradient_to_parameter"; targetKey = "parameter_name"; break;
    case OutputKind::GradientToUserInput: member = "gradient_to_user_input"; targetKey = "user_input_name"; break;
    case OutputKind::UserInputMutation: member = "user_input_mutation"; targetKey = "user_input_name"; break;
    case OutputKind::Token: member = "token"; break;
    }
    w.beginObject().key(member).beginObject().key("arg");
    if (s.kind == OutputKind::UserOutput) argument(w, s.arg);
    else tensorArg(w, s.arg.s);
    if (targetKey) w.key(targetKey).string(s.target);
    w.endObject().endObject();
}

} // namespace

std::string encodeTensorMetaJson(const TensorMeta& meta) {
    Writer w;
    tensorMeta(w, meta);
    return w.take();
}

std::string encodeProgramJson(const Program& p, const std::string& writer) {
    Writer w;
    w.reserve(1024 + p.graph.nodes.size() * 1024);
    w.beginObject().key("graph_module").beginObject().key("graph");
    encodeGraph(w, p.graph);
    w.key("signature").beginObject().key("input_specs").beginArray();
    for (const auto& s : p.signature.inputSpecs) inputSpec(w, s, p);
    w.endArray().key("output_specs").beginArray();
    for (const auto& s : p.signature.outputSpecs) outputSpec(w, s);
    w.endArray().endObject().key("module_call_graph").beginArray();
    for (const auto& e : p.moduleCallGraph) {
        w.beginObject().key("fqn").string(e.fqn).key("signature");
        if (!e.signature) {
            w.null();
        } else {
            const auto& s = *e.signature;
            w.beginObject().key("inputs");
            list(w, s.inputs, [&](const Argument& a) { argument(w, a); });
            w.key("outputs");
            list(w, s.outputs, [&](const Argument& a) { argument(w, a); });
            w.key("in_spec").string(s.inSpec).key("out_spec").string(s.outSpec);
            if (s.forwardArgNames) {
                w.key("forward_arg_names").beginArray();
                for (const auto& n : *s.forwardArgNames) w.string(n);
                w.endArray();
            }
            w.endObject();
        }
        w.endObject();
    }
    w.endArray().key("metadata").beginObject();
    std::map<std::string, std::string> metadata = p.metadata;
    if (!writer.empty()) metadata[kWriterMetadataKey] = writer;
    if (p.torchVersion.empty() && !p.torchVersionEstimate.empty()) metadata[kTorchEstimateMetadataKey] = p.torchVersionEstimate;
    for (const auto& [k, v] : metadata) w.key(k).string(v);
    w.endObject().key("treespec_namedtuple_fields");
    if (p.treespecNamedtupleFieldsJson.empty()) w.beginObject().endObject();
    else w.raw(p.treespecNamedtupleFieldsJson);
    w.endObject().key("opset_version").beginObject();
    if (p.opsetVersion.empty()) w.key("aten").integer(10);
    for (const auto& [k, v] : p.opsetVersion) w.key(k).integer(v);
    w.endObject().key("range_constraints").beginObject();
    for (const auto& [sym, rc] : p.rangeConstraints) {
        w.key(sym).beginObject().key("min_val");
        if (rc.minVal) w.integer(*rc.minVal);
        else w.null();
        w.key("max_val");
        if (rc.maxVal) w.integer(*rc.maxVal);
        else w.null();
        w.endObject();
    }
    w.endObject().key("schema_version").beginObject().key("major").integer(kEncodedSchemaMajor);
    w.key("minor").integer(kEncodedSchemaMinor).endObject().key("verifiers").beginArray();
    for (const auto& v : p.verifiers) w.string(v);
    w.endArray();
    // only a version the source recorded: other readers parse it (the estimate is in the metadata)
    if (!p.torchVersion.empty()) w.key("torch_version").string(p.torchVersion);
    if (!p.guardsCode.empty()) {
        w.key("guards_code").beginArray();
        for (const auto& g : p.guardsCode) w.string(g);
        w.endArray();
    }
    w.endObject();
    return w.take();
}

} // namespace irlens::core
