"use client";

import { useEffect, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CheckboxField } from "@/components/ui/checkbox-field";
import { Dialog } from "@/components/ui/dialog";
import { FormField, TextField } from "@/components/ui/form-field";
import { NativeSelect } from "@/components/ui/native-select";
import { Textarea } from "@/components/ui/textarea";
import { checkRunInputs } from "@/lib/workflow/run-inputs";
import { SCHEDULE_PRESETS } from "@/lib/workflow/schedule";

/** The presets as select options (value: the cron expression). */
const PRESET_OPTIONS = SCHEDULE_PRESETS.map((preset) => ({ value: preset.cron, label: preset.label }));

import { useEditorStore, useEditorStoreApi } from "../store/editor-store-context";

/** What `/api/workflows/:id/schedule` answers. */
interface ScheduleAnswer {
  schedule: {
    cron: string;
    timezone: string;
    inputs: Record<string, unknown>;
    enabled: boolean;
    lastRunAt: string | null;
    lastRunId: string | null;
    lastError: string | null;
  } | null;
  nextRuns: string[];
}

const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

/**
 * Runs the latest published version on a cron schedule (trigger `schedule`): expression with
 * presets, time zone, the start inputs as JSON, on/off, and the next three times once saved.
 */
export function ScheduleDialog() {
  const store = useEditorStoreApi();
  const open = useEditorStore((state) => state.dialog === "schedule");
  const workflowId = useEditorStore((state) => state.workflowId);
  const [answer, setAnswer] = useState<ScheduleAnswer | null>(null);
  const [cron, setCron] = useState("0 9 * * 1-5");
  const [timezone, setTimezone] = useState("UTC");
  const [inputs, setInputs] = useState("{}");
  const [enabled, setEnabled] = useState(true);
  const [issue, setIssue] = useState<{ field: string; message: string } | null>(null);
  const close = () => store.getState().setDialog("none");

  useEffect(() => {
    if (!open) return;
    setIssue(null);
    // The form appears once the stored schedule is in, so nothing typed is overwritten by it.
    setAnswer(null);
    void fetch(`/api/workflows/${workflowId}/schedule`)
      .then((response) => response.json() as Promise<ScheduleAnswer>)
      .then((body) => {
        setAnswer(body);
        setCron(body.schedule?.cron ?? "0 9 * * 1-5");
        setTimezone(body.schedule?.timezone ?? browserTimeZone());
        setInputs(JSON.stringify(body.schedule?.inputs ?? {}, null, 2));
        setEnabled(body.schedule?.enabled ?? true);
      });
  }, [open, workflowId]);

  const send = async (method: "PUT" | "DELETE") => {
    let parsedInputs: unknown;
    try {
      parsedInputs = JSON.parse(inputs || "{}");
    } catch {
      setIssue({ field: "inputs", message: "The inputs are not valid JSON." });
      return;
    }
    if (method === "PUT") {
      if (typeof parsedInputs !== "object" || parsedInputs === null || Array.isArray(parsedInputs)) {
        setIssue({ field: "inputs", message: 'The inputs must be a JSON object, e.g. { "question": "…" }.' });
        return;
      }
      // Scheduled runs of a published version fail at their start node without these.
      const start = store.getState().nodes.find((node) => node.type === "start");
      const checked = checkRunInputs(
        {
          inputs: (start?.data.inputs ?? []) as Parameters<typeof checkRunInputs>[0]["inputs"],
          allowExtraInputs: true,
        },
        parsedInputs as Record<string, unknown>,
      );
      if (!checked.ok) {
        setIssue({ field: "inputs", message: checked.issues.map((issue) => issue.message).join(" ") });
        return;
      }
    }
    const response = await fetch(`/api/workflows/${workflowId}/schedule`, {
      method,
      headers: method === "PUT" ? { "content-type": "application/json" } : undefined,
      body: method === "PUT" ? JSON.stringify({ cron, timezone, inputs: parsedInputs, enabled }) : undefined,
    });
    if (response.status === 204) {
      setAnswer({ schedule: null, nextRuns: [] });
      setIssue(null);
      return;
    }
    const body = (await response.json()) as ScheduleAnswer & { error?: { message: string; field?: string } };
    if (!response.ok) {
      setIssue({
        field: body.error?.field ?? "",
        message: body.error?.message ?? `Request failed (${response.status})`,
      });
      return;
    }
    setIssue(null);
    setAnswer(body);
  };

  const issueAt = (field: string) => (issue?.field === field ? issue.message : undefined);
  return (
    <Dialog
      open={open}
      title="Schedule"
      onClose={close}
      testId="schedule-dialog"
      footer={
        <>
          {answer?.schedule && (
            <Button data-testid="schedule-remove" onClick={() => void send("DELETE")}>
              Remove schedule
            </Button>
          )}
          <Button variant="primary" data-testid="schedule-save" onClick={() => void send("PUT")}>
            Save schedule
          </Button>
        </>
      }
    >
      <p className="m-0 mb-4 text-sm text-muted-foreground">
        The latest <b className="text-foreground">published</b> version runs at these times with these inputs; runs show
        in the history with trigger <code>schedule</code>.
      </p>
      {answer === null ? (
        <p className="m-0 text-sm text-muted-foreground">Loading…</p>
      ) : (
        <>
          <FormField id="schedule-preset" label="Preset" errorTestId="schedule-error-preset">
            <NativeSelect
              id="schedule-preset"
              value={SCHEDULE_PRESETS.some((preset) => preset.cron === cron) ? cron : ""}
              onChange={(event) => event.target.value && setCron(event.target.value)}
              options={PRESET_OPTIONS}
            >
              <option value="">Custom</option>
            </NativeSelect>
          </FormField>
          <TextField
            id="schedule-cron"
            label="Cron expression (minute hour day month weekday)"
            value={cron}
            onChange={setCron}
            error={issueAt("cron")}
            errorTestId="schedule-error-cron"
          />
          <TextField
            id="schedule-timezone"
            label="Time zone"
            value={timezone}
            onChange={setTimezone}
            error={issueAt("timezone")}
            errorTestId="schedule-error-timezone"
          />
          <FormField
            id="schedule-inputs"
            label="Start inputs (JSON)"
            error={issueAt("inputs")}
            errorTestId="schedule-error-inputs"
          >
            <Textarea
              id="schedule-inputs"
              className="font-mono text-xs"
              rows={4}
              aria-invalid={issueAt("inputs") ? true : undefined}
              value={inputs}
              onChange={(event) => setInputs(event.target.value)}
            />
          </FormField>
          <CheckboxField
            id="schedule-enabled"
            label="Enabled"
            checked={enabled}
            onCheckedChange={(checked) => setEnabled(checked === true)}
          />
        </>
      )}
      {issue && !["cron", "timezone", "inputs"].includes(issue.field) && (
        <Alert tone="destructive" role="alert" className="mt-3">
          <p>{issue.message}</p>
        </Alert>
      )}
      {answer?.schedule && (
        <section
          className="mt-4 flex flex-col gap-1.5 border-t border-border pt-3"
          aria-labelledby="schedule-next-title"
          data-testid="schedule-status"
        >
          <h3 id="schedule-next-title" className="m-0 text-xs font-semibold text-muted-foreground">
            Next runs
          </h3>
          {answer.nextRuns.length === 0 ? (
            <p className="m-0 text-sm text-muted-foreground">Disabled.</p>
          ) : (
            <ul
              className="m-0 flex list-none flex-col gap-0.5 p-0 text-sm tabular-nums"
              data-testid="schedule-next-runs"
            >
              {answer.nextRuns.map((time) => (
                <li key={time}>{new Date(time).toLocaleString()}</li>
              ))}
            </ul>
          )}
          {answer.schedule.lastError && (
            <Alert tone="destructive">
              <p>Last time: {answer.schedule.lastError}</p>
            </Alert>
          )}
        </section>
      )}
    </Dialog>
  );
}
