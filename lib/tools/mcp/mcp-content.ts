import "server-only";
import { ToolExecutionError } from "../errors/tool-execution-error";

/** The parts of an MCP `tools/call` result we read. */
export interface McpCallResult {
  content?: unknown;
  structuredContent?: unknown;
  isError?: boolean;
}

interface ContentPart {
  type?: unknown;
  text?: unknown;
  mimeType?: unknown;
  data?: unknown;
  uri?: unknown;
  resource?: unknown;
  name?: unknown;
}

function describePart(part: ContentPart): unknown {
  switch (part.type) {
    case "text":
      return typeof part.text === "string" ? part.text : "";
    case "image":
    case "audio": {
      // Base64 media would flood the model's context; say what it was instead.
      const size = typeof part.data === "string" ? Math.floor((part.data.length * 3) / 4) : 0;
      return {
        type: part.type,
        mimeType: part.mimeType,
        bytes: size,
        note: `${String(part.type)} omitted from text output`,
      };
    }
    case "resource_link":
      return { type: "resource_link", uri: part.uri, name: part.name };
    case "resource": {
      const resource = (part.resource ?? {}) as ContentPart;
      return typeof resource.text === "string"
        ? { type: "resource", uri: resource.uri, text: resource.text }
        : { type: "resource", uri: resource.uri };
    }
    default:
      return part;
  }
}

/**
 * Turns a `tools/call` result into tool content: structured content when the server gives it,
 * otherwise the text parts joined (or a list when there is non-text content).
 * @throws ToolExecutionError `mcp_tool_error` when the server flagged the result as an error.
 */
export function mcpResultToContent(answer: object): unknown {
  // Servers on the 2024-10-07 protocol answer { toolResult } instead of { content }.
  if ("toolResult" in answer && !("content" in answer)) return answer.toolResult;
  const result = answer as McpCallResult;
  const parts = Array.isArray(result.content) ? (result.content as ContentPart[]).map(describePart) : [];
  if (result.isError) {
    const text =
      parts.filter((part): part is string => typeof part === "string").join("\n") || "the tool reported an error";
    throw new ToolExecutionError("mcp_tool_error", text, { retryable: false });
  }
  if (result.structuredContent !== undefined && result.structuredContent !== null) return result.structuredContent;
  if (parts.every((part) => typeof part === "string")) return parts.join("\n");
  return parts;
}
