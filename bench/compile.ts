/**
 * Compiler and template benchmark: prints ONE JSON line.
 *
 *   compile_chain_10000_cpu_ms      compiling a 10,000-node template chain (target ≤ 1,000)
 *   compile_fan_in_2000_cpu_ms      compiling a 2,000-node fan-in, many paths into every node (target ≤ 1,000)
 *   render_10000_templates_cpu_ms   rendering one parsed template 10,000 times (target ≤ 200)
 *   within_targets                  whether all three are within their targets
 *
 * Each figure is this process's CPU time (process.cpuUsage, so a loaded neighbour does not count,
 * though V8's own helper threads do), the minimum of `BENCH_COMPILE_ROUNDS` (default 5) rounds
 * after one warm-up. The documents are the scale test's (lib/workflow/testing/large-documents.ts),
 * which checks what they compile to; how fast is this benchmark's to say, not a unit test's.
 */
import os from "node:os";
import { compileWorkflow } from "../lib/workflow/compile";
import { chainDocument, fanInDocument } from "../lib/workflow/testing/large-documents";
import { renderTemplate } from "../lib/workflow/variables";
import { runBench } from "./support";

const ROUNDS = Number(process.env.BENCH_COMPILE_ROUNDS ?? 5);

/** The least CPU milliseconds `work` took over the rounds (after one warm-up). */
function minCpuMs(work: () => void): number {
  work();
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < ROUNDS; round++) {
    const before = process.cpuUsage();
    work();
    const used = process.cpuUsage(before);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return Math.round(best * 10) / 10;
}

function mustCompile(document: ReturnType<typeof chainDocument>): void {
  const result = compileWorkflow(document);
  if (!result.ok) throw new Error(`the benchmark document does not compile: ${JSON.stringify(result.issues[0])}`);
}

async function main(): Promise<void> {
  const chain = chainDocument(10_000);
  const fanIn = fanInDocument(2000);
  const scope = { item: { tool: "search", input: { q: "cats" } }, llm1: { text: "hi" }, index: 0 };
  const template = "Item {{index}}: {{item.tool}} with {{item.input.q}} after {{llm1.text}}";
  const figures = {
    compile_chain_10000_cpu_ms: minCpuMs(() => mustCompile(chain)),
    compile_fan_in_2000_cpu_ms: minCpuMs(() => mustCompile(fanIn)),
    render_10000_templates_cpu_ms: minCpuMs(() => {
      for (let round = 0; round < 10_000; round++) renderTemplate(template, { ...scope, index: round });
    }),
  };
  console.log(
    JSON.stringify({
      bench: "compile",
      node: process.version,
      rounds: ROUNDS,
      ...figures,
      targets: {
        compile_chain_10000_cpu_ms: 1000,
        compile_fan_in_2000_cpu_ms: 1000,
        render_10000_templates_cpu_ms: 200,
      },
      within_targets:
        figures.compile_chain_10000_cpu_ms <= 1000 &&
        figures.compile_fan_in_2000_cpu_ms <= 1000 &&
        figures.render_10000_templates_cpu_ms <= 200,
      load_average_1m: os.loadavg()[0],
    }),
  );
}

runBench(main);
