import "server-only";
import { z } from "zod";
import {
  cancelRun,
  getNodeRunDetail,
  getPublicRun,
  getRunDetailPage,
  openRunEvents,
  publicRunResult,
  resumeRun,
} from "../services/runs";
import { json, route } from "./route";
import { runEventStream } from "./sse";

/** Path of `/api/runs/:runId/**` and `/api/v1/runs/:runId/**`. */
export const runPathSchema = z.object({ runId: z.string().min(1).max(200) });

/** Body of a resume call: the answer to the waiting human-input node. */
export const resumeRunBodySchema = z.object({
  nodeId: z.string().min(1),
  answer: z.record(z.string(), z.unknown()),
});

/*
 * The run operations shared by the session API (`/api/runs/*`, the editor and history pages) and
 * the published API (`/api/v1/runs/*`, API keys): one handler each; the route files only mount them.
 * A request with `Authorization: Bearer` acts as its API key, anything else as the session.
 */

/** Query of the run detail: which page of node runs, and the inline size of their values. */
export const runDetailQuerySchema = z.object({
  nodeRunsAfter: z.string().min(1).max(500).optional(),
  nodeRunsLimit: z.coerce.number().int().min(1).max(5_000).optional(),
  maxValueBytes: z.coerce
    .number()
    .int()
    .min(1_024)
    .max(16 * 1024 * 1024)
    .optional(),
});

/**
 * `GET /api/runs/:runId` for the session API: the run with a page of node attempts for the
 * inspector (`nodeRunsPage.nextCursor` → `?nodeRunsAfter=`); values over `maxValueBytes` (256 KiB
 * by default) come as references to `GET /api/runs/:runId/node-runs/:nodeRunId`.
 */
export const getRunDetailRoute = route(
  { auth: "session", params: runPathSchema, query: runDetailQuerySchema },
  async ({ principal, params, query }) =>
    getRunDetailPage(principal, params.runId, {
      after: query.nodeRunsAfter,
      limit: query.nodeRunsLimit,
      maxValueBytes: query.maxValueBytes,
    }),
);

/** `GET /api/runs/:runId/node-runs/:nodeRunId`: one node attempt, whole. */
export const getNodeRunRoute = route(
  { auth: "session", params: runPathSchema.extend({ nodeRunId: z.string().min(1).max(500) }) },
  async ({ principal, params }) => getNodeRunDetail(principal, params.runId, params.nodeRunId),
);

/** `GET /api/v1/runs/:runId`: status, outputs, usage, and the question while it waits for input. */
export const getPublicRunRoute = route({ auth: "api-key", params: runPathSchema }, async ({ principal, params }) =>
  getPublicRun(principal, params.runId),
);

/** `POST …/cancel`: cancels a queued, running or waiting run; answers with the run as it ended. */
export const cancelRunRoute = route(
  { auth: "session-or-api-key", params: runPathSchema },
  async ({ principal, params }) => {
    await cancelRun(principal, params.runId);
    return { ok: true, ...(await publicRunResult(params.runId)) };
  },
);

/** `POST …/resume`: answers the waiting human-input node; the run continues in the background. */
export const resumeRunRoute = route(
  { auth: "session-or-api-key", params: runPathSchema, body: resumeRunBodySchema },
  async ({ principal, params, body }) => {
    await resumeRun(principal, params.runId, body.nodeId, body.answer);
    return json({ ok: true, runId: params.runId, status: "running" }, 202);
  },
);

/** `GET …/events`: SSE, replaying persisted events after `after` (or Last-Event-ID), then live ones until run-end. */
export const runEventsRoute = route(
  { auth: "session-or-api-key", params: runPathSchema },
  async ({ request, principal, params }) => {
    const source = await openRunEvents(principal, params.runId);
    const url = new URL(request.url);
    const after = Number(url.searchParams.get("after") ?? request.headers.get("last-event-id") ?? 0) || 0;
    return runEventStream(source, params.runId, after, request.signal);
  },
);
