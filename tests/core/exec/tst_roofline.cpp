// The roofline of a run: FLOPs and bytes moved of a convolution, mm, bmm, an elementwise op, a
// reduction and a view against counts made by hand; the roofs measured against the benchmark's own
// sgemm measure (bench_machine.h) in the same process; the cache of the roofs (read instead of
// measured, keyed by machine and thread count, a foreign or unwritable file measured around).
#include "bench/bench_machine.h"
#include "core/exec/engine.h"
#include "core/exec/inputs.h"
#include "core/exec/machine_roofs.h"
#include "core/exec/measured_run.h"
#include "core/exec/profile.h"
#include "core/exec/roofline.h"
#include "core/ir/builder.h"
#include "support/fixture_plan.h"

#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

using namespace irlens::core;
using namespace irlens::core::exec;

namespace {

TensorMeta f32(std::vector<int64_t> sizes) { return makeTensorMeta(ScalarType::Float32, sizes); }

// A program of one node `op` (named "n") over user inputs, built by `add`; run three times profiled.
struct OneNode {
    std::shared_ptr<ExecutionPlan> plan;
    MeasuredRun run;
};

template <class Add>
OneNode runOneNode(Add add) {
    ProgramBuilder b;
    add(b);
    b.userOutput("n");
    auto built = irlens::testing::builtPlan(b);
    if (!built) qFatal("%s", built.error().c_str());
    Engine engine(built->plan);
    Profile profile;
    RunOptions options;
    options.threads = 1;
    options.observer = &profile;
    for (int k = 0; k < 3; ++k)
        if (auto r = engine.run(built->inputs, options); !r) qFatal("%s", r.error().c_str());
    return {built->plan, measureRun(*built->plan, profile)};
}

// Roofs set by hand: GFLOP/s is FLOP/ns, GB/s is byte/ns.
MachineRoofs fixedRoofs(double peak, double bandwidth) {
    MachineRoofs m;
    m.peakGflops = peak;
    m.bandwidthGBs = bandwidth;
    return m;
}

// Writes a roofs cache holding `entries`.
void writeCache(const std::filesystem::path& file, const nlohmann::json& entries) {
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file) << nlohmann::json{{"format", "irlens roofs 1"}, {"entries", entries}}.dump();
}

nlohmann::json readEntries(const std::filesystem::path& file) {
    std::ifstream in(file);
    return nlohmann::json::parse(in)["entries"];
}

} // namespace

class TstRoofline : public QObject {
    Q_OBJECT
private slots:
    void handCounts_data();
    void handCounts();
    void nearRoofShare();
    void gemmRoofMatchesBenchSgemm();
    void triadOutgrowsTheCache();
    void cacheIsReadNotMeasured();
    void cacheKeyedByThreads();
    void foreignCacheIsReplaced();
    void unwritableCacheStillMeasures();
};

void TstRoofline::handCounts_data() {
    QTest::addColumn<QString>("op");
    QTest::addColumn<double>("flops");
    QTest::addColumn<qlonglong>("bytes");
    // 2 x outputs x (C/groups x kh x kw); bytes: input 3x8x8, weight 4x3x3x3, bias 4, output 4x8x8 floats
    QTest::addRow("convolution 3->4, 3x3, pad 1") << "convolution" << 2.0 * 256 * 27 << qlonglong(4 * (192 + 108 + 4 + 256));
    // 2 x M x N x K; a 8x16, b 16x32, c 8x32
    QTest::addRow("mm 8x16 @ 16x32") << "mm" << 2.0 * 8 * 32 * 16 << qlonglong(4 * (128 + 512 + 256));
    // 2 x B x M x N x K; a 2x8x16, b 2x16x4, c 2x8x4
    QTest::addRow("bmm 2x8x16 @ 2x16x4") << "bmm" << 2.0 * 2 * 8 * 4 * 16 << qlonglong(4 * (256 + 128 + 64));
    // one per output element; two 4x16 inputs and the output
    QTest::addRow("add 4x16 + 4x16") << "add" << 64.0 << qlonglong(4 * 3 * 64);
    // the same value read twice is read once
    QTest::addRow("add x + x") << "add_self" << 64.0 << qlonglong(4 * 2 * 64);
    // one per input element; 4x16 in, 4 out
    QTest::addRow("sum over dim 1 of 4x16") << "sum" << 64.0 << qlonglong(4 * (64 + 4));
    // a view moves nothing and computes nothing
    QTest::addRow("permute (a view)") << "permute" << 0.0 << qlonglong(0);
}

void TstRoofline::handCounts() {
    QFETCH(QString, op);
    QFETCH(double, flops);
    QFETCH(qlonglong, bytes);
    const OneNode m = runOneNode([&](ProgramBuilder& b) {
        if (op == "convolution") {
            b.userInput("x", f32({1, 3, 8, 8}));
            b.userInput("w", f32({4, 3, 3, 3}));
            b.userInput("bias", f32({4}));
            b.call("torch.ops.aten.convolution.default", "n").arg("input", "x").arg("weight", "w").arg("bias", "bias")
                .arg("stride", Argument::ints({1, 1})).arg("padding", Argument::ints({1, 1})).arg("dilation", Argument::ints({1, 1}))
                .arg("transposed", Argument::boolean(false)).arg("output_padding", Argument::ints({0, 0})).arg("groups", Argument::integer(1))
                .out(f32({1, 4, 8, 8}));
        } else if (op == "mm") {
            b.userInput("a", f32({8, 16}));
            b.userInput("b", f32({16, 32}));
            b.call("torch.ops.aten.mm.default", "n").arg("self", "a").arg("mat2", "b").out(f32({8, 32}));
        } else if (op == "bmm") {
            b.userInput("a", f32({2, 8, 16}));
            b.userInput("b", f32({2, 16, 4}));
            b.call("torch.ops.aten.bmm.default", "n").arg("self", "a").arg("mat2", "b").out(f32({2, 8, 4}));
        } else if (op == "add" || op == "add_self") {
            b.userInput("a", f32({4, 16}));
            b.userInput("b", f32({4, 16}));
            b.call("torch.ops.aten.add.Tensor", "n").arg("self", "a").arg("other", op == "add" ? "b" : "a").out(f32({4, 16}));
        } else if (op == "sum") {
            b.userInput("a", f32({4, 16}));
            b.call("torch.ops.aten.sum.dim_IntList", "n").arg("self", "a").arg("dim", Argument::ints({1})).out(f32({4}));
        } else {
            b.userInput("a", f32({4, 16}));
            b.call("torch.ops.aten.permute.default", "n").arg("self", "a").arg("dims", Argument::ints({1, 0})).out(f32({16, 4}));
        }
    });
    // ridge at 2 FLOP/byte: the convolution (6.2) and mm (2.3) above it, bmm (1.1) and the rest below
    const Roofline r = roofline(*m.plan, m.run, fixedRoofs(20, 10));
    QCOMPARE(r.nodes.size(), size_t(1));
    const NodeRoof& n = r.nodes[0];
    QCOMPARE(n.flops, flops);
    QCOMPARE(n.bytes, static_cast<int64_t>(bytes));
    QVERIFY(n.ns > 0);
    // the roof: the least time is the larger of FLOPs at the peak and bytes at the bandwidth
    const double roofNs = std::max(flops / 20.0, static_cast<double>(bytes) / 10.0);
    QCOMPARE(n.roofNs, roofNs);
    QCOMPARE(n.share, roofNs / static_cast<double>(n.ns));
    QCOMPARE(n.achievedGflops, flops / static_cast<double>(n.ns));
    if (bytes > 0) {
        const double intensity = flops / static_cast<double>(bytes);
        QCOMPARE(n.intensity, intensity);
        QCOMPARE(n.attainableGflops, flops > 0 ? std::min(20.0, intensity * 10.0) : 0.0);
        QCOMPARE(n.computeBound, op == "convolution" || op == "mm");
    } else {
        QVERIFY(!n.movesData());
    }
}

void TstRoofline::nearRoofShare() {
    // the share of node time in nodes at >= 70 % of their roof: times set by hand on a measured run
    OneNode m = runOneNode([](ProgramBuilder& b) {
        b.userInput("a", f32({64, 64}));
        b.call("torch.ops.aten.mm.default", "m").arg("self", "a").arg("mat2", "a").out(f32({64, 64}));
        b.call("torch.ops.aten.add.Tensor", "n").arg("self", "m").arg("other", "a").out(f32({64, 64}));
    });
    // mm: 2 x 64^3 = 524288 FLOP, 2 x 16 KiB moved -> roof 5243 ns at 100 FLOP/ns; add: 48 KiB -> 4915 ns at 10 B/ns
    m.run.nodeNs = {6000, 20000};
    const Roofline r = roofline(*m.plan, m.run, fixedRoofs(100, 10));
    QCOMPARE(r.nodes.size(), size_t(2));
    QVERIFY(r.nodes[0].nearRoof());  // 5243 / 6000 = 87 %
    QVERIFY(!r.nodes[1].nearRoof()); // 4915 / 20000 = 25 %
    QCOMPARE(r.totalNs, int64_t(26000));
    QCOMPARE(r.nearRoofNs, int64_t(6000));
    QCOMPARE(r.nearRoofShare(), 6000.0 / 26000.0);
    QVERIFY(r.nodes[0].computeBound);   // 524288 / 32768 = 16 FLOP/byte, above the ridge at 10
    QVERIFY(!r.nodes[1].computeBound);  // 4096 / 49152
    QCOMPARE(r.find(1)->node, 1);
    QVERIFY(r.find(7) == nullptr);
}

void TstRoofline::gemmRoofMatchesBenchSgemm() {
#ifndef IRLENS_HAVE_DNNL
    QSKIP("built without oneDNN: bench_engine has no sgemm measure to compare with");
#else
    // alternate the two measures so a busy moment of the machine hits both alike; best of three each
    double roof = 0, bench = 0;
    for (int k = 0; k < 3; ++k) {
        auto r = measureGemmGflops(1);
        QVERIFY2(r.isOk(), r.error().c_str());
        roof = std::max(roof, *r);
        bench = std::max(bench, irlens::bench::sgemmPeakGflops());
    }
    qInfo("GEMM roof at one thread %.1f GFLOP/s, bench_engine's sgemm %.1f GFLOP/s (load average %s)", roof, bench,
          irlens::bench::loadAverage().c_str());
    QVERIFY(bench > 0);
    QVERIFY2(roof >= 0.8 * bench && roof <= 1.2 * bench, qPrintable(QString("roof %1 vs sgemm %2").arg(roof).arg(bench)));
#endif
}

void TstRoofline::triadOutgrowsTheCache() {
    QCOMPARE(triadFootprint(32 << 20), int64_t(128) << 20);
    QCOMPARE(triadFootprint(0), int64_t(64) << 20);          // unknown cache: 64 MiB
    QCOMPARE(triadFootprint(int64_t(1) << 30), int64_t(1) << 30); // capped at 1 GiB
    if (!std::filesystem::exists("/sys/devices/system/cpu/cpu0/cache")) QSKIP("no sysfs cache description here");
    const int64_t llc = lastLevelCacheBytes();
    QVERIFY(llc >= (int64_t(256) << 10)); // every x86-64 or ARM64 server has at least that much
    QVERIFY(triadFootprint(llc) > llc);
    QVERIFY(measureTriadGBs(1, int64_t(64) << 20) > 0.1);
}

void TstRoofline::cacheIsReadNotMeasured() {
    QTemporaryDir dir;
    const std::filesystem::path file = std::filesystem::path(dir.path().toStdString()) / "roofs.json";
    writeCache(file, nlohmann::json::array({{{"cpu", cpuModelName()}, {"gemm", gemmLibraryName()}, {"threads", 1}, {"peak_gflops", 123.5},
                                             {"bandwidth_gbs", 4.25}, {"measured_at", "2020-01-01T00:00:00Z"}}}));
    RoofOptions options;
    options.cacheDir = dir.path().toStdString();
    auto r = machineRoofs(1, options);
    QVERIFY2(r.isOk(), r.error().c_str());
    QVERIFY(r->fromCache);
    QCOMPARE(r->peakGflops, 123.5); // no measure gives exactly these
    QCOMPARE(r->bandwidthGBs, 4.25);
    QCOMPARE(r->measuredAt, std::string("2020-01-01T00:00:00Z"));
    QCOMPARE(r->cachePath, file.string());
    // --measure-roofs: measured again and the entry replaced
    options.remeasure = true;
    auto again = machineRoofs(1, options);
    QVERIFY2(again.isOk(), again.error().c_str());
    QVERIFY(!again->fromCache);
    QVERIFY(again->peakGflops != 123.5 && again->peakGflops > 0 && again->bandwidthGBs > 0);
    const nlohmann::json entries = readEntries(file);
    QCOMPARE(entries.size(), size_t(1));
    QCOMPARE(entries[0]["peak_gflops"].get<double>(), again->peakGflops);
}

void TstRoofline::cacheKeyedByThreads() {
    QTemporaryDir dir;
    const std::filesystem::path file = std::filesystem::path(dir.path().toStdString()) / "roofs.json";
    // another CPU's entry and this CPU's at one thread: two threads is neither, so it is measured
    writeCache(file, nlohmann::json::array({{{"cpu", "Another CPU"}, {"gemm", gemmLibraryName()}, {"threads", 2}, {"peak_gflops", 1.0}, {"bandwidth_gbs", 1.0}},
                                            {{"cpu", cpuModelName()}, {"gemm", gemmLibraryName()}, {"threads", 1}, {"peak_gflops", 2.0}, {"bandwidth_gbs", 2.0}}}));
    RoofOptions options;
    options.cacheDir = dir.path().toStdString();
    auto two = machineRoofs(2, options);
    QVERIFY2(two.isOk(), two.error().c_str());
    QVERIFY(!two->fromCache);
    QCOMPARE(two->threads, 2);
    QVERIFY(two->peakGflops != 1.0 && two->triadBytes > two->llcBytes);
    QVERIFY(two->measureSeconds > 0 && two->measureSeconds < 30);
    qInfo("roofs at two threads: %.1f GFLOP/s, %.1f GB/s, measured in %.2f s (load average %.1f)", two->peakGflops, two->bandwidthGBs,
          two->measureSeconds, two->loadAverage);
    QCOMPARE(readEntries(file).size(), size_t(3)); // the others kept
    auto cached = machineRoofs(2, options);
    QVERIFY(cached->fromCache);
    QCOMPARE(cached->peakGflops, two->peakGflops);
    QCOMPARE(cached->bandwidthGBs, two->bandwidthGBs);
    QCOMPARE(machineRoofs(1, options)->peakGflops, 2.0);
}

void TstRoofline::foreignCacheIsReplaced() {
    QTemporaryDir dir;
    const std::filesystem::path file = std::filesystem::path(dir.path().toStdString()) / "roofs.json";
    std::ofstream(file) << "{\"entries\": [1, 2";
    RoofOptions options;
    options.cacheDir = dir.path().toStdString();
    auto r = machineRoofs(1, options);
    QVERIFY2(r.isOk(), r.error().c_str());
    QVERIFY(!r->fromCache);
    QVERIFY2(r->cacheNote.find(file.string() + " is not a roofs cache") == 0, r->cacheNote.c_str());
    QCOMPARE(readEntries(file).size(), size_t(1)); // rewritten whole
    QVERIFY(machineRoofs(1, options)->fromCache);
}

void TstRoofline::unwritableCacheStillMeasures() {
    QTemporaryDir dir;
    const std::string blocker = dir.filePath("a-file").toStdString();
    std::ofstream(blocker) << "x";
    RoofOptions options;
    options.cacheDir = blocker + "/irlens"; // a folder inside a file cannot be made
    auto r = machineRoofs(1, options);
    QVERIFY2(r.isOk(), r.error().c_str());
    QVERIFY(!r->fromCache && r->peakGflops > 0);
    QVERIFY2(r->cacheNote.find("cannot create " + options.cacheDir) == 0, r->cacheNote.c_str());
}

QTEST_GUILESS_MAIN(TstRoofline)
#include "tst_roofline.moc"
