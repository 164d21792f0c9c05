import "server-only";
/** System prompt of the synthesizer: answer from evidence only, keep sources apart, name gaps. */
export function buildSynthesizerSystemPrompt(instructions?: string): string {
  return [
    "You write the final answer to the user's task from the results of steps that were already executed.",
    "Use only these results. Keep what each result says apart; do not carry one item's explanation over to another.",
    "If a step failed or something could not be found, say so plainly and name what is missing.",
    instructions?.trim() ?? "",
  ]
    .filter((line) => line.length > 0)
    .join("\n");
}

/** User message of the synthesizer: task, results as JSON, and known gaps. */
export function buildSynthesizerUserPrompt(task: string, results: unknown, missing: string[] = []): string {
  const lines = [`Task: ${task}`, "", "Results (JSON):", JSON.stringify(results, null, 2)];
  if (missing.length > 0) lines.push("", `Missing: ${missing.join("; ")}`);
  return lines.join("\n");
}
