/**
 * Bench-only preload for the server process (`node --expose-gc --require bench/server-memory-probe.cjs
 * …/next start`), used by `bench:api` for its per-round memory figures. Nothing in the app loads it.
 *
 * When TRELLIS_BENCH_MEMORY_PORT is set it listens on 127.0.0.1 at that port and answers `GET /`
 * with the process's `process.memoryUsage()` (bytes) as it is, and `GET /?gc=1` with the figures
 * after two forced full collections, so `heapUsed` is what the process retains rather than garbage
 * that happened not to be collected yet. Loopback only; without the variable (or without
 * `--expose-gc`) it does nothing.
 */
const http = require("node:http");

const port = Number(process.env.TRELLIS_BENCH_MEMORY_PORT);
if (Number.isInteger(port) && port > 0 && typeof globalThis.gc === "function") {
  const server = http.createServer((request, response) => {
    if (request.method !== "GET") {
      response.writeHead(405).end();
      return;
    }
    const answer = () => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify(process.memoryUsage()));
    };
    if (!request.url?.includes("gc=1")) return answer();
    // Two passes: the first may only queue finalizers (weak maps, FinalizationRegistry cells).
    globalThis.gc();
    setImmediate(() => {
      globalThis.gc();
      answer();
    });
  });
  server.unref();
  server.listen(port, "127.0.0.1");
}
