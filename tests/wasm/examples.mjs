// Every file of examples/, as the WebAssembly tests give them to a module:
// relative paths from the repository root (the working directory), so that
// an example's imports (examples/grading/, examples/review/) resolve as they
// do on disk.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";

function walk(root, dir, out = []) {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(root, p, out);
    else out.push(relative(root, p));
  }
  return out;
}

// { files: {path: text} of every file, examples: the .napkin paths among them }
export function loadExamples(root = process.cwd()) {
  const paths = walk(root, join(root, "examples"));
  return {
    files: Object.fromEntries(paths.map((p) => [p, readFileSync(join(root, p), "utf8")])),
    examples: paths.filter((p) => p.endsWith(".napkin")),
  };
}
