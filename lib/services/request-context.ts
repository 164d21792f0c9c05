import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";

/** What the service layer may know about the request that caused a call (never its body). */
export interface RequestContext {
  /** The client address as lib/http/client-address.ts decides it. */
  clientAddress: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

/**
 * Runs `work` with the request's context. The route wrapper calls it, so services (the audit log)
 * learn where a change came from without every signature carrying the address.
 */
export function runWithRequestContext<T>(context: RequestContext, work: () => T): T {
  return storage.run(context, work);
}

/** The context of the request being served, or undefined (scheduler, start-up, tests). */
export function currentRequestContext(): RequestContext | undefined {
  return storage.getStore();
}
