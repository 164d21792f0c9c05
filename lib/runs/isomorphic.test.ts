import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// lib/runs is imported by components (the browser bundle): it may import only itself and
// lib/workflow, the other isomorphic package (run comparison diffs the runs' workflows).
const folder = import.meta.dirname;
const modules = fs
  .readdirSync(folder)
  .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))
  .map((name) => ({ name, text: fs.readFileSync(path.join(folder, name), "utf8") }));

describe("lib/runs stays isomorphic", () => {
  it.each(modules.map((module) => [module.name, module.text] as const))(
    "%s imports only lib/runs and lib/workflow",
    (_name, text) => {
      const specifiers = [...text.matchAll(/\bfrom\s+"([^"]+)"|\bimport\s+"([^"]+)"/g)].map(
        (match) => match[1] ?? match[2],
      );
      expect(specifiers.filter((specifier) => !/^(\.\/|\.\.\/workflow\/)[a-z-]+$/.test(specifier))).toEqual([]);
    },
  );
});
