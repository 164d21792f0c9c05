import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveHttpCredential } from "@/lib/db/http-credential-repository";
import { apiRequest } from "@/lib/services/testing/api-client";
import { type OwnerWorkspace, seedOwnerWorkspace } from "@/lib/services/testing/owner-workspace";
import { DELETE, PATCH } from "./[name]/route";
import { GET, POST } from "./route";

const post = (body: unknown) => apiRequest("POST", body, "http://localhost/api/credentials");

describe("HTTP credential routes", () => {
  let test: OwnerWorkspace;
  let workspaceId: string;

  beforeAll(async () => {
    test = await seedOwnerWorkspace("sqlite", { adminEmail: "admin@example.test", workspaceName: "Test" });
    ({ workspaceId } = test);
  });
  afterAll(async () => test?.dispose());

  it("adds a credential whose secret is never answered, lists it, and deletes it", async () => {
    const created = await POST(
      post({ name: "billing", type: "bearer", secret: "tok-route-secret", allowedHosts: "billing.example.com" }),
    );
    expect(created.status).toBe(201);
    expect(await created.text()).not.toContain("tok-route-secret");
    const listed = await (await GET(apiRequest())).json();
    expect(listed.credentials).toEqual([expect.objectContaining({ name: "billing", type: "bearer" })]);
    expect(JSON.stringify(listed)).not.toContain("tok-route-secret");
    expect((await resolveHttpCredential(workspaceId, "billing"))?.secret).toBe("tok-route-secret");

    const again = await POST(
      post({ name: "billing", type: "bearer", secret: "x", allowedHosts: "billing.example.com" }),
    );
    expect(again.status).toBe(409);
    expect((await again.json()).error.issues).toEqual([{ path: "name", message: "This name is already used." }]);

    const deleted = await DELETE(apiRequest(), { params: Promise.resolve({ name: "billing" }) });
    expect(deleted.status).toBe(204);
    const missing = await DELETE(apiRequest(), { params: Promise.resolve({ name: "billing" }) });
    expect(missing.status).toBe(404);
  });

  it("requires allowed hosts, changes them with PATCH, and keeps the secret out of the answer", async () => {
    const missing = await POST(post({ name: "hosts", type: "bearer", secret: "tok-hosts-secret" }));
    expect(missing.status).toBe(400);
    expect(JSON.stringify(await missing.json())).toContain("allowedHosts");
    expect(
      (await POST(post({ name: "hosts", type: "bearer", secret: "tok-hosts-secret", allowedHosts: "a.test" }))).status,
    ).toBe(201);
    const patched = await PATCH(
      apiRequest("PATCH", { allowedHosts: ["a.test", "*.b.test"] }, "http://localhost/api/credentials/hosts"),
      {
        params: Promise.resolve({ name: "hosts" }),
      },
    );
    expect(patched.status).toBe(200);
    const text = await patched.text();
    expect(JSON.parse(text).credential.allowedHosts).toEqual(["a.test", "*.b.test"]);
    expect(text).not.toContain("tok-hosts-secret");
    const bad = await PATCH(
      apiRequest("PATCH", { allowedHosts: "ftp://a.test" }, "http://localhost/api/credentials/hosts"),
      {
        params: Promise.resolve({ name: "hosts" }),
      },
    );
    expect(bad.status).toBe(400);
  });

  it("answers 400 naming the field for an incomplete credential", async () => {
    const response = await POST(
      post({ name: "hdr", type: "header", parameter: "", secret: "s", allowedHosts: "a.test" }),
    );
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.error.field ?? body.error.issues?.[0]?.path).toBe("parameter");
  });
});
