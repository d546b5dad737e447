#pragma once
// File › Compare with…: the menu entries that open the Compare window on the program on screen,
// against another file or against its own decomposition to Core ATen or Prims. One window per main
// window, reused by the next comparison.

#include <QObject>

class QMenu;
class QWidget;

namespace irlens::views {

class CompareWindow;
class Document;

class CompareLauncher : public QObject {
    Q_OBJECT
public:
    /// Adds the entries to `menu`; the window becomes a child of `owner`.
    CompareLauncher(Document* document, QMenu* menu, QWidget* owner);

    /// The window (created on first use).
    CompareWindow* window();
    void compareWithFile(const QString& path);

private:
    Document* m_doc;
    QWidget* m_owner;
    CompareWindow* m_window = nullptr;
};

} // namespace irlens::views
