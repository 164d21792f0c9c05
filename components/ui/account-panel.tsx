"use client";

import { LogOutIcon } from "lucide-react";
import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { Badge } from "./badge";
import { Button } from "./button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "./card";
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
    <div data-testid="account" className="flex flex-col gap-4">
      <Card>
        <CardContent className="flex items-center justify-between gap-4">
          <div className="min-w-0">
            <p className="m-0 truncate font-semibold" data-testid="account-email">
              {email}
            </p>
            <p className="m-0 mt-0.5 text-sm text-muted-foreground">
              {name} ·{" "}
              <Badge tone="primary" data-testid="account-role">
                {role}
              </Badge>{" "}
              of this workspace
            </p>
          </div>
          <Button data-testid="sign-out" onClick={() => void signOut()}>
            <LogOutIcon /> Sign out
          </Button>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Change password</CardTitle>
          <CardDescription>A new password signs out every other session of this account.</CardDescription>
        </CardHeader>
        <CardContent>
          <form className="flex max-w-sm flex-col" onSubmit={(event) => void change(event)} data-testid="password-form">
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
              <p className="m-0 mb-3 text-sm text-destructive" data-testid="password-error">
                {issue.message}
              </p>
            )}
            {done && (
              <p className="m-0 mb-3 text-sm text-success" role="status" data-testid="password-changed">
                Password changed.
              </p>
            )}
            <Button type="submit" variant="primary" className="self-start" data-testid="change-password">
              Change password
            </Button>
          </form>
        </CardContent>
      </Card>
    </div>
  );
}
