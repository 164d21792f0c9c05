/**
 * Where the canvas benchmark's load time goes: records a Chrome trace of the measured navigation
 * (the same warm route, document and stop condition as `canvas.bench.ts`) and breaks the main
 * thread's time into phases (network, script, style, layout, paint…) and into the long tasks
 * between navigation start and the loaded frame. A development tool, not a target check.
 *
 *   TRELLIS_BENCH_BASE_URL=http://127.0.0.1:3331 npx tsx bench/canvas-profile.ts [nodes] [trace.json]
 *
 * against a running production server (`npm start`) with the seeded admin. Prints one JSON object.
 */
import fs from "node:fs";
import { type Browser, type CDPSession, chromium, type Page } from "@playwright/test";
import { chromiumLaunchOptions } from "../playwright.config";
import { buildDocument, type LoadBreakdown, loadBreakdown, waitForLoaded } from "./canvas-document";
import { loadAverage } from "./support";

const baseURL = process.env.TRELLIS_BENCH_BASE_URL ?? "http://127.0.0.1:3331";
const nodeCount = Number(process.argv[2] ?? 1000);
const tracePath = process.argv[3];

/** Trace categories: the DevTools performance panel's, plus V8's compile and GC events. */
const CATEGORIES = [
  "devtools.timeline",
  "disabled-by-default-devtools.timeline",
  "disabled-by-default-devtools.timeline.frame",
  "v8.execute",
  "v8",
  "blink.user_timing",
  "loading",
  "toplevel",
  // TRELLIS_PROFILE_CATEGORIES adds more, e.g. disabled-by-default-devtools.timeline.invalidationTracking.
  ...(process.env.TRELLIS_PROFILE_CATEGORIES?.split(",") ?? []),
];

/** One Chrome trace event (the fields used here). */
interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  /** Thread (CPU) time of a complete event, µs. */
  tdur?: number;
  args?: { name?: string; data?: Record<string, unknown> };
}

/** Main-thread event names by phase; anything else is "other". */
const PHASES: Record<string, string[]> = {
  parse_html: ["ParseHTML"],
  script_compile: ["v8.compile", "v8.compileModule", "V8.CompileCode", "v8.parseOnBackground", "CacheScript"],
  script_run: [
    "EvaluateScript",
    "v8.evaluateModule",
    "FunctionCall",
    "V8.Execute",
    "v8.callFunction",
    "v8.run",
    "RunMicrotasks",
    "TimerFire",
    "FireAnimationFrame",
    "EventDispatch",
    "FireIdleCallback",
    "v8.newInstance",
  ],
  gc: ["MajorGC", "MinorGC", "V8.GCScavenger", "V8.GCFinalizeMC", "BlinkGC.AtomicPhase", "V8.GC_MC_BACKGROUND"],
  style: ["UpdateLayoutTree", "RecalculateStyles", "ParseAuthorStyleSheet", "ScheduleStyleRecalculation"],
  layout: ["Layout", "UpdateLayer", "ComputeIntersections", "IntersectionObserverController::computeIntersections"],
  paint: [
    "PrePaint",
    "Paint",
    "Layerize",
    "Commit",
    "UpdateLayerTree",
    "PaintImage",
    "Decode Image",
    "CompositeLayers",
  ],
};
const PHASE_OF = new Map(Object.entries(PHASES).flatMap(([phase, names]) => names.map((name) => [name, phase])));

/** A complete event on the main thread with the events nested directly in it. */
type Entry = { event: TraceEvent; depth: number; children: Entry[] };

/** The main thread's complete events as trees (by nesting of their time spans). */
function nestedEvents(events: TraceEvent[]): Entry[] {
  const complete = events
    .filter((event) => event.ph === "X" && event.dur !== undefined)
    .sort((left, right) => left.ts - right.ts || (right.dur ?? 0) - (left.dur ?? 0));
  const out: Entry[] = [];
  const stack: Entry[] = [];
  for (const event of complete) {
    while (stack.length && stack[stack.length - 1].event.ts + (stack[stack.length - 1].event.dur ?? 0) <= event.ts)
      stack.pop();
    const entry: Entry = { event, depth: stack.length, children: [] };
    stack[stack.length - 1]?.children.push(entry);
    stack.push(entry);
    out.push(entry);
  }
  return out;
}

const ms = (microseconds: number) => Math.round(microseconds / 100) / 10;

/**
 * Within [from, to) (trace µs): self time by phase and by event name (an event's time minus that
 * of the events nested in it, both cut to the window), and the busy and CPU time of the
 * top-level tasks, in µs. Tasks that straddle a milestone count on both sides in proportion.
 */
function tally(entries: Entry[], from = Number.NEGATIVE_INFINITY, to = Number.POSITIVE_INFINITY) {
  const overlap = ({ event }: Entry) =>
    Math.max(0, Math.min(event.ts + (event.dur ?? 0), to) - Math.max(event.ts, from));
  const byPhase: Record<string, number> = {};
  const byName: Record<string, number> = {};
  let busy = 0;
  let cpu = 0;
  for (const entry of entries) {
    const inside = overlap(entry);
    if (inside === 0) continue;
    const self = Math.max(0, inside - entry.children.reduce((sum, child) => sum + overlap(child), 0));
    const phase = PHASE_OF.get(entry.event.name) ?? "other";
    byPhase[phase] = (byPhase[phase] ?? 0) + self;
    byName[entry.event.name] = (byName[entry.event.name] ?? 0) + self;
    if (entry.depth !== 0) continue;
    busy += inside;
    // CPU time of the same tasks: less sensitive than wall time to other processes on the machine.
    const { dur, tdur } = entry.event;
    cpu += dur ? inside * ((tdur ?? dur) / dur) : 0;
  }
  return { byPhase, byName, busy, cpu };
}

/** One stretch of the load between two milestones: busy time, CPU time and self time by phase. */
interface LoadWindow {
  name: string;
  from_ms: number;
  to_ms: number;
  busy_ms: number;
  cpu_ms: number;
  by_phase_ms: Record<string, number>;
}

/**
 * Splits the main thread's time at the load's milestones: document, hydration, React rendering
 * the nodes, the nodes' first frame, and what runs until the bench's clock stops.
 */
function windowsOf(entries: Entry[], start: number, milestones: [string, number | null][], end: number): LoadWindow[] {
  const bounds = milestones.filter((milestone): milestone is [string, number] => milestone[1] !== null);
  const windows: LoadWindow[] = [];
  let from = start;
  for (const [index, [name, at]] of [
    ...bounds,
    ["until the clock stops", (end - start) / 1000] as [string, number],
  ].entries()) {
    const to = index < bounds.length ? start + at * 1000 : end;
    const { byPhase, busy, cpu } = tally(entries, from, to);
    windows.push({
      name,
      from_ms: ms(from - start),
      to_ms: ms(to - start),
      busy_ms: ms(busy),
      cpu_ms: ms(cpu),
      by_phase_ms: Object.fromEntries(
        Object.entries(byPhase)
          .filter(([, value]) => value >= 500)
          .sort((left, right) => right[1] - left[1])
          .map(([key, value]) => [key, ms(value)]),
      ),
    });
    from = to;
  }
  return windows;
}

/** Breaks the renderer main thread's time between `start` and `end` (trace µs) into phases and long tasks. */
function analyse(events: TraceEvent[], start: number, end: number, mainPid: number, mainTid: number) {
  const main = events.filter(
    (event) => event.pid === mainPid && event.tid === mainTid && event.ts >= start && event.ts < end,
  );
  const entries = nestedEvents(main);
  const { byPhase, byName, busy, cpu } = tally(entries);
  // Top-level tasks of 8 ms or more, in order, each with its three largest phases.
  const tasks = entries
    .filter((entry) => entry.depth === 0 && (entry.event.dur ?? 0) >= 8000)
    .map((entry) => {
      const taskEnd = entry.event.ts + (entry.event.dur ?? 0);
      const inside = entries.filter((other) => other.event.ts >= entry.event.ts && other.event.ts < taskEnd);
      const { byPhase: phases, byName: names } = tally(inside, entry.event.ts, taskEnd);
      const top = (record: Record<string, number>, count: number) =>
        Object.entries(record)
          .sort((left, right) => right[1] - left[1])
          .slice(0, count)
          .map(([name, value]) => `${name} ${ms(value)}`)
          .join(", ");
      const scripts = inside
        .filter(({ event }) => event.name === "EvaluateScript" || event.name === "FunctionCall")
        .map(({ event }) => {
          const data = event.args?.data ?? {};
          const url = String(data.url ?? "").replace(/^.*\//, "");
          return `${event.name}:${String(data.functionName ?? "")}@${url}`;
        })
        .slice(0, 3);
      return {
        at_ms: ms(entry.event.ts - start),
        ms: ms(entry.event.dur ?? 0),
        cpu_ms: ms(entry.event.tdur ?? 0),
        phases: top(phases, 4),
        names: top(names, 5),
        scripts: scripts.join(" | "),
      };
    });
  const round = (record: Record<string, number>) =>
    Object.fromEntries(
      Object.entries(record)
        .sort((left, right) => right[1] - left[1])
        .map(([key, value]) => [key, ms(value)]),
    );
  const topNames = Object.fromEntries(Object.entries(round(byName)).slice(0, 25));
  return {
    main_thread_busy_ms: ms(busy),
    main_thread_cpu_ms: ms(cpu),
    by_phase_ms: round(byPhase),
    top_self_ms: topNames,
    long_tasks: tasks,
  };
}

/** Cumulative main-thread metrics of the page's renderer (CDP `Performance.getMetrics`), ms. */
const METRICS = ["TaskDuration", "ScriptDuration", "RecalcStyleDuration", "LayoutDuration"] as const;
type Metrics = Record<(typeof METRICS)[number], number>;

async function readMetrics(session: CDPSession): Promise<Metrics> {
  const { metrics } = (await session.send("Performance.getMetrics")) as { metrics: { name: string; value: number }[] };
  return Object.fromEntries(
    METRICS.map((name) => [name, (metrics.find((metric) => metric.name === name)?.value ?? 0) * 1000]),
  ) as Metrics;
}

/** Loads the editor once; resolves with the load time and the main thread's work during it. */
async function measuredLoad(
  page: Page,
  id: string,
): Promise<{ loadMs: number; metrics: Metrics; breakdown: LoadBreakdown }> {
  const session = await page.context().newCDPSession(page);
  await session.send("Performance.enable");
  const before = await readMetrics(session);
  await page.goto(`/workflows/${id}`);
  const loadMs = await waitForLoaded(page, nodeCount);
  const after = await readMetrics(session);
  await session.detach();
  const metrics = Object.fromEntries(METRICS.map((name) => [name, Math.round(after[name] - before[name])])) as Metrics;
  return { loadMs: Math.round(loadMs), metrics, breakdown: await loadBreakdown(page) };
}

async function main(): Promise<void> {
  const browser: Browser = await chromium.launch(chromiumLaunchOptions);
  const context = await browser.newContext({ baseURL, viewport: { width: 1440, height: 900 } });
  // tsx compiles with esbuild's keepNames, which wraps functions passed to page.evaluate in __name().
  await context.addInitScript("globalThis.__name = (target) => target;");
  const login = await context.request.post("/api/auth/login", {
    data: { email: "admin@trellis.local", password: "trellis-admin" },
  });
  if (!login.ok()) throw new Error(`sign-in failed: ${login.status()}`);
  const created = await context.request.post("/api/workflows", {
    data: { name: `Profile ${nodeCount} nodes ${Date.now()}`, draft: buildDocument(nodeCount) },
  });
  if (created.status() !== 201) throw new Error(`create failed: ${created.status()}`);
  const { id } = (await created.json()) as { id: string };
  const page = await context.newPage();
  await page.goto(`/workflows/${id}`);
  await page.waitForSelector(".react-flow__node");

  // The document as the browser receives it: size, and how much of it is the RSC payload.
  const documentResponse = await context.request.get(`/workflows/${id}`);
  const html = await documentResponse.text();
  const payloadBytes = [...html.matchAll(/self\.__next_f\.push\(\[1,"((?:[^"\\]|\\.)*)"\]\)/g)].reduce(
    (sum, match) => sum + match[1].length,
    0,
  );

  // Untraced loads first (TRELLIS_PROFILE_RUNS, default 3): wall time and CDP main-thread metrics.
  const runs = Number(process.env.TRELLIS_PROFILE_RUNS ?? 3);
  const untraced: { loadMs: number; metrics: Metrics; breakdown: LoadBreakdown; load_average_1m: number }[] = [];
  for (let run = 0; run < runs; run++) {
    const load_average_1m = loadAverage();
    untraced.push({ ...(await measuredLoad(page, id)), load_average_1m });
  }
  const load = loadAverage();
  await browser.startTracing(page, { categories: CATEGORIES });
  const traced = await measuredLoad(page, id);
  const loadMs = traced.loadMs;
  const trace = await browser.stopTracing();
  const { breakdown } = traced;
  const timing = await page.evaluate(() => {
    const navigation = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
    const scripts = (performance.getEntriesByType("resource") as PerformanceResourceTiming[]).filter((entry) =>
      entry.name.endsWith(".js"),
    );
    return {
      ttfb_ms: Math.round(navigation.responseStart),
      response_end_ms: Math.round(navigation.responseEnd),
      dom_interactive_ms: Math.round(navigation.domInteractive),
      dom_content_loaded_ms: Math.round(navigation.domContentLoadedEventEnd),
      load_event_ms: Math.round(navigation.loadEventEnd),
      document_transfer_bytes: navigation.transferSize,
      document_decoded_bytes: navigation.decodedBodySize,
      scripts: scripts.length,
      scripts_last_response_end_ms: Math.round(Math.max(0, ...scripts.map((entry) => entry.responseEnd))),
      first_contentful_paint_ms: Math.round(
        performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Number.NaN,
      ),
    };
  });
  const dom = await page.evaluate(() => ({
    elements: document.querySelectorAll("*").length,
    edges: document.querySelectorAll(".react-flow__edge").length,
  }));
  await browser.close();
  if (tracePath) fs.writeFileSync(tracePath, trace);

  const events = (JSON.parse(trace.toString()) as { traceEvents: TraceEvent[] }).traceEvents;
  const navigationStart = events
    .filter(
      (event) =>
        event.name === "navigationStart" &&
        String(event.args?.data?.documentLoaderURL ?? "").includes(`/workflows/${id}`),
    )
    .sort((left, right) => right.ts - left.ts)[0];
  if (!navigationStart) throw new Error("no navigationStart in the trace");
  const start = navigationStart.ts;
  const end = start + loadMs * 1000;
  const analysis = analyse(events, start, end, navigationStart.pid, navigationStart.tid);
  const main = events.filter(
    (event) =>
      event.pid === navigationStart.pid && event.tid === navigationStart.tid && event.ts >= start && event.ts < end,
  );
  // Where each milestone ends its window: "document" runs from navigation start to the end of
  // DOMContentLoaded, and so on. Without the editor's marks (an older build) fewer windows.
  const windows = windowsOf(
    nestedEvents(main),
    start,
    [
      ["document: response, parse, scripts", breakdown.dom_content_loaded_ms],
      ["hydration and React Flow's mount", breakdown.canvas_mounted_ms],
      ["hand-off: React renders the nodes", breakdown.nodes_rendered_ms],
      ["first frame: style, layout, measure, edges, paint", breakdown.nodes_shown_ms],
    ],
    end,
  );
  console.log(
    JSON.stringify(
      {
        nodes: nodeCount,
        load_average_1m: load,
        [`load_${nodeCount}_nodes_ms_traced`]: Math.round(loadMs),
        dom,
        document_bytes: html.length,
        rsc_payload_chars: payloadBytes,
        timing,
        untraced,
        traced_metrics_ms: traced.metrics,
        breakdown,
        windows,
        ...analysis,
      },
      null,
      1,
    ),
  );
}

void main();
