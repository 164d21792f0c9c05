import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const FIXTURES = join(import.meta.dirname, "..", "fixtures");

/** Every fixture file name (tests only: reads the disk). */
export function fixtureNames(): string[] {
  return readdirSync(FIXTURES)
    .filter((name) => name.endsWith(".yml"))
    .sort();
}

/** A fixture's text. */
export function readFixture(name: string): string {
  return readFileSync(join(FIXTURES, name), "utf8");
}
