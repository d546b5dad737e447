#include "views/run/inputs_dialog.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace irlens::views {

InputsDialog::InputsDialog(const QStringList& paths, std::function<QString(const QStringList&)> accept, QWidget* parent)
    : QDialog(parent), m_accept(std::move(accept)) {
    setObjectName("inputsDialog");
    setWindowTitle(tr("Inputs"));
    auto* intro = new QLabel(tr("Tensor files holding the program's user inputs: <b>.pt</b> (a tensor, a tuple or list, or a dict by "
                                "input name), <b>.npy</b> (one input), <b>.npz</b> and <b>.safetensors</b> (by input name), or one "
                                "<b>model.expected/</b> folder. Named values are matched by name, others by position in this order. "
                                "No files: the default inputs."),
                             this);
    intro->setWordWrap(true);
    m_list = new QListWidget(this);
    m_list->setObjectName("inputsList");
    m_list->setDragDropMode(QAbstractItemView::InternalMove); // the order is the positional order
    m_list->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_error = new QLabel(this);
    m_error->setObjectName("inputsError");
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QPalette warn = m_error->palette();
    warn.setColor(QPalette::WindowText, QColor(0xd3, 0x2f, 0x2f));
    m_error->setPalette(warn);
    auto* files = new QPushButton(tr("Add &files…"), this);
    auto* folder = new QPushButton(tr("Add f&older…"), this);
    auto* remove = new QPushButton(tr("&Remove"), this);
    auto* clear = new QPushButton(tr("&Clear"), this);
    connect(files, &QPushButton::clicked, this, &InputsDialog::addFiles);
    connect(folder, &QPushButton::clicked, this, &InputsDialog::addFolder);
    connect(remove, &QPushButton::clicked, this, [this] { qDeleteAll(m_list->selectedItems()); });
    connect(clear, &QPushButton::clicked, m_list, &QListWidget::clear);
    auto* buttons = new QVBoxLayout;
    for (auto* b : {files, folder, remove, clear}) buttons->addWidget(b);
    buttons->addStretch(1);
    auto* middle = new QHBoxLayout;
    middle->addWidget(m_list, 1);
    middle->addLayout(buttons);
    auto* box = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(box, &QDialogButtonBox::accepted, this, &InputsDialog::accept);
    connect(box, &QDialogButtonBox::rejected, this, &InputsDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(middle, 1);
    layout->addWidget(m_error);
    layout->addWidget(box);
    resize(640, 360);
    setPaths(paths);
}

QStringList InputsDialog::paths() const {
    QStringList out;
    for (int r = 0; r < m_list->count(); ++r) out << m_list->item(r)->text();
    return out;
}

void InputsDialog::setPaths(const QStringList& paths) {
    m_list->clear();
    m_list->addItems(paths);
    m_error->clear();
}

void InputsDialog::accept() {
    const QString error = m_accept(paths());
    m_error->setText(error);
    if (error.isEmpty()) QDialog::accept();
}

void InputsDialog::addFiles() {
    const QStringList files = QFileDialog::getOpenFileNames(this, tr("Input files"), QString(),
                                                            tr("Tensor files (*.pt *.pth *.bin *.npy *.npz *.safetensors);;All files (*)"));
    m_list->addItems(files);
}

void InputsDialog::addFolder() {
    const QString dir = QFileDialog::getExistingDirectory(this, tr("A model.expected/ folder"));
    if (!dir.isEmpty()) m_list->addItem(dir);
}

} // namespace irlens::views
