#pragma once
// PEGTL's parse tree (tao/pegtl/contrib/parse_tree.hpp), built without a
// node for every rule on the way down. PEGTL gives each rule that is not
// selected but holds selected rules (each seq, sor, star, opt ... between
// two selected rules) a node of its own when it starts, and on success moves
// that node's children into the enclosing one; a name costs a dozen of them.
// Here such a rule adds its children straight to the enclosing node, and
// only remembers how many that node had, to drop what it added if it fails.
// The tree is the same, node for node; selected rules are handled exactly
// as PEGTL does (start, success with the selector's transform, failure).
#include <cassert>
#include <cstddef>
#include <memory>
#include <tao/pegtl/contrib/parse_tree.hpp>
#include <vector>

namespace napkin::flat_tree {

namespace pegtl = tao::pegtl;
namespace pti = tao::pegtl::parse_tree::internal;

template <typename Node>
struct state : pti::state<Node> {
  // For each unselected rule under way, how many children the enclosing
  // node had when it started.
  std::vector<std::size_t> marks;
  // Where the whitespace rule last started and ended (see rules::sp).
  const char* sp_from = nullptr;
  pegtl::internal::iterator sp_to;
};

template <typename Node, template <typename...> class Selector, template <typename...> class Control>
struct make_control {
  template <typename Rule, bool, bool>
  struct state_handler;

  template <typename Rule>
  using type = pegtl::rotate_states_right<
      state_handler<Rule, pti::is_selected_node<Rule, Selector>, pti::is_leaf<8, typename Rule::subs_t, Selector>>>;
};

// Not selected, and no selected rule inside: nothing to do.
template <typename Node, template <typename...> class Selector, template <typename...> class Control>
template <typename Rule>
struct make_control<Node, Selector, Control>::state_handler<Rule, false, true> : pegtl::remove_first_state<Control<Rule>> {};

// Not selected, with selected rules inside.
template <typename Node, template <typename...> class Selector, template <typename...> class Control>
template <typename Rule>
struct make_control<Node, Selector, Control>::state_handler<Rule, false, false>
    : pegtl::remove_first_state<Control<Rule>> {
  static constexpr bool enable = true;

  template <typename ParseInput, typename... States>
  static void start(const ParseInput& /*unused*/, state<Node>& s, States&&... /*unused*/) {
    s.marks.push_back(s.back()->children.size());
  }

  template <typename ParseInput, typename... States>
  static void success(const ParseInput& /*unused*/, state<Node>& s, States&&... /*unused*/) {
    s.marks.pop_back();
  }

  template <typename ParseInput, typename... States>
  static void failure(const ParseInput& /*unused*/, state<Node>& s, States&&... /*unused*/) {
    s.back()->children.resize(s.marks.back());
    s.marks.pop_back();
  }

  template <typename ParseInput, typename... States>
  static void unwind(const ParseInput& /*unused*/, state<Node>& s, States&&... /*unused*/) {
    s.back()->children.resize(s.marks.back());
    s.marks.pop_back();
  }
};

// Selected: as PEGTL does it.
template <typename Node, template <typename...> class Selector, template <typename...> class Control>
template <typename Rule, bool B>
struct make_control<Node, Selector, Control>::state_handler<Rule, true, B> : pegtl::remove_first_state<Control<Rule>> {
  template <typename ParseInput, typename... States>
  static void start(const ParseInput& in, state<Node>& s, States&&... st) {
    Control<Rule>::start(in, st...);
    s.emplace_back();
    s.back()->template start<Rule>(in, st...);
  }

  template <typename ParseInput, typename... States>
  static void success(const ParseInput& in, state<Node>& s, States&&... st) {
    auto n = std::move(s.back());
    s.pop_back();
    n->template success<Rule>(in, st...);
    pti::transform<Selector<Rule>>(in, n, st...);
    if (n) s.back()->emplace_back(std::move(n), st...);
    Control<Rule>::success(in, st...);
  }

  template <typename ParseInput, typename... States>
  static void failure(const ParseInput& in, state<Node>& s, States&&... st) {
    s.back()->template failure<Rule>(in, st...);
    s.pop_back();
    Control<Rule>::failure(in, st...);
  }

  template <typename ParseInput, typename... States>
  static void unwind(const ParseInput& in, state<Node>& s, States&&... st) {
    s.pop_back();
    if constexpr (pti::control_has_unwind<Control<Rule>, const ParseInput&, States...>) Control<Rule>::unwind(in, st...);
  }
};

// pegtl::parse_tree::parse with the handlers above.
template <typename Rule, typename Node, template <typename...> class Selector, template <typename...> class Action,
          template <typename...> class Control, typename ParseInput, typename... States>
[[nodiscard]] std::unique_ptr<Node> parse(ParseInput&& in, States&&... st) {
  state<Node> s;
  if (!pegtl::parse<Rule, Action, make_control<Node, Selector, Control>::template type>(in, st..., s)) return nullptr;
  assert(s.stack.size() == 1);
  return std::move(s.back());
}

}  // namespace napkin::flat_tree
