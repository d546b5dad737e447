#pragma once
// AOTInductor packages (`torch._inductor.aoti_compile_and_package` output): `.pt2` files that hold
// compiled code and its metadata, no exported program. This describes one from its records alone:
// nothing in it is loaded, linked or run. Format guide section 1 (detection) and the package layout:
//
//   [root/]archive_format                      "pt2"
//   [root/]archive_version | version           "0" (the early no-root packages wrote `version`)
//   [root/]data/aotinductor/<model>/<hash>[.wrapper].cpp    generated C++ (the model's run function)
//   [root/]data/aotinductor/<model>/<hash>.kernel.cpp       generated C++ kernels (newer producers)
//   [root/]data/aotinductor/<model>/<hash>*.so              the compiled library
//   [root/]data/aotinductor/<model>/<hash>*_metadata.json   {"AOTI_DEVICE_KEY": "cpu", ...}
//   [root/]data/aotinductor/<model>/<hash>[.wrapper].json   calls through the proxy executor (custom ops)

#include "core/ir/status.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace irlens::core {

class Pt2Reader;

/// One input or output of the compiled model, as far as the generated code records it.
struct AotiTensorSpec {
    std::string name;              // "arg0_1", "output0"
    std::string dtype;             // "float32" when the wrapper checks it, else ""
    std::vector<std::string> dims; // "3", "2..4000", "?" (dynamic, unchecked); empty when not recorded
};

/// One call the compiled code makes through the proxy executor: an op Inductor could not compile
/// (a custom op such as `preprocess::tile_crop`), run by the host's PyTorch at run time.
struct AotiCustomOpCall {
    std::string node;                 // "buf16"
    std::string target;               // "preprocess::tile_crop"
    std::vector<std::string> inputs;  // "input=buf15", "tile_size=224"
    std::vector<std::string> outputs; // "buf17"
};

/// One record under data/aotinductor/<model>/.
struct AotiFile {
    std::string record;  // the full record name
    std::string name;    // relative to the model folder
    std::string kind;    // "wrapper C++ source", "shared library", "metadata", "proxy-executor calls", ...
    uint64_t size = 0;
    std::string detail;  // "ELF 64-bit x86-64, GCC: (GNU) 14.2.1", "g++, CPU_CAPABILITY_AVX2", "{AOTI_DEVICE_KEY: cpu}"
};

struct AotiModel {
    std::string name;                                           // the folder under data/aotinductor/
    std::string device;                                         // AOTI_DEVICE_KEY; "" when not recorded
    std::vector<std::pair<std::string, std::string>> metadata;  // every key of the *_metadata.json files
    std::vector<AotiFile> files;
    std::vector<AotiCustomOpCall> customOps;
    std::vector<std::string> kernels;  // extern "C" functions of the generated C++ (cpp_fused_add_mul_0 ...)
    std::string compiler;              // "g++", "clang++": first word of the recorded compile command
    std::string cpuCapability;         // "AVX2", "NEON": the CPU_CAPABILITY the code was built for
    int numInputs = -1, numOutputs = -1, numConstants = -1; // -1: not recorded
    std::vector<AotiTensorSpec> inputs, outputs;
    std::string inSpec, outSpec;       // call structure from the pytree specs: "(arg0_1, arg1_1), {}"
};

struct AotiPackage {
    std::string path;
    std::string root;            // "" or "package/"
    std::string archiveFormat;   // "pt2"
    std::string archiveVersion;  // "0"; "" when absent
    std::string versionRecord;   // the record that held it: "archive_version" or the older "version"
    std::string byteorder;       // "" when absent
    std::vector<AotiModel> models;
    std::vector<std::pair<std::string, uint64_t>> otherRecords; // records outside data/aotinductor/ and the tags

    /// "AOTInductor package (layout 0, cpu): compiled code for model 'model', no exported program"
    std::string summary() const;
};

/// Describes the AOTInductor package `reader` opened; an error when it is not one. Bounded: source
/// files are scanned up to limits::kMaxAotiSourceBytes, JSON records up to kMaxConfigJsonBytes.
Result<AotiPackage> readAotiPackage(const Pt2Reader& reader);
Result<AotiPackage> readAotiPackage(const std::string& path);

/// The package as indented text lines, file and summary first: what `irlens-cli info` prints.
std::vector<std::string> describeAotiPackage(const AotiPackage& package);

} // namespace irlens::core
