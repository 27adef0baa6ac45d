// Run the I/O board firmware under real MicroPython: the WebAssembly port of MicroPython
// 1.27 (the npm package pinned in package.json), under node.
//
//   node run.mjs [--fuzz-frames N] [--seed S]
//
// Copies firmware/*.py, the MicroPython shims for machine and neopixel (shims/) and the
// checks (harness.py) into MicroPython's in-memory file system, with the shared protocol
// vectors, and runs the checks. They print one JSON line per check ({"check", "ok",
// "detail"}) and a summary line; the exit status is 1 if any check failed.
// tests/firmware/test_fw_wasm.py drives this; no network is used.

import { readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, "..", "..", "..");
const firmware = join(repo, "firmware");

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
};

let output = "";
const mp = await loadMicroPython({
  heapsize: 8 * 1024 * 1024,
  stdout: (line) => {
    output += line + "\n";
    process.stdout.write(line + "\n");
  },
  stderr: (line) => process.stderr.write(line + "\n"),
});

mp.FS.mkdir("/fw");
for (const name of readdirSync(firmware)) {
  if (name.endsWith(".py") && name !== "__init__.py" && name !== "main.py") {
    mp.FS.writeFile(join("/fw", name), readFileSync(join(firmware, name)));
  }
}
for (const name of readdirSync(join(here, "shims"))) {
  mp.FS.writeFile(join("/fw", name), readFileSync(join(here, "shims", name)));
}
mp.FS.writeFile("/fw/harness.py", readFileSync(join(here, "harness.py")));
mp.FS.writeFile("/fw/protocol_vectors.json", readFileSync(join(firmware, "protocol_vectors.json")));

const fuzzFrames = parseInt(option("--fuzz-frames", "20000"), 10);
const seed = parseInt(option("--seed", "20261122"), 10);
try {
  mp.runPython(
    `import sys\nsys.path.insert(0, "/fw")\nimport harness\nharness.main(${fuzzFrames}, ${seed})\n`,
  );
} catch (error) {
  process.stderr.write(`MicroPython raised: ${error.message}\n`);
  process.exit(2);
}
const failed = output.split("\n").some((line) => line.includes('"ok": false'));
process.exit(failed ? 1 : 0);
