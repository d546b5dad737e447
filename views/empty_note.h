#pragma once
// What an empty table or tree says: why it is empty and what fills it, centred in its viewport while
// the model has no rows ("No symbolic sizes: this program is static…"), gone as soon as it has some.

#include <QObject>
#include <QString>

#include <functional>

class QAbstractItemView;
class QLabel;

namespace irlens::views {

class EmptyNote : public QObject {
    Q_OBJECT
public:
    /// `why` is asked each time the view empties (the reason may depend on the program shown).
    EmptyNote(QAbstractItemView* view, std::function<QString()> why);
    QLabel* label() const { return m_label; }
    /// Asks `why` again and shows the note when the view has no rows.
    void refresh();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QAbstractItemView* m_view;
    std::function<QString()> m_why;
    QLabel* m_label;
};

} // namespace irlens::views
