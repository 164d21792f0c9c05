/**
 * Loads bench/engine-entry.ts for bench/engine.ts. `npm run bench:engine` runs under tsx, and
 * tsx compiles with esbuild's `keepNames`, which wraps every function and closure the engine
 * creates in a `__name(fn, "...")` call (an `Object.defineProperty` per closure, several per
 * node). Production builds do no such thing, so the engine is bundled here with esbuild without
 * keepNames and imported from the bundle. When esbuild cannot be loaded (it comes with tsx), the
 * tsx-compiled modules are used and the result says so (`engine_build`); `BENCH_ENGINE_BUILD=tsx`
 * forces that, to compare with results from before the bundling.
 */
import { rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** The measured modules. */
export type EngineBenchModule = typeof import("./engine-entry");

/** The measured modules and how they were compiled. */
export interface LoadedEngine {
  /** The engine and its test helpers. */
  engine: EngineBenchModule;
  /** `esbuild` (bundled, production-like) or `tsx` (fallback). */
  build: "esbuild" | "tsx";
}

const here = path.dirname(fileURLToPath(import.meta.url));

/** Bundles the engine (dependencies stay external) into node_modules/.cache and imports it. */
export async function loadEngine(): Promise<LoadedEngine> {
  // BENCH_ENGINE_BUILD=tsx measures the tsx-compiled modules (to compare with older results).
  if (process.env.BENCH_ENGINE_BUILD === "tsx") return { engine: await import("./engine-entry"), build: "tsx" };
  try {
    const esbuild = await import("esbuild");
    // Inside the repository, so the bundle's external imports (zod, ajv, ...) resolve.
    const outfile = path.join(here, "..", "node_modules", ".cache", "trellis-bench", `engine-${process.pid}.mjs`);
    await esbuild.build({
      entryPoints: [path.join(here, "engine-entry.ts")],
      outfile,
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      packages: "external",
      conditions: ["react-server"],
      keepNames: false,
      logLevel: "silent",
    });
    const engine = (await import(pathToFileURL(outfile).href)) as EngineBenchModule;
    rmSync(outfile, { force: true });
    return { engine, build: "esbuild" };
  } catch (error) {
    process.stderr.write(
      `engine bundle unavailable, measuring tsx-compiled code: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    return { engine: await import("./engine-entry"), build: "tsx" };
  }
}
