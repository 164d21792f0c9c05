import { z } from "zod";
import { route } from "@/lib/http/route";
import { runPathSchema } from "@/lib/http/run-routes";
import { exportRun, RUN_EXPORT_FORMATS } from "@/lib/services/run-export";

const querySchema = z.object({ format: z.enum(RUN_EXPORT_FORMATS).default("json") });

/** The run as a JSON or JSONL download (`?format=`), secrets masked. */
export const GET = route(
  { auth: "session", params: runPathSchema, query: querySchema },
  async ({ principal, params, query }) => {
    const exported = await exportRun(principal, params.runId, query.format);
    return new Response(exported.body, {
      headers: {
        "content-type": `${exported.contentType}; charset=utf-8`,
        "content-disposition": `attachment; filename="${exported.fileName}"`,
        "cache-control": "no-store",
      },
    });
  },
);
