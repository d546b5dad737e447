// Entry points of the JSON codec: parse once into a compact tree, then walk it (json_decode_*.cpp).
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
    JsonDoc doc;
    if (Status s = doc.parse(text, options.maxDepth); !s) return s.withContext(recordName);
    auto program = std::make_shared<Program>();
    Decoder decoder(doc, recordName, program->warnings);
    IRLENS_TRY(decoder.program(0, *program));
    return program;
}

} // namespace irlens::core
