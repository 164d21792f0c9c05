/** A JSON request to the app's API; throws the server's error message (naming the field) on failure. */
export async function requestJson<Type>(url: string, init?: { method?: string; body?: unknown }): Promise<Type> {
  const response = await fetch(url, {
    method: init?.method ?? "GET",
    headers: init?.body === undefined ? undefined : { "content-type": "application/json" },
    body: init?.body === undefined ? undefined : JSON.stringify(init.body),
  });
  if (response.status === 204) return undefined as Type;
  const body = (await response.json().catch(() => null)) as
    | (Type & {
        error?: { code: string; message: string; issues?: { line: number; field: string; message: string }[] };
      })
    | null;
  if (!response.ok) {
    const error = body?.error;
    const issues = error?.issues
      ?.slice(0, 5)
      .map((issue) => `${issue.line ? `line ${issue.line}, ` : ""}${issue.field}: ${issue.message}`);
    throw new Error(
      error
        ? `${error.message}${issues?.length ? ` — ${issues.join("; ")}` : ""}`
        : `Request failed (${response.status})`,
    );
  }
  return body as Type;
}

/** "67%" for a rate, "—" when unknown. */
export function formatRate(value: number | null | undefined): string {
  return value === null || value === undefined ? "—" : `${Math.round(value * 100)}%`;
}

/** "+12%" / "−5%" for a rate delta. */
export function formatRateDelta(value: number | null | undefined): string {
  if (value === null || value === undefined) return "—";
  const points = Math.round(value * 100);
  return points === 0 ? "±0%" : `${points > 0 ? "+" : "−"}${Math.abs(points)}%`;
}
