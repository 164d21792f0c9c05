import { route } from "@/lib/http/route";
import { isDemoMode } from "@/lib/services/demo-mode";
import { listModels } from "@/lib/services/workspace-settings";

export const dynamic = "force-dynamic";

/** Models for the model picker, and whether the server runs in demo mode. */
export const GET = route({ auth: "session" }, async ({ principal }) => ({
  models: await listModels(principal),
  demoMode: isDemoMode(),
}));
