import "server-only";

export { ContextOverflowError } from "./context-overflow-error";
export { ModelAuthError } from "./model-auth-error";
export { ModelBadResponseError } from "./model-bad-response-error";
export { ModelCancelledError } from "./model-cancelled-error";
export { isModelError, ModelError, type ModelErrorOptions } from "./model-error";
export { ModelNetworkError } from "./model-network-error";
export { ModelNotConfiguredError } from "./model-not-configured-error";
export { ModelQuotaExceededError } from "./model-quota-exceeded-error";
export { ModelRateLimitedError } from "./model-rate-limited-error";
export { ModelRequestRejectedError } from "./model-request-rejected-error";
export { ModelServerError } from "./model-server-error";
export { ModelStreamTruncatedError } from "./model-stream-truncated-error";
export { ModelTimeoutError } from "./model-timeout-error";
