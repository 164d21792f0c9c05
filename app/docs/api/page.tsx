import { ArrowLeftIcon, FileJsonIcon } from "lucide-react";
import Link from "next/link";
import { buildOpenApiDocument } from "@/app/api/v1/openapi-document";
import { type OpenApiDocumentView, OpenApiReference } from "@/components/docs/openapi-reference";
import { buttonVariants } from "@/components/ui/button";
import { Page, PageHeader } from "@/components/ui/page";

export const metadata = { title: "API reference · Trellis" };

/** The published API's reference, rendered from the same OpenAPI document /api/v1/openapi.json serves. */
export default function ApiDocsPage() {
  const document = buildOpenApiDocument() as unknown as OpenApiDocumentView;
  return (
    <Page wide>
      <PageHeader
        title="API reference"
        actions={
          <>
            <a
              href="/api/v1/openapi.json"
              className={buttonVariants({ variant: "outline" })}
              data-testid="openapi-json-link"
            >
              <FileJsonIcon aria-hidden="true" /> openapi.json
            </a>
            <Link href="/workflows" className={buttonVariants({ variant: "outline" })}>
              <ArrowLeftIcon aria-hidden="true" /> Workflows
            </Link>
          </>
        }
      />
      <OpenApiReference document={document} />
    </Page>
  );
}
