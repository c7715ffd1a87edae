// The one number format of labels, tables, tooltips and hover readouts: integers with
// thousands separators (100,000), three significant digits in between (0.589, 12.3), and
// engineering notation for small values (5.89e-3, 806e-6: exponents in steps of three, so
// that values of one column compare at a glance).
#pragma once

#include <QString>
#include <cstdint>
#include <string>
#include <vector>

namespace tsui {

QString grouped(std::uint64_t n);
QString humanBytes(std::uint64_t bytes);
// A size set in binary units, as --chunk-bytes 64M and the Pipeline tab's choices set chunks:
// "64 MiB" (it read 67.1 MB beside the "64 MiB chunks" it was chosen as, sweep 70c C6).
QString binaryBytes(std::uint64_t bytes);
// 1,188 for |x| >= 1000; 12.3 or 0.0589 down to 0.01; 5.89e-3 or 806e-6 below.
QString shortNumber(double x);
// Three significant digits, the exponent a multiple of three: 806e-6, 5.89e-3, 12.3.
QString engineering(double x);
// Seconds in the unit that keeps the digits few: 1.11 s, 5.89 ms, 806 µs, 12 ns.
QString humanSeconds(double seconds);
// As humanSeconds, but always three significant digits ("3.00 ms"), for a table's column, where
// "3 ms" beside "2.45 ms" read as a rounder, other kind of figure.
QString columnSeconds(double seconds);
// "1 stream", "8 streams", "1,024 nonzeros": the window loads no translation, so tr()'s %n
// plural forms had shown "8 stream(s)".
QString counted(qint64 n, const QString& one, const QString& many);
// An engine message as the window writes it: its powers, "16^3" and "2^29" (plain ASCII for the
// CLI), in superscript, "16³" and "2²⁹", as the window's own text has them.
QString fromEngine(const std::string& text);
QString dimsText(const std::vector<std::uint64_t>& dims);
// `name` with places a wrapped label may break it: after '_', '-', '.' and '/', and every 16
// characters of a run without them (zero-width spaces). A file name is one word to a label,
// and an 89-character one had widened the Dataset dock to half the window (sweep 74a F15).
QString breakableName(const QString& name);

}  // namespace tsui
