import "server-only";
import { z } from "zod";
import { defineTool, type ToolDefinition, toolOutput } from "../define-tool";
import { configuredUrl, fetchJson } from "../http/fetch-json";
import type { HttpToolOptions } from "../http/http-tool-options";

/** Environment variable with the demo ticket/meeting-notes API base, e.g. `http://127.0.0.1:4020/demo`. */
export const DEMO_API_URL_ENV = "TRELLIS_DEMO_API_URL";
/** Where the demo stub serves that API when started with its default port. */
export const DEFAULT_DEMO_API_URL = "http://127.0.0.1:4020/demo";

/** Options for the demo ticket tools. */
export interface DemoTicketToolOptions extends HttpToolOptions {
  /** API base; `TRELLIS_DEMO_API_URL` or {@link DEFAULT_DEMO_API_URL}. */
  baseUrl?: string;
}

function endpoint(options: DemoTicketToolOptions, path: string): { url: URL; configured: string } {
  // The default also points at the local stub, so it is always treated as operator-configured:
  // the demo API exists only on the stub.
  const configured = configuredUrl(options.baseUrl, DEMO_API_URL_ENV) ?? DEFAULT_DEMO_API_URL;
  return { url: new URL(`${configured.replace(/\/+$/, "")}${path}`), configured };
}

/** `search_tickets({ project_id, status?, cursor?, page_size? })` over the demo ticket API. Read-only, paginated. */
export function createSearchTicketsTool(options: DemoTicketToolOptions = {}): ToolDefinition {
  return defineTool({
    name: "search_tickets",
    description:
      "Search project tickets by project ID and status. Results are paginated: pass next_cursor back as cursor to get more.",
    parameters: z.object({
      project_id: z.string().min(1).describe("Exact project ID, e.g. PX"),
      status: z.enum(["open", "blocked", "closed"]).optional().describe("Only tickets with this status"),
      cursor: z.string().optional().describe("next_cursor from the previous page"),
      page_size: z.number().int().min(1).max(50).optional().describe("Tickets per page (2 by default)"),
    }),
    readOnly: true,
    timeoutMs: 15_000,
    execute: async (args, context) => {
      const { url, configured } = endpoint(options, "/tickets/search");
      url.searchParams.set("project_id", args.project_id);
      if (args.status) url.searchParams.set("status", args.status);
      if (args.cursor) url.searchParams.set("cursor", args.cursor);
      if (args.page_size) url.searchParams.set("page_size", String(args.page_size));
      const answer = await fetchJson(url, { ...options, signal: context.signal, configuredBaseUrl: configured });
      return toolOutput(answer.data, { source: answer.url });
    },
  });
}

/** `search_meeting_notes({ ticket_ids, query? })`: notes per ticket; empty lists show gaps. Read-only. */
export function createSearchMeetingNotesTool(options: DemoTicketToolOptions = {}): ToolDefinition {
  return defineTool({
    name: "search_meeting_notes",
    description:
      "Search meeting notes that mention the given ticket IDs. Returns one entry per ticket; an empty notes list means nothing was found in the searched collection.",
    parameters: z.object({
      ticket_ids: z.array(z.string().min(1)).min(1).max(20).describe('Ticket IDs, e.g. ["PX-17"]'),
      query: z.string().optional().describe("Optional words the excerpt must contain"),
    }),
    readOnly: true,
    timeoutMs: 15_000,
    execute: async (args, context) => {
      const { url, configured } = endpoint(options, "/meeting-notes/search");
      url.searchParams.set("ticket_ids", args.ticket_ids.join(","));
      if (args.query) url.searchParams.set("query", args.query);
      const answer = await fetchJson(url, { ...options, signal: context.signal, configuredBaseUrl: configured });
      return toolOutput(answer.data, { source: answer.url });
    },
  });
}
