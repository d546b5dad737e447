// Entry points of the JSON codec: parse once into a compact tree (the graph's nodes and value tables
// only checked, then parsed one at a time), then walk it (json_decode_*.cpp).
#include "core/io/json_codec.h"

#include "core/io/json_decode_context.h"

namespace irlens::core {

using json::Decoder;
using json::JsonDoc;
using json::JType;
using json::kNoNode;
using json::Path;

Result<std::shared_ptr<Program>> decodeProgramJson(std::string_view text, const std::string& recordName,
                                                   const JsonDecodeOptions& options) {
    // The containers that grow with the graph are decoded an element at a time (json_decode_dom.h).
    static const std::vector<json::KeyPath> kDeferred = {
        {"graph_module", "graph", "nodes"},           {"graph_module", "graph", "tensor_values"},
        {"graph_module", "graph", "sym_int_values"},  {"graph_module", "graph", "sym_bool_values"},
        {"graph_module", "graph", "sym_float_values"}};
    // A text with a syntax error reports its first one, wherever decoding stopped: the deferred
    // containers were only scanned, so on any failure the text is checked whole.
    auto firstError = [&](const Status& failure) {
        JsonDoc check;
        const Status syntax = check.parse(text, options.maxDepth, kDeferred, json::Deferral::Check);
        return syntax ? failure : syntax.withContext(recordName);
    };
    JsonDoc doc;
    if (Status s = doc.parse(text, options.maxDepth, kDeferred); !s) return firstError(s.withContext(recordName));
    auto program = std::make_shared<Program>();
    Decoder decoder(doc, recordName, program->warnings);
    if (Status s = decoder.program(0, *program); !s) return firstError(s);
    return program;
}

} // namespace irlens::core
