import Link from "next/link";
import { AccountPanel } from "@/components/ui/account-panel";
import { getRequestContext } from "@/lib/db/context";
import { getAccount } from "@/lib/db/member-repository";

export const dynamic = "force-dynamic";

/** The signed-in user's account: password and sign-out. */
export default async function AccountPage() {
  const { userId, role } = await getRequestContext();
  const user = await getAccount(userId);
  return (
    <main className="page">
      <header className="page-header">
        <h1>Account</h1>
        <Link href="/workflows" className="button">
          Workflows
        </Link>
      </header>
      <AccountPanel email={user.email} name={user.name} role={role} />
    </main>
  );
}
