"use client";

import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";

/** A human-input node's question, as the `run-waiting` event and the run API describe it. */
export interface WaitingQuestion {
  /** Node asking. */
  nodeId: string;
  /** Question text. */
  prompt: string;
  /** Form fields as the engine describes them (`{ name, label, type, required, options }`). */
  fields: unknown[];
}

interface AnswerField {
  name: string;
  label: string;
  type: "text" | "number" | "boolean" | "select";
  required: boolean;
  options: string[];
}

function readFields(fields: unknown[]): AnswerField[] {
  return fields.flatMap((raw) => {
    if (typeof raw !== "object" || raw === null) return [];
    const field = raw as Record<string, unknown>;
    if (typeof field.name !== "string") return [];
    const type = field.type === "number" || field.type === "boolean" || field.type === "select" ? field.type : "text";
    return [
      {
        name: field.name,
        label: typeof field.label === "string" && field.label.trim() !== "" ? field.label : field.name,
        type,
        required: field.required === true,
        options: Array.isArray(field.options) ? field.options.filter((option) => typeof option === "string") : [],
      },
    ];
  });
}

/**
 * Answers a waiting human-input node with one labelled control per form field, so the run
 * resumes; shared by the editor's run panel and the run page. The server validates the answer
 * and names the field at fault (422), which is shown beside that field.
 */
export function HumanInputAnswerForm({
  runId,
  waiting,
  onAnswered,
}: {
  runId: string;
  waiting: WaitingQuestion;
  onAnswered?: () => void;
}) {
  const fields = readFields(waiting.fields);
  const [values, setValues] = useState<Record<string, string | boolean>>({});
  const [error, setError] = useState<{ field?: string; message: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    const missing = fields.find(
      (field) => field.required && field.type !== "boolean" && String(values[field.name] ?? "").trim() === "",
    );
    if (missing) {
      setError({ field: missing.name, message: `${missing.label}: required` });
      return;
    }
    const answer = Object.fromEntries(
      fields.map((field) => [field.name, field.type === "boolean" ? values[field.name] === true : values[field.name]]),
    );
    setBusy(true);
    setError(null);
    try {
      const response = await fetch(`/api/runs/${runId}/resume`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ nodeId: waiting.nodeId, answer }),
      });
      if (!response.ok) {
        const body = (await response.json().catch(() => ({}))) as { error?: { message?: string; field?: string } };
        setError({
          field: body.error?.field,
          message: body.error?.message ?? `Could not send the answer (${response.status})`,
        });
        return;
      }
      onAnswered?.();
    } catch {
      setError({ message: "Could not reach the server." });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Alert tone="warning" icon={false}>
      <form
        className="flex w-full flex-col gap-3"
        data-testid="human-input-form"
        data-node-id={waiting.nodeId}
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <p className="m-0">
          <b>Waiting for you:</b> {waiting.prompt}
        </p>
        {fields.map((field) => {
          const id = `answer-${runId}-${field.name}`;
          const invalid = error?.field === field.name;
          const errorId = `${id}-error`;
          return (
            <div className="flex max-w-md flex-col gap-1.5" key={field.name}>
              {field.type === "boolean" ? (
                <div className="flex items-center gap-2">
                  <Checkbox
                    id={id}
                    data-testid={`answer-${field.name}`}
                    checked={values[field.name] === true}
                    onCheckedChange={(checked) => setValues({ ...values, [field.name]: checked === true })}
                  />
                  <Label htmlFor={id} className="font-normal">
                    {field.label}
                  </Label>
                </div>
              ) : (
                <>
                  <Label htmlFor={id}>
                    {field.label}
                    {field.required && <span className="text-muted-foreground"> *</span>}
                  </Label>
                  {field.type === "select" ? (
                    <NativeSelect
                      id={id}
                      data-testid={`answer-${field.name}`}
                      aria-invalid={invalid || undefined}
                      aria-describedby={invalid ? errorId : undefined}
                      value={String(values[field.name] ?? "")}
                      onChange={(event) => setValues({ ...values, [field.name]: event.target.value })}
                    >
                      <option value="">Choose…</option>
                      {field.options.map((option) => (
                        <option key={option} value={option}>
                          {option}
                        </option>
                      ))}
                    </NativeSelect>
                  ) : (
                    <Input
                      id={id}
                      type={field.type === "number" ? "number" : "text"}
                      data-testid={`answer-${field.name}`}
                      aria-invalid={invalid || undefined}
                      aria-describedby={invalid ? errorId : undefined}
                      aria-required={field.required || undefined}
                      value={String(values[field.name] ?? "")}
                      onChange={(event) => setValues({ ...values, [field.name]: event.target.value })}
                    />
                  )}
                </>
              )}
              {invalid && (
                <p className="m-0 text-xs text-destructive" id={errorId}>
                  {error.message}
                </p>
              )}
            </div>
          );
        })}
        <div>
          <Button type="submit" variant="primary" data-testid="answer-submit" disabled={busy}>
            {busy ? "Sending…" : "Send answer"}
          </Button>
        </div>
        {error && !fields.some((field) => field.name === error.field) && (
          <p className="m-0 text-xs text-destructive" role="alert" data-testid="answer-error">
            {error.message}
          </p>
        )}
      </form>
    </Alert>
  );
}
