/** Types of scripts/direct-routes.mjs (plain JavaScript: `npm start` runs it with Node, no loader). */
import type { IncomingMessage, ServerResponse } from "node:http";

/** Path prefixes answered directly: the published API and the health check. */
export declare const DIRECT_PREFIXES: string[];

/** A built route answered directly. */
export interface DirectRoute {
  /** The route's page, e.g. `/api/v1/workflows/[slug]/run`. */
  page: string;
  /** Next's regex for it (from the routes manifest). */
  regex: RegExp;
  /** The names of its dynamic segments, in order. */
  keys: string[];
  /** The built module's path. */
  file: string;
}

/** A build's `routes-manifest.json` (Next's routes, in its matching order, and the `headers()` rules). */
export declare function readRoutesManifest(distDir: string): unknown;

/** The routes to answer directly, in Next's matching order, from a build's manifests. */
export declare function loadDirectRoutes(distDir: string, prefixes?: string[], manifest?: unknown): DirectRoute[];

/** The route and its raw path parameters for a path, or null. */
export declare function matchDirectRoute(
  routes: DirectRoute[],
  pathname: string,
): { route: DirectRoute; params: Record<string, string> } | null;

/** The headers next.config's `headers()` adds to a path. */
export declare function loadConfigHeaders(
  distDir: string,
  manifest?: unknown,
): (pathname: string) => Array<[string, string]>;

/** A request listener step: true when it answers the request, false when it is Next's. */
export declare function createDirectRoutes(options: {
  distDir: string;
  log?: (message: string) => void;
}): (request: IncomingMessage, response: ServerResponse, fallback: () => void) => boolean;
