#pragma once
// The bounds of a restricted run (napkin grade, --restricted): a time limit
// and a memory limit that end the run with a clear error (E0703, E0704)
// instead of a student file holding the grader's machine. Only the `napkin`
// process sets them (main.cpp): they act on the whole process.
//
// Whatever the timing, a run prints exactly one document, whole: its own
// result or the document the format would have held with every check
// errored (E0703, E0704). The time limit and the end of the run race for
// one atomic flag, and only the winner writes; the run's own result is
// written only after the limit is disarmed.
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "grammar/diagnostic.hpp"
#include "commands.hpp"

namespace napkin::cli {

// Past `seconds` of wall-clock time the process prints the stop document
// (on_stop) for E0703, then E0703 on stderr, and exits with status 2. When
// `document_follows` (a format with a stop document), a time-out before
// on_stop has been called waits for it, so the document is never left out.
// Past `mib` MiB of address space an allocation fails; any allocation
// failure, even one a command caught, makes the run's result E0704
// (settled).
void bound_run(double seconds, std::size_t mib, bool document_follows);

// The document `format` would have held had the run been stopped by `d`
// (each check errored with it): rendered now for E0703 and for E0704, as
// printed (finish.hpp's printed), so that neither costs memory or time when
// it is needed.
void on_stop(const std::function<std::string(const Diagnostic&)>& document, Format format);

// A document format was asked for (--format html, output_format.hpp): the
// command runs for its JSON, and a stop document is written as `page`
// writes that JSON, titled `title`, printed as `format`.
void stop_documents_as(napkin::DocumentFormatter page, std::string title, Format format);

// The run's result is decided: the time limit is disarmed (or, if it ran
// out first, the process ends with its document here). An allocation failed
// during the run: the E0704 document in place of `r`'s (or, for a format
// without one, E0704 added to stderr), exit 2.
Result settled(Result r);

Diagnostic time_out_diagnostic(double seconds);
Diagnostic memory_diagnostic(std::size_t mib);

}  // namespace napkin::cli
