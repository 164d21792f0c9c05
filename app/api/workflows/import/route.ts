import { getEditorContext } from "@/lib/db/context";
import { listProviderNames } from "@/lib/db/credential-repository";
import { listHttpCredentials } from "@/lib/db/http-credential-repository";
import { createWorkflow } from "@/lib/db/workflow-repository";
import { errorResponse, mapError } from "@/lib/http/respond";
import { ImportFileError } from "@/lib/interop/errors";
import { prepareImport } from "@/lib/interop/import-workflow";
import type { WorkspaceInventory } from "@/lib/interop/report";
import { listWorkspaceTools } from "@/lib/server/workspace-tools";
import { importWorkflowBodySchema, MAX_IMPORT_BODY_BYTES } from "./schema";

export const dynamic = "force-dynamic";

const TOO_LARGE = () => errorResponse(413, "import_too_large", "The file is larger than 10 MB.", { field: "content" });

/** Reads the body as text with a hard cap, so a huge upload is refused without being buffered whole. */
async function readLimited(request: Request): Promise<string | Response> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_IMPORT_BODY_BYTES) return TOO_LARGE();
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_IMPORT_BODY_BYTES) {
      await reader.cancel();
      return TOO_LARGE();
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

async function workspaceInventory(workspaceId: string): Promise<WorkspaceInventory> {
  const [{ tools }, credentials, providers] = await Promise.all([
    listWorkspaceTools(workspaceId),
    listHttpCredentials(workspaceId),
    listProviderNames(workspaceId),
  ]);
  return {
    tools: tools.map((tool) => tool.name),
    credentials: credentials.map((credential) => credential.name),
    providers: ["default", ...providers.filter((name) => name !== "default")],
  };
}

/**
 * Imports a Dify DSL file or a Trellis export. With `dryRun` it answers the report only;
 * otherwise it creates the workflow (even when it does not compile yet: the report and the
 * editor say what to fix) and answers `{ id, report }` with 201. Editors only.
 */
export async function POST(request: Request): Promise<Response> {
  try {
    const { workspaceId, userId } = await getEditorContext("import workflows");
    const text = await readLimited(request);
    if (text instanceof Response) return text;
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return errorResponse(400, "invalid_json", "The request body is not valid JSON.");
    }
    const parsed = importWorkflowBodySchema.safeParse(body);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      const field = first?.path.join(".");
      if (field === "content" && first?.code === "too_big") return TOO_LARGE();
      return errorResponse(400, "invalid_request", first?.message ?? "Invalid request body.", {
        field,
        issues: parsed.error.issues.map((issue) => ({ path: issue.path.join("."), message: issue.message })),
      });
    }
    const input = parsed.data;
    let prepared: ReturnType<typeof prepareImport>;
    try {
      prepared = prepareImport(input, await workspaceInventory(workspaceId));
    } catch (error) {
      if (error instanceof ImportFileError) {
        return errorResponse(error.code === "import_too_large" ? 413 : 422, error.code, error.message, {
          field: "content",
          path: error.path,
        });
      }
      throw error;
    }
    if (input.dryRun) {
      return Response.json({ name: prepared.name, report: prepared.report, document: prepared.document });
    }
    const created = await createWorkflow(workspaceId, {
      name: prepared.name,
      description: prepared.description,
      draft: prepared.document,
      userId,
    });
    return Response.json({ id: created.id, name: prepared.name, report: prepared.report }, { status: 201 });
  } catch (error) {
    return mapError(error);
  }
}
