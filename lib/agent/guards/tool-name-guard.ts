import "server-only";
import { distance } from "fastest-levenshtein";
import type { ToolDefinition } from "../../tools/define-tool";
import type { ToolSet } from "../tool-set";

/** Similarity at or above which an unknown tool name is corrected to the closest real one. */
export const TOOL_NAME_SIMILARITY_THRESHOLD = 0.8;

/** Outcome of resolving a tool name the model wrote. */
export type ToolNameResolution =
  | { ok: true; tool: ToolDefinition; correctedFrom?: string; similarity: number }
  | { ok: false; message: string };

/** Normalized Levenshtein similarity in [0, 1]: 1 − distance / longer length. */
export function nameSimilarity(a: string, b: string): number {
  const longest = Math.max(a.length, b.length);
  if (longest === 0) return 1;
  return 1 - distance(a, b) / longest;
}

/** Lower case with separators unified, so `getCurrentWeather` and `get-current-weather` compare fairly. */
function normalizeName(name: string): string {
  return name
    .trim()
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .replace(/[\s\-.]+/g, "_");
}

/**
 * Maps a possibly hallucinated tool name to a tool of the run. Exact names pass; otherwise the
 * most similar tool wins when its similarity reaches the threshold (the step records the
 * correction). Below the threshold the model gets an error that lists the real tools.
 */
export function resolveToolName(
  requested: string,
  tools: ToolSet,
  threshold = TOOL_NAME_SIMILARITY_THRESHOLD,
): ToolNameResolution {
  const exact = tools.get(requested);
  if (exact) return { ok: true, tool: exact, similarity: 1 };
  const normalizedRequest = normalizeName(requested);
  let bestName: string | undefined;
  let bestScore = 0;
  for (const name of tools.names) {
    const score = nameSimilarity(normalizedRequest, normalizeName(name));
    if (score > bestScore) {
      bestScore = score;
      bestName = name;
    }
  }
  if (bestName !== undefined && bestScore >= threshold) {
    return { ok: true, tool: tools.get(bestName)!, correctedFrom: requested, similarity: bestScore };
  }
  const available = tools.names.length > 0 ? tools.names.join(", ") : "(none)";
  return {
    ok: false,
    message: `Unknown tool "${requested}". The available tools are: ${available}. Call one of them by its exact name.`,
  };
}
