#include "core/layout/visible_graph.h"

#include <algorithm>
#include <set>

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
    item.width = w;
    item.height = h;
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
    if (t.kind == Target::Kind::Op || t.kind == Target::Kind::HigherOrder) return t.op;
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

std::string valueLabel(const Graph& graph, const std::string& value) {
    if (const auto* meta = graph.tensorMeta(value)) return meta->shortString();
    if (auto it = graph.symIntValues.find(value); it != graph.symIntValues.end()) return "sym " + it->second.toString();
    if (graph.symBoolValues.count(value)) return "symbool";
    if (graph.symFloatValues.count(value)) return "symfloat";
    return "";
}

VisibleGraph buildVisibleGraph(const Graph& graph, const GraphSignature* signature, const ModuleTree& tree,
                               const CollapseState& collapse, const VisibleGraphOptions& options) {
    VisibleGraph vg;
    std::unordered_map<std::string, Producer> producers;

    auto addItem = [&](VisibleItem item) {
        int idx = static_cast<int>(vg.items.size());
        vg.itemOfId.emplace(item.id, idx);
        vg.items.push_back(std::move(item));
        return idx;
    };

    // graph inputs: state becomes chips, user inputs become pills
    std::unordered_map<std::string, const InputSpec*> specOf;
    if (signature)
        for (const auto& spec : signature->inputSpecs) {
            std::vector<std::string> names;
            spec.arg.collectValueNames(names);
            if (spec.kind == InputKind::ConstantInput && !spec.name.empty()) names.push_back(spec.name);
            for (auto& n : names) specOf.emplace(n, &spec);
        }
    for (size_t i = 0; i < graph.inputs.size(); ++i) {
        std::vector<std::string> names;
        graph.inputs[i].collectValueNames(names);
        // a constant input's placeholder holds the value itself; its name is the signature's
        if (names.empty() && signature && i < signature->inputSpecs.size() &&
            signature->inputSpecs[i].kind == InputKind::ConstantInput && !signature->inputSpecs[i].name.empty())
            names.push_back(signature->inputSpecs[i].name);
        for (const auto& name : names) {
            if (producers.count(name)) continue;
            auto it = specOf.find(name);
            const InputSpec* spec = it == specOf.end() ? nullptr : it->second;
            if (spec && spec->kind != InputKind::UserInput && spec->kind != InputKind::ConstantInput) {
                producers[name] = {Source::State, -1, spec->kind, spec->target};
                continue;
            }
            VisibleItem item;
            item.kind = VisibleItem::Kind::Input;
            item.id = "in:" + name;
            item.title = name;
            item.subtitle = valueLabel(graph, name);
            producers[name] = {Source::Input, addItem(std::move(item)), InputKind::UserInput, {}};
        }
    }

    // one item per visible node or per outermost collapsed module
    std::unordered_map<int, int> moduleItem;
    for (size_t n = 0; n < graph.nodes.size(); ++n) {
        const Node& node = graph.nodes[n];
        int owner = -1;
        for (int m : tree.chainOfNode(static_cast<int>(n)))
            if (!collapse.isExpanded(m)) { owner = m; break; }
        int itemIndex;
        if (owner >= 0) {
            auto it = moduleItem.find(owner);
            if (it == moduleItem.end()) {
                const ModuleInfo& mod = tree.module(owner);
                VisibleItem item;
                item.kind = VisibleItem::Kind::Module;
                item.id = "mod:" + mod.label();
                item.moduleIndex = owner;
                item.cluster = mod.parent;
                item.title = mod.call > 1 ? mod.shortName() + " #" + std::to_string(mod.call) : mod.shortName();
                item.subtitle = mod.shortType() + " · " + std::to_string(mod.totalNodes) + " nodes";
                item.hiddenNodes = mod.totalNodes;
                it = moduleItem.emplace(owner, addItem(std::move(item))).first;
            }
            itemIndex = it->second;
        } else {
            VisibleItem item;
            item.kind = VisibleItem::Kind::Op;
            item.id = node.name;
            item.nodeIndex = static_cast<int>(n);
            item.cluster = tree.moduleOfNode(static_cast<int>(n));
            item.title = opTitle(node);
            item.isHop = node.target.kind == Target::Kind::HigherOrder;
            auto outs = node.outputNames();
            if (!outs.empty()) {
                item.subtitle = valueLabel(graph, outs.front());
                if (outs.size() > 1) item.subtitle += " +" + std::to_string(outs.size() - 1);
            }
            if (vg.itemOfId.count(item.id)) item.id += "#" + std::to_string(n); // duplicate names in hostile files
            itemIndex = addItem(std::move(item));
            ++vg.visibleOpNodes;
        }
        vg.itemOfNode[static_cast<int>(n)] = itemIndex;
        for (const auto& out : node.outputNames())
            if (!producers.count(out)) producers[out] = {Source::Node, static_cast<int>(n), InputKind::UserInput, {}};
    }

    VisibleItem outItem;
    outItem.kind = VisibleItem::Kind::Output;
    outItem.id = "out";
    outItem.title = "output";
    outItem.subtitle = std::to_string(graph.outputs.size()) + (graph.outputs.size() == 1 ? " value" : " values");
    int outIndex = addItem(std::move(outItem));

    // consumers of every value, as (consumer item, value)
    struct Use { int item; std::string value; };
    std::vector<Use> uses;
    auto collectUses = [&](const std::vector<std::string>& names, int consumer) {
        for (const auto& v : names) uses.push_back({consumer, v});
    };
    for (size_t n = 0; n < graph.nodes.size(); ++n) {
        std::vector<std::string> names;
        for (const auto& in : graph.nodes[n].inputs) in.arg.collectValueNames(names);
        collectUses(names, vg.itemOfNode[static_cast<int>(n)]);
    }
    {
        std::vector<std::string> names;
        for (const auto& o : graph.outputs) o.collectValueNames(names);
        collectUses(names, outIndex);
    }

    auto producerItem = [&](const Producer& p) {
        if (p.source == Source::Input) return p.index;
        if (p.source == Source::Node) return vg.itemOfNode[p.index];
        return -1;
    };

    // fan-out: distinct consumer items per value
    std::unordered_map<std::string, std::set<int>> consumers;
    for (const auto& u : uses) consumers[u.value].insert(u.item);

    std::map<std::pair<int, int>, int> edgeIndex;
    std::set<std::pair<int, std::string>> seenUse;
    for (const auto& u : uses) {
        if (!seenUse.insert({u.item, u.value}).second) continue;
        auto pit = producers.find(u.value);
        if (pit == producers.end()) continue; // unknown value: the verifier reports it
        const Producer& p = pit->second;
        if (p.source == Source::State) {
            Chip chip;
            chip.kind = chipKindFor(p.kind);
            chip.value = u.value;
            chip.label = tail(p.target.empty() ? u.value : p.target);
            chip.tip = (p.target.empty() ? u.value : p.target) + "  " + valueLabel(graph, u.value);
            addChip(vg.items[static_cast<size_t>(u.item)], std::move(chip));
            continue;
        }
        int from = producerItem(p);
        if (from < 0 || from == u.item) continue;
        const auto& cons = consumers[u.value];
        if (options.fanOutChipThreshold > 0 && static_cast<int>(cons.size()) > options.fanOutChipThreshold &&
            u.item != *cons.begin() && u.item != outIndex) {
            // keep one real edge (to the first consumer); the rest read the value from a chip
            Chip chip;
            chip.kind = Chip::Kind::FanOut;
            chip.value = u.value;
            chip.label = "↳" + u.value;
            chip.tip = u.value + " (" + std::to_string(cons.size()) + " users)  " + valueLabel(graph, u.value);
            addChip(vg.items[static_cast<size_t>(u.item)], std::move(chip));
            continue;
        }
        auto [it, fresh] = edgeIndex.emplace(std::make_pair(from, u.item), static_cast<int>(vg.edges.size()));
        if (fresh) {
            VisibleEdge e;
            e.from = from;
            e.to = u.item;
            e.value = u.value;
            e.label = valueLabel(graph, u.value);
            vg.edges.push_back(std::move(e));
        } else {
            auto& e = vg.edges[static_cast<size_t>(it->second)];
            ++e.values;
        }
    }
    for (auto& e : vg.edges)
        if (e.values > 1) e.label += " +" + std::to_string(e.values - 1);

    // open module groups that hold something
    std::set<int> clusters;
    for (const auto& item : vg.items)
        for (int m = item.cluster; m > 0; m = tree.module(m).parent) clusters.insert(m);
    vg.clusters.assign(clusters.begin(), clusters.end());

    for (auto& item : vg.items) sizeItem(item);
    return vg;
}

} // namespace irlens::core
