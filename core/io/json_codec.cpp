// Placeholder until the decoder lands.
#include "core/io/json_codec.h"

namespace irlens::core {

Result<std::shared_ptr<Program>> decodeProgramJson(std::string_view, const std::string& recordName, const JsonDecodeOptions&) {
    return Status::error(recordName + ": JSON decoder not built yet");
}

std::string encodeProgramJson(const Program&) { return "{}"; }

} // namespace irlens::core
