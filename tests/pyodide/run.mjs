// Runs Python inside Pyodide in node, like `python ARGS` on the host, with no network:
//
//   node tests/pyodide/run.mjs --release DIR [--mount DIR]... [--] -m pytest tests/core -q
//   node tests/pyodide/run.mjs --release DIR [--bare] [--] script.py ARGS  |  -c CODE ARGS
//
// DIR is a release made ready by .ci/pyodide-setup (its manifest says what to install):
// keizer-xl's dependencies as selected under Pyodide and the test tools (pytest, Hypothesis,
// xlwings), or with --bare the dependencies alone, as `pip install keizer-xl` gets them.
// The repository, the working directory, the script's folder and each --mount are mounted
// at their own paths, so paths mean the same inside as outside. Output goes straight to
// this process's; the exit status is the Python program's.
import fs from "node:fs";
import path from "node:path";
import process from "node:process";
import { fileURLToPath, pathToFileURL } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, "..", "..");
// What of the host's environment Python sees: settings of the tests and of keizer_xl
const PASSED_ON =
  /^(CI|TZ|LANG|LC_\w+|NO_COLOR|FORCE_COLOR|COLUMNS|KEIZER_XL_\w+|HYPOTHESIS_\w+|PYTEST_\w+)$/;

function fail(message) {
  process.stderr.write(`pyodide-run: ${message}\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const options = { release: null, mounts: [], python: [], bare: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--release") options.release = path.resolve(argv[++i] ?? fail("--release DIR"));
    else if (arg === "--mount") options.mounts.push(path.resolve(argv[++i] ?? fail("--mount DIR")));
    else if (arg === "--bare") options.bare = true;
    else if (arg === "--") { options.python = argv.slice(i + 1); break; }
    else { options.python = argv.slice(i); break; }
  }
  if (!options.release) fail("--release DIR is needed (the folder .ci/pyodide-setup prints)");
  if (options.python.length === 0) fail("nothing to run: give -m MODULE, -c CODE or a script");
  return options;
}

// The release's packages to load and everything they bring with them, all in the cache:
// a file not there would make Pyodide reach for its CDN.
function checkedPackages(release, manifest, names) {
  const lock = JSON.parse(fs.readFileSync(path.join(release, "pyodide-lock.json"), "utf8"));
  const todo = [...names];
  const seen = new Set();
  while (todo.length) {
    const name = todo.pop();
    if (seen.has(name)) continue;
    seen.add(name);
    const entry = lock.packages[name] ?? fail(`${name} is not in Pyodide ${manifest.pyodide}`);
    if (!fs.existsSync(path.join(release, entry.file_name))) {
      fail(`${entry.file_name} is not in ${release}: run .ci/pyodide-setup`);
    }
    todo.push(...entry.depends);
  }
  return names;
}

function mount(pyodide, dir) {
  pyodide.FS.mkdirTree(dir);
  pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: dir }, dir);
}

function toStream(fd) {
  return { write: (buffer) => { fs.writeSync(fd, buffer); return buffer.length; }, isatty: false };
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const manifestFile = path.join(options.release, "manifest.json");
  if (!fs.existsSync(manifestFile)) fail(`${options.release} is not ready: run .ci/pyodide-setup`);
  const manifest = JSON.parse(fs.readFileSync(manifestFile, "utf8"));
  const env = { HOME: "/home/pyodide" };
  for (const [key, value] of Object.entries(process.env)) {
    if (PASSED_ON.test(key)) env[key] = value;
  }
  const entry = pathToFileURL(path.join(options.release, "pyodide.mjs"));
  const { loadPyodide } = await import(entry.href);
  const pyodide = await loadPyodide({
    indexURL: options.release + path.sep,
    packageCacheDir: options.release + path.sep,
    env,
    stdout: (line) => process.stdout.write(line + "\n"),
    stderr: (line) => process.stderr.write(line + "\n"),
  });
  const installs = options.bare ? manifest.bare : manifest.tests;
  await pyodide.loadPackage(checkedPackages(options.release, manifest, installs.packages), {
    messageCallback: () => {},
    errorCallback: (message) => process.stderr.write(message + "\n"),
  });
  const cwd = process.cwd();
  const mounted = [];
  const first = options.python[0];
  const script = first.startsWith("-") ? [] : [path.dirname(path.resolve(first))];
  const dirs = [REPO, options.release, cwd, ...script, ...options.mounts];
  dirs.sort((a, b) => a.length - b.length);
  for (const dir of dirs) {  // a folder inside one already mounted is there with it
    if (!mounted.some((m) => dir === m || dir.startsWith(m + path.sep))) {
      mount(pyodide, dir);
      mounted.push(dir);
    }
  }
  pyodide.setStdout(toStream(1));
  pyodide.setStderr(toStream(2));
  const boot = pyodide.globals.get("dict")();
  const bootFile = path.join(HERE, "boot.py");
  pyodide.runPython(fs.readFileSync(bootFile, "utf8"), { globals: boot, filename: bootFile });
  const wheels = installs.wheels.map((w) => path.join(options.release, w));
  const status = boot.get("main")(pyodide.toPy(options.python), pyodide.toPy(wheels), cwd);
  process.exitCode = status;
}

try {
  await main();
} catch (error) {  // Pyodide's own failure: its message, not pages of its compiled source
  process.stderr.write(`pyodide-run: ${error.message ?? error}\n`);
  process.exitCode = 1;
}
