// Matching a program and a transformed copy through PT2E's numeric debug handles
// (torch/ao/quantization/pt2e/_numeric_debugger.py): generate_numeric_debug_handle gives every node
// of the float program node.meta["custom"]["numeric_debug_handle"] = id; prepare_pt2e copies a node's
// handle to the observer after it and convert_pt2e to the dequantize that replaces the observer; a
// decomposition keeps it on the nodes it makes. torch.export's serializer writes meta["custom"] as
// JSON text, which is how the handle reaches a .pt2.
#include "core/compare/match_builder.h"

#include <nlohmann/json.hpp>

#include <unordered_map>

namespace irlens::core {

const char* matchMethodName(ProgramMatch::Method method) {
    switch (method) {
    case ProgramMatch::Method::Structural: return "structural";
    case ProgramMatch::Method::Decomposition: return "decomposition";
    case ProgramMatch::Method::DebugHandle: return "debug handle";
    }
    return "?";
}

std::optional<int64_t> numericDebugHandle(const Node& node) {
    auto it = node.meta.raw.find("custom");
    if (it == node.meta.raw.end()) return std::nullopt;
    const nlohmann::json custom = nlohmann::json::parse(it->second.str(), nullptr, false);
    if (!custom.is_object()) return std::nullopt;
    auto h = custom.find("numeric_debug_handle");
    if (h == custom.end() || !h->is_number_integer()) return std::nullopt;
    return h->get<int64_t>();
}

bool carriesDebugHandles(const Program& program) {
    for (const auto& n : program.graph.nodes)
        if (numericDebugHandle(n)) return true;
    return false;
}

ProgramMatch matchByDebugHandle(ProgramPtr left, ProgramPtr right, const StructuralMatchOptions& options) {
    const std::vector<NodeSignature> ls = nodeSignatures(*left), rs = nodeSignatures(*right);
    std::unordered_map<int64_t, std::vector<int>> rightByHandle;
    std::vector<char> rightHasHandle(right->graph.nodes.size(), 0);
    for (size_t r = 0; r < right->graph.nodes.size(); ++r)
        if (auto h = numericDebugHandle(right->graph.nodes[r])) {
            rightByHandle[*h].push_back(static_cast<int>(r));
            rightHasHandle[r] = 1;
        }
    Assignment as;
    as.leftToRight.resize(ls.size());
    as.rightUsed.assign(rs.size(), 0);
    for (size_t l = 0; l < left->graph.nodes.size(); ++l) {
        auto h = numericDebugHandle(left->graph.nodes[l]);
        auto it = h ? rightByHandle.find(*h) : rightByHandle.end();
        if (it == rightByHandle.end()) continue;
        for (int r : it->second)
            if (!as.rightUsed[static_cast<size_t>(r)]) {
                as.leftToRight[l].push_back(r);
                as.rightUsed[static_cast<size_t>(r)] = 1;
            }
    }
    // Nodes no handle pairs: their structural counterparts, when free and without a handle of their own.
    const ProgramMatch structural = matchStructurally(left, right, options);
    for (const auto& p : structural.pairs) {
        if (p.left < 0 || !as.leftToRight[static_cast<size_t>(p.left)].empty()) continue;
        for (int r : p.right)
            if (!as.rightUsed[static_cast<size_t>(r)] && !rightHasHandle[static_cast<size_t>(r)]) {
                as.leftToRight[static_cast<size_t>(p.left)].push_back(r);
                as.rightUsed[static_cast<size_t>(r)] = 1;
            }
    }
    return assembleMatch(ProgramMatch::Method::DebugHandle, std::move(left), std::move(right), as, ls, rs);
}

} // namespace irlens::core
