import Link from "next/link";
import { buildOpenApiDocument } from "@/app/api/v1/openapi-document";
import { type OpenApiDocumentView, OpenApiReference } from "@/components/docs/openapi-reference";

export const metadata = { title: "API reference · Trellis" };

/** The published API's reference, rendered from the same OpenAPI document /api/v1/openapi.json serves. */
export default function ApiDocsPage() {
  const document = buildOpenApiDocument() as unknown as OpenApiDocumentView;
  return (
    <main className="page page-wide">
      <header className="page-header">
        <h1>API reference</h1>
        <div className="flex gap-2">
          <a href="/api/v1/openapi.json" className="button" data-testid="openapi-json-link">
            openapi.json
          </a>
          <Link href="/workflows" className="button">
            Workflows
          </Link>
        </div>
      </header>
      <OpenApiReference document={document} />
    </main>
  );
}
