import { describe, expect, it } from "vitest";
import { TrellisError } from "../../workflow/errors";
import { type Action, authorize, can, roleMay } from "./policy";
import type { ApiKeyPrincipal, Principal, UserPrincipal } from "./principal";
import type { WorkspaceRole } from "./roles";

const user = (role: WorkspaceRole): UserPrincipal => ({ kind: "user", userId: `u-${role}`, workspaceId: "ws-a", role });
const key = (workflowId: string | null, scopes = ["run"]): ApiKeyPrincipal => ({
  kind: "api-key",
  keyId: "k1",
  workspaceId: "ws-a",
  scopes,
  workflowIds: workflowId === null ? null : [workflowId],
});
const inA = { workspaceId: "ws-a", workflowId: "wf-1" };
const notFound = () => new TrellisError("thing_not_found", "no such thing");

function refusalCode(principal: Principal | null, action: Action, resource = inA): string | null {
  try {
    authorize(principal, action, resource, notFound);
    return null;
  } catch (error) {
    return (error as TrellisError).code;
  }
}

describe("access policy", () => {
  it("no principal: every action is 401, fail closed", () => {
    for (const action of ["workflow.read", "run.read", "account.manage"] as const) {
      expect(refusalCode(null, action)).toBe("unauthorized");
      expect(can(null, action, inA)).toBe(false);
    }
  });

  it("viewer: reads workflows and runs, changes nothing", () => {
    const viewer = user("viewer");
    for (const action of ["workflow.read", "run.read", "workspace.read", "account.manage"] as const) {
      expect(refusalCode(viewer, action)).toBeNull();
    }
    for (const action of ["workflow.edit", "workflow.run", "workflow.publish", "run.cancel", "run.resume"] as const) {
      expect(refusalCode(viewer, action)).toBe("forbidden");
    }
    expect(() => authorize(viewer, "workflow.edit", inA)).toThrow(/Viewers cannot edit workflows/);
  });

  it("reviewing runs: every member, viewers included; never an API key or the server", () => {
    for (const role of ["viewer", "editor", "admin", "owner"] as const) {
      expect(refusalCode(user(role), "run.review")).toBeNull();
    }
    expect(refusalCode(key(null), "run.review", { ...inA, trigger: "api" } as typeof inA)).toBe(
      "api_key_scope_missing",
    );
    const system: Principal = { kind: "system", workspaceId: "ws-a", actor: "scheduler" };
    expect(refusalCode(system, "run.review")).toBe("forbidden");
    expect(refusalCode(user("viewer"), "run.review", { workspaceId: "ws-b", workflowId: "wf-9" })).toBe(
      "thing_not_found",
    );
  });

  it("editor: builds, runs and publishes, but no settings or members", () => {
    const editor = user("editor");
    for (const action of [
      "workflow.create",
      "workflow.edit",
      "workflow.run",
      "workflow.publish",
      "run.cancel",
    ] as const) {
      expect(refusalCode(editor, action)).toBeNull();
    }
    expect(refusalCode(editor, "settings.manage")).toBe("forbidden");
    expect(refusalCode(editor, "members.manage")).toBe("forbidden");
    expect(() => authorize(editor, "settings.manage", inA)).toThrow(/Only workspace owners and admins/);
  });

  it("admin and owner: settings and members too", () => {
    for (const role of ["admin", "owner"] as const) {
      expect(refusalCode(user(role), "settings.manage")).toBeNull();
      expect(refusalCode(user(role), "members.manage")).toBeNull();
    }
  });

  it("roleMay answers for a role alone, as the policy does for a member with it", () => {
    for (const role of ["owner", "admin", "editor", "viewer"] as const) {
      for (const action of ["settings.manage", "workflow.edit", "run.read"] as const) {
        expect(roleMay(role, action)).toBe(can(user(role), action));
      }
    }
    expect(roleMay("viewer", "settings.manage")).toBe(false);
    expect(roleMay("admin", "settings.manage")).toBe(true);
    expect(roleMay("nobody", "run.read")).toBe(false);
  });

  it("another workspace's resource is not found for everyone, whatever the role", () => {
    const elsewhere = { workspaceId: "ws-b", workflowId: "wf-9" };
    for (const principal of [user("owner"), user("viewer"), key(null)]) {
      expect(refusalCode(principal, "workflow.read", elsewhere)).toBe("thing_not_found");
    }
  });

  it("API key: runs published workflows within its workflow limit, follows only API runs", () => {
    const limited = key("wf-1");
    expect(refusalCode(limited, "workflow.run", inA)).toBeNull();
    expect(refusalCode(limited, "workflow.run", { workspaceId: "ws-a", workflowId: "wf-2" })).toBe("thing_not_found");
    expect(refusalCode(limited, "run.read", { ...inA, trigger: "api" } as typeof inA)).toBeNull();
    expect(refusalCode(limited, "run.cancel", { ...inA, trigger: "editor" } as typeof inA)).toBe("thing_not_found");
    expect(refusalCode(limited, "workflow.edit", inA)).toBe("api_key_scope_missing");
    expect(refusalCode(limited, "settings.manage", inA)).toBe("api_key_scope_missing");
    expect(refusalCode(key(null, []), "workflow.run", inA)).toBe("api_key_scope_missing");
    expect(refusalCode(key(null), "workflow.run", { workspaceId: "ws-a", workflowId: "wf-2" })).toBeNull();
  });

  it("API key scopes: run, read-runs and manage each grant their own actions, within the workflow list", () => {
    const several: ApiKeyPrincipal = { ...key(null), workflowIds: ["wf-1", "wf-3"] };
    expect(refusalCode(several, "workflow.run", inA)).toBeNull();
    expect(refusalCode(several, "workflow.run", { workspaceId: "ws-a", workflowId: "wf-3" })).toBeNull();
    expect(refusalCode(several, "workflow.run", { workspaceId: "ws-a", workflowId: "wf-2" })).toBe("thing_not_found");
    const editorRun = { ...inA, trigger: "editor" } as typeof inA;
    const apiRun = { ...inA, trigger: "api" } as typeof inA;
    // read-runs: reads runs of any trigger, but starts, cancels and answers nothing.
    const reader = key(null, ["read-runs"]);
    expect(refusalCode(reader, "run.read", editorRun)).toBeNull();
    expect(refusalCode(reader, "run.read", apiRun)).toBeNull();
    expect(refusalCode(reader, "workflow.run", inA)).toBe("api_key_scope_missing");
    expect(refusalCode(reader, "run.cancel", apiRun)).toBe("api_key_scope_missing");
    expect(refusalCode(reader, "run.cancel", editorRun)).toBe("thing_not_found");
    // manage: versions and the served version; no runs.
    const manager = key(null, ["manage"]);
    expect(refusalCode(manager, "workflow.publish", inA)).toBeNull();
    expect(refusalCode(manager, "workflow.read", inA)).toBeNull();
    expect(refusalCode(manager, "workflow.run", inA)).toBe("api_key_scope_missing");
    expect(refusalCode(manager, "workflow.edit", inA)).toBe("api_key_scope_missing");
    expect(refusalCode(key("wf-2", ["manage"]), "workflow.publish", inA)).toBe("thing_not_found");
    // run alone does not read the workspace's editor runs: they do not exist for it.
    expect(refusalCode(key(null, ["run"]), "run.read", editorRun)).toBe("thing_not_found");
    expect(refusalCode(key(null, ["run"]), "workflow.publish", inA)).toBe("api_key_scope_missing");
  });

  it("system principal: runs and reads in its workspace only", () => {
    const system: Principal = { kind: "system", workspaceId: "ws-a", actor: "scheduler" };
    expect(refusalCode(system, "workflow.run")).toBeNull();
    expect(refusalCode(system, "workflow.edit")).toBe("forbidden");
    expect(refusalCode(system, "workflow.run", { workspaceId: "ws-b", workflowId: "x" })).toBe("thing_not_found");
  });
});
