#include "views/run/flame_graph_model.h"

#include "core/ir/program.h"

#include <map>
#include <utility>

namespace irlens::views {

namespace {
// Stacks deeper than this are cut (their deeper modules fold into the last kept one): a hostile
// file must not make a frame tree the window cannot lay out.
constexpr size_t kMaxStackDepth = 64;

// The part of `path` below its parent's: "0" for layer1.0 under layer1, but "blocks.0" under the
// root when the ModuleList `blocks` itself never ran (it has no frame of its own).
QString relativeLabel(const std::string& path, const std::string& parentPath) {
    if (!parentPath.empty() && path.size() > parentPath.size() + 1 && path.compare(0, parentPath.size(), parentPath) == 0 &&
        path[parentPath.size()] == '.')
        return QString::fromStdString(path.substr(parentPath.size() + 1));
    return QString::fromStdString(path);
}

QString shortType(const std::string& type) {
    const auto dot = type.rfind('.');
    return QString::fromStdString(dot == std::string::npos ? type : type.substr(dot + 1));
}
} // namespace

FlameTree FlameTree::build(const RunSnapshot& run, const core::Graph& graph) {
    FlameTree t;
    FlameFrame root;
    root.label = QObject::tr("whole run");
    t.m_frames.push_back(std::move(root));
    t.m_leafOfNode.assign(graph.nodes.size(), -1);
    std::map<std::pair<int, std::string>, int> byParentPath;

    for (const RunNode& rn : run.nodes) {
        if (rn.node < 0 || static_cast<size_t>(rn.node) >= graph.nodes.size()) continue;
        const core::Node& n = graph.nodes[static_cast<size_t>(rn.node)];
        int parent = 0;
        if (n.meta.moduleStack) {
            size_t used = 0;
            for (const auto& entry : *n.meta.moduleStack) {
                if (entry.path.empty()) continue; // the root module is the root frame
                if (++used > kMaxStackDepth) break;
                auto [it, added] = byParentPath.try_emplace({parent, entry.path}, t.size());
                if (added) {
                    FlameFrame f;
                    f.label = relativeLabel(entry.path, t.m_frames[static_cast<size_t>(parent)].path);
                    f.path = entry.path;
                    f.type = shortType(entry.type);
                    f.parent = parent;
                    f.depth = t.m_frames[static_cast<size_t>(parent)].depth + 1;
                    t.m_frames[static_cast<size_t>(parent)].children.push_back(t.size());
                    t.m_frames.push_back(std::move(f));
                }
                parent = it->second;
            }
        }
        FlameFrame leaf;
        leaf.label = QString::fromStdString(n.name);
        leaf.type = QString::fromStdString(rn.op);
        leaf.parent = parent;
        leaf.depth = t.m_frames[static_cast<size_t>(parent)].depth + 1;
        leaf.node = rn.node;
        leaf.selfNs = leaf.inclusiveNs = rn.selfNs;
        t.m_frames[static_cast<size_t>(parent)].children.push_back(t.size());
        t.m_frames[static_cast<size_t>(parent)].selfNs += rn.selfNs;
        t.m_leafOfNode[static_cast<size_t>(rn.node)] = t.size();
        t.m_frames.push_back(std::move(leaf));
    }

    // Children always come after their parent, so one backward pass sums the inclusive times.
    for (int f = t.size() - 1; f > 0; --f) {
        FlameFrame& fr = t.m_frames[static_cast<size_t>(f)];
        t.m_maxDepth = std::max(t.m_maxDepth, fr.depth);
        t.m_frames[static_cast<size_t>(fr.parent)].inclusiveNs += fr.inclusiveNs;
    }
    // Every frame lists the nodes below it (run order) and its hottest one.
    for (const FlameFrame& leaf : std::vector<FlameFrame>(t.m_frames)) {
        if (!leaf.isLeaf()) continue;
        for (int a = t.m_leafOfNode[static_cast<size_t>(leaf.node)]; a >= 0; a = t.m_frames[static_cast<size_t>(a)].parent) {
            FlameFrame& anc = t.m_frames[static_cast<size_t>(a)];
            if (anc.hottestNode < 0 || leaf.selfNs > t.m_frames[static_cast<size_t>(t.m_leafOfNode[static_cast<size_t>(anc.hottestNode)])].selfNs)
                anc.hottestNode = leaf.node;
            anc.nodes.push_back(leaf.node);
        }
    }
    return t;
}

int FlameTree::leafOfNode(int node) const {
    if (node < 0 || static_cast<size_t>(node) >= m_leafOfNode.size()) return -1;
    return m_leafOfNode[static_cast<size_t>(node)];
}

int FlameTree::findPath(const std::string& path) const {
    for (int f = 1; f < size(); ++f)
        if (!m_frames[static_cast<size_t>(f)].isLeaf() && m_frames[static_cast<size_t>(f)].path == path) return f;
    return -1;
}

std::vector<int> FlameTree::chain(int frame) const {
    std::vector<int> out;
    for (int f = frame; f >= 0 && f < size(); f = m_frames[static_cast<size_t>(f)].parent) out.insert(out.begin(), f);
    return out;
}

bool FlameTree::isWithin(int frame, int ancestor) const {
    for (int f = frame; f >= 0 && f < size(); f = m_frames[static_cast<size_t>(f)].parent)
        if (f == ancestor) return true;
    return false;
}

} // namespace irlens::views
