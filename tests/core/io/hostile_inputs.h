#pragma once
// Builders for the hostile-file table: a program's records re-zipped with one thing broken, and
// raw pickles. Everything is made in code from the zoo's MLP (support/zoo_programs.h) so the cases stay small.

#include "raw_zip.h"

#include "core/io/zip_archive.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <map>
#include <string>
#include <vector>

#include <unistd.h>

namespace irlens::testing {

/// The records of a .pt2, in archive order (name -> bytes).
struct Records {
    std::vector<RawZipEntry> entries;

    RawZipEntry* find(const std::string& suffix) {
        for (auto& e : entries)
            if (e.name.size() >= suffix.size() && e.name.compare(e.name.size() - suffix.size(), suffix.size(), suffix) == 0)
                return &e;
        return nullptr;
    }
    std::string zip(const RawZipOptions& o = {}) const { return buildRawZip(entries, o); }
};

inline Records readRecords(const std::string& path) {
    Records r;
    auto zip = core::ZipArchive::openFile(path);
    if (!zip) return r;
    for (const auto& e : (*zip)->entries()) {
        auto bytes = (*zip)->read(e.name);
        if (!bytes) continue;
        r.entries.push_back({e.name, std::string(reinterpret_cast<const char*>((*bytes)->data), (*bytes)->size)});
    }
    return r;
}

/// Edits the JSON of one record in place.
inline void editJson(Records& r, const std::string& suffix, const std::function<void(nlohmann::json&)>& edit) {
    RawZipEntry* e = r.find(suffix);
    if (!e) return;
    auto j = nlohmann::json::parse(e->data);
    edit(j);
    e->data = j.dump();
}

/// Resident memory of this process in MiB (Linux), to check that no case blows memory up.
inline double residentMiB() {
    std::FILE* f = std::fopen("/proc/self/statm", "r");
    if (!f) return 0;
    long pages = 0, resident = 0;
    if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
    std::fclose(f);
    return double(resident) * double(sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0);
}

/// Peak resident memory, measured around a call: reset() makes the kernel's high-water mark (VmHWM)
/// the current resident size (Linux clear_refs "5"), growthMiB() is how far it rose since. Resident
/// growth after the call would miss a short-lived multi-GiB allocation; the peak does not.
class PeakMemory {
public:
    PeakMemory() { reset(); }
    void reset() {
        std::FILE* f = std::fopen("/proc/self/clear_refs", "w");
        m_exact = f && std::fputs("5", f) >= 0;
        if (f) std::fclose(f);
        m_base = m_exact ? statusMiB("VmHWM:") : residentMiB();
    }
    double growthMiB() const { return (m_exact ? statusMiB("VmHWM:") : residentMiB()) - m_base; }
    /// False when the high-water mark could not be reset; growthMiB() is then resident growth only.
    bool exact() const { return m_exact; }

private:
    static double statusMiB(const char* key) {
        std::FILE* f = std::fopen("/proc/self/status", "r");
        if (!f) return 0;
        char line[256];
        double kib = 0;
        while (std::fgets(line, sizeof line, f))
            if (std::strncmp(line, key, std::strlen(key)) == 0) kib = std::atof(line + std::strlen(key));
        std::fclose(f);
        return kib / 1024.0;
    }
    bool m_exact = false;
    double m_base = 0;
};

// ------------------------------------------------------------------ raw pickles (protocol 2 / 4)

inline std::string pickleGlobalCall(const std::string& module, const std::string& name) {
    // GLOBAL 'module name'; SHORT_BINUNICODE 'echo'; TUPLE1; REDUCE; STOP
    return std::string("\x80\x02", 2) + "c" + module + "\n" + name + "\n" + "\x8c\x04" "echo" "\x85" "R" ".";
}

inline std::string pickleStackGlobal(const std::string& module, const std::string& name) {
    std::string p("\x80\x04", 2);
    p += '\x8c'; p += char(module.size()); p += module;
    p += '\x8c'; p += char(name.size()); p += name;
    p += '\x93';                                            // STACK_GLOBAL
    p += "\x8c\x08" "1+1==2  " "\x85" "R" ".";
    return p;
}

/// A list that contains itself: EMPTY_LIST, BINPUT 0, BINGET 0, APPEND.
inline std::string bytesOf(std::initializer_list<int> b) {
    std::string s;
    for (int c : b) s.push_back(char(c));
    return s;
}

inline std::string pickleRecursiveList() { return bytesOf({0x80, 2, ']', 'q', 0, 'h', 0, 'a', '.'}); }

/// A dict whose value is the dict itself: EMPTY_DICT, BINPUT 0, key, BINGET 0, SETITEM.
inline std::string pickleRecursiveDict() { return bytesOf({0x80, 2, '}', 'q', 0, 0x8c, 1, 'k', 'h', 0, 's', '.'}); }

/// `n` nested lists: EMPTY_LIST then (EMPTY_LIST, APPEND)... built bottom-up with MARKs.
inline std::string pickleNestedMarks(size_t n) { return std::string("\x80\x02", 2) + std::string(n, '(') + "."; }

/// `n` nested one-element lists: [[[...]]] via EMPTY_LIST and APPEND from the inside out.
inline std::string pickleNestedLists(size_t n) {
    std::string p("\x80\x02", 2);
    for (size_t i = 0; i < n; ++i) p += ']';
    for (size_t i = 1; i < n; ++i) p += 'a';
    return p + ".";
}

/// LONG_BINGET of a memo index never written.
inline std::string pickleMemoHole() { return bytesOf({0x80, 2, 'j', 0xff, 0xff, 0xff, 0x7f, '.'}); }

/// A tuple holding itself twice, `levels` deep, through one memo entry: t = 1; t = (t, t) ... A few
/// hundred bytes, but 2^levels leaves when walked as a tree.
inline std::string pickleSharedTuples(int levels) {
    std::string p = bytesOf({0x80, 2, 'K', 1, 'q', 0, '0'}); // BININT1 1, BINPUT 0, POP
    for (int k = 0; k < levels; ++k) p += bytesOf({'h', 0, 'h', 0, 0x86, 'q', 0, '0'}); // BINGET 0 x2, TUPLE2, BINPUT 0, POP
    return p + bytesOf({'h', 0, '.'});
}

/// A torch.save archive (as data/sample_inputs/<m>.pt) whose data.pkl is `pickle`.
inline std::string torchSaveWith(const std::string& pickle) {
    return buildRawZip({{"archive/data.pkl", pickle}, {"archive/byteorder", "little"}, {"archive/version", "3\n"}});
}

} // namespace irlens::testing
