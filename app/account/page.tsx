import { AccountPanel } from "@/components/ui/account-panel";
import { AccountSessions } from "@/components/ui/account-sessions";
import { requirePagePrincipal } from "@/lib/services/access/page-principal";
import { describeAccount } from "@/lib/services/account";
import { listSessions } from "@/lib/services/sessions";

export const dynamic = "force-dynamic";

/** The signed-in user's account: password, sessions and sign-out. */
export default async function AccountPage() {
  const principal = await requirePagePrincipal();
  const [user, sessions] = await Promise.all([describeAccount(principal), listSessions(principal)]);
  return (
    <main className="mx-auto w-full max-w-2xl px-6 py-8">
      <h1 className="m-0 mb-6 text-2xl font-semibold tracking-tight">Account</h1>
      <div className="flex flex-col gap-4">
        <AccountPanel email={user.email} name={user.name} role={user.role} />
        <AccountSessions initialSessions={sessions} />
      </div>
    </main>
  );
}
