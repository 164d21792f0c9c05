import "server-only";
import http from "node:http";
import type { AddressInfo } from "node:net";
import {
  DEMO_CITIES,
  DEMO_DATE,
  DEMO_MEETING_NOTES,
  DEMO_RATES_PER_EUR,
  DEMO_TICKETS,
  type DemoCity,
} from "./fixtures";

/** Port the demo stub listens on unless told otherwise (the CLI and app startup read `TRELLIS_DEMO_API_PORT`). */
export const DEFAULT_DEMO_STUB_PORT = 4020;

/** Options for {@link startDemoApiStub}. */
export interface DemoApiStubOptions {
  /** 0 picks a free port; {@link DEFAULT_DEMO_STUB_PORT} by default. */
  port?: number;
  /** Interface to bind; loopback by default so the stub is never exposed. */
  host?: string;
}

/** A running demo stub. */
export interface DemoApiStub {
  /** e.g. `http://127.0.0.1:4020` */
  origin: string;
  /** Bound port. */
  port: number;
  /** Environment variables that point every demo tool at this stub. */
  environment: Record<string, string>;
  /** The next request whose path starts with `pathPrefix` answers `status` (503 by default) once. */
  failNext(pathPrefix: string, status?: number): void;
  /**
   * Requests whose path starts with `pathPrefix` answer `ms` later, until set again (0 clears).
   * Lets a test keep work in flight long enough to act on it (e.g. cancel a running evaluation).
   */
  setDelay(pathPrefix: string, ms: number): void;
  /** Stops the server. */
  close(): Promise<void>;
}

type JsonHandler = (url: URL) => { status: number; body: unknown };

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

function findCityByCoordinates(latitude: number, longitude: number): DemoCity | undefined {
  return DEMO_CITIES.find(
    (city) => Math.abs(city.latitude - latitude) < 0.01 && Math.abs(city.longitude - longitude) < 0.01,
  );
}

const geocoding: JsonHandler = (url) => {
  const name = (url.searchParams.get("name") ?? "").trim().toLowerCase();
  const count = Number(url.searchParams.get("count") ?? "10");
  const results = DEMO_CITIES.filter((city) => city.name.toLowerCase().startsWith(name) && name.length >= 2)
    .slice(0, count)
    .map(({ temperature_c: _t, precipitation_mm: _p, ...city }) => city);
  // Like Open-Meteo, an unknown name yields an object without `results`.
  return { status: 200, body: results.length > 0 ? { results, generationtime_ms: 0.5 } : { generationtime_ms: 0.5 } };
};

const forecast: JsonHandler = (url) => {
  const latitude = Number(url.searchParams.get("latitude"));
  const longitude = Number(url.searchParams.get("longitude"));
  if (!Number.isFinite(latitude) || !Number.isFinite(longitude)) {
    return { status: 400, body: { error: true, reason: "Parameter 'latitude' and 'longitude' must be numbers" } };
  }
  const city = findCityByCoordinates(latitude, longitude);
  const celsius = city?.temperature_c ?? round(Math.abs((latitude * 7 + longitude * 3) % 30), 1);
  const fahrenheit = url.searchParams.get("temperature_unit") === "fahrenheit";
  return {
    status: 200,
    body: {
      latitude,
      longitude,
      timezone: city?.timezone ?? "GMT",
      current_units: {
        time: "iso8601",
        interval: "seconds",
        temperature_2m: fahrenheit ? "°F" : "°C",
        precipitation: "mm",
      },
      current: {
        time: `${DEMO_DATE}T12:00`,
        interval: 900,
        temperature_2m: fahrenheit ? round((celsius * 9) / 5 + 32, 1) : celsius,
        precipitation: city?.precipitation_mm ?? 0,
      },
    },
  };
};

function rate(from: string, to: string): number | undefined {
  const fromPerEur = DEMO_RATES_PER_EUR[from];
  const toPerEur = DEMO_RATES_PER_EUR[to];
  if (fromPerEur === undefined || toPerEur === undefined) return undefined;
  return round(toPerEur / fromPerEur, 6);
}

const currencyRate: JsonHandler = (url) => {
  // Frankfurter v2 shape: /v2/rate/EUR/USD -> { date, base, quote, rate }
  const [, , , from = "", to = ""] = url.pathname.split("/");
  const value = rate(from.toUpperCase(), to.toUpperCase());
  if (value === undefined) return { status: 404, body: { message: "not found" } };
  return { status: 200, body: { date: DEMO_DATE, base: from.toUpperCase(), quote: to.toUpperCase(), rate: value } };
};

const currencyLatest: JsonHandler = (url) => {
  // Frankfurter v1 shape: /v1/latest?base=EUR&symbols=USD -> { amount, base, date, rates }
  const base = (url.searchParams.get("base") ?? url.searchParams.get("from") ?? "EUR").toUpperCase();
  const symbols = (
    url.searchParams.get("symbols") ??
    url.searchParams.get("to") ??
    Object.keys(DEMO_RATES_PER_EUR).join(",")
  )
    .toUpperCase()
    .split(",");
  if (DEMO_RATES_PER_EUR[base] === undefined) return { status: 404, body: { message: "not found" } };
  const rates: Record<string, number> = {};
  for (const symbol of symbols) {
    const value = rate(base, symbol);
    if (value !== undefined && symbol !== base) rates[symbol] = value;
  }
  return { status: 200, body: { amount: 1, base, date: DEMO_DATE, rates } };
};

const searchTickets: JsonHandler = (url) => {
  const projectId = url.searchParams.get("project_id");
  const status = url.searchParams.get("status");
  const pageSize = Math.min(Math.max(Number(url.searchParams.get("page_size") ?? "2"), 1), 50);
  const offset = Number(url.searchParams.get("cursor") ?? "0");
  const matches = DEMO_TICKETS.filter(
    (ticket) => (!projectId || ticket.project_id === projectId) && (!status || ticket.status === status),
  );
  const page = matches.slice(offset, offset + pageSize);
  const nextOffset = offset + pageSize;
  return { status: 200, body: { tickets: page, next_cursor: nextOffset < matches.length ? String(nextOffset) : null } };
};

const searchMeetingNotes: JsonHandler = (url) => {
  const ticketIds = url.searchParams
    .getAll("ticket_ids")
    .flatMap((value) => value.split(","))
    .map((value) => value.trim())
    .filter(Boolean);
  const query = url.searchParams.get("query")?.toLowerCase();
  // One entry per requested ticket, so a ticket with no notes is visible as an empty list.
  const results = ticketIds.map((ticketId) => ({
    ticket_id: ticketId,
    notes: DEMO_MEETING_NOTES.filter(
      (note) => note.ticket_ids.includes(ticketId) && (!query || note.excerpt.toLowerCase().includes(query)),
    ),
  }));
  return { status: 200, body: { results, searched_collection: "demo meeting notes" } };
};

const routes: Array<{ pattern: RegExp; handler: JsonHandler }> = [
  { pattern: /^\/v1\/search$/, handler: geocoding },
  { pattern: /^\/v1\/forecast$/, handler: forecast },
  { pattern: /^\/v2\/rate\/[A-Za-z]{3}\/[A-Za-z]{3}$/, handler: currencyRate },
  { pattern: /^\/v1\/latest$/, handler: currencyLatest },
  { pattern: /^\/demo\/tickets\/search$/, handler: searchTickets },
  { pattern: /^\/demo\/meeting-notes\/search$/, handler: searchMeetingNotes },
  { pattern: /^\/health$/, handler: () => ({ status: 200, body: { ok: true } }) },
];

/**
 * Starts the offline demo API: Open-Meteo geocoding (`/v1/search`) and forecast
 * (`/v1/forecast`), Frankfurter (`/v2/rate/:from/:to`, `/v1/latest`), and read-only ticket and
 * meeting-notes search (`/demo/...`). Answers are deterministic. `POST /_control/fail-next`
 * with `{ "path": "/demo/meeting-notes", "status": 503 }` injects one transient failure;
 * `POST /_control/delay` with `{ "path": "/demo/tickets", "ms": 200 }` slows those answers
 * until cleared with `"ms": 0`.
 */
export async function startDemoApiStub(options: DemoApiStubOptions = {}): Promise<DemoApiStub> {
  const pendingFailures: Array<{ pathPrefix: string; status: number }> = [];
  const failNext = (pathPrefix: string, status = 503) => {
    pendingFailures.push({ pathPrefix, status });
  };
  const delays = new Map<string, number>();
  const setDelay = (pathPrefix: string, ms: number) => {
    if (ms > 0) delays.set(pathPrefix, ms);
    else delays.delete(pathPrefix);
  };
  /** The control endpoints: each takes a small JSON body and answers 202. */
  const controls: Record<string, (body: { path?: unknown; status?: unknown; ms?: unknown }) => void> = {
    "/_control/fail-next": (body) =>
      failNext(typeof body.path === "string" ? body.path : "/", typeof body.status === "number" ? body.status : 503),
    "/_control/delay": (body) =>
      setDelay(
        typeof body.path === "string" ? body.path : "/",
        typeof body.ms === "number" ? Math.min(Math.max(body.ms, 0), 60_000) : 0,
      ),
  };
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://demo-stub");
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { "content-type": "application/json; charset=utf-8" });
      response.end(JSON.stringify(body));
    };
    const control = request.method === "POST" ? controls[url.pathname] : undefined;
    if (control) {
      let text = "";
      request.setEncoding("utf8");
      request.on("data", (chunk: string) => {
        text += chunk;
      });
      request.on("end", () => {
        try {
          control(JSON.parse(text || "{}") as { path?: unknown; status?: unknown; ms?: unknown });
          send(202, { scheduled: true });
        } catch {
          send(400, { message: "body must be JSON" });
        }
      });
      return;
    }
    if (request.method !== "GET") return send(405, { message: "the demo API is read-only" });
    const failureIndex = pendingFailures.findIndex((failure) => url.pathname.startsWith(failure.pathPrefix));
    if (failureIndex >= 0) {
      const [failure] = pendingFailures.splice(failureIndex, 1);
      return send(failure.status, { message: "injected transient failure, try again" });
    }
    const route = routes.find((candidate) => candidate.pattern.test(url.pathname));
    if (!route) return send(404, { message: `no demo route for ${url.pathname}` });
    const answer = route.handler(url);
    const delay = [...delays].find(([prefix]) => url.pathname.startsWith(prefix))?.[1] ?? 0;
    if (delay > 0) setTimeout(() => send(answer.status, answer.body), delay);
    else send(answer.status, answer.body);
  });
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? DEFAULT_DEMO_STUB_PORT, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  return {
    origin,
    port,
    environment: {
      TRELLIS_WEATHER_GEOCODING_URL: `${origin}/v1/search`,
      TRELLIS_WEATHER_FORECAST_URL: `${origin}/v1/forecast`,
      TRELLIS_CURRENCY_URL: `${origin}/v2`,
      TRELLIS_DEMO_API_URL: `${origin}/demo`,
    },
    failNext,
    setDelay,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
