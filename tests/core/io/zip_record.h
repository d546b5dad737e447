#pragma once
// Test helper: the text of one record of a fixture archive, read with libzip directly so the JSON
// codec can be tested apart from the container reader.

#include <zip.h>

#include <optional>
#include <string>
#include <vector>

namespace irlens::testing {

/// Names of every record in the archive (empty when it cannot be opened).
inline std::vector<std::string> zipNames(const std::string& path) {
    std::vector<std::string> out;
    int err = 0;
    zip_t* z = zip_open(path.c_str(), ZIP_RDONLY, &err);
    if (!z) return out;
    for (zip_int64_t k = 0, n = zip_get_num_entries(z, 0); k < n; ++k) out.emplace_back(zip_get_name(z, k, 0));
    zip_close(z);
    return out;
}

inline std::optional<std::string> zipRecord(const std::string& path, const std::string& name) {
    int err = 0;
    zip_t* z = zip_open(path.c_str(), ZIP_RDONLY, &err);
    if (!z) return std::nullopt;
    zip_stat_t st;
    std::optional<std::string> out;
    if (zip_stat(z, name.c_str(), 0, &st) == 0) {
        if (zip_file_t* f = zip_fopen(z, name.c_str(), 0)) {
            std::string data(st.size, '\0');
            if (zip_fread(f, data.data(), st.size) == static_cast<zip_int64_t>(st.size)) out = std::move(data);
            zip_fclose(f);
        }
    }
    zip_close(z);
    return out;
}

/// The program JSON of a fixture: models/model.json under any root, or the legacy record.
inline std::optional<std::pair<std::string, std::string>> programJsonRecord(const std::string& path) {
    for (const auto& n : zipNames(path)) {
        bool archive = n.size() >= 17 && n.compare(n.size() - 17, 17, "models/model.json") == 0;
        if (archive || n == "serialized_exported_program.json")
            if (auto text = zipRecord(path, n)) return std::make_pair(n, *text);
    }
    return std::nullopt;
}

} // namespace irlens::testing
