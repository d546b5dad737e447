#pragma once
// What explain.cpp (the program's shape: dialect, inputs, symbols, outputs, verdict) and
// explain_ops.cpp (what its nodes do: HOPs, mutations, non-core ops, Prims) share. Internal.

#include "core/ir/value_index.h"
#include "core/teach/explain.h"

#include <string>
#include <vector>

namespace irlens::core::teach::detail {

/// The program being explained, with who makes each value.
struct ExplainContext {
    const Program& program;
    ValueIndex values;
    explicit ExplainContext(const Program& p) : program(p), values(p.graph) {}

    /// The link target of a value: the node that makes it, else its placeholder ("in:"), else "out".
    std::string targetOf(const std::string& value) const;
};

/// Writes one sentence: text and links, each link's words in backquotes.
class SentenceWriter {
public:
    explicit SentenceWriter(std::string topic) { m_s.topic = std::move(topic); }
    SentenceWriter& text(const std::string& t) {
        m_s.text += t;
        return *this;
    }
    SentenceWriter& link(const std::string& words, const std::string& target) {
        m_s.text += "`" + words + "`";
        m_s.links.push_back({words, target});
        return *this;
    }
    /// Up to `shown` linked names ("`a`, `b` and `c`", "`a`, `b`, … and 7 more").
    SentenceWriter& linkList(const std::vector<ExplainLink>& items, size_t shown = 3);
    ExplainSentence done() { return std::move(m_s); }

private:
    ExplainSentence m_s;
};

/// "1 node", "3 nodes".
std::string counted(size_t n, const std::string& singular, const std::string& plural);

void explainHops(const ExplainContext& ctx, std::vector<ExplainSentence>& out);
void explainMutations(const ExplainContext& ctx, std::vector<ExplainSentence>& out);
void explainNonCoreOps(const ExplainContext& ctx, std::vector<ExplainSentence>& out);
void explainPrimsOutlook(const ExplainContext& ctx, std::vector<ExplainSentence>& out);

} // namespace irlens::core::teach::detail
