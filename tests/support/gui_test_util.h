#pragma once
// Shared by the GUI tests: open a file in a Document and wait for its layout; answer a file dialog.

#include "support/shared_fixtures.h"
#include "support/view_programs.h"
#include "support/zoo_files.h"
#include "views/document.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QLineEdit>
#include <QPointer>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>

#include <memory>

namespace irlens::testing {

/// Waits until the document has a program and a layout and no job runs (or a load fails).
inline bool waitForLayout(views::Document& doc, int timeoutMs = 60000) {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < timeoutMs) {
        if (doc.program() && doc.layout() && !doc.isBusy()) return true;
        QTest::qWait(10);
    }
    return false;
}

/// Opens a fixture and waits; returns the load error ("" on success).
inline QString openAndWait(views::Document& doc, const std::filesystem::path& path) {
    QString error;
    auto c = QObject::connect(&doc, &views::Document::loadFailed, [&](const QString& m) { error = m; });
    doc.openFile(QString::fromStdString(path.string()));
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 60000 && error.isEmpty() && !(doc.program() && doc.layout() && !doc.isBusy())) QTest::qWait(10);
    QObject::disconnect(c);
    if (error.isEmpty() && !(doc.program() && doc.layout())) error = "timed out";
    return error;
}

/// Answers the next modal file dialog with `path`. The dialog may refuse the answer on the first
/// try (its file system model fills the folder asynchronously), so the timer keeps answering that
/// dialog until it is gone, and gives up after 30 s so that a test fails instead of hanging. It never
/// answers a later dialog: one opened right after (the next export of a test) belongs to the next call.
inline void answerFileDialog(const QString& path) {
    struct State {
        QTimer timer;
        QElapsedTimer clock;
        QPointer<QFileDialog> target; // the dialog answered; null before the first answer or once it is gone
        bool started = false;
    };
    auto* state = new State;
    state->clock.start();
    QObject::connect(&state->timer, &QTimer::timeout, [state, path] {
        auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
        const bool answer = state->started ? dialog && dialog == state->target : dialog != nullptr;
        if (answer) {
            state->started = true;
            state->target = dialog;
            // as a user does: type the path into the file name field and press Open
            if (auto* name = dialog->findChild<QLineEdit*>("fileNameEdit")) name->setText(path);
            else dialog->selectFile(path);
            static_cast<QDialog*>(dialog)->accept(); // QFileDialog::accept, public through QDialog
        } else if (state->started || state->clock.elapsed() > 30000) {
            state->timer.stop();
            QTimer::singleShot(0, [state] { delete state; });
        }
    });
    state->timer.start(20);
}

/// Relative paths (for fixture()) of every zoo program, the zoo's deep residual stack and every shared .pt2 fixture;
/// a generated fixture with an owned program of its shape is that program (support/view_programs.h, written here).
inline QStringList allFixtures() {
    writeViewPrograms();
    QStringList out;
    for (const auto& rel : zooProgramFiles()) out << QString::fromStdString(rel);
    out << "zoo/deep_residual_stack/model.pt2";
    for (const char* name : kGeneratedFixtures) {
        const std::string standIn = owned::standInFor(name);
        out << (standIn.empty() ? QString("generated/%1/model.pt2").arg(name) : QString::fromStdString("zoo/" + standIn + "/model.pt2"));
    }
    for (const char* name : {"tiny_mlp", "mobilenet_v2", "transformer_layer"}) out << QString("generated/%1/model.training.pt2").arg(name);
    out << "zoo/decoder_like_training/model.pt2"; // tiny_gpt's training IR, in its owned shape
    out << "generated/tiny_mlp/model.legacy.pt2"
        << "real/executorch-linear-pt2archive/linear.pt2"
        << "real/hades-pid-dann-legacy-schema2/exported_program.pt2"
        << "real/tensorrt-add-legacy-schema7/trt-schema7.3.ep"
        << "real/tensorrt-add-legacy-schema7/trt-schema7.4.ep";
    return out;
}

} // namespace irlens::testing
