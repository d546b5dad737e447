#include "views/package/package_view.h"
#include "views/qstring_util.h"

#include "core/io/aoti_package.h"

#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace irlens::views {

using namespace irlens::core;

namespace {


QTreeWidgetItem* add(QTreeWidgetItem* parent, const QString& what, const QString& value = {}, const QString& more = {}) {
    auto* item = new QTreeWidgetItem(parent, {what, value, more});
    item->setToolTip(0, what);
    item->setToolTip(1, value);
    item->setToolTip(2, more);
    return item;
}

QString sizeText(uint64_t bytes) { return QLocale().formattedDataSize(qint64(bytes), 1, QLocale::DataSizeIecFormat); }

QString specText(const AotiTensorSpec& s) {
    if (s.dtype.empty() && s.dims.empty()) return QObject::tr("not recorded");
    QStringList dims;
    for (const auto& d : s.dims) dims << q(d);
    return (s.dtype.empty() ? QString("?") : q(s.dtype)) + "[" + dims.join(", ") + "]";
}

QString countText(int n) { return n >= 0 ? QString::number(n) : QObject::tr("not recorded"); }

void addIo(QTreeWidgetItem* model, const AotiModel& m) {
    auto* inputs = add(model, QObject::tr("Inputs"), countText(m.numInputs));
    for (const auto& s : m.inputs) add(inputs, q(s.name), specText(s));
    auto* outputs = add(model, QObject::tr("Outputs"), countText(m.numOutputs));
    for (const auto& s : m.outputs) add(outputs, q(s.name), specText(s));
    if (!m.inSpec.empty()) add(model, QObject::tr("Call (args, kwargs)"), q(m.inSpec));
    if (!m.outSpec.empty()) add(model, QObject::tr("Returns"), q(m.outSpec));
    if (m.numConstants >= 0) add(model, QObject::tr("Constants"), QString::number(m.numConstants));
}

void addModel(QTreeWidget* tree, const AotiModel& m) {
    auto* model = new QTreeWidgetItem(tree, {QObject::tr("Model '%1'").arg(q(m.name))});
    add(model, QObject::tr("Device"), m.device.empty() ? QObject::tr("not recorded") : q(m.device));
    if (!m.compiler.empty() || !m.cpuCapability.empty())
        add(model, QObject::tr("Built with"),
            q(m.compiler) + (m.cpuCapability.empty() ? QString() : " for CPU_CAPABILITY_" + q(m.cpuCapability)));
    auto* files = add(model, QObject::tr("Compiled files"), QString::number(m.files.size()));
    for (const auto& f : m.files) add(files, q(f.name), q(f.kind) + " · " + sizeText(f.size), q(f.detail));
    auto* ops = add(model, QObject::tr("Custom ops (proxy executor)"), QString::number(m.customOps.size()),
                    QObject::tr("run by the host's PyTorch, not compiled into the package"));
    for (const auto& c : m.customOps) {
        QStringList outs, ins;
        for (const auto& o : c.outputs) outs << q(o);
        for (const auto& i : c.inputs) ins << q(i);
        add(ops, q(c.target), outs.join(", ") + " = " + q(c.target) + "(" + ins.join(", ") + ")", q(c.node));
    }
    auto* kernels = add(model, QObject::tr("Generated kernels"), QString::number(m.kernels.size()));
    for (const auto& k : m.kernels) add(kernels, q(k));
    addIo(model, m);
    if (!m.metadata.empty()) {
        auto* meta = add(model, QObject::tr("Metadata"), QString::number(m.metadata.size()));
        for (const auto& [k, v] : m.metadata) add(meta, q(k), q(v));
    }
}

} // namespace

PackageView::PackageView(std::shared_ptr<const AotiPackage> package, QWidget* parent)
    : QDialog(parent), m_package(std::move(package)) {
    setObjectName("packageView");
    setWindowTitle(tr("%1 — AOTInductor package").arg(QFileInfo(q(m_package->path)).fileName()));
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(tr("This .pt2 is an <b>AOTInductor package</b>: code compiled by "
                                "<code>torch._inductor.aoti_compile_and_package</code>, with no exported program inside, "
                                "so there is no graph to show, verify, decompose or run. What it holds:"), this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    m_summary = new QLabel(q(m_package->summary()), this);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setWordWrap(true);
    layout->addWidget(m_summary);
    m_tree = new QTreeWidget(this);
    m_tree->setColumnCount(3);
    m_tree->setHeaderLabels({tr("Item"), tr("Value"), tr("Details")});
    m_tree->setUniformRowHeights(true);
    m_tree->header()->setSectionResizeMode(QHeaderView::Interactive);
    layout->addWidget(m_tree, 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto* copy = buttons->addButton(tr("Copy as text"), QDialogButtonBox::ActionRole);
    connect(copy, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(text()); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::close);
    layout->addWidget(buttons);
    fill();
    resize(1180, 640);
}

void PackageView::fill() {
    const AotiPackage& p = *m_package;
    auto* layoutItem = new QTreeWidgetItem(m_tree, {tr("Layout")});
    add(layoutItem, tr("archive_format"), q(p.archiveFormat));
    add(layoutItem, tr("Version"), p.archiveVersion.empty() ? tr("not recorded") : q(p.archiveVersion),
        p.versionRecord.empty() ? QString() : tr("record '%1'").arg(q(p.versionRecord)));
    add(layoutItem, tr("Root folder"), p.root.empty() ? tr("none") : q(p.root));
    if (!p.byteorder.empty()) add(layoutItem, tr("Byte order"), q(p.byteorder));
    for (const auto& m : p.models) addModel(m_tree, m);
    if (!p.otherRecords.empty()) {
        auto* other = new QTreeWidgetItem(m_tree, {tr("Other records"), QString::number(p.otherRecords.size())});
        for (const auto& [name, size] : p.otherRecords) add(other, q(name), sizeText(size));
    }
    m_tree->expandAll();
    // generated file names are long hashes: cap the first two columns so the details stay in view
    for (int c = 0; c < 2; ++c) {
        m_tree->resizeColumnToContents(c);
        m_tree->setColumnWidth(c, std::min(m_tree->columnWidth(c), c == 0 ? 420 : 360));
    }
}

QString PackageView::text() const {
    QStringList lines;
    for (const auto& l : describeAotiPackage(*m_package)) lines << q(l);
    return lines.join('\n') + '\n';
}

} // namespace irlens::views
