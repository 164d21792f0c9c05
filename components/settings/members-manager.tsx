"use client";

import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { ConfirmDeleteDialog } from "@/components/ui/confirm-delete-dialog";
import { DeleteButton } from "@/components/ui/delete-button";
import { NativeSelect } from "@/components/ui/native-select";
import { PageHeader } from "@/components/ui/page";
import { Table, TableBody, TableCell, TableRow } from "@/components/ui/table";
import { TableHeadRow } from "@/components/ui/table-head-row";
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
    <div data-testid="members" className="flex flex-col gap-4">
      <PageHeader
        title="Members"
        description="Viewers review workflows and run histories; editors also build, run and publish; admins manage settings, credentials, API keys and members. Role changes apply on the member's next request."
      />
      {message && (
        <p className="sr-only" data-testid="members-message">
          {message}
        </p>
      )}
      <Table data-testid="member-list">
        <TableHeadRow columns={["E-mail", "Name", "Role"]} actions />
        <TableBody>
          {members.map((member) => (
            <TableRow key={member.userId} data-testid="member-row" data-email={member.email}>
              <TableCell>
                <span className="font-medium">{member.email}</span>
                {member.userId === currentUserId && (
                  <Badge tone="primary" className="ml-2">
                    you
                  </Badge>
                )}
              </TableCell>
              <TableCell>{member.name}</TableCell>
              <TableCell className="w-36">
                <NativeSelect
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
                </NativeSelect>
              </TableCell>
              <TableCell className="w-px text-right">
                <DeleteButton
                  label="Remove"
                  ariaLabel={`Remove ${member.email}`}
                  testId="remove-member"
                  onClick={() => setRemoving(member)}
                />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <InvitationsPanel invitations={invitations} roles={ROLES} />
      <ConfirmDeleteDialog
        open={removing !== null}
        title="Remove member?"
        onCancel={() => setRemoving(null)}
        onConfirm={() => removing && void remove(removing)}
        testId="remove-member-dialog"
        confirmTestId="confirm-remove-member"
        confirmLabel="Remove"
      >
        <p className="m-0">
          {removing?.email} loses access to this workspace on their next request. Their account and past runs stay.
        </p>
      </ConfirmDeleteDialog>
    </div>
  );
}
