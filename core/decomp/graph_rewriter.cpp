#include "core/decomp/graph_rewriter.h"

#include <unordered_map>
#include <unordered_set>

namespace irlens::core {

namespace {

constexpr int kMaxDepth = 16; // rules emit ops of their own level or lower; this only guards mistakes

class Pass {
public:
    Pass(Program& program, const RuleChooser& choose) : m_program(program), m_graph(program.graph), m_names(program.graph), m_choose(choose) {}

    Result<PassResult> run() {
        std::vector<Node> original = std::move(m_graph.nodes);
        m_graph.nodes.clear();
        for (const auto& in : m_graph.inputs) {
            std::vector<std::string> names;
            in.collectValueNames(names);
            m_sofar.insert(names.begin(), names.end());
        }
        m_out.reserve(original.size() * 2);
        for (auto& node : original) {
            auto st = process(std::move(node), 0, nullptr);
            if (!st) return st.status();
        }
        m_graph.nodes = std::move(m_out);
        for (auto& a : m_graph.outputs) renameArg(a);
        for (auto& spec : m_program.signature.outputSpecs) renameArg(spec.arg);
        for (auto& entry : m_program.moduleCallGraph)
            if (entry.signature) {
                for (auto& a : entry.signature->inputs) renameArg(a);
                for (auto& a : entry.signature->outputs) renameArg(a);
            }
        IRLENS_TRY(checkDefined());
        for (const auto& name : m_dropped)
            if (!m_defined.count(name)) m_graph.tensorValues.erase(name);
        return std::move(m_result);
    }

private:
    std::string resolve(const std::string& name) const {
        std::string cur = name;
        for (int guard = 0; guard < 64; ++guard) {
            auto it = m_rename.find(cur);
            if (it == m_rename.end() || it->second == cur) break;
            cur = it->second;
        }
        return cur;
    }

    void renameArg(Argument& a) const {
        if ((a.kind == ArgKind::Tensor || a.kind == ArgKind::OptionalTensor) && !a.s.empty()) a.s = resolve(a.s);
        for (auto& e : a.list) renameArg(e);
    }

    // Returns the names of the nodes that stand for `node` in the output.
    Result<std::vector<std::string>> process(Node node, int depth, AppliedRewrite* root) {
        for (auto& in : node.inputs) renameArg(in.arg);
        const DecompRule* rule = depth > kMaxDepth ? nullptr : m_choose(node, depth);
        if (!rule) {
            std::string name = node.name;
            for (const auto& v : node.outputNames()) m_sofar.insert(v);
            m_sofar.insert(name);
            m_out.push_back(std::move(node));
            return std::vector<std::string>{name};
        }
        RewriteBuilder b(m_graph, m_names, node);
        b.setDefined(&m_sofar);
        Status st = rule->apply(b);
        if (!st) {
            for (const auto& n : b.nodes())
                for (const auto& v : n.outputNames()) m_graph.tensorValues.erase(v);
            m_result.skipped.push_back({node.name, node.target.shortName(), st.message()});
            std::string name = node.name;
            for (const auto& v : node.outputNames()) m_sofar.insert(v);
            m_out.push_back(std::move(node));
            return std::vector<std::string>{name};
        }

        AppliedRewrite* entry = root;
        if (!root) {
            m_result.applied.push_back({node.name, node.target.shortName(), rule, {}});
            entry = &m_result.applied.back();
        }
        std::string rootName = root ? root->oldNode : node.name;
        std::vector<std::string> emitted;
        std::vector<Node> made = std::move(b.nodes());
        for (auto& n : made) {
            n.derivedFrom = rootName;
            // The entry pointer may move when m_result.applied grows: only top-level calls append.
            auto names = process(std::move(n), depth + 1, entry);
            if (!names) return names.status();
            emitted.insert(emitted.end(), names->begin(), names->end());
        }
        // Renames take effect after the emitted nodes: an in-place op's replacement reads the
        // tensor the op mutates, and must not read itself.
        auto slots = node.outputSlots();
        for (const auto& [slot, value] : b.replacements())
            if (slot < slots.size() && !slots[slot].empty() && slots[slot] != value) m_rename[slots[slot]] = value;
        for (const auto& [mutated, value] : b.aliases()) m_rename[mutated] = value;
        for (const auto& s : slots)
            if (!s.empty()) m_dropped.push_back(s);
        if (!root) m_result.applied.back().newNodes = emitted;
        return emitted;
    }

    Status checkDefined() {
        for (const auto& in : m_graph.inputs) {
            std::vector<std::string> names;
            in.collectValueNames(names);
            m_defined.insert(names.begin(), names.end());
        }
        for (const auto& [name, v] : m_graph.symIntValues) m_defined.insert(name);
        for (const auto& n : m_graph.nodes) {
            for (const auto& in : n.inputs) {
                std::vector<std::string> used;
                in.arg.collectValueNames(used);
                for (const auto& u : used)
                    if (!m_defined.count(u))
                        return Status::error("node '" + n.name + "' reads '" + u + "', an output of a replaced node that its rule did not replace");
            }
            for (const auto& v : n.outputNames()) m_defined.insert(v);
        }
        for (const auto& o : m_graph.outputs) {
            std::vector<std::string> used;
            o.collectValueNames(used);
            for (const auto& u : used)
                if (!m_defined.count(u)) return Status::error("graph output '" + u + "' is an output of a replaced node that its rule did not replace");
        }
        return Status::ok();
    }

    Program& m_program;
    Graph& m_graph;
    NameTable m_names;
    const RuleChooser& m_choose;
    std::vector<Node> m_out;
    std::unordered_map<std::string, std::string> m_rename;
    std::vector<std::string> m_dropped;
    std::unordered_set<std::string> m_defined;
    std::unordered_set<std::string> m_sofar; // names defined before the node being processed
    PassResult m_result;
};

} // namespace

Result<PassResult> rewriteProgram(Program& program, const RuleChooser& choose) {
    Pass pass(program, choose);
    return pass.run();
}

} // namespace irlens::core
