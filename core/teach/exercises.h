#pragma once
// Exercises: small programs built in code, each with one thing wrong of a kind the verifier knows
// (an in-place op in an ATEN program, a missing meta['val'], a signature out of order ...). The
// learner marks the node, placeholder or output at fault; the mark is judged against the verifier's
// own finding on the program, never against a stored answer, so an exercise whose program the
// verifier does not flag has no answer (and fails its test).

#include "core/ir/program.h"
#include "core/verify/diagnostic.h"

#include <functional>
#include <string>
#include <vector>

namespace irlens::core::teach {

/// What a learner marks: a node of the graph (by Node::name), a placeholder (a graph input: user input
/// or lifted state, by its value name; its signature entry is the same thing) or the output node.
struct Mark {
    enum class Kind { Node, Input, Output };
    Kind kind = Kind::Node;
    std::string name; // "" for the output node
    bool operator==(const Mark&) const = default;
    /// "node 'relu'", "input 'p_fc1_bias'", "the output node".
    std::string describe() const;
};

struct Exercise {
    std::string id;     // stable, for the scoreboard: "inplace_in_aten"
    std::string title;  // "An in-place op in an ATEN program"
    std::string ruleId; // the rule it teaches, whose finding is the answer: "EIR-D001"
    std::string brief;  // the task as the learner reads it
    std::string hint;   // said after a wrong mark: where to look, in the spec's terms
    std::function<Program()> make;
};

/// Every exercise, in the order the dialog lists them.
const std::vector<Exercise>& exercises();
const Exercise* findExercise(const std::string& id);

/// Where the verifier places a finding: the node it names, the placeholder it names (a signature
/// input entry), or the output node ("output", or a returned value no node computes).
Mark markOf(const Program& program, const Diagnostic& finding);

/// The verifier's finding of the exercise's rule among `findings` (verify() of its program); nullptr
/// when the verifier does not flag the program for that rule.
const Diagnostic* findingFor(const Exercise& exercise, const std::vector<Diagnostic>& findings);

struct MarkVerdict {
    bool right = false;
    std::string feedback; // right: the verifier's message; wrong: what the mark is and where to look
};

/// Whether `mark` is where the verifier found the exercise's fault in `program`.
MarkVerdict judgeMark(const Exercise& exercise, const Program& program, const std::vector<Diagnostic>& findings,
                      const Mark& mark);

} // namespace irlens::core::teach
