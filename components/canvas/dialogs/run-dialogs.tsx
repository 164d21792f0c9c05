"use client";

import { PlayIcon } from "lucide-react";
import { useMemo, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { cn } from "@/components/ui/cn";
import { Dialog } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Textarea } from "@/components/ui/textarea";
import { checkRunInputs } from "@/lib/workflow/run-inputs";
import { upstreamVariables } from "../panels/upstream-variables";
import { graphToDocument } from "../store/document-conversion";
import { useEditorStore, useEditorStoreApi } from "../store/editor-store-context";

/** A run input declared on the start node. */
interface DeclaredInput {
  name: string;
  type?: string;
  required?: boolean;
  description?: string;
  default?: unknown;
}

function initialText(input: DeclaredInput): string {
  if (input.default === undefined) return input.type === "boolean" ? "false" : "";
  return typeof input.default === "string" ? input.default : JSON.stringify(input.default);
}

/** Whether the input's value is typed as JSON: an object or an array (`array<string>` and the like too). */
function isJsonTyped(input: DeclaredInput): boolean {
  return input.type === "object" || input.type?.startsWith("array") === true;
}

function coerce(input: DeclaredInput, text: string): unknown {
  switch (input.type) {
    case "number":
      return text === "" ? undefined : Number(text);
    case "boolean":
      return text === "true";
    default:
      // Objects and arrays (typed or not) are typed as JSON.
      if (isJsonTyped(input)) return text.trim() === "" ? undefined : JSON.parse(text);
      return text;
  }
}

/** The error a failed request answered, with the first compile issues it names ("Node title: message"). */
async function readError(response: Response, titleOf: (nodeId: string) => string): Promise<string> {
  try {
    const body = (await response.json()) as {
      error?: { message?: string; code?: string; issues?: { nodeId?: string; message?: string }[] };
    };
    const message = body.error?.message ?? `Request failed (${response.status})`;
    const issues = (body.error?.issues ?? [])
      .slice(0, 3)
      .map((issue) => (issue.nodeId ? `${titleOf(issue.nodeId)}: ${issue.message ?? ""}` : (issue.message ?? "")));
    return [message, ...issues].join(" ");
  } catch {
    return `Request failed (${response.status})`;
  }
}

/** A node's title for messages (people know titles, not ids). */
function nodeTitle(nodes: readonly { id: string; data: { title?: unknown } }[], nodeId: string): string {
  const title = nodes.find((node) => node.id === nodeId)?.data.title;
  return typeof title === "string" && title.trim() !== "" ? title : nodeId;
}

/** The run form, generated from the start node's declared inputs; runs the current (unsaved) draft. */
export function RunInputsDialog() {
  const store = useEditorStoreApi();
  const open = useEditorStore((state) => state.dialog === "run-inputs");
  const errorCount = useEditorStore((state) => state.issues.filter((issue) => issue.severity === "error").length);
  const inputs = useEditorStore((state) => {
    const start = state.nodes.find((node) => node.type === "start");
    return (start?.data.inputs as DeclaredInput[] | undefined) ?? null;
  });
  const [values, setValues] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  // Per input, what is wrong with it (required, wrong type), until it is edited.
  const [missing, setMissing] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const close = () => store.getState().setDialog("none");

  const submit = async () => {
    setError(null);
    const parsed: Record<string, unknown> = {};
    try {
      for (const input of inputs ?? []) {
        const value = coerce(input, values[input.name] ?? initialText(input));
        if (value !== undefined) parsed[input.name] = value;
      }
    } catch {
      setError("An object or array input is not valid JSON.");
      return;
    }
    // The server would refuse the run (422); say so per field before anything is sent.
    const checked = checkRunInputs(
      { inputs: (inputs ?? []) as Parameters<typeof checkRunInputs>[0]["inputs"], allowExtraInputs: true },
      parsed,
    );
    const problems = checked.ok ? {} : Object.fromEntries(checked.issues.map((issue) => [issue.field, issue.message]));
    setMissing(problems);
    if (!checked.ok) {
      setError(checked.issues.map((issue) => issue.message).join(" "));
      return;
    }
    setBusy(true);
    const state = store.getState();
    try {
      const response = await fetch(`/api/workflows/${state.workflowId}/runs`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ inputs: parsed, document: graphToDocument(state.nodes, state.edges) }),
      });
      if (!response.ok) {
        setError(await readError(response, (nodeId) => nodeTitle(store.getState().nodes, nodeId)));
        return;
      }
      const { runId } = (await response.json()) as { runId: string };
      state.startRun(runId);
      state.setBottomPanel("run");
      close();
    } catch {
      setError("Could not reach the server.");
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={open}
      title="Run workflow"
      onClose={close}
      testId="run-dialog"
      footer={
        <Button variant="primary" data-testid="run-submit" disabled={busy} onClick={() => void submit()}>
          <PlayIcon aria-hidden /> {busy ? "Starting…" : "Run"}
        </Button>
      }
    >
      {errorCount > 0 && (
        <Alert tone="warning" className="mb-3">
          <p>
            The workflow has {errorCount} problem{errorCount === 1 ? "" : "s"}; the run will be rejected until they are
            fixed.
          </p>
        </Alert>
      )}
      {inputs === null && (
        <Alert tone="destructive" className="mb-3">
          <p>The workflow has no start node.</p>
        </Alert>
      )}
      {inputs?.length === 0 && (
        <p className="m-0 mb-3 text-sm text-muted-foreground">The start node declares no inputs.</p>
      )}
      {inputs?.map((input) => (
        <FormField
          key={input.name}
          id={`run-input-${input.name}`}
          label={
            <>
              {input.name}
              {input.required && <span className="text-muted-foreground"> *</span>}{" "}
              <span className="font-normal text-muted-foreground">({input.type ?? "string"})</span>
            </>
          }
          hint={input.description}
          error={missing[input.name]}
          errorTestId={`run-input-error-${input.name}`}
        >
          {input.type === "boolean" ? (
            <Checkbox
              id={`run-input-${input.name}`}
              data-testid={`run-input-${input.name}`}
              checked={(values[input.name] ?? initialText(input)) === "true"}
              onCheckedChange={(checked) => setValues({ ...values, [input.name]: String(checked === true) })}
            />
          ) : (
            <Textarea
              id={`run-input-${input.name}`}
              className={cn("min-h-0", isJsonTyped(input) && "font-mono text-xs")}
              rows={isJsonTyped(input) ? 4 : 2}
              data-testid={`run-input-${input.name}`}
              aria-invalid={input.name in missing || undefined}
              aria-required={input.required || undefined}
              value={values[input.name] ?? initialText(input)}
              onChange={(event) => {
                setValues({ ...values, [input.name]: event.target.value });
                if (input.name in missing) {
                  const { [input.name]: _fixed, ...rest } = missing;
                  setMissing(rest);
                }
              }}
            />
          )}
        </FormField>
      ))}
      {error && (
        <Alert tone="destructive" role="alert" data-testid="run-error-message">
          <p>{error}</p>
        </Alert>
      )}
    </Dialog>
  );
}

/** Runs one node alone; upstream outputs are editable JSON, prefilled from the last run. */
export function SingleNodeRunDialog({ nodeId, onClose }: { nodeId: string | null; onClose: () => void }) {
  const store = useEditorStoreApi();
  const upstreamIds = useMemo(() => {
    if (!nodeId) return [];
    const { nodes, edges } = store.getState();
    const variables = upstreamVariables(nodeId, nodes, edges);
    return [...new Set(variables.map((variable) => variable.selector[0]))];
  }, [nodeId, store]);
  const [texts, setTexts] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);

  const prefill = (id: string): string => {
    const { runEvents, nodes, edges } = store.getState();
    const lastEnd = runEvents.findLast((event) => event.type === "node-end" && event.nodeId === id);
    if (lastEnd?.type === "node-end") return JSON.stringify(lastEnd.outputs, null, 2);
    if (id === "item") return '""';
    if (id === "index") return "0";
    const fields = upstreamVariables(nodeId ?? "", nodes, edges).filter((variable) => variable.selector[0] === id);
    return JSON.stringify(Object.fromEntries(fields.map((field) => [field.selector[1], null])), null, 2);
  };

  const submit = async () => {
    if (!nodeId) return;
    const variables: Record<string, unknown> = {};
    for (const id of upstreamIds) {
      try {
        variables[id] = JSON.parse(texts[id] ?? prefill(id));
      } catch {
        setError(`The value of ${id} is not valid JSON.`);
        return;
      }
    }
    const state = store.getState();
    const response = await fetch(`/api/workflows/${state.workflowId}/nodes/${nodeId}/run`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ variables, document: graphToDocument(state.nodes, state.edges) }),
    });
    if (!response.ok) {
      setError(await readError(response, (nodeId) => nodeTitle(store.getState().nodes, nodeId)));
      return;
    }
    const { runId } = (await response.json()) as { runId: string };
    state.startRun(runId);
    state.setBottomPanel("run");
    onClose();
  };

  return (
    <Dialog
      open={nodeId !== null}
      title={`Run ${nodeId ? nodeTitle(store.getState().nodes, nodeId) : ""} alone`}
      onClose={onClose}
      testId="single-node-run-dialog"
      footer={
        <Button variant="primary" data-testid="single-node-run-submit" onClick={() => void submit()}>
          <PlayIcon aria-hidden /> Run node
        </Button>
      }
    >
      {upstreamIds.length === 0 && (
        <p className="m-0 mb-3 text-sm text-muted-foreground">This node reads no upstream outputs.</p>
      )}
      {upstreamIds.map((id) => (
        <FormField
          key={id}
          id={`upstream-${id}`}
          label={
            <>
              {nodeTitle(store.getState().nodes, id)}{" "}
              <span className="font-normal text-muted-foreground">({`{{${id}}}`})</span>
            </>
          }
          errorTestId={`single-node-upstream-error-${id}`}
        >
          <Textarea
            id={`upstream-${id}`}
            data-testid={`single-node-upstream-${id}`}
            className="font-mono text-xs"
            rows={4}
            value={texts[id] ?? prefill(id)}
            onChange={(event) => setTexts({ ...texts, [id]: event.target.value })}
          />
        </FormField>
      ))}
      {error && (
        <Alert tone="destructive" role="alert">
          <p>{error}</p>
        </Alert>
      )}
    </Dialog>
  );
}
