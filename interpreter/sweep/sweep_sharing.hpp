#pragma once
// A sweep's points differ only in their swept inputs, so a field that does
// not depend on them has the same value at every point: it is computed at
// the first point that needs it and copied into the points after it.
#include <cstddef>
#include <vector>

#include "interpreter/core/record.hpp"

namespace napkin {

// Which fields of `r` depend on the fields `inputs`: the inputs themselves,
// and every field whose formula names one of them, directly or through
// other fields of r. Conservative: a name counts wherever it appears in a
// formula, even where an inner `with` block would shadow it.
std::vector<bool> dependent_fields(const Record& r, const std::vector<std::size_t>& inputs);

// The fields that are not dependent, in order: the ones a point may take
// from the point before it.
std::vector<std::size_t> independent_fields(const std::vector<bool>& dependent);

// Gives `to` the values `from` has computed for the fields `independent`.
// Both are points of one sweep: records with one field table.
void share_independent_fields(Record& to, const Record& from, const std::vector<std::size_t>& independent);

}  // namespace napkin
