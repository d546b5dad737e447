#include "views/run/run_inputs.h"

#include "core/exec/input_files.h"

#include "views/document.h"

#include <QDir>
#include <QFileInfo>

namespace irlens::views {

using namespace irlens::core;

exec::InputRequest runInputRequest(const Document& document) {
    exec::InputRequest request;
    const QString file = document.filePath();
    const QString expected = file.isEmpty() ? QString() : QFileInfo(file).dir().filePath("model.expected");
    const bool hasExpected = !expected.isEmpty() && QFileInfo::exists(expected + "/manifest.json");
    const QStringList chosen = document.inputFiles();
    for (const QString& p : chosen) request.inputPaths.push_back(p.toStdString());
    const bool chosenIsExpected = chosen.size() == 1 && hasExpected &&
                                  QFileInfo(chosen.front()).canonicalFilePath() == QFileInfo(expected).canonicalFilePath();
    if (hasExpected && (chosen.isEmpty() || chosenIsExpected)) request.expectDir = expected.toStdString();
    return request;
}

std::string checkInputFiles(const Document& document, const std::vector<std::string>& paths) {
    ProgramPtr program = document.program();
    if (!program) return "no program is open";
    auto plan = exec::ExecutionPlan::compile(program, false, false);
    if (!plan) return plan.status().message();
    std::string from;
    auto values = exec::inputsFromFiles(**plan, paths, from);
    return values ? std::string() : values.status().message();
}

} // namespace irlens::views
