import "server-only";
import { canonicalJson } from "../../workflow/canonical-json";

export { canonicalJson };

/**
 * Counts identical calls (tool name + canonical arguments). A call beyond `maxIdentical` is refused
 * with "repeat limit reached": it allows one retry of a read-only lookup but stops a stuck loop.
 */
export class RepeatGuard {
  private readonly counts = new Map<string, number>();

  constructor(private readonly maxIdentical: number) {}

  /** Registers the call and returns false when it is over the limit (the call must not run). */
  admit(toolName: string, args: unknown): boolean {
    const key = `${toolName}\u0000${canonicalJson(args)}`;
    const seen = this.counts.get(key) ?? 0;
    if (seen >= this.maxIdentical) return false;
    this.counts.set(key, seen + 1);
    return true;
  }
}
