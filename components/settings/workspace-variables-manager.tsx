"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDeleteDialog } from "@/components/ui/confirm-delete-dialog";
import { DeleteButton } from "@/components/ui/delete-button";
import { EmptyState } from "@/components/ui/empty-state";
import { FormField, TextField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { PageHeader } from "@/components/ui/page";
import { SectionCard } from "@/components/ui/section-card";
import { Table, TableBody, TableCell, TableRow } from "@/components/ui/table";
import { TableHeadRow } from "@/components/ui/table-head-row";
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
    <TableRow data-testid="variable-row" data-name={variable.name}>
      <TableCell className="whitespace-nowrap">
        <code className="text-xs">{`{{env.${variable.name}}}`}</code>
      </TableCell>
      <TableCell className="w-full">
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
      </TableCell>
      <TableCell className="whitespace-nowrap text-right">
        <Button
          size="sm"
          disabled={!changed}
          aria-label={`Save ${variable.name}`}
          onClick={() => onSave(value)}
          data-testid="save-variable"
        >
          Save
        </Button>
        <DeleteButton testId="delete-variable" ariaLabel={`Delete ${variable.name}`} onClick={onDelete} />
      </TableCell>
    </TableRow>
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
    <div data-testid="workspace-variables" className="flex flex-col gap-4">
      <PageHeader
        title="Environment variables"
        description={
          <>
            Settings that templates read as <code>{"{{env.NAME}}"}</code>, the same for every workflow of the workspace.
            They are not secrets: members see them and runs may record them. Keep keys and tokens in Credentials.
          </>
        }
      />
      {message && (
        <p className="sr-only" data-testid="variables-message">
          {message}
        </p>
      )}
      {variables.length === 0 ? (
        <EmptyState data-testid="variables-empty">No variables yet.</EmptyState>
      ) : (
        <Table data-testid="variable-list">
          <TableHeadRow columns={["Reference", "Value"]} actions />
          <TableBody>
            {variables.map((variable) => (
              <VariableRow
                key={`${variable.name}:${variable.updatedAt}`}
                variable={variable}
                onSave={(value) => void act(path(variable.name), "PUT", `Saved “${variable.name}”.`, { value })}
                onDelete={() => setDeleting(variable)}
              />
            ))}
          </TableBody>
        </Table>
      )}
      <SectionCard title="Add a variable">
        <form className="flex max-w-md flex-col" onSubmit={(event) => void submit(event)} data-testid="variable-form">
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
          <Button type="submit" variant="primary" className="self-start" data-testid="add-variable">
            Add variable
          </Button>
        </form>
      </SectionCard>
      {server.length > 0 && (
        <SectionCard
          data-testid="server-variables"
          title="From the server"
          description={
            <>
              Set by the administrator as <code>TRELLIS_PUBLIC_NAME</code>. A workspace variable of the same name is
              used instead.
            </>
          }
        >
          <ul className="m-0 flex list-none flex-col gap-1 p-0 text-sm">
            {server.map((variable) => (
              <li key={variable.name}>
                <code className="text-xs">{`{{env.${variable.name}}}`}</code> ={" "}
                <code className="text-xs">{variable.value}</code>
                {overridden.has(variable.name) && <span className="text-muted-foreground"> (overridden)</span>}
              </li>
            ))}
          </ul>
        </SectionCard>
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
        <p className="m-0">
          Templates that read {`{{env.${deleting?.name ?? ""}}}`} will get an empty value or the server’s one.
        </p>
      </ConfirmDeleteDialog>
    </div>
  );
}
