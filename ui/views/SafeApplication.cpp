#include "views/SafeApplication.hpp"

#include <QMessageBox>
#include <QTimer>
#include <cstdio>
#include <exception>

namespace tsui {

bool SafeApplication::notify(QObject* receiver, QEvent* event) {
    try {
        return QApplication::notify(receiver, event);
    } catch (const std::exception& e) {
        const QString message = QString::fromStdString(e.what());
        std::fprintf(stderr, "tensorscope: unexpected error: %s\n", e.what());
        QTimer::singleShot(0, [message] { QMessageBox::critical(nullptr, QStringLiteral("Tensorscope"), message); });
    } catch (...) {
        std::fprintf(stderr, "tensorscope: unexpected error\n");
    }
    return false;
}

}  // namespace tsui
