"use client";

import { useState } from "react";
import { ConfirmDeleteDialog } from "@/components/ui/confirm-delete-dialog";
import { DeleteButton } from "@/components/ui/delete-button";
import { FormField, TextField } from "@/components/ui/form-field";
import { useToastMessage } from "@/components/ui/use-toast-message";
import type { MemberView } from "@/lib/db/member-repository";
import { useSettingsForm } from "./use-settings-form";

const ROLES = {
  owner: "Owner: everything, including owners",
  admin: "Admin: settings, credentials, API keys, members",
  editor: "Editor: build, run and publish workflows",
  viewer: "Viewer: review workflows and run histories",
} as const;

type Role = keyof typeof ROLES;

const EMPTY_FORM = { email: "", name: "", role: "editor" as Role, password: "" };

/** Workspace members: add (existing account or new with an initial password), change role, remove. */
export function MembersManager({ members, currentUserId }: { members: MemberView[]; currentUserId: string }) {
  const [removing, setRemoving] = useState<MemberView | null>(null);
  const { form, set, issueAt, submit, act, message } = useSettingsForm({
    url: "/api/members",
    initial: EMPTY_FORM,
    added: (created: { member: MemberView }) => `Added ${created.member.email} as ${created.member.role}.`,
  });
  const memberUrl = (member: MemberView) => `/api/members/${encodeURIComponent(member.userId)}`;

  const changeRole = (member: MemberView, role: Role) =>
    act(memberUrl(member), "PATCH", `${member.email} is now ${role}.`, { role });

  const remove = async (member: MemberView) => {
    setRemoving(null);
    await act(memberUrl(member), "DELETE", `Removed ${member.email}.`);
  };

  useToastMessage(message);
  return (
    <div data-testid="members">
      <header className="page-header">
        <h1>Members</h1>
      </header>
      <p className="muted">
        Viewers review workflows and run histories; editors also build, run and publish; admins manage settings,
        credentials, API keys and members. Role changes apply on the member's next request.
      </p>
      {message && (
        <p className="sr-only" data-testid="members-message">
          {message}
        </p>
      )}
      <table className="table" data-testid="member-list">
        <thead>
          <tr>
            <th>E-mail</th>
            <th>Name</th>
            <th>Role</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {members.map((member) => (
            <tr key={member.userId} data-testid="member-row" data-email={member.email}>
              <td>
                <b>{member.email}</b>
                {member.userId === currentUserId && <span className="muted"> (you)</span>}
              </td>
              <td>{member.name}</td>
              <td>
                <select
                  className="input"
                  aria-label={`Role of ${member.email}`}
                  data-testid="member-role"
                  value={member.role}
                  onChange={(event) => void changeRole(member, event.target.value as Role)}
                >
                  {Object.keys(ROLES).map((role) => (
                    <option key={role} value={role}>
                      {role}
                    </option>
                  ))}
                </select>
              </td>
              <td className="row-actions">
                <DeleteButton testId="remove-member" onClick={() => setRemoving(member)} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <form className="settings-form" onSubmit={(event) => void submit(event)} data-testid="member-form">
        <h2>Add a member</h2>
        <TextField
          id="member-email"
          label="E-mail"
          type="email"
          value={form.email}
          onChange={(email) => set({ email })}
          error={issueAt("email")}
          errorTestId="member-error-email"
        />
        <TextField
          id="member-name"
          label="Name"
          value={form.name}
          onChange={(name) => set({ name })}
          error={issueAt("name")}
          errorTestId="member-error-name"
        />
        <FormField id="member-role" label="Role" error={issueAt("role")} errorTestId="member-error-role">
          <select
            id="member-role"
            className="input"
            value={form.role}
            onChange={(event) => set({ role: event.target.value as Role })}
          >
            {Object.entries(ROLES).map(([role, label]) => (
              <option key={role} value={role}>
                {label}
              </option>
            ))}
          </select>
        </FormField>
        <TextField
          id="member-password"
          label="Initial password (new accounts; 8 characters or more)"
          type="password"
          autoComplete="new-password"
          value={form.password}
          onChange={(password) => set({ password })}
          error={issueAt("password")}
          errorTestId="member-error-password"
        />
        <button type="submit" className="button button-primary" data-testid="add-member">
          Add member
        </button>
      </form>
      <ConfirmDeleteDialog
        open={removing !== null}
        title="Remove member?"
        onCancel={() => setRemoving(null)}
        onConfirm={() => removing && void remove(removing)}
        testId="remove-member-dialog"
        confirmTestId="confirm-remove-member"
      >
        <p>{removing?.email} loses access to this workspace on their next request. Their account and past runs stay.</p>
      </ConfirmDeleteDialog>
    </div>
  );
}
