import { json, route } from "@/lib/http/route";
import { addRunToDataset } from "@/lib/services/datasets";
import { fromRunBodySchema } from "../schema";

/** "Add to dataset": a run's inputs (and optionally its output as the expected one) become a case. */
export const POST = route({ auth: "session", body: fromRunBodySchema }, async ({ principal, body }) =>
  json(await addRunToDataset(principal, body), 201),
);
