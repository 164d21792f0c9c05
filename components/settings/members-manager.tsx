"use client";

import { useState } from "react";
import { ConfirmDeleteDialog } from "@/components/ui/confirm-delete-dialog";
import { DeleteButton } from "@/components/ui/delete-button";
import { useToastMessage } from "@/components/ui/use-toast-message";
import type { MemberView } from "@/lib/contracts/settings-views";
import type { InvitationView } from "@/lib/contracts/workspace-views";
import { InvitationsPanel } from "./invitations-panel";
import { useSettingsForm } from "./use-settings-form";

const ROLES = {
  owner: "Owner: everything, including owners",
  admin: "Admin: settings, credentials, API keys, members",
  editor: "Editor: build, run and publish workflows",
  viewer: "Viewer: review workflows and run histories",
} as const;

type Role = keyof typeof ROLES;

/**
 * Workspace members: change role, remove; new members come only through invitation links they
 * accept themselves (consent), created and revoked in the invitations panel.
 */
export function MembersManager({
  members,
  invitations,
  currentUserId,
}: {
  members: MemberView[];
  invitations: InvitationView[];
  currentUserId: string;
}) {
  const [removing, setRemoving] = useState<MemberView | null>(null);
  const { act, message } = useSettingsForm({ url: "/api/members", initial: {}, added: () => "" });
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
      <InvitationsPanel invitations={invitations} roles={ROLES} />
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
