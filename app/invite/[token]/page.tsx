import { ThemeToggle } from "@/components/ui/theme-toggle";
import { InviteCard } from "@/components/workspaces/invite-card";
import type { InvitationPreview } from "@/lib/contracts/workspace-views";
import { currentPrincipal } from "@/lib/services/access/session";
import { describeAccount } from "@/lib/services/account";
import { describeInvitation } from "@/lib/services/invitations";
import { isTrellisError } from "@/lib/workflow/errors";

export const dynamic = "force-dynamic";

/**
 * An invitation link: the workspace and role it offers; a signed-in user accepts, someone new
 * creates an account here. A used, expired, revoked or unknown link says which.
 */
export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  let preview: InvitationPreview | null = null;
  let problem: { code: string; message: string } | null = null;
  try {
    preview = await describeInvitation(token);
  } catch (error) {
    if (!isTrellisError(error)) throw error;
    problem = { code: error.code, message: error.message };
  }
  const principal = await currentPrincipal();
  const account = principal ? await describeAccount(principal) : null;
  return (
    <main className="relative grid flex-1 place-items-center bg-[radial-gradient(circle_at_50%_0%,color-mix(in_srgb,var(--primary)_10%,transparent),transparent_60%)] px-4 py-12">
      <div className="absolute top-3 right-3">
        <ThemeToggle />
      </div>
      <InviteCard token={token} preview={preview} problem={problem} signedInAs={account?.email ?? null} />
    </main>
  );
}
