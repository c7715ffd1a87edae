// QApplication that stops exceptions at the event loop: an exception escaping a slot or event
// handler is reported (stderr and a message box) instead of terminating the program.
#pragma once

#include <QApplication>

namespace tsui {

class SafeApplication : public QApplication {
public:
    using QApplication::QApplication;
    bool notify(QObject* receiver, QEvent* event) override;
};

}  // namespace tsui
