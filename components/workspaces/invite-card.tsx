"use client";

import { type FormEvent, useState } from "react";
import { type ApiIssue, sendJson } from "@/components/settings/settings-api";
import { switchWorkspace } from "@/components/shell/switch-workspace";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { TextField } from "@/components/ui/form-field";
import { LogoMark } from "@/components/ui/logo";
import type { InvitationPreview } from "@/lib/contracts/workspace-views";

/** Why a link no longer works, in the reader's words. */
const PROBLEM_TITLES: Record<string, string> = {
  invitation_used: "This invitation has been used",
  invitation_expired: "This invitation has expired",
  invitation_revoked: "This invitation was revoked",
  invitation_not_found: "This invitation does not exist",
};

/**
 * The invite page's card: the workspace and role offered; "Accept" for a signed-in user, or a
 * sign-up form (name, e-mail, password) for someone new. Either way the session then switches
 * into the workspace and the page reloads there.
 */
export function InviteCard({
  token,
  preview,
  problem,
  signedInAs,
}: {
  token: string;
  preview: InvitationPreview | null;
  problem: { code: string; message: string } | null;
  signedInAs: string | null;
}) {
  const [error, setError] = useState<string | null>(null);
  const [issues, setIssues] = useState<ApiIssue[]>([]);
  const [busy, setBusy] = useState(false);
  const [form, setForm] = useState({ name: "", email: preview?.email ?? "", password: "" });
  const base = `/api/invite/${encodeURIComponent(token)}`;

  const fail = (message: string, fieldIssues: ApiIssue[] = []) => {
    setBusy(false);
    setIssues(fieldIssues);
    setError(fieldIssues.length > 0 ? null : message);
  };

  const accept = async () => {
    setBusy(true);
    const result = await sendJson<{ membership: { workspaceId: string } }>(`${base}/accept`, "POST");
    if (!result.ok) return fail(result.message);
    const problemSwitching = await switchWorkspace(result.data.membership.workspaceId);
    if (problemSwitching) fail(problemSwitching);
  };

  const signUp = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    const joined = await sendJson<{ membership: { workspaceId: string } }>(`${base}/sign-up`, "POST", form);
    if (!joined.ok) return fail(joined.message, joined.issues);
    const signedIn = await sendJson("/api/auth/login", "POST", { email: form.email, password: form.password });
    if (!signedIn.ok) return fail(signedIn.message);
    const problemSwitching = await switchWorkspace(joined.data.membership.workspaceId);
    if (problemSwitching) fail(problemSwitching);
  };

  const issueAt = (path: string) => issues.find((issue) => issue.path === path)?.message;

  return (
    <Card className="w-[min(400px,92vw)] p-6 shadow-md" data-testid="invite-card">
      <div className="flex flex-col items-center gap-3 pb-4 text-center">
        <LogoMark className="size-10" />
        {problem || !preview ? (
          <div data-testid="invite-problem" data-code={problem?.code}>
            <h1 className="m-0 text-xl font-semibold tracking-tight">
              {PROBLEM_TITLES[problem?.code ?? ""] ?? "This invitation cannot be used"}
            </h1>
            <p className="m-0 mt-1 text-sm text-muted-foreground">{problem?.message}</p>
          </div>
        ) : (
          <div>
            <h1 className="m-0 text-xl font-semibold tracking-tight" data-testid="invite-workspace">
              Join {preview.workspaceName}
            </h1>
            <p className="m-0 mt-1 text-sm text-muted-foreground">
              You are invited as <b data-testid="invite-role">{preview.role}</b>
              {preview.email ? ` (${preview.email})` : ""}. The link works once, until{" "}
              {new Date(preview.expiresAt).toLocaleDateString()}.
            </p>
          </div>
        )}
      </div>
      {preview && !problem && signedInAs && (
        <div className="flex flex-col gap-3">
          <p className="m-0 text-sm">
            Signed in as <b>{signedInAs}</b>.
          </p>
          <Button variant="primary" size="lg" disabled={busy} onClick={() => void accept()} data-testid="invite-accept">
            Accept and join
          </Button>
        </div>
      )}
      {preview && !problem && !signedInAs && (
        <form onSubmit={(event) => void signUp(event)} data-testid="invite-sign-up" className="flex flex-col">
          <TextField
            id="invite-name"
            label="Your name"
            value={form.name}
            onChange={(name) => setForm({ ...form, name })}
            error={issueAt("name")}
            errorTestId="invite-error-name"
            autoComplete="name"
          />
          <TextField
            id="invite-email"
            label="E-mail"
            type="email"
            value={form.email}
            onChange={(email) => setForm({ ...form, email })}
            error={issueAt("email")}
            errorTestId="invite-error-email"
            autoComplete="username"
          />
          <TextField
            id="invite-password"
            label="Password (8 characters or more)"
            type="password"
            value={form.password}
            onChange={(password) => setForm({ ...form, password })}
            error={issueAt("password")}
            errorTestId="invite-error-password"
            autoComplete="new-password"
          />
          <Button type="submit" variant="primary" size="lg" disabled={busy} data-testid="invite-create-account">
            Create account and join
          </Button>
          <p className="m-0 mt-3 text-center text-sm text-muted-foreground">
            Already have an account?{" "}
            <a
              href={`/login?next=${encodeURIComponent(`/invite/${token}`)}`}
              className="font-medium underline underline-offset-2"
              data-testid="invite-sign-in"
            >
              Sign in to accept
            </a>
          </p>
        </form>
      )}
      {error && (
        <p role="alert" className="m-0 mt-3 text-sm text-destructive" data-testid="invite-error">
          {error}
        </p>
      )}
    </Card>
  );
}
