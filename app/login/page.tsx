import { LoginForm } from "@/components/ui/login-form";
import { ThemeToggle } from "@/components/ui/theme-toggle";

/** Sign-in page. */
export default async function LoginPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  const { next } = await searchParams;
  // Only same-site paths: an open redirect after sign-in would be a phishing aid.
  const target = next?.startsWith("/") && !next.startsWith("//") ? next : "/workflows";
  return (
    <main className="relative grid flex-1 place-items-center bg-[radial-gradient(circle_at_50%_0%,color-mix(in_srgb,var(--primary)_10%,transparent),transparent_60%)] px-4 py-12">
      <div className="absolute top-3 right-3">
        <ThemeToggle />
      </div>
      <LoginForm next={target} />
    </main>
  );
}
