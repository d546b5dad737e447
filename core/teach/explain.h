#pragma once
// "Explain this program": a short tour of one program in the spec's words: its dialect, its inputs
// by kind, its dynamic dimensions and their ranges, its higher-order ops and their branches, what it
// mutates, which ops are not Core ATen and what they decompose to, what Prims would make of the
// rest, its outputs and the verifier's verdict. Each sentence carries links to the nodes, inputs and
// symbols it talks about, which a front end turns into selections.

#include "core/ir/program.h"

#include <string>
#include <vector>

namespace irlens::core::teach {

/// A link of a sentence: the words `text` (written in backquotes in the sentence) and what they
/// point at: "node:<Node::name>", "in:<placeholder value>", "out" (the output node) or "sym:<symbol>".
struct ExplainLink {
    std::string text;
    std::string target;
};

struct ExplainSentence {
    std::string topic; // "dialect", "inputs", "state", "symbols", "hops", "mutations", "ops", "prims", "outputs", "verifier"
    std::string text;  // plain text; each link's words appear in it as `words`
    std::vector<ExplainLink> links;
};

/// The explanation of the program's top-level graph, in reading order. Never empty for a program
/// with a graph; cost is linear in the nodes (the verifier runs once).
std::vector<ExplainSentence> explainProgram(const Program& program);

/// The sentences as plain text, one per line ("topic: text"), for a terminal or a test's message.
std::string explanationText(const std::vector<ExplainSentence>& sentences);

} // namespace irlens::core::teach
