import type { ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { JsonView } from "@/components/ui/json-view";
import { Table, TableBody, TableCaption, TableCell, TableRow } from "@/components/ui/table";
import { TableHeadRow } from "@/components/ui/table-head-row";

/** The parts of an OpenAPI 3.1 document this page reads. */
export interface OpenApiDocumentView {
  info: { title: string; version: string; description?: string };
  tags?: { name: string }[];
  paths: Record<string, Record<string, OpenApiOperationView>>;
  components?: { schemas?: Record<string, unknown> };
}

/** Who may call an operation: the key scopes its security requirement lists. */
function authLine(security: OpenApiOperationView["security"]): string {
  const scopes = security?.flatMap((requirement) => Object.values(requirement).flat()) ?? [];
  if (!security?.length) return "No authentication.";
  if (scopes.length === 0) return "Authorization: Bearer <API key>";
  const named = scopes.map((scope) => `"${scope}"`);
  const list = named.length > 1 ? `${named.slice(0, -1).join(", ")} or ${named.at(-1)}` : named[0];
  return `Authorization: Bearer <API key with the ${list} scope>`;
}

/** One operation as the page reads it. */
export interface OpenApiOperationView {
  operationId: string;
  tags?: string[];
  summary?: string;
  description?: string;
  /** `[{ apiKey: [<scope>, …] }]` for API-key operations (any one scope allows it), `[]` for public ones. */
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: unknown }[];
  requestBody?: { content: Record<string, { schema?: unknown }> };
  responses: Record<
    string,
    { description: string; "x-error-codes"?: string[]; content?: Record<string, { schema?: unknown }> }
  >;
}

/** Text with `backticked` spans shown as code (the document's descriptions are Markdown-ish). */
function Prose({ text }: { text: string }) {
  const nodes: ReactNode[] = [];
  let offset = 0;
  let inCode = false;
  // Pieces alternate between prose and code at each backtick; keyed by where they start.
  for (const part of text.split("`")) {
    nodes.push(inCode ? <code key={offset}>{part}</code> : part);
    offset += part.length + 1;
    inCode = !inCode;
  }
  return <>{nodes}</>;
}

function tone(status: string): "success" | "warning" | "destructive" {
  if (status.startsWith("2")) return "success";
  return status.startsWith("5") ? "destructive" : "warning";
}

function Operation({ method, path, operation }: { method: string; path: string; operation: OpenApiOperationView }) {
  return (
    <Card id={operation.operationId} data-testid={`api-operation-${operation.operationId}`}>
      <CardHeader>
        <CardTitle className="flex flex-wrap items-center gap-2">
          <Badge tone="primary">{method.toUpperCase()}</Badge>
          <code className="text-sm">{path}</code>
        </CardTitle>
        {operation.summary ? <CardDescription>{operation.summary}</CardDescription> : null}
      </CardHeader>
      <CardContent className="flex flex-col gap-3 text-sm">
        {operation.description ? (
          <p className="m-0">
            <Prose text={operation.description} />
          </p>
        ) : null}
        <p className="m-0 text-muted-foreground">{authLine(operation.security)}</p>
        {operation.parameters?.length ? (
          <Table>
            <TableCaption className="sr-only">Parameters</TableCaption>
            <TableHeadRow columns={["Parameter", "In", "Description"]} />
            <TableBody>
              {operation.parameters.map((parameter) => (
                <TableRow key={`${parameter.in}-${parameter.name}`}>
                  <TableCell className="whitespace-nowrap align-top">
                    <code>{parameter.name}</code>
                    {parameter.required ? <span className="text-muted-foreground"> (required)</span> : ""}
                  </TableCell>
                  <TableCell className="align-top">{parameter.in}</TableCell>
                  <TableCell className="align-top">
                    <Prose text={parameter.description ?? ""} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        ) : null}
        {operation.requestBody ? (
          <details>
            <summary className="cursor-pointer font-medium">Request body (JSON Schema)</summary>
            <JsonView value={Object.values(operation.requestBody.content)[0]?.schema} />
          </details>
        ) : null}
        <Table data-testid={`api-responses-${operation.operationId}`}>
          <TableCaption className="sr-only">Responses</TableCaption>
          <TableHeadRow columns={[{ label: "Status", className: "w-20" }, "Meaning"]} />
          <TableBody>
            {Object.entries(operation.responses).map(([status, response]) => (
              <TableRow key={status}>
                <TableCell className="align-top">
                  <Badge tone={tone(status)}>{status}</Badge>
                </TableCell>
                <TableCell className="align-top">
                  {response["x-error-codes"] ? (
                    <ul className="m-0 list-none p-0">
                      {response.description.split("\n").map((line) => (
                        <li key={line}>
                          <Prose text={line} />
                        </li>
                      ))}
                    </ul>
                  ) : (
                    <>
                      <Prose text={response.description} />
                      {response.content ? (
                        <span className="text-muted-foreground"> ({Object.keys(response.content).join(", ")})</span>
                      ) : null}
                    </>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </CardContent>
    </Card>
  );
}

/** A readable rendering of an OpenAPI document: operations by tag, parameters, bodies, every status and code. */
export function OpenApiReference({ document }: { document: OpenApiDocumentView }) {
  const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
  );
  const tags = document.tags?.map((tag) => tag.name) ?? [
    ...new Set(operations.map((entry) => entry.operation.tags?.[0] ?? "")),
  ];
  return (
    <div className="flex flex-col gap-6" data-testid="api-reference">
      {document.info.description ? <p className="m-0 text-muted-foreground">{document.info.description}</p> : null}
      <nav aria-label="Operations">
        <ul className="m-0 flex list-none flex-wrap gap-x-4 gap-y-1 p-0 text-sm">
          {operations.map(({ path, method, operation }) => (
            <li key={operation.operationId}>
              <a href={`#${operation.operationId}`}>
                {method.toUpperCase()} {path}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {tags.map((tag) => (
        <section key={tag} className="flex flex-col gap-3" aria-labelledby={`tag-${tag}`}>
          <h2 id={`tag-${tag}`} className="m-0 text-lg font-semibold">
            {tag}
          </h2>
          {operations
            .filter((entry) => (entry.operation.tags?.[0] ?? "") === tag)
            .map((entry) => (
              <Operation key={entry.operation.operationId} {...entry} />
            ))}
        </section>
      ))}
      {document.components?.schemas ? (
        <section className="flex flex-col gap-3" aria-labelledby="tag-schemas">
          <h2 id="tag-schemas" className="m-0 text-lg font-semibold">
            Schemas
          </h2>
          {Object.entries(document.components.schemas).map(([name, schema]) => (
            <details key={name} id={`schema-${name}`}>
              <summary className="cursor-pointer font-medium">{name}</summary>
              <JsonView value={schema} />
            </details>
          ))}
        </section>
      ) : null}
    </div>
  );
}
