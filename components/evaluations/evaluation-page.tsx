import { ArrowLeftIcon } from "lucide-react";
import Link from "next/link";
import type { ReactNode } from "react";
import { buttonVariants } from "@/components/ui/button";
import { Page, PageHeader } from "@/components/ui/page";

/** The frame of the evaluation pages: a wide page, its title and a link back up. */
export function EvaluationPage({
  title,
  back,
  children,
}: {
  title: string;
  /** Where the header's link goes ("Evaluations", or "Workflows" from the home). */
  back: { href: string; label: string };
  children: ReactNode;
}) {
  return (
    <Page wide>
      <PageHeader
        title={title}
        actions={
          <Link href={back.href} className={buttonVariants({ variant: "outline" })}>
            <ArrowLeftIcon aria-hidden="true" /> {back.label}
          </Link>
        }
      />
      {children}
    </Page>
  );
}
