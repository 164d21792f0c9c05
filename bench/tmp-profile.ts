import { chromium } from "@playwright/test";
import { chromiumLaunchOptions } from "../playwright.config";

const base = process.env.BASE ?? "http://127.0.0.1:3240";
const NODE_COUNT = 500;
const COLUMNS = 25;
function buildDocument() {
  const nodes = Array.from({ length: NODE_COUNT }, (_, index) => {
    const type = index === 0 ? "start" : index === NODE_COUNT - 1 ? "end" : "template";
    const id = type === "template" ? `template_${index}` : type;
    const data =
      type === "start"
        ? { title: "Start", errorStrategy: "fail-run", inputs: [{ name: "question", type: "string", required: false }] }
        : type === "end"
          ? { title: "End", errorStrategy: "fail-run", outputs: [] }
          : { title: `Template ${index}`, errorStrategy: "fail-run", template: `Step ${index}: {{start.question}}` };
    return { id, type, position: { x: (index % COLUMNS) * 280, y: Math.floor(index / COLUMNS) * 140 }, data };
  });
  const edges = nodes
    .slice(1)
    .map((node, index) => ({ id: `edge_${index}`, source: nodes[index].id, target: node.id }));
  return { schemaVersion: 2, nodes, edges };
}
const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.95)];

const browser = await chromium.launch(chromiumLaunchOptions);
const context = await browser.newContext({ baseURL: base, viewport: { width: 1440, height: 900 } });
await context.request.post("/api/auth/login", { data: { email: "admin@trellis.local", password: "trellis-admin" } });
await context.addInitScript("window.__name = (target) => target;");
const page = await context.newPage();
const created = await page.request.post("/api/workflows", {
  data: { name: `P ${Date.now()}`, draft: buildDocument() },
});
const { id } = (await created.json()) as { id: string };
await page.goto(`/workflows/${id}`);
await page.waitForSelector(".react-flow__node");
await page.waitForTimeout(1500);
const idle = await page.evaluate(
  () =>
    new Promise<number[]>((resolve) => {
      const deltas: number[] = [];
      let last = performance.now();
      const tick = (now: number) => {
        deltas.push(now - last);
        last = now;
        if (deltas.length < 90) requestAnimationFrame(tick);
        else resolve(deltas.slice(1));
      };
      requestAnimationFrame(tick);
    }),
);
console.log("idle p95", p95(idle).toFixed(1), "max", Math.max(...idle).toFixed(1));
const client = await context.newCDPSession(page);
await client.send("Profiler.enable");
await client.send("Profiler.setSamplingInterval", { interval: 200 });
const node = page.locator('.react-flow__node[data-id="template_262"]');
const box = (await node.boundingBox())!;
const canvas = (await page.getByTestId("canvas").boundingBox())!;
await page.evaluate(() => {
  const state = window as unknown as { frameDeltas: number[]; recording: boolean; marks: number[] };
  state.frameDeltas = [];
  state.recording = true;
  let last = performance.now();
  const tick = (now: number) => {
    state.frameDeltas.push(now - last);
    last = now;
    if (state.recording) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
});
if (process.env.PROFILE) await client.send("Profiler.start");
const start = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
await page.mouse.move(start.x, start.y);
await page.mouse.down();
for (let step = 1; step <= 90; step++) {
  const progress = step / 90;
  await page.mouse.move(
    start.x + (canvas.x + canvas.width * 0.9 - start.x) * progress,
    start.y + (canvas.y + canvas.height * 0.2 - start.y) * progress,
  );
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
}
await page.mouse.up();
const deltas = await page.evaluate(() => {
  const state = window as unknown as { frameDeltas: number[]; recording: boolean };
  state.recording = false;
  return state.frameDeltas.slice(1);
});
console.log(
  "drag p95",
  p95(deltas).toFixed(1),
  "frames",
  deltas.length,
  "sorted tail",
  [...deltas]
    .sort((a, b) => a - b)
    .slice(-12)
    .map((v) => v.toFixed(0))
    .join(","),
);
if (process.env.PROFILE) {
  const { profile } = (await client.send("Profiler.stop")) as {
    profile: {
      nodes: {
        id: number;
        callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
        hitCount?: number;
      }[];
      samples: number[];
      timeDeltas: number[];
    };
  };
  const selfTime = new Map<string, number>();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  profile.samples.forEach((sample, index) => {
    const n = byId.get(sample)!;
    const key = `${n.callFrame.functionName || "(anon)"} ${n.callFrame.url.split("/").pop()}:${n.callFrame.lineNumber}:${n.callFrame.columnNumber}`;
    selfTime.set(key, (selfTime.get(key) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000);
  });
  const top = [...selfTime.entries()].sort((a, b) => b[1] - a[1]).slice(0, 30);
  for (const [key, ms] of top) console.log(ms.toFixed(1).padStart(8), key);
}
await browser.close();
