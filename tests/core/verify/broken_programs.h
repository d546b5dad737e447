#pragma once
// One broken program per verifier rule, named "<rule ids> <what is broken>" ("S014 argument passed
// twice"), and the builders tst_verifier's other checks share.

#include "core/ir/builder.h"
#include "core/ir/program.h"
#include "core/verify/verifier.h"

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace irlens::testing {

core::TensorMeta f32(const std::vector<int64_t>& sizes);
/// Gives the node the stack trace, module stack and source_fn a real export records.
void withMeta(core::NodeBuilder n);
/// A clean program the broken variants start from: w (parameter), x -> relu -> add(relu, w).
core::ProgramBuilder base(const char* dialect = "ATEN");
/// base() plus one node named 'bad' (filled by `fill`).
core::Program withNode(const std::string& target, const std::function<void(core::NodeBuilder&)>& fill, const char* dialect = "ATEN");
/// A buffer n updated functionally: add = b_n + x is written back to n, relu(x) is the user output.
core::ProgramBuilder bufferProgram();
/// An elementwise prim `target` of x (f32[2, 2]) and a second input of `other`, output `out`.
core::Program primOf(const std::string& target, const core::TensorMeta& other, const core::TensorMeta& out);

struct Case {
    std::function<core::Program()> make;
    core::VerifyOptions options;
};
/// Every broken program, by name.
std::map<std::string, Case>& cases();
/// The rule ids a case's name starts with: "M001 M003 M004 no meta" -> {EIR-M001, EIR-M003, EIR-M004}.
std::set<std::string> rulesNamedBy(const std::string& caseName);

} // namespace irlens::testing
