#pragma once
// The guided tour of the Export IR as data: each stop names the program it runs on (a lesson from
// lesson_programs.h), the pane and node it points at, one concept in two or three sentences with the
// spec's term in bold, the rule or reference page it links, and a small task with the check that
// decides when the learner may go on. The check reads a TourState the front end fills in, so the
// whole tour is testable without a window; the overlay that shows it lives in views/teach.

#include "core/ir/program.h"

#include <string>
#include <vector>

namespace irlens::core::teach {

/// The part of the window a stop points at.
enum class TourPane { StatusBar, Graph, NodePane, FxText, Modules, Signature, Ranges, Diagnostics, Decomposition };

/// How a stop's task is checked; `TourStop::arg` parameterises it.
enum class TourCheck {
    Answer,               // a typed answer: arg "dialect", "count:<INPUT_KIND>", "max:<symbol>" or "one of:a,b,c"
    SelectNode,           // arg: the node's name
    SelectInputOfKind,    // arg: an input kind as torch prints it ("BUFFER")
    SelectNodeWithTarget, // arg: the target's key ("aten::add.Tensor")
    SelectNodeWithKwargs, // a node passing a keyword argument
    SelectNodeInModule,   // arg: a module path in the node's nn_module_stack ("mlp.fc1")
    SelectSymbolicNode,   // a node whose meta['val'] has a symbolic size
    SelectInPlaceNode,    // a node calling an in-place op
    SelectMutationOf,     // arg: a state target; the node whose value is written back to it
    NodeDecomposed,       // arg: a node a decomposition step has replaced
    EnterSubgraph,        // arg: the higher-order node whose subgraph is shown
    ShowRule,             // arg: the rule the reference shows ("EIR-D001")
};

struct TourStop {
    const char* id;          // stable: progress is remembered by it
    const char* title;       // the concept it teaches
    const char* program;     // the lesson it runs on: "example", "cond", "buffer", "dynamic"
    TourPane pane;
    const char* focus;       // what to outline: a node name, "in:<value>", or ""
    const char* text;        // the concept: two or three sentences, the spec's terms in <b>…</b>
    const char* link;        // the reference it links: "rules:<id>", "levels" or "ops"
    const char* linkText;
    const char* specSection; // the part of the Export IR spec it teaches
    const char* task;
    TourCheck check;
    const char* arg;
    const char* hint;        // said after a wrong attempt
};

/// Every stop, in order.
const std::vector<TourStop>& tourStops();
/// The index of the stop with `id`, -1 when none.
int tourStopIndex(const std::string& id);

/// What the learner has done, as the front end sees it.
struct TourState {
    const Program* program = nullptr; // the program on screen
    std::string selectedNode;         // Node::name of the selected node in the graph shown, "" for none
    std::string selectedItem;         // "in:<value>" (a placeholder), "out" or ""
    std::string subgraphOf;           // the higher-order node whose subgraph is shown, "" at the top level
    std::string answer;               // the answer typed and submitted, "" for none
    std::string ruleShown;            // the rule the reference window shows, "" when it is closed
};

struct TourVerdict {
    bool done = false;
    std::string feedback; // when not done and the state holds an attempt: what it is and where to look
};

/// Whether the stop's task is done in `state`.
TourVerdict checkStop(const TourStop& stop, const TourState& state);

/// The expected answers of an Answer stop on `program` (lower case); empty for other checks.
std::vector<std::string> expectedAnswers(const TourStop& stop, const Program& program);

} // namespace irlens::core::teach
