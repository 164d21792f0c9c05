"use client";

import { memo, useEffect, useMemo, useState } from "react";
import { NodeTypeIcon } from "@/components/ui/node-type-style";
import { Table, TableBody, TableCell, TableRow } from "@/components/ui/table";
import { TableHeadRow } from "@/components/ui/table-head-row";
import type { WorkspaceVariableView } from "@/lib/contracts/workspace-variable";
import type { ConfigPath } from "@/lib/workflow/node-definition";
import { buildVariableCatalog, type VariableUse } from "@/lib/workflow/variable-catalog";
import { graphToDocument } from "../store/document-conversion";
import { useEditorStore, useEditorStoreApi } from "../store/editor-store-context";

/** `{{env.*}}` values the workspace and the server define, as `/api/variables` answers. */
interface EnvironmentAnswer {
  variables: WorkspaceVariableView[];
  server: { name: string; value: string }[];
}

/** The workspace's and the server's env variables, loaded once per panel opening. */
function useEnvironmentVariables(): EnvironmentAnswer | null {
  const [answer, setAnswer] = useState<EnvironmentAnswer | null>(null);
  useEffect(() => {
    let cancelled = false;
    fetch("/api/variables")
      .then((response) => (response.ok ? (response.json() as Promise<EnvironmentAnswer>) : null))
      .then((body) => {
        if (!cancelled) setAnswer(body);
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, []);
  return answer;
}

/** The bottom panel is short: rows are denser than a page's table, cells top-aligned for multi-line usages. */
const CELL_CLASS_NAME = "[&>td]:py-1.5 [&>td]:align-top";

const linkClassName =
  "rounded-sm px-1 text-left text-xs text-primary underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-ring";

/**
 * The draft's variables: every node's outputs with their types and the nodes that read them, and
 * the `{{env.*}}` variables (the workspace's, the server's, and names read but defined nowhere).
 * A node or a usage is a button: it selects that node, centres it and focuses the reading field.
 */
export const VariablesPanel = memo(function VariablesPanel() {
  const store = useEditorStoreApi();
  const nodes = useEditorStore((state) => state.nodes);
  const catalog = useMemo(() => buildVariableCatalog(graphToDocument(nodes, [])), [nodes]);
  const environment = useEnvironmentVariables();
  const jump = (nodeId: string, path: ConfigPath = []) =>
    store.getState().focusProblem({ code: "internal_error", severity: "warning", nodeId, path, message: "" });

  const usages = (uses: VariableUse[]) =>
    uses.length === 0 ? (
      <span className="text-xs text-muted-foreground">not used</span>
    ) : (
      <span className="flex flex-wrap gap-x-1">
        {uses.map((use) => (
          <button
            key={`${use.nodeId}:${use.path.join(".")}:${use.text}`}
            type="button"
            className={linkClassName}
            data-testid="variable-usage"
            data-node-id={use.nodeId}
            onClick={() => jump(use.nodeId, use.path)}
          >
            {use.nodeTitle}
          </button>
        ))}
      </span>
    );

  const envNames = new Map<string, { value?: string; origin: "workspace" | "server" | "undefined" }>();
  for (const variable of environment?.server ?? [])
    envNames.set(variable.name, { value: variable.value, origin: "server" });
  for (const variable of environment?.variables ?? [])
    envNames.set(variable.name, { value: variable.value, origin: "workspace" });
  for (const name of catalog.env.keys()) if (!envNames.has(name)) envNames.set(name, { origin: "undefined" });

  return (
    <div className="flex flex-col gap-3 text-sm" data-testid="variables-panel">
      <Table data-testid="variables-outputs">
        <TableHeadRow columns={["Node", "Output", "Type", "Used by"]} />
        <TableBody>
          {catalog.nodes.flatMap((node) =>
            node.outputs.map((output, index) => (
              <TableRow
                key={`${node.nodeId}.${output.name}`}
                className={CELL_CLASS_NAME}
                data-testid="variable-output"
                data-reference={output.reference}
              >
                <TableCell>
                  {index === 0 && (
                    <button
                      type="button"
                      className="flex items-center gap-1.5 rounded-sm text-left font-medium hover:underline focus-visible:outline-2 focus-visible:outline-ring"
                      data-testid="variable-node"
                      data-node-id={node.nodeId}
                      onClick={() => jump(node.nodeId)}
                    >
                      <NodeTypeIcon type={node.type} size="sm" />
                      {node.nodeTitle}
                    </button>
                  )}
                </TableCell>
                <TableCell>
                  <code className="text-xs">{output.reference}</code>
                </TableCell>
                <TableCell className="text-xs text-muted-foreground">{output.type}</TableCell>
                <TableCell>{usages(output.usages)}</TableCell>
              </TableRow>
            )),
          )}
        </TableBody>
      </Table>
      <section aria-label="Environment variables" data-testid="variables-env">
        <h3 className="m-0 mb-1 text-xs font-semibold">Environment</h3>
        {envNames.size === 0 ? (
          <p className="m-0 text-xs text-muted-foreground">
            No environment variables. Admins add them in Settings → Environment variables.
          </p>
        ) : (
          <Table>
            <TableHeadRow columns={["Variable", "Value", "Defined in", "Used by"]} />
            <TableBody>
              {[...envNames].map(([name, entry]) => (
                <TableRow
                  key={name}
                  className={CELL_CLASS_NAME}
                  data-testid="variable-env"
                  data-name={name}
                  data-origin={entry.origin}
                >
                  <TableCell>
                    <code className="text-xs">{`{{env.${name}}}`}</code>
                  </TableCell>
                  <TableCell className="text-xs text-muted-foreground">
                    {entry.origin === "undefined" ? "not defined: renders empty" : entry.value}
                  </TableCell>
                  <TableCell className="text-xs text-muted-foreground">
                    {entry.origin === "undefined" ? "" : entry.origin}
                  </TableCell>
                  <TableCell>{usages(catalog.env.get(name) ?? [])}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </section>
    </div>
  );
});
