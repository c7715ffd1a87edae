// Every error the engine raises derives from tscope::Error, so that callers (CLI, GUI jobs)
// catch one type. InputError marks problems with what the user gave us (CLI exit status 2);
// anything else is a failure of ours or of the machine (exit status 1).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace tscope {

class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Bad input: a malformed file, a bad parameter, a missing file.
class InputError : public Error {
public:
    using Error::Error;
};

// A parse error that knows where it happened. line and column are 1-based; 0 means unknown.
class ParseError : public InputError {
public:
    ParseError(std::string file, std::uint64_t line, std::uint64_t column, const std::string& what);

    const std::string& file() const noexcept { return file_; }
    std::uint64_t line() const noexcept { return line_; }
    std::uint64_t column() const noexcept { return column_; }
    // The message without the "file:line:col: " prefix.
    const std::string& detail() const noexcept { return detail_; }

private:
    std::string file_;
    std::uint64_t line_;
    std::uint64_t column_;
    std::string detail_;
};

// Raised by RunControl::check() when the user asked to stop; RAII unwinds the partial work.
class Cancelled : public Error {
public:
    Cancelled() : Error("cancelled") {}
};

}  // namespace tscope
