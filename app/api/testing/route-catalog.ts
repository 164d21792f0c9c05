import {
  type Handler,
  listRouteFiles,
  loadRouteModule,
  type RouteFile,
  type RouteMethod,
  type RouteModule,
  servedMethods,
} from "./route-files";
import { ROUTE_TABLE, type RouteEntry } from "./route-table";

/** One (route, method) on disk, with its table entry when it has one. */
export interface CatalogEntry {
  key: string;
  route: RouteFile;
  method: RouteMethod;
  handler: Handler;
  entry: RouteEntry | undefined;
  module: RouteModule;
}

/** Every served (route, method) on disk, and the table keys that name nothing on disk. */
export async function routeCatalog(): Promise<{ entries: CatalogEntry[]; stale: string[] }> {
  const entries: CatalogEntry[] = [];
  for (const route of listRouteFiles()) {
    const module = await loadRouteModule(route);
    for (const method of await servedMethods(route, module)) {
      const key = `${method} ${route.path}`;
      entries.push({ key, route, method, handler: module[method] as Handler, entry: ROUTE_TABLE[key], module });
    }
  }
  const onDisk = new Set(entries.map((entry) => entry.key));
  return { entries, stale: Object.keys(ROUTE_TABLE).filter((key) => !onDisk.has(key)) };
}

/** Reads an answer's body as text, giving up after `milliseconds` (an event stream may stay open). */
export async function readBody(response: Response, milliseconds = 3000): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const deadline = Date.now() + milliseconds;
  for (;;) {
    const remaining = deadline - Date.now();
    if (remaining <= 0) break;
    let timer: NodeJS.Timeout | undefined;
    const chunk = await Promise.race([
      reader.read(),
      new Promise<null>((resolve) => {
        timer = setTimeout(() => resolve(null), remaining);
      }),
    ]);
    clearTimeout(timer);
    if (chunk === null || chunk.done) break;
    text += decoder.decode(chunk.value, { stream: true });
  }
  await reader.cancel().catch(() => undefined);
  return text;
}
