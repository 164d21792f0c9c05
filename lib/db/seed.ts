import "server-only";
import { datasetCasesSchema } from "../evaluation/model/dataset";
import { exampleDatasets } from "../evaluation/model/example-datasets";
import { exampleWorkflows } from "../workflow/examples";
import { createUserWithPassword } from "./credentials";
import { toJson } from "./json";
import { hashPassword } from "./passwords";
import type { Database } from "./prisma-client";

/** The note of a shipped dataset version (how the seed tells it from a person's edit). */
const SHIPPED_NOTE = "Shipped example";

/** JSON with object keys sorted: PostgreSQL's jsonb does not keep key order. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, entry: unknown) =>
    entry && typeof entry === "object" && !Array.isArray(entry)
      ? Object.fromEntries(Object.entries(entry).sort(([left], [right]) => left.localeCompare(right)))
      : entry,
  );
}

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
  let user = await db.user.findUnique({ where: { email: options.adminEmail }, select: { id: true, email: true } });
  if (!user) {
    user = await createUserWithPassword(
      { email: options.adminEmail, name: "Admin", passwordHash: await hashPassword(options.adminPassword) },
      db,
    );
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
    if (existing) {
      // A shipped dataset nobody edited (its latest version is the shipped one) follows the
      // shipped cases: an upgrade that gives cases a fixture reaches existing installs.
      const latest = await db.datasetVersion.findFirst({
        where: { datasetId: existing.id },
        orderBy: { version: "desc" },
      });
      const cases = datasetCasesSchema.parse(dataset.cases);
      if (latest?.note === SHIPPED_NOTE && canonicalJson(latest.cases) !== canonicalJson(cases)) {
        await db.datasetVersion.create({
          data: { datasetId: existing.id, version: latest.version + 1, cases: toJson(cases), note: SHIPPED_NOTE },
        });
        await db.dataset.update({ where: { id: existing.id }, data: { description: dataset.description } });
        created.push(`dataset ${dataset.name} v${latest.version + 1}`);
      }
      continue;
    }
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
          create: { version: 1, cases: toJson(datasetCasesSchema.parse(dataset.cases)), note: SHIPPED_NOTE },
        },
      },
    });
    created.push(`dataset ${dataset.name}`);
  }
  return { workspaceId: workspace.id, ownerId: user.id, created };
}
