#pragma once
// The frames of the module flame graph of one run: the root is the whole run, below it one frame per
// nn.Module path of the nodes' nn_module_stack (a module reached from two parents gets a frame under
// each), and the executed nodes as leaves under their innermost module. Times are the nodes' self
// times (medians of the run), so every frame's inclusive time is the sum of its leaves.

#include "views/run/run_snapshot.h"

#include <QObject>
#include <QString>

#include <cstdint>
#include <string>
#include <vector>

namespace irlens::core {
struct Graph;
}

namespace irlens::views {

struct FlameFrame {
    QString label;             // path below the parent's ("conv1", "blocks.0"), node name for leaves, "whole run" for the root
    std::string path;          // module FQN ("layer1.0.conv1"); "" for the root and for leaves
    QString type;              // module class ("Conv2d") or the leaf's op ("aten.convolution.default")
    int parent = -1;
    int depth = 0;             // root 0
    int node = -1;             // graph node index for leaves, -1 for the root and modules
    std::vector<int> children; // submodules and leaves, in the order of their first node
    int64_t inclusiveNs = 0;   // the frame and everything below it
    int64_t selfNs = 0;        // leaves: their time; modules and root: nodes directly in them
    std::vector<int> nodes;    // every graph node below, in run order
    int hottestNode = -1;      // the slowest of those

    bool isLeaf() const { return node >= 0; }
};

class FlameTree {
public:
    /// Builds the tree of `run` over the module stacks of `graph` (the graph the run executed).
    static FlameTree build(const RunSnapshot& run, const core::Graph& graph);

    const std::vector<FlameFrame>& frames() const { return m_frames; }
    const FlameFrame& frame(int index) const { return m_frames[static_cast<size_t>(index)]; }
    int size() const { return static_cast<int>(m_frames.size()); }
    bool empty() const { return m_frames.empty(); }
    /// Deepest level (root = 0).
    int maxDepth() const { return m_maxDepth; }
    /// The leaf of a node, -1 when it did not run.
    int leafOfNode(int node) const;
    /// The first frame of a module path, -1 if absent.
    int findPath(const std::string& path) const;
    /// Frames from the root down to `frame` (both included).
    std::vector<int> chain(int frame) const;
    /// True when `frame` is `ancestor` or below it.
    bool isWithin(int frame, int ancestor) const;

private:
    std::vector<FlameFrame> m_frames;
    std::vector<int> m_leafOfNode; // by graph node index
    int m_maxDepth = 0;
};

} // namespace irlens::views
