import "server-only";
import { z } from "zod";
import { defineTool, type ToolDefinition } from "../define-tool";
import { ToolExecutionError } from "../errors/tool-execution-error";

function isValidTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
    return true;
  } catch {
    return false;
  }
}

function offsetFor(date: Date, timeZone: string): string {
  const part = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" })
    .formatToParts(date)
    .find((entry) => entry.type === "timeZoneName")?.value;
  // "GMT+03:00" -> "+03:00"; "GMT" alone means UTC.
  return part === undefined || part === "GMT" ? "+00:00" : part.replace("GMT", "");
}

/** `current_time({ timezone? })`: the current date and time in an IANA time zone. Read-only. */
export function createCurrentTimeTool(options: { now?: () => Date } = {}): ToolDefinition {
  const now = options.now ?? (() => new Date());
  return defineTool({
    name: "current_time",
    description: "Get the current date and time in an IANA time zone such as Europe/Athens (UTC by default)",
    parameters: z.object({ timezone: z.string().default("UTC").describe("IANA time zone, e.g. Europe/Athens") }),
    readOnly: true,
    timeoutMs: 1_000,
    execute: ({ timezone }) => {
      if (!isValidTimeZone(timezone)) {
        throw new ToolExecutionError(
          "invalid_timezone",
          `"${timezone}" is not a valid IANA time zone; use a name like "Europe/Athens" or "UTC"`,
        );
      }
      const date = now();
      const parts = Object.fromEntries(
        new Intl.DateTimeFormat("en-CA", {
          timeZone: timezone,
          year: "numeric",
          month: "2-digit",
          day: "2-digit",
          hour: "2-digit",
          minute: "2-digit",
          second: "2-digit",
          hourCycle: "h23",
          weekday: "long",
        })
          .formatToParts(date)
          .map((part) => [part.type, part.value]),
      );
      const offset = offsetFor(date, timezone);
      return {
        timezone,
        iso: `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${offset}`,
        date: `${parts.year}-${parts.month}-${parts.day}`,
        time: `${parts.hour}:${parts.minute}:${parts.second}`,
        weekday: parts.weekday,
        utc_offset: offset,
        unix_ms: date.getTime(),
      };
    },
  });
}
