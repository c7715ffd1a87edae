// The bundled samples offered in the Samples menu and the dataset panel: real tensors shipped
// in resources/samples, and generated tensors of each kind (made on demand, reproducibly).
#pragma once

#include <QList>
#include <QString>

#include "jobs/DatasetJob.hpp"

namespace tsui {

struct Sample {
    QString title;
    QString description;  // one line: what it is, where it comes from (attribution)
    DatasetRequest request;
};

// Where the bundled sample files are: next to the binaries (build/share/tensorscope/samples),
// else the source tree's resources/samples.
QString samplesDirectory();
QList<Sample> bundledSamples();

}  // namespace tsui
