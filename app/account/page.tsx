import { AccountPanel } from "@/components/ui/account-panel";
import { getRequestContext } from "@/lib/db/context";
import { getAccount } from "@/lib/db/member-repository";

export const dynamic = "force-dynamic";

/** The signed-in user's account: password and sign-out. */
export default async function AccountPage() {
  const { userId, role } = await getRequestContext();
  const user = await getAccount(userId);
  return (
    <main className="mx-auto w-full max-w-2xl px-6 py-8">
      <h1 className="m-0 mb-6 text-2xl font-semibold tracking-tight">Account</h1>
      <AccountPanel email={user.email} name={user.name} role={role} />
    </main>
  );
}
