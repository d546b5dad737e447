// Parser for the native_functions.yaml schema language as written in the op tables:
//   "name.overload(Type arg, Type arg=default, *, Type kwarg=default) -> Ret"
// Types may hold spaces and brackets ("Tensor(a -> *)[]", "int[2]"), defaults may hold commas
// ("[1, 1]") and quotes ("'none'"), so splitting happens only at bracket depth 0 outside quotes.

#include "core/ops/op_registry.h"

#include <cctype>

namespace irlens::core {

namespace {

constexpr size_t kMaxSchemaLength = 4096; // the longest real schema is well under 1k

std::string trim(const std::string& s) {
    size_t b = 0, e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
    return s.substr(b, e - b);
}

// Splits on commas at depth 0; returns false on unbalanced brackets or quotes.
bool splitTopLevel(const std::string& text, std::vector<std::string>& out) {
    int depth = 0;
    char quote = 0;
    std::string cur;
    for (char c : text) {
        if (quote) {
            if (c == quote) quote = 0;
            cur += c;
            continue;
        }
        if (c == '\'' || c == '"') quote = c;
        else if (c == '(' || c == '[') ++depth;
        else if (c == ')' || c == ']') {
            if (--depth < 0) return false;
        } else if (c == ',' && depth == 0) {
            out.push_back(trim(cur));
            cur.clear();
            continue;
        }
        cur += c;
    }
    if (depth != 0 || quote) return false;
    if (!trim(cur).empty() || !out.empty()) out.push_back(trim(cur));
    return true;
}

// "Type name=default" -> SchemaArg. The type ends at the first space at depth 0.
Result<SchemaArg> parseArg(const std::string& text, bool isReturn) {
    SchemaArg arg;
    int depth = 0;
    size_t typeEnd = text.size();
    for (size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        if (c == '(' || c == '[') ++depth;
        else if (c == ')' || c == ']') --depth;
        else if (c == ' ' && depth == 0) {
            typeEnd = i;
            break;
        }
    }
    arg.type = trim(text.substr(0, typeEnd));
    std::string rest = typeEnd < text.size() ? trim(text.substr(typeEnd)) : std::string();
    if (arg.type.empty()) return Status::error("empty argument type in '" + text + "'");
    auto eq = rest.find('=');
    if (eq != std::string::npos) {
        if (isReturn) return Status::error("a return value cannot have a default: '" + text + "'");
        arg.defaultValue = trim(rest.substr(eq + 1));
        rest = trim(rest.substr(0, eq));
    }
    arg.name = rest;
    if (!isReturn && arg.name.empty()) return Status::error("argument '" + text + "' has no name");
    for (char c : arg.name)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
            return Status::error("argument name '" + arg.name + "' is not an identifier");
    arg.mutates = arg.type.find('!') != std::string::npos;
    return arg;
}

} // namespace

Result<OpSchema> parseSchemaDetailed(const std::string& input) {
    if (input.size() > kMaxSchemaLength)
        return Status::error("schema longer than " + std::to_string(kMaxSchemaLength) + " characters");
    std::string text = trim(input);
    OpSchema schema;
    schema.text = text;
    auto open = text.find('(');
    if (open == std::string::npos || open == 0) return Status::error("missing '(' after the op name in '" + text + "'");
    std::string fullName = trim(text.substr(0, open));
    if (auto ns = fullName.find("::"); ns != std::string::npos) fullName = fullName.substr(ns + 2);
    auto dot = fullName.find('.');
    schema.name = fullName.substr(0, dot);
    schema.overload = dot == std::string::npos ? "default" : fullName.substr(dot + 1);
    if (schema.name.empty() || schema.overload.empty()) return Status::error("bad op name '" + fullName + "'");
    for (char c : schema.name)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
            return Status::error("op name '" + schema.name + "' is not an identifier");

    // The matching ')' of the argument list.
    int depth = 0;
    size_t close = std::string::npos;
    for (size_t i = open; i < text.size(); ++i) {
        if (text[i] == '(') ++depth;
        else if (text[i] == ')' && --depth == 0) {
            close = i;
            break;
        }
    }
    if (close == std::string::npos) return Status::error("unbalanced parentheses in '" + text + "'");
    std::string after = trim(text.substr(close + 1));
    if (after.rfind("->", 0) != 0) return Status::error("missing '->' after the arguments in '" + text + "'");

    std::vector<std::string> argTexts;
    if (!splitTopLevel(text.substr(open + 1, close - open - 1), argTexts))
        return Status::error("unbalanced brackets in the arguments of '" + text + "'");
    bool kwargOnly = false;
    for (const auto& a : argTexts) {
        if (a == "*") {
            kwargOnly = true;
            continue;
        }
        auto arg = parseArg(a, false);
        if (!arg) return arg.status().withContext("in schema '" + text + "'");
        arg->kwargOnly = kwargOnly;
        schema.args.push_back(std::move(*arg));
    }

    std::string ret = trim(after.substr(2));
    if (ret.empty()) return Status::error("missing return type in '" + text + "'");
    std::vector<std::string> retTexts;
    if (ret.front() == '(' && ret.back() == ')') {
        if (!splitTopLevel(ret.substr(1, ret.size() - 2), retTexts))
            return Status::error("unbalanced brackets in the returns of '" + text + "'");
    } else {
        retTexts.push_back(ret);
    }
    for (const auto& r : retTexts) {
        if (r.empty()) continue;
        auto arg = parseArg(r, true);
        if (!arg) return arg.status().withContext("in schema '" + text + "'");
        schema.returns.push_back(std::move(*arg));
    }
    return schema;
}

std::optional<OpSchema> parseSchema(const std::string& text) {
    auto r = parseSchemaDetailed(text);
    if (!r) return std::nullopt;
    return std::move(r).value();
}

bool OpSchema::isInplace() const {
    if (!name.empty() && name.back() == '_' && !(name.size() > 1 && name[0] == '_' && name[1] == '_')) return true;
    for (const auto& a : args)
        if (a.mutates && !a.kwargOnly) return true;
    return false;
}

bool OpSchema::isOut() const {
    if (overload == "out" || overload.rfind("out", 0) == 0) return true;
    for (const auto& a : args)
        if (a.mutates && a.kwargOnly) return true;
    return false;
}

} // namespace irlens::core
