#pragma once
// An option's words and the values they name, as one table: `--format`'s
// formats, `--steps`'s depths. Reading a word, naming a value and listing
// the choices all go through it, so a word is written once.
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace napkin::cli {

template <typename E, std::size_t N>
using WordTable = std::array<std::pair<E, std::string_view>, N>;

// The value `word` names, or nothing.
template <typename E, std::size_t N>
std::optional<E> value_named(const WordTable<E, N>& table, std::string_view word) {
  for (const auto& [value, w] : table)
    if (w == word) return value;
  return std::nullopt;
}

// The word for `value` ("" for a value the table leaves out).
template <typename E, std::size_t N>
std::string_view word_for(const WordTable<E, N>& table, E value) {
  for (const auto& [v, w] : table)
    if (v == value) return w;
  return "";
}

// Every word, in the table's order: what an option lists as its choices.
template <typename E, std::size_t N>
std::vector<std::string> words_of(const WordTable<E, N>& table) {
  std::vector<std::string> out;
  for (const auto& [value, word] : table) out.emplace_back(word);
  return out;
}

}  // namespace napkin::cli
