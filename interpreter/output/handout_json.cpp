// A handout as data (--format json): the sheet's title, its sections and,
// in each, its questions, givens and blanks in the order the sheet shows
// them, for a course's own tools to lay out (and --format html, written from
// it). Like the sheet, it holds no answer's value: a blank says only its
// name, the unit it expects and what it is worth.
#include <nlohmann/json.hpp>

#include "handout.hpp"

namespace napkin {
namespace {

using json = nlohmann::ordered_json;
using Kind = HandoutItem::Kind;

json item_json(const HandoutItem& it) {
  json j;
  switch (it.kind) {
    case Kind::Question:
      j["kind"] = "question";
      j["paragraphs"] = it.paragraphs;
      return j;
    case Kind::Given: {
      j["kind"] = "given";
      j["name"] = it.name;
      j["shown"] = text(it.shown);
      json figures = json::array();
      for (const auto& [name, value] : it.figures) figures.push_back({{"name", name}, {"shown", text(value)}});
      j["figures"] = std::move(figures);
      break;
    }
    case Kind::Answer:
      j["kind"] = "answer";
      j["name"] = it.name;
      j["unit"] = it.unit;
      j["expects"] = it.expects.empty() ? "quantity" : it.expects;
      j["points"] = it.points;
      break;
  }
  j["note"] = it.note;
  return j;
}

}  // namespace

std::string handout_json(const Handout& h) {
  json j;
  j["title"] = h.title;
  j["intro"] = h.intro;
  json sections = json::array();
  for (const auto& s : h.sections) {
    json x;
    x["kind"] = s.kind == SectionKind::lets ? "values" : "record";
    x["heading"] = handout_heading(s);
    x["keyword"] = s.keyword;
    x["name"] = s.name;
    x["title"] = s.title;
    x["extends"] = s.base;
    x["made_as"] = text(s.origin);
    json items = json::array();
    for (const auto& it : s.items) items.push_back(item_json(it));
    x["items"] = std::move(items);
    sections.push_back(std::move(x));
  }
  j["sections"] = std::move(sections);
  j["answers"] = h.answers;
  return j.dump(2) + "\n";
}

}  // namespace napkin
