"use client";

import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { type ApiIssue, sendJson } from "./settings-api";

/**
 * The state of a settings page with an "add" form and row actions: the form's values, the
 * server's per-field issues, one notice line, and a refresh of the server-rendered list after
 * every change. A failed add keeps what was typed.
 */
export function useSettingsForm<Form extends Record<string, unknown>, Created>(options: {
  /** Where the form POSTs. */
  url: string;
  /** Empty form, also what a successful add resets to. */
  initial: Form;
  /** The notice after a successful add. */
  added: (created: Created) => string;
}) {
  const router = useRouter();
  const [form, setForm] = useState(options.initial);
  const [issues, setIssues] = useState<ApiIssue[]>([]);
  const [message, setMessage] = useState<string | null>(null);

  const submit = async (event: FormEvent): Promise<Created | undefined> => {
    event.preventDefault();
    const result = await sendJson<Created>(options.url, "POST", form);
    if (!result.ok) {
      setIssues(result.issues);
      setMessage(result.issues.length > 0 ? null : result.message);
      return undefined;
    }
    setIssues([]);
    setForm(options.initial);
    setMessage(options.added(result.data));
    router.refresh();
    return result.data;
  };

  /** Sends a row action (delete, role change…); the notice says `done` or the server's message. */
  const act = async (url: string, method: string, done: string, body?: unknown): Promise<void> => {
    const result = await sendJson(url, method, body);
    setMessage(result.ok ? done : result.message);
    router.refresh();
  };

  return {
    form,
    set: (patch: Partial<Form>) => setForm((current) => ({ ...current, ...patch })),
    issueAt: (path: string) => issues.find((issue) => issue.path === path)?.message,
    submit,
    act,
    message,
    setMessage,
  };
}
