/** A tool call the fake model should make. */
export interface FakeToolCall {
  /** Function name. */
  name: string;
  /** Raw JSON arguments text, sent in fragments when streaming. */
  arguments: string;
  /** Call id; `call_<n>` when absent. */
  id?: string;
}

/** An HTTP error reply. */
export interface FakeErrorReply {
  /** HTTP status. */
  status: 400 | 401 | 404 | 422 | 429 | 500 | 503;
  /** `Retry-After` header value: seconds (number) or any string, e.g. an HTTP date. */
  retryAfter?: number | string;
  /** `retry-after-ms` header value. */
  retryAfterMs?: number;
  /** Response body; an OpenAI-style `{ error: { message, type, code } }` when absent. */
  body?: unknown;
  /**
   * Echo the request's bearer token in the error message, as some providers do on a 401
   * ("Incorrect API key provided: sk-…"); for redaction tests.
   */
  echoApiKey?: true;
}

/** One scripted reply of the fake model. Every field is optional; `{}` is an empty answer. */
export interface FakeReply {
  /** Assistant text. Cut at the first `stop` sequence of the request. */
  text?: string;
  /** Explicit streaming pieces of `text` (default: split into words). */
  textChunks?: string[];
  /** Native tool calls (streamed as tool_calls deltas: id+name first, then argument fragments). */
  toolCalls?: FakeToolCall[];
  /** Stream the argument fragments of several tool calls interleaved rather than one call after another. */
  interleaveToolCalls?: boolean;
  /** Characters per streamed argument fragment. Default 7. */
  argumentChunkSize?: number;
  /** Legacy function call (streamed as function_call deltas). */
  functionCall?: { name: string; arguments: string };
  /** finish_reason; derived from the content when absent. */
  finishReason?: "stop" | "length" | "tool_calls" | "function_call" | "content_filter" | null;
  /** Usage to report; a rough count when absent. */
  usage?: { prompt_tokens: number; completion_tokens: number };
  /** Send no usage at all (non-stream body and stream usage chunk). */
  omitUsage?: boolean;
  /** Model id to report; the requested model when absent. */
  model?: string;
  /** Wait before sending the response headers, in ms. */
  delayMs?: number;
  /** Never answer: hold the request open until the client gives up (a hung provider). */
  hang?: true;
  /** With streaming: send the headers and this many chunks, then hang until the client gives up. */
  hangAfterChunks?: number;
  /** Wait between stream chunks, in ms. */
  chunkDelayMs?: number;
  /** Reply with an HTTP error instead. */
  error?: FakeErrorReply;
  /** Reply with invalid JSON (a broken body, or a broken first SSE event). */
  malformedJson?: true;
  /** Reply with this raw body (`application/json`), bypassing everything else; for schema-mismatch tests. */
  rawBody?: string;
  /** With streaming: send these `data:` payloads as they are (then end), for other servers' chunk shapes. */
  rawStream?: string[];
  /** Stop the stream after this many chunk events, without a finish reason or `[DONE]`. */
  truncateStreamAfterChunks?: number;
  /** How a truncated stream ends: `destroy` kills the socket (default), `end` closes the response cleanly. */
  truncateMode?: "destroy" | "end";
}

/** The chat completion request body as the fake server received it (the fields tests look at). */
export interface FakeChatRequestBody {
  /** Requested model id. */
  model: string;
  /** Messages as sent. */
  messages: Array<Record<string, unknown>>;
  /** Stream flag. */
  stream?: boolean;
  /** Stream options. */
  stream_options?: { include_usage?: boolean };
  /** Native tools. */
  tools?: Array<{ type: string; function: { name: string; description?: string; parameters?: unknown } }>;
  /** Tool choice. */
  tool_choice?: unknown;
  /** Parallel tool calls flag. */
  parallel_tool_calls?: boolean;
  /** Legacy functions. */
  functions?: Array<{ name: string; description?: string; parameters?: unknown }>;
  /** Legacy function call choice. */
  function_call?: unknown;
  /** Stop sequences. */
  stop?: string | string[];
  /** Completion cap. */
  max_tokens?: number;
  /** Completion cap (o-series). */
  max_completion_tokens?: number;
  /** Temperature. */
  temperature?: number;
  /** Response format. */
  response_format?: unknown;
  /** Anything else the client sent. */
  [field: string]: unknown;
}

/** One request the fake server received. */
export interface FakeRecordedRequest {
  /** HTTP method. */
  method: string;
  /** Path without the query string. */
  path: string;
  /** Query parameters. */
  query: Record<string, string>;
  /** Request headers, lower-case names. */
  headers: Record<string, string>;
  /** Parsed JSON body (chat completions only). */
  body: FakeChatRequestBody;
  /** Set when the client closed the connection before the reply was complete. */
  closedByClient: boolean;
  /** `performance.now()` of the fake server's process when the body had been read: benches time a run's phases by it. */
  receivedAt: number;
  /** `performance.now()` when the reply began (after its `delayMs`); unset until then. */
  answeredAt?: number;
  /** `performance.now()` when the reply's last byte was handed to the socket; unset until then. */
  finishedAt?: number;
}

/** Computes a reply from the request (used when the queue is empty, or queued as one item). */
export type FakeResponder = (request: FakeChatRequestBody) => FakeReply | Promise<FakeReply>;

/** Options of `startFakeOpenAIServer`. */
export interface FakeServerOptions {
  /** Port; 0 (default) picks a free one. */
  port?: number;
  /** Host; default 127.0.0.1 (never all interfaces). */
  host?: string;
  /** Replies for when the queue is empty; default: echo the last user message. */
  responder?: FakeResponder;
  /** Model ids listed by GET /v1/models. */
  models?: string[];
}

/** A running fake server. */
export interface FakeOpenAIServer {
  /** Base URL including `/v1`, e.g. `http://127.0.0.1:41234/v1`. */
  url: string;
  /** Every chat completion request received, in order. */
  requests: FakeRecordedRequest[];
  /** Queues replies (or responders) for the next requests, in order. */
  script(...replies: Array<FakeReply | FakeResponder>): void;
  /** Replaces the responder used when the queue is empty (`undefined` restores the default). */
  setResponder(responder: FakeResponder | undefined): void;
  /** Queued replies not used yet. */
  readonly pendingReplies: number;
  /** Clears the queue, the recorded requests and a responder set with `setResponder`. */
  reset(): void;
  /** Stops the server and drops open connections. */
  close(): Promise<void>;
}
