"use client";

import { CheckIcon, CopyIcon } from "lucide-react";
import { useMemo, useState } from "react";
import { Button } from "@/components/ui/button";
import { CodeBlock } from "@/components/ui/code-block";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { type ApiExamples, buildApiExamples } from "@/lib/workflow/api-examples";
import { chatBinding } from "@/lib/workflow/chat-binding";
import { startConfigSchema } from "@/lib/workflow/nodes/start";
import { useEditorStore } from "../store/editor-store-context";
import { SlugField } from "./slug-field";

/** The tabs, in the order a newcomer tries them. */
const TABS: { id: keyof ApiExamples; label: string }[] = [
  { id: "curl", label: "curl" },
  { id: "openAiSdk", label: "JavaScript (OpenAI SDK)" },
  { id: "fetchSse", label: "JavaScript (fetch + SSE)" },
  { id: "python", label: "Python" },
  { id: "mcp", label: "MCP" },
];

function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <Button
      size="sm"
      aria-label={`Copy the ${label} example`}
      data-testid="api-example-copy"
      onClick={() => {
        void navigator.clipboard?.writeText(text).then(() => {
          setCopied(true);
          setTimeout(() => setCopied(false), 1500);
        });
      }}
    >
      {copied ? <CheckIcon aria-hidden /> : <CopyIcon aria-hidden />}
      {copied ? "Copied" : "Copy"}
    </Button>
  );
}

/**
 * The workflow's API panel: where it answers and ready-to-paste calls (curl, JavaScript with the
 * openai SDK and with fetch + SSE, Python, MCP) filled in with its slug and its start inputs.
 */
export function ApiExamplesPanel() {
  const slug = useEditorStore((state) => state.workflowSlug);
  const startData = useEditorStore((state) => state.nodes.find((node) => node.type === "start")?.data);
  const origin = typeof window === "undefined" ? "" : window.location.origin;
  const examples = useMemo(() => {
    if (!slug) return null;
    const parsed = startConfigSchema.safeParse(startData ?? {});
    const config = parsed.success ? parsed.data : null;
    return buildApiExamples({
      origin,
      slug,
      inputs: config?.inputs ?? [],
      chatQueryInput: chatBinding(startData)?.queryInput,
    });
  }, [slug, startData, origin]);
  if (!slug || !examples) return null;
  const endpoint = `${origin}/api/v1/workflows/${slug}/run`;
  return (
    <section
      className="flex flex-col gap-3 border-t border-border pt-3"
      data-testid="publish-endpoint"
      aria-labelledby="api-panel-title"
    >
      <h3 id="api-panel-title" className="m-0 text-sm font-semibold">
        API
      </h3>
      <SlugField />
      <p className="m-0 text-sm break-words text-muted-foreground [&_a]:text-primary [&_a]:underline-offset-2 [&_a:hover]:underline">
        The published version answers at <code data-testid="publish-endpoint-url">{endpoint}</code>, as the chat model{" "}
        <code>{slug}</code> at <code>/api/v1/chat/completions</code>, and as an MCP tool at <code>/api/v1/mcp</code>,
        with an <a href="/settings/api-keys">API key</a>. <a href="/docs/api">API reference</a>.
      </p>
      <Tabs defaultValue="curl" data-testid="api-examples">
        <TabsList aria-label="Example language" className="h-auto flex-wrap">
          {TABS.map((tab) => (
            <TabsTrigger key={tab.id} value={tab.id} data-testid={`api-example-tab-${tab.id}`}>
              {tab.label}
            </TabsTrigger>
          ))}
        </TabsList>
        {TABS.map((tab) => (
          <TabsContent key={tab.id} value={tab.id} className="flex flex-col gap-1.5">
            <CodeBlock className="max-h-72 text-2xs whitespace-pre" data-testid={`api-example-${tab.id}`}>
              {tab.id === "curl"
                ? `${examples.curl}\n\n# Streaming (Server-Sent Events):\n${examples.curlStream}`
                : examples[tab.id]}
            </CodeBlock>
            <div>
              <CopyButton text={tab.id === "curl" ? examples.curl : examples[tab.id]} label={tab.label} />
            </div>
          </TabsContent>
        ))}
      </Tabs>
    </section>
  );
}
