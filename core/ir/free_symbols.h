#pragma once
// The free symbols of a symbolic size: what a range constraint bounds and a dynamic dimension is named by.

#include <string>
#include <vector>

namespace irlens::core {

/// The free symbols of an expression ("s0", "u3"), srepr or plain, sorted and each once; function
/// names and sympy's constants (oo, pi ...) are not symbols. Implemented in sym_expr.cpp.
std::vector<std::string> freeSymbols(const std::string& expr);

} // namespace irlens::core
