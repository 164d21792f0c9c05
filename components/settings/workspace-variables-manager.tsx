"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDeleteDialog } from "@/components/ui/confirm-delete-dialog";
import { DeleteButton } from "@/components/ui/delete-button";
import { FormField, TextField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { useToastMessage } from "@/components/ui/use-toast-message";
import { WORKSPACE_VARIABLE_VALUE_LIMIT, type WorkspaceVariableView } from "@/lib/contracts/workspace-variable";
import { useSettingsForm } from "./use-settings-form";

const EMPTY_FORM = { name: "", value: "" };

/** One row: the value is edited in place and saved with its own button. */
function VariableRow({
  variable,
  onSave,
  onDelete,
}: {
  variable: WorkspaceVariableView;
  onSave: (value: string) => void;
  onDelete: () => void;
}) {
  const [value, setValue] = useState(variable.value);
  const changed = value !== variable.value;
  return (
    <tr data-testid="variable-row" data-name={variable.name}>
      <td>
        <code>{`{{env.${variable.name}}}`}</code>
      </td>
      <td className="w-full">
        <Input
          aria-label={`Value of ${variable.name}`}
          data-testid="variable-value"
          value={value}
          maxLength={WORKSPACE_VARIABLE_VALUE_LIMIT}
          onChange={(event) => setValue(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Enter" && changed) onSave(value);
          }}
        />
      </td>
      <td className="row-actions whitespace-nowrap">
        <Button size="sm" disabled={!changed} onClick={() => onSave(value)} data-testid="save-variable">
          Save
        </Button>
        <DeleteButton testId="delete-variable" onClick={onDelete} />
      </td>
    </tr>
  );
}

/**
 * Workspace environment variables: add (name and value), change a value in place, delete
 * (confirmed). The server's TRELLIS_PUBLIC_* variables are listed read-only beside them.
 */
export function WorkspaceVariablesManager({
  variables,
  server,
}: {
  variables: WorkspaceVariableView[];
  server: { name: string; value: string }[];
}) {
  const [deleting, setDeleting] = useState<WorkspaceVariableView | null>(null);
  const { form, set, issueAt, submit, act, message } = useSettingsForm({
    url: "/api/variables",
    initial: EMPTY_FORM,
    added: (created: { variable: WorkspaceVariableView }) => `Added “${created.variable.name}”.`,
  });
  const path = (name: string) => `/api/variables/${encodeURIComponent(name)}`;
  const overridden = new Set(variables.map((variable) => variable.name));

  useToastMessage(message);
  return (
    <div data-testid="workspace-variables">
      <header className="page-header">
        <h1>Environment variables</h1>
      </header>
      <p className="muted">
        Settings that templates read as <code>{"{{env.NAME}}"}</code>, the same for every workflow of the workspace.
        They are not secrets: members see them and runs may record them. Keep keys and tokens in Credentials.
      </p>
      {message && (
        <p className="sr-only" data-testid="variables-message">
          {message}
        </p>
      )}
      {variables.length === 0 ? (
        <p className="muted" data-testid="variables-empty">
          No variables yet.
        </p>
      ) : (
        <table className="table" data-testid="variable-list">
          <thead>
            <tr>
              <th>Reference</th>
              <th>Value</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {variables.map((variable) => (
              <VariableRow
                key={`${variable.name}:${variable.updatedAt}`}
                variable={variable}
                onSave={(value) => void act(path(variable.name), "PUT", `Saved “${variable.name}”.`, { value })}
                onDelete={() => setDeleting(variable)}
              />
            ))}
          </tbody>
        </table>
      )}
      <form className="settings-form" onSubmit={(event) => void submit(event)} data-testid="variable-form">
        <h2>Add a variable</h2>
        <TextField
          id="variable-name"
          label="Name"
          value={form.name}
          onChange={(name) => set({ name })}
          error={issueAt("name")}
          errorTestId="variable-error-name"
          placeholder="SUPPORT_EMAIL"
          autoComplete="off"
        />
        <FormField id="variable-value" label="Value" error={issueAt("value")} errorTestId="variable-error-value">
          <Input id="variable-value" value={form.value} onChange={(event) => set({ value: event.target.value })} />
        </FormField>
        <Button type="submit" variant="primary" data-testid="add-variable">
          Add variable
        </Button>
      </form>
      {server.length > 0 && (
        <section className="mt-6" data-testid="server-variables">
          <h2>From the server</h2>
          <p className="muted">
            Set by the administrator as <code>TRELLIS_PUBLIC_NAME</code>. A workspace variable of the same name is used
            instead.
          </p>
          <ul>
            {server.map((variable) => (
              <li key={variable.name}>
                <code>{`{{env.${variable.name}}}`}</code> = <code>{variable.value}</code>
                {overridden.has(variable.name) && <span className="muted"> (overridden)</span>}
              </li>
            ))}
          </ul>
        </section>
      )}
      <ConfirmDeleteDialog
        open={deleting !== null}
        title="Delete variable?"
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          const target = deleting;
          setDeleting(null);
          if (target) void act(path(target.name), "DELETE", `Deleted “${target.name}”.`);
        }}
        testId="delete-variable-dialog"
        confirmTestId="confirm-delete-variable"
      >
        <p>Templates that read {`{{env.${deleting?.name ?? ""}}}`} will get an empty value or the server’s one.</p>
      </ConfirmDeleteDialog>
    </div>
  );
}
