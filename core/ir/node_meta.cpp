#include "core/ir/node_meta.h"

#include <cstdlib>
#include <sstream>

namespace irlens::core {

namespace {

// Splits on `sep` at bracket depth 0 (module paths can hold "[0]", "(a,b)" ...).
std::vector<std::string> splitTopLevel(const std::string& text, char sep) {
    std::vector<std::string> out;
    int depth = 0;
    std::string cur;
    for (char c : text) {
        if (c == '(' || c == '[' || c == '{') ++depth;
        if (c == ')' || c == ']' || c == '}') depth = depth > 0 ? depth - 1 : 0;
        if (c == sep && depth == 0) {
            out.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    out.push_back(cur);
    return out;
}

std::string trim(const std::string& s) {
    size_t a = s.find_first_not_of(" \t\r\n");
    if (a == std::string::npos) return {};
    size_t b = s.find_last_not_of(" \t\r\n");
    return s.substr(a, b - a + 1);
}

// Parses `File "x.py", line 12, in forward` + the following code line.
std::vector<StackFrame> parseFrames(const std::string& trace) {
    std::vector<StackFrame> frames;
    std::istringstream in(trace);
    std::string line;
    while (std::getline(in, line)) {
        std::string t = trim(line);
        if (t.rfind("File \"", 0) == 0) {
            StackFrame f;
            auto q = t.find('"', 6);
            if (q == std::string::npos) continue;
            f.file = t.substr(6, q - 6);
            auto lp = t.find("line ", q);
            if (lp != std::string::npos) f.line = std::atoi(t.c_str() + lp + 5);
            auto ip = t.find(", in ", q);
            if (ip != std::string::npos) f.function = t.substr(ip + 5);
            frames.push_back(f);
        } else if (!frames.empty() && frames.back().code.empty() && !t.empty()) {
            frames.back().code = t;
        }
    }
    return frames;
}

std::vector<ModuleStackEntry> parseModuleStack(const std::string& text) {
    std::vector<ModuleStackEntry> entries;
    if (text.empty()) return entries;
    for (const auto& entry : splitTopLevel(text, ';')) {
        if (entry.empty()) continue;
        ModuleStackEntry e;
        // old form: key:(path,type)
        auto colon = entry.find(":(");
        if (colon != std::string::npos && entry.back() == ')' && entry.find(',') > colon) {
            e.key = entry.substr(0, colon);
            auto inner = splitTopLevel(entry.substr(colon + 2, entry.size() - colon - 3), ',');
            if (!inner.empty()) e.path = trim(inner[0]);
            if (inner.size() > 1) e.type = trim(inner.back());
        } else {
            auto parts = splitTopLevel(entry, ',');
            e.key = parts.size() > 0 ? parts[0] : "";
            e.type = parts.size() > 2 ? parts.back() : "";
            if (parts.size() > 2) {
                // the path is everything between the first and last top-level comma
                for (size_t k = 1; k + 1 < parts.size(); ++k) e.path += (k > 1 ? "," : "") + parts[k];
            } else if (parts.size() == 2) {
                e.path = parts[1];
            }
        }
        entries.push_back(std::move(e));
    }
    return entries;
}

} // namespace

MetaText MetaParseCache::text(std::string_view value) {
    if (auto it = m_texts.find(value); it != m_texts.end()) return it->second;
    MetaText shared{std::string(value)};
    m_texts.emplace(shared.str(), shared);
    return shared;
}

void NodeMeta::parseFromRaw() {
    MetaParseCache alone;
    parseFromRaw(alone);
}

void NodeMeta::parseFromRaw(MetaParseCache& cache) {
    stackTrace.reset();
    frames = {};
    moduleStack.reset();
    sourceFnStack.reset();
    torchFn.reset();
    custom.reset();
    if (auto it = raw.find("stack_trace"); it != raw.end()) {
        // the text is shared with raw (the same MetaText object the cache handed out for this text)
        if (!it->second.shared()) it->second = MetaText(std::string());
        auto [seen, fresh] = cache.m_traces.try_emplace(it->second.shared().get());
        if (fresh) seen->second = {it->second.shared(), parseFrames(it->second)};
        stackTrace = seen->second.text;
        frames = seen->second.frames;
    }
    if (auto it = raw.find("nn_module_stack"); it != raw.end()) {
        auto [seen, fresh] = cache.m_moduleStacks.try_emplace(it->second);
        if (fresh) seen->second = std::make_shared<const std::vector<ModuleStackEntry>>(parseModuleStack(it->second.str()));
        moduleStack = seen->second;
    }
    auto sf = raw.find("source_fn_stack");
    if (sf == raw.end()) sf = raw.find("source_fn");
    if (sf != raw.end()) {
        auto [seen, fresh] = cache.m_sourceFns.try_emplace(sf->second);
        if (fresh) {
            std::vector<SourceFnEntry> entries;
            for (const auto& entry : splitTopLevel(sf->second.str(), ';')) {
                if (entry.empty()) continue;
                auto comma = entry.find(',');
                entries.push_back({entry.substr(0, comma), comma == std::string::npos ? "" : entry.substr(comma + 1)});
            }
            seen->second = std::make_shared<const std::vector<SourceFnEntry>>(std::move(entries));
        }
        sourceFnStack = seen->second;
    }
    // the text raw already holds (and shares with the other nodes of the same value)
    auto shared = [](const MetaText& t) { return t.shared() ? t.shared() : std::make_shared<const std::string>(); };
    if (auto it = raw.find("torch_fn"); it != raw.end()) torchFn = shared(it->second);
    if (auto it = raw.find("custom"); it != raw.end()) custom = shared(it->second);
}

} // namespace irlens::core
