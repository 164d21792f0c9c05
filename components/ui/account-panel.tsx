"use client";

import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { TextField } from "./form-field";

/** The signed-in user's page: who they are, a password change and sign-out. */
export function AccountPanel({ email, name, role }: { email: string; name: string; role: string }) {
  const router = useRouter();
  const [currentPassword, setCurrentPassword] = useState("");
  const [newPassword, setNewPassword] = useState("");
  const [issue, setIssue] = useState<{ field: string; message: string } | null>(null);
  const [done, setDone] = useState(false);

  const change = async (event: FormEvent) => {
    event.preventDefault();
    setDone(false);
    const response = await fetch("/api/account/password", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ currentPassword, newPassword }),
    });
    if (response.ok) {
      setIssue(null);
      setCurrentPassword("");
      setNewPassword("");
      setDone(true);
      return;
    }
    const body = (await response.json().catch(() => ({}))) as {
      error?: { message?: string; field?: string; issues?: { path: string; message: string }[] };
    };
    const first = body.error?.issues?.[0];
    setIssue({
      field: first?.path ?? body.error?.field ?? "",
      message: first?.message ?? body.error?.message ?? `Request failed (${response.status})`,
    });
  };

  const signOut = async () => {
    await fetch("/api/auth/logout", { method: "POST" });
    router.push("/login");
    router.refresh();
  };

  return (
    <div data-testid="account">
      <p>
        Signed in as <b data-testid="account-email">{email}</b> ({name}), <span data-testid="account-role">{role}</span>{" "}
        of this workspace.
      </p>
      <button type="button" className="button" data-testid="sign-out" onClick={() => void signOut()}>
        Sign out
      </button>
      <form className="settings-form" onSubmit={(event) => void change(event)} data-testid="password-form">
        <h2>Change password</h2>
        <TextField
          id="current-password"
          label="Current password"
          type="password"
          autoComplete="current-password"
          value={currentPassword}
          onChange={setCurrentPassword}
          error={issue?.field === "currentPassword" ? issue.message : undefined}
          errorTestId="password-error-currentPassword"
        />
        <TextField
          id="new-password"
          label="New password (8 characters or more)"
          type="password"
          autoComplete="new-password"
          value={newPassword}
          onChange={setNewPassword}
          error={issue?.field === "newPassword" ? issue.message : undefined}
          errorTestId="password-error-newPassword"
        />
        {issue && issue.field !== "currentPassword" && issue.field !== "newPassword" && (
          <p className="field-error" data-testid="password-error">
            {issue.message}
          </p>
        )}
        {done && (
          <p className="notice" data-testid="password-changed">
            Password changed.
          </p>
        )}
        <button type="submit" className="button button-primary" data-testid="change-password">
          Change password
        </button>
      </form>
    </div>
  );
}
