import type { Metadata } from "next";
import type { ReactNode } from "react";
import { AppHeader } from "@/components/shell/app-header";
import { DemoModeBanner } from "@/components/ui/demo-mode-banner";
import { ThemeProvider } from "@/components/ui/theme-provider";
import { Toaster } from "@/components/ui/toaster";
import { TooltipProvider } from "@/components/ui/tooltip";
import { readDemoBannerState } from "@/lib/services/demo-banner";
import "./globals.css";

export const metadata: Metadata = {
  title: "Trellis",
  description: "Visual builder for LLM agent workflows",
};

// Demo mode depends on the server's environment and the workspace's providers at request time.
export const dynamic = "force-dynamic";

export default async function RootLayout({ children }: { children: ReactNode }) {
  const demo = await readDemoBannerState();
  return (
    // next-themes sets the theme class on <html> before hydration.
    <html lang="en" suppressHydrationWarning>
      <body className="flex min-h-dvh flex-col">
        <ThemeProvider>
          <TooltipProvider>
            {demo ? <DemoModeBanner state={demo} /> : null}
            <AppHeader />
            {children}
            <Toaster />
          </TooltipProvider>
        </ThemeProvider>
      </body>
    </html>
  );
}
