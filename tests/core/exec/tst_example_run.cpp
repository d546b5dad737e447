// The bundled example runs on the engine: the plan compiles (every op has a kernel), the output has the
// recorded shape, is finite, and does not depend on the thread count.
#include "core/exec/engine.h"
#include "core/ir/example_program.h"

#include <QTest>

#include <cmath>

using namespace irlens::core;

class TstExampleRun : public QObject {
    Q_OBJECT
private slots:
    void runs() {
        ProgramPtr program = makeExampleProgram();
        auto plan = exec::ExecutionPlan::compile(program);
        QVERIFY2(plan.isOk(), plan.error().c_str());
        auto input = exec::Tensor::fromTensorData(program->sampleArgs.at(0).tensor);
        QVERIFY2(input.isOk(), input.error().c_str());
        std::vector<std::vector<double>> results;
        for (int threads : {1, 2}) {
            exec::Engine engine(plan.value());
            exec::RunOptions options;
            options.threads = threads;
            auto run = engine.run({exec::EValue::fromTensor(input.value())}, options);
            QVERIFY2(run.isOk(), run.error().c_str());
            QCOMPARE(int(run->outputs.size()), 1);
            const exec::Tensor& out = run->outputs[0].tensor;
            QCOMPARE(QString::fromStdString(out.shapeString()), QString("f32[1, 64, 16]"));
            std::vector<double> values;
            for (int64_t k = 0; k < out.numel(); ++k) {
                double v = out.at(k);
                QVERIFY2(std::isfinite(v), qPrintable(QString("element %1 is %2").arg(k).arg(v)));
                values.push_back(v);
            }
            results.push_back(std::move(values));
        }
        for (size_t k = 0; k < results[0].size(); ++k) QVERIFY(std::fabs(results[0][k] - results[1][k]) < 1e-5);
        // the output is layer-normed tokens plus an MLP of them: not all zero, not exploding
        double maxAbs = 0;
        for (double v : results[0]) maxAbs = std::max(maxAbs, std::fabs(v));
        QVERIFY(maxAbs > 0.1 && maxAbs < 100);
    }
};

QTEST_GUILESS_MAIN(TstExampleRun)
#include "tst_example_run.moc"
