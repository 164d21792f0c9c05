import { LoginForm } from "@/components/ui/login-form";

/** Sign-in page. */
export default async function LoginPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  const { next } = await searchParams;
  // Only same-site paths: an open redirect after sign-in would be a phishing aid.
  const target = next?.startsWith("/") && !next.startsWith("//") ? next : "/workflows";
  return (
    <main style={{ display: "grid", placeItems: "center", minHeight: "100vh" }}>
      <LoginForm next={target} />
    </main>
  );
}
