import "server-only";
/**
 * Runs the offline demo API stub: `npx tsx --conditions=react-server lib/tools/demo-stub/cli.ts [--port 4020]`
 * (the condition turns `server-only` into an empty module outside Next.js).
 * Prints the environment variables that point the demo tools at it.
 */
import { DEFAULT_DEMO_STUB_PORT, startDemoApiStub } from "./server";

function portFromArguments(argv: readonly string[]): number {
  const flagIndex = argv.indexOf("--port");
  const text = flagIndex >= 0 ? argv[flagIndex + 1] : process.env.TRELLIS_DEMO_API_PORT;
  const port = text === undefined ? DEFAULT_DEMO_STUB_PORT : Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`Invalid port "${text}"`);
  return port;
}

async function main(): Promise<void> {
  const stub = await startDemoApiStub({ port: portFromArguments(process.argv.slice(2)) });
  console.log(`Trellis demo API stub listening on ${stub.origin}`);
  for (const [name, value] of Object.entries(stub.environment)) console.log(`${name}=${value}`);
  const stop = () => {
    void stub.close().then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
