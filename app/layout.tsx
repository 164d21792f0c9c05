import type { Metadata } from "next";
import type { ReactNode } from "react";
import { DemoModeBanner } from "@/components/ui/demo-mode-banner";
import { isDemoMode } from "@/lib/services/demo-mode";
import "./globals.css";

export const metadata: Metadata = {
  title: "Trellis",
  description: "Visual builder for LLM agent workflows",
};

// Demo mode depends on the server's environment at request time, not at build time.
export const dynamic = "force-dynamic";

export default function RootLayout({ children }: { children: ReactNode }) {
  const demo = isDemoMode();
  return (
    <html lang="en">
      <body className={demo ? "demo-mode" : undefined}>
        {demo ? <DemoModeBanner /> : null}
        {children}
      </body>
    </html>
  );
}
