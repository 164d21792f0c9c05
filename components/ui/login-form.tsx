"use client";

import { type FormEvent, useState } from "react";
import { Button } from "./button";
import { Card } from "./card";
import { Input } from "./input";
import { Label } from "./label";
import { LogoMark } from "./logo";

/** E-mail and password form; on success it navigates to `next`. */
export function LoginForm({ next }: { next: string }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    const response = await fetch("/api/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: form.get("email"), password: form.get("password") }),
    });
    setBusy(false);
    if (response.ok) {
      window.location.assign(next);
      return;
    }
    const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
    setError(body?.error?.message ?? "Sign-in failed.");
  }

  return (
    <Card className="w-[min(360px,92vw)] p-6 shadow-md">
      <form onSubmit={submit} data-testid="login-form" className="flex flex-col gap-4">
        <div className="flex flex-col items-center gap-3 pb-1 text-center">
          <LogoMark className="size-10" />
          <div>
            <h1 className="m-0 text-xl font-semibold tracking-tight">Sign in to Trellis</h1>
            <p className="m-0 mt-1 text-sm text-muted-foreground">Build, run and publish agent workflows.</p>
          </div>
        </div>
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="login-email">E-mail</Label>
          <Input
            id="login-email"
            name="email"
            type="email"
            autoComplete="username"
            required
            data-testid="login-email"
            className="h-9"
          />
        </div>
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="login-password">Password</Label>
          <Input
            id="login-password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            data-testid="login-password"
            className="h-9"
          />
        </div>
        {error ? (
          <p role="alert" className="m-0 text-sm text-destructive" data-testid="login-error">
            {error}
          </p>
        ) : null}
        <Button type="submit" variant="primary" size="lg" disabled={busy} data-testid="login-submit">
          {busy ? "Signing in…" : "Sign in"}
        </Button>
      </form>
    </Card>
  );
}
