import { retentionSettingsSchema } from "@/lib/contracts/retention";
import { route } from "@/lib/http/route";
import { getRetention, saveRetention } from "@/lib/services/retention";

/** The workspace's run-history retention and what the last prune did. */
export const GET = route({ auth: "session" }, async ({ principal }) => getRetention(principal));

/** Changes the retention (admins and owners); answers the saved settings. */
export const PUT = route({ auth: "session", body: retentionSettingsSchema }, async ({ principal, body }) =>
  saveRetention(principal, body),
);
