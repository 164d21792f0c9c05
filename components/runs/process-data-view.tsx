import { JsonView } from "@/components/ui/json-view";

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

/** Prompt messages: role plus content. */
function MessagesView({ messages }: { messages: unknown[] }) {
  return (
    <div className="messages" data-testid="process-messages">
      {messages.map((message, index) => {
        const record = asRecord(message) ?? {};
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: messages have no identity besides their order
          <div key={index} className="message">
            <span className="message-role">{text(record.role) || "message"}</span>
            <pre>{text(record.content)}</pre>
          </div>
        );
      })}
    </div>
  );
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
                {record.input !== undefined && <pre>{text(record.input)}</pre>}
              </div>
            )}
            {record.observation !== undefined && (
              <div>
                <b>Observation</b> <pre>{text(record.observation)}</pre>
              </div>
            )}
            {(record.tokens !== undefined || record.latencyMs !== undefined) && (
              <div className="muted">
                {record.tokens !== undefined && <>tokens {text(record.tokens)} </>}
                {record.latencyMs !== undefined && <>· {text(record.latencyMs)} ms</>}
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
            <JsonView value={record.arguments ?? record.input} testId="tool-call-arguments" />
            <div className="kv-label">Result</div>
            <JsonView value={record.result ?? record.output} testId="tool-call-result" />
          </div>
        );
      })}
    </div>
  );
}

const KNOWN_KEYS = new Set(["auth", "messages", "steps", "toolCalls", "request", "response"]);

/** Process data with dedicated views for prompts, agent steps, tool calls and HTTP exchanges. */
export function ProcessDataView({ data }: { data: Record<string, unknown> | null }) {
  if (!data || Object.keys(data).length === 0) return <p className="muted">No process data.</p>;
  const messages = asArray(data.messages);
  const steps = asArray(data.steps);
  const toolCalls = asArray(data.toolCalls);
  const rest = Object.fromEntries(Object.entries(data).filter(([key]) => !KNOWN_KEYS.has(key)));
  return (
    <div className="process-data">
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
          <JsonView value={data.request} testId="process-http-request" />
        </section>
      )}
      {data.response !== undefined && (
        <section>
          <h4>HTTP response</h4>
          <JsonView value={data.response} testId="process-http-response" />
        </section>
      )}
      {Object.keys(rest).length > 0 && (
        <section>
          <h4>Other</h4>
          <JsonView value={rest} />
        </section>
      )}
    </div>
  );
}
