// The scope a reference's checks run in against a submission. Points come
// only from the reference's meaning: the submission supplies the answers the
// reference names, and nothing else a check uses. A submission that defines
// `fn abs(x) = 0 B`, or its own `kv_cache_bytes`, changes no check.
#include <unordered_set>

#include "interpreter.hpp"

namespace napkin {

Module* Interpreter::grading_scope(const Module& reference, Module* submission) {
  auto mod = std::make_unique<Module>();
  Module* scope = mod.get();
  scope->file = std::make_unique<SourceFile>();
  scope->file->name = reference.file->name;
  scope->builtins_first = true;
  modules_.push_back(std::move(mod));
  scope->env = new_env(nullptr, nullptr, scope);

  // The reference's own file and the files it imports, standard ones aside.
  std::vector<const Module*> files{&reference};
  std::unordered_set<const Module*> seen{&reference};
  for (std::size_t i = 0; i < files.size(); ++i)
    for (const Module* dep : files[i]->imports)
      if (!dep->is_std && seen.insert(dep).second) files.push_back(dep);

  for (const Module* file : files) {
    for (const auto& st : file->ast.statements) {
      if (st.kind != ast::StmtKind::Import || st.name.rfind("std/", 0) != 0) continue;
      Module* std_module = load_std(st.name.substr(4));
      if (std_module && std::find(scope->imports.begin(), scope->imports.end(), std_module) == scope->imports.end())
        scope->imports.push_back(std_module);
    }
    for (const Binding* b : file->order) {
      if (scope->own.count(b->name)) continue;
      if (b->stmt->kind == ast::StmtKind::Fn) {
        // The reference's function, run here: its body sees this scope.
        Binding& fn = bindings_.emplace_back();
        fn.name = b->name;
        fn.stmt = b->stmt;
        fn.module = scope;
        fn.fn = b->fn;
        fn.fn.module = scope;
        scope->own[b->name] = &fn;
        scope->order.push_back(&fn);
      } else if (Binding* answer = find_binding(submission, b->name); answer && !answer->module->is_std) {
        scope->own[b->name] = answer;
      }
    }
  }
  return scope;
}

}  // namespace napkin
