import "server-only";
import { type AttemptTimeouts, forwardingModel, type LanguageModel, type ModelRequest } from "./language-model";

/**
 * A model whose calls carry `timeouts` as their per-attempt bounds (a node's `modelTimeouts`),
 * unless the request sets its own. Only defined values are applied: spreading an `undefined`
 * would erase the provider's bound instead of keeping it.
 */
export function withAttemptTimeouts(model: LanguageModel, timeouts: AttemptTimeouts | undefined): LanguageModel {
  const bounds = definedOnly(timeouts);
  if (!bounds) return model;
  const withBounds = (request: ModelRequest): ModelRequest => ({
    ...request,
    attemptTimeouts: { ...bounds, ...definedOnly(request.attemptTimeouts) },
  });
  return forwardingModel(model, {
    generate: (request) => model.generate(withBounds(request)),
    stream: (request) => model.stream(withBounds(request)),
  });
}

function definedOnly(timeouts: AttemptTimeouts | undefined): AttemptTimeouts | undefined {
  if (!timeouts) return undefined;
  const bounds: AttemptTimeouts = {};
  if (timeouts.firstByteMs !== undefined) bounds.firstByteMs = timeouts.firstByteMs;
  if (timeouts.totalMs !== undefined) bounds.totalMs = timeouts.totalMs;
  return Object.keys(bounds).length > 0 ? bounds : undefined;
}
