"use client";

import { type FormEvent, useState } from "react";

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
    <form
      onSubmit={submit}
      data-testid="login-form"
      style={{
        display: "grid",
        gap: 12,
        width: 320,
        padding: 24,
        background: "white",
        border: "1px solid var(--border)",
        borderRadius: 8,
      }}
    >
      <h1 style={{ margin: 0, fontSize: 20 }}>Sign in to Trellis</h1>
      <label style={{ display: "grid", gap: 4 }}>
        E-mail
        <input name="email" type="email" autoComplete="username" required data-testid="login-email" />
      </label>
      <label style={{ display: "grid", gap: 4 }}>
        Password
        <input name="password" type="password" autoComplete="current-password" required data-testid="login-password" />
      </label>
      {error ? (
        <p role="alert" style={{ color: "var(--danger)", margin: 0 }} data-testid="login-error">
          {error}
        </p>
      ) : null}
      <button type="submit" className="button button-primary" disabled={busy} data-testid="login-submit">
        {busy ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
