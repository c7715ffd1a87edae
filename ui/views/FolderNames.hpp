// How a list names files of one name that lie in different folders: by the part of each folder
// that tells it from the others. Cutting each whole folder in the middle, as the recent list
// did, kept the parts they share: /work/main/resources/samples and
// /tmp/ci/main/resources/samples both read "…/resources/samples".
#pragma once

#include <QStringList>

namespace tsui {

// Each folder (absolute, '/'-separated) with the components every folder shares at its start
// and at its end cut to "…": "/work/…" and "/tmp/ci/…" above; "…/a" and "…/b" for
// /tmp/x/a and /tmp/x/b. At least one component of each stays.
QStringList distinguishingFolders(const QStringList& folders);

// A file's name as one line of a list: control characters (a newline is legal in a Linux name)
// become their Unicode pictures (U+2400 + c, U+2421 for DEL), so "a\nb.tns" reads "a␊b.tns"
// rather than as two entries.
QString printableName(const QString& name);

}  // namespace tsui
