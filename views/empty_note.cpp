#include "views/empty_note.h"

#include <QAbstractItemView>
#include <QEvent>
#include <QLabel>

namespace irlens::views {

EmptyNote::EmptyNote(QAbstractItemView* view, std::function<QString()> why)
    : QObject(view), m_view(view), m_why(std::move(why)), m_label(new QLabel(view->viewport())) {
    m_label->setObjectName("emptyNote");
    m_label->setWordWrap(true);
    m_label->setAlignment(Qt::AlignCenter);
    m_label->setForegroundRole(QPalette::PlaceholderText);
    m_label->setAttribute(Qt::WA_TransparentForMouseEvents);
    m_label->setContentsMargins(12, 12, 12, 12);
    view->viewport()->installEventFilter(this);
    if (QAbstractItemModel* model = view->model()) {
        connect(model, &QAbstractItemModel::modelReset, this, &EmptyNote::refresh);
        connect(model, &QAbstractItemModel::layoutChanged, this, &EmptyNote::refresh);
        connect(model, &QAbstractItemModel::rowsInserted, this, &EmptyNote::refresh);
        connect(model, &QAbstractItemModel::rowsRemoved, this, &EmptyNote::refresh);
    }
    refresh();
}

void EmptyNote::refresh() {
    const bool empty = !m_view->model() || m_view->model()->rowCount(m_view->rootIndex()) == 0;
    if (empty) m_label->setText(m_why());
    m_label->setGeometry(m_view->viewport()->rect());
    m_label->setVisible(empty && !m_label->text().isEmpty());
}

bool EmptyNote::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_view->viewport() && event->type() == QEvent::Resize) m_label->setGeometry(m_view->viewport()->rect());
    return QObject::eventFilter(watched, event);
}

} // namespace irlens::views
