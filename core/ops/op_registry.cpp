// OpRegistry: the core ATen and prims tables compiled into the binary (core/ops/ops.cmake), the
// hand-written training-IR table, and in-place variants of the pointwise core ops (`relu_`,
// `hardtanh_`, `add_.Tensor`, ...), which training-IR programs keep as the module called them.

#include "core/ops/op_registry.h"
#include "core/ops/op_tags.h"

#include "core/ops/training_ops.h"
#include "ops_tables_generated.h"

#include <sstream>

namespace irlens::core {

const char* irLevelName(IrLevel level) {
    switch (level) {
    case IrLevel::Training: return "training";
    case IrLevel::CoreAten: return "core ATen";
    case IrLevel::Prims: return "prims";
    case IrLevel::HigherOrder: return "higher-order";
    case IrLevel::Symbolic: return "symbolic";
    case IrLevel::Custom: return "custom";
    case IrLevel::Unknown: break;
    }
    return "unknown";
}

const char* opLevelName(IrLevel level) { return level == IrLevel::Training ? "non-core ATen" : irLevelName(level); }

char opLevelBadge(IrLevel level) { return level == IrLevel::Training ? 'N' : irLevelBadge(level); }

char irLevelBadge(IrLevel level) {
    switch (level) {
    case IrLevel::Training: return 'T';
    case IrLevel::CoreAten: return 'C';
    case IrLevel::Prims: return 'P';
    case IrLevel::HigherOrder: return 'H';
    case IrLevel::Symbolic: return 'S';
    case IrLevel::Custom: return 'X';
    case IrLevel::Unknown: break;
    }
    return '?';
}

bool OpInfo::hasTag(const std::string& tag) const {
    for (const auto& t : tags)
        if (t == tag) return true;
    return false;
}

std::string OpInfo::key() const { return Target::opKey(ns, schema.name, schema.overload); }

namespace {

std::vector<std::string> splitChar(const std::string& s, char sep) {
    std::vector<std::string> out;
    std::string cur;
    for (char c : s) {
        if (c == sep) {
            out.push_back(cur);
            cur.clear();
        } else if (c != '\r') {
            cur += c;
        }
    }
    out.push_back(cur);
    return out;
}

// Rows of a TSV: '#' comments and the header row (first column `header`) skipped.
std::vector<std::vector<std::string>> tsvRows(const char* text, const std::string& header) {
    std::vector<std::vector<std::string>> rows;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        auto cols = splitChar(line, '\t');
        if (cols.empty() || cols[0] == header) continue;
        rows.push_back(std::move(cols));
    }
    return rows;
}

// "Tensor self" -> "Tensor(a!) self" and "Tensor" -> "Tensor(a!)": the in-place twin of a
// pointwise op whose first argument is `Tensor self` and that returns one Tensor.
std::optional<OpSchema> inplaceVariant(const OpSchema& s) {
    if (s.args.empty() || s.args[0].type != "Tensor" || s.args[0].name != "self") return std::nullopt;
    if (s.returns.size() != 1 || s.returns[0].type != "Tensor") return std::nullopt;
    OpSchema v = s;
    v.name += "_";
    v.args[0].type = "Tensor(a!)";
    v.args[0].mutates = true;
    v.returns[0].type = "Tensor(a!)";
    v.returns[0].mutates = true;
    std::string argText;
    for (size_t i = 0; i < v.args.size(); ++i) {
        if (i) argText += ", ";
        if (v.args[i].kwargOnly && (i == 0 || !v.args[i - 1].kwargOnly)) argText += "*, ";
        argText += v.args[i].type + " " + v.args[i].name;
        if (v.args[i].defaultValue) argText += "=" + *v.args[i].defaultValue;
    }
    v.text = v.name + (v.overload == "default" ? "" : "." + v.overload) + "(" + argText + ") -> Tensor(a!)";
    return v;
}

} // namespace

OpRegistry::OpRegistry() {
    // Core ATen: op, tags, schema.
    for (const auto& cols : tsvRows(kEmbedded_core_aten_ops, "op")) {
        if (cols.size() < 3) continue;
        auto schema = parseSchema(cols[2]);
        if (!schema) continue; // a malformed row is reported by the registry test, not here
        OpInfo info;
        info.ns = "aten";
        info.schema = std::move(*schema);
        info.tags = splitChar(cols[1], ',');
        info.level = info.hasTag("core") ? IrLevel::CoreAten : IrLevel::Training;
        info.source = "core_aten_ops.tsv";
        add(std::move(info));
    }
    // Prims: name, kind, type_promotion, return_type, schema, notes.
    for (const auto& cols : tsvRows(kEmbedded_prims_ops, "name")) {
        if (cols.size() < 5) continue;
        auto schema = parseSchema(cols[4]);
        if (!schema) continue;
        OpInfo info;
        info.ns = "prims";
        info.schema = std::move(*schema);
        info.level = IrLevel::Prims;
        info.primKind = cols[1];
        info.primTypePromotion = cols[2];
        info.primReturnType = cols[3];
        if (cols.size() > 5) info.notes = cols[5];
        if (info.primKind.rfind("elementwise", 0) == 0 || info.schema.name == "convert_element_type")
            info.tags.push_back("pointwise");
        if (info.primKind == "reduction") info.tags.push_back("reduction");
        info.source = "prims_ops.tsv";
        add(std::move(info));
    }
    for (const char* text : trainingOpSchemas()) {
        auto schema = parseSchema(text);
        if (!schema) continue;
        OpInfo info;
        info.ns = "aten";
        info.schema = std::move(*schema);
        info.level = IrLevel::Training;
        info.source = "training table";
        add(std::move(info));
    }
    // In-place twins of pointwise core ops, unless the training table already spelled them out.
    const size_t coreCount = m_ops.size();
    for (size_t i = 0; i < coreCount; ++i) {
        const OpInfo& op = m_ops[i];
        if (op.ns != "aten" || op.level != IrLevel::CoreAten || !op.hasTag("pointwise")) continue;
        auto v = inplaceVariant(op.schema);
        if (!v || find("aten", v->name, v->overload)) continue;
        OpInfo info;
        info.ns = "aten";
        info.schema = std::move(*v);
        info.level = IrLevel::Training;
        info.tags = {"pointwise"};
        info.source = "in-place variant";
        add(std::move(info));
    }
}

void OpRegistry::add(OpInfo info) {
    if (info.ns == "aten")
        for (const auto& tag : layerTags(info.schema.name))
            if (!info.hasTag(tag)) info.tags.push_back(tag);
    auto k = info.key();
    if (m_index.count(k)) return; // first table wins (core beats the hand table)
    m_index.emplace(std::move(k), m_ops.size());
    m_ops.push_back(std::move(info));
}

const OpRegistry& OpRegistry::instance() {
    static const OpRegistry registry;
    return registry;
}

const OpInfo* OpRegistry::find(const std::string& ns, const std::string& op, const std::string& overload) const {
    auto it = m_index.find(Target::opKey(ns, op, overload));
    return it == m_index.end() ? nullptr : &m_ops[it->second];
}

const OpInfo* OpRegistry::find(const Target& target) const {
    if (target.kind != Target::Kind::Op) return nullptr;
    auto it = m_index.find(target.key());
    return it == m_index.end() ? nullptr : &m_ops[it->second];
}

IrLevel OpRegistry::levelOf(const Target& target) const {
    switch (target.kind) {
    case Target::Kind::Symbolic: return IrLevel::Symbolic;
    case Target::Kind::HigherOrder: return IrLevel::HigherOrder;
    case Target::Kind::Extension: return IrLevel::Custom;
    case Target::Kind::Unknown: return IrLevel::Unknown;
    case Target::Kind::Op: break;
    }
    // Shape helpers carry the core tag but are symbolic in nature: they compute SymInts, not tensors.
    if (target.ns() == "aten" && target.op().rfind("sym_", 0) == 0) return IrLevel::Symbolic;
    if (target.ns() == "prims") return IrLevel::Prims;
    if (target.ns() == "aten") {
        if (const OpInfo* info = find(target)) return info->level;
        // Any ATen overload without the core tag belongs to the training IR, even one we have no schema for.
        return IrLevel::Training;
    }
    return IrLevel::Custom;
}

size_t OpRegistry::coreOverloadCount() const {
    size_t n = 0;
    for (const auto& op : m_ops)
        if (op.ns == "aten" && op.hasTag("core")) ++n;
    return n;
}

} // namespace irlens::core
