/** A model the server can run. */
export interface ModelOption {
  /** Provider id. */
  provider: string;
  /** Model id. */
  model: string;
  /** Display label. */
  label: string;
  /** True for the offline demo model. */
  isDemo: boolean;
  /** What the model can do (from its profile), when the server knows. */
  capabilities?: { toolCalls: boolean; jsonMode: boolean; contextWindow: number };
}

/** A tool from the registry. */
export interface ToolOption {
  /** Tool name. */
  name: string;
  /** What it does. */
  description: string;
  /** Whether it has no side effects. */
  readOnly: boolean;
  /** Where it comes from. */
  source: { kind: string; label: string };
}

const cache = new Map<string, Promise<unknown>>();

/** Fetches a catalog once per page; failures resolve to an empty list (the field falls back to text). */
export function fetchCatalog<T>(url: string): Promise<T[]> {
  let pending = cache.get(url);
  if (!pending) {
    pending = fetch(url)
      .then((response) => (response.ok ? response.json() : []))
      .then((body: unknown) => {
        if (Array.isArray(body)) return body;
        const values = typeof body === "object" && body !== null ? Object.values(body) : [];
        return values.find(Array.isArray) ?? [];
      })
      .catch(() => {
        cache.delete(url);
        return [];
      });
    cache.set(url, pending);
  }
  return pending as Promise<T[]>;
}
