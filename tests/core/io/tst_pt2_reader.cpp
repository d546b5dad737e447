// Pt2Reader / loadPt2: every zoo program and every real and generated fixture the zoo has no twin of
// opens (container, graph, weights, sample inputs checked against PyTorch's reference bytes), and
// malformed containers are refused with exact messages.
#include "core/io/pt2_reader.h"
#include "core/io/zip_archive.h"
#include "pickle_builder.h"
#include "support/shared_fixtures.h"
#include "support/zoo_files.h"

#include <QTest>

#include <nlohmann/json.hpp>

#include <fstream>
#include <set>

using namespace irlens::core;
using namespace irlens::testing;

namespace {

std::string bytesOf(const TensorData& t) {
    auto b = t.contiguousBytes();
    return std::string(reinterpret_cast<const char*>(b.data()), b.size());
}

// Every fixture file: {label, relative path, expected kind, root, graph node count (from summary.json, or
// the zoo program as built), model name}.
struct FixtureFile {
    std::string label, path;
    ArchiveInfo::Kind kind;
    std::string root;
    int nodes;
    std::string model = "model";
};

std::vector<FixtureFile> fixtureFiles() {
    std::vector<FixtureFile> out;
    irlens::testing::zooDir();
    for (const auto& z : irlens::testing::zoo::programs()) {
        const ProgramPtr built = z.make();
        // the project's writer roots its archives at "archive/"
        out.push_back({std::string("zoo/") + z.name, std::string("zoo/") + z.name + "/model.pt2", ArchiveInfo::Kind::Pt2Archive,
                       "archive/", int(built->graph.nodes.size()), built->modelName});
    }
    if (!haveShared()) return out;
    out.insert(out.end(), {
        {"executorch linear", "real/executorch-linear-pt2archive/linear.pt2", ArchiveInfo::Kind::Pt2Archive, "linear_3/", 1},
        {"hades legacy schema 2", "real/hades-pid-dann-legacy-schema2/exported_program.pt2", ArchiveInfo::Kind::LegacyZip, "", 34},
        {"tensorrt 7.3", "real/tensorrt-add-legacy-schema7/trt-schema7.3.ep", ArchiveInfo::Kind::LegacyZip, "", 1},
        {"tensorrt 7.4", "real/tensorrt-add-legacy-schema7/trt-schema7.4.ep", ArchiveInfo::Kind::LegacyZip, "", 1},
    });
    for (const char* name : kGeneratedFixtures) {
        const auto dir = fixture(std::string("generated/") + name);
        for (const char* file : {"model.pt2", "model.legacy.pt2", "model.training.pt2"}) {
            if (!std::filesystem::exists(dir / file) || irlens::testing::hasZooTwin(std::string(name) + "/" + file)) continue;
            const bool training = std::string(file) == "model.training.pt2";
            auto summary = nlohmann::json::parse(readFile(dir / (training ? "summary.training.json" : "summary.json")));
            const bool legacy = std::string(file) == "model.legacy.pt2";
            out.push_back({std::string(name) + "/" + file, std::string("generated/") + name + "/" + file,
                           legacy ? ArchiveInfo::Kind::LegacyZip : ArchiveInfo::Kind::Pt2Archive,
                           legacy ? "" : training ? "model.training/" : "model/",
                           summary["nodes"].get<int>()});
        }
    }
    return out;
}

// A synthetic PT2 archive under root "m/" for hostile-input rows; items are added to the defaults.
std::string pt2Archive(std::vector<ZipItem> items, const std::string& archiveFormat = "pt2", const std::string& byteorder = "little") {
    ZipBuilder z;
    for (auto& it : items) z.add(std::move(it));
    z.add(ZipItem{"m/archive_format", archiveFormat, false, true, false, 64});
    z.add(ZipItem{"m/archive_version", "0", false, true, false, 64});
    z.add(ZipItem{"m/byteorder", byteorder, false, true, false, 64});
    return z.build();
}

std::string linearConfig(const std::string& pathName = "weight_0") {
    return R"({"config": {"linear.weight": {"path_name": ")" + pathName + R"(", "is_param": true, "use_pickle": false,
        "tensor_meta": {"dtype": 7, "sizes": [{"as_int": 3}, {"as_int": 3}], "strides": [{"as_int": 3}, {"as_int": 1}],
        "storage_offset": {"as_int": 0}, "requires_grad": true, "device": {"type": "cpu", "index": null}, "layout": 7}}}})";
}

} // namespace

class TstPt2Reader : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_tmp;
    QString write(const QString& name, const std::string& bytes) {
        QString path = m_tmp.filePath(name);
        QFile f(path);
        f.open(QIODevice::WriteOnly);
        f.write(bytes.data(), qint64(bytes.size()));
        return path;
    }

private slots:
    void fixtures_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("root");
        QTest::addColumn<int>("nodes");
        QTest::addColumn<QString>("model");
        for (const auto& f : fixtureFiles())
            QTest::addRow("%s", f.label.c_str()) << QString::fromStdString(fixture(f.path).string()) << int(f.kind)
                                                 << QString::fromStdString(f.root) << f.nodes << QString::fromStdString(f.model);
    }
    void fixtures() {
        QFETCH(QString, path);
        QFETCH(int, kind);
        QFETCH(QString, root);
        QFETCH(int, nodes);
        QFETCH(QString, model);
        auto info = inspectPt2(path.toStdString());
        QVERIFY2(info.isOk(), info.error().c_str());
        QCOMPARE(int(info->kind), kind);
        QCOMPARE(QString::fromStdString(info->root), root);
        QCOMPARE(info->models, std::vector<std::string>{model.toStdString()});

        auto p = loadPt2(path.toStdString());
        QVERIFY2(p.isOk(), p.error().c_str());
        const Program& prog = **p;
        QCOMPARE(int(prog.graph.nodes.size()), nodes);
        QCOMPARE(prog.container, kind == int(ArchiveInfo::Kind::LegacyZip) ? ContainerKind::LegacyZip : ContainerKind::Pt2Archive);
        QCOMPARE(prog.modelName, model.toStdString());
        QCOMPARE(prog.sourcePath, path.toStdString());
        // Every parameter, buffer and tensor constant the signature names has data matching its placeholder.
        int state = 0;
        for (size_t k = 0; k < prog.signature.inputSpecs.size(); ++k) {
            const InputSpec& spec = prog.signature.inputSpecs[k];
            if (spec.kind != InputKind::Parameter && spec.kind != InputKind::Buffer && spec.kind != InputKind::TensorConstant)
                continue;
            const TensorData* t = prog.stateTensorFor(spec);
            QVERIFY2(t, ("no data for " + spec.target).c_str());
            QVERIFY2(t->fitsStorage(), spec.target.c_str());
            const TensorMeta* meta = prog.graph.tensorMeta(spec.arg.s);
            QVERIFY2(meta, spec.arg.s.c_str());
            QCOMPARE(t->dtype, meta->dtype);
            QCOMPARE(t->sizes, *meta->staticSizes());
            ++state;
        }
        QCOMPARE(int(prog.weights.size() + prog.constants.size()) >= state, true);
    }

    void sampleInputsMatchReference_data() {
        QTest::addColumn<QString>("folder");
        QTest::addColumn<QString>("file");
        irlens::testing::zooDir();
        for (const auto& name : irlens::testing::zooNames())
            QTest::addRow("zoo/%s/model.pt2", name.c_str()) << QString::fromStdString("zoo/" + name) << "model.pt2";
        if (!haveShared()) return;
        for (const char* name : kGeneratedFixtures)
            for (const char* file : {"model.pt2", "model.legacy.pt2", "model.training.pt2"})
                if (std::filesystem::exists(fixture(std::string("generated/") + name + "/" + file)) &&
                    !irlens::testing::hasZooTwin(std::string(name) + "/" + file))
                    QTest::addRow("%s/%s", name, file) << QString("generated/%1").arg(name) << file;
    }
    void sampleInputsMatchReference() {
        QFETCH(QString, folder);
        QFETCH(QString, file);
        const auto dir = fixture(folder.toStdString());
        auto reader = Pt2Reader::open((dir / file.toStdString()).string());
        QVERIFY2(reader.isOk(), reader.error().c_str());
        Program p;
        auto st = (*reader)->loadState(p, "model", {});
        QVERIFY2(st.isOk(), st.message().c_str());
        QVERIFY(p.hasSampleInputs);
        auto manifest = nlohmann::json::parse(readFile(dir / "model.expected" / "manifest.json"));
        int tensors = 0;
        for (const auto& in : manifest["inputs"]) {
            const size_t index = in["index"].get<size_t>();
            QVERIFY(index < p.sampleArgs.size());
            const Value& v = p.sampleArgs[index];
            if (in.value("kind", "") == "constant") {
                QCOMPARE(v.kind, Value::Kind::Float);
                QCOMPARE(v.f, in["value"].get<double>());
                continue;
            }
            QCOMPARE(v.kind, Value::Kind::Tensor);
            QCOMPARE(QString::fromStdString(dtypeName(v.tensor.dtype)), QString::fromStdString(in["dtype"].get<std::string>()));
            QCOMPARE(v.tensor.sizes, in["shape"].get<std::vector<int64_t>>());
            QVERIFY(bytesOf(v.tensor) == readFile(dir / "model.expected" / in["file"].get<std::string>()));
            ++tensors;
        }
        QVERIFY(tensors > 0);
    }

    void hadesWeightsFromPickle() {
        IRLENS_REQUIRE_SHARED();
        auto reader = Pt2Reader::open(fixture("real/hades-pid-dann-legacy-schema2/exported_program.pt2").string());
        QVERIFY2(reader.isOk(), reader.error().c_str());
        Program p;
        auto st = (*reader)->loadState(p, "model", {});
        QVERIFY2(st.isOk(), st.message().c_str());
        QCOMPARE(p.weights.size(), size_t(30));
        int params = 0, longs = 0;
        for (const auto& [name, t] : p.weights) {
            params += t.isParameter;
            longs += t.dtype == ScalarType::Int64;
            QVERIFY2(t.fitsStorage(), name.c_str());
        }
        QCOMPARE(params, 24);
        QCOMPARE(longs, 2); // num_batches_tracked of both batch norms
        QCOMPARE(p.weights.at("feature.0.weight").sizes, (std::vector<int64_t>{256, 10}));
        QVERIFY(p.constants.empty());
        QVERIFY(!p.hasSampleInputs); // the 2.2 era wrote none
    }

    void legacyAndArchiveWeightsIdentical() {
        IRLENS_REQUIRE_SHARED();
        std::map<std::string, std::map<std::string, std::string>> byFile;
        for (const char* file : {"model.pt2", "model.legacy.pt2", "model.training.pt2"}) {
            auto reader = Pt2Reader::open(fixture(std::string("generated/tiny_mlp/") + file).string());
            QVERIFY2(reader.isOk(), reader.error().c_str());
            Program p;
            QVERIFY((*reader)->loadState(p, "model", {}).isOk());
            for (const auto& [name, t] : p.weights) {
                byFile[file][name] = bytesOf(t);
                // Typed pointers are safe: in place (64-aligned records) or an aligned copy (legacy nesting).
                QCOMPARE(reinterpret_cast<uintptr_t>(t.storage->data) % 16, uintptr_t(0));
            }
        }
        QCOMPARE(byFile["model.pt2"].size(), size_t(6));
        {
            // Viewed in place: every weight of the PT2 archive is kept alive by the one file mapping.
            auto reader = Pt2Reader::open(fixture("generated/tiny_mlp/model.pt2").string());
            Program p;
            QVERIFY((*reader)->loadState(p, "model", {}).isOk());
            std::set<const void*> owners;
            for (const auto& [name, t] : p.weights) owners.insert(t.storage->owner.get());
            QCOMPARE(owners.size(), size_t(1));
        }
        QVERIFY(byFile["model.pt2"] == byFile["model.legacy.pt2"]);
        QVERIFY(byFile["model.pt2"] == byFile["model.training.pt2"]);
    }

    void multiModelArchive() {
        const std::string w9 = f32Bytes({1, 2, 3, 4, 5, 6, 7, 8, 9});
        std::string b = pt2Archive({
            ZipItem{"m/models/encoder.json", "{}"}, ZipItem{"m/models/decoder.json", "{}"},
            ZipItem{"m/data/weights/encoder_weights_config.json", linearConfig("weight_0")},
            ZipItem{"m/data/weights/decoder_weights_config.json", linearConfig("weight_1")},
            ZipItem{"m/data/weights/weight_0", std::string(36, '\0')}, ZipItem{"m/data/weights/weight_1", w9},
        });
        QString path = write("multi.pt2", b);
        auto info = inspectPt2(path.toStdString());
        QVERIFY2(info.isOk(), info.error().c_str());
        QCOMPARE(info->models, (std::vector<std::string>{"decoder", "encoder"}));
        QCOMPARE(info->description, std::string("PT2 archive, root 'm/', 2 models (decoder, encoder)"));
        auto reader = Pt2Reader::open(path.toStdString());
        QCOMPARE(QString::fromStdString((*reader)->resolveModel("").error()),
                 path + ": the archive holds 2 models (decoder, encoder); choose one");
        QCOMPARE(QString::fromStdString((*reader)->resolveModel("x").error()),
                 path + ": no model 'x' in the archive (models: decoder, encoder)");
        Program p;
        QVERIFY((*reader)->loadState(p, *(*reader)->resolveModel("decoder"), {}).isOk());
        QCOMPARE(bytesOf(p.weights.at("linear.weight")), w9);
        QCOMPARE(QString::fromStdString(loadPt2(path.toStdString()).error()),
                 path + ": the archive holds 2 models (decoder, encoder); choose one");
    }

    void multiModelFullLoad() {
        IRLENS_REQUIRE_SHARED();
        // Two real programs packaged together (package_pt2 with a dict): each model has its own JSON,
        // payload config and sample inputs; the weight_<i> counters run over the whole archive.
        auto mlp = ZipArchive::openFile(fixture("generated/tiny_mlp/model.pt2").string());
        auto lin = ZipArchive::openFile(fixture("real/executorch-linear-pt2archive/linear.pt2").string());
        QVERIFY(mlp.isOk() && lin.isOk());
        auto rd = [](const ZipArchive& z, const std::string& n) { return *z.readText(n, 1 << 24); };
        std::string linCfg = rd(**lin, "linear_3/data/weights/model_weights_config.json");
        for (auto [from, to] : {std::pair{"weight_0", "weight_6"}, std::pair{"weight_1", "weight_7"}})
            linCfg.replace(linCfg.find(from), 8, to);
        ZipBuilder z;
        z.add("pkg/archive_format", "pt2").add("pkg/models/mlp.json", rd(**mlp, "model/models/model.json"));
        z.add("pkg/models/lin.json", rd(**lin, "linear_3/models/model.json"));
        z.add("pkg/data/weights/mlp_weights_config.json", rd(**mlp, "model/data/weights/model_weights_config.json"));
        z.add("pkg/data/weights/lin_weights_config.json", linCfg);
        for (int k = 0; k < 6; ++k) z.add("pkg/data/weights/weight_" + std::to_string(k), rd(**mlp, "model/data/weights/weight_" + std::to_string(k)));
        z.add("pkg/data/weights/weight_6", rd(**lin, "linear_3/data/weights/weight_0"));
        z.add("pkg/data/weights/weight_7", rd(**lin, "linear_3/data/weights/weight_1"));
        z.add("pkg/data/sample_inputs/lin.pt", rd(**lin, "linear_3/data/sample_inputs/model.pt"));
        QString path = write("two_models.pt2", z.build());
        LoadOptions o;
        o.modelName = "lin";
        auto p = loadPt2(path.toStdString(), o);
        QVERIFY2(p.isOk(), p.error().c_str());
        QCOMPARE((*p)->modelName, std::string("lin"));
        QCOMPARE((*p)->graph.nodes.size(), size_t(1));
        QCOMPARE((*p)->weights.size(), size_t(2));
        QCOMPARE(bytesOf((*p)->weights.at("linear.weight")), rd(**lin, "linear_3/data/weights/weight_0"));
        QVERIFY((*p)->hasSampleInputs);
        QVERIFY((*p)->warnings.empty());
        o.modelName = "mlp";
        auto q = loadPt2(path.toStdString(), o);
        QVERIFY2(q.isOk(), q.error().c_str());
        QCOMPARE((*q)->graph.nodes.size(), size_t(8));
        QCOMPARE((*q)->weights.size(), size_t(6));
        QVERIFY(!(*q)->hasSampleInputs);
    }

    void refusedByLoadPt2_data() {
        QTest::addColumn<QByteArray>("archive");
        QTest::addColumn<QString>("error"); // "%1" = the file's path
        auto row = [](const char* name, const std::string& bytes, const char* err) {
            QTest::addRow("%s", name) << QByteArray(bytes.data(), qsizetype(bytes.size())) << QString(err);
        };
        const std::string good = pt2Archive({ZipItem{"m/models/model.json", "{}"}});
        row("truncated zip", good.substr(0, good.size() - 30), "%1: no end-of-central-directory record (truncated file, or not a ZIP archive)");
        row("dot-dot name", pt2Archive({ZipItem{"m/../../etc/cron.d/x", "boom"}}),
            "%1: record 'm/../../etc/cron.d/x': unsafe name (absolute path or '..' component); refusing the archive");
        row("wrong archive_format", pt2Archive({ZipItem{"m/models/model.json", "{}"}}, "zip"),
            "%1: cannot load: archive_format is 'zip', expected 'pt2'; not a PT2 archive");
        row("AOTInductor-only package", pt2Archive({ZipItem{"m/data/aotinductor/model/model.so", "\x7f" "ELF"},
                                                    ZipItem{"m/data/aotinductor/model/model_metadata.json", "{}"}}),
            "%1: cannot load: AOTInductor package (compiled code, no exported program), root 'm/', models: model");
        row("AOTInductor package without root (early executorch era)",
            ZipBuilder().add("version", "0").add("archive_format", "pt2").add("data/aotinductor/model/preprocess.cpp", "//").build(),
            "%1: cannot load: AOTInductor package (compiled code, no exported program), root '', models: model");
        row("plain torch.save look-alike", torchSaveZip(PickleBuilder().emptyDict().stop().bytes(), {}),
            "%1: cannot load: plain torch.save file (data.pkl), not a torch.export program");
        row("TorchScript look-alike", ZipBuilder().add("net/data.pkl", "\x80\x02}.").add("net/constants.pkl", "\x80\x02).").add("net/code/__torch__.py", "").build(),
            "%1: cannot load: TorchScript archive (data.pkl and constants.pkl), not a torch.export program");
        row("other zip", ZipBuilder().add("readme.txt", "hi").build(),
            "%1: cannot load: ZIP file with 1 records but no archive_format, serialized_exported_program.json or data.pkl; not a torch.export program");
        row("not a zip", std::string(300, ' '), "%1: no end-of-central-directory record (truncated file, or not a ZIP archive)");
        row("no models", pt2Archive({}), "%1: the archive holds no models/*.json");
    }
    void refusedByLoadPt2() {
        QFETCH(QByteArray, archive);
        QFETCH(QString, error);
        QString path = write(QString("bad_%1.pt2").arg(QTest::currentDataTag()).replace(' ', '_'), archive.toStdString());
        auto p = loadPt2(path.toStdString());
        QVERIFY(!p.isOk());
        QCOMPARE(QString::fromStdString(p.error()), QString(error).replace("%1", path));
    }

    void refusedState_data() {
        QTest::addColumn<QByteArray>("archive");
        QTest::addColumn<QString>("error");
        auto row = [](const char* name, std::vector<ZipItem> items, const std::string& err) {
            items.insert(items.begin(), ZipItem{"m/models/model.json", "{}"});
            std::string bytes = pt2Archive(std::move(items));
            QTest::addRow("%s", name) << QByteArray(bytes.data(), qsizetype(bytes.size())) << QString::fromStdString(err);
        };
        row("weight file shorter than its meta",
            {ZipItem{"m/data/weights/model_weights_config.json", linearConfig()}, ZipItem{"m/data/weights/weight_0", std::string(20, '\0')}},
            "m/data/weights/weight_0 holds 20 bytes but 'linear.weight' (f32[3, 3], strides [3, 1], offset 0) needs 36");
        row("weight file not whole elements",
            {ZipItem{"m/data/weights/model_weights_config.json", linearConfig()}, ZipItem{"m/data/weights/weight_0", std::string(38, '\0')}},
            "m/data/weights/weight_0 holds 38 bytes, not a whole number of 4-byte elements for 'linear.weight' (f32[3, 3], strides [3, 1], offset 0)");
        row("payload file missing", {ZipItem{"m/data/weights/model_weights_config.json", linearConfig("weight_7")}},
            "m/data/weights/model_weights_config.json: 'linear.weight' points to 'm/data/weights/weight_7', which is missing");
        row("path_name escaping its folder", {ZipItem{"m/data/weights/model_weights_config.json", linearConfig("../../x")}},
            "m/data/weights/model_weights_config.json: config['linear.weight']: path_name '../../x' is not a plain file name");
        row("deflate bomb payload",
            {ZipItem{"m/data/weights/model_weights_config.json", linearConfig()},
             ZipItem{"m/data/weights/weight_0", std::string(8 << 20, '\0'), true, true, false, 0, 36}},
            "%1: record 'm/data/weights/weight_0': inflates to more than its declared 36 bytes (deflate bomb?)");
        {
            PickleBuilder p;
            p.global("os", "system").str("id").tuple1().reduce().stop();
            row("sample inputs naming os.system", {ZipItem{"m/data/sample_inputs/model.pt", torchSaveZip(p.bytes(), {})}},
                "m/data/sample_inputs/model.pt: data.pkl: unsupported global 'os.system' at byte 2");
        }
        {
            PickleBuilder p;
            p.emptyList().put(0).get(0).emptyDict().tuple2().append().get(0).stop();
            row("recursive sample inputs", {ZipItem{"m/data/sample_inputs/model.pt", torchSaveZip(p.bytes(), {})}},
                "m/data/sample_inputs/model.pt: data.pkl: recursive structure (a container that contains itself) at byte 9");
        }
        {
            PickleBuilder p;
            p.emptyDict().str("w").tensor("FloatStorage", "0", 9, 0, {3, 3}, {3, 1}).setitem().stop();
            const size_t at = p.bytes().find('Q', p.bytes().find("cpu")); // the BINPERSID opcode
            row("2.8 pickled weights shorter than declared",
                {ZipItem{"m/data/weights/model.pt", torchSaveZip(p.bytes(), {{"0", std::string(16, '\0')}})}},
                "m/data/weights/model.pt: data.pkl: storage 'data/0' holds 16 bytes but the pickle declares 9 elements of float32 at byte " +
                    std::to_string(at));
        }
        {
            PickleBuilder p;
            p.emptyDict().str("w").tensor("FloatStorage", "5", 9, 0, {3, 3}, {3, 1}).setitem().stop();
            const size_t at = p.bytes().find('Q', p.bytes().find("cpu"));
            row("pickled weights naming a missing storage", {ZipItem{"m/data/weights/model.pt", torchSaveZip(p.bytes(), {})}},
                "m/data/weights/model.pt: data.pkl: storage record 'archive/data/5' is missing at byte " + std::to_string(at));
        }
        row("sample inputs not a zip", {ZipItem{"m/data/sample_inputs/model.pt", "not a zip at all, just some bytes here"}},
            "m/data/sample_inputs/model.pt: not a torch.save archive (expected a ZIP holding data.pkl)");
    }
    void refusedState() {
        QFETCH(QByteArray, archive);
        QFETCH(QString, error);
        QString path = write(QString("state_%1.pt2").arg(QTest::currentDataTag()).replace(' ', '_'), archive.toStdString());
        auto reader = Pt2Reader::open(path.toStdString());
        QVERIFY2(reader.isOk(), reader.error().c_str());
        Program p;
        auto st = (*reader)->loadState(p, "model", {});
        QVERIFY(!st.isOk());
        QCOMPARE(QString::fromStdString(st.message()), QString(error).replace("%1", path));
    }

    void sharedStorageAndOpaqueConstants() {
        // Two weights on one payload file (tied weights / views); a TorchBind object as an opaque constant.
        std::string cfg = R"({"config": {
            "a": {"path_name": "weight_0", "is_param": true, "use_pickle": false, "tensor_meta": {"dtype": 7,
                  "sizes": [{"as_int": 2}], "strides": [{"as_int": 1}], "storage_offset": {"as_int": 0}, "device": {"type": "cpu"}}},
            "b": {"path_name": "weight_0", "is_param": false, "use_pickle": false, "tensor_meta": {"dtype": 7,
                  "sizes": [{"as_int": 2}], "strides": [{"as_int": 1}], "storage_offset": 2, "device": {"type": "cuda", "index": 0}}}}})";
        std::string consts = R"({"config": {"obj": {"path_name": "custom_obj_0", "is_param": false, "use_pickle": true, "tensor_meta": null}}})";
        QString path = write("shared.pt2", pt2Archive({ZipItem{"m/models/model.json", "{}"},
                                                       ZipItem{"m/data/weights/model_weights_config.json", cfg},
                                                       ZipItem{"m/data/weights/weight_0", f32Bytes({1, 2, 3, 4}), false, true, false, 64},
                                                       ZipItem{"m/data/constants/model_constants_config.json", consts},
                                                       ZipItem{"m/data/constants/custom_obj_0", "opaque torchbind bytes"},
                                                       ZipItem{"m/extra/note.txt", "hello"}}));
        auto reader = Pt2Reader::open(path.toStdString());
        QVERIFY2(reader.isOk(), reader.error().c_str());
        Program p;
        auto st = (*reader)->loadState(p, "model", {});
        QVERIFY2(st.isOk(), st.message().c_str());
        const TensorData& a = p.weights.at("a");
        const TensorData& b = p.weights.at("b");
        QCOMPARE(a.storage.get(), b.storage.get());
        QVERIFY(a.isParameter && !b.isParameter);
        QCOMPARE(b.device, std::string("cuda:0"));
        QCOMPARE(bytesOf(b), f32Bytes({3, 4}));
        QCOMPARE(p.constants.at("obj").kind, Value::Kind::Opaque);
        QCOMPARE(p.constants.at("obj").s, std::string("custom object 'obj' (m/data/constants/custom_obj_0, 22 bytes)"));
        QCOMPARE(p.extraFiles.at("note.txt"), std::string("hello"));
    }

    void notZipDescribed() {
        QString path = write("notes.pt2", "this is a text file someone named .pt2\n");
        auto info = inspectPt2(path.toStdString());
        QVERIFY2(info.isOk(), info.error().c_str());
        QCOMPARE(info->kind, ArchiveInfo::Kind::NotZip);
        QCOMPARE(info->description, std::string("not a ZIP archive (a .pt2 is always a ZIP file)"));
        QCOMPARE(QString::fromStdString(loadPt2(path.toStdString()).error()),
                 path + ": no end-of-central-directory record (truncated file, or not a ZIP archive)");
        // Starts like a ZIP but is damaged: an error, not a description.
        QString cut = write("cut.pt2", pt2Archive({}).substr(0, 200));
        QVERIFY(!inspectPt2(cut.toStdString()).isOk());
    }

    void flatSampleInputs() {
        PickleBuilder p;
        p.emptyList().mark().tensor("FloatStorage", "0", 2, 0, {2}, {1}).integer(3).boolean(true).appends().stop();
        QString path = write("flat.pt2", pt2Archive({ZipItem{"m/models/model.json", "{}"},
                                                     ZipItem{"m/data/sample_inputs/model.pt", torchSaveZip(p.bytes(), {{"0", f32Bytes({5, 6})}})}}));
        auto reader = Pt2Reader::open(path.toStdString());
        QVERIFY2(reader.isOk(), reader.error().c_str());
        Program prog;
        auto st = (*reader)->loadState(prog, "model", {});
        QVERIFY2(st.isOk(), st.message().c_str());
        QCOMPARE(prog.sampleArgs.size(), size_t(3));
        QCOMPARE(bytesOf(prog.sampleArgs[0].tensor), f32Bytes({5, 6}));
        QCOMPARE(prog.sampleArgs[1].i, int64_t(3));
        QCOMPARE(prog.sampleArgs[2].kind, Value::Kind::Bool);
    }

    void missingStateWarned() {
        // The zoo MLP's graph JSON in an archive that carries no weights and an unknown archive_version.
        irlens::testing::zooDir();
        auto src = ZipArchive::openFile(fixture("zoo/mlp/model.pt2").string());
        QVERIFY(src.isOk());
        auto json = (*src)->readText("archive/models/model.json", 1 << 24);
        QVERIFY(json.isOk());
        ZipBuilder z;
        z.add("m/archive_format", "pt2").add("m/archive_version", "7").add("m/models/model.json", *json);
        QString path = write("noweights.pt2", z.build());
        auto p = loadPt2(path.toStdString());
        QVERIFY2(p.isOk(), p.error().c_str());
        const auto& w = (*p)->warnings;
        QCOMPARE(int(std::count_if(w.begin(), w.end(), [](const std::string& m) { return m.find("has no data in the archive") != std::string::npos; })), 6);
        QVERIFY(std::find(w.begin(), w.end(), "PARAMETER 'fc1.weight' has no data in the archive (the program can be inspected but not run)") != w.end());
        QVERIFY(std::find(w.begin(), w.end(), "archive_version is '7'; this reader knows version 0 and tried anyway") != w.end());
        QVERIFY(!(*p)->hasSampleInputs);
    }

    void reZippedWithDeflate() {
        // A third party re-zips an archive with DEFLATE and its own root: same program, weights inflated.
        irlens::testing::zooDir();
        const std::string orig = fixture("zoo/mlp/model.pt2").string();
        auto src = ZipArchive::openFile(orig);
        QVERIFY(src.isOk());
        ZipBuilder z;
        for (const auto& e : (*src)->entries()) {
            auto bytes = (*src)->readText(e.name, 1 << 24);
            QVERIFY(bytes.isOk());
            z.add(ZipItem{"exported/" + e.name.substr(std::string("archive/").size()), *bytes, true});
        }
        QString path = write("deflated.pt2", z.build());
        auto a = loadPt2(orig);
        auto b = loadPt2(path.toStdString());
        QVERIFY2(b.isOk(), b.error().c_str());
        QCOMPARE((*b)->sourcePath, path.toStdString());
        QCOMPARE(QString::fromStdString(compareProgramsDetail(**a, **b)), QString());
        QCOMPARE(bytesOf((*b)->sampleArgs.at(0).tensor), bytesOf((*a)->sampleArgs.at(0).tensor));
    }

    void pickledPayload() {
        // use_pickle: the payload file is a whole torch.save of the tensor (tensor subclasses in torch).
        PickleBuilder p;
        p.tensor("FloatStorage", "0", 4, 1, {3}, {1}).stop();
        std::string cfg = R"({"config": {"sub": {"path_name": "weight_0", "is_param": true, "use_pickle": true,
            "tensor_meta": {"dtype": 7, "sizes": [{"as_int": 3}], "strides": [{"as_int": 1}], "storage_offset": {"as_int": 1}}}}})";
        QString path = write("pickled.pt2", pt2Archive({ZipItem{"m/models/model.json", "{}"},
                                                       ZipItem{"m/data/weights/model_weights_config.json", cfg},
                                                       ZipItem{"m/data/weights/weight_0", torchSaveZip(p.bytes(), {{"0", f32Bytes({1, 2, 3, 4})}})}}));
        auto reader = Pt2Reader::open(path.toStdString());
        QVERIFY2(reader.isOk(), reader.error().c_str());
        Program prog;
        auto st = (*reader)->loadState(prog, "model", {});
        QVERIFY2(st.isOk(), st.message().c_str());
        QCOMPARE(bytesOf(prog.weights.at("sub")), f32Bytes({2, 3, 4}));
        QVERIFY(prog.weights.at("sub").isParameter);
    }

    void torch28PickledWeightsAndConstants() {
        // torch 2.8: data/weights/<m>.pt and data/constants/<m>.pt are whole torch.save dicts.
        PickleBuilder w;
        w.global("collections", "OrderedDict").emptyTuple().reduce().mark();
        w.str("fc.weight").global("torch._utils", "_rebuild_parameter").tensor("FloatStorage", "0", 6, 0, {2, 3}, {3, 1});
        w.boolean(true).global("collections", "OrderedDict").emptyTuple().reduce().tuple3().reduce();
        w.str("steps").tensor("LongStorage", "1", 1, 0, {}, {});
        w.setitems().stop();
        PickleBuilder c;
        c.emptyDict().mark().str("mask").tensor("BoolStorage", "0", 4, 0, {2, 2}, {2, 1}).str("scale").integer(3).setitems().stop();
        const std::string longOne("\x07\0\0\0\0\0\0\0", 8);
        QString path = write("t28.pt2", pt2Archive({ZipItem{"m/models/model.json", "{}"},
            ZipItem{"m/data/weights/model.pt", torchSaveZip(w.bytes(), {{"0", f32Bytes({1, 2, 3, 4, 5, 6})}, {"1", longOne}})},
            ZipItem{"m/data/constants/model.pt", torchSaveZip(c.bytes(), {{"0", std::string("\1\0\0\1", 4)}})}}));
        auto reader = Pt2Reader::open(path.toStdString());
        Program p;
        auto st = (*reader)->loadState(p, "model", {});
        QVERIFY2(st.isOk(), st.message().c_str());
        QCOMPARE(p.weights.size(), size_t(2));
        QVERIFY(p.weights.at("fc.weight").isParameter);
        QCOMPARE(bytesOf(p.weights.at("fc.weight")), f32Bytes({1, 2, 3, 4, 5, 6}));
        QCOMPARE(p.weights.at("steps").dtype, ScalarType::Int64);
        QCOMPARE(p.weights.at("steps").numel(), int64_t(1));
        QCOMPARE(bytesOf(p.weights.at("steps")), longOne);
        QCOMPARE(p.constants.at("mask").tensor.dtype, ScalarType::Bool);
        QCOMPARE(p.constants.at("scale").kind, Value::Kind::Int);
        QCOMPARE(p.constants.at("scale").i, int64_t(3));
    }

    void legacyExtraFilesAndEmptyArtifacts() {
        // Legacy layout: extra_files/<name>, zero-length example inputs, empty pickled dicts.
        const std::string emptyDict = torchSaveZip(PickleBuilder().emptyDict().stop().bytes(), {});
        ZipBuilder z;
        z.add("serialized_exported_program.json", "{}").add("serialized_state_dict.pt", emptyDict);
        z.add("serialized_constants.pt", emptyDict).add("serialized_example_inputs.pt", "").add("version", "7.4");
        z.add("extra_files/notes.md", "# trained on CIFAR").add("extra_files/cfg/run.json", "{\"lr\": 0.1}");
        QString path = write("legacy_extra.pt2", z.build());
        auto reader = Pt2Reader::open(path.toStdString());
        QVERIFY2(reader.isOk(), reader.error().c_str());
        QCOMPARE((*reader)->info().kind, ArchiveInfo::Kind::LegacyZip);
        QCOMPARE((*reader)->programRecord("model"), std::string("serialized_exported_program.json"));
        Program p;
        auto st = (*reader)->loadState(p, "model", {});
        QVERIFY2(st.isOk(), st.message().c_str());
        QVERIFY(p.weights.empty() && p.constants.empty());
        QVERIFY(!p.hasSampleInputs);
        QCOMPARE(p.extraFiles.size(), size_t(2));
        QCOMPARE(p.extraFiles.at("notes.md"), std::string("# trained on CIFAR"));
        QCOMPARE(p.extraFiles.at("cfg/run.json"), std::string("{\"lr\": 0.1}"));
    }

    void bigEndianPayloads() {
        // byteorder "big": raw payload bytes are swapped per element into native order.
        std::string be;
        for (float f : {1.5f, -2.0f, 3.25f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f, 9.0f}) {
            std::string le = f32Bytes({f});
            be += std::string(le.rbegin(), le.rend());
        }
        QString path = write("big.pt2", pt2Archive({ZipItem{"m/models/model.json", "{}"},
                                                   ZipItem{"m/data/weights/model_weights_config.json", linearConfig()},
                                                   ZipItem{"m/data/weights/weight_0", be}}, "pt2", "big"));
        auto reader = Pt2Reader::open(path.toStdString());
        Program p;
        auto st = (*reader)->loadState(p, "model", {});
        QVERIFY2(st.isOk(), st.message().c_str());
        QCOMPARE(bytesOf(p.weights.at("linear.weight")), f32Bytes({1.5f, -2.0f, 3.25f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f, 9.0f}));
        // A big-endian torch.save (sample inputs): storages swapped once, shared views keep sharing.
        PickleBuilder pk;
        pk.mark().tensor("FloatStorage", "0", 3, 0, {3}, {1}).tensor("FloatStorage", "0", 3, 1, {2}, {1}).tuple().emptyDict().tuple2().stop();
        QString path2 = write("big_inputs.pt2", pt2Archive({ZipItem{"m/models/model.json", "{}"},
                                                           ZipItem{"m/data/sample_inputs/model.pt", torchSaveZip(pk.bytes(), {{"0", be.substr(0, 12)}}, "big")}}));
        Program s;
        auto st2 = (*Pt2Reader::open(path2.toStdString()))->loadState(s, "model", {});
        QVERIFY2(st2.isOk(), st2.message().c_str());
        QCOMPARE(s.sampleArgs.size(), size_t(2));
        QCOMPARE(bytesOf(s.sampleArgs[0].tensor), f32Bytes({1.5f, -2.0f, 3.25f}));
        QCOMPARE(bytesOf(s.sampleArgs[1].tensor), f32Bytes({-2.0f, 3.25f}));
        QCOMPARE(s.sampleArgs[0].tensor.storage.get(), s.sampleArgs[1].tensor.storage.get());
        QString odd = write("odd.pt2", pt2Archive({ZipItem{"m/models/model.json", "{}"}}, "pt2", "middle"));
        Program q;
        QCOMPARE(QString::fromStdString((*Pt2Reader::open(odd.toStdString()))->loadState(q, "model", {}).message()),
                 QString("m/byteorder: 'middle', expected 'little' or 'big'"));
    }

    void progressAndCancel() {
        irlens::testing::zooDir();
        const std::string path = fixture("zoo/conv_attention/model.pt2").string();
        std::vector<double> seen;
        LoadOptions o;
        o.progress = [&](double f) { seen.push_back(f); };
        auto p = loadPt2(path, o);
        QVERIFY2(p.isOk(), p.error().c_str());
        QVERIFY(seen.size() >= 4);
        QVERIFY(std::is_sorted(seen.begin(), seen.end()));
        QCOMPARE(seen.back(), 1.0);

        std::atomic<bool> cancel{true};
        o.cancel = &cancel;
        QCOMPARE(QString::fromStdString(loadPt2(path, o).error()), QString("loading cancelled"));
        cancel = false;
        o.progress = [&](double f) { if (f >= 0.6) cancel = true; }; // cancel while weights load
        QCOMPARE(QString::fromStdString(loadPt2(path, o).error()), QString("loading cancelled"));
    }
};

QTEST_GUILESS_MAIN(TstPt2Reader)
#include "tst_pt2_reader.moc"
