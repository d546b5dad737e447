#pragma once
// Every bound the reader applies to a .pt2, in one place. A .pt2 is hostile until proven otherwise:
// these numbers are what keeps a crafted file from exhausting memory, the stack or the CPU. They are
// far above anything torch.export writes (the largest real LLM exports have a few thousand records
// and single weights of a few GiB), so a legitimate file never meets them.

#include <cstddef>
#include <cstdint>

namespace irlens::core::limits {

// ---------------------------------------------------------------- ZIP container

/// Records in one archive (central directory entries). torch writes one record per storage.
inline constexpr uint64_t kMaxZipRecords = 1'000'000;
/// Length of one record name in bytes.
inline constexpr size_t kMaxRecordNameLength = 4096;
/// Size of one STORED record. Stored records are viewed in place (no memory is allocated for them),
/// so this only guards arithmetic; 1 TiB.
inline constexpr uint64_t kMaxStoredRecordBytes = uint64_t(1) << 40;
/// Bytes one DEFLATE record may inflate to. Inflating allocates, so this is the deflate-bomb guard:
/// without it a 2 GiB bomb in models/model.json would be inflated whole (2.1 GB resident) before parsing.
/// PyTorch stores every record uncompressed (viewed in place, no limit needed); only third-party
/// re-zips deflate, and their largest text record, a program JSON, is ~350 bytes per node. A record
/// that inflates past its declared size is refused as well, whatever this limit. The environment
/// variable named below raises it (in MiB) for a genuinely larger record.
inline constexpr uint64_t kMaxInflatedRecordBytes = uint64_t(256) << 20;
inline constexpr const char* kMaxInflatedRecordEnv = "IRLENS_MAX_INFLATED_MIB";
/// kMaxInflatedRecordBytes, or the environment's override when it is a positive number of MiB.
uint64_t maxInflatedRecordBytes();
/// Bytes all DEFLATE records of one archive may inflate to together. Central directory entries may
/// overlap (many names for one compressed blob), so a per-record limit alone does not bound memory.
inline constexpr uint64_t kMaxInflatedArchiveBytes = uint64_t(16) << 30;
// Nested archives: a torch.save record inside a .pt2 is opened, but nothing inside a torch.save is
// ever opened as an archive again, so nesting is 1 by construction and needs no limit.

// ---------------------------------------------------------------- text records

/// A program JSON record (models/<m>.json). deep_stack's 5,400 nodes take about 10 MB.
inline constexpr uint64_t kMaxProgramJsonBytes = uint64_t(2) << 30;
/// Nesting depth passed to the JSON decoder (JsonDecodeOptions::maxDepth). Real files nest about 20
/// deep; HOP subgraphs add ~10 per level of nesting.
inline constexpr size_t kMaxJsonDepth = 512;
/// Small JSON records read by the container layer (payload configs, manifests).
inline constexpr uint64_t kMaxConfigJsonBytes = uint64_t(256) << 20;
/// Generated C++ of an AOTInductor package scanned for what it records (names, specs, checks); a
/// large model's wrapper is a few MB. Longer sources are scanned up to this many bytes.
inline constexpr uint64_t kMaxAotiSourceBytes = uint64_t(64) << 20;
/// Small text records (archive_format, byteorder, version): anything longer is not what we expect.
inline constexpr uint64_t kMaxTagRecordBytes = 4096;
/// One extra file (extra/<name>, extra_files/<name>) kept as text, and all of them together (they are
/// copied, and overlapping entries could otherwise multiply one blob).
inline constexpr uint64_t kMaxExtraFileBytes = uint64_t(64) << 20;
inline constexpr uint64_t kMaxExtraFilesTotalBytes = uint64_t(256) << 20;

// ---------------------------------------------------------------- pickles (torch.save payloads)

/// Size of one data.pkl. The pickle only describes tensors; their bytes live in data/<key>.
inline constexpr uint64_t kMaxPickleBytes = uint64_t(512) << 20;
/// Entries in the pickle memo (BINPUT / MEMOIZE indices).
inline constexpr size_t kMaxPickleMemo = 4'000'000;
/// Values on the pickle stack at once (including MARK-delimited runs).
inline constexpr size_t kMaxPickleStack = 4'000'000;
/// Nesting of containers (tuples in lists in dicts ...) and open MARKs.
inline constexpr size_t kMaxPickleDepth = 256;
/// Values visited while flattening sample inputs (containers and leaves). A pickle may share one
/// container many times through its memo (`t = (t, t)` 48 levels deep is 3 KB but 2^48 leaves when
/// walked as a tree); real sample inputs are a handful of tensors.
inline constexpr size_t kMaxSampleInputValues = 100'000;
/// Length of one string or bytes object in a pickle.
inline constexpr uint64_t kMaxPickleStringBytes = uint64_t(256) << 20;

// ---------------------------------------------------------------- tensors

/// Dimensions of one tensor.
inline constexpr size_t kMaxTensorRank = 64;
/// Bytes of zeros materialized for zero-length payload records ("no data": PyTorch fills zeros), for
/// one program in total.
inline constexpr uint64_t kMaxMaterializedZeroBytes = uint64_t(1) << 30;

} // namespace irlens::core::limits
