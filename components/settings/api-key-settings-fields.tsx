"use client";

import { FormField } from "@/components/ui/form-field";
import { API_KEY_SCOPES, type ApiKeyScope } from "@/lib/contracts/api-keys";

/** A workflow a key may be limited to. */
export interface ApiKeyWorkflowOption {
  id: string;
  name: string;
  slug: string;
}

/** The editable scopes and limits of a key, as the form holds them (text fields kept as typed). */
export interface ApiKeySettingsForm {
  scopes: ApiKeyScope[];
  /** Empty: every workflow. */
  workflowIds: string[];
  /** One origin per line, as typed. */
  originsText: string;
  /** Requests per minute as typed; empty: the default. */
  rateLimitText: string;
}

/** What each scope lets a key do, for the checkbox labels. */
export const SCOPE_DESCRIPTIONS: Record<ApiKeyScope, string> = {
  run: "run: call published workflows and follow the runs it started",
  "read-runs": "read-runs: read runs of its workflows, whoever started them",
  manage: "manage: list versions and choose the one an endpoint serves",
  evaluate: "evaluate: run evaluations of datasets against workflow versions (CI) and read them",
};

/** The JSON body fields of a settings form (`POST /api/api-keys`, `PATCH /api/api-keys/:id`). */
export function settingsBody(form: ApiKeySettingsForm) {
  const origins = form.originsText
    .split(/[\s,]+/)
    .map((origin) => origin.trim())
    .filter(Boolean);
  const rate = form.rateLimitText.trim();
  return {
    scopes: form.scopes,
    workflowIds: form.workflowIds,
    allowedOrigins: origins,
    // A non-number is sent as typed so the server names the field.
    rateLimitPerMinute: rate === "" ? null : Number.isFinite(Number(rate)) ? Number(rate) : rate,
  };
}

/** The first server issue at `field` or inside it (`allowedOrigins.1`). */
export function issueUnder(issues: { path: string; message: string }[], field: string): string | undefined {
  return issues.find((issue) => issue.path === field || issue.path.startsWith(`${field}.`))?.message;
}

/** Scopes, workflow limit, CORS origins and rate limit of a key: shared by "Create a key" and "Edit". */
export function ApiKeySettingsFields({
  idPrefix,
  form,
  onChange,
  workflows,
  defaultRateLimit,
  issueAt,
}: {
  idPrefix: string;
  form: ApiKeySettingsForm;
  onChange: (patch: Partial<ApiKeySettingsForm>) => void;
  workflows: ApiKeyWorkflowOption[];
  defaultRateLimit: number;
  issueAt: (field: string) => string | undefined;
}) {
  const toggleScope = (scope: ApiKeyScope, on: boolean) =>
    onChange({
      scopes: API_KEY_SCOPES.filter((item) => (item === scope ? on : form.scopes.includes(item))),
    });
  return (
    <>
      <fieldset className="field mb-3 flex flex-col gap-1.5" data-testid={`${idPrefix}-scopes`}>
        <legend className="text-xs font-semibold text-foreground">Scopes</legend>
        {API_KEY_SCOPES.map((scope) => (
          <label key={scope} className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              data-testid={`${idPrefix}-scope-${scope}`}
              checked={form.scopes.includes(scope)}
              onChange={(event) => toggleScope(scope, event.target.checked)}
            />
            {SCOPE_DESCRIPTIONS[scope]}
          </label>
        ))}
        {issueAt("scopes") && (
          <p className="m-0 text-xs text-destructive" data-testid={`${idPrefix}-error-scopes`}>
            {issueAt("scopes")}
          </p>
        )}
      </fieldset>
      <FormField
        id={`${idPrefix}-workflow`}
        label="Workflows (none selected: all of the workspace's)"
        error={issueAt("workflowIds")}
        errorTestId={`${idPrefix}-error-workflow`}
      >
        <select
          id={`${idPrefix}-workflow`}
          className="input"
          multiple
          size={Math.min(6, Math.max(2, workflows.length))}
          value={form.workflowIds}
          onChange={(event) =>
            onChange({ workflowIds: Array.from(event.target.selectedOptions, (option) => option.value) })
          }
        >
          {workflows.map((workflow) => (
            <option key={workflow.id} value={workflow.id}>
              {workflow.name} ({workflow.slug})
            </option>
          ))}
        </select>
      </FormField>
      <FormField
        id={`${idPrefix}-origins`}
        label="Allowed browser origins (CORS), one per line; none: no browser calls"
        error={issueAt("allowedOrigins")}
        errorTestId={`${idPrefix}-error-origins`}
      >
        <textarea
          id={`${idPrefix}-origins`}
          className="input"
          rows={2}
          placeholder="https://app.example.com"
          value={form.originsText}
          onChange={(event) => onChange({ originsText: event.target.value })}
        />
      </FormField>
      <FormField
        id={`${idPrefix}-rate-limit`}
        label={`Requests per minute (empty: the default, ${defaultRateLimit})`}
        error={issueAt("rateLimitPerMinute")}
        errorTestId={`${idPrefix}-error-rate-limit`}
      >
        <input
          id={`${idPrefix}-rate-limit`}
          className="input"
          inputMode="numeric"
          placeholder={String(defaultRateLimit)}
          value={form.rateLimitText}
          onChange={(event) => onChange({ rateLimitText: event.target.value })}
        />
      </FormField>
    </>
  );
}
