#include "views/start/start_page.h"

#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace irlens::views {

StartPage::StartPage(QWidget* parent) : QWidget(parent) {
    setObjectName("startPage");
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::Base);
    auto* title = new QLabel(tr("<h2>irlens</h2>"), this);
    auto* about = new QLabel(tr("Opens a PyTorch <code>torch.export</code> program (.pt2) and shows its graph, checks it against "
                                "the Export IR rules, runs it on the CPU and decomposes it to Core ATen or prims."),
                             this);
    about->setWordWrap(true);
    auto* open = new QPushButton(tr("Open a program…"), this);
    open->setObjectName("startOpen");
    auto* example = new QPushButton(tr("Open the example"), this);
    example->setObjectName("startExample");
    example->setToolTip(tr("A small vision transformer built into irlens: convolution stem, attention, MLP"));
    auto* drop = new QLabel(tr("or drop a .pt2 file anywhere on this window"), this);
    drop->setForegroundRole(QPalette::PlaceholderText);
    m_message = new QLabel(this);
    m_message->setObjectName("startMessage");
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->hide();
    m_package = new QPushButton(tr("Show the package again"), this);
    m_package->setObjectName("startPackage");
    m_package->hide();
    m_recentTitle = new QLabel(tr("<b>Recent files</b>"), this);
    m_recent = new QListWidget(this);
    m_recent->setObjectName("startRecent");
    m_recent->setToolTip(tr("Double-click or Enter: open the file again"));

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(open);
    buttons->addWidget(example);
    buttons->addWidget(drop);
    buttons->addStretch(1);
    auto* column = new QVBoxLayout;
    column->addWidget(title);
    column->addWidget(about);
    column->addSpacing(8);
    column->addLayout(buttons);
    column->addWidget(m_message);
    column->addWidget(m_package, 0, Qt::AlignLeft);
    column->addSpacing(8);
    column->addWidget(m_recentTitle);
    column->addWidget(m_recent, 1);
    // a readable column in the middle of a wide canvas
    auto* outer = new QHBoxLayout(this);
    outer->addStretch(1);
    outer->addLayout(column, 6);
    outer->addStretch(1);

    connect(open, &QPushButton::clicked, this, &StartPage::openRequested);
    connect(example, &QPushButton::clicked, this, &StartPage::exampleRequested);
    connect(m_package, &QPushButton::clicked, this, &StartPage::packageRequested);
    connect(m_recent, &QListWidget::itemActivated, this,
            [this](QListWidgetItem* item) { Q_EMIT recentRequested(item->data(Qt::UserRole).toString()); });
    setRecent({}, {});
}

void StartPage::setRecent(const QStringList& paths, const QStringList& notes) {
    m_recent->clear();
    for (qsizetype k = 0; k < paths.size(); ++k) {
        const QFileInfo file(paths[k]);
        QString text = file.fileName() + QStringLiteral("  —  ") + file.absolutePath();
        if (k < notes.size() && !notes[k].isEmpty()) text += QStringLiteral("  ·  ") + notes[k];
        auto* item = new QListWidgetItem(text, m_recent);
        item->setData(Qt::UserRole, paths[k]);
        item->setToolTip(paths[k]);
    }
    if (paths.isEmpty()) {
        auto* none = new QListWidgetItem(tr("None yet: the files you open are listed here with their dialect and node count"), m_recent);
        none->setFlags(Qt::NoItemFlags);
    }
}

void StartPage::cover(QWidget* canvas) {
    setParent(canvas);
    canvas->installEventFilter(this);
    setGeometry(canvas->rect());
}

bool StartPage::eventFilter(QObject* watched, QEvent* event) {
    if (watched == parentWidget() && event->type() == QEvent::Resize) setGeometry(parentWidget()->rect());
    return QWidget::eventFilter(watched, event);
}

void StartPage::setMessage(const QString& message, bool package) {
    m_message->setText(message);
    m_message->setVisible(!message.isEmpty());
    m_package->setVisible(package);
}

} // namespace irlens::views
