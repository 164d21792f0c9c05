/**
 * Demo mode: no real model provider is configured, so the offline demo model answers and the
 * example workflows' web APIs (weather, currency, tickets) go to the local demo stub. It is
 * never on when OPENAI_API_KEY or OPENAI_BASE_URL is set, unless TRELLIS_DEMO_MODEL=on forces it.
 */
export function isDemoMode(environment: Record<string, string | undefined> = process.env): boolean {
  const setting = environment.TRELLIS_DEMO_MODEL ?? "auto";
  if (setting === "off") return false;
  if (setting === "on") return true;
  return !environment.OPENAI_API_KEY && !environment.OPENAI_BASE_URL;
}
