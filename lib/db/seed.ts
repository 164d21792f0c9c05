import "server-only";
import { datasetCasesSchema } from "../evaluation/model/dataset";
import { exampleDatasets } from "../evaluation/model/example-datasets";
import { exampleWorkflows } from "../workflow/examples";
import { toJson } from "./json";
import { hashPassword } from "./passwords";
import type { Database } from "./prisma-client";

/** Seed settings, overridable by environment variables (see README). */
export interface SeedOptions {
  /** Admin e-mail (TRELLIS_ADMIN_EMAIL). */
  adminEmail: string;
  /** Admin password (TRELLIS_ADMIN_PASSWORD). */
  adminPassword: string;
  /** Workspace name (TRELLIS_WORKSPACE_NAME). */
  workspaceName: string;
}

/** Seed options from the environment with documented defaults. */
export function seedOptionsFromEnvironment(environment: Record<string, string | undefined> = process.env): SeedOptions {
  return {
    adminEmail: environment.TRELLIS_ADMIN_EMAIL ?? "admin@trellis.local",
    adminPassword: environment.TRELLIS_ADMIN_PASSWORD ?? "trellis-admin",
    workspaceName: environment.TRELLIS_WORKSPACE_NAME ?? "Default workspace",
  };
}

/**
 * Idempotent: creates the default workspace, the admin user, the example workflows and their
 * datasets once;
 * later runs add only examples that are missing (matched by slug) and never touch user edits.
 */
export async function seedDatabase(
  db: Database,
  options: SeedOptions,
): Promise<{ workspaceId: string; ownerId: string; created: string[] }> {
  const created: string[] = [];
  let workspace = await db.workspace.findFirst({ orderBy: { createdAt: "asc" } });
  if (!workspace) {
    workspace = await db.workspace.create({ data: { name: options.workspaceName, slug: "default" } });
    created.push(`workspace ${workspace.name}`);
  }
  let user = await db.user.findUnique({ where: { email: options.adminEmail } });
  if (!user) {
    user = await db.user.create({
      data: { email: options.adminEmail, name: "Admin", passwordHash: await hashPassword(options.adminPassword) },
    });
    created.push(`user ${user.email}`);
  }
  await db.membership.upsert({
    where: { workspaceId_userId: { workspaceId: workspace.id, userId: user.id } },
    create: { workspaceId: workspace.id, userId: user.id, role: "owner" },
    update: {},
  });
  for (const example of exampleWorkflows) {
    const existing = await db.workflow.findUnique({
      where: { workspaceId_slug: { workspaceId: workspace.id, slug: example.slug } },
    });
    if (existing) continue;
    await db.workflow.create({
      data: {
        workspaceId: workspace.id,
        name: example.name,
        slug: example.slug,
        description: example.description,
        draft: toJson(example.document),
        isTemplate: true,
        updatedBy: user.id,
      },
    });
    created.push(`example ${example.name}`);
  }
  // The examples' datasets, once each (matched by name), linked to their workflow.
  for (const dataset of exampleDatasets) {
    const existing = await db.dataset.findUnique({
      where: { workspaceId_name: { workspaceId: workspace.id, name: dataset.name } },
    });
    if (existing) continue;
    const workflow = await db.workflow.findUnique({
      where: { workspaceId_slug: { workspaceId: workspace.id, slug: dataset.workflowSlug } },
      select: { id: true },
    });
    await db.dataset.create({
      data: {
        workspaceId: workspace.id,
        name: dataset.name,
        description: dataset.description,
        workflowId: workflow?.id ?? null,
        versions: {
          create: { version: 1, cases: toJson(datasetCasesSchema.parse(dataset.cases)), note: "Shipped example" },
        },
      },
    });
    created.push(`dataset ${dataset.name}`);
  }
  return { workspaceId: workspace.id, ownerId: user.id, created };
}
