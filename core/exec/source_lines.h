#pragma once
// Time per source line: where in the model's Python the run's time goes, from each node's
// `stack_trace` (frames outermost first, as Python prints them). A node's time counts in full
// (inclusive) for every distinct line on its stack, so `x = blk(x)` holds a whole block; its self
// time goes to one line only, its innermost user frame: the deepest frame outside PyTorch's own
// files (`torch/...`), the line the model's author wrote. Self times over all lines add up to the
// time of the nodes that have a stack trace.

#include "core/exec/plan.h"

#include <cstdint>
#include <string>
#include <vector>

namespace irlens::core::exec {

struct SourceLine {
    std::string file;        // as the trace writes it ("" for nodes whose trace has no frame)
    int line = 0;
    std::string function;    // of the first frame seen at this line
    std::string code;        // the source text the trace quotes ("" when it quotes none)
    bool inLibrary = false;  // a frame inside PyTorch (isLibraryFrame)
    int64_t selfNs = 0;      // nodes whose innermost user frame is this line
    int64_t inclusiveNs = 0; // nodes with this line anywhere on their stack, each once
    int selfNodes = 0;
    int nodes = 0;           // nodes with this line on their stack
};

struct LineProfile {
    std::vector<SourceLine> lines;  // by self time, largest first, then by inclusive time
    int64_t tracedNs = 0;           // time of the nodes with a stack trace (the sum of selfNs)
    int tracedNodes = 0;
    int64_t untracedNs = 0;         // time of the nodes without one
    int untracedNodes = 0;
};

/// Whether `file` is one of PyTorch's files (a path component `torch`): a library frame.
bool isLibraryFrame(const std::string& file);

/// The frame a node's self time belongs to: its innermost user frame, else its innermost frame (null
/// without frames).
const StackFrame* selfFrame(const std::vector<StackFrame>& frames);

/// The line profile of the plan's top-level nodes, timed by `nodeNs` (one per node; negative: did not
/// run, left out). A node whose frames are all library frames has its self time at its innermost frame.
LineProfile lineProfile(const ExecutionPlan& plan, const std::vector<int64_t>& nodeNs);

} // namespace irlens::core::exec
