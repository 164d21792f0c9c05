import fs from "node:fs";
import path from "node:path";

/**
 * The route files under app/api, read from the file system at test time, so a route added on
 * disk shows up in every suite that walks them (isolation, fuzz, OpenAPI coverage) without
 * anyone registering it.
 */

/** Root of the API route tree. */
export const API_ROOT = path.resolve(__dirname, "..");

/** The methods a route file may export that carry requests (OPTIONS preflights are checked apart). */
export const ROUTE_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** One of {@link ROUTE_METHODS}. */
export type RouteMethod = (typeof ROUTE_METHODS)[number];

/** A route file. */
export interface RouteFile {
  /** Its URL path with Next's folder names kept, e.g. `/api/workflows/[id]/runs`. */
  path: string;
  /** The folder below app/api, e.g. `workflows/[id]/runs` (empty for app/api itself). */
  folder: string;
  /** Absolute file name. */
  file: string;
}

/** Every `route.ts` below `root` (default app/api), sorted by path. Folders starting with `_` are private. */
export function listRouteFiles(root = API_ROOT, prefix = "/api"): RouteFile[] {
  const found: RouteFile[] = [];
  const walk = (directory: string) => {
    for (const entry of fs.readdirSync(directory, { withFileTypes: true })) {
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) {
        if (!entry.name.startsWith("_")) walk(full);
      } else if (entry.name === "route.ts") {
        const folder = path.relative(root, directory).split(path.sep).filter(Boolean).join("/");
        found.push({ path: folder ? `${prefix}/${folder}` : prefix, folder, file: full });
      }
    }
  };
  walk(root);
  return found.sort((left, right) => left.path.localeCompare(right.path));
}

/** A route module's exports. */
export type RouteModule = Record<string, unknown>;

/** A route handler as Next calls it. */
export type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

/** Imports a route file. */
export async function loadRouteModule(route: RouteFile): Promise<RouteModule> {
  return (await import(/* @vite-ignore */ route.file)) as RouteModule;
}

/** The `[name]` and `[...name]` parameters of a route path, in order. */
export function pathParameterNames(routePath: string): string[] {
  return [...routePath.matchAll(/\[(?:\.\.\.)?([^\]]+)\]/g)].map((match) => match[1] as string);
}

/**
 * The methods a route file really serves: exported, and not the JSON 405 of `methodNotAllowed`
 * (the /api/v1 files export every method so a wrong one answers 405; those are covered by
 * app/api/v1/method-not-allowed.test.ts).
 */
export async function servedMethods(route: RouteFile, module: RouteModule): Promise<RouteMethod[]> {
  const served: RouteMethod[] = [];
  const params = Object.fromEntries(pathParameterNames(route.path).map((name) => [name, "x"]));
  for (const method of ROUTE_METHODS) {
    const handler = module[method] as Handler | undefined;
    if (typeof handler !== "function") continue;
    const response = await handler(new Request(`http://localhost${route.path}`, { method }), {
      params: Promise.resolve(params),
    });
    if (response.status === 405) {
      const body = (await response
        .clone()
        .json()
        .catch(() => null)) as { error?: { code?: string } } | null;
      if (body?.error?.code === "method_not_allowed") continue;
    }
    served.push(method);
  }
  return served;
}
