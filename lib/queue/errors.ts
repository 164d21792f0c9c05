import "server-only";
import { TrellisError } from "../workflow/errors";

/** Redis (the run queue) does not answer: the API says so at once (503) instead of hanging. */
export class QueueUnavailableError extends TrellisError {
  constructor(detail: string) {
    super("queue_unavailable", `The run queue (Redis) is unavailable: ${detail}`, {
      hint: "Check that Redis is running and REDIS_URL points at it; retry shortly.",
    });
  }
}
