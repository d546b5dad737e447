// AOTInductor packages described, not refused: the two real packages in ../shared (the current layout
// with a proxy-executor custom op, and the older single-.cpp layout), packages made in code for every
// kind of record, and hostile records that must give a description or a clear error, never a crash.
#include "core/io/aoti_package.h"
#include "core/io/aoti_source_scan.h"
#include "core/io/library_header.h"
#include "core/io/pt2_reader.h"

#include "support/shared_fixtures.h"
#include "aoti_wrapper_sample.h"
#include "zip_builder.h"

#include <QTemporaryDir>
#include <QTest>

#include <fstream>

using namespace irlens::core;
using irlens::testing::ZipBuilder;

namespace {

const AotiFile* fileOfKind(const AotiModel& m, const std::string& kind) {
    for (const auto& f : m.files)
        if (f.kind == kind) return &f;
    return nullptr;
}

std::vector<std::string> names(const std::vector<AotiTensorSpec>& specs) {
    std::vector<std::string> out;
    for (const auto& s : specs) out.push_back(s.name);
    return out;
}

// A 64-byte ELF64 header (no sections) for `machine`.
std::string elfHeader(uint16_t machine, uint16_t type = 3) {
    std::string h(64, '\0');
    h.replace(0, 4, "\x7f" "ELF");
    h[4] = 2; // 64-bit
    h[5] = 1; // little-endian
    h[6] = 1;
    h[16] = char(type);
    h[18] = char(machine & 0xFF);
    h[19] = char(machine >> 8);
    return h;
}


} // namespace

class TstAotiPackage : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    std::string write(const QString& name, const std::string& bytes) {
        const std::string path = m_dir.filePath(name).toStdString();
        std::ofstream(path, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
        return path;
    }

private slots:
    // ------------------------------------------------------------------ the real packages

    void executorchPreprocess() {
        IRLENS_REQUIRE_SHARED();
        auto p = readAotiPackage(irlens::testing::fixture("packages/executorch-preprocess-aoti/preprocess.pt2").string());
        QVERIFY2(p.isOk(), p.error().c_str());
        QCOMPARE(p->archiveFormat, std::string("pt2"));
        QCOMPARE(p->archiveVersion, std::string("0"));
        QCOMPARE(p->versionRecord, std::string("version")); // the early no-root layout
        QCOMPARE(p->root, std::string());
        QCOMPARE(p->models.size(), size_t(1));
        const AotiModel& m = p->models[0];
        QCOMPARE(m.name, std::string("model"));
        QCOMPARE(m.device, std::string("cpu"));
        QCOMPARE(m.files.size(), size_t(6));
        QVERIFY(fileOfKind(m, "wrapper C++ source") && fileOfKind(m, "kernel C++ source"));
        const AotiFile* lib = fileOfKind(m, "shared library");
        QVERIFY(lib);
        QCOMPARE(lib->size, uint64_t(232656));
        QCOMPARE(lib->detail, std::string("Mach-O 64-bit arm64 shared library (built on macOS)"));
        QCOMPARE(m.customOps.size(), size_t(1));
        QCOMPARE(m.customOps[0].target, std::string("preprocess::tile_crop"));
        QCOMPARE(m.customOps[0].node, std::string("buf16"));
        QCOMPARE(m.customOps[0].inputs, (std::vector<std::string>{"input=buf15", "tile_size=224"}));
        QCOMPARE(m.customOps[0].outputs, (std::vector<std::string>{"buf17"}));
        QCOMPARE(m.compiler, std::string("clang++"));
        QCOMPARE(m.cpuCapability, std::string("NEON"));
        QCOMPARE(m.kernels, (std::vector<std::string>{"cpp_fused__to_copy__unsafe_index_add_arange_clamp_constant_pad_nd_mul_sub_view_0",
                                                      "cpp_fused_floor_divide_1"}));
        QCOMPARE(m.numInputs, 3);
        QCOMPARE(m.numOutputs, 2);
        QCOMPARE(m.numConstants, 0);
        QCOMPARE(names(m.inputs), (std::vector<std::string>{"arg0_1", "arg1_1", "arg2_1"}));
        QCOMPARE(m.inputs[0].dtype, std::string("float32"));
        QCOMPARE(m.inputs[0].dims, (std::vector<std::string>{"3", "2..4000", "2..4000"}));
        QCOMPARE(m.inputs[1].dtype, std::string("int64"));
        QCOMPARE(m.inputs[1].dims, (std::vector<std::string>{"2"}));
        QCOMPARE(names(m.outputs), (std::vector<std::string>{"output0", "output1"}));
        QCOMPARE(m.inSpec, std::string("((arg0_1, arg1_1, arg2_1), {})"));
        QCOMPARE(m.outSpec, std::string("(output0, output1)"));
        QCOMPARE(p->summary(), std::string("AOTInductor package (layout 0, cpu): compiled code for model 'model', no exported program"));
    }

    void aotinductorRsOlderLayout() {
        IRLENS_REQUIRE_SHARED();
        auto p = readAotiPackage(irlens::testing::fixture("packages/aotinductor-rs-aoti/ep2.pt2").string());
        QVERIFY2(p.isOk(), p.error().c_str());
        const AotiModel& m = p->models.at(0);
        QCOMPARE(m.files.size(), size_t(3));
        QVERIFY(fileOfKind(m, "generated C++ source") && fileOfKind(m, "metadata"));
        QCOMPARE(fileOfKind(m, "shared library")->detail, std::string("ELF 64-bit x86-64 shared object, GCC: (GNU) 14.2.1 20240910"));
        QCOMPARE(m.device, std::string("cpu"));
        QCOMPARE(m.compiler, std::string("g++"));
        QCOMPARE(m.cpuCapability, std::string("AVX2"));
        QCOMPARE(m.kernels, (std::vector<std::string>{"cpp_fused_add_mul_0"}));
        QVERIFY(m.customOps.empty());
        QCOMPARE(names(m.inputs), (std::vector<std::string>{"arg0_1", "arg1_1"}));
        QVERIFY(m.inputs[0].dtype.empty()); // compiled without input checks: names only
        QCOMPARE(m.inSpec, std::string("((arg0_1, arg1_1), {})"));
        QCOMPARE(m.outSpec, std::string("(output0, output1)"));
    }

    // ------------------------------------------------------------------ packages made in code

    void everyRecordKind() {
        ZipBuilder z;
        z.add("pkg/archive_format", "pt2").add("pkg/archive_version", "0").add("pkg/byteorder", "little");
        const std::string d = "pkg/data/aotinductor/enc/";
        z.add(d + "abc.wrapper.cpp", kWrapper);
        z.add(d + "abc.wrapper_metadata.json", R"({"AOTI_DEVICE_KEY": "cuda", "AOTI_NUM_STREAMS": 2})");
        z.add(d + "abc.wrapper.json", R"({"nodes": [{"name": "buf3", "node": {"target": "my::op", "inputs": [
              {"name": "xs", "arg": {"as_tensors": [{"name": "buf1"}, {"name": "buf2"}]}},
              {"name": "scale", "arg": {"as_float": 0.5}}, {"name": "mode", "arg": {"as_string": "fast"}},
              {"name": "opt", "arg": {"as_none": true}}],
              "outputs": [{"as_tensor": {"name": "buf4"}}]}}]})");
        z.add(d + "abc.wrapper.so", elfHeader(0xB7));
        z.add(d + "k0.cubin", "cubin");
        z.add(d + "weights_config.json", "{}");
        z.add(d + "CMakeLists.txt", "project(x)");
        z.add("pkg/data/aotinductor/dec/def.cpp", "// Compile cmd\n// clang++ x.cpp\n");
        z.add("pkg/extra/notes.txt", "hello");
        auto p = readAotiPackage(write("kinds.pt2", z.build()));
        QVERIFY2(p.isOk(), p.error().c_str());
        QCOMPARE(p->root, std::string("pkg/"));
        QCOMPARE(p->versionRecord, std::string("archive_version"));
        QCOMPARE(p->byteorder, std::string("little"));
        QCOMPARE(p->models.size(), size_t(2));
        const AotiModel& dec = p->models[0];
        const AotiModel& enc = p->models[1];
        QCOMPARE(dec.name, std::string("dec"));
        QCOMPARE(dec.compiler, std::string("clang++"));
        QCOMPARE(enc.device, std::string("cuda"));
        QCOMPARE(enc.metadata, (std::vector<std::pair<std::string, std::string>>{{"AOTI_DEVICE_KEY", "cuda"}, {"AOTI_NUM_STREAMS", "2"}}));
        QCOMPARE(fileOfKind(enc, "shared library")->detail, std::string("ELF 64-bit aarch64 shared object"));
        QVERIFY(fileOfKind(enc, "CUDA kernel binary") && fileOfKind(enc, "weights config") && fileOfKind(enc, "build script"));
        QCOMPARE(enc.customOps.size(), size_t(1));
        QCOMPARE(enc.customOps[0].inputs, (std::vector<std::string>{"xs=[buf1, buf2]", "scale=0.5", "mode='fast'", "opt=None"}));
        QCOMPARE(enc.customOps[0].outputs, (std::vector<std::string>{"buf4"}));
        QCOMPARE(enc.compiler, std::string("g++-13"));
        QCOMPARE(enc.cpuCapability, std::string("AVX512"));
        QCOMPARE(enc.kernels, (std::vector<std::string>{"cpp_fused_gelu_0"})); // each kernel once
        QCOMPARE(enc.numInputs, 2);
        QCOMPARE(enc.numConstants, 4);
        QCOMPARE(enc.inputs[0].dtype, std::string("bfloat16"));
        QCOMPARE(enc.inputs[0].dims, (std::vector<std::string>{"8", "?", "<=512"}));
        QCOMPARE(enc.inputs[1].dtype, std::string("int64"));
        QVERIFY(enc.inputs[1].dims.empty());
        QCOMPARE(enc.inSpec, std::string("((x,), {\"lengths\": lengths})"));
        QCOMPARE(enc.outSpec, std::string("[output0]"));
        QCOMPARE(p->otherRecords, (std::vector<std::pair<std::string, uint64_t>>{{"pkg/extra/notes.txt", 5}}));
        QCOMPARE(p->summary(), std::string("AOTInductor package (layout 0, cuda, device not recorded): compiled code for "
                                           "models 'dec', 'enc', no exported program"));
    }

    void describedAsText() {
        ZipBuilder z;
        z.add("archive_format", "pt2").add("version", "0");
        z.add("data/aotinductor/model/a.cpp", kWrapper);
        z.add("data/aotinductor/model/a_metadata.json", R"({"AOTI_DEVICE_KEY": "cpu"})");
        auto p = readAotiPackage(write("text.pt2", z.build()));
        QVERIFY2(p.isOk(), p.error().c_str());
        const auto lines = describeAotiPackage(*p);
        auto has = [&](const std::string& l) { return std::find(lines.begin(), lines.end(), l) != lines.end(); };
        QVERIFY(has("layout:      archive_format 'pt2', version 0 (record 'version'), no root folder"));
        QVERIFY(has("model 'model':"));
        QVERIFY(has("  device:      cpu"));
        QVERIFY(has("  built with:  g++-13 for CPU_CAPABILITY_AVX512"));
        QVERIFY(has("    x  bfloat16[8, ?, <=512]"));
        QVERIFY(has("  call:        (args, kwargs) = ((x,), {\"lengths\": lengths})"));
        QVERIFY(has("  custom ops:  0 calls through the proxy executor (run by the host's PyTorch)"));
    }

    // ------------------------------------------------------------------ pieces on their own

    void treeSpecs_data() {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QStringList>("leaves");
        QTest::addColumn<QString>("expected");
        const QString leaf = R"({"type": null, "context": null, "children_spec": []})";
        QTest::addRow("tuple of two") << QString(R"([1, {"type": "builtins.tuple", "context": "null", "children_spec": [%1, %1]}])").arg(leaf)
                                      << QStringList{"a", "b"} << "(a, b)";
        QTest::addRow("names run out") << QString(R"([1, {"type": "builtins.list", "context": "null", "children_spec": [%1, %1]}])").arg(leaf)
                                       << QStringList{"a"} << "[a, *]";
        QTest::addRow("other type") << QString(R"([1, {"type": "collections.namedtuple", "context": "P", "children_spec": [%1]}])").arg(leaf)
                                    << QStringList{"a"} << "collections.namedtuple(a)";
        QTest::addRow("not json") << "[1, {" << QStringList{} << "";
        QTest::addRow("not a spec") << "{\"a\": 1}" << QStringList{} << "";
        QTest::addRow("too deep") << QString(200, '[') + QString(200, ']') << QStringList{} << "";
    }
    void treeSpecs() {
        QFETCH(QString, json);
        QFETCH(QStringList, leaves);
        QFETCH(QString, expected);
        std::vector<std::string> names;
        for (const auto& l : leaves) names.push_back(l.toStdString());
        QCOMPARE(QString::fromStdString(aoti::describeTreeSpec(json.toStdString(), names)), expected);
    }

    void libraryHeaders_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("expected");
        auto bytes = [](const std::string& s) { return QByteArray(s.data(), qsizetype(s.size())); };
        QTest::addRow("x86-64 executable") << bytes(elfHeader(0x3E, 2)) << "ELF 64-bit x86-64 executable";
        QTest::addRow("unknown machine") << bytes(elfHeader(0x1234)) << "ELF 64-bit machine 4660 shared object";
        QTest::addRow("truncated ELF") << bytes(elfHeader(0x3E).substr(0, 20)) << "ELF file (truncated header)";
        std::string wild = elfHeader(0x3E);
        wild[0x28 + 7] = 0x7F; // section headers far beyond the file
        wild[0x3A] = 0x40;
        wild[0x3C] = 3;
        QTest::addRow("section table outside the file") << bytes(wild) << "ELF 64-bit x86-64 shared object";
        QTest::addRow("Mach-O x86-64") << QByteArray("\xcf\xfa\xed\xfe\x07\x00\x00\x01\x03\x00\x00\x00\x06\x00\x00\x00", 16)
                                       << "Mach-O 64-bit x86-64 shared library (built on macOS)";
        QTest::addRow("text") << QByteArray("#!/bin/sh\n") << "not an ELF or Mach-O file";
        QTest::addRow("empty") << QByteArray() << "not an ELF or Mach-O file";
    }
    void libraryHeaders() {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, expected);
        QCOMPARE(QString::fromStdString(describeLibraryHeader(reinterpret_cast<const std::byte*>(bytes.constData()), size_t(bytes.size()))),
                 expected);
    }

    // ------------------------------------------------------------------ hostile and wrong input

    void hostileRecordsAreDescribed() {
        ZipBuilder z;
        z.add("archive_format", "pt2").add("version", "0");
        const std::string d = "data/aotinductor/model/";
        z.add(d + "a_metadata.json", "{\"AOTI_DEVICE_KEY\": ");                // cut short
        z.add(d + "a.json", std::string(5000, '[') + std::string(5000, ']'));    // nested beyond the bound
        z.add(d + "a.cpp", "inputs_info_[99999999999].name = \"x\";\n"            // index beyond the bound
                           "inputs_info_[-1].name = \"y\";\n"
                           "in_spec_ = \"[1, {\n"                                 // literal never closed
                           "AOTInductorModelBase(abc, 2, 0, d)\n"
                           "if (x_size[99] < 3) {\n"
                           "extern \"C\" void (\n"
                           "// Compile cmd\n");
        z.add(d + "a.so", "\x7f" "ELF");
        auto p = readAotiPackage(write("hostile.pt2", z.build()));
        QVERIFY2(p.isOk(), p.error().c_str());
        const AotiModel& m = p->models.at(0);
        QCOMPARE(fileOfKind(m, "metadata")->detail, std::string("unreadable JSON"));
        QCOMPARE(fileOfKind(m, "JSON")->detail, std::string("unreadable JSON"));
        QCOMPARE(fileOfKind(m, "shared library")->detail, std::string("ELF file (truncated header)"));
        QVERIFY(m.inputs.empty());
        QVERIFY(m.inSpec.empty());
        QCOMPARE(m.numInputs, -1);
        QVERIFY(m.kernels.empty());
        QVERIFY(m.device.empty());
        QCOMPARE(p->summary(), std::string("AOTInductor package (layout 0, device not recorded): compiled code for model 'model', no exported program"));
    }

    void notAPackage() {
        ZipBuilder z;
        z.add("m/archive_format", "pt2").add("m/models/model.json", "{}");
        const std::string path = write("program.pt2", z.build());
        auto p = readAotiPackage(path);
        QVERIFY(!p.isOk());
        QCOMPARE(QString::fromStdString(p.error()),
                 QString::fromStdString(path) + ": not an AOTInductor package: PT2 archive, root 'm/', 1 model (model)");
        auto missing = readAotiPackage(m_dir.filePath("missing.pt2").toStdString());
        QVERIFY(!missing.isOk());
        QVERIFY(QString::fromStdString(missing.error()).contains("missing.pt2"));
    }

    // Loading a package as a program keeps failing with the one-line explanation the commands print.
    void loadingRefusesWithOneLine() {
        IRLENS_REQUIRE_SHARED();
        const std::string path = irlens::testing::fixture("packages/aotinductor-rs-aoti/ep2.pt2").string();
        auto loaded = loadPt2(path);
        QVERIFY(!loaded.isOk());
        QCOMPARE(loaded.error(), path + ": cannot load: AOTInductor package (compiled code, no exported program), root '', models: model");
    }
};

QTEST_GUILESS_MAIN(TstAotiPackage)
#include "tst_aoti_package.moc"
