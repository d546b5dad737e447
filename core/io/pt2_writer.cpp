// savePt2: the torch 2.9+ PT2 archive layout (format guide section 3), whatever the program was read from.
#include "core/io/pt2_writer.h"

#include "core/io/json_codec.h"
#include "core/io/json_encode_writer.h"
#include "core/io/pickle_writer.h"
#include "core/io/zip_writer.h"
#include "core/ir/builder.h"

#include <bit>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <set>
#include <sys/stat.h>
#include <unistd.h>

namespace irlens::core {

namespace {

constexpr const char* kRoot = "archive/";

// A payload config entry as written: path, flags and the tensor's meta in schema-8 form.
struct ConfigEntry {
    std::string pathName;
    bool isParam = false;
    TensorMeta meta;
};

std::string configJson(const std::map<std::string, ConfigEntry>& config) {
    json::Writer w;
    w.beginObject().key("config").beginObject();
    for (const auto& [fqn, e] : config) {
        w.key(fqn).beginObject().key("path_name").string(e.pathName).key("is_param").boolean(e.isParam);
        w.key("use_pickle").boolean(false).key("tensor_meta").raw(encodeTensorMetaJson(e.meta));
        w.endObject();
    }
    w.endObject().endObject();
    return w.take();
}

// Writes each distinct storage of `tensors` once as <folder><prefix><i> and fills the config.
// Tensors are grouped by the bytes they view (pointer and size), so tied weights keep sharing.
Status writeTensors(ZipWriter& zip, const std::string& folder, const char* prefix,
                    const std::vector<std::pair<std::string, const TensorData*>>& tensors,
                    const std::set<std::string>& params, std::map<std::string, ConfigEntry>& config) {
    std::map<std::pair<const std::byte*, size_t>, std::string> written;
    size_t counter = 0;
    for (const auto& [fqn, t] : tensors) {
        if (elementSize(t->dtype) == 0)
            return Status::error("'" + fqn + "': cannot write a tensor of dtype " + dtypeName(t->dtype));
        if (t->storage && t->storage->data && !t->fitsStorage())
            return Status::error("'" + fqn + "': the tensor view exceeds its storage");
        ConfigEntry e;
        e.isParam = t->isParameter || params.count(fqn);
        e.meta = metaOf(*t);
        const std::byte* data = t->storage ? t->storage->data : nullptr;
        size_t size = t->storage ? t->storage->size : 0;
        auto key = std::make_pair(data, size);
        auto it = data ? written.find(key) : written.end();
        if (it != written.end()) {
            e.pathName = it->second;
        } else {
            // No data (a meta-only tensor): a zero-length record, which readers turn into zeros.
            e.pathName = prefix + std::to_string(counter++);
            IRLENS_TRY(zip.add(folder + e.pathName, data, data ? size : 0));
            if (data) written.emplace(key, e.pathName);
        }
        config.emplace(fqn, std::move(e));
    }
    return Status::ok();
}

Status writeArchive(const Program& program, ZipWriter& zip) {
    const std::string m = program.modelName.empty() ? "model" : program.modelName;
    const std::string root = kRoot;
    if (m.find('/') != std::string::npos || m.find('\\') != std::string::npos || m == "." || m == ".." ||
        m.find('\0') != std::string::npos)
        return Status::error("model name '" + m + "' cannot be used in record names");

    std::set<std::string> params;
    for (const auto& s : program.signature.inputSpecs)
        if (s.kind == InputKind::Parameter) params.insert(s.target);

    std::vector<std::pair<std::string, const TensorData*>> weights;
    for (const auto& [fqn, t] : program.weights) weights.emplace_back(fqn, &t);
    std::map<std::string, ConfigEntry> weightConfig;
    IRLENS_TRY(writeTensors(zip, root + "data/weights/", "weight_", weights, params, weightConfig)
                   .withContext("weights"));
    IRLENS_TRY(zip.add(root + "data/weights/" + m + "_weights_config.json", configJson(weightConfig)));

    std::vector<std::pair<std::string, const TensorData*>> constants;
    for (const auto& [name, v] : program.constants) {
        if (v.kind != Value::Kind::Tensor)
            return Status::error("constant '" + name + "' is not a tensor (" +
                                 (v.kind == Value::Kind::Opaque ? v.s : std::string("a Python scalar")) +
                                 "); irlens can only write tensor constants");
        constants.emplace_back(name, &v.tensor);
    }
    std::map<std::string, ConfigEntry> constantConfig;
    IRLENS_TRY(writeTensors(zip, root + "data/constants/", "tensor_", constants, {}, constantConfig)
                   .withContext("constants"));
    IRLENS_TRY(zip.add(root + "data/constants/" + m + "_constants_config.json", configJson(constantConfig)));

    IRLENS_TRY(zip.add(root + "models/" + m + ".json", encodeProgramJson(program, irlensWriterName())));

    if (program.hasSampleInputs) {
        auto pt = torchSaveSampleInputs(program.sampleArgs, program.sampleKwargs);
        if (!pt) return pt.status().withContext("sample inputs");
        IRLENS_TRY(zip.add(root + "data/sample_inputs/" + m + ".pt", *pt));
    }
    for (const auto& [name, text] : program.extraFiles) {
        IRLENS_TRY(zip.add(root + "extra/" + name, text));
    }
    IRLENS_TRY(zip.add(root + "archive_format", std::string_view("pt2")));
    IRLENS_TRY(zip.add(root + "archive_version", std::string_view("0")));
    IRLENS_TRY(zip.add(root + ".data/version", std::string_view("6\n")));
    // Tensor bytes are in host order, as the reader left them.
    IRLENS_TRY(zip.add(root + "byteorder", std::string_view(std::endian::native == std::endian::big ? "big" : "little")));
    return zip.finish();
}

} // namespace

std::string irlensWriterName() { return std::string("irlens ") + IRLENS_VERSION; }

Status savePt2(const Program& program, const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::path target(path);
    if (fs::is_directory(target, ec)) return Status::error(path + ": is a directory");
    fs::path dir = target.parent_path().empty() ? fs::path(".") : target.parent_path();
    // The temporary sits beside the target so the final rename stays on one file system (atomic).
    std::string tmpl = (dir / ("." + target.filename().string() + ".tmp-XXXXXX")).string();
    std::vector<char> name(tmpl.begin(), tmpl.end());
    name.push_back('\0');
    int fd = ::mkstemp(name.data());
    if (fd < 0) return Status::error(path + ": cannot create a temporary file in " + dir.string() + " (" + std::strerror(errno) + ")");
    ::fchmod(fd, 0644); // mkstemp makes 0600; an archive is an ordinary document
    ::close(fd);
    std::string tmp(name.data());

    Status s = [&]() -> Status {
        auto zip = ZipWriter::toFile(tmp, {});
        if (!zip) return zip.status();
        return writeArchive(program, **zip);
    }();
    if (s) {
        fs::rename(tmp, target, ec);
        if (ec) s = Status::error(path + ": cannot replace (" + ec.message() + ")");
    }
    if (!s) {
        fs::remove(tmp, ec);
        return s.message().rfind(path, 0) == 0 ? s : s.withContext(path);
    }
    return Status::ok();
}

} // namespace irlens::core
