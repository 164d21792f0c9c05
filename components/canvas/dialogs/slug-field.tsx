"use client";

import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { FieldHint } from "@/components/ui/field-hint";
import { Input } from "@/components/ui/input";
import { workflowSlugSchema } from "@/lib/contracts/workflow-slug";
import { useEditorStore, useEditorStoreApi } from "../store/editor-store-context";

/**
 * The workflow's slug, the name its published endpoint answers to, editable in the API panel
 * (`PUT /api/workflows/:id/slug`). Until the first publish it follows the workflow's name; after,
 * it changes only here, since API clients call it. Checked with the route's own schema as it is
 * typed (after the field is touched), and the server's 409 `workflow_slug_taken` is shown on it.
 */
export function SlugField() {
  const store = useEditorStoreApi();
  const slug = useEditorStore((state) => state.workflowSlug);
  const readOnly = useEditorStore((state) => state.readOnly || state.viewingVersion !== null);
  const published = useEditorStore((state) => state.publishedVersion !== null);
  const [value, setValue] = useState(slug);
  const [touched, setTouched] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);

  // A rename before the first publish moves the slug (autosave reports it): follow it until edited.
  useEffect(() => {
    if (!touched) setValue(slug);
  }, [slug, touched]);

  const parsed = workflowSlugSchema.safeParse(value);
  const localError = touched && !parsed.success ? (parsed.error.issues[0]?.message ?? "Enter a slug") : null;
  const error = localError ?? serverError;
  const changed = parsed.success && parsed.data !== slug;

  const save = async () => {
    setTouched(true);
    if (!parsed.success) return;
    setBusy(true);
    setServerError(null);
    setSaved(false);
    try {
      const response = await fetch(`/api/workflows/${store.getState().workflowId}/slug`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ slug: parsed.data }),
      });
      const body = (await response.json().catch(() => null)) as {
        slug?: string;
        error?: { message?: string; issues?: { path: string; message: string }[] };
      } | null;
      if (!response.ok) {
        setServerError(body?.error?.issues?.[0]?.message ?? body?.error?.message ?? `Failed (${response.status})`);
        return;
      }
      store.setState({ workflowSlug: body?.slug ?? parsed.data });
      setValue(body?.slug ?? parsed.data);
      setTouched(false);
      setSaved(true);
    } catch {
      setServerError("Could not reach the server.");
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="flex flex-col gap-1.5" data-testid="slug-field">
      <label className="text-xs font-semibold text-foreground" htmlFor="workflow-slug">
        Slug
      </label>
      <div className="flex gap-2">
        <Input
          id="workflow-slug"
          data-testid="workflow-slug"
          value={value}
          readOnly={readOnly}
          maxLength={60}
          spellCheck={false}
          aria-invalid={error !== null}
          aria-describedby="workflow-slug-help"
          onChange={(event) => {
            setValue(event.target.value);
            setTouched(true);
            setServerError(null);
            setSaved(false);
          }}
          onKeyDown={(event) => {
            if (event.key === "Enter" && changed) {
              event.preventDefault();
              void save();
            }
          }}
        />
        {!readOnly && (
          <Button data-testid="workflow-slug-save" disabled={busy || !changed} onClick={() => void save()}>
            {busy ? "Saving…" : "Change slug"}
          </Button>
        )}
      </div>
      {error ? (
        <p className="m-0 text-xs text-destructive" id="workflow-slug-help" data-testid="workflow-slug-error">
          {error}
        </p>
      ) : (
        <FieldHint id="workflow-slug-help">
          {saved
            ? "Slug changed: API clients must use the new name."
            : published
              ? "Fixed since the first publish: changing it moves the endpoint."
              : "Follows the workflow's name until the first publish."}
        </FieldHint>
      )}
    </div>
  );
}
