import "server-only";
import { loadProvider } from "../db/credential-repository";
import { resolveHttpCredential } from "../db/http-credential-repository";
import type { EngineServices } from "../engine/executor";
import { createDemoModel } from "../llm/demo";
import type { LanguageModel, ModelResolver } from "../llm/language-model";
import { createModelResolver } from "../llm/model-resolver";
import { buildWorkspaceToolRegistry, type WorkspaceToolsOptions } from "./workspace-tools";

/** Options for one run's services. */
export interface EngineServicesOptions {
  /** Workspace whose stored providers and tools the run may use. */
  workspaceId: string;
  /** Called once when the run resolves the demo model, so the run record can say so. */
  onDemoModelUsed?: () => void;
  /** How workspace tool sources are reached (tests: allowlist, timeouts). */
  tools?: WorkspaceToolsOptions;
}

/** Wraps a resolver to notice demo-model use (records and UI must label demo answers). */
function noticingDemo(resolver: ModelResolver, onDemo: (() => void) | undefined): ModelResolver {
  let noticed = false;
  return {
    async resolve(ref): Promise<LanguageModel> {
      const model = await resolver.resolve(ref);
      if (model.isDemo && !noticed) {
        noticed = true;
        onDemo?.();
      }
      return model;
    },
  };
}

/**
 * Models, tools, allowed env values and the workspace's HTTP credentials for one run. Tools are the built-ins plus the
 * workspace's OpenAPI imports and MCP servers (connections are shared across runs).
 * @throws WorkspaceToolCollisionError when two tool sources define the same tool name.
 */
export async function createEngineServices(options: EngineServicesOptions): Promise<EngineServices> {
  const resolver = createModelResolver({
    createDemoModel,
    loadProvider: async (name) => loadProvider(options.workspaceId, name),
  });
  return {
    models: noticingDemo(resolver, options.onDemoModelUsed),
    tools: await buildWorkspaceToolRegistry(options.workspaceId, options.tools),
    env: templateEnvironment(),
    httpAuth: (name) => resolveHttpCredential(options.workspaceId, name),
  };
}

/**
 * `{{env.NAME}}` exposes only variables prefixed TRELLIS_PUBLIC_, never the whole process
 * environment: a workflow author must not be able to read secrets such as OPENAI_API_KEY.
 */
export function templateEnvironment(
  environment: Record<string, string | undefined> = process.env,
): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(environment)) {
    if (name.startsWith("TRELLIS_PUBLIC_") && value !== undefined) result[name.slice("TRELLIS_PUBLIC_".length)] = value;
  }
  return result;
}
