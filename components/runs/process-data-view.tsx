import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { JsonTree } from "./json-tree";
import { RunSection } from "./run-section";

type Record_ = Record<string, unknown>;

function asRecord(value: unknown): Record_ | null {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record_) : null;
}

function asArray(value: unknown): unknown[] | null {
  return Array.isArray(value) ? value : null;
}

function text(value: unknown): string {
  if (value === undefined || value === null) return "";
  return typeof value === "string" ? value : JSON.stringify(value, null, 2);
}

/** Tool arguments as the model sent them: JSON text when it parses, the raw text otherwise. */
function parsedArguments(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** The small caps label above a part of a step or call (Thought, Arguments…). */
const STEP_LABEL = "text-2xs font-semibold tracking-wide text-muted-foreground uppercase";

/** Each chat role's accent on the turn's left edge. */
const ROLE_BORDERS: Record<string, string> = {
  system: "border-l-muted-foreground/50",
  user: "border-l-info/70",
  assistant: "border-l-node-llm/70",
  tool: "border-l-node-tool/70",
  function: "border-l-node-tool/70",
};

/** How each chat role is named above its turn. */
const ROLE_LABELS: Record<string, string> = {
  system: "System",
  user: "User",
  assistant: "Assistant",
  tool: "Tool result",
  function: "Function result",
};

/**
 * Prompt messages as a chat. An assistant turn that only calls tools has no text: it shows its
 * calls (name and formatted arguments) instead of an empty bubble, and each tool turn says which
 * call it answers.
 */
function MessagesView({ messages }: { messages: unknown[] }) {
  const callNames = new Map<string, string>();
  for (const message of messages) {
    for (const call of asArray(asRecord(message)?.toolCalls) ?? []) {
      const record = asRecord(call);
      if (record && typeof record.id === "string") callNames.set(record.id, text(record.name));
    }
  }
  return (
    <div className="flex flex-col gap-2" data-testid="process-messages">
      {messages.map((message, index) => {
        const record = asRecord(message) ?? {};
        const role = text(record.role) || "message";
        const calls = asArray(record.toolCalls) ?? [];
        const content = text(record.content);
        const answers = typeof record.toolCallId === "string" ? record.toolCallId : undefined;
        return (
          <div
            // biome-ignore lint/suspicious/noArrayIndexKey: messages have no identity besides their order
            key={index}
            className={cn(
              "flex min-w-0 flex-col gap-1.5 rounded-md border border-l-[3px] border-border bg-card px-2.5 py-2",
              ROLE_BORDERS[role] ?? "border-l-muted-foreground/40",
            )}
            data-role={role}
          >
            <span className="text-2xs font-semibold tracking-wide text-muted-foreground uppercase">
              {ROLE_LABELS[role] ?? role}
              {answers && ` · ${callNames.get(answers) ?? "call"} (${answers})`}
              {role === "function" && typeof record.name === "string" && ` · ${record.name}`}
            </span>
            {content !== "" && (role === "tool" || role === "function") ? (
              <JsonTree value={content} />
            ) : (
              content !== "" && <pre className="m-0 font-sans text-sm break-words whitespace-pre-wrap">{content}</pre>
            )}
            {calls.map((call, callIndex) => {
              const callRecord = asRecord(call) ?? {};
              return (
                <div
                  // biome-ignore lint/suspicious/noArrayIndexKey: calls are ordered
                  key={callIndex}
                  className="flex min-w-0 flex-col gap-1 rounded-md border border-border bg-muted/40 p-2 text-xs"
                  data-testid="message-tool-call"
                >
                  <div>
                    Calls <code className="font-semibold">{text(callRecord.name)}</code>
                    {typeof callRecord.id === "string" && (
                      <span className="text-muted-foreground"> · {callRecord.id}</span>
                    )}
                  </div>
                  <JsonTree value={parsedArguments(callRecord.arguments)} />
                </div>
              );
            })}
            {content === "" && calls.length === 0 && <span className="text-xs text-muted-foreground">(no text)</span>}
          </div>
        );
      })}
    </div>
  );
}

/** Step tokens `{ input, output }` (or a plain count) as numbers. */
function formatTokens(tokens: unknown): string {
  if (typeof tokens === "number") return `${tokens} tokens`;
  const record = asRecord(tokens);
  if (!record) return text(tokens);
  const input = Number(record.input ?? record.inputTokens ?? 0);
  const output = Number(record.output ?? record.outputTokens ?? 0);
  return `${input.toLocaleString("en-US")} in / ${output.toLocaleString("en-US")} out tokens`;
}

/** Agent steps: thought → action(input) → observation. */
function StepsView({ steps }: { steps: unknown[] }) {
  return (
    <ol
      className="m-0 flex list-decimal flex-col gap-2 pl-5 text-xs marker:text-muted-foreground"
      data-testid="process-steps"
    >
      {steps.map((step, index) => {
        const record = asRecord(step) ?? {};
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: steps are ordered
          <li key={index} className="pl-1">
            <div className="flex min-w-0 flex-col gap-1.5">
              {record.thought !== undefined && (
                <div className="flex flex-col gap-0.5">
                  <span className={STEP_LABEL}>Thought</span>
                  <pre className="m-0 font-sans text-sm break-words whitespace-pre-wrap">{text(record.thought)}</pre>
                </div>
              )}
              {record.action !== undefined && (
                <div className="flex flex-col gap-0.5">
                  <span className={STEP_LABEL}>
                    Action <code className="font-semibold text-foreground normal-case">{text(record.action)}</code>
                  </span>
                  {record.input !== undefined && <JsonTree value={parsedArguments(record.input)} />}
                </div>
              )}
              {record.observation !== undefined && (
                <div className="flex flex-col gap-0.5">
                  <span className={STEP_LABEL}>Observation</span>
                  <JsonTree value={record.observation} />
                </div>
              )}
              {(record.tokens !== undefined || record.latencyMs !== undefined) && (
                <div className="text-muted-foreground" data-testid="step-usage">
                  {record.tokens !== undefined && formatTokens(record.tokens)}
                  {record.tokens !== undefined && record.latencyMs !== undefined && " · "}
                  {record.latencyMs !== undefined && `${Number(record.latencyMs).toLocaleString("en-US")} ms`}
                </div>
              )}
            </div>
          </li>
        );
      })}
    </ol>
  );
}

/** Tool calls: name, arguments, result, outcome. */
function ToolCallsView({ calls }: { calls: unknown[] }) {
  return (
    <div className="flex flex-col gap-2" data-testid="process-tool-calls">
      {calls.map((call, index) => {
        const record = asRecord(call) ?? {};
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: calls are ordered
          <Card key={index} className="flex min-w-0 flex-col gap-1.5 p-2.5 text-xs shadow-none">
            <div className="flex flex-wrap items-center gap-2">
              <code className="font-semibold">{text(record.name ?? record.toolName)}</code>
              {record.ok === false && <Badge tone="destructive">error</Badge>}
              {record.latencyMs !== undefined && (
                <span className="text-muted-foreground">{text(record.latencyMs)} ms</span>
              )}
            </div>
            <span className={STEP_LABEL}>Arguments</span>
            <JsonTree value={parsedArguments(record.arguments ?? record.input)} testId="tool-call-arguments" />
            <span className={STEP_LABEL}>Result</span>
            <JsonTree value={record.result ?? record.output} testId="tool-call-result" />
          </Card>
        );
      })}
    </div>
  );
}

/** One attempt of a model call as lib/llm records it (`processData.modelCalls[].attempts`). */
function attemptLabel(attempt: Record_): string {
  const outcome =
    attempt.status === "ok"
      ? "ok"
      : `${text(attempt.errorCode) || "error"}${attempt.httpStatus ? ` (HTTP ${text(attempt.httpStatus)})` : ""}`;
  const wait = typeof attempt.waitMs === "number" && attempt.waitMs > 0 ? `, waited ${attempt.waitMs} ms` : "";
  return `#${text(attempt.attempt)} ${outcome}${wait}`;
}

/** Which model and provider served each call, its attempts (retries leave a trace), latency, tokens and cost. */
function ModelCallsView({ calls }: { calls: unknown[] }) {
  return (
    <div className="flex flex-col gap-2" data-testid="model-calls">
      {calls.map((call, index) => {
        const record = asRecord(call) ?? {};
        const attempts = (asArray(record.attempts) ?? []).map((attempt) => asRecord(attempt) ?? {});
        return (
          <Card
            className="flex min-w-0 flex-col gap-1 p-2.5 text-xs shadow-none"
            // biome-ignore lint/suspicious/noArrayIndexKey: calls are a fixed, ordered record
            key={index}
            data-testid="model-call"
            data-status={text(record.status)}
          >
            <div>
              <b data-testid="model-call-model">{text(record.servedModelId ?? record.modelId)}</b>{" "}
              <span className="text-muted-foreground" data-testid="model-call-provider">
                via {text(record.provider)}
              </span>
              {record.mode ? <span className="text-muted-foreground"> · {text(record.mode)}</span> : null}
            </div>
            <p className="m-0 text-muted-foreground tabular-nums" data-testid="model-call-figures">
              {typeof record.latencyMs === "number" ? `${record.latencyMs} ms` : ""}
              {typeof record.firstTokenMs === "number" ? ` (first token ${record.firstTokenMs} ms)` : ""}
              {` · ${text(record.inputTokens ?? 0)} in / ${text(record.outputTokens ?? 0)} out tokens`}
              {typeof record.cachedInputTokens === "number" && record.cachedInputTokens > 0
                ? ` (${record.cachedInputTokens} cached)`
                : ""}
              {typeof record.cost === "number" ? ` · $${record.cost.toFixed(6)}` : ""}
            </p>
            {attempts.length > 0 && (
              <ol className="m-0 list-none p-0 text-muted-foreground" data-testid="model-call-attempts">
                {attempts.map((attempt) => (
                  <li key={text(attempt.attempt)} data-testid="model-call-attempt">
                    {attemptLabel(attempt)}
                  </li>
                ))}
              </ol>
            )}
          </Card>
        );
      })}
    </div>
  );
}

const KNOWN_KEYS = new Set(["auth", "messages", "steps", "toolCalls", "modelCalls", "request", "response"]);

/** Process data with dedicated views for prompts, agent steps, tool calls and HTTP exchanges. */
export function ProcessDataView({ data }: { data: Record<string, unknown> | null }) {
  if (!data || Object.keys(data).length === 0)
    return <p className="m-0 text-xs text-muted-foreground">No process data.</p>;
  const messages = asArray(data.messages);
  const steps = asArray(data.steps);
  const toolCalls = asArray(data.toolCalls);
  const modelCalls = asArray(data.modelCalls);
  const rest = Object.fromEntries(Object.entries(data).filter(([key]) => !KNOWN_KEYS.has(key)));
  return (
    <div className="flex min-w-0 flex-col gap-3 border-l-2 border-border pl-3">
      {modelCalls && modelCalls.length > 0 && (
        <RunSection nested title="Model calls">
          <ModelCallsView calls={modelCalls} />
        </RunSection>
      )}
      {messages && messages.length > 0 && (
        <RunSection nested title="Prompt messages">
          <MessagesView messages={messages} />
        </RunSection>
      )}
      {steps && steps.length > 0 && (
        <RunSection nested title="Agent steps">
          <StepsView steps={steps} />
        </RunSection>
      )}
      {toolCalls && toolCalls.length > 0 && (
        <RunSection nested title="Tool calls">
          <ToolCallsView calls={toolCalls} />
        </RunSection>
      )}
      {data.request !== undefined && (
        <RunSection nested title="HTTP request">
          {typeof data.auth === "string" && (
            <p className="m-0 text-xs text-muted-foreground" data-testid="process-http-auth">
              Authentication: {data.auth}
            </p>
          )}
          <JsonTree value={data.request} testId="process-http-request" />
        </RunSection>
      )}
      {data.response !== undefined && (
        <RunSection nested title="HTTP response">
          <JsonTree value={data.response} testId="process-http-response" />
        </RunSection>
      )}
      {Object.keys(rest).length > 0 && (
        <RunSection nested title="Other">
          <JsonTree value={rest} />
        </RunSection>
      )}
    </div>
  );
}
