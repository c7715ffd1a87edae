#include "views/TextFormat.hpp"

#include <QLocale>
#include <cmath>

namespace tsui {

QString grouped(std::uint64_t n) {
    QLocale c(QLocale::English);
    return c.toString(static_cast<qulonglong>(n));
}

QString humanBytes(std::uint64_t bytes) {
    return QLocale(QLocale::English).formattedDataSize(static_cast<qint64>(bytes), 1, QLocale::DataSizeSIFormat);
}

QString shortNumber(double x) {
    const double a = std::fabs(x);
    if (x == 0) return QStringLiteral("0");
    if (a >= 1000 && a < 1e9) return QLocale(QLocale::English).toString(x, 'f', 0);  // 1,188
    if (a >= 1e-3 && a < 1000) return QString::number(x, 'g', 3);
    return QString::number(x, 'e', 2);
}

QString dimsText(const std::vector<std::uint64_t>& dims) {
    QStringList parts;
    for (auto d : dims) parts << grouped(d);
    return parts.join(QStringLiteral(" × "));
}

}  // namespace tsui
