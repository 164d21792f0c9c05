"use client";

import { CheckboxField } from "@/components/ui/checkbox-field";
import { FieldHint } from "@/components/ui/field-hint";
import { Fieldset } from "@/components/ui/fieldset";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/native-select";
import { Textarea } from "@/components/ui/textarea";
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
      <Fieldset legend="Scopes" data-testid={`${idPrefix}-scopes`}>
        {API_KEY_SCOPES.map((scope) => (
          <CheckboxField
            key={scope}
            id={`${idPrefix}-scope-${scope}`}
            label={SCOPE_DESCRIPTIONS[scope]}
            data-testid={`${idPrefix}-scope-${scope}`}
            checked={form.scopes.includes(scope)}
            onCheckedChange={(checked) => toggleScope(scope, checked === true)}
          />
        ))}
        {issueAt("scopes") && (
          <p className="m-0 text-xs text-destructive" data-testid={`${idPrefix}-error-scopes`}>
            {issueAt("scopes")}
          </p>
        )}
      </Fieldset>
      <FormField
        id={`${idPrefix}-workflow`}
        label="Workflows (none selected: all of the workspace's)"
        error={issueAt("workflowIds")}
        errorTestId={`${idPrefix}-error-workflow`}
      >
        <NativeSelect
          id={`${idPrefix}-workflow`}
          multiple
          size={Math.min(6, Math.max(2, workflows.length))}
          value={form.workflowIds}
          aria-describedby={`${idPrefix}-workflow-hint`}
          onChange={(event) =>
            onChange({ workflowIds: Array.from(event.target.selectedOptions, (option) => option.value) })
          }
        >
          {workflows.map((workflow) => (
            <option key={workflow.id} value={workflow.id}>
              {workflow.name} ({workflow.slug})
            </option>
          ))}
        </NativeSelect>
        <FieldHint id={`${idPrefix}-workflow-hint`}>Ctrl or ⌘ click picks more than one.</FieldHint>
      </FormField>
      <FormField
        id={`${idPrefix}-origins`}
        label="Allowed browser origins (CORS), one per line; none: no browser calls"
        error={issueAt("allowedOrigins")}
        errorTestId={`${idPrefix}-error-origins`}
      >
        <Textarea
          id={`${idPrefix}-origins`}
          className="min-h-0 font-mono text-xs"
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
        <Input
          id={`${idPrefix}-rate-limit`}
          className="w-32"
          inputMode="numeric"
          placeholder={String(defaultRateLimit)}
          value={form.rateLimitText}
          onChange={(event) => onChange({ rateLimitText: event.target.value })}
        />
      </FormField>
    </>
  );
}
