import { route } from "@/lib/http/route";
import { exportDataset } from "@/lib/services/datasets";
import { datasetPathSchema, datasetVersionQuerySchema } from "../../schema";

/** Downloads a dataset version as JSONL or CSV (`?format=`, `?version=`). */
export const GET = route(
  { auth: "session", params: datasetPathSchema, query: datasetVersionQuerySchema },
  async ({ principal, params, query }) => {
    const file = await exportDataset(principal, params.id, query.format, query.version);
    return new Response(file.text, {
      headers: {
        "content-type": query.format === "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson; charset=utf-8",
        "content-disposition": `attachment; filename="${file.fileName}"`,
      },
    });
  },
);
