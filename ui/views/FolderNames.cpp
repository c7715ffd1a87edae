#include "views/FolderNames.hpp"

#include <QDir>
#include <algorithm>
#include <limits>
#include <vector>

namespace tsui {

namespace {

// How many components all lists share, reading each from its front (or its back), leaving at
// least one of the shortest and at most `room`.
qsizetype sharedCount(const std::vector<QStringList>& parts, qsizetype room, bool fromBack) {
    qsizetype n = 0;
    for (; n < room; ++n) {
        const auto at = [&](const QStringList& p) { return fromBack ? p[p.size() - 1 - n] : p[n]; };
        const QString& first = at(parts.front());
        if (!std::all_of(parts.begin(), parts.end(), [&](const QStringList& p) { return at(p) == first; })) break;
    }
    return n;
}

}  // namespace

QStringList distinguishingFolders(const QStringList& folders) {
    if (folders.size() < 2) return folders;
    std::vector<QStringList> parts;
    qsizetype shortest = std::numeric_limits<qsizetype>::max();
    for (const QString& f : folders) {
        parts.push_back(QDir::fromNativeSeparators(f).split(QLatin1Char('/'), Qt::SkipEmptyParts));
        shortest = std::min(shortest, parts.back().size());
    }
    if (shortest == 0) return folders;  // a root among them: nothing to cut
    const qsizetype front = sharedCount(parts, shortest - 1, false);
    const qsizetype back = sharedCount(parts, shortest - 1 - front, true);
    QStringList shown;
    for (const QStringList& p : parts) {
        const QString middle = p.mid(front, p.size() - front - back).join(QLatin1Char('/'));
        shown << QDir::toNativeSeparators((front ? QStringLiteral("…/") : QStringLiteral("/")) + middle +
                                          (back ? QStringLiteral("/…") : QString()));
    }
    return shown;
}

QString printableName(const QString& name) {
    QString out = name;
    for (QChar& c : out) {
        if (c.unicode() < 0x20)
            c = QChar(0x2400 + c.unicode());
        else if (c.unicode() == 0x7f)
            c = QChar(0x2421);
    }
    return out;
}

}  // namespace tsui
