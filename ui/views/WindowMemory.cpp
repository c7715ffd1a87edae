#include "views/WindowMemory.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDataStream>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QIODevice>
#include <QListWidget>
#include <QMainWindow>
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>

#include "panels/Panel.hpp"

namespace tsui {

namespace {

const QString kState = QStringLiteral("windowState");
const QString kTab = QStringLiteral("lastTab");
const QString kSplitters = QStringLiteral("splitters/");
const QString kControls = QStringLiteral("controls/");

QList<QWidget*> rememberedControls(const QMainWindow& window) {
    QList<QWidget*> out;
    for (QWidget* w : window.findChildren<QWidget*>())
        if (w->property(kRemembered).toBool() && !w->objectName().isEmpty()) out << w;
    return out;
}

// A combo's entry by its data where it has one (the method, not its translated title).
QVariant comboValue(const QComboBox& c) { return c.currentData().isValid() ? c.currentData() : c.currentText(); }

void restoreCombo(QComboBox& c, const QVariant& v) {
    int i = c.findData(v);
    if (i < 0) i = c.findText(v.toString());
    if (i >= 0) c.setCurrentIndex(i);
}

void restoreSpin(QSpinBox& s, const QVariant& v) {
    bool ok = false;
    const int n = v.toInt(&ok);
    if (ok && n >= s.minimum() && n <= s.maximum()) s.setValue(n);
}

void restoreDoubleSpin(QDoubleSpinBox& s, const QVariant& v) {
    bool ok = false;
    const double x = v.toDouble(&ok);
    if (ok && x >= s.minimum() && x <= s.maximum()) s.setValue(x);
}

// A checkable list's value is its ticked entries' names.
QStringList checkedNames(const QListWidget& l) {
    QStringList out;
    for (int i = 0; i < l.count(); ++i)
        if (l.item(i)->checkState() == Qt::Checked) out << l.item(i)->text();
    return out;
}

// Names the list no longer has are dropped; a saved set none of whose names it has (formats
// renamed since) leaves the list's default ticks rather than none.
void restoreChecked(QListWidget& l, const QVariant& v) {
    const QStringList names = v.toStringList();
    bool known = false;
    for (int i = 0; i < l.count(); ++i) known = known || names.contains(l.item(i)->text());
    if (!known) return;
    for (int i = 0; i < l.count(); ++i)
        l.item(i)->setCheckState(names.contains(l.item(i)->text()) ? Qt::Checked : Qt::Unchecked);
}

QVariant controlValue(const QWidget& w) {
    if (const auto* s = qobject_cast<const QSpinBox*>(&w)) return s->value();
    if (const auto* d = qobject_cast<const QDoubleSpinBox*>(&w)) return d->value();
    if (const auto* c = qobject_cast<const QComboBox*>(&w)) return comboValue(*c);
    if (const auto* b = qobject_cast<const QCheckBox*>(&w)) return b->isChecked();
    if (const auto* l = qobject_cast<const QListWidget*>(&w)) return checkedNames(*l);
    return {};
}

void restoreControl(QWidget& w, const QVariant& v) {
    if (auto* s = qobject_cast<QSpinBox*>(&w)) return restoreSpin(*s, v);
    if (auto* d = qobject_cast<QDoubleSpinBox*>(&w)) return restoreDoubleSpin(*d, v);
    if (auto* c = qobject_cast<QComboBox*>(&w)) return restoreCombo(*c, v);
    if (auto* l = qobject_cast<QListWidget*>(&w)) return restoreChecked(*l, v);
    // a box greyed on this machine (cuda without a device) keeps its state: ticked from a
    // start on a GPU machine, it would ask for runs that cannot happen here
    if (auto* b = qobject_cast<QCheckBox*>(&w); b && b->isEnabled()) b->setChecked(v.toBool());
}

// A pane dragged shut comes back open, the space shared evenly: a collapsed pane (a plot, a
// table) at the next start reads as missing, and its handle is easy to miss (sweep 68a B2).
// Rewritten in the saved state itself, which QSplitter reads before the window is laid out:
// its sizes list follows a magic number and a version (QSplitter::saveState, Qt 5.0 streams).
QByteArray openedPanes(const QByteArray& state) {
    QDataStream in(state);
    in.setVersion(QDataStream::Qt_5_0);
    qint32 marker = 0, version = 0;
    QList<int> sizes;
    in >> marker >> version >> sizes;
    int total = 0;
    for (int size : sizes) total += size;
    if (in.status() != QDataStream::Ok || total <= 0 || !sizes.contains(0)) return state;
    for (int& size : sizes) size = total / static_cast<int>(sizes.size());
    QByteArray out;
    QDataStream write(&out, QIODevice::WriteOnly);
    write.setVersion(QDataStream::Qt_5_0);
    write << marker << version << sizes;
    return out + state.mid(static_cast<qsizetype>(in.device()->pos()));
}

}  // namespace

void rememberWindow(const QMainWindow& window, const QTabWidget& tabs, QSettings& settings) {
    settings.setValue(kState, window.saveState());
    settings.setValue(kTab, tabs.currentIndex());
    for (const QSplitter* s : window.findChildren<QSplitter*>())
        if (!s->objectName().isEmpty()) settings.setValue(kSplitters + s->objectName(), s->saveState());
    for (const QWidget* w : rememberedControls(window)) {
        const QVariant v = controlValue(*w);
        if (v.isValid()) settings.setValue(kControls + w->objectName(), v);
    }
}

void restoreWindow(QMainWindow& window, QTabWidget& tabs, const QSettings& settings) {
    window.restoreState(settings.value(kState).toByteArray());
    // a dock that cannot be closed may not come back hidden: a state that said so (edited by
    // hand, sweep 68 B1) had hidden the Dataset dock for good, before it could be closed and
    // brought back from View; a closable one comes back as the user left it
    for (QDockWidget* dock : window.findChildren<QDockWidget*>())
        if (dock->isHidden() && !(dock->features() & QDockWidget::DockWidgetClosable)) dock->show();
    bool ok = false;
    const int tab = settings.value(kTab).toInt(&ok);
    if (ok && tab >= 0 && tab < tabs.count()) tabs.setCurrentIndex(tab);
    for (QSplitter* s : window.findChildren<QSplitter*>())
        if (!s->objectName().isEmpty())
            s->restoreState(openedPanes(settings.value(kSplitters + s->objectName()).toByteArray()));
    // in creation order: a method before the rank its change may reset
    for (QWidget* w : rememberedControls(window)) {
        const QVariant v = settings.value(kControls + w->objectName());
        if (v.isValid()) restoreControl(*w, v);
    }
}

}  // namespace tsui
