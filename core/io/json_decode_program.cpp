// JSON decoder: ExportedProgram, GraphModule, graph signature (section 6, plus the 2.1 map form),
// range constraints, module call graph and versions.
#include "core/io/json_decode_context.h"
#include "core/io/json_codec.h"

#include <cmath>
#include <unordered_map>

namespace irlens::core::json {

namespace {

// The argument of a spec member that names a value ({"name": ...}) as a tensor Argument.
Status namedArg(const Decoder& d, uint32_t spec, const Path& p, Argument& out) {
    uint32_t a;
    IRLENS_TRY(d.requireMember(spec, p, "arg", a));
    Path ap = p.child("arg");
    IRLENS_TRY(d.expect(a, ap, JType::Object));
    uint32_t n;
    IRLENS_TRY(d.requireMember(a, ap, "name", n));
    out.kind = ArgKind::Tensor;
    return d.readString(n, ap.child("name"), out.s);
}

Status stringField(const Decoder& d, uint32_t spec, const Path& p, const char* key, std::string& out) {
    uint32_t v;
    IRLENS_TRY(d.requireMember(spec, p, key, v));
    return d.readString(v, p.child(key), out);
}

} // namespace

Status Decoder::inputSpec(uint32_t idx, const Path& p, InputSpec& out) {
    uint32_t m;
    IRLENS_TRY(unionMember(idx, p, "an InputSpec", m));
    std::string_view k = m_doc.at(m).key;
    Path mp = p.child(k);
    IRLENS_TRY(expect(m, mp, JType::Object));
    if (k == "user_input") {
        out.kind = InputKind::UserInput;
        return field(m, mp, "arg", &Decoder::argument, out.arg);
    }
    if (k == "parameter") {
        out.kind = InputKind::Parameter;
        IRLENS_TRY(namedArg(*this, m, mp, out.arg));
        return stringField(*this, m, mp, "parameter_name", out.target);
    }
    if (k == "buffer") {
        out.kind = InputKind::Buffer;
        IRLENS_TRY(namedArg(*this, m, mp, out.arg));
        IRLENS_TRY(stringField(*this, m, mp, "buffer_name", out.target));
        if (uint32_t ps = findMember(m, "persistent"); ps != kNoNode) {
            bool b;
            IRLENS_TRY(readBool(ps, mp.child("persistent"), b));
            out.persistent = b;
        }
        return Status::ok();
    }
    if (k == "tensor_constant") {
        out.kind = InputKind::TensorConstant;
        IRLENS_TRY(namedArg(*this, m, mp, out.arg));
        return stringField(*this, m, mp, "tensor_constant_name", out.target);
    }
    if (k == "custom_obj") {
        out.kind = InputKind::CustomObj;
        uint32_t a;
        IRLENS_TRY(requireMember(m, mp, "arg", a));
        Path ap = mp.child("arg");
        IRLENS_TRY(expect(a, ap, JType::Object));
        out.arg.kind = ArgKind::CustomObj;
        IRLENS_TRY(stringField(*this, a, ap, "name", out.arg.s));
        if (uint32_t c = findMember(a, "class_fqn"); c != kNoNode) {
            std::string classFqn;
            IRLENS_TRY(readString(c, ap.child("class_fqn"), classFqn));
            out.arg.setS2(std::move(classFqn));
        }
        return stringField(*this, m, mp, "custom_obj_name", out.target);
    }
    if (k == "token") {
        out.kind = InputKind::Token;
        return namedArg(*this, m, mp, out.arg);
    }
    if (k == "constant_input") {
        out.kind = InputKind::ConstantInput;
        IRLENS_TRY(stringField(*this, m, mp, "name", out.name));
        uint32_t v;
        IRLENS_TRY(requireMember(m, mp, "value", v));
        // ConstantValue shares its member names (as_none/as_int/as_float/as_string/as_bool) with Argument.
        return argument(v, mp.child("value"), out.arg);
    }
    return fail(p, "unknown input spec kind \"" + std::string(k) + "\"");
}

Status Decoder::outputSpec(uint32_t idx, const Path& p, OutputSpec& out) {
    uint32_t m;
    IRLENS_TRY(unionMember(idx, p, "an OutputSpec", m));
    std::string_view k = m_doc.at(m).key;
    Path mp = p.child(k);
    IRLENS_TRY(expect(m, mp, JType::Object));
    struct Kind {
        const char* name;
        OutputKind kind;
        const char* targetKey;
    };
    static const Kind kinds[] = {
        {"user_output", OutputKind::UserOutput, nullptr},
        {"loss_output", OutputKind::LossOutput, nullptr},
        {"buffer_mutation", OutputKind::BufferMutation, "buffer_name"},
        {"parameter_mutation", OutputKind::ParameterMutation, "parameter_name"},
        {"gradient_to_parameter", OutputKind::GradientToParameter, "parameter_name"},
        {"gradient_to_user_input", OutputKind::GradientToUserInput, "user_input_name"},
        {"user_input_mutation", OutputKind::UserInputMutation, "user_input_name"},
        {"token", OutputKind::Token, nullptr},
    };
    for (const auto& kd : kinds) {
        if (k != kd.name) continue;
        out.kind = kd.kind;
        if (kd.kind == OutputKind::UserOutput) {
            IRLENS_TRY(field(m, mp, "arg", &Decoder::argument, out.arg));
        } else {
            IRLENS_TRY(namedArg(*this, m, mp, out.arg));
        }
        if (kd.targetKey) IRLENS_TRY(stringField(*this, m, mp, kd.targetKey, out.target));
        return Status::ok();
    }
    return fail(p, "unknown output spec kind \"" + std::string(k) + "\"");
}

Status Decoder::signature(uint32_t idx, const Path& p, GraphSignature& out) {
    IRLENS_TRY(expect(idx, p, JType::Object));
    uint32_t in = m_doc.member(idx, "input_specs");
    if (in == kNoNode && m_doc.member(idx, "user_inputs") != kNoNode) return legacySignature(idx, p, out);
    IRLENS_TRY(requireMember(idx, p, "input_specs", in));
    IRLENS_TRY(expect(in, p.child("input_specs"), JType::Array));
    out.inputSpecs.resize(m_doc.at(in).count);
    IRLENS_TRY(forEachItem(in, p.child("input_specs"), [&](uint32_t c, const Path& cp, size_t k) {
        return inputSpec(c, cp, out.inputSpecs[k]);
    }));
    uint32_t os;
    IRLENS_TRY(requireMember(idx, p, "output_specs", os));
    IRLENS_TRY(expect(os, p.child("output_specs"), JType::Array));
    out.outputSpecs.resize(m_doc.at(os).count);
    return forEachItem(os, p.child("output_specs"), [&](uint32_t c, const Path& cp, size_t k) {
        return outputSpec(c, cp, out.outputSpecs[k]);
    });
}

// torch 2.1 wrote the signature as name maps; rebuild spec lists in graph input/output order.
Status Decoder::legacySignature(uint32_t idx, const Path& p, GraphSignature& out) {
    std::map<std::string, std::string> params, buffers, mutations;
    if (uint32_t v = findMember(idx, "inputs_to_parameters"); v != kNoNode) IRLENS_TRY(stringMap(v, p.child("inputs_to_parameters"), params));
    if (uint32_t v = findMember(idx, "inputs_to_buffers"); v != kNoNode) IRLENS_TRY(stringMap(v, p.child("inputs_to_buffers"), buffers));
    if (uint32_t v = findMember(idx, "buffers_to_mutate"); v != kNoNode) IRLENS_TRY(stringMap(v, p.child("buffers_to_mutate"), mutations));
    warn("graph signature in the torch 2.1 form (name maps); converted to spec lists");
    m_legacySignature = true;
    m_legacyParams = std::move(params);
    m_legacyBuffers = std::move(buffers);
    m_legacyMutations = std::move(mutations);
    out = {};
    return Status::ok();
}

void Decoder::finishLegacySignature(const Graph& g, GraphSignature& out) const {
    for (const auto& a : g.inputs) {
        InputSpec s;
        s.arg = a;
        if (auto it = m_legacyParams.find(a.s); a.kind == ArgKind::Tensor && it != m_legacyParams.end()) {
            s.kind = InputKind::Parameter;
            s.target = it->second;
        } else if (auto jt = m_legacyBuffers.find(a.s); a.kind == ArgKind::Tensor && jt != m_legacyBuffers.end()) {
            s.kind = InputKind::Buffer;
            s.target = jt->second;
        }
        out.inputSpecs.push_back(std::move(s));
    }
    for (const auto& a : g.outputs) {
        OutputSpec s;
        s.arg = a;
        if (auto it = m_legacyMutations.find(a.s); a.kind == ArgKind::Tensor && it != m_legacyMutations.end()) {
            s.kind = OutputKind::BufferMutation;
            s.target = it->second;
        }
        out.outputSpecs.push_back(std::move(s));
    }
}

Status Decoder::moduleCallGraph(uint32_t idx, const Path& p, std::vector<ModuleCallEntry>& out) {
    IRLENS_TRY(expect(idx, p, JType::Array));
    out.resize(m_doc.at(idx).count);
    int64_t k = 0;
    for (uint32_t c = m_doc.firstChild(idx); c != kNoNode; c = m_doc.nextSibling(idx, c), ++k) {
        Path ep = p.item(k);
        ModuleCallEntry& e = out[static_cast<size_t>(k)];
        IRLENS_TRY(expect(c, ep, JType::Object));
        IRLENS_TRY(stringField(*this, c, ep, "fqn", e.fqn));
        uint32_t s = findMember(c, "signature");
        if (s == kNoNode) continue;
        Path sp = ep.child("signature");
        IRLENS_TRY(expect(s, sp, JType::Object));
        ModuleCallSignature sig;
        IRLENS_TRY(field(s, sp, "inputs", &Decoder::argumentList, sig.inputs));
        IRLENS_TRY(field(s, sp, "outputs", &Decoder::argumentList, sig.outputs));
        IRLENS_TRY(stringField(*this, s, sp, "in_spec", sig.inSpec));
        IRLENS_TRY(stringField(*this, s, sp, "out_spec", sig.outSpec));
        if (uint32_t f = findMember(s, "forward_arg_names"); f != kNoNode) {
            std::vector<std::string> names;
            IRLENS_TRY(stringList(f, sp.child("forward_arg_names"), names));
            sig.forwardArgNames = std::move(names);
        }
        e.signature = std::move(sig);
    }
    return Status::ok();
}

Status Decoder::schemaVersion(uint32_t idx, const Path& p, SchemaVersion& out) {
    const JNode& n = m_doc.at(idx);
    int64_t major = 0, minor = 0;
    if (n.type == JType::Int) {
        IRLENS_TRY(readInt(idx, p, major));
        out.bareInteger = true;
    } else {
        IRLENS_TRY(expect(idx, p, JType::Object));
        IRLENS_TRY(field(idx, p, "major", &Decoder::readInt, major));
        if (uint32_t m = findMember(idx, "minor"); m != kNoNode) IRLENS_TRY(readInt(m, p.child("minor"), minor));
        out.bareInteger = false;
    }
    if (major < 0 || major > 1000 || minor < 0 || minor > 100000) return fail(p, "implausible schema version");
    out.major = static_cast<int>(major);
    out.minor = static_cast<int>(minor);
    return Status::ok();
}

Status Decoder::program(uint32_t root, Program& out) {
    Path p;
    IRLENS_TRY(expect(root, p, JType::Object));
    if (uint32_t sv = findMember(root, "schema_version"); sv != kNoNode) {
        IRLENS_TRY(schemaVersion(sv, p.child("schema_version"), out.schemaVersion));
        // PyTorch only loads major 8 (0.0 is a development marker); others may still decode fine.
        if (out.schemaVersion.major != 8 && !(out.schemaVersion.major == 0 && out.schemaVersion.minor == 0))
            warn("schema version " + out.schemaVersion.toString() +
                 ": this reader follows schema 8.x; the program was decoded leniently");
    } else {
        warn("no schema_version; decoded as schema 8");
    }
    uint32_t gm;
    IRLENS_TRY(requireMember(root, p, "graph_module", gm));
    Path gp = p.child("graph_module");
    IRLENS_TRY(expect(gm, gp, JType::Object));
    IRLENS_TRY(field(gm, gp, "graph", &Decoder::graph, out.graph));
    IRLENS_TRY(field(gm, gp, "signature", &Decoder::signature, out.signature));
    if (m_legacySignature) finishLegacySignature(out.graph, out.signature);
    if (uint32_t m = findMember(gm, "module_call_graph"); m != kNoNode)
        IRLENS_TRY(moduleCallGraph(m, gp.child("module_call_graph"), out.moduleCallGraph));
    if (uint32_t m = findMember(gm, "metadata"); m != kNoNode) IRLENS_TRY(stringMap(m, gp.child("metadata"), out.metadata));
    if (uint32_t t = findMember(gm, "treespec_namedtuple_fields"); t != kNoNode) {
        IRLENS_TRY(expect(t, gp.child("treespec_namedtuple_fields"), JType::Object));
        if (m_doc.at(t).count) out.treespecNamedtupleFieldsJson.assign(m_doc.sourceOf(t));
    }
    if (uint32_t o = findMember(root, "opset_version"); o != kNoNode) {
        IRLENS_TRY(forEachMember(o, p.child("opset_version"), [&](uint32_t c, const Path& cp, std::string_view key) {
            return readInt(c, cp, out.opsetVersion[std::string(key)]);
        }));
    }
    if (uint32_t r = findMember(root, "range_constraints"); r != kNoNode) {
        Path rp = p.child("range_constraints");
        IRLENS_TRY(expect(r, rp, JType::Object));
        for (uint32_t c = m_doc.firstChild(r); c != kNoNode; c = m_doc.nextSibling(r, c)) {
            Path cp = rp.child(m_doc.at(c).key);
            IRLENS_TRY(expect(c, cp, JType::Object));
            RangeConstraint rc;
            for (auto [key, dst] : {std::pair<const char*, std::optional<int64_t>*>{"min_val", &rc.minVal}, {"max_val", &rc.maxVal}}) {
                uint32_t b = findMember(c, key);
                if (b == kNoNode) continue;
                const JNode& bn = m_doc.at(b);
                // sympy's infinities (int_oo) serialize as null or as out-of-range numbers: unbounded.
                if ((bn.type == JType::Int && m_doc.intOverflow(b)) || (bn.type == JType::Float && std::isinf(bn.d))) continue;
                if (bn.type == JType::String) {
                    double f;
                    IRLENS_TRY(readFloat(b, cp.child(key), f));
                    continue; // "Infinity" / "-Infinity"
                }
                int64_t x;
                IRLENS_TRY(readInt(b, cp.child(key), x));
                *dst = x;
            }
            out.rangeConstraints[std::string(m_doc.at(c).key)] = rc;
        }
    }
    if (uint32_t vs = findMember(root, "verifiers"); vs != kNoNode) IRLENS_TRY(stringList(vs, p.child("verifiers"), out.verifiers));
    if (uint32_t d = findMember(root, "dialect"); d != kNoNode) {
        IRLENS_TRY(readString(d, p.child("dialect"), out.dialect));
        // `verifiers` replaced `dialect`; PyTorch's upgrade maps one onto the other.
        if (out.verifiers.empty() && !out.dialect.empty()) out.verifiers.push_back(out.dialect);
    }
    if (uint32_t t = findMember(root, "torch_version"); t != kNoNode) IRLENS_TRY(readString(t, p.child("torch_version"), out.torchVersion));
    // A file that records no version: the estimate irlens wrote beside it, else the era before the
    // field (torch 2.4 and older)
    if (auto estimate = out.metadata.find(kTorchEstimateMetadataKey); estimate != out.metadata.end()) {
        out.torchVersionEstimate = estimate->second;
        out.metadata.erase(estimate);
    }
    if (out.torchVersion.empty() && out.torchVersionEstimate.empty()) out.torchVersionEstimate = "<=2.4";
    if (uint32_t g = findMember(root, "guards_code"); g != kNoNode) IRLENS_TRY(stringList(g, p.child("guards_code"), out.guardsCode));
    for (const auto& [member, uses] : m_opaqueMembers)
        warn("Argument member \"" + member + "\" is newer than this reader: kept as raw JSON (" + std::to_string(uses) +
             (uses == 1 ? " use)" : " uses)"));
    return Status::ok();
}

} // namespace irlens::core::json
