"use client";

import { PlusIcon, Trash2Icon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { FieldHint } from "@/components/ui/field-hint";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { fieldLabel, listItemLabel } from "@/lib/workflow/field-labels";
import type { CanvasIssue } from "../store/types";
import {
  defaultFor,
  fieldDomId,
  isFreeJson,
  isStringArray,
  isStringRecord,
  issuesAt,
  type JsonSchema,
  typeOf,
  unwrap,
} from "./schema-json";
import type { VariableOption } from "./upstream-variables";
import { CodeEditor } from "./widgets/code-editor";
import { CredentialSelect } from "./widgets/credential-select";
import { EnumSelect, LanguageSelect } from "./widgets/enum-select";
import { JsonField } from "./widgets/json-field";
import { KeyValueEditor, type KeyValuePair } from "./widgets/key-value-editor";
import { ModelPicker, type ModelReference } from "./widgets/model-picker";
import { PromptEditor } from "./widgets/prompt-editor";
import { SelectorListField } from "./widgets/selector-list-field";
import { TemplateOrSelectorField } from "./widgets/template-or-selector-field";
import { ToolPicker, ToolSelect } from "./widgets/tool-picker";
import { VariablePicker } from "./widgets/variable-picker";

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
  /** The node's whole config, for fields that depend on a sibling (the code editor's language). */
  config: Record<string, unknown>;
}

/** Keys whose strings are long templates (multi-line prompt editor). */
const MULTILINE_KEYS = /prompt|instructions|goal|template|message|question|content|query|description|body/i;

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
  // A free-form JSON field shows the issues inside it too, once it or a place inside it was touched.
  const nested = isFreeJson(resolved);
  const joined = path.join(".");
  const touched =
    context.touched.has(joined) || (nested && [...context.touched].some((key) => key.startsWith(`${joined}.`)));
  const fieldIssues = touched ? issuesAt(context.issues, path, nested) : [];
  const invalid = fieldIssues.length > 0;
  const describedBy =
    [resolved.description ? `${id}-help` : null, invalid ? `${id}-issues` : null].filter(Boolean).join(" ") ||
    undefined;
  return (
    <div
      // `group/field`: widgets drawn as a box (code editors, the one-line template field) turn red with it.
      className="group/field flex min-w-0 flex-col gap-1.5"
      data-invalid={invalid || undefined}
      data-field-path={path.join(".")}
      onBlur={(event) => {
        // Only the field's own controls: a nested field's blur marks that field, not its parents.
        if (event.target.closest("[data-field-path]") === event.currentTarget) context.onTouched(path);
      }}
    >
      <Label htmlFor={id} id={`${id}-label`} data-testid="field-label" className="gap-1">
        {label ?? fieldLabel(name)}
        {required && (
          <span className="text-muted-foreground" title="required">
            *
          </span>
        )}
      </Label>
      <FieldWidget
        name={name}
        schema={resolved}
        value={value}
        path={path}
        context={context}
        onChange={onChange}
        control={{ id, "aria-invalid": invalid || undefined, "aria-describedby": describedBy }}
      />
      {resolved.description && <FieldHint id={`${id}-help`}>{resolved.description}</FieldHint>}
      {invalid && (
        <div id={`${id}-issues`} className="flex flex-col gap-0.5 text-xs text-destructive">
          {fieldIssues.map((issue) => (
            <p key={`${issue.code}-${issue.path.join(".")}-${issue.message}`} className="m-0" data-testid="field-issue">
              {issue.message}
            </p>
          ))}
        </div>
      )}
    </div>
  );
}

/** What a field's main control carries: the id its label points at, its invalid state and its help and issues. */
export interface ControlProps {
  id: string;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
}

function FieldWidget({
  name,
  schema,
  value,
  path,
  context,
  onChange,
  control,
}: {
  name: string;
  schema: JsonSchema;
  value: unknown;
  path: (string | number)[];
  context: FieldContext;
  onChange: (value: unknown) => void;
  control: ControlProps;
}) {
  const { id } = control;
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
    return (
      <TemplateOrSelectorField
        id={id}
        testId={testId}
        value={value}
        onChange={onChange}
        variables={context.variables}
      />
    );
  }
  if (schema.enum) {
    // The code node's language also says when the server cannot run Python.
    const Select = name === "language" ? LanguageSelect : EnumSelect;
    return (
      <Select name={name} control={control} testId={testId} value={value} options={schema.enum} onChange={onChange} />
    );
  }
  if (schema.const !== undefined) return <code className="text-xs">{String(schema.const)}</code>;
  if (type === "boolean") {
    return (
      <Checkbox
        {...control}
        data-testid={testId}
        checked={Boolean(value)}
        onCheckedChange={(checked) => onChange(checked === true)}
      />
    );
  }
  if (type === "number" || type === "integer") {
    return (
      <Input
        {...control}
        type="number"
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
      return (
        <CodeEditor
          id={id}
          testId={testId}
          value={(value as string | undefined) ?? ""}
          onChange={onChange}
          language={context.config.language === "python3" ? "python3" : "javascript"}
        />
      );
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
        <SelectorListField
          value={(value as string[][] | undefined) ?? []}
          onChange={onChange}
          variables={context.variables}
        />
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
  if (isStringRecord(schema)) {
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
  return <JsonField control={control} testId={testId} value={value} onChange={onChange} />;
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
      <Button size="sm" className="w-fit" onClick={() => onChange(defaultFor(schema))}>
        Enable
      </Button>
    );
  }
  const record = value as Record<string, unknown>;
  return (
    <fieldset className="m-0 flex min-w-0 flex-col gap-3 rounded-md border border-border p-2.5">
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
    <div className="flex flex-col items-start gap-2" data-testid={testId}>
      {value.map((item, index) => {
        const itemLabel = listItemLabel(String(path[path.length - 1] ?? "items"), index);
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: list items are edited in place
          <div key={index} className="relative w-full border-l-2 border-border pl-2.5">
            <SchemaField
              name={String(index)}
              label={itemLabel}
              schema={schema}
              value={item}
              path={[...path, index]}
              context={context}
              onChange={(next) => onChange(value.map((entry, position) => (position === index ? next : entry)))}
            />
            {/* On the item's label row, right-aligned. */}
            <Button
              variant="ghost"
              size="sm"
              className="absolute -top-1 right-0 h-6 px-1.5 text-muted-foreground"
              aria-label={`Remove ${itemLabel}`}
              onClick={() => onChange(value.filter((_, position) => position !== index))}
            >
              <Trash2Icon className="size-3.5" /> Remove
            </Button>
          </div>
        );
      })}
      <Button size="sm" data-testid={`${testId}-add`} onClick={() => onChange([...value, defaultFor(schema)])}>
        <PlusIcon /> Add
      </Button>
    </div>
  );
}
