#pragma once
// What a section of a report or a handout holds: one record's fields, or
// the file's top-level values (its lets), headed "values".
namespace napkin {

enum class SectionKind { record, lets };

}  // namespace napkin
