import { z } from "zod";
import type { NodeMapper } from "../context";
import { declaredTypeOfDify } from "../value-types";
import { readData, trellisNode } from "./shared";

/** ScheduleConfig of Dify's schedule trigger (nodes/trigger_schedule/entities.py). */
const scheduleDataSchema = z.looseObject({
  mode: z.string().nullish(),
  frequency: z.string().nullish(),
  cron_expression: z.string().nullish(),
  timezone: z.string().nullish(),
  config: z.looseObject({ timezone: z.string().nullish() }).nullish(),
  visual_config: z
    .looseObject({
      time: z.string().nullish(),
      weekdays: z.array(z.string()).nullish(),
      on_minute: z.number().nullish(),
      monthly_days: z.array(z.union([z.number(), z.string()])).nullish(),
    })
    .nullish(),
});

const WEEKDAYS: Record<string, number> = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };

/** "12:00 AM" / "3:30 pm" / "14:05" → [hour, minute], or null. */
function parseTime(text: string | null | undefined): [number, number] | null {
  const match = /^\s*(\d{1,2}):(\d{2})\s*(am|pm)?\s*$/i.exec(text ?? "");
  if (!match) return null;
  let hour = Number(match[1]);
  const minute = Number(match[2]);
  const half = match[3]?.toLowerCase();
  if (half === "am" && hour === 12) hour = 0;
  if (half === "pm" && hour < 12) hour += 12;
  return hour < 24 && minute < 60 ? [hour, minute] : null;
}

/** The cron expression of a Dify schedule (its own, or built from the visual settings), or null. */
export function scheduleCron(data: z.output<typeof scheduleDataSchema>): string | null {
  if (data.mode === "cron") return data.cron_expression?.trim() || null;
  const visual = data.visual_config ?? {};
  if (data.frequency === "hourly") return `${visual.on_minute ?? 0} * * * *`;
  const time = parseTime(visual.time);
  if (!time) return null;
  const [hour, minute] = time;
  if (data.frequency === "daily") return `${minute} ${hour} * * *`;
  if (data.frequency === "weekly") {
    const days = (visual.weekdays ?? []).map((day) => WEEKDAYS[day.toLowerCase()]);
    if (days.length === 0 || days.some((day) => day === undefined)) return null;
    return `${minute} ${hour} * * ${days.join(",")}`;
  }
  if (data.frequency === "monthly") {
    const days = visual.monthly_days ?? [];
    // "last" (the month's last day) has no 5-field cron form.
    if (days.length === 0 || days.some((day) => typeof day !== "number")) return null;
    return `${minute} ${hour} ${days.join(",")} * *`;
  }
  return null;
}

/**
 * trigger-schedule (Dify 1.10+): the flow's entry point. It becomes the start node, and the
 * schedule is named in the report as the cron expression and time zone to add with Schedule here.
 */
export const scheduleTriggerMapper: NodeMapper = {
  map: (node, context) => {
    const data = readData(scheduleDataSchema, node, context);
    const cron = scheduleCron(data);
    const timezone = data.config?.timezone ?? data.timezone ?? "UTC";
    context.change(
      cron
        ? `Dify's schedule trigger became the start node: add the schedule with Schedule after saving (cron "${cron}", time zone ${timezone})`
        : "Dify's schedule trigger became the start node: add its schedule with Schedule after saving (its settings have no cron form)",
    );
    return { nodes: [trellisNode(node, "start", { inputs: [] })] };
  },
};

const webhookFieldSchema = z.looseObject({
  name: z.string().min(1),
  type: z.string().nullish(),
  required: z.boolean().nullish(),
});

/** WebhookData of Dify's webhook trigger (nodes/trigger_webhook/entities.py). */
const webhookDataSchema = z.looseObject({
  method: z.string().nullish(),
  params: z.array(webhookFieldSchema).nullish(),
  body: z.array(webhookFieldSchema).nullish(),
  headers: z.array(webhookFieldSchema).nullish(),
});

/**
 * trigger-webhook (Dify 1.10+): the start node, with the webhook's query parameters and body
 * fields as inputs of the same names and types. Publishing the workflow gives its endpoint
 * (`POST /api/v1/workflows/<slug>/run` with those inputs), which takes the webhook's place.
 */
export const webhookTriggerMapper: NodeMapper = {
  map: (node, context) => {
    const data = readData(webhookDataSchema, node, context);
    const seen = new Set<string>();
    const inputs = [...(data.params ?? []), ...(data.body ?? [])].flatMap((field) => {
      if (seen.has(field.name)) return [];
      seen.add(field.name);
      const type = field.type ?? "string";
      return [
        {
          name: field.name,
          type: declaredTypeOfDify(type),
          required: field.required ?? false,
        },
      ];
    });
    context.change(
      "Dify's webhook trigger became the start node: publish the workflow and call its endpoint with the webhook's parameters and body fields as inputs",
    );
    if ((data.headers ?? []).length > 0) {
      context.change(
        `The webhook's headers (${(data.headers ?? []).map((header) => header.name).join(", ")}) are not inputs here; send their values as inputs if the flow needs them`,
      );
    }
    return { nodes: [trellisNode(node, "start", { inputs })] };
  },
};
