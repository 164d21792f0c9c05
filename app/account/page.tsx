import Link from "next/link";
import { AccountPanel } from "@/components/ui/account-panel";
import { requirePagePrincipal } from "@/lib/services/access/page-principal";
import { describeAccount } from "@/lib/services/account";

export const dynamic = "force-dynamic";

/** The signed-in user's account: password and sign-out. */
export default async function AccountPage() {
  const user = await describeAccount(await requirePagePrincipal());
  return (
    <main className="page">
      <header className="page-header">
        <h1>Account</h1>
        <Link href="/workflows" className="button">
          Workflows
        </Link>
      </header>
      <AccountPanel email={user.email} name={user.name} role={user.role} />
    </main>
  );
}
