import { route } from "@/lib/http/route";
import { compareEvaluations } from "@/lib/services/evaluation-queries";
import { compareQuerySchema } from "../schema";

/** Two evaluation runs side by side (`?base=&candidate=`). */
export const GET = route({ auth: "session", query: compareQuerySchema }, async ({ principal, query }) =>
  compareEvaluations(principal, query.base, query.candidate),
);
