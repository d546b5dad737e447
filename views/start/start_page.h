#pragma once
// What the canvas shows when there is no program: a line on what irlens does, Open, the bundled
// example, drop a file, the recent files with their dialect and node count, and why the last open
// showed nothing (an error, or an AOTInductor package whose description can be shown again).

#include <QWidget>

class QLabel;
class QListWidget;
class QPushButton;

namespace irlens::views {

class StartPage : public QWidget {
    Q_OBJECT
public:
    explicit StartPage(QWidget* parent = nullptr);
    /// The recent files, newest first, and what each held when last opened ("ATEN · 70 nodes", or "").
    void setRecent(const QStringList& paths, const QStringList& notes);
    /// Placed over `canvas` and kept at its size.
    void cover(QWidget* canvas);
    /// Why nothing is shown ("" for a fresh start); `package` offers to show the package again.
    void setMessage(const QString& message, bool package = false);
    QListWidget* recentList() const { return m_recent; }
    QLabel* messageLabel() const { return m_message; }
    QPushButton* packageButton() const { return m_package; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

signals:
    void openRequested();
    void exampleRequested();
    void recentRequested(const QString& path);
    void packageRequested();

private:
    QLabel* m_message;
    QPushButton* m_package;
    QListWidget* m_recent;
    QLabel* m_recentTitle;
};

} // namespace irlens::views
