#include "core/layout/visible_graph.h"

#include "core/layout/module_fold.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <set>
#include <string_view>
#include <unordered_set>

namespace irlens::core {
namespace {

constexpr size_t kMaxChipsPerItem = 8;
constexpr double kTitleCharWidth = 7.0;
constexpr double kSubtitleCharWidth = 6.0;
constexpr double kChipCharWidth = 5.6;

enum class Source { None, State, Input, Node };

struct Producer {
    Source source = Source::None;
    int index = -1; // item index (Input) or node index (Node)
    InputKind kind = InputKind::UserInput;
    std::string target;
};

std::string tail(const std::string& s) {
    auto dot = s.rfind('.');
    return dot == std::string::npos ? s : s.substr(dot + 1);
}

void sizeItem(VisibleItem& item) {
    double w = std::max(static_cast<double>(std::min<size_t>(item.title.size(), 40)) * kTitleCharWidth,
                        static_cast<double>(std::min<size_t>(item.subtitle.size(), 48)) * kSubtitleCharWidth) + 24;
    w = std::max(w, item.kind == VisibleItem::Kind::Module ? 120.0 : 90.0);
    double h = itemTextHeight(item);
    if (!item.chips.empty()) {
        for (const auto& c : item.chips) w = std::max(w, chipWidth(c) + 12);
        h += chipRowCount(item.chips, w) * (kChipHeight + kChipGap) + 2;
    }
    // whole points: Graphviz keeps node sizes in points, and a fraction came back rounded
    item.width = std::ceil(w);
    item.height = std::ceil(h);
}

Chip::Kind chipKindFor(InputKind k) {
    switch (k) {
    case InputKind::Parameter: return Chip::Kind::Parameter;
    case InputKind::Buffer: return Chip::Kind::Buffer;
    case InputKind::TensorConstant: return Chip::Kind::Constant;
    default: return Chip::Kind::Other;
    }
}

void addChip(VisibleItem& item, Chip chip) {
    if (item.kind == VisibleItem::Kind::Module) return; // folded modules summarise their state instead
    for (const auto& c : item.chips)
        if (c.value == chip.value) return;
    if (item.chips.size() == kMaxChipsPerItem) {
        Chip more;
        more.value = "";
        more.label = "…";
        more.tip = "more inputs are listed in the inspector";
        item.chips.push_back(std::move(more));
        return;
    }
    if (item.chips.size() > kMaxChipsPerItem) return;
    item.chips.push_back(std::move(chip));
}

std::string opTitle(const Node& node) {
    const auto& t = node.target;
    if (t.kind == Target::Kind::Op || t.kind == Target::Kind::HigherOrder) return t.op();
    return tail(t.full);
}

} // namespace

double chipWidth(const Chip& c) { return static_cast<double>(std::min<size_t>(c.label.size(), 18)) * kChipCharWidth + 10; }

int chipRowCount(const std::vector<Chip>& chips, double boxWidth) {
    int rows = chips.empty() ? 0 : 1;
    double x = 6;
    for (const auto& c : chips) {
        double cw = chipWidth(c);
        if (x > 6 && x + cw > boxWidth - 6) {
            ++rows;
            x = 6;
        }
        x += cw + kChipGap;
    }
    return rows;
}

double itemTextHeight(const VisibleItem& item) {
    switch (item.kind) {
    case VisibleItem::Kind::Input:
    case VisibleItem::Kind::Output: return 34;
    case VisibleItem::Kind::Module: return 44;
    case VisibleItem::Kind::Op: return 38;
    }
    return 38;
}

const VisibleGraph::Fold* VisibleGraph::foldShownAs(int module) const {
    auto it = folds.find(module);
    return it == folds.end() ? nullptr : &it->second;
}

std::string moduleTitle(const ModuleTree& tree, const VisibleGraph& graph, int module) {
    const auto& mod = tree.module(module);
    if (const auto* fold = graph.foldShownAs(module))
        return mod.label() + " of " + fold->range + " · " + mod.shortType() + " ×" + std::to_string(fold->count);
    return mod.label() + " · " + mod.shortType();
}

std::string valueLabel(const Graph& graph, const std::string& value) {
    if (const auto* meta = graph.tensorMeta(value)) return meta->shortString();
    if (auto it = graph.symIntValues.find(value); it != graph.symIntValues.end()) return "sym " + it->second.toString();
    if (graph.symBoolValues.count(value)) return "symbool";
    if (graph.symFloatValues.count(value)) return "symfloat";
    return "";
}

namespace {

/// buildVisibleGraph's phases over one shared state: the items of the inputs, nodes (or their
/// collapsed modules) and the output, then the edges and chips from every use of a value.
class VisibleGraphBuilder {
public:
    VisibleGraphBuilder(const Graph& graph, const GraphSignature* signature, const ModuleTree& tree,
                        const CollapseState& collapse, const VisibleGraphOptions& options)
        : m_graph(graph), m_signature(signature), m_tree(tree), m_collapse(collapse), m_options(options) {}

    VisibleGraph build() {
        // the tables hold about one entry per node: sized once instead of rehashed a dozen times
        const size_t n = m_graph.nodes.size() + m_graph.inputs.size();
        m_producers.reserve(n);
        m_consumers.reserve(n);
        m_vg.itemOfNode.reserve(m_graph.nodes.size());
        addInputs();
        addNodes();
        addOutput();
        collectUses();
        connectUses();
        finish();
        return std::move(m_vg);
    }

private:
    /// One read of a value by an item (the value's name viewed in the graph, which outlives the build).
    struct Use {
        int item;
        std::string_view value;
        int node = -1; // the consuming graph node (-1: the output)
    };
    /// The distinct items that read a value: how many, and the first of them in item order.
    struct Consumers {
        int count = 0;
        int first = INT_MAX;
    };

    int addItem(VisibleItem item) {
        int idx = static_cast<int>(m_vg.items.size());
        m_vg.itemOfId.emplace(item.id, idx);
        m_vg.items.push_back(std::move(item));
        return idx;
    }

    /// The names a graph input defines; a constant input's placeholder holds the value itself, its name
    /// is the signature's.
    std::vector<std::string_view> inputNames(size_t i) const {
        std::vector<std::string_view> names;
        m_graph.inputs[i].forEachValueName([&](const std::string& n) { names.push_back(n); });
        if (names.empty() && m_signature && i < m_signature->inputSpecs.size() &&
            m_signature->inputSpecs[i].kind == InputKind::ConstantInput && !m_signature->inputSpecs[i].name.empty())
            names.push_back(m_signature->inputSpecs[i].name);
        return names;
    }

    /// Graph inputs: state becomes chips, user inputs become pills.
    void addInputs() {
        std::unordered_map<std::string_view, const InputSpec*> specOf;
        if (m_signature)
            for (const auto& spec : m_signature->inputSpecs) {
                spec.arg.forEachValueName([&](const std::string& n) { specOf.emplace(n, &spec); });
                if (spec.kind == InputKind::ConstantInput && !spec.name.empty()) specOf.emplace(spec.name, &spec);
            }
        for (size_t i = 0; i < m_graph.inputs.size(); ++i)
            for (const std::string_view name : inputNames(i)) {
                if (m_producers.count(name)) continue;
                auto it = specOf.find(name);
                const InputSpec* spec = it == specOf.end() ? nullptr : it->second;
                const bool state = spec && spec->kind != InputKind::UserInput && spec->kind != InputKind::ConstantInput;
                if (state && !m_options.fxPlaceholders) {
                    m_producers[name] = {Source::State, -1, spec->kind, spec->target};
                    continue;
                }
                VisibleItem item;
                item.kind = VisibleItem::Kind::Input;
                item.id = "in:" + std::string(name);
                item.title = std::string(name);
                item.subtitle = valueLabel(m_graph, item.title);
                if (state) item.subtitle = std::string(inputKindName(spec->kind)) + " · " + item.subtitle;
                m_producers[name] = {Source::Input, addItem(std::move(item)), InputKind::UserInput, {}};
            }
    }

    /// The box of collapsed module `owner`, made on its first node.
    int moduleItem(int owner) {
        auto it = m_moduleItem.find(owner);
        if (it != m_moduleItem.end()) return it->second;
        const ModuleInfo& mod = m_tree.module(owner);
        VisibleItem item;
        item.kind = VisibleItem::Kind::Module;
        item.id = "mod:" + mod.label();
        item.moduleIndex = owner;
        item.cluster = mod.parent;
        if (const auto* fold = m_vg.foldShownAs(owner)) { // "layers.57 of layers.0 … layers.127", "LlamaBlock ×128 · 95 nodes each"
            item.title = mod.label() + " of " + fold->range;
            item.subtitle = mod.shortType() + " ×" + std::to_string(fold->count) + " · " + std::to_string(mod.totalNodes) + " nodes each";
        } else {
            item.title = m_tree.nameInParent(owner);
            item.subtitle = mod.shortType() + " · " + std::to_string(mod.totalNodes) + " nodes";
        }
        item.hiddenNodes = mod.totalNodes;
        return m_moduleItem.emplace(owner, addItem(std::move(item))).first->second;
    }

    int opItem(size_t n) {
        const Node& node = m_graph.nodes[n];
        VisibleItem item;
        item.kind = VisibleItem::Kind::Op;
        item.id = node.name;
        item.nodeIndex = static_cast<int>(n);
        item.cluster = m_tree.moduleOfNode(static_cast<int>(n));
        item.title = opTitle(node);
        item.isHop = node.target.kind == Target::Kind::HigherOrder;
        auto outs = node.outputNames();
        if (!outs.empty()) {
            item.subtitle = valueLabel(m_graph, outs.front());
            if (outs.size() > 1) item.subtitle += " +" + std::to_string(outs.size() - 1);
        }
        // a HOP's subgraphs (cond's two branches, a map's body), each one click away
        int sub = 0;
        for (const auto& in : node.inputs) {
            if (in.arg.kind != ArgKind::Graph) continue;
            if (m_options.fxPlaceholders) { // FX's get_attr node, feeding the HOP
                m_getAttrs.push_back({static_cast<int>(n), sub++, in.arg.s, item.cluster});
                continue;
            }
            Chip chip;
            chip.kind = Chip::Kind::Subgraph;
            chip.value = in.arg.s;
            chip.subgraph = sub++;
            chip.label = "▸ " + in.arg.s;
            chip.tip = "Open " + in.arg.s + (in.name.empty() ? std::string() : " (" + in.name + ")");
            item.chips.push_back(std::move(chip));
        }
        if (m_vg.itemOfId.count(item.id)) item.id += "#" + std::to_string(n); // duplicate names in hostile files
        ++m_vg.visibleOpNodes;
        return addItem(std::move(item));
    }

    /// One item per visible node or per outermost collapsed module.
    /// The node drawn for `n`: itself, or (in a folded group) the node at its place in the shown instance.
    int drawnNode(int n) const {
        if (!m_options.folds) return n;
        const auto place = m_options.folds->placeOfNode(n);
        if (!folded(place.fold)) return n;
        return m_options.folds->instanceNode(place.fold, shownOf(place.fold), n);
    }
    bool folded(int fold) const {
        if (fold < 0 || !m_options.folds) return false;
        return m_options.folds->folds()[size_t(fold)].drawnOnce(m_options.minFoldRun) && !m_options.unfolded.count(fold);
    }
    int shownOf(int fold) const {
        auto it = m_options.shownInstance.find(fold);
        const int count = m_options.folds->folds()[size_t(fold)].count();
        return it == m_options.shownInstance.end() ? 0 : std::clamp(it->second, 0, count - 1);
    }
    /// A use inside a folded group that the shown instance does not draw: from one instance to the
    /// next (it would loop on the shown instance), or within a hidden instance (the shown one draws it).
    bool hiddenInFold(int producer, int consumer) const {
        if (!m_options.folds || producer < 0 || consumer < 0) return false;
        const auto pa = m_options.folds->placeOfNode(producer), pb = m_options.folds->placeOfNode(consumer);
        return pa.fold == pb.fold && folded(pa.fold) && (pa.instance != pb.instance || pb.instance != shownOf(pb.fold));
    }

    /// The folded groups, by the module of the instance each shows.
    void noteFolds() {
        if (!m_options.folds) return;
        const auto& folds = m_options.folds->folds();
        for (size_t f = 0; f < folds.size(); ++f) {
            if (!folded(static_cast<int>(f))) continue;
            VisibleGraph::Fold note;
            note.fold = static_cast<int>(f);
            note.shown = shownOf(note.fold);
            note.count = folds[f].count();
            note.range = m_tree.module(folds[f].instances.front()).label() + " … " + m_tree.module(folds[f].instances.back()).label();
            m_vg.folds[folds[f].instances[size_t(note.shown)]] = std::move(note);
        }
    }

    /// One item per visible node or per outermost collapsed module; nodes of folded instances map onto
    /// the shown instance's items.
    void addNodes() {
        noteFolds();
        std::vector<int> mapped;
        for (size_t n = 0; n < m_graph.nodes.size(); ++n) {
            if (drawnNode(static_cast<int>(n)) != static_cast<int>(n)) {
                mapped.push_back(static_cast<int>(n));
                continue;
            }
            const int owner = outermostCollapsed(m_tree.moduleOfNode(static_cast<int>(n)));
            const size_t getAttrsBefore = m_getAttrs.size();
            const int item = owner >= 0 ? moduleItem(owner) : opItem(n);
            m_vg.itemOfNode[static_cast<int>(n)] = item;
            addGetAttrs(getAttrsBefore, item);
            addProducer(static_cast<int>(n));
        }
        for (int n : mapped) {
            m_vg.itemOfNode[n] = m_vg.itemOfNode.at(drawnNode(n));
            addProducer(n);
        }
    }

    /// The outermost collapsed module on the way from the root to `module` (-1: all open), remembered
    /// per module: the nodes of one module all ask the same.
    int outermostCollapsed(int module) {
        if (module <= 0) return -1;
        auto [it, fresh] = m_ownerOfModule.try_emplace(module, -1);
        if (!fresh) return it->second;
        const int outer = outermostCollapsed(m_tree.module(module).parent);
        const int owner = outer >= 0 ? outer : (m_collapse.isExpanded(module) ? -1 : module);
        m_ownerOfModule[module] = owner; // `it` may have moved while the parents were added
        return owner;
    }

    void addProducer(int n) {
        for (const auto& out : m_graph.nodes[size_t(n)].outputs)
            out.forEachValueName([&](const std::string& name) { m_producers.try_emplace(name, Producer{Source::Node, n, InputKind::UserInput, {}}); });
    }

    /// The get_attr boxes opItem found since `from`, each with its edge to the HOP's item.
    void addGetAttrs(size_t from, int hopItem) {
        for (size_t k = from; k < m_getAttrs.size(); ++k) {
            const GetAttr& g = m_getAttrs[k];
            VisibleItem item;
            item.kind = VisibleItem::Kind::Input;
            item.id = "attr:" + std::to_string(g.node) + ":" + g.name;
            item.nodeIndex = g.node;
            item.subgraph = g.subgraph;
            item.cluster = g.cluster;
            item.title = g.name;
            item.subtitle = "get_attr · subgraph";
            VisibleEdge e;
            e.from = addItem(std::move(item));
            e.to = hopItem;
            e.value = g.name;
            m_vg.edges.push_back(std::move(e));
        }
    }

    void addOutput() {
        VisibleItem outItem;
        outItem.kind = VisibleItem::Kind::Output;
        outItem.id = "out";
        outItem.title = "output";
        outItem.subtitle = std::to_string(m_graph.outputs.size()) + (m_graph.outputs.size() == 1 ? " value" : " values");
        m_outIndex = addItem(std::move(outItem));
    }

    /// Every first read of a value by an item as (consumer item, value), and the distinct consumer
    /// items per value.
    void collectUses() {
        std::unordered_set<std::pair<int, std::string_view>, UseHash> seen;
        seen.reserve(2 * m_graph.nodes.size());
        auto add = [&](const Argument& a, int consumer, int node) {
            a.forEachValueName([&](const std::string& v) {
                if (!seen.emplace(consumer, v).second) return;
                m_uses.push_back({consumer, v, node});
                Consumers& c = m_consumers[v];
                ++c.count;
                c.first = std::min(c.first, consumer);
            });
        };
        for (size_t n = 0; n < m_graph.nodes.size(); ++n) {
            const int item = m_vg.itemOfNode[static_cast<int>(n)];
            for (const auto& in : m_graph.nodes[n].inputs) add(in.arg, item, static_cast<int>(n));
        }
        for (const auto& o : m_graph.outputs) add(o, m_outIndex, -1);
    }

    struct UseHash {
        size_t operator()(const std::pair<int, std::string_view>& u) const {
            return std::hash<std::string_view>{}(u.second) * 31 + static_cast<size_t>(u.first);
        }
    };

    int producerItem(const Producer& p) {
        if (p.source == Source::Input) return p.index;
        if (p.source == Source::Node) return m_vg.itemOfNode[p.index];
        return -1;
    }

    Chip stateChip(const Producer& p, std::string_view valueName) const {
        const std::string value(valueName);
        Chip chip;
        chip.kind = chipKindFor(p.kind);
        chip.value = value;
        chip.label = tail(p.target.empty() ? value : p.target);
        chip.tip = (p.target.empty() ? value : p.target) + "  " + valueLabel(m_graph, value);
        return chip;
    }

    Chip fanOutChip(std::string_view valueName, int users) const {
        const std::string value(valueName);
        Chip chip;
        chip.kind = Chip::Kind::FanOut;
        chip.value = value;
        chip.label = "↳" + value;
        chip.tip = value + " (" + std::to_string(users) + " users)  " + valueLabel(m_graph, value);
        return chip;
    }

    /// An edge from `from` to the use's item, or one more value on the edge already there.
    void addEdge(int from, const Use& u) {
        const uint64_t key = (static_cast<uint64_t>(static_cast<uint32_t>(from)) << 32) | static_cast<uint32_t>(u.item);
        auto [it, fresh] = m_edgeIndex.emplace(key, static_cast<int>(m_vg.edges.size()));
        if (!fresh) {
            ++m_vg.edges[static_cast<size_t>(it->second)].values;
            return;
        }
        VisibleEdge e;
        e.from = from;
        e.to = u.item;
        e.value = std::string(u.value);
        e.label = valueLabel(m_graph, e.value);
        m_vg.edges.push_back(std::move(e));
    }

    /// Each use becomes a state chip, a fan-out chip (a value read by many keeps one real edge, to
    /// its first consumer) or an edge.
    void connectUses() {
        for (const auto& u : m_uses) {
            auto pit = m_producers.find(u.value);
            if (pit == m_producers.end()) continue; // unknown value: the verifier reports it
            const Producer& p = pit->second;
            if (p.source == Source::State) {
                addChip(m_vg.items[static_cast<size_t>(u.item)], stateChip(p, u.value));
                continue;
            }
            int from = producerItem(p);
            if (from < 0 || from == u.item) continue;
            if (p.source == Source::Node && hiddenInFold(p.index, u.node)) continue;
            const Consumers& cons = m_consumers[u.value];
            if (m_options.fanOutChipThreshold > 0 && !m_options.fxPlaceholders && cons.count > m_options.fanOutChipThreshold &&
                u.item != cons.first && u.item != m_outIndex) {
                addChip(m_vg.items[static_cast<size_t>(u.item)], fanOutChip(u.value, cons.count));
                continue;
            }
            addEdge(from, u);
        }
        for (auto& e : m_vg.edges)
            if (e.values > 1) e.label += " +" + std::to_string(e.values - 1);
    }

    /// The module groups that hold something, and every item's size.
    void finish() {
        std::set<int> clusters;
        for (const auto& item : m_vg.items)
            for (int m = item.cluster; m > 0; m = m_tree.module(m).parent) clusters.insert(m);
        m_vg.clusters.assign(clusters.begin(), clusters.end());
        for (auto& item : m_vg.items) sizeItem(item);
    }

    const Graph& m_graph;
    const GraphSignature* m_signature;
    const ModuleTree& m_tree;
    const CollapseState& m_collapse;
    const VisibleGraphOptions& m_options;
    VisibleGraph m_vg;
    std::unordered_map<std::string_view, Producer> m_producers; // names viewed in the graph and signature
    std::unordered_map<int, int> m_moduleItem;
    std::unordered_map<int, int> m_ownerOfModule; // module -> outermostCollapsed
    struct GetAttr {
        int node, subgraph;
        std::string name;
        int cluster;
    };
    std::vector<GetAttr> m_getAttrs; // fxPlaceholders: subgraphs met by opItem, drawn as get_attr boxes
    int m_outIndex = -1;
    std::vector<Use> m_uses;
    std::unordered_map<std::string_view, Consumers> m_consumers;
    std::unordered_map<uint64_t, int> m_edgeIndex; // (from item, to item) -> edge
};

} // namespace

VisibleGraph buildVisibleGraph(const Graph& graph, const GraphSignature* signature, const ModuleTree& tree,
                               const CollapseState& collapse, const VisibleGraphOptions& options) {
    return VisibleGraphBuilder(graph, signature, tree, collapse, options).build();
}

} // namespace irlens::core
