import "server-only";
import { type CompileResult, compileWorkflow } from "../workflow/compile";
import { builtInTools } from "./built-in-tools";

let builtInNames: string[] | undefined;
/** The built-in tools' names (every workspace has them). */
export function builtInToolNames(): string[] {
  builtInNames ??= builtInTools().map((tool) => tool.name);
  return builtInNames;
}

/** Compiled published versions kept per process (a version is a few kB compiled). */
export const MAX_COMPILED_VERSIONS = 500;

// One cache per process (route handlers and instrumentation are bundled apart: share it on globalThis).
const CACHE_KEY = Symbol.for("trellis.compiled-versions");
const holder = globalThis as unknown as Record<symbol, Map<string, CompileResult | null> | undefined>;
/** Version id → its compile against the built-ins; null when that failed (it needs the workspace's tools). */
function cache(): Map<string, CompileResult | null> {
  holder[CACHE_KEY] ??= new Map();
  return holder[CACHE_KEY];
}

/**
 * The compile of a published version's document, when it names no tool beyond the built-ins;
 * undefined otherwise (the caller compiles against the workspace's tools, which can change).
 * A version's document never changes, so its compile is kept by version id (least recently used
 * dropped past MAX_COMPILED_VERSIONS): per run, compiling was about a millisecond of CPU.
 * Callers must treat the compiled workflow as read-only (the engine does).
 */
export function compiledVersion(versionId: string, document: unknown): CompileResult | undefined {
  const entries = cache();
  const cached = entries.get(versionId);
  if (cached !== undefined) {
    entries.delete(versionId);
    entries.set(versionId, cached);
    return cached ?? undefined;
  }
  const compiled = compileWorkflow(document, { knownToolNames: builtInToolNames() });
  entries.set(versionId, compiled.ok ? compiled : null);
  if (entries.size > MAX_COMPILED_VERSIONS) entries.delete(entries.keys().next().value as string);
  return compiled.ok ? compiled : undefined;
}
