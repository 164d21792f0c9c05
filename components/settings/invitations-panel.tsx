"use client";

import { CopyIcon } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { FormField, TextField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";
import { SectionCard } from "@/components/ui/section-card";
import { Table, TableBody, TableCell, TableRow } from "@/components/ui/table";
import { TableHeadRow } from "@/components/ui/table-head-row";
import type { InvitationView } from "@/lib/contracts/workspace-views";
import { useSettingsForm } from "./use-settings-form";

type Created = { invitation: InvitationView; path: string };

/**
 * Invite by link (there is no mail server): a role, an optional e-mail that alone may accept, and
 * an expiry (7 days by default, at most 30). The link is shown once, with a copy button: only its
 * hash is stored. Pending invitations are listed and can be revoked.
 */
export function InvitationsPanel({
  invitations,
  roles,
}: {
  invitations: InvitationView[];
  roles: Record<string, string>;
}) {
  const [link, setLink] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const { form, set, issueAt, submit, act, message } = useSettingsForm({
    url: "/api/invitations",
    initial: { email: "", role: "editor", expiresInDays: 7 },
    added: (created: Created) =>
      `Invitation created for ${created.invitation.email ?? "anyone with the link"} as ${created.invitation.role}.`,
  });

  const create = async (event: FormEvent) => {
    const created = await submit(event);
    if (created) {
      setCopied(false);
      setLink(`${window.location.origin}${created.path}`);
    }
  };

  const copy = async () => {
    if (!link) return;
    await navigator.clipboard?.writeText(link).catch(() => undefined);
    setCopied(true);
  };

  return (
    <SectionCard
      data-testid="invitations"
      titleId="invitations-heading"
      title="Invite people"
      description="There is no mail server: create a link and send it yourself. The person joins when they accept it."
      contentClassName="flex flex-col gap-5"
    >
      {message && (
        <p className="sr-only" data-testid="invitations-message">
          {message}
        </p>
      )}
      <form className="flex max-w-md flex-col" onSubmit={(event) => void create(event)} data-testid="invite-form">
        <FormField id="invite-role" label="Role" error={issueAt("role")} errorTestId="invite-error-role">
          <NativeSelect id="invite-role" value={form.role} onChange={(event) => set({ role: event.target.value })}>
            {Object.entries(roles).map(([role, label]) => (
              <option key={role} value={role}>
                {label}
              </option>
            ))}
          </NativeSelect>
        </FormField>
        <TextField
          id="invite-email"
          label="E-mail (optional: only this account may accept)"
          type="email"
          value={form.email}
          onChange={(email) => set({ email })}
          error={issueAt("email")}
          errorTestId="invite-error-email"
        />
        <FormField
          id="invite-expiry"
          label="Expires after (days, 1 to 30)"
          error={issueAt("expiresInDays")}
          errorTestId="invite-error-expiresInDays"
        >
          <Input
            id="invite-expiry"
            type="number"
            min={1}
            max={30}
            className="w-28"
            value={form.expiresInDays}
            onChange={(event) => set({ expiresInDays: Number(event.target.value) })}
          />
        </FormField>
        <Button type="submit" variant="primary" className="self-start" data-testid="create-invitation">
          Create invitation link
        </Button>
      </form>
      {link && (
        <div className="flex max-w-2xl flex-col gap-1.5" data-testid="invitation-link-box">
          <Label htmlFor="invitation-link">Invitation link (shown once: copy it now and send it to the person)</Label>
          <div className="flex gap-2">
            <Input
              id="invitation-link"
              readOnly
              value={link}
              className="font-mono text-xs"
              data-testid="invitation-link"
            />
            <Button type="button" onClick={() => void copy()} data-testid="copy-invitation-link">
              <CopyIcon aria-hidden />
              {copied ? "Copied" : "Copy"}
            </Button>
          </div>
        </div>
      )}
      <div className="flex flex-col gap-2">
        <h3 className="m-0 text-sm font-semibold">Pending invitations</h3>
        {invitations.length === 0 ? (
          <EmptyState data-testid="no-invitations">No pending invitations.</EmptyState>
        ) : (
          <Table data-testid="invitation-list">
            <TableHeadRow columns={["For", "Role", "Expires", "Created by"]} actions />
            <TableBody>
              {invitations.map((invitation) => (
                <TableRow key={invitation.id} data-testid="invitation-row" data-id={invitation.id}>
                  <TableCell>
                    {invitation.email ?? <span className="text-muted-foreground">anyone with the link</span>}
                  </TableCell>
                  <TableCell>{invitation.role}</TableCell>
                  <TableCell className="whitespace-nowrap">{new Date(invitation.expiresAt).toLocaleString()}</TableCell>
                  <TableCell>{invitation.createdBy}</TableCell>
                  <TableCell className="w-px text-right">
                    <Button
                      variant="ghost"
                      size="sm"
                      data-testid="revoke-invitation"
                      aria-label={`Revoke the invitation for ${invitation.email ?? "anyone with the link"}`}
                      onClick={() =>
                        void act(
                          `/api/invitations/${encodeURIComponent(invitation.id)}`,
                          "DELETE",
                          "Invitation revoked.",
                        )
                      }
                    >
                      Revoke
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </div>
    </SectionCard>
  );
}
