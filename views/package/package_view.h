#pragma once
// What an AOTInductor package holds, read-only: opening one (a `.pt2` of compiled code with no exported
// program) shows this window instead of an error. The same fields `irlens-cli info` prints
// (core/io/aoti_package.h), laid out as a tree: the layout, then per model its device and build, the
// compiled files, the custom ops called through the proxy executor, the kernels and the input and
// output specs the generated code records.

#include <QDialog>

#include <memory>

class QLabel;
class QTreeWidget;

namespace irlens::core {
struct AotiPackage;
}

namespace irlens::views {

class PackageView : public QDialog {
    Q_OBJECT
public:
    PackageView(std::shared_ptr<const core::AotiPackage> package, QWidget* parent = nullptr);

    QTreeWidget* tree() const { return m_tree; }
    QLabel* summaryLabel() const { return m_summary; }
    /// The description as text (what Copy puts on the clipboard): `irlens-cli info`'s lines.
    QString text() const;

private:
    void fill();

    std::shared_ptr<const core::AotiPackage> m_package;
    QLabel* m_summary = nullptr;
    QTreeWidget* m_tree = nullptr;
};

} // namespace irlens::views
