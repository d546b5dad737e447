// Hostile files: every case is the zoo's MLP as the project's writer saves it (support/zoo_files.h)
// re-zipped with one thing broken, or a raw input made in code. Each must be refused (or, for graph-level damage, loaded and flagged by the
// verifier) with its exact message, within a time limit and without a memory blow-up. The fuzzing
// regression corpus (tests/fuzz/regressions) is replayed through every reader as well.
#include "hostile_inputs.h"
#include "support/zoo_files.h"

#include "core/exec/plan.h"
#include "core/io/json_codec.h"
#include "core/io/pt2_reader.h"
#include "core/io/unpickler.h"
#include "core/io/zip_archive.h"
#include "core/verify/verifier.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>

#include <ctime>
#include <filesystem>
#include <limits>
#include <fstream>

using namespace irlens::core;
using namespace irlens::testing;
using Json = nlohmann::json;

namespace {

// Debug + ASan builds run several times slower than release; the limit is generous for them and
// still far below what a hang or a quadratic blow-up would take. Time is CPU time (the machine is
// shared; wall time gets a ten times looser bound). Memory is the peak during the case (not what is
// left after it), held under 200 MB.
#if defined(__SANITIZE_ADDRESS__)
// ASan: 200,007 zip records take 650 ms of CPU on an idle machine and went over 1 s once at a load of 2
constexpr qint64 kCaseTimeLimitMs = 3000;
#else
constexpr qint64 kCaseTimeLimitMs = 1000;
#endif
constexpr double kCaseMemoryLimitMiB = 190;

// The MLP of the zoo: x f32[4, 16] -> fc1 (16 -> 32) -> relu -> fc2 -> relu -> head, nodes permute, addmm, relu, ...
std::string zooMlp() {
    zooDir();
    return fixture("zoo/mlp/model.pt2").string();
}

void writeFile(const std::string& path, const std::string& bytes) {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(bytes.data(), std::streamsize(bytes.size()));
}

std::string replaceAll(std::string s, const std::string& from, const std::string& to) {
    for (size_t p = 0; !from.empty() && (p = s.find(from, p)) != std::string::npos; p += to.size()) s.replace(p, from.size(), to);
    return s;
}

/// The result of loading `bytes` as a file: "" when it loads, else the error with the path as <file>.
/// Verifier errors of a loaded program are reported as "verifier: <rule> <node>: <message>" (first one).
// CPU time of this process in ms: what a case costs, whatever else the (shared) machine is doing.
// Wall time on a loaded machine measures the load; a hang or a blow-up burns CPU either way.
qint64 cpuMs() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return qint64(t.tv_sec) * 1000 + t.tv_nsec / 1'000'000;
}

struct Outcome {
    std::string message;
    qint64 ms = 0; // CPU time
    qint64 wallMs = 0;
    double growthMiB = 0; // peak resident growth during the call
};

// The refusal message is exactly `expected`, within the case's CPU time, wall time and peak memory.
void checkOutcome(const Outcome& o, const QString& expected) {
    qInfo("%s -> %s (%lld ms CPU, %lld ms, peak %+.1f MiB)", QTest::currentDataTag(), o.message.c_str(), o.ms, o.wallMs, o.growthMiB);
    QCOMPARE(QString::fromStdString(o.message), expected);
    QVERIFY2(o.ms < kCaseTimeLimitMs, qPrintable(QString("took %1 ms of CPU").arg(o.ms)));
    QVERIFY2(o.wallMs < 10 * kCaseTimeLimitMs, qPrintable(QString("took %1 ms").arg(o.wallMs)));
    QVERIFY2(o.growthMiB < kCaseMemoryLimitMiB, qPrintable(QString("peak resident memory grew by %1 MiB").arg(o.growthMiB)));
}

Outcome loadBytes(const std::string& bytes) {
    QTemporaryDir dir;
    const std::string path = dir.path().toStdString() + "/hostile.pt2";
    writeFile(path, bytes);
    Outcome out;
    PeakMemory peak;
    QElapsedTimer timer;
    timer.start();
    const qint64 cpuStart = cpuMs();
    LoadOptions options;
    options.checkCrc = true; // as `verify` and `run` load
    auto program = loadPt2(path, options);
    if (!program) {
        out.message = replaceAll(program.error(), path, "<file>");
    } else {
        for (const Diagnostic& d : verify(**program)) {
            if (d.severity != Severity::Error) continue;
            out.message = "verifier: " + d.ruleId + " " + d.node + ": " + d.message;
            break;
        }
    }
    out.ms = cpuMs() - cpuStart;
    out.wallMs = timer.elapsed();
    out.growthMiB = peak.growthMiB();
    return out;
}

Outcome unpickleBytes(const std::string& bytes) {
    Outcome out;
    PeakMemory peak;
    QElapsedTimer timer;
    timer.start();
    const qint64 cpuStart = cpuMs();
    StorageLoader none = [](const std::string& key) -> Result<std::shared_ptr<const Storage>> {
        return Status::error("no record data/" + key);
    };
    auto r = unpickle(reinterpret_cast<const std::byte*>(bytes.data()), bytes.size(), "data.pkl", none);
    out.message = r ? std::string() : r.error();
    out.ms = cpuMs() - cpuStart;
    out.wallMs = timer.elapsed();
    out.growthMiB = peak.growthMiB();
    return out;
}

Records base() { return readRecords(zooMlp()); }

// The input 'x' recorded as [10^9] * 8 elements (the count overflows int64), with unit strides.
void giveInputTooManyElements(Records& r) {
    editJson(r, "models/model.json", [](Json& j) {
        Json sizes = Json::array(), strides = Json::array();
        for (int i = 0; i < 8; ++i) sizes.push_back({{"as_int", 1000000000}});
        for (int i = 0; i < 8; ++i) strides.push_back({{"as_int", 1}});
        j["graph_module"]["graph"]["tensor_values"]["x"]["sizes"] = sizes;
        j["graph_module"]["graph"]["tensor_values"]["x"]["strides"] = strides;
    });
}

} // namespace

class TstHostile : public QObject {
    Q_OBJECT
private slots:
    void baselineLoads();
    void hostileFiles_data();
    void hostileFiles();
    void hostilePickles_data();
    void hostilePickles();
    void deepJson_data();
    void deepJson();
    void wrongTypeEveryField();
    void manyRecordsWithoutZip64();
    void engineRefusesImpossibleMeta();
    void regressionCorpus();
};

// The re-zipped fixture itself loads and verifies clean: every failure below is the one thing broken.
void TstHostile::baselineLoads() {
    Records r = base();
    QCOMPARE(int(r.entries.size()), 14);
    const Outcome o = loadBytes(r.zip());
    QCOMPARE(QString::fromStdString(o.message), QString());
}

void TstHostile::hostileFiles_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("expected");
    auto add = [](const char* name, const std::string& bytes, const char* expected) {
        QTest::addRow("%s", name) << QByteArray(bytes.data(), qsizetype(bytes.size())) << QString::fromUtf8(expected);
    };
    if (base().entries.empty()) return; // baselineLoads reports why
    const std::string whole = base().zip();

    // ---------------------------------------------------------------- container
    add("empty file", "", "<file>: file is empty (0 bytes), not a ZIP archive");
    add("text file", "just some text, not an archive\n", "<file>: no end-of-central-directory record (truncated file, or not a ZIP archive)");
    add("truncated to half", whole.substr(0, whole.size() / 2), "<file>: no end-of-central-directory record (truncated file, or not a ZIP archive)");
    add("truncated by 1 byte", whole.substr(0, whole.size() - 1), "<file>: central directory entry 0 of 4 is damaged (truncated archive?)");
    {
        std::string b = whole;
        const size_t cd = b.rfind("PK\x01\x02");
        b[cd + 3] = 0x7f; // the last central directory entry's signature
        add("damaged central directory", b, "<file>: central directory entry 13 of 14 is damaged (truncated archive?)");
    }
    {
        std::string b = whole;
        const size_t eocd = b.rfind("PK\x05\x06");
        b[eocd + 16] = char(0xF0); // central directory offset points past the end
        b[eocd + 19] = 0x7F;
        add("central directory offset past the end", b, "<file>: central directory lies outside the file (truncated or damaged archive)");
    }
    {
        std::string b = whole;
        const size_t cd = b.rfind("PK\x01\x02");
        b[cd + 42] = char(0xF0); // local header offset of the last record
        b[cd + 45] = 0x7F;
        add("local header offset past the end", b, "<file>: record 'archive/byteorder': local header missing or damaged (truncated or corrupted archive)");
    }
    {
        // the CRC is the original bytes'; one stored byte of the weights config flipped after zipping
        std::string b = whole;
        const size_t at = b.find("{\"config\"");
        b[at + 3] ^= 0x01;
        add("CRC mismatch in the weights config", b, "<file>: record 'archive/data/weights/model_weights_config.json': CRC mismatch (corrupted archive)");
    }
    {
        RawZipOptions o;
        o.declaredCount = 0xFFFF;
        add("record count 0xFFFF without ZIP64", base().zip(o), "<file>: ZIP64 sizes announced but no ZIP64 end record found (truncated file?)");
    }
    {
        RawZipOptions o;
        o.zip64Count = 1'000'000;
        add("ZIP64 end record claiming 10^6 records", base().zip(o), "<file>: central directory entry 14 of 1000000 is damaged (truncated archive?)");
    }
    {
        RawZipOptions o;
        o.zip64Count = uint64_t(1) << 40;
        add("ZIP64 end record claiming 2^40 records", base().zip(o), "<file>: 1099511627776 records, more than the limit of 1000000");
    }
    {
        Records r = base();
        r.find("weights/weight_0")->zip64Size = uint64_t(1) << 62;
        add("ZIP64 size lie (2^62 bytes stored)", r.zip(), "<file>: record 'archive/data/weights/weight_0': stored (uncompressed) but its sizes differ (128 vs 4611686018427387904 bytes)");
    }
    {
        Records r = base();
        RawZipEntry* w = r.find("weights/weight_0");
        w->deflate = true;
        w->zip64Size = uint64_t(8) << 30;
        add("deflate bomb declaring 8 GiB", r.zip(), "<file>: record 'archive/data/weights/weight_0': declares 8589934592 bytes uncompressed, more than the limit of 268435456 (deflate bomb? IRLENS_MAX_INFLATED_MIB=<MiB> raises the limit)");
    }
    {
        Records r = base();
        r.entries.push_back({"archive/extra/bomb.txt", std::string(size_t(32) << 20, '\0'), true, 1000, {}});
        add("deflate bomb inflating past its declared size", r.zip(), "<file>: record 'archive/extra/bomb.txt': inflates to more than its declared 1000 bytes (deflate bomb?)");
    }
    {
        Records r = base();
        RawZipEntry* w = r.find("weights/weight_1"); // fc1.weight, 2048 bytes
        w->deflate = true;
        w->declaredSize = 1000;
        add("deflated weight declaring fewer bytes", r.zip(), "<file>: record 'archive/data/weights/weight_1': inflates to more than its declared 1000 bytes (deflate bomb?)");
    }
    {
        Records r = base();
        *r.find("models/model.json") = zerosBomb("archive/models/model.json", 2048);
        add("program JSON deflate bomb of 2 GiB", r.zip(), "<file>: record 'archive/models/model.json': declares 2147483648 bytes uncompressed, more than the limit of 268435456 (deflate bomb? IRLENS_MAX_INFLATED_MIB=<MiB> raises the limit)");
    }
    {
        // the CRC is the original bytes'; one byte of a weight flipped after zipping (ran with outputs ~1e30)
        Records r = base();
        std::string b = r.zip();
        const std::string& w = r.find("weights/weight_0")->data;
        b[b.find(w) + 100] ^= 0x40;
        add("CRC mismatch in a weight", b, "<file>: record 'archive/data/weights/weight_0': CRC mismatch (corrupted archive)");
    }
    {
        Records r = base();
        r.entries.push_back({std::string("archive/extra/evil\0name.txt", 27), "owned", false, {}, {}});
        add("NUL byte in a record name", r.zip(), "<file>: record 'archive/extra/evil\\x00name.txt': unsafe name (NUL byte); refusing the archive");
    }
    {
        RawZipOptions o;
        o.declaredCount = 13;
        add("end record declaring one record less", base().zip(o), "<file>: the end record declares 13 records but the central directory holds 14 (damaged archive)");
    }
    for (const char* bad : {"../evil.txt", "archive/../../evil.txt", "/etc/passwd", "C:/windows/evil.txt"}) {
        Records r = base();
        r.entries.push_back({bad, "owned", false, {}, {}});
        const std::string expected =
            "<file>: record '" + std::string(bad) + "': unsafe name (absolute path or '..' component); refusing the archive";
        add((std::string("unsafe name ") + bad).c_str(), r.zip(), expected.c_str());
    }
    {
        Records r = base();
        r.entries.push_back(*r.find("models/model.json"));
        add("duplicate program JSON record", r.zip(), "<file>: record 'archive/models/model.json': appears twice in the central directory; refusing the archive");
    }

    // ---------------------------------------------------------------- program JSON
    {
        Records r = base();
        r.find("models/model.json")->data = std::string(1'000'000, '[') + std::string(1'000'000, ']');
        add("program JSON nested 10^6 deep", r.zip(), "archive/models/model.json: invalid JSON at line 1, column 513: nested deeper than 512 levels");
    }
    {
        Records r = base();
        std::string& j = r.find("models/model.json")->data;
        j.resize(j.size() / 2);
        add("program JSON cut in half", r.zip(), "archive/models/model.json: invalid JSON at line 1, column 4208: unterminated object");
    }
    {
        Records r = base();
        editJson(r, "models/model.json", [](Json& j) {
            j["graph_module"]["graph"]["nodes"][1]["inputs"][0]["arg"]["as_tensor"]["name"] = "ghost";
        });
        add("dangling value name", r.zip(), "verifier: EIR-S006 addmm: node 'addmm' reads 'ghost', which no placeholder or node defines");
    }
    {
        Records r = base();
        editJson(r, "models/model.json", [](Json& j) {
            auto& n = j["graph_module"]["graph"]["nodes"][0];
            n["inputs"][0]["arg"]["as_tensor"]["name"] = n["outputs"][0]["as_tensor"]["name"];
        });
        add("node reading its own output", r.zip(), "verifier: EIR-S008 permute: node 'permute' uses its own output 'permute'");
    }
    {
        Records r = base();
        editJson(r, "models/model.json", [](Json& j) {
            auto& nodes = j["graph_module"]["graph"]["nodes"];
            // node 0 (permute) now reads node 1's output (addmm), which reads node 0's: a cycle
            nodes[0]["inputs"][0]["arg"]["as_tensor"]["name"] = nodes[1]["outputs"][0]["as_tensor"]["name"];
        });
        add("two nodes in a cycle", r.zip(), "verifier: EIR-S005 permute: node 'permute' reads 'addmm' before node 'addmm' defines it");
    }
    {
        Records r = base();
        editJson(r, "models/model.json", [](Json& j) {
            auto& values = j["graph_module"]["graph"]["tensor_values"];
            Json sizes = Json::array();
            for (int i = 0; i < 100; ++i) sizes.push_back({{"as_int", 1}});
            values.begin().value()["sizes"] = sizes;
            values.begin().value()["strides"] = sizes;
        });
        add("tensor meta with 100 dimensions", r.zip(), "archive/models/model.json: $.graph_module.graph.tensor_values.addmm.sizes: 100 dimensions, more than the limit of 64");
    }
    {
        Records r = base();
        editJson(r, "models/model.json", [](Json& j) {
            j["graph_module"]["graph"]["tensor_values"].begin().value()["sizes"][0] = {{"as_int", -5}};
        });
        add("tensor meta with a negative size", r.zip(), "archive/models/model.json: $.graph_module.graph.tensor_values.addmm.sizes[0]: negative size -5");
    }

    {
        Records r = base();
        giveInputTooManyElements(r);
        add("input of [10^9] * 8 elements", r.zip(), "verifier: EIR-T002 x: tensor_values['x']: sizes [1000000000, 1000000000, 1000000000, 1000000000, 1000000000, 1000000000, 1000000000, 1000000000] hold more elements than int64 can count");
    }
    for (int code : {255, -1}) {
        Records r = base();
        editJson(r, "models/model.json", [code](Json& j) { j["graph_module"]["graph"]["tensor_values"]["addmm"]["dtype"] = code; });
        const std::string expected = "verifier: EIR-T001 addmm: tensor_values['addmm']: dtype code " + std::to_string(code) + " is not a torch dtype";
        add(("dtype code " + std::to_string(code)).c_str(), r.zip(), expected.c_str());
    }
    for (int64_t stride : {int64_t(-1), std::numeric_limits<int64_t>::max()}) {
        Records r = base();
        editJson(r, "models/model.json", [stride](Json& j) { j["graph_module"]["graph"]["tensor_values"]["addmm"]["strides"][0] = {{"as_int", stride}}; });
        const std::string expected = stride < 0
            ? "verifier: EIR-T003 addmm: tensor_values['addmm']: stride -1 in dimension 0 of [-1, 1] is negative (torch.export records no negative strides)"
            : "verifier: EIR-T003 addmm: tensor_values['addmm']: stride 9223372036854775807 in dimension 0 of [9223372036854775807, 1] is more bytes than int64 can address";
        add(("stride " + std::to_string(stride)).c_str(), r.zip(), expected.c_str());
    }
    {
        Records r = base();
        editJson(r, "models/model.json", [](Json& j) { j["range_constraints"]["s0"] = {{"min_val", 10}, {"max_val", 2}}; });
        add("range constraint with min > max", r.zip(), "verifier: EIR-Y002 s0: range constraint of 's0' is [10, 2]: its minimum is above its maximum, so no value satisfies it");
    }
    {
        Records r = base();
        editJson(r, "models/model.json", [](Json& j) { j["graph_module"]["graph"]["nodes"][1]["target"] = "torch.ops.aten.../../etc/passwd"; });
        add("target '../../etc/passwd' under torch.ops", r.zip(), "verifier: EIR-S013 addmm: node 'addmm' names its target 'torch.ops.aten.../../etc/passwd', which is not an operator name (dot-separated identifiers such as torch.ops.aten.add.Tensor)");
    }
    {
        Records r = base();
        editJson(r, "models/model.json", [](Json& j) { j["graph_module"]["graph"]["nodes"][1]["target"] = "../../etc/passwd"; });
        add("target '../../etc/passwd'", r.zip(), "verifier: EIR-S001 addmm: node 'addmm' calls '../../etc/passwd', which is not an ATen/custom op overload (torch.ops.<ns>.<op>.<overload>), a higher-order op or a symbolic op");
    }
    {
        Records r = base();
        editJson(r, "models/model.json", [](Json& j) {
            auto& inputs = j["graph_module"]["graph"]["nodes"][1]["inputs"];
            const Json last = inputs.back();
            for (int i = 0; i < 100000; ++i) inputs.push_back(last);
        });
        add("node with 100,000 duplicate named arguments", r.zip(), "verifier: EIR-S014 addmm: node 'addmm' passes argument 'mat2' 100001 times; a call binds each argument once (the others would be dropped silently)");
    }

    // ---------------------------------------------------------------- weights
    {
        Records r = base();
        editJson(r, "model_weights_config.json", [](Json& j) {
            j["config"]["fc1.weight"]["tensor_meta"]["sizes"] = Json::array({{{"as_int", 1000000000}}, {{"as_int", 1000000000}}});
            j["config"]["fc1.weight"]["tensor_meta"]["strides"] = Json::array({{{"as_int", 1000000000}}, {{"as_int", 1}}});
        });
        add("weight of 10^9 x 10^9 elements", r.zip(), "archive/data/weights/weight_1 holds 2048 bytes but 'fc1.weight' (f32[1000000000, 1000000000], strides [1000000000, 1], offset 0) needs 4000000000000000000");
    }
    {
        Records r = base();
        editJson(r, "model_weights_config.json", [](Json& j) {
            j["config"]["fc1.weight"]["tensor_meta"]["sizes"][0] = {{"as_int", -128}};
        });
        add("weight with a negative size", r.zip(), "archive/data/weights/model_weights_config.json: 'fc1.weight' (f32[-128, 16], strides [16, 1], offset 0) has an invalid view");
    }
    {
        Records r = base();
        editJson(r, "model_weights_config.json", [](Json& j) {
            Json sizes = Json::array();
            for (int i = 0; i < 1000; ++i) sizes.push_back({{"as_int", 1}});
            j["config"]["fc1.weight"]["tensor_meta"]["sizes"] = sizes;
            j["config"]["fc1.weight"]["tensor_meta"]["strides"] = sizes;
        });
        add("weight with 1000 dimensions", r.zip(), "archive/data/weights/model_weights_config.json: config['fc1.weight']: tensor_meta.sizes has too many dimensions");
    }
    {
        Records r = base();
        r.find("weights/weight_1")->data.resize(100);
        add("weight file shorter than its meta", r.zip(), "archive/data/weights/weight_1 holds 100 bytes but 'fc1.weight' (f32[32, 16], strides [16, 1], offset 0) needs 2048");
    }
    {
        Records r = base();
        editJson(r, "model_weights_config.json", [](Json& j) { j["config"]["fc1.weight"]["path_name"] = "../../etc/passwd"; });
        add("weight path with '..'", r.zip(), "archive/data/weights/model_weights_config.json: config['fc1.weight']: path_name '../../etc/passwd' is not a plain file name");
    }

    // ---------------------------------------------------------------- pickled sample inputs
    {
        Records r = base();
        r.find("sample_inputs/model.pt")->data = torchSaveWith(pickleGlobalCall("os", "system"));
        add("sample inputs pickle calling os.system", r.zip(), "archive/data/sample_inputs/model.pt: data.pkl: unsupported global 'os.system' at byte 2");
    }
    {
        Records r = base();
        r.find("sample_inputs/model.pt")->data = torchSaveWith(pickleRecursiveList());
        add("sample inputs pickle holding itself", r.zip(), "archive/data/sample_inputs/model.pt: data.pkl: recursive structure (a container that contains itself) at byte 7");
    }
    {
        Records r = base();
        r.find("sample_inputs/model.pt")->data = torchSaveWith(pickleSharedTuples(48));
        add("sample inputs t = (t, t) 48 levels deep", r.zip(), "archive/data/sample_inputs/model.pt: sample inputs hold more than 100000 values (a container shared with itself many times?)");
    }
}

void TstHostile::hostileFiles() {
    QFETCH(QByteArray, bytes);
    QFETCH(QString, expected);
    const Outcome o = loadBytes(bytes.toStdString());
    checkOutcome(o, expected);
}

void TstHostile::hostilePickles_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("expected");
    auto add = [](const char* name, const std::string& bytes, const char* expected) {
        QTest::addRow("%s", name) << QByteArray(bytes.data(), qsizetype(bytes.size())) << QString::fromUtf8(expected);
    };
    add("os.system", pickleGlobalCall("os", "system"), "data.pkl: unsupported global 'os.system' at byte 2");
    add("posix.system", pickleGlobalCall("posix", "system"), "data.pkl: unsupported global 'posix.system' at byte 2");
    add("builtins.eval (STACK_GLOBAL)", pickleStackGlobal("builtins", "eval"), "data.pkl: unsupported global 'builtins.eval' at byte 18");
    add("builtins.exec", pickleGlobalCall("builtins", "exec"), "data.pkl: unsupported global 'builtins.exec' at byte 2");
    add("subprocess.Popen", pickleGlobalCall("subprocess", "Popen"), "data.pkl: unsupported global 'subprocess.Popen' at byte 2");
    add("unknown global", pickleGlobalCall("mypackage.models", "Net"), "data.pkl: unsupported global 'mypackage.models.Net' at byte 2");
    add("list containing itself", pickleRecursiveList(), "data.pkl: recursive structure (a container that contains itself) at byte 7");
    add("dict containing itself", pickleRecursiveDict(), "data.pkl: recursive structure (a container that contains itself) at byte 10");
    add("10^6 nested MARKs", pickleNestedMarks(1'000'000), "data.pkl: MARKs nested deeper than 256 at byte 258");
    add("10^5 nested lists", pickleNestedLists(100'000), "data.pkl: nesting deeper than 256 at byte 100258");
    add("memo index never written", pickleMemoHole(), "data.pkl: memo entry 2147483647 read before it was written at byte 2");
    add("no STOP", std::string("\x80\x02]", 3), "data.pkl: truncated pickle (no STOP opcode) at byte 3");
    add("empty", "", "data.pkl: truncated pickle (no STOP opcode) at byte 0");
}

void TstHostile::hostilePickles() {
    QFETCH(QByteArray, bytes);
    QFETCH(QString, expected);
    const Outcome o = unpickleBytes(bytes.toStdString());
    checkOutcome(o, expected);
}

void TstHostile::deepJson_data() {
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("expected");
    const int n = 1'000'000;
    auto add = [](const char* name, const std::string& json, const char* expected) {
        QTest::addRow("%s", name) << QByteArray(json.data(), qsizetype(json.size())) << QString::fromUtf8(expected);
    };
    add("arrays 10^6 deep", std::string(n, '[') + std::string(n, ']'), "models/model.json: invalid JSON at line 1, column 513: nested deeper than 512 levels");
    std::string objects;
    for (int i = 0; i < n; ++i) objects += "{\"a\":";
    add("objects 10^6 deep", objects + "1" + std::string(n, '}'), "models/model.json: invalid JSON at line 1, column 2561: nested deeper than 512 levels");
    add("arrays 10^6 deep, unterminated", std::string(n, '['), "models/model.json: invalid JSON at line 1, column 513: nested deeper than 512 levels");
    add("NUL byte", std::string("{\"a\": \0}", 8), "models/model.json: invalid JSON at line 1, column 7: unexpected character byte \\x00");
    add("graph_module nested 10^5 deep", "{\"graph_module\": " + std::string(100'000, '[') + std::string(100'000, ']') + "}", "models/model.json: invalid JSON at line 1, column 529: nested deeper than 512 levels");
}

void TstHostile::deepJson() {
    QFETCH(QByteArray, json);
    QFETCH(QString, expected);
    PeakMemory peak;
    const qint64 cpuStart = cpuMs();
    auto r = decodeProgramJson(std::string_view(json.constData(), size_t(json.size())), "models/model.json");
    const qint64 ms = cpuMs() - cpuStart;
    const std::string message = r ? std::string() : r.error();
    qInfo("%s -> %s (%lld ms CPU)", QTest::currentDataTag(), message.c_str(), ms);
    QCOMPARE(QString::fromStdString(message), expected);
    QVERIFY2(ms < kCaseTimeLimitMs, qPrintable(QString("took %1 ms").arg(ms)));
    QVERIFY2(peak.growthMiB() < kCaseMemoryLimitMiB, qPrintable(QString("peak grew by %1 MiB").arg(peak.growthMiB())));
}

// Every field of the zoo MLP's program JSON, one at a time, replaced by a value of the wrong type. The
// decoder must never crash or hang; when it refuses the file, the message must name the JSON path of
// the field (or one of its enclosing objects), so a user can find it.
void TstHostile::wrongTypeEveryField() {
    Records r = base();
    const Json original = Json::parse(r.find("models/model.json")->data);
    const Json flat = original.flatten(); // leaf pointers; objects/arrays are covered through their parents
    std::vector<std::string> pointers;
    std::function<void(const Json&, const std::string&)> walk = [&](const Json& j, const std::string& at) {
        if (!at.empty()) pointers.push_back(at);
        if (j.is_object())
            for (auto it = j.begin(); it != j.end(); ++it) walk(it.value(), at + "/" + it.key());
        else if (j.is_array())
            for (size_t i = 0; i < j.size(); ++i) walk(j[i], at + "/" + std::to_string(i));
    };
    walk(original, "");
    QVERIFY(pointers.size() > 500);
    int refused = 0, tolerated = 0;
    qint64 slowest = 0;
    QStringList tolerant;
    for (const std::string& p : pointers) {
        const Json::json_pointer ptr(p);
        const Json& v = original.at(ptr);
        // the wrong type: strings become numbers, everything else a string (arrays/objects swap too)
        std::vector<Json> wrong;
        if (v.is_string()) wrong = {Json(12345)};
        else if (v.is_array()) wrong = {Json("not an array"), Json::object()};
        else if (v.is_object()) wrong = {Json("not an object"), Json::array()};
        else wrong = {Json("not a number")};
        for (const Json& w : wrong) {
            Json mutated = original;
            mutated.at(ptr) = w;
            const std::string text = mutated.dump();
            const qint64 start = cpuMs();
            auto program = decodeProgramJson(text, "models/model.json");
            slowest = std::max(slowest, cpuMs() - start);
            if (program) {
                ++tolerated;
                if (tolerant.size() < 400) tolerant << QString::fromStdString(p);
                continue;
            }
            ++refused;
            const std::string& m = program.error();
            QVERIFY2(m.rfind("models/model.json: $", 0) == 0, qPrintable(QString::fromStdString(p + " -> " + m)));
        }
    }
    qInfo("wrong-type mutations: %zu fields, %d refused, %d tolerated, slowest %lld ms CPU", pointers.size(), refused,
          tolerated, slowest);
    qInfo("tolerated: %s", qPrintable(tolerant.join(" ")));
    QVERIFY(refused > tolerated);
    QVERIFY(slowest < kCaseTimeLimitMs);
}

// 200,007 records without ZIP64: the end record's 16-bit count says 3,399. Every record is read (as
// libzip and Python do), within the time and memory limits.
void TstHostile::manyRecordsWithoutZip64() {
    std::vector<RawZipEntry> entries;
    const int n = 200'007;
    entries.reserve(n);
    for (int k = 0; k < n; ++k) entries.push_back({"r/" + std::to_string(k), std::string(1, char('a' + k % 26)), false, {}, {}});
    const std::string bytes = buildRawZip(entries);
    QTemporaryDir dir;
    const std::string path = dir.path().toStdString() + "/many.zip";
    writeFile(path, bytes);
    PeakMemory peak;
    const qint64 cpuStart = cpuMs();
    auto zip = ZipArchive::openFile(path);
    const qint64 ms = cpuMs() - cpuStart;
    QVERIFY2(zip, zip ? "" : zip.error().c_str());
    qInfo("200,007 records: %lld ms CPU, peak %+.1f MiB", ms, peak.growthMiB());
    QCOMPARE(int((*zip)->entries().size()), n);
    QVERIFY((*zip)->contains("r/200006"));
    auto last = (*zip)->readText("r/200006", 16);
    QCOMPARE(QString::fromStdString(last ? *last : last.error()), QString("o")); // 'a' + 200006 % 26
    QVERIFY2(ms < kCaseTimeLimitMs, qPrintable(QString("took %1 ms").arg(ms)));
    QVERIFY(peak.growthMiB() < kCaseMemoryLimitMiB);
}

// The verifier flags an input of [10^9] * 8 elements (hostileFiles); the engine refuses to plan it,
// naming the value and the same rule.
void TstHostile::engineRefusesImpossibleMeta() {
    Records r = base();
    giveInputTooManyElements(r);
    QTemporaryDir dir;
    const std::string path = dir.path().toStdString() + "/huge.pt2";
    writeFile(path, r.zip());
    auto program = loadPt2(path);
    QVERIFY2(program, program ? "" : program.error().c_str());
    auto plan = exec::ExecutionPlan::compile(*program);
    QVERIFY(!plan);
    QCOMPARE(QString::fromStdString(plan.error()),
             QString("value 'x': sizes [1000000000, 1000000000, 1000000000, 1000000000, 1000000000, 1000000000, "
                     "1000000000, 1000000000] hold more elements than int64 can count (EIR-T002)"));
}

// Every input the fuzzers ever found a problem with goes through the reader it broke (and the whole
// load path); none may crash, and each must come back within the time limit.
void TstHostile::regressionCorpus() {
    const std::filesystem::path root = std::filesystem::path(IRLENS_SOURCE_DIR) / "tests/fuzz/regressions";
    int replayed = 0;
    for (const char* area : {"zip", "json", "pickle", "load"}) {
        if (!std::filesystem::exists(root / area)) continue;
        for (const auto& entry : std::filesystem::directory_iterator(root / area)) {
            if (!entry.is_regular_file() || entry.path().filename().string().front() == '.') continue;
            std::ifstream f(entry.path(), std::ios::binary);
            const std::string bytes((std::istreambuf_iterator<char>(f)), {});
            QElapsedTimer timer;
            timer.start();
            (void)loadBytes(bytes);
            (void)unpickleBytes(bytes);
            (void)decodeProgramJson(bytes, "models/model.json");
            std::vector<std::byte> copy(bytes.size());
            if (!bytes.empty()) std::memcpy(copy.data(), bytes.data(), bytes.size()); // data() may be null
            (void)ZipArchive::openStorage(Storage::fromBytes(std::move(copy)), "regression.zip");
            QVERIFY2(timer.elapsed() < 3 * kCaseTimeLimitMs, qPrintable(QString::fromStdString(entry.path().string())));
            ++replayed;
        }
    }
    qInfo("replayed %d regression inputs", replayed);
    if (replayed == 0) QSKIP("no regression inputs yet");
}

QTEST_GUILESS_MAIN(TstHostile)
#include "tst_hostile.moc"
