"use client";

import { fieldLabel, listItemLabel } from "@/lib/workflow/field-labels";
import type { CanvasIssue } from "../store/types";
import type { VariableOption } from "./upstream-variables";
import { CodeEditor } from "./widgets/code-editor";
import { CredentialSelect } from "./widgets/credential-select";
import { KeyValueEditor, type KeyValuePair } from "./widgets/key-value-editor";
import { ModelPicker, type ModelReference } from "./widgets/model-picker";
import { PromptEditor } from "./widgets/prompt-editor";
import { ToolPicker, ToolSelect } from "./widgets/tool-picker";
import { VariablePicker } from "./widgets/variable-picker";

/** The subset of JSON Schema that `z.toJSONSchema` emits for node configs. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  additionalProperties?: boolean | JsonSchema;
  default?: unknown;
  description?: string;
  minimum?: number;
  maximum?: number;
}

/** What every field needs besides its own value. */
export interface FieldContext {
  /** Node being edited. */
  nodeId: string;
  /** Upstream variables for pickers and autocomplete. */
  variables: VariableOption[];
  /** Outputs of the container's body (iteration output selector). */
  bodyVariables: VariableOption[];
  /** The node's compile issues. */
  issues: CanvasIssue[];
  /**
   * Field paths (joined with ".") the user has left at least once: a field shows its issues only
   * then, so a fresh node is not covered in errors before anything was typed (the Problems panel
   * lists them all).
   */
  touched: ReadonlySet<string>;
  /** Marks a field as touched (on blur). */
  onTouched: (path: (string | number)[]) => void;
}

/** Keys whose strings are long templates (multi-line prompt editor). */
const MULTILINE_KEYS = /prompt|instructions|goal|template|message|question|content|query|description|body/i;

function typeOf(schema: JsonSchema): string | undefined {
  return Array.isArray(schema.type) ? schema.type.find((type) => type !== "null") : schema.type;
}

function isStringArray(schema: JsonSchema | undefined): boolean {
  return schema !== undefined && typeOf(schema) === "array" && typeOf(schema.items ?? {}) === "string";
}

/** Picks the interesting branch of a nullable union. */
function unwrap(schema: JsonSchema): JsonSchema {
  const variants = schema.anyOf ?? schema.oneOf;
  if (!variants) return schema;
  const concrete = variants.filter((variant) => typeOf(variant) !== "null");
  return concrete.length === 1
    ? { ...concrete[0], description: schema.description ?? concrete[0].description }
    : schema;
}

/** A fresh value for a schema (used by "add item" and "enable" toggles). */
export function defaultFor(schema: JsonSchema): unknown {
  const resolved = unwrap(schema);
  if (resolved.default !== undefined) return structuredClone(resolved.default);
  if (resolved.enum && resolved.enum.length > 0) return resolved.enum[0];
  if (resolved.const !== undefined) return resolved.const;
  switch (typeOf(resolved)) {
    case "string":
      return "";
    case "number":
    case "integer":
      return resolved.minimum ?? 0;
    case "boolean":
      return false;
    case "array":
      return [];
    case "object": {
      const result: Record<string, unknown> = {};
      for (const [key, property] of Object.entries(resolved.properties ?? {})) {
        if (resolved.required?.includes(key) || property.default !== undefined) result[key] = defaultFor(property);
      }
      return result;
    }
    default:
      return resolved.anyOf ? defaultFor(resolved.anyOf[0]) : "";
  }
}

/** A DOM id for a field path, used by "click a problem → focus the field". */
export function fieldDomId(nodeId: string, path: (string | number)[]): string {
  return `field-${nodeId}-${path.join("-")}`.replace(/[^a-zA-Z0-9_-]/g, "_");
}

function issuesAt(issues: CanvasIssue[], path: (string | number)[]): CanvasIssue[] {
  const joined = path.join(".");
  return issues.filter((issue) => {
    const issuePath = (issue.path[0] === "data" ? issue.path.slice(1) : issue.path).join(".");
    return issuePath === joined;
  });
}

/** One labelled field: picks the widget from the key and the schema. */
export function SchemaField({
  name,
  schema,
  value,
  path,
  context,
  onChange,
  required,
  label,
}: {
  name: string;
  schema: JsonSchema;
  value: unknown;
  path: (string | number)[];
  context: FieldContext;
  onChange: (value: unknown) => void;
  required?: boolean;
  /** Shown instead of the key's label (list items: "Input 2"). */
  label?: string;
}) {
  const resolved = unwrap(schema);
  const id = fieldDomId(context.nodeId, path);
  const fieldIssues = context.touched.has(path.join(".")) ? issuesAt(context.issues, path) : [];
  return (
    <div
      className={fieldIssues.length > 0 ? "field field-invalid" : "field"}
      data-field-path={path.join(".")}
      onBlur={(event) => {
        // Only the field's own controls: a nested field's blur marks that field, not its parents.
        if (event.target.closest("[data-field-path]") === event.currentTarget) context.onTouched(path);
      }}
    >
      <label className="field-label" htmlFor={id} id={`${id}-label`}>
        {label ?? fieldLabel(name)}
        {required && <span className="muted"> *</span>}
      </label>
      <FieldWidget
        name={name}
        schema={resolved}
        value={value}
        path={path}
        context={context}
        onChange={onChange}
        id={id}
      />
      {resolved.description && <div className="field-help">{resolved.description}</div>}
      {fieldIssues.map((issue) => (
        <div key={`${issue.code}-${issue.message}`} className="field-error" data-testid="field-issue">
          {issue.message}
        </div>
      ))}
    </div>
  );
}

function FieldWidget({
  name,
  schema,
  value,
  path,
  context,
  onChange,
  id,
}: {
  name: string;
  schema: JsonSchema;
  value: unknown;
  path: (string | number)[];
  context: FieldContext;
  onChange: (value: unknown) => void;
  id: string;
}) {
  const testId = `field-${path.join(".")}`;
  const type = typeOf(schema);
  const properties = schema.properties;

  if (name === "model" || name.endsWith("Model")) {
    if (properties?.provider && properties?.model) {
      return <ModelPicker id={id} value={value as ModelReference | undefined} onChange={onChange} />;
    }
  }
  if (name === "tools" && isStringArray(schema)) {
    return <ToolPicker value={(value as string[] | undefined) ?? []} onChange={onChange} />;
  }
  if (name === "credential" && type === "string") {
    return <CredentialSelect id={id} value={(value as string | undefined) ?? ""} onChange={onChange} />;
  }
  if (name === "tool" && type === "string") {
    return <ToolSelect id={id} value={(value as string | undefined) ?? ""} onChange={onChange} />;
  }
  if (name === "outputSelector" && isStringArray(schema)) {
    return (
      <VariablePicker
        id={id}
        testId={testId}
        value={(value as string[] | undefined) ?? []}
        onChange={onChange}
        variables={context.bodyVariables}
      />
    );
  }
  if (isStringArray(schema) && /selector|^input$|^items$|^source$/i.test(name)) {
    return (
      <VariablePicker
        id={id}
        testId={testId}
        value={(value as string[] | undefined) ?? []}
        onChange={onChange}
        variables={context.variables}
      />
    );
  }
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants?.some((variant) => typeOf(variant) === "string") && variants.some(isStringArray)) {
    return <TemplateOrSelectorField id={id} testId={testId} value={value} onChange={onChange} context={context} />;
  }
  if (schema.enum) {
    return (
      <select
        id={id}
        className="input"
        data-testid={testId}
        value={String(value ?? "")}
        onChange={(event) => onChange(schema.enum!.find((option) => String(option) === event.target.value))}
      >
        {schema.enum.map((option) => (
          <option key={String(option)} value={String(option)}>
            {String(option)}
          </option>
        ))}
      </select>
    );
  }
  if (schema.const !== undefined) return <code>{String(schema.const)}</code>;
  if (type === "boolean") {
    return (
      <input
        id={id}
        type="checkbox"
        data-testid={testId}
        checked={Boolean(value)}
        onChange={(event) => onChange(event.target.checked)}
      />
    );
  }
  if (type === "number" || type === "integer") {
    return (
      <input
        id={id}
        type="number"
        className="input"
        data-testid={testId}
        value={typeof value === "number" ? value : ""}
        min={schema.minimum}
        max={schema.maximum}
        step={type === "integer" ? 1 : "any"}
        onChange={(event) => onChange(event.target.value === "" ? undefined : Number(event.target.value))}
      />
    );
  }
  if (type === "string") {
    if (name === "code") {
      return <CodeEditor id={id} testId={testId} value={(value as string | undefined) ?? ""} onChange={onChange} />;
    }
    return (
      <PromptEditor
        id={id}
        testId={testId}
        labelId={`${id}-label`}
        value={(value as string | undefined) ?? ""}
        onChange={onChange}
        variables={context.variables}
        multiline={MULTILINE_KEYS.test(name)}
      />
    );
  }
  if (type === "array" && schema.items) {
    const items = schema.items;
    const keyValue = typeOf(items) === "object" && items.properties?.key && items.properties?.value;
    if (keyValue) {
      return (
        <KeyValueEditor
          testId={testId}
          pairs={(value as KeyValuePair[] | undefined) ?? []}
          onChange={onChange}
          variables={context.variables}
        />
      );
    }
    if (isStringArray(items)) {
      return (
        <SelectorListField value={(value as string[][] | undefined) ?? []} onChange={onChange} context={context} />
      );
    }
    return (
      <ObjectListField
        schema={items}
        value={(value as unknown[] | undefined) ?? []}
        path={path}
        context={context}
        onChange={onChange}
        testId={testId}
      />
    );
  }
  if (type === "object" && properties) {
    return <ObjectField schema={schema} value={value} path={path} context={context} onChange={onChange} />;
  }
  if (
    type === "object" &&
    typeof schema.additionalProperties === "object" &&
    typeOf(schema.additionalProperties) === "string"
  ) {
    const record = (value as Record<string, string> | undefined) ?? {};
    return (
      <KeyValueEditor
        testId={testId}
        pairs={Object.entries(record).map(([key, entry]) => ({ key, value: entry }))}
        onChange={(pairs) => onChange(Object.fromEntries(pairs.map((pair) => [pair.key, pair.value])))}
        variables={context.variables}
      />
    );
  }
  return <JsonField id={id} testId={testId} value={value} onChange={onChange} />;
}

/** A nested object; optional objects get an "enable" toggle. */
function ObjectField({
  schema,
  value,
  path,
  context,
  onChange,
}: {
  schema: JsonSchema;
  value: unknown;
  path: (string | number)[];
  context: FieldContext;
  onChange: (value: unknown) => void;
}) {
  if (value === undefined || value === null) {
    return (
      <button type="button" className="button-small" onClick={() => onChange(defaultFor(schema))}>
        Enable
      </button>
    );
  }
  const record = value as Record<string, unknown>;
  return (
    <fieldset className="nested">
      {Object.entries(schema.properties ?? {}).map(([key, property]) => (
        <SchemaField
          key={key}
          name={key}
          schema={property}
          value={record[key]}
          path={[...path, key]}
          context={context}
          required={schema.required?.includes(key)}
          onChange={(next) => onChange({ ...record, [key]: next })}
        />
      ))}
    </fieldset>
  );
}

/** A list of objects (start inputs, end outputs, condition cases…), each edited with nested fields. */
function ObjectListField({
  schema,
  value,
  path,
  context,
  onChange,
  testId,
}: {
  schema: JsonSchema;
  value: unknown[];
  path: (string | number)[];
  context: FieldContext;
  onChange: (value: unknown) => void;
  testId: string;
}) {
  return (
    <div className="object-list" data-testid={testId}>
      {value.map((item, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: list items are edited in place
        <div key={index} className="object-list-item">
          <SchemaField
            name={String(index)}
            label={listItemLabel(String(path[path.length - 1] ?? "items"), index)}
            schema={schema}
            value={item}
            path={[...path, index]}
            context={context}
            onChange={(next) => onChange(value.map((entry, position) => (position === index ? next : entry)))}
          />
          <button
            type="button"
            className="button-ghost"
            aria-label="Remove item"
            onClick={() => onChange(value.filter((_, position) => position !== index))}
          >
            Remove
          </button>
        </div>
      ))}
      <button
        type="button"
        className="button-small"
        data-testid={`${testId}-add`}
        onClick={() => onChange([...value, defaultFor(schema)])}
      >
        + Add
      </button>
    </div>
  );
}

/** Several selectors (e.g. synthesizer inputs). */
function SelectorListField({
  value,
  onChange,
  context,
}: {
  value: string[][];
  onChange: (value: unknown) => void;
  context: FieldContext;
}) {
  return (
    <div className="object-list">
      {value.map((selector, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: list items are edited in place
        <div key={index} className="row">
          <VariablePicker
            value={selector}
            variables={context.variables}
            onChange={(next) => onChange(value.map((entry, position) => (position === index ? next : entry)))}
          />
          <button
            type="button"
            className="button-ghost"
            aria-label="Remove"
            onClick={() => onChange(value.filter((_, position) => position !== index))}
          >
            ×
          </button>
        </div>
      ))}
      <button type="button" className="button-small" onClick={() => onChange([...value, []])}>
        + Add variable
      </button>
    </div>
  );
}

/** A value that is either a template or a selector. */
function TemplateOrSelectorField({
  id,
  testId,
  value,
  onChange,
  context,
}: {
  id: string;
  testId: string;
  value: unknown;
  onChange: (value: unknown) => void;
  context: FieldContext;
}) {
  const isSelector = Array.isArray(value);
  return (
    <div className="template-or-selector">
      {isSelector ? (
        <VariablePicker
          id={id}
          testId={testId}
          value={value as string[]}
          onChange={onChange}
          variables={context.variables}
        />
      ) : (
        <PromptEditor
          id={id}
          testId={testId}
          value={typeof value === "string" ? value : ""}
          onChange={onChange}
          variables={context.variables}
          multiline={false}
        />
      )}
      <button type="button" className="button-ghost" onClick={() => onChange(isSelector ? "" : [])}>
        {isSelector ? "Use text" : "Pick variable"}
      </button>
    </div>
  );
}

/** Fallback: edit as JSON, applied when it parses. */
function JsonField({
  id,
  testId,
  value,
  onChange,
}: {
  id: string;
  testId: string;
  value: unknown;
  onChange: (value: unknown) => void;
}) {
  return (
    <textarea
      id={id}
      className="input code-input"
      rows={4}
      data-testid={testId}
      defaultValue={value === undefined ? "" : JSON.stringify(value, null, 2)}
      onBlur={(event) => {
        const text = event.target.value.trim();
        if (text === "") {
          onChange(undefined);
          return;
        }
        try {
          onChange(JSON.parse(text));
        } catch {
          event.target.setCustomValidity("Invalid JSON");
          event.target.reportValidity();
        }
      }}
      onInput={(event) => event.currentTarget.setCustomValidity("")}
    />
  );
}
