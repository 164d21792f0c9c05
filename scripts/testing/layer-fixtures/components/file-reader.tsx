// Breaks components-no-node-builtins.
import fs from "node:fs";

export const read = fs.readFileSync;
