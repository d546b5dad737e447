#include "core/ir/node_meta.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <stdexcept>

namespace irlens::core {

namespace {

// Splits on `sep` at bracket depth 0 (module paths can hold "[0]", "(a,b)" ...).
std::vector<std::string> splitTopLevel(const std::string& text, char sep) {
    std::vector<std::string> out;
    int depth = 0;
    size_t start = 0;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '(' || c == '[' || c == '{') ++depth;
        else if (c == ')' || c == ']' || c == '}') depth = depth > 0 ? depth - 1 : 0;
        else if (c == sep && depth == 0) {
            out.push_back(text.substr(start, i - start));
            start = i + 1;
        }
    }
    out.push_back(text.substr(start));
    return out;
}

std::string trim(const std::string& s) {
    size_t a = s.find_first_not_of(" \t\r\n");
    if (a == std::string::npos) return {};
    size_t b = s.find_last_not_of(" \t\r\n");
    return s.substr(a, b - a + 1);
}

std::string_view trimmed(std::string_view s) {
    size_t a = s.find_first_not_of(" \t\r\n");
    if (a == std::string_view::npos) return {};
    return s.substr(a, s.find_last_not_of(" \t\r\n") - a + 1);
}

// Parses `File "x.py", line 12, in forward` + the following code line. Reads the text in place (a
// stack trace can be megabytes long; copying it line by line made the load's peak hold it 5 times).
std::vector<StackFrame> parseFrames(std::string_view trace) {
    std::vector<StackFrame> frames;
    for (size_t start = 0; start < trace.size();) {
        size_t end = trace.find('\n', start);
        if (end == std::string_view::npos) end = trace.size();
        const std::string_view t = trimmed(trace.substr(start, end - start));
        start = end + 1;
        if (t.starts_with("File \"")) {
            StackFrame f;
            auto q = t.find('"', 6);
            if (q == std::string_view::npos) continue;
            f.file = t.substr(6, q - 6);
            auto lp = t.find("line ", q);
            if (lp != std::string_view::npos) {
                int line = 0;
                std::from_chars(t.data() + lp + 5, t.data() + t.size(), line);
                f.line = line;
            }
            auto ip = t.find(", in ", q);
            if (ip != std::string_view::npos) f.function = t.substr(ip + 5);
            frames.push_back(std::move(f));
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
    entries.shrink_to_fit(); // held for as long as the program (one per distinct module stack)
    return entries;
}

} // namespace

MetaMap::const_iterator MetaMap::lowerBound(std::string_view key) const {
    return std::lower_bound(m_items.begin(), m_items.end(), key,
                            [](const value_type& e, std::string_view k) { return std::string_view(e.first) < k; });
}

MetaMap::iterator MetaMap::lowerBound(std::string_view key) {
    return std::lower_bound(m_items.begin(), m_items.end(), key,
                            [](const value_type& e, std::string_view k) { return std::string_view(e.first) < k; });
}

const MetaText& MetaMap::at(std::string_view key) const {
    auto it = find(key);
    if (it == end()) throw std::out_of_range("no metadata key " + std::string(key));
    return it->second;
}

MetaText& MetaMap::operator[](std::string_view key) {
    auto it = lowerBound(key);
    if (it == m_items.end() || it->first != key) it = m_items.insert(it, {std::string(key), MetaText()});
    return it->second;
}

size_t MetaMap::erase(std::string_view key) {
    auto it = find(key);
    if (it == end()) return 0;
    m_items.erase(it);
    return 1;
}

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
        if (fresh) seen->second = {it->second.shared(), parseFrames(it->second.str())};
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
