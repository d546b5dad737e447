#pragma once
// Sanity of one recorded tensor meta (a FakeTensor val): a dtype torch knows, sizes whose element
// count and byte size fit in int64, strides that address no byte beyond int64. A file can claim
// anything here (sizes [10^9] * 8 passed the verifier and reached the engine's allocator), so the
// verifier reports these as rules EIR-T001..T003 and the execution plan refuses such a value with the
// same rule ids. Symbolic sizes are checked through their recorded hint, when there is one.

#include "core/ir/program.h"

#include <optional>
#include <string>

namespace irlens::core {

struct TensorMetaProblem {
    const char* ruleId;  // "EIR-T001" dtype, "EIR-T002" sizes, "EIR-T003" strides
    std::string message; // what is wrong, without the value's name ("dtype code 255 is not a torch dtype")
};

std::optional<TensorMetaProblem> checkTensorMeta(const TensorMeta& meta);

} // namespace irlens::core
