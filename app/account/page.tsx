import { AccountPanel } from "@/components/ui/account-panel";
import { requirePagePrincipal } from "@/lib/services/access/page-principal";
import { describeAccount } from "@/lib/services/account";

export const dynamic = "force-dynamic";

/** The signed-in user's account: password and sign-out. */
export default async function AccountPage() {
  const user = await describeAccount(await requirePagePrincipal());
  return (
    <main className="mx-auto w-full max-w-2xl px-6 py-8">
      <h1 className="m-0 mb-6 text-2xl font-semibold tracking-tight">Account</h1>
      <AccountPanel email={user.email} name={user.name} role={user.role} />
    </main>
  );
}
