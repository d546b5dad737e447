#pragma once
// The process's peak resident memory (Linux VmHWM), reset before a measured step so that the peak
// of earlier work does not hide it.

#include <fstream>
#include <string>

namespace irlens::testing {

/// Peak resident memory in MB since the process started or the last resetPeakRss(); -1 when unknown.
inline double peakRssMb() {
    std::ifstream f("/proc/self/status");
    std::string line;
    while (std::getline(f, line))
        if (line.rfind("VmHWM:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;
    return -1;
}

/// Sets the peak to the current resident size (writing 5 to clear_refs, Linux 4.0 and later).
inline void resetPeakRss() { std::ofstream("/proc/self/clear_refs") << "5"; }

} // namespace irlens::testing
