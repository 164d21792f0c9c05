import { JsonTree } from "./json-tree";

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
    <div className="messages" data-testid="process-messages">
      {messages.map((message, index) => {
        const record = asRecord(message) ?? {};
        const role = text(record.role) || "message";
        const calls = asArray(record.toolCalls) ?? [];
        const content = text(record.content);
        const answers = typeof record.toolCallId === "string" ? record.toolCallId : undefined;
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: messages have no identity besides their order
          <div key={index} className={`message message-${role}`} data-role={role}>
            <span className="message-role">
              {ROLE_LABELS[role] ?? role}
              {answers && ` · ${callNames.get(answers) ?? "call"} (${answers})`}
              {role === "function" && typeof record.name === "string" && ` · ${record.name}`}
            </span>
            {content !== "" && (role === "tool" || role === "function") ? (
              <JsonTree value={content} />
            ) : (
              content !== "" && <pre>{content}</pre>
            )}
            {calls.map((call, callIndex) => {
              const callRecord = asRecord(call) ?? {};
              return (
                <div
                  // biome-ignore lint/suspicious/noArrayIndexKey: calls are ordered
                  key={callIndex}
                  className="tool-call"
                  data-testid="message-tool-call"
                >
                  <div>
                    Calls <code>{text(callRecord.name)}</code>
                    {typeof callRecord.id === "string" && <span className="muted"> · {callRecord.id}</span>}
                  </div>
                  <JsonTree value={parsedArguments(callRecord.arguments)} />
                </div>
              );
            })}
            {content === "" && calls.length === 0 && <span className="muted">(no text)</span>}
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
    <ol className="agent-steps" data-testid="process-steps">
      {steps.map((step, index) => {
        const record = asRecord(step) ?? {};
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: steps are ordered
          <li key={index} className="agent-step">
            {record.thought !== undefined && (
              <div>
                <b>Thought</b> <pre>{text(record.thought)}</pre>
              </div>
            )}
            {record.action !== undefined && (
              <div>
                <b>Action</b> <code>{text(record.action)}</code>
                {record.input !== undefined && <JsonTree value={parsedArguments(record.input)} />}
              </div>
            )}
            {record.observation !== undefined && (
              <div>
                <b>Observation</b> <JsonTree value={record.observation} />
              </div>
            )}
            {(record.tokens !== undefined || record.latencyMs !== undefined) && (
              <div className="muted" data-testid="step-usage">
                {record.tokens !== undefined && formatTokens(record.tokens)}
                {record.tokens !== undefined && record.latencyMs !== undefined && " · "}
                {record.latencyMs !== undefined && `${Number(record.latencyMs).toLocaleString("en-US")} ms`}
              </div>
            )}
          </li>
        );
      })}
    </ol>
  );
}

/** Tool calls: name, arguments, result, outcome. */
function ToolCallsView({ calls }: { calls: unknown[] }) {
  return (
    <div className="tool-calls" data-testid="process-tool-calls">
      {calls.map((call, index) => {
        const record = asRecord(call) ?? {};
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: calls are ordered
          <div key={index} className="tool-call">
            <div>
              <code>{text(record.name ?? record.toolName)}</code>{" "}
              {record.ok === false && <span className="badge badge-failed">error</span>}
              {record.latencyMs !== undefined && <span className="muted"> {text(record.latencyMs)} ms</span>}
            </div>
            <div className="kv-label">Arguments</div>
            <JsonTree value={parsedArguments(record.arguments ?? record.input)} testId="tool-call-arguments" />
            <div className="kv-label">Result</div>
            <JsonTree value={record.result ?? record.output} testId="tool-call-result" />
          </div>
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
    <div className="tool-calls" data-testid="model-calls">
      {calls.map((call, index) => {
        const record = asRecord(call) ?? {};
        const attempts = (asArray(record.attempts) ?? []).map((attempt) => asRecord(attempt) ?? {});
        return (
          <div
            className="tool-call-card"
            // biome-ignore lint/suspicious/noArrayIndexKey: calls are a fixed, ordered record
            key={index}
            data-testid="model-call"
            data-status={text(record.status)}
          >
            <div className="tool-call-name">
              <b data-testid="model-call-model">{text(record.servedModelId ?? record.modelId)}</b>{" "}
              <span className="muted" data-testid="model-call-provider">
                via {text(record.provider)}
              </span>
              {record.mode ? <span className="muted"> · {text(record.mode)}</span> : null}
            </div>
            <p className="muted" data-testid="model-call-figures">
              {typeof record.latencyMs === "number" ? `${record.latencyMs} ms` : ""}
              {typeof record.firstTokenMs === "number" ? ` (first token ${record.firstTokenMs} ms)` : ""}
              {` · ${text(record.inputTokens ?? 0)} in / ${text(record.outputTokens ?? 0)} out tokens`}
              {typeof record.cachedInputTokens === "number" && record.cachedInputTokens > 0
                ? ` (${record.cachedInputTokens} cached)`
                : ""}
              {typeof record.cost === "number" ? ` · $${record.cost.toFixed(6)}` : ""}
            </p>
            {attempts.length > 0 && (
              <ol className="model-call-attempts" data-testid="model-call-attempts">
                {attempts.map((attempt) => (
                  <li key={text(attempt.attempt)} data-testid="model-call-attempt">
                    {attemptLabel(attempt)}
                  </li>
                ))}
              </ol>
            )}
          </div>
        );
      })}
    </div>
  );
}

const KNOWN_KEYS = new Set(["auth", "messages", "steps", "toolCalls", "modelCalls", "request", "response"]);

/** Process data with dedicated views for prompts, agent steps, tool calls and HTTP exchanges. */
export function ProcessDataView({ data }: { data: Record<string, unknown> | null }) {
  if (!data || Object.keys(data).length === 0) return <p className="muted">No process data.</p>;
  const messages = asArray(data.messages);
  const steps = asArray(data.steps);
  const toolCalls = asArray(data.toolCalls);
  const modelCalls = asArray(data.modelCalls);
  const rest = Object.fromEntries(Object.entries(data).filter(([key]) => !KNOWN_KEYS.has(key)));
  return (
    <div className="process-data">
      {modelCalls && modelCalls.length > 0 && (
        <section>
          <h4>Model calls</h4>
          <ModelCallsView calls={modelCalls} />
        </section>
      )}
      {messages && messages.length > 0 && (
        <section>
          <h4>Prompt messages</h4>
          <MessagesView messages={messages} />
        </section>
      )}
      {steps && steps.length > 0 && (
        <section>
          <h4>Agent steps</h4>
          <StepsView steps={steps} />
        </section>
      )}
      {toolCalls && toolCalls.length > 0 && (
        <section>
          <h4>Tool calls</h4>
          <ToolCallsView calls={toolCalls} />
        </section>
      )}
      {data.request !== undefined && (
        <section>
          <h4>HTTP request</h4>
          {typeof data.auth === "string" && (
            <p className="muted" data-testid="process-http-auth">
              Authentication: {data.auth}
            </p>
          )}
          <JsonTree value={data.request} testId="process-http-request" />
        </section>
      )}
      {data.response !== undefined && (
        <section>
          <h4>HTTP response</h4>
          <JsonTree value={data.response} testId="process-http-response" />
        </section>
      )}
      {Object.keys(rest).length > 0 && (
        <section>
          <h4>Other</h4>
          <JsonTree value={rest} />
        </section>
      )}
    </div>
  );
}
