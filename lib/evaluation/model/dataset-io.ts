// Import and export of dataset cases as JSONL (one case per line) and CSV (one case per row).
// Every problem names the line and the field, so a 2,000-line file can be fixed from the message.
import type { z } from "zod";
import { type DatasetCase, datasetCaseSchema, MAX_DATASET_CASES } from "./dataset";

/** One problem of an imported file. */
export interface DatasetImportIssue {
  /** 1-based line of the file where the case starts. */
  line: number;
  /** Dotted path of the bad field inside the case (`checks.0.pattern`), or `""` for the line itself. */
  field: string;
  /** What is wrong, for people. */
  message: string;
}

/** The file's cases, or every problem found. */
export type DatasetImportResult = { ok: true; cases: DatasetCase[] } | { ok: false; issues: DatasetImportIssue[] };

/** Supported file formats. */
export type DatasetFormat = "jsonl" | "csv";

const MAX_ISSUES = 100;

/** One issue per field (the first zod reports: an empty id is "Give the case an id", not also "use letters"). */
function zodIssues(line: number, error: z.ZodError): DatasetImportIssue[] {
  const byField = new Map<string, DatasetImportIssue>();
  for (const issue of error.issues) {
    const field = issue.path.map(String).join(".");
    if (!byField.has(field)) byField.set(field, { line, field, message: issue.message });
  }
  return [...byField.values()];
}

/** Validates parsed rows as cases and checks ids are unique across the file. */
function validateRows(
  rows: { line: number; value: unknown; fieldPrefix?: Map<string, string> }[],
): DatasetImportResult {
  const issues: DatasetImportIssue[] = [];
  const cases: DatasetCase[] = [];
  const firstLineOfId = new Map<string, number>();
  if (rows.length > MAX_DATASET_CASES)
    issues.push({ line: rows[MAX_DATASET_CASES]!.line, field: "", message: `At most ${MAX_DATASET_CASES} cases` });
  for (const row of rows.slice(0, MAX_DATASET_CASES)) {
    const parsed = datasetCaseSchema.safeParse(row.value);
    if (!parsed.success) {
      issues.push(...zodIssues(row.line, parsed.error));
      continue;
    }
    const earlier = firstLineOfId.get(parsed.data.id);
    if (earlier !== undefined) {
      issues.push({ line: row.line, field: "id", message: `Case id "${parsed.data.id}" is also on line ${earlier}` });
      continue;
    }
    firstLineOfId.set(parsed.data.id, row.line);
    cases.push(parsed.data);
  }
  return issues.length ? { ok: false, issues: issues.slice(0, MAX_ISSUES) } : { ok: true, cases };
}

/** Parses JSONL: one JSON case object per non-blank line. */
export function parseJsonl(text: string): DatasetImportResult {
  const rows: { line: number; value: unknown }[] = [];
  const issues: DatasetImportIssue[] = [];
  text.split(/\r?\n/).forEach((content, index) => {
    if (!content.trim()) return;
    try {
      rows.push({ line: index + 1, value: JSON.parse(content) });
    } catch (error) {
      issues.push({ line: index + 1, field: "", message: `Not valid JSON: ${(error as Error).message}` });
    }
  });
  if (issues.length) return { ok: false, issues: issues.slice(0, MAX_ISSUES) };
  return validateRows(rows);
}

/** Writes cases as JSONL. */
export function toJsonl(cases: readonly DatasetCase[]): string {
  return cases.map((entry) => JSON.stringify(entry)).join("\n") + (cases.length ? "\n" : "");
}

/** RFC 4180 records with the 1-based line each starts on (quoted fields may span lines). */
export function parseCsvRecords(text: string): { line: number; fields: string[] }[] | { error: DatasetImportIssue } {
  const records: { line: number; fields: string[] }[] = [];
  let fields: string[] = [];
  let field = "";
  let quoted = false;
  let line = 1;
  let recordLine = 1;
  let index = 0;
  const endRecord = () => {
    fields.push(field);
    if (!(fields.length === 1 && fields[0] === "")) records.push({ line: recordLine, fields });
    fields = [];
    field = "";
  };
  while (index < text.length) {
    const character = text[index]!;
    if (quoted) {
      if (character === '"') {
        if (text[index + 1] === '"') {
          field += '"';
          index += 2;
          continue;
        }
        quoted = false;
      } else {
        if (character === "\n") line += 1;
        field += character;
      }
      index += 1;
      continue;
    }
    if (character === '"') {
      if (field !== "")
        return { error: { line, field: "", message: "A quote inside an unquoted field; quote the whole field" } };
      quoted = true;
    } else if (character === ",") {
      fields.push(field);
      field = "";
    } else if (character === "\n" || character === "\r") {
      if (character === "\r" && text[index + 1] === "\n") index += 1;
      endRecord();
      line += 1;
      recordLine = line;
    } else field += character;
    index += 1;
  }
  if (quoted) return { error: { line: recordLine, field: "", message: "A quoted field is never closed" } };
  if (field !== "" || fields.length) endRecord();
  return records;
}

/** A CSV cell of an `input.<name>` column: JSON when it parses as a number, boolean, object or array, else text. */
function cellValue(cell: string): unknown {
  const trimmed = cell.trim();
  if (/^(-?\d+(\.\d+)?([eE][+-]?\d+)?|true|false|null|\{.*\}|\[.*\])$/s.test(trimmed)) {
    try {
      return JSON.parse(trimmed);
    } catch {
      return cell;
    }
  }
  return cell;
}

/**
 * Parses CSV with a header row. Columns: `id`, `name`, `tags` (`;`-separated), `inputs` (a JSON
 * object), `checks` (a JSON array of checks), `fixture` (a JSON object, optional), and
 * `input.<name>` columns for single inputs.
 */
export function parseCsv(text: string): DatasetImportResult {
  const records = parseCsvRecords(text.replace(/^\uFEFF/, ""));
  if ("error" in records) return { ok: false, issues: [records.error] };
  const [header, ...body] = records;
  if (!header) return { ok: false, issues: [{ line: 1, field: "", message: "The file is empty; give a header row" }] };
  const columns = header.fields.map((column) => column.trim());
  const known = /^(id|name|tags|inputs|checks|fixture|input\.[A-Za-z_][A-Za-z0-9_]*)$/;
  const unknown = columns.filter((column) => !known.test(column));
  if (unknown.length)
    return {
      ok: false,
      issues: unknown.map((column) => ({
        line: header.line,
        field: column,
        message: `Unknown column "${column}"; use id, name, tags, inputs, checks, fixture or input.<name>`,
      })),
    };
  if (!columns.includes("id"))
    return { ok: false, issues: [{ line: header.line, field: "id", message: 'The header needs an "id" column' }] };
  const issues: DatasetImportIssue[] = [];
  const rows: { line: number; value: unknown }[] = [];
  for (const record of body) {
    if (record.fields.length !== columns.length) {
      issues.push({
        line: record.line,
        field: "",
        message: `${record.fields.length} fields where the header has ${columns.length}`,
      });
      continue;
    }
    const value: Record<string, unknown> = { inputs: {} };
    columns.forEach((column, index) => {
      const cell = record.fields[index]!;
      if (column === "inputs" || column === "checks" || column === "fixture") {
        if (!cell.trim()) return;
        try {
          const parsed = JSON.parse(cell);
          value[column] = column === "inputs" ? { ...(parsed as object), ...(value.inputs as object) } : parsed;
        } catch (error) {
          issues.push({ line: record.line, field: column, message: `Not valid JSON: ${(error as Error).message}` });
        }
      } else if (column === "tags") {
        value.tags = cell
          .split(";")
          .map((tag) => tag.trim())
          .filter(Boolean);
      } else if (column.startsWith("input.")) {
        if (cell !== "") (value.inputs as Record<string, unknown>)[column.slice("input.".length)] = cellValue(cell);
      } else value[column] = cell;
    });
    rows.push({ line: record.line, value });
  }
  if (issues.length) return { ok: false, issues: issues.slice(0, MAX_ISSUES) };
  return validateRows(rows);
}

function csvCell(value: string): string {
  return /[",\r\n]/.test(value) || value !== value.trim() ? `"${value.replaceAll('"', '""')}"` : value;
}

/**
 * Writes cases as CSV (`id,name,tags,inputs,checks`; inputs and checks as JSON), with a `fixture`
 * column (JSON, empty for a case without) only when some case has a fixture.
 */
export function toCsv(cases: readonly DatasetCase[]): string {
  const withFixture = cases.some((entry) => entry.fixture);
  const lines = [withFixture ? "id,name,tags,inputs,checks,fixture" : "id,name,tags,inputs,checks"];
  for (const entry of cases) {
    const cells = [
      entry.id,
      entry.name,
      entry.tags.join(";"),
      JSON.stringify(entry.inputs),
      JSON.stringify(entry.checks),
    ];
    if (withFixture) cells.push(entry.fixture ? JSON.stringify(entry.fixture) : "");
    lines.push(cells.map(csvCell).join(","));
  }
  return `${lines.join("\n")}\n`;
}

/** Parses a file in the given format. */
export function parseDatasetFile(format: DatasetFormat, text: string): DatasetImportResult {
  return format === "csv" ? parseCsv(text) : parseJsonl(text);
}

/** Serializes cases in the given format. */
export function formatDatasetFile(format: DatasetFormat, cases: readonly DatasetCase[]): string {
  return format === "csv" ? toCsv(cases) : toJsonl(cases);
}
