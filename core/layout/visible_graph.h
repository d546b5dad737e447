#pragma once
// What is drawn for a graph under a collapse state, before any geometry: the boxes (ops, user
// inputs, the output, collapsed modules), the chips riding on them (parameters, buffers, constants
// and high fan-out values, which would otherwise be long edges that make `dot` explode), the edges
// between boxes and the open module groups.

#include "core/layout/collapse_state.h"
#include "core/layout/module_tree.h"

#include <map>
#include <set>

#include <string>
#include <unordered_map>
#include <vector>

namespace irlens::core {

class ModuleFolds;

/// A value drawn as a small tag on its consumer instead of an edge from far away.
struct Chip {
    enum class Kind { Parameter, Buffer, Constant, FanOut, Subgraph, Other };
    Kind kind = Kind::Other;
    std::string value; // the graph value name ("p_conv1_weight"); a Subgraph chip: the subgraph's name
    int subgraph = -1; // a Subgraph chip: which of the node's subgraphs (0 = the first graph input)
    std::string label; // short text drawn ("weight", "x")
    std::string tip;   // longer text (target FQN and shape)
};

struct VisibleItem {
    enum class Kind { Op, Input, Output, Module };
    Kind kind = Kind::Op;
    std::string id;          // unique: node name, "in:<value>", "out", "mod:<path>"
    int nodeIndex = -1;      // Op: index into Graph::nodes
    int moduleIndex = -1;    // Module: the collapsed module
    int cluster = 0;         // innermost open module containing the item (0 = root, no frame)
    std::string title;       // "convolution", input name, "output", module short name
    std::string subtitle;    // "f32[1, 64, 112, 112]", module class and node count
    std::vector<Chip> chips;
    int hiddenNodes = 0;     // Module: graph nodes folded inside
    bool isHop = false;
    int subgraph = -1;       // a get_attr box (fxPlaceholders): which subgraph of node nodeIndex it holds
    double width = 0;        // points, estimated from the text
    double height = 0;
};

struct VisibleEdge {
    int from = -1;           // item indices
    int to = -1;
    std::string value;       // the first value carried
    std::string label;       // the producer's output shape ("f32[1, 64, 56, 56]")
    int values = 1;          // how many values the edge bundles (between collapsed modules)
};

struct VisibleGraph {
    std::vector<VisibleItem> items;
    std::vector<VisibleEdge> edges;
    std::vector<int> clusters;                     // open modules that hold at least one item
    std::unordered_map<int, int> itemOfNode;       // graph node index -> item index (its own or its module's)
    std::unordered_map<std::string, int> itemOfId;
    int visibleOpNodes = 0;                        // items of kind Op
    /// A folded run of repeated blocks, drawn as one of its instances.
    struct Fold {
        int fold = -1;      // index into ModuleFolds::folds()
        int shown = 0;      // the instance drawn
        int count = 0;      // instances in the run
        std::string range;  // "layers.0 … layers.127"
    };
    /// Folded runs by the module of their shown instance.
    std::unordered_map<int, Fold> folds;
    /// The folded run whose shown instance is `module`, or null.
    const Fold* foldShownAs(int module) const;
};

/// A module's frame title: "layers.1.attn · Attention"; for the shown instance of a folded run, which
/// instance of which it is: "layers.57 of layers.0 … layers.127 · LlamaBlock ×128".
std::string moduleTitle(const ModuleTree& tree, const VisibleGraph& graph, int module);

struct VisibleGraphOptions {
    /// A value with more consumers than this becomes chips on them (0 disables).
    int fanOutChipThreshold = 8;
    /// Draw the graph as the FX graph has it: lifted state (parameters, buffers, constants) as
    /// placeholder boxes with edges, a HOP's subgraphs as get_attr boxes feeding it, no fan-out chips.
    bool fxPlaceholders = false;
    /// Repeated blocks drawn once: each consecutive outermost group of `folds` shows one instance
    /// (`shownInstance`, default the first) with a ×N note; the other instances' nodes map onto the
    /// shown one's items, and edges between instances are dropped. Groups in `unfolded`, or every group
    /// when `folds` is null, are drawn in full.
    const ModuleFolds* folds = nullptr;
    std::map<int, int> shownInstance; // fold index -> instance
    std::set<int> unfolded;           // fold indices
    int minFoldRun = 2;               // shorter runs are drawn in full
};

/// Chip and edge sizing constants shared with the painters.
inline constexpr double kChipHeight = 13.0;
inline constexpr double kChipGap = 3.0;

/// Width of a chip and the height of an item's text block above its chips (shared by sizing and layout).
double chipWidth(const Chip& chip);
double itemTextHeight(const VisibleItem& item);
/// Chips wrap in rows inside the box, starting 6 points from its left edge.
int chipRowCount(const std::vector<Chip>& chips, double boxWidth);

/// Builds the drawable graph. `signature` may be null (HOP subgraphs): every input is then a user input.
VisibleGraph buildVisibleGraph(const Graph& graph, const GraphSignature* signature, const ModuleTree& tree,
                               const CollapseState& collapse, const VisibleGraphOptions& options = {});

/// "f32[1, 64, 56, 56]" for tensors, "sym" for symbolic values, "" when the value is unknown.
std::string valueLabel(const Graph& graph, const std::string& value);

} // namespace irlens::core
