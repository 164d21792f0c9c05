/**
 * `npm run lint:layers`: checks the layer rules in .dependency-cruiser.cjs (ARCHITECTURE.md,
 * "Layers and import rules") over the whole source tree and lists every violation by rule.
 *
 *   tsx scripts/check-layers.ts [--root <folder>] [--json]
 *
 * `--root` checks another tree with the same rules (scripts/check-layers.test.ts points it at a
 * fixture tree); `--json` prints `{ modulesCruised, violations: [{ rule, from, to }] }` instead of the
 * report. Exit code: 0 when every rule holds, 1 when a rule is broken, 2 when the check itself
 * could not run.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const repositoryRoot = path.resolve(import.meta.dirname, "..");
const configPath = path.join(repositoryRoot, ".dependency-cruiser.cjs");
const cruiserBin = path.join(repositoryRoot, "node_modules/dependency-cruiser/bin/dependency-cruise.mjs");

/** Folders and top-level files checked (those that exist under the root). */
const TARGET_FOLDERS = ["app", "components", "lib", "scripts", "bench", "e2e", "prisma"];
const TOP_LEVEL_FILE = /^[^.].*\.(ts|tsx|js|mjs)$/;

/** One broken rule at one place. `to` equals `from` for the "required" (module) rules. */
export interface LayerViolation {
  rule: string;
  from: string;
  to: string;
}

interface RuleDescription {
  name: string;
  comment?: string;
}

interface CruiseOutput {
  summary: {
    totalCruised: number;
    violations: { from: string; to: string; rule: { name: string } }[];
  };
}

function parseArguments(argv: string[]): { root: string; json: boolean } {
  let root = repositoryRoot;
  let json = false;
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index];
    if (argument === "--json") json = true;
    else if (argument === "--root" && argv[index + 1]) root = path.resolve(argv[++index]);
    else throw new Error(`check-layers: unknown argument "${argument}" (use --root <folder> and --json)`);
  }
  return { root, json };
}

function targetsIn(root: string): string[] {
  const folders = TARGET_FOLDERS.filter((folder) => fs.existsSync(path.join(root, folder)));
  const files = fs
    .readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isFile() && TOP_LEVEL_FILE.test(entry.name) && !entry.name.endsWith(".d.ts"))
    .map((entry) => entry.name);
  return [...folders, ...files];
}

function ruleDescriptions(): RuleDescription[] {
  const config = createRequire(import.meta.url)(configPath) as {
    forbidden?: RuleDescription[];
    required?: RuleDescription[];
  };
  return [...(config.forbidden ?? []), ...(config.required ?? [])];
}

function cruise(root: string): { modulesCruised: number; violations: LayerViolation[] } {
  const result = spawnSync(
    process.execPath,
    [cruiserBin, "--config", configPath, "--output-type", "json", "--no-progress", ...targetsIn(root)],
    { cwd: root, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 },
  );
  let output: CruiseOutput;
  try {
    output = JSON.parse(result.stdout) as CruiseOutput;
  } catch {
    throw new Error(`dependency-cruiser did not answer with a report (exit ${result.status}):\n${result.stderr}`);
  }
  const violations = output.summary.violations.map(({ rule, from, to }) => ({ rule: rule.name, from, to }));
  return { modulesCruised: output.summary.totalCruised, violations };
}

function report(root: string, modulesCruised: number, violations: LayerViolation[]): string {
  const lines: string[] = [];
  const byRule = new Map<string, LayerViolation[]>();
  for (const violation of violations) byRule.set(violation.rule, [...(byRule.get(violation.rule) ?? []), violation]);
  for (const rule of ruleDescriptions()) {
    const broken = byRule.get(rule.name) ?? [];
    if (broken.length === 0) {
      lines.push(`ok   ${rule.name}`);
      continue;
    }
    if (lines.length > 0 && lines.at(-1) !== "") lines.push("");
    lines.push(`FAIL ${rule.name}: ${broken.length} violation${broken.length === 1 ? "" : "s"}`);
    if (rule.comment) lines.push(`     ${rule.comment}`);
    for (const violation of broken) {
      lines.push(
        violation.from === violation.to ? `     ${violation.from}` : `     ${violation.from} → ${violation.to}`,
      );
    }
    lines.push("");
  }
  const where = path.relative(repositoryRoot, root) || ".";
  const brokenRules = byRule.size;
  lines.push(
    brokenRules === 0
      ? `Layer rules hold (${modulesCruised} modules checked in ${where}).`
      : `Layer rules: ${brokenRules} rule${brokenRules === 1 ? "" : "s"} broken, ${violations.length} violation${violations.length === 1 ? "" : "s"} (${modulesCruised} modules checked in ${where}).`,
  );
  return lines.join("\n");
}

function main(): void {
  let options: ReturnType<typeof parseArguments>;
  let outcome: ReturnType<typeof cruise>;
  try {
    options = parseArguments(process.argv.slice(2));
    outcome = cruise(options.root);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  }
  process.stdout.write(
    options.json
      ? `${JSON.stringify(outcome)}\n`
      : `${report(options.root, outcome.modulesCruised, outcome.violations)}\n`,
  );
  process.exit(outcome.violations.length === 0 ? 0 : 1);
}

main();
