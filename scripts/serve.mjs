/**
 * The production HTTP server `npm start` runs: Next.js's request handler behind a plain Node
 * server, so each request carries the TCP peer's address. Route handlers never see the socket,
 * and Next only fills `x-forwarded-for` when the client sent none, so without this a client
 * chooses its own address. The header below always overwrites what a client sent;
 * lib/http/client-address.ts reads it only when TRELLIS_PEER_ADDRESS_HEADER=1 (set here).
 */
import http from "node:http";
import path from "node:path";
import next from "next";
import { createDirectRoutes } from "./direct-routes.mjs";

const PEER_ADDRESS_HEADER = "x-trellis-peer-address"; // lib/http/client-address.ts
const port = Number(process.env.PORT ?? "3000");
const hostname = process.env.HOST ?? "0.0.0.0";
process.env.TRELLIS_PEER_ADDRESS_HEADER = "1";

const app = next({ dev: false, hostname, port });
const handle = app.getRequestHandler();
await app.prepare();
// The published API and the health check skip Next's request pipeline (scripts/direct-routes.mjs).
const direct =
  process.env.TRELLIS_DIRECT_ROUTES === "0" ? () => false : createDirectRoutes({ distDir: path.resolve(".next") });
const server = http.createServer((request, response) => {
  request.headers[PEER_ADDRESS_HEADER] = request.socket.remoteAddress ?? "";
  if (!direct(request, response, () => handle(request, response))) handle(request, response);
});
server.listen(port, hostname, () => console.log(`Trellis listening on ${hostname}:${port}`));
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.close(() => process.exit(0)));
