"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDeleteDialog } from "@/components/ui/confirm-delete-dialog";
import { DeleteButton } from "@/components/ui/delete-button";
import { EmptyState } from "@/components/ui/empty-state";
import { FormField, TextField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/native-select";
import { PageHeader } from "@/components/ui/page";
import { SectionCard } from "@/components/ui/section-card";
import { Table, TableBody, TableCell, TableRow } from "@/components/ui/table";
import { TableHeadRow } from "@/components/ui/table-head-row";
import { useToastMessage } from "@/components/ui/use-toast-message";
import type { HttpCredentialView } from "@/lib/contracts/http-credential";
import { useSettingsForm } from "./use-settings-form";

const TYPE_LABELS = {
  bearer: "Bearer token (Authorization: Bearer …)",
  header: "API key in a header",
  query: "API key in a query parameter",
  basic: "HTTP Basic (user name and password)",
} as const;

type CredentialType = keyof typeof TYPE_LABELS;

const EMPTY_FORM = {
  name: "",
  type: "bearer" as CredentialType,
  parameter: "",
  username: "",
  secret: "",
  allowedHosts: "",
};

/** How each type shows its non-secret detail in the list. */
function sentAs(credential: HttpCredentialView): string {
  if (credential.type === "header") return `header ${credential.detail}`;
  if (credential.type === "query") return `?${credential.detail}=…`;
  if (credential.type === "basic") return `user ${credential.detail}`;
  return "Authorization: Bearer …";
}

/** HTTP credentials for the http node: add (secret write-only), list, delete (confirmed). */
export function HttpCredentialsManager({ credentials }: { credentials: HttpCredentialView[] }) {
  const [deleting, setDeleting] = useState<HttpCredentialView | null>(null);
  const [editingHosts, setEditingHosts] = useState<{ name: string; value: string } | null>(null);
  const { form, set, issueAt, submit, act, message } = useSettingsForm({
    url: "/api/credentials",
    initial: EMPTY_FORM,
    added: (created: { credential: HttpCredentialView }) => `Added “${created.credential.name}”.`,
  });

  const remove = async (credential: HttpCredentialView) => {
    setDeleting(null);
    await act(`/api/credentials/${encodeURIComponent(credential.name)}`, "DELETE", `Deleted “${credential.name}”.`);
  };

  const saveHosts = async () => {
    if (!editingHosts) return;
    const { name, value } = editingHosts;
    setEditingHosts(null);
    await act(`/api/credentials/${encodeURIComponent(name)}`, "PATCH", `Updated the hosts of “${name}”.`, {
      allowedHosts: value,
    });
  };

  /** One text field of the form, with the server's message for it. */
  const text = (
    path: "name" | "parameter" | "username" | "secret" | "allowedHosts",
    label: string,
    extra: { type?: "password"; placeholder?: string; autoComplete?: string } = {},
  ) => (
    <TextField
      id={`credential-${path}`}
      label={label}
      value={form[path]}
      onChange={(value) => set({ [path]: value })}
      error={issueAt(path)}
      errorTestId={`credential-error-${path}`}
      {...extra}
    />
  );

  useToastMessage(message);
  return (
    <div data-testid="http-credentials" className="flex flex-col gap-4">
      <PageHeader
        title="Credentials"
        description={
          <>
            Secrets for the HTTP request node. A node names a credential; the secret is added when the request is sent,
            stored encrypted, and never shown again or written to run records. A credential is only sent to its allowed
            hosts: a request anywhere else fails with <code>credential_host_not_allowed</code>.
          </>
        }
      />
      {message && (
        <p className="sr-only" data-testid="credentials-message">
          {message}
        </p>
      )}
      {credentials.length === 0 ? (
        <EmptyState data-testid="credentials-empty">No credentials yet.</EmptyState>
      ) : (
        <Table data-testid="credential-list">
          <TableHeadRow columns={["Name", "Sent as", "Allowed hosts"]} actions />
          <TableBody>
            {credentials.map((credential) => (
              <TableRow key={credential.name} data-testid="credential-row" data-name={credential.name}>
                <TableCell className="font-medium">{credential.name}</TableCell>
                <TableCell>
                  <code className="text-xs">{sentAs(credential)}</code>
                </TableCell>
                <TableCell data-testid="credential-hosts">
                  {editingHosts?.name === credential.name ? (
                    <span className="flex gap-2">
                      <Input
                        aria-label={`Allowed hosts of ${credential.name}`}
                        data-testid="credential-hosts-input"
                        value={editingHosts.value}
                        onChange={(event) => setEditingHosts({ name: credential.name, value: event.target.value })}
                      />
                      <Button data-testid="save-credential-hosts" onClick={() => void saveHosts()}>
                        Save
                      </Button>
                    </span>
                  ) : (
                    <span className="flex items-center gap-2">
                      {credential.allowedHosts ? (
                        <code className="text-xs">{credential.allowedHosts.join(", ")}</code>
                      ) : (
                        <span className="text-destructive">Any host: set allowed hosts</span>
                      )}
                      <Button
                        size="sm"
                        variant="ghost"
                        data-testid="edit-credential-hosts"
                        aria-label={`Edit the allowed hosts of ${credential.name}`}
                        onClick={() =>
                          setEditingHosts({ name: credential.name, value: credential.allowedHosts?.join(", ") ?? "" })
                        }
                      >
                        Edit
                      </Button>
                    </span>
                  )}
                </TableCell>
                <TableCell className="w-px text-right">
                  <DeleteButton
                    testId="delete-credential"
                    ariaLabel={`Delete ${credential.name}`}
                    onClick={() => setDeleting(credential)}
                  />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      <SectionCard title="Add a credential">
        <form className="flex max-w-md flex-col" onSubmit={(event) => void submit(event)} data-testid="credential-form">
          {text("name", "Name")}
          <FormField id="credential-type" label="Sent as" error={issueAt("type")} errorTestId="credential-error-type">
            <NativeSelect
              id="credential-type"
              value={form.type}
              onChange={(event) => set({ type: event.target.value as CredentialType })}
            >
              {Object.entries(TYPE_LABELS).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </NativeSelect>
          </FormField>
          {(form.type === "header" || form.type === "query") &&
            text("parameter", form.type === "header" ? "Header name" : "Query parameter name", {
              placeholder: form.type === "header" ? "X-API-Key" : "api_key",
            })}
          {form.type === "basic" && text("username", "User name")}
          {text("secret", form.type === "basic" ? "Password" : form.type === "bearer" ? "Token" : "Key", {
            type: "password",
            autoComplete: "off",
          })}
          {text(
            "allowedHosts",
            "Allowed hosts (comma-separated: api.example.com, *.example.com, https://api.example.com/v1/)",
            {
              placeholder: "api.example.com",
            },
          )}
          <Button type="submit" variant="primary" className="self-start" data-testid="add-credential">
            Add credential
          </Button>
        </form>
      </SectionCard>
      <ConfirmDeleteDialog
        open={deleting !== null}
        title="Delete credential?"
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && void remove(deleting)}
        testId="delete-credential-dialog"
        confirmTestId="confirm-delete-credential"
      >
        <p className="m-0">
          HTTP nodes that use “{deleting?.name}” will fail with <code>credential_not_found</code> until they are given
          another credential.
        </p>
      </ConfirmDeleteDialog>
    </div>
  );
}
