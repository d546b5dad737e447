// An AOTInductor package as text: what `irlens-cli info` prints (the GUI lays the same fields out as a tree).
#include "core/io/aoti_package.h"

#include <algorithm>
#include <cstdio>

namespace irlens::core {

namespace {

std::string sizeText(uint64_t bytes) {
    char buf[32];
    if (bytes >= (uint64_t(1) << 20)) std::snprintf(buf, sizeof buf, "%.1f MiB", double(bytes) / double(1 << 20));
    else if (bytes >= 1024) std::snprintf(buf, sizeof buf, "%.1f KiB", double(bytes) / 1024.0);
    else std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(bytes));
    return buf;
}

std::string padded(std::string s, size_t width) {
    if (s.size() < width) s.append(width - s.size(), ' ');
    return s;
}

std::string joined(const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
    return s;
}

std::string specText(const AotiTensorSpec& s) {
    if (s.dtype.empty() && s.dims.empty()) return s.name;
    return s.name + "  " + (s.dtype.empty() ? std::string("?") : s.dtype) + "[" + joined(s.dims) + "]";
}

void describeIo(const AotiModel& m, std::vector<std::string>& out) {
    const bool checked = std::any_of(m.inputs.begin(), m.inputs.end(), [](const auto& s) { return !s.dtype.empty(); });
    out.push_back("  inputs:      " + (m.numInputs >= 0 ? std::to_string(m.numInputs) : std::string("not recorded")) +
                  (m.inputs.empty() ? "" : checked ? " (dtype and sizes as the wrapper checks them)"
                                                   : " (names only: compiled without input checks)"));
    for (const auto& s : m.inputs) out.push_back("    " + specText(s));
    out.push_back("  outputs:     " + (m.numOutputs >= 0 ? std::to_string(m.numOutputs) : std::string("not recorded")));
    for (const auto& s : m.outputs) out.push_back("    " + specText(s));
    if (!m.inSpec.empty()) out.push_back("  call:        (args, kwargs) = " + m.inSpec);
    if (!m.outSpec.empty()) out.push_back("  returns:     " + m.outSpec);
    if (m.numConstants >= 0) out.push_back("  constants:   " + std::to_string(m.numConstants));
}

void describeModel(const AotiModel& m, std::vector<std::string>& out) {
    out.push_back("model '" + m.name + "':");
    out.push_back("  device:      " + (m.device.empty() ? std::string("not recorded") : m.device));
    if (!m.compiler.empty() || !m.cpuCapability.empty())
        out.push_back("  built with:  " + (m.compiler.empty() ? std::string("?") : m.compiler) +
                      (m.cpuCapability.empty() ? "" : " for CPU_CAPABILITY_" + m.cpuCapability));
    out.push_back("  files:       " + std::to_string(m.files.size()));
    for (const auto& f : m.files)
        out.push_back("    " + padded(f.kind, 22) + " " + padded(sizeText(f.size), 10) + " " + f.name +
                      (f.detail.empty() ? "" : "  (" + f.detail + ")"));
    out.push_back("  custom ops:  " + std::to_string(m.customOps.size()) + " call" + (m.customOps.size() == 1 ? "" : "s") +
                  " through the proxy executor (run by the host's PyTorch)");
    for (const auto& c : m.customOps)
        out.push_back("    " + c.target + "  " + (c.outputs.empty() ? c.node : joined(c.outputs)) + " = " + c.target + "(" +
                      joined(c.inputs) + ")");
    out.push_back("  kernels:     " + std::to_string(m.kernels.size()) + " generated");
    for (const auto& k : m.kernels) out.push_back("    " + k);
    describeIo(m, out);
}

} // namespace

std::vector<std::string> describeAotiPackage(const AotiPackage& p) {
    std::vector<std::string> out;
    out.push_back("file:        " + p.path);
    out.push_back("container:   " + p.summary());
    out.push_back("layout:      archive_format '" + p.archiveFormat + "', version " +
                  (p.archiveVersion.empty() ? std::string("not recorded") : p.archiveVersion + " (record '" + p.versionRecord + "')") +
                  ", " + (p.root.empty() ? std::string("no root folder") : "root '" + p.root + "'"));
    if (!p.byteorder.empty()) out.push_back("byteorder:   " + p.byteorder);
    for (const auto& m : p.models) describeModel(m, out);
    if (!p.otherRecords.empty()) {
        out.push_back("other records: " + std::to_string(p.otherRecords.size()));
        for (const auto& [name, size] : p.otherRecords) out.push_back("  " + padded(sizeText(size), 10) + " " + name);
    }
    out.push_back("note:        compiled code only; there is no graph to print, verify, decompose or run");
    return out;
}

} // namespace irlens::core
