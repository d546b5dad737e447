// irlens-cli as scripts use it: exit codes, one-line errors, and what `info` reports on real files.
#include "support/cli_runner.h"
#include "support/shared_core.h"
#include "support/shared_fixtures.h"
#include "support/view_programs.h"
#include "support/zoo_files.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>

#include <cmath>
#include <cstring>
#include <QTemporaryDir>
#include <QTest>

namespace {

using Run = irlens::testing::CliRun;

Run cli(const QStringList& args) { return irlens::testing::runCli(args); }

// A fixture file: "zoo/..." (the zoo and support/view_programs.h's programs, written on first use) or under ../shared/fixtures.
QString fx(const char* rel) {
    if (std::strncmp(rel, "zoo/", 4) == 0) irlens::testing::writeViewPrograms();
    return QString::fromStdString(irlens::testing::fixture(rel).string());
}

} // namespace

class TstCli : public QObject {
    Q_OBJECT
private slots:
    void usageErrors_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::addRow("no command") << QStringList{} << "";
        QTest::addRow("unknown command") << QStringList{"frobnicate"} << "irlens-cli: unknown command 'frobnicate' (see irlens-cli --help)\n";
        QTest::addRow("info without file") << QStringList{"info"} << "irlens-cli: usage: irlens-cli info FILE [--model NAME]\n";
        QTest::addRow("report without -o") << QStringList{"report", "m.pt2"}
            << "irlens-cli: usage: irlens-cli report FILE -o OUT.html [--run [--repeat K] [--threads N]] [--inputs PATH ...] "
               "[--reference REF] [--compare B]\n";
        QTest::addRow("report --repeat 0") << QStringList{"report", "m.pt2", "-o", "r.html", "--run", "--repeat", "0"}
            << "irlens-cli: --repeat needs a number from 1 to 100000 (got '0')\n";
        QTest::addRow("run --repeat over the bound") << QStringList{"run", "m.pt2", "--repeat", "200000"}
            << "irlens-cli: --repeat needs a number from 1 to 100000 (got '200000')\n";
        QTest::addRow("run --threads 0") << QStringList{"run", "m.pt2", "--threads", "0"}
            << "irlens-cli: --threads needs a number from 1 to 1024 (got '0')\n";
    }
    void usageErrors() {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        Run r = cli(args);
        QCOMPARE(r.code, 2);
        if (!message.isEmpty()) QCOMPARE(r.err, message);
    }

    // Every command refuses a missing or non-zip file with exit 2 and one line that names the file.
    void unreadableInput_data() {
        QTest::addColumn<QString>("command");
        for (const char* c : {"info", "print", "verify", "dot", "convert", "run", "decompose", "render", "report"}) QTest::addRow("%s", c) << c;
    }
    void unreadableInput() {
        QFETCH(QString, command);
        Run help = cli({"--help"});
        if (!help.out.contains("  " + command + " ")) QSKIP("command not built in this configuration");
        QTemporaryDir dir;
        const QString junk = dir.filePath("junk.pt2");
        QVERIFY(irlens::testing::writeFile(junk, "this is not a zip archive at all"));
        const QString out = dir.filePath(command == "render" ? "out.svg" : command == "dot" ? "out.dot" : command == "report" ? "out.html" : "out.pt2");
        for (const QString& path : {dir.filePath("missing.pt2"), junk}) {
            QStringList args{command, path};
            if (command == "convert" || command == "dot" || command == "render" || command == "decompose" || command == "report") args << "-o" << out;
            if (command == "decompose") args << "--to" << "core";
            Run r = cli(args);
            QCOMPARE(r.code, 2);
            QVERIFY2(r.err.startsWith("irlens-cli: "), qPrintable(r.err));
            QCOMPARE(r.err.count('\n'), 1);
            QVERIFY2(r.err.contains(QFileInfo(path).fileName()), qPrintable(r.err));
        }
    }

    void infoOnFixtures_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("expected");
        QTest::addRow("hades (2.2 legacy)") << "real/hades-pid-dann-legacy-schema2/exported_program.pt2"
            << QStringList{"container:   legacy", "schema:      2\n", "34 call_function", "parameters:  24 tensors",
                           "buffers:     6 tensors", "BUFFER_MUTATION    getitem_3 f32[128] -> class_classifier.1.running_mean"};
        QTest::addRow("executorch (2.9 archive)") << "real/executorch-linear-pt2archive/linear.pt2"
            << QStringList{"root 'linear_3/'", "schema:      8.12", "dialect:     TRAINING", "aten.linear.default",
                           "parameters:  2 tensors, 12 elements, 48 B", "x f32[3]"};
        QTest::addRow("dynamic_mlp") << "generated/dynamic_mlp/model.pt2"
            << QStringList{"x f32[s0, 16]", "addmm_1 f32[s0, 8]", "s0 in [2, inf]"};
        // the owned conv net: 10 convs, 10 batch norms and the fc (support/view_programs.h's counts)
        QTest::addRow("zoo/resnet_like") << "zoo/resnet_like/model.pt2"
            << QStringList{"38 call_function", "aten.convolution.default                           10",
                           "parameters:  32 tensors, 11122 elements", "buffers:     30 tensors"};
        QTest::addRow("zoo/deep_decoder_like") << "zoo/deep_decoder_like/model.pt2" << QStringList{"6002 call_function"};
        // AOTInductor packages: described (exit 0), not refused
        QTest::addRow("preprocess (AOTInductor package)") << "packages/executorch-preprocess-aoti/preprocess.pt2"
            << QStringList{"container:   AOTInductor package (layout 0, cpu): compiled code for model 'model', no exported program\n",
                           "layout:      archive_format 'pt2', version 0 (record 'version'), no root folder\n",
                           "  device:      cpu\n", "  built with:  clang++ for CPU_CAPABILITY_NEON\n",
                           "Mach-O 64-bit arm64 shared library (built on macOS)", "proxy-executor calls",
                           "  custom ops:  1 call through the proxy executor",
                           "    preprocess::tile_crop  buf17 = preprocess::tile_crop(input=buf15, tile_size=224)\n",
                           "    arg0_1  float32[3, 2..4000, 2..4000]\n", "    arg1_1  int64[2]\n",
                           "  call:        (args, kwargs) = ((arg0_1, arg1_1, arg2_1), {})\n", "  returns:     (output0, output1)\n"};
        QTest::addRow("ep2 (older AOTInductor layout)") << "packages/aotinductor-rs-aoti/ep2.pt2"
            << QStringList{"container:   AOTInductor package (layout 0, cpu)",
                           "ELF 64-bit x86-64 shared object, GCC: (GNU) 14.2.1 20240910", "  built with:  g++ for CPU_CAPABILITY_AVX2\n",
                           "  kernels:     1 generated\n    cpp_fused_add_mul_0\n",
                           "  inputs:      2 (names only: compiled without input checks)\n    arg0_1\n    arg1_1\n",
                           "  custom ops:  0 calls"};
    }
    void infoOnFixtures() {
        QFETCH(QString, file);
        IRLENS_REQUIRE_FIXTURE(file);
        QFETCH(QStringList, expected);
        Run r = cli({"info", fx(file.toUtf8().constData())});
        QCOMPARE(r.code, 0);
        for (const QString& e : expected) QVERIFY2(r.out.contains(e), qPrintable("missing '" + e + "' in:\n" + r.out));
    }

    // The commands that need a program keep refusing a package, with exit 2 and the one line that says why.
    void packageRefusedByProgramCommands_data() {
        QTest::addColumn<QString>("command");
        for (const char* c : {"print", "verify", "dot", "convert", "run", "decompose", "render", "report"}) QTest::addRow("%s", c) << c;
    }
    void packageRefusedByProgramCommands() {
        IRLENS_REQUIRE_SHARED();
        QFETCH(QString, command);
        Run help = cli({"--help"});
        if (!help.out.contains("  " + command + " ")) QSKIP("command not built in this configuration");
        QTemporaryDir dir;
        const QString path = fx("packages/executorch-preprocess-aoti/preprocess.pt2");
        QStringList args{command, path};
        if (command == "convert" || command == "dot" || command == "render" || command == "decompose" || command == "report")
            args << "-o" << dir.filePath(command == "render" ? "out.svg" : command == "dot" ? "out.dot" : command == "report" ? "out.html" : "out.pt2");
        if (command == "decompose") args << "--to" << "core";
        Run r = cli(args);
        QCOMPARE(r.code, 2);
        QCOMPARE(r.err, "irlens-cli: " + path + ": cannot load: AOTInductor package (compiled code, no exported program), "
                        "root '', models: model\n");
        QVERIFY(r.out.isEmpty());
    }

    void version() {
        Run r = cli({"--version"});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.out, QString("irlens-cli " IRLENS_VERSION "\n"));
        QVERIFY(QString(IRLENS_VERSION).contains(QRegularExpression("^\\d+\\.\\d+\\.\\d+$")));
    }

    // `verify --rules`: the catalogue, as text and as JSON, every rule with its explanation, passage, example and fix.
    void verifyRules() {
        Run text = cli({"verify", "--rules"});
        QCOMPARE(text.code, 0);
        QVERIFY2(text.out.contains("EIR-G011  buffers the graph writes have their BUFFER_MUTATION output"), qPrintable(text.out));
        QVERIFY(text.out.contains("    breaks it: prims.gt.default of a [2, 8] tensor and an [8] tensor\n"));
        Run json = cli({"verify", "--rules", "--json"});
        QCOMPARE(json.code, 0);
        const QJsonArray rules = QJsonDocument::fromJson(json.out.toUtf8()).array();
        QVERIFY(rules.size() >= 40);
        QVERIFY2(text.out.contains(QString("\n%1 rules\n").arg(rules.size())), qPrintable(text.out.right(40)));
        QSet<QString> ids;
        for (const auto& v : rules) {
            const QJsonObject r = v.toObject();
            ids.insert(r.value("rule").toString());
            for (const char* key : {"title", "reference", "severity", "explanation", "passage", "breaks", "fix"})
                QVERIFY2(!r.value(key).toString().isEmpty(), qPrintable(r.value("rule").toString() + " has no " + key));
        }
        for (const char* id : {"EIR-D004", "EIR-P001", "EIR-P002", "EIR-G008", "EIR-G009", "EIR-G010", "EIR-G011"}) QVERIFY2(ids.contains(id), id);
        QCOMPARE(cli({"verify", "--rules", "model.pt2"}).code, 2);
    }

    // `verify --json` names each finding's rule by title and spec reference too.
    void verifyJsonNamesTheRule() {
        Run r = cli({"verify", fx("zoo/cond_branch/model.pt2"), "--json"});
        QCOMPARE(r.code, 0);
        const QJsonArray ds = QJsonDocument::fromJson(r.out.toUtf8()).object().value("diagnostics").toArray();
        QVERIFY(!ds.isEmpty());
        for (const auto& v : ds) {
            const QJsonObject d = v.toObject();
            QVERIFY(!d.value("title").toString().isEmpty());
            QVERIFY(!d.value("reference").toString().isEmpty());
        }
        QCOMPARE(ds[0].toObject().value("title").toString(),
                 QString("Core ATen: targets are tagged core (ATen programs, decomposition output)"));
    }

    // A file `decompose -o` writes says irlens wrote it, and keeps naming the torch that exported the graph.
    void decomposeRecordsTheWriter() {
        IRLENS_REQUIRE_SHARED();
        QTemporaryDir dir;
        const QString out = dir.filePath("core.pt2");
        Run d = cli({"decompose", fx("generated/tiny_mlp/model.pt2"), "--to", "core", "-o", out});
        QVERIFY2(d.code == 0, qPrintable(d.out + d.err));
        Run source = cli({"info", fx("generated/tiny_mlp/model.pt2")});
        Run info = cli({"info", out});
        QCOMPARE(info.code, 0);
        QVERIFY2(!source.out.contains("written by:"), qPrintable(source.out));
        QVERIFY2(info.out.contains("schema:      8.12\n"), qPrintable(info.out));
        QVERIFY2(info.out.contains("written by:  irlens " IRLENS_VERSION " (torch above exported the graph)\n"), qPrintable(info.out));
        const QRegularExpression torch("torch:       (\\S+)\n");
        QCOMPARE(torch.match(info.out).captured(1), torch.match(source.out).captured(1));
    }

    // The queued figures end to end: irlens-cli held to one core (a child inherits this process's
    // affinity) beside a thread of this test that spins on the same core shares it about half and
    // half, so its runs spend a good part of their time waiting for it, and the JSON says so.
    void runQueuedBesideSpinnerOnItsCore() {
        if (!QFile::exists("/proc/thread-self/schedstat")) QSKIP("this system reports no run-queue wait (/proc/thread-self/schedstat)");
        irlens::testing::SharedCore sharedCore;
        QVERIFY(sharedCore.pinned());
        Run r = cli({"run", fx("zoo/conv_net/model.pt2"), "--threads", "1", "--repeat", "1000", "--json"});
        sharedCore.stop();
        QCOMPARE(r.code, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QVERIFY2(o["queued_ms"].isDouble() && o["queued_slowest_run_ms"].isDouble(), qPrintable(r.out));
        // the spinner has the core about half the time; a tenth of the runs' time at the median leaves room for the slicing
        const double runsMs = o["median_ms"].toDouble() * o["repeat"].toDouble();
        QVERIFY2(o["queued_ms"].toDouble() > runsMs / 10,
                 qPrintable(QString("queued %1 ms over %2 runs of median %3 ms").arg(o["queued_ms"].toDouble()).arg(o["repeat"].toInt()).arg(o["median_ms"].toDouble())));
        // the slowest run's own wait, not the sum (a run's excess may also be the machine's, so no more is asked)
        QVERIFY(o["queued_slowest_run_ms"].toDouble() >= 0 && o["queued_slowest_run_ms"].toDouble() < o["queued_ms"].toDouble());
    }

    // `run` as a script uses it: --expect against PyTorch's numbers, --json fields, a Chrome trace Perfetto opens.
    void runWithExpectJsonAndTrace() {
        QTemporaryDir dir;
        const QString trace = dir.filePath("trace.json");
        Run r = cli({"run", fx("zoo/mlp/model.pt2"), "--threads", "2", "--repeat", "3", "--expect", fx("zoo/mlp/model.expected"), "--json",
                     "--trace", trace});
        QCOMPARE(r.code, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QVERIFY2(!o.isEmpty(), qPrintable(r.out));
        QVERIFY(o["median_ms"].toDouble() > 0);
        QCOMPARE(o["threads"].toInt(), 2);
        QVERIFY(o["peak_bytes"].toInteger() > 0);
        QCOMPARE(o["nodes"].toArray().size(), 8); // every node of the zoo's MLP, timed
        // --repeat 3 warms up once: that run is the cold start, reported apart, per node too
        QCOMPARE(o["warmup"].toInt(), 1);
        QVERIFY(o["cold_ms"].toDouble() > 0);
        // the time the engine's threads waited for their cores, where the system reports it (Linux's schedstat)
        if (QFile::exists("/proc/thread-self/schedstat")) {
            QVERIFY2(o["queued_ms"].isDouble() && o["queued_ms"].toDouble() >= 0, qPrintable(r.out));
            QVERIFY(o["queued_slowest_run_ms"].toDouble() <= o["queued_ms"].toDouble());
        } else {
            QVERIFY(o["queued_ms"].isNull());
        }
        for (const auto& v : o["nodes"].toArray()) {
            const QJsonObject n = v.toObject();
            QVERIFY2(n["cold_us"].isDouble(), qPrintable(n["name"].toString()));
            QVERIFY(n["min_us"].toDouble() <= n["median_us"].toDouble() && n["median_us"].toDouble() <= n["max_us"].toDouble());
        }
        QCOMPARE(o["expect"].toObject()["ok"].toBool(), true);
        // no warm-up: no cold start to report
        Run cold = cli({"run", fx("zoo/mlp/model.pt2"), "--repeat", "2", "--warmup", "0", "--json"});
        QCOMPARE(cold.code, 0);
        const QJsonObject c = QJsonDocument::fromJson(cold.out.toUtf8()).object();
        QVERIFY(c["cold_ms"].isNull());
        QVERIFY(c["nodes"].toArray().first().toObject()["cold_us"].isNull());
        QFile f(trace);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonArray events = QJsonDocument::fromJson(f.readAll()).object()["traceEvents"].toArray();
        QStringList names;
        for (const auto& e : events)
            if (e.toObject()["ph"].toString() == "X") names << e.toObject()["name"].toString();
        QVERIFY2(names.contains("addmm_2"), qPrintable(names.join(",")));
    }

    // A wrong reference makes --expect fail with exit 1 and name the output.
    // A weight record whose bytes no longer match its CRC: `verify` and `run` refuse the file (it once
    // verified clean and ran, with outputs around 1e30); `info` does not read the weights' bytes.
    void corruptedWeightRefused() {
        QFile in(fx("zoo/mlp/model.pt2"));
        QVERIFY(in.open(QIODevice::ReadOnly));
        QByteArray bytes = in.readAll();
        const QByteArray name = "archive/data/weights/weight_0"; // the project's writer roots the archive at "archive/"
        const qsizetype header = bytes.indexOf(name) - 30; // the local header comes first in the file
        QVERIFY(header >= 0);
        const int extra = uint8_t(bytes[header + 28]) | uint8_t(bytes[header + 29]) << 8;
        bytes[header + 30 + name.size() + extra + 100] = char(bytes[header + 30 + name.size() + extra + 100] ^ 0x40);
        QTemporaryDir dir;
        const QString path = dir.filePath("corrupted.pt2");
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(bytes);
        out.close();
        const QString expected = "irlens-cli: " + path + ": record 'archive/data/weights/weight_0': CRC mismatch (corrupted archive)\n";
        for (const char* command : {"verify", "run"}) {
            Run r = cli({command, path});
            QCOMPARE(r.code, 2);
            QCOMPARE(r.err, expected);
        }
        QCOMPARE(cli({"info", path}).code, 0);
    }

    void runExpectMismatch() {
        QTemporaryDir dir;
        const QString src = fx("zoo/mlp/model.expected");
        for (const QString& name : QDir(src).entryList(QDir::Files)) QVERIFY(QFile::copy(src + "/" + name, dir.filePath(name)));
        QFile out(dir.filePath("output_0.bin"));
        QVERIFY(out.open(QIODevice::ReadWrite));
        QByteArray bytes = out.readAll();
        float v = 123.0f;
        std::memcpy(bytes.data(), &v, sizeof v);
        out.seek(0);
        out.write(bytes);
        out.close();
        Run r = cli({"run", fx("zoo/mlp/model.pt2"), "--expect", dir.path()});
        QCOMPARE(r.code, 1);
        QVERIFY2((r.out + r.err).contains("addmm_2"), qPrintable(r.out + r.err));
    }

    // `run --memory --critical-path --what-if --by-line`: the reports as text, and as JSON whose numbers
    // agree with each other (the live blocks add up to the peak, the path to its nodes' times, the lines
    // to the traced time); freeing every convolution makes the predicted run shorter.
    void runReports() {
        const QString model = fx("zoo/conv_attention/model.pt2");
        Run text = cli({"run", model, "--repeat", "3", "--memory", "--critical-path", "--what-if", "convolution=0", "--by-line"});
        QCOMPARE(text.code, 0);
        for (const char* line : {"\nlive      peak ", "\ncurve     ", "\nlive at the peak ", "\ncritical  path of ", "\nmodel     predicted ",
                                 "\nwhat-if   convolution=0 ", "\nby line   "})
            QVERIFY2(text.out.contains(line), qPrintable(QString(line) + " missing in:\n" + text.out));
        // where the system reports it, the time the engine's threads waited for their cores, after the run times
        if (QFile::exists("/proc/thread-self/schedstat"))
            QVERIFY2(QRegularExpression("\ntime      median [^\n]*\nqueued    [0-9.]+ ms in all, [0-9.]+ ms in the slowest run: ")
                         .match(text.out).hasMatch(), qPrintable(text.out));
        Run r = cli({"run", model, "--repeat", "3", "--json", "--memory", "--what-if", "convolution=0", "--by-line"});
        QCOMPARE(r.code, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        const QJsonObject memory = o["memory"].toObject();
        qint64 live = 0;
        for (const auto& b : memory["live_at_peak"].toArray()) live += b.toObject()["bytes"].toInteger();
        QCOMPARE(live, memory["peak_bytes"].toInteger());
        QCOMPARE(memory["measured_peak_bytes"].toInteger(), o["peak_bytes"].toInteger());
        const QJsonObject path = o["critical_path"].toObject(); // --what-if implies --critical-path
        double pathUs = 0;
        for (const auto& n : path["nodes"].toArray()) pathUs += n.toObject()["us"].toDouble();
        QVERIFY(std::abs(pathUs / 1e3 - path["length_ms"].toDouble()) < 1e-6 * std::max(1.0, pathUs));
        QVERIFY(path["what_if"].toObject()["predicted_ms"].toDouble() < path["predicted_ms"].toDouble());
        const QJsonObject lines = o["by_line"].toObject();
        double self = 0;
        for (const auto& l : lines["lines"].toArray()) self += l.toObject()["self_ms"].toDouble();
        QVERIFY(std::abs(self - lines["traced_ms"].toDouble()) < 1e-6 * std::max(1.0, self));
        // without the flags, none of it
        Run plain = cli({"run", model, "--json"});
        QCOMPARE(plain.code, 0);
        const QJsonObject p = QJsonDocument::fromJson(plain.out.toUtf8()).object();
        QVERIFY(!p.contains("memory") && !p.contains("critical_path") && !p.contains("by_line"));
    }

    void runReportErrors_data() {
        QTest::addColumn<QString>("whatIf");
        QTest::addColumn<QString>("message");
        QTest::addRow("no factor") << "convolution" << "what-if 'convolution': expected SELECTOR=FACTOR, e.g. convolution=0.5 or module:layer4=0";
        QTest::addRow("negative") << "relu=-2" << "what-if 'relu=-2': the factor '-2' must be a number >= 0 (0 makes the nodes free)";
        QTest::addRow("no such module") << "module:layer9=0" << "what-if: 'module:layer9' names no module of the program";
    }
    void runReportErrors() {
        QFETCH(QString, whatIf);
        QFETCH(QString, message);
        Run r = cli({"run", fx("zoo/mlp/model.pt2"), "--critical-path", "--what-if", whatIf});
        QCOMPARE(r.code, 2);
        QCOMPARE(r.err, "irlens-cli: " + message + "\n");
        QVERIFY(r.out.isEmpty()); // refused before running
    }
};

QTEST_GUILESS_MAIN(TstCli)
#include "tst_cli.moc"
