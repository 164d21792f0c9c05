"use client";

import { LogOutIcon, MonitorSmartphoneIcon } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import type { SessionView } from "@/lib/contracts/session-view";
import { Badge } from "./badge";
import { Button } from "./button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "./card";
import { formatRelativeTime } from "./format";

/** A short device label from a user agent ("Firefox on Linux"); the raw string is the tooltip. */
function deviceOf(userAgent: string | null): string {
  if (!userAgent) return "Unknown device";
  const browser =
    [/Edg\//, /Firefox\//, /Chrom(e|ium)\//, /Safari\//].map((pattern) => pattern.exec(userAgent)?.[0]).find(Boolean) ??
    null;
  const system = [/Windows/, /Mac OS X|Macintosh/, /Android/, /iPhone|iPad/, /Linux/]
    .map((pattern) => pattern.exec(userAgent)?.[0])
    .find(Boolean);
  const name = browser?.replace("/", "").replace("Edg", "Edge").replace("Chromium", "Chrome") ?? userAgent.slice(0, 40);
  return system ? `${name} on ${system.replace("Mac OS X", "macOS").replace("Macintosh", "macOS")}` : name;
}

/**
 * The signed-in user's sessions (device, address, started, last seen; this one marked) with
 * "revoke" per session and "sign out everywhere".
 */
export function AccountSessions({ initialSessions }: { initialSessions: SessionView[] }) {
  const router = useRouter();
  const [sessions, setSessions] = useState(initialSessions);
  const [error, setError] = useState<string | null>(null);

  const leave = () => {
    router.push("/login");
    router.refresh();
  };

  const revoke = async (session: SessionView) => {
    const response = await fetch(`/api/account/sessions/${encodeURIComponent(session.id)}`, { method: "DELETE" });
    if (!response.ok) {
      setError(`Could not end the session (${response.status}).`);
      return;
    }
    setError(null);
    if (session.current) return leave();
    setSessions((current) => current.filter((row) => row.id !== session.id));
  };

  const revokeAll = async () => {
    const response = await fetch("/api/account/sessions/revoke-all", { method: "POST" });
    if (!response.ok) {
      setError(`Could not sign out everywhere (${response.status}).`);
      return;
    }
    leave();
  };

  return (
    <Card data-testid="account-sessions">
      <CardHeader>
        <CardTitle>Sessions</CardTitle>
        <CardDescription>Where this account is signed in. End a session you do not recognise.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <ul className="m-0 flex list-none flex-col divide-y divide-border p-0">
          {sessions.map((session) => (
            <li
              key={session.id}
              data-testid="session-row"
              data-id={session.id}
              className="flex items-center gap-3 py-2"
            >
              <MonitorSmartphoneIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden />
              <div className="min-w-0 flex-1">
                <p className="m-0 truncate text-sm font-medium" title={session.userAgent ?? undefined}>
                  {deviceOf(session.userAgent)}{" "}
                  {session.current && (
                    <Badge tone="primary" data-testid="session-current">
                      This session
                    </Badge>
                  )}
                </p>
                <p className="m-0 text-xs text-muted-foreground">
                  {session.ipAddress ?? "unknown address"} · signed in {formatRelativeTime(session.createdAt)} · last
                  seen {formatRelativeTime(session.lastSeenAt)}
                </p>
              </div>
              <Button
                size="sm"
                data-testid="session-revoke"
                aria-label={
                  session.current ? "Sign out this session" : `Revoke session: ${deviceOf(session.userAgent)}`
                }
                onClick={() => void revoke(session)}
              >
                {session.current ? "Sign out" : "Revoke"}
              </Button>
            </li>
          ))}
        </ul>
        {error && (
          <p className="m-0 text-sm text-destructive" role="alert" data-testid="sessions-error">
            {error}
          </p>
        )}
        <Button
          variant="destructive"
          className="self-start"
          data-testid="sign-out-everywhere"
          onClick={() => void revokeAll()}
        >
          <LogOutIcon /> Sign out everywhere
        </Button>
      </CardContent>
    </Card>
  );
}
