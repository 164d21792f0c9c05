import { TrellisError } from "../workflow/errors";

/** Largest import accepted, in characters (Dify's own DSL limit is 10 MB too). */
export const MAX_IMPORT_CHARACTERS = 10 * 1024 * 1024;

/**
 * A file that cannot be imported at all, with the place it went wrong. Code `invalid_import`
 * (the API answers 422), or `import_too_large` (413). Node-level problems are not errors: they
 * become placeholders in the report.
 */
export class ImportFileError extends TrellisError {
  /** Dotted path into the file, e.g. `workflow.graph.nodes.3.data.type`; `(file)` for the whole file. */
  readonly path: string;
  /** Sent beside the error: the request field at fault and where in the file. */
  readonly details: { field: string; path: string };

  constructor(code: "invalid_import" | "import_too_large", path: string, message: string) {
    super(code, `${path}: ${message}`);
    this.path = path;
    this.details = { field: "content", path };
  }
}

/** Formats a zod/yaml path such as `["workflow", "graph", "nodes", 3]` as `workflow.graph.nodes.3`. */
export function formatPath(path: readonly PropertyKey[]): string {
  return path.length === 0 ? "(root)" : path.map((segment) => String(segment)).join(".");
}
