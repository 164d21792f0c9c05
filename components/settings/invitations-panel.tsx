"use client";

import { CopyIcon } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Button } from "@/components/ui/button";
import { FormField, TextField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
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
    <section data-testid="invitations" aria-labelledby="invitations-heading">
      <h2 id="invitations-heading">Invite people</h2>
      {message && (
        <p className="sr-only" data-testid="invitations-message">
          {message}
        </p>
      )}
      <form className="settings-form" onSubmit={(event) => void create(event)} data-testid="invite-form">
        <FormField id="invite-role" label="Role" error={issueAt("role")} errorTestId="invite-error-role">
          <select
            id="invite-role"
            className="input"
            value={form.role}
            onChange={(event) => set({ role: event.target.value })}
          >
            {Object.entries(roles).map(([role, label]) => (
              <option key={role} value={role}>
                {label}
              </option>
            ))}
          </select>
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
            value={form.expiresInDays}
            onChange={(event) => set({ expiresInDays: Number(event.target.value) })}
          />
        </FormField>
        <button type="submit" className="button button-primary" data-testid="create-invitation">
          Create invitation link
        </button>
      </form>
      {link && (
        <div className="mt-3 flex flex-col gap-1.5" data-testid="invitation-link-box">
          <label htmlFor="invitation-link" className="text-xs font-semibold">
            Invitation link (shown once: copy it now and send it to the person)
          </label>
          <div className="flex gap-2">
            <Input id="invitation-link" readOnly value={link} data-testid="invitation-link" />
            <Button type="button" onClick={() => void copy()} data-testid="copy-invitation-link">
              <CopyIcon aria-hidden />
              {copied ? "Copied" : "Copy"}
            </Button>
          </div>
        </div>
      )}
      <h3>Pending invitations</h3>
      {invitations.length === 0 ? (
        <p className="muted" data-testid="no-invitations">
          No pending invitations.
        </p>
      ) : (
        <table className="table" data-testid="invitation-list">
          <thead>
            <tr>
              <th>For</th>
              <th>Role</th>
              <th>Expires</th>
              <th>Created by</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {invitations.map((invitation) => (
              <tr key={invitation.id} data-testid="invitation-row" data-id={invitation.id}>
                <td>{invitation.email ?? <span className="muted">anyone with the link</span>}</td>
                <td>{invitation.role}</td>
                <td>{new Date(invitation.expiresAt).toLocaleString()}</td>
                <td>{invitation.createdBy}</td>
                <td className="row-actions">
                  <Button
                    variant="ghost"
                    size="sm"
                    data-testid="revoke-invitation"
                    aria-label={`Revoke the invitation for ${invitation.email ?? "anyone with the link"}`}
                    onClick={() =>
                      void act(`/api/invitations/${encodeURIComponent(invitation.id)}`, "DELETE", "Invitation revoked.")
                    }
                  >
                    Revoke
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
