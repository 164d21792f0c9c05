"use client";

import { ExternalLinkIcon, SendIcon, Trash2Icon, XIcon } from "lucide-react";
import { type FormEvent, useEffect, useMemo, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { StatusBadge } from "@/components/ui/status-badge";
import { Textarea } from "@/components/ui/textarea";
import { TERMINAL_RUN_STATUSES } from "@/lib/runs/run-status";
import { type ChatTurn, chatBinding, chatBindingAnswer, chatInputs } from "@/lib/workflow/chat-binding";
import { graphToDocument } from "../store/document-conversion";
import { useEditorStore, useEditorStoreApi } from "../store/editor-store-context";

/** One message of the conversation; an assistant message is a run of the draft. */
interface PreviewMessage extends ChatTurn {
  /** Stable key. */
  key: number;
  /** The run that answered (assistant messages). */
  runId?: string;
  /** The run's status while and after it answers. */
  status?: string;
  /** Why there is no answer (a refused start or a failed run). */
  error?: string;
}

async function startError(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { error?: { message?: string; issues?: { message?: string }[] } };
    return [body.error?.message, ...(body.error?.issues ?? []).slice(0, 2).map((issue) => issue.message)]
      .filter(Boolean)
      .join(" ");
  } catch {
    return `The run could not start (${response.status}).`;
  }
}

/**
 * Dify's "debug and preview" for a workflow whose start has a text input: a conversation where
 * each message runs the current draft as an editor run (the Run dialog's `POST
 * /api/workflows/:id/runs`). The run becomes the editor's current run, so the canvas, the run
 * panel and this panel all follow the same SSE stream; the answer streams in from the run's text
 * deltas and is replaced by the run's answer output when it ends. Earlier turns are passed only
 * when the start declares a history input (see `chatBinding`); otherwise every message is
 * a fresh run.
 */
export function ChatPreviewPanel() {
  const store = useEditorStoreApi();
  const startData = useEditorStore((state) => state.nodes.find((node) => node.type === "start")?.data);
  const binding = useMemo(() => chatBinding(startData), [startData]);
  const runId = useEditorStore((state) => state.runId);
  const runStatus = useEditorStore((state) => state.runStatus);
  const runEvents = useEditorStore((state) => state.runEvents);
  const [messages, setMessages] = useState<PreviewMessage[]>([]);
  const [draft, setDraft] = useState("");
  const [sending, setSending] = useState(false);
  const nextKey = useRef(0);
  const list = useRef<HTMLOListElement>(null);

  const pending = messages.findLast((message) => message.role === "assistant" && message.runId && !message.error);
  const pendingOpen = pending !== undefined && !TERMINAL_RUN_STATUSES.includes(pending.status as never);
  const following = pendingOpen && pending.runId === runId;
  const streamed = useMemo(
    () =>
      following
        ? runEvents.map((event) => (event.type === "node-delta" && event.kind === "text" ? event.delta : "")).join("")
        : "",
    [following, runEvents],
  );

  // The current run's progress feeds the open assistant message.
  useEffect(() => {
    if (!following || !pending || !binding) return;
    const end = runEvents.findLast((event) => event.type === "run-end");
    let next: Pick<PreviewMessage, "status" | "content" | "error">;
    if (end?.type === "run-end") {
      const answer = chatBindingAnswer(binding, end.outputs);
      next = {
        status: end.status,
        content: answer ?? streamed,
        error:
          end.status === "succeeded"
            ? answer === null && streamed === ""
              ? "The run ended without a text answer: open the run to see its outputs."
              : undefined
            : (end.error?.message ?? `The run ended ${end.status}.`),
      };
    } else {
      next = { status: runStatus ?? pending.status, content: streamed, error: undefined };
    }
    // Unchanged: keep the same array, so this effect does not loop on its own update.
    if (next.status === pending.status && next.content === pending.content && next.error === pending.error) return;
    setMessages((current) =>
      current.map((message) => (message.key === pending.key ? { ...message, ...next } : message)),
    );
  }, [following, pending, binding, runEvents, runStatus, streamed]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: each new or growing message scrolls the list to its end
  useEffect(() => {
    if (list.current) list.current.scrollTop = list.current.scrollHeight;
  }, [messages]);

  const send = async (event?: FormEvent) => {
    event?.preventDefault();
    const text = draft.trim();
    if (!binding || !text || sending || pendingOpen) return;
    const earlier: ChatTurn[] = messages
      .filter((message) => !message.error && message.content !== "")
      .map(({ role, content }) => ({ role, content }));
    const userKey = nextKey.current++;
    const answerKey = nextKey.current++;
    setMessages((current) => [
      ...current,
      { key: userKey, role: "user", content: text },
      { key: answerKey, role: "assistant", content: "", status: "queued" },
    ]);
    setDraft("");
    setSending(true);
    const state = store.getState();
    try {
      const response = await fetch(`/api/workflows/${state.workflowId}/runs`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          inputs: chatInputs(binding, text, earlier),
          document: graphToDocument(state.nodes, state.edges),
        }),
      });
      const failure = response.ok ? null : await startError(response);
      const started = response.ok ? ((await response.json()) as { runId: string }).runId : undefined;
      if (started) store.getState().startRun(started);
      setMessages((current) =>
        current.map((message) =>
          message.key === answerKey
            ? { ...message, runId: started, error: failure ?? undefined, status: failure ? "failed" : "queued" }
            : message,
        ),
      );
    } catch {
      setMessages((current) =>
        current.map((message) =>
          message.key === answerKey ? { ...message, error: "Could not reach the server.", status: "failed" } : message,
        ),
      );
    } finally {
      setSending(false);
    }
  };

  return (
    <aside
      className="relative flex w-inspector shrink-0 flex-col border-l border-border bg-card"
      aria-labelledby="chat-preview-title"
      data-testid="chat-preview"
    >
      <header className="flex items-center gap-2 border-b border-border px-3 py-2">
        <h2 id="chat-preview-title" className="m-0 flex-1 text-sm font-semibold">
          Preview
        </h2>
        <Button
          variant="ghost"
          size="icon-sm"
          aria-label="Clear the conversation"
          data-testid="chat-preview-clear"
          disabled={messages.length === 0 || pendingOpen}
          onClick={() => setMessages([])}
        >
          <Trash2Icon />
        </Button>
        <Button
          variant="ghost"
          size="icon-sm"
          aria-label="Close the preview"
          data-testid="chat-preview-close"
          onClick={() => store.getState().setChatPreviewOpen(false)}
        >
          <XIcon />
        </Button>
      </header>
      {binding === null ? (
        <p className="m-3 text-sm text-muted-foreground" data-testid="chat-preview-unavailable">
          The preview needs a text input on the Start node (for example <code>query</code>) to send messages to.
        </p>
      ) : (
        <>
          <p
            className="m-0 border-b border-border px-3 py-1.5 text-xs text-muted-foreground"
            data-testid="chat-preview-mode"
          >
            Each message runs the draft with <code>{binding.queryInput}</code>
            {binding.historyInput ? (
              <>
                {" "}
                and the conversation so far in <code>{binding.historyInput}</code>.
              </>
            ) : (
              ": a fresh run, without the earlier messages (add a history input to pass them)."
            )}
          </p>
          <ol
            ref={list}
            className="m-0 flex min-h-0 flex-1 list-none flex-col gap-2 overflow-auto p-3"
            aria-live="polite"
            data-testid="chat-preview-messages"
          >
            {messages.length === 0 && (
              <li className="text-sm text-muted-foreground">Send a message to run the draft.</li>
            )}
            {messages.map((message) => (
              <li
                key={message.key}
                data-testid="chat-message"
                data-role={message.role}
                data-status={message.status}
                className={
                  message.role === "user"
                    ? "ml-8 self-end rounded-lg bg-primary px-3 py-2 text-sm whitespace-pre-wrap text-primary-foreground"
                    : "mr-4 flex flex-col gap-1 self-start rounded-lg border border-border bg-muted/40 px-3 py-2 text-sm"
                }
              >
                {message.role === "assistant" ? (
                  <>
                    <span className="sr-only">Answer:</span>
                    {message.content && (
                      <span className="whitespace-pre-wrap" data-testid="chat-answer">
                        {message.content}
                      </span>
                    )}
                    {!message.content && !message.error && <span className="text-muted-foreground">Running…</span>}
                    {message.error && (
                      <span className="text-xs text-destructive" data-testid="chat-error">
                        {message.error}
                      </span>
                    )}
                    <span className="flex items-center gap-2 text-xs">
                      <StatusBadge status={message.status} testId="chat-run-status" />
                      {message.runId && (
                        <a
                          href={`/runs/${message.runId}`}
                          target="_blank"
                          rel="noreferrer"
                          className="inline-flex items-center gap-1 text-primary hover:underline"
                          data-testid="chat-run-link"
                        >
                          Open run <ExternalLinkIcon className="size-3" aria-hidden="true" />
                        </a>
                      )}
                    </span>
                  </>
                ) : (
                  <>
                    <span className="sr-only">You:</span>
                    {message.content}
                  </>
                )}
              </li>
            ))}
          </ol>
          <form className="flex items-end gap-2 border-t border-border p-2" onSubmit={(event) => void send(event)}>
            <label htmlFor="chat-preview-input" className="sr-only">
              Message
            </label>
            <Textarea
              id="chat-preview-input"
              data-testid="chat-preview-input"
              className="min-h-10 flex-1 resize-none"
              rows={2}
              placeholder="Message (Enter sends, Shift+Enter for a new line)"
              value={draft}
              onChange={(event) => setDraft(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === "Enter" && !event.shiftKey) {
                  event.preventDefault();
                  void send();
                }
              }}
            />
            <Button
              type="submit"
              variant="primary"
              size="icon"
              aria-label="Send"
              data-testid="chat-preview-send"
              disabled={!draft.trim() || sending || pendingOpen}
            >
              <SendIcon />
            </Button>
          </form>
        </>
      )}
    </aside>
  );
}
