#include "views/TextFormat.hpp"

#include <QLocale>
#include <QRegularExpression>
#include <cmath>

namespace tsui {

namespace {

QLocale english() { return QLocale(QLocale::English); }

// Three significant digits without an exponent (0.0589, 12.3, 100).
QString threeDigits(double x) {
    const int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(x))));
    const int decimals = std::max(0, 2 - magnitude);
    QString s = QString::number(x, 'f', decimals);
    if (s.contains(QLatin1Char('.'))) {  // 0.500 -> 0.5, 2.00 -> 2
        while (s.endsWith(QLatin1Char('0'))) s.chop(1);
        if (s.endsWith(QLatin1Char('.'))) s.chop(1);
    }
    return s;
}

}  // namespace

QString grouped(std::uint64_t n) { return english().toString(static_cast<qulonglong>(n)); }

QString humanBytes(std::uint64_t bytes) {
    return english().formattedDataSize(static_cast<qint64>(bytes), 1, QLocale::DataSizeSIFormat);
}

QString binaryBytes(std::uint64_t bytes) {
    if (bytes > 0 && bytes % (std::uint64_t{1} << 20) == 0) return QStringLiteral("%1 MiB").arg(grouped(bytes >> 20));
    return english().formattedDataSize(static_cast<qint64>(bytes), 1, QLocale::DataSizeIecFormat);
}

QString engineering(double x) {
    if (x == 0 || !std::isfinite(x)) return QString::number(x);
    int exponent = static_cast<int>(std::floor(std::log10(std::fabs(x))));
    exponent = exponent >= 0 ? exponent / 3 * 3 : -((-exponent + 2) / 3 * 3);
    double mantissa = x / std::pow(10.0, exponent);
    if (std::fabs(std::stod(threeDigits(mantissa).toStdString())) >= 1000) {  // 999.6e-6 rounds to 1e-3
        mantissa /= 1000;
        exponent += 3;
    }
    const QString m = threeDigits(mantissa);
    return exponent == 0 ? m : QStringLiteral("%1e%2").arg(m).arg(exponent);
}

QString shortNumber(double x) {
    const double a = std::fabs(x);
    if (x == 0) return QStringLiteral("0");
    if (!std::isfinite(x)) return QString::number(x);
    if (a >= 1e15) return engineering(x);
    if (a >= 999.5) return english().toString(x, 'f', 0);  // 1,188
    // plain decimals down to 0.001, so that a column of 0.0134 and 0.00634 reads alike (it mixed
    // "0.0134" and "6.34e-3", sweep 72b)
    if (a >= 0.001) return threeDigits(x);
    return engineering(x);
}

QString fromEngine(const std::string& text) {
    static const QRegularExpression power(QStringLiteral("(\\d+)\\^(\\d+)"));
    static const QChar digits[] = {QChar(0x2070), QChar(0x00B9), QChar(0x00B2), QChar(0x00B3), QChar(0x2074),
                                   QChar(0x2075), QChar(0x2076), QChar(0x2077), QChar(0x2078), QChar(0x2079)};
    QString in = QString::fromStdString(text), out;
    qsizetype at = 0;
    for (auto it = power.globalMatch(in); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        out += in.mid(at, m.capturedStart() - at) + m.captured(1);
        for (const QChar c : m.captured(2)) out += digits[c.digitValue()];
        at = m.capturedEnd();
    }
    return out + in.mid(at);
}

QString counted(qint64 n, const QString& one, const QString& many) {
    return english().toString(n) + QLatin1Char(' ') + (n == 1 ? one : many);
}

QString humanSeconds(double seconds) {
    // the unit chosen after rounding to the three digits shown: 0.9996 s read "1000 ms" (sweep 72b F9)
    if (std::isfinite(seconds) && seconds != 0) seconds = QString::number(seconds, 'g', 3).toDouble();
    const double a = std::fabs(seconds);
    if (seconds == 0) return QStringLiteral("0 s");
    if (a >= 1) return shortNumber(seconds) + QStringLiteral(" s");
    if (a >= 1e-3) return threeDigits(seconds * 1e3) + QStringLiteral(" ms");
    if (a >= 1e-6) return threeDigits(seconds * 1e6) + QStringLiteral(" µs");
    if (a >= 1e-9) return threeDigits(seconds * 1e9) + QStringLiteral(" ns");
    if (a >= 1e-12) return threeDigits(seconds * 1e12) + QStringLiteral(" ps");  // a kernel's time per stored entry
    return engineering(seconds) + QStringLiteral(" s");
}

QString columnSeconds(double seconds) {
    const QString text = humanSeconds(seconds);
    const qsizetype space = text.indexOf(QLatin1Char(' '));
    if (space < 0 || !std::isfinite(seconds) || seconds == 0) return text;
    const QString digits = text.left(space), unit = text.mid(space);
    bool ok = false;
    const double x = digits.toDouble(&ok);
    if (!ok || digits.contains(QLatin1Char('e')) || std::fabs(x) >= 1000) return text;  // "1,188 s", "12e-15 s"
    const int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(x))));
    return QString::number(x, 'f', std::max(0, 2 - magnitude)) + unit;
}

QString dimsText(const std::vector<std::uint64_t>& dims) {
    QStringList parts;
    for (auto d : dims) parts << grouped(d);
    return parts.join(QStringLiteral(" × "));
}

QString breakableName(const QString& name) {
    constexpr QChar kBreak(0x200B);  // zero-width space: a break opportunity, nothing drawn
    QString out;
    int run = 0;  // characters since the last place to break
    for (const QChar c : name) {
        out += c;
        const bool separator =
            c == QLatin1Char('_') || c == QLatin1Char('-') || c == QLatin1Char('.') || c == QLatin1Char('/');
        if (c.isSpace())
            run = 0;
        else if (separator || ++run == 16)
            out += kBreak, run = 0;
    }
    if (out.endsWith(kBreak)) out.chop(1);
    return out;
}

}  // namespace tsui
