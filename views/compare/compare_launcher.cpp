#include "views/compare/compare_launcher.h"

#include "views/compare/compare_window.h"
#include "views/document.h"

#include <QFileDialog>
#include <QMenu>

namespace irlens::views {

CompareLauncher::CompareLauncher(Document* document, QMenu* menu, QWidget* owner)
    : QObject(owner), m_doc(document), m_owner(owner) {
    menu->addAction(tr("&Compare with…"), this, [this] {
        if (!m_doc->program()) return;
        const QString path = QFileDialog::getOpenFileName(m_owner, tr("Compare with a torch.export program"), QString(),
                                                          tr("Exported programs (*.pt2 *.zip);;All files (*)"));
        if (!path.isEmpty()) compareWithFile(path);
    });
    QMenu* levels = menu->addMenu(tr("Compare with its &decomposition"));
    for (auto [label, level] : {std::pair{tr("Core ATen"), core::IrLevel::CoreAten}, std::pair{tr("Prims"), core::IrLevel::Prims}}) {
        levels->addAction(label, this, [this, level = level] {
            if (!m_doc->program()) return;
            window()->compareWithLevel(m_doc->program(), m_doc->filePath(), level);
            window()->show();
            window()->raise();
        });
    }
}

CompareWindow* CompareLauncher::window() {
    if (!m_window) m_window = new CompareWindow(m_owner);
    return m_window;
}

void CompareLauncher::compareWithFile(const QString& path) {
    window()->compareWithFile(m_doc->program(), m_doc->filePath(), path);
    window()->show();
    window()->raise();
}

} // namespace irlens::views
