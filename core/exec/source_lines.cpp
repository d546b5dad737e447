#include "core/exec/source_lines.h"

#include <algorithm>
#include <map>
#include <set>

namespace irlens::core::exec {

bool isLibraryFrame(const std::string& file) {
    size_t start = 0;
    while (start <= file.size()) {
        size_t end = file.find_first_of("/\\", start);
        if (end == std::string::npos) return false; // the last component is the file's own name
        if (file.compare(start, end - start, "torch") == 0) return true;
        start = end + 1;
    }
    return false;
}

const StackFrame* selfFrame(const std::vector<StackFrame>& frames) {
    for (auto it = frames.rbegin(); it != frames.rend(); ++it)
        if (!isLibraryFrame(it->file)) return &*it;
    return frames.empty() ? nullptr : &frames.back();
}

namespace {

using LineKey = std::pair<std::string, int>;

SourceLine& lineFor(std::map<LineKey, SourceLine>& lines, const StackFrame* f) {
    static const StackFrame kNoFrame{};
    if (!f) f = &kNoFrame;
    SourceLine& l = lines[{f->file, f->line}];
    if (l.nodes == 0 && l.selfNodes == 0) {
        l.file = f->file;
        l.line = f->line;
        l.function = f->function;
        l.code = f->code;
        l.inLibrary = isLibraryFrame(f->file);
    }
    return l;
}

// Adds one node: its time inclusive to each distinct line on its stack, self to its innermost user line.
void addNode(std::map<LineKey, SourceLine>& lines, const std::vector<StackFrame>& frames, int64_t ns) {
    std::set<LineKey> seen;
    for (const StackFrame& f : frames) {
        if (!seen.insert({f.file, f.line}).second) continue; // recursion: a line counts once per node
        SourceLine& l = lineFor(lines, &f);
        l.inclusiveNs += ns;
        ++l.nodes;
    }
    SourceLine& self = lineFor(lines, selfFrame(frames));
    self.selfNs += ns;
    ++self.selfNodes;
}

} // namespace

LineProfile lineProfile(const ExecutionPlan& plan, const std::vector<int64_t>& nodeNs) {
    LineProfile p;
    std::map<LineKey, SourceLine> lines;
    for (const PlanNode& pn : plan.graph().nodes) {
        const size_t k = static_cast<size_t>(pn.index);
        if (k >= nodeNs.size() || nodeNs[k] < 0) continue;
        const NodeMeta& meta = pn.node->meta;
        if (!meta.stackTrace || meta.stackTrace->empty()) {
            p.untracedNs += nodeNs[k];
            ++p.untracedNodes;
            continue;
        }
        addNode(lines, meta.frames, nodeNs[k]);
        p.tracedNs += nodeNs[k];
        ++p.tracedNodes;
    }
    for (auto& [key, line] : lines) p.lines.push_back(std::move(line));
    std::stable_sort(p.lines.begin(), p.lines.end(), [](const SourceLine& a, const SourceLine& b) {
        return a.selfNs != b.selfNs ? a.selfNs > b.selfNs : a.inclusiveNs > b.inclusiveNs;
    });
    return p;
}

} // namespace irlens::core::exec
