"use client";

import { useEffect, useId, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Checkbox } from "@/components/ui/checkbox";
import { Input } from "@/components/ui/input";
import { SearchInput } from "@/components/ui/search-input";
import { fetchCatalog, type ToolOption } from "./catalog-fetch";

function useTools(): ToolOption[] | null {
  const [tools, setTools] = useState<ToolOption[] | null>(null);
  useEffect(() => {
    void fetchCatalog<ToolOption>("/api/tools").then(setTools);
  }, []);
  return tools;
}

/** Chooses the allowlist of tools (several) with their source and read-only flag. */
export function ToolPicker({ value, onChange }: { value: string[]; onChange: (value: string[]) => void }) {
  const tools = useTools();
  const [query, setQuery] = useState("");
  const baseId = useId();
  const names = new Set([...(tools ?? []).map((tool) => tool.name), ...value]);
  const visible = [...names].filter((name) => name.toLowerCase().includes(query.toLowerCase()));
  return (
    <div className="flex flex-col gap-1" data-testid="tool-picker">
      <SearchInput
        aria-label="Filter tools"
        placeholder="Filter tools…"
        value={query}
        onChange={(event) => setQuery(event.target.value)}
      />
      <ul className="m-0 flex max-h-44 list-none flex-col overflow-auto rounded-md border border-border p-1">
        {visible.map((name) => {
          const tool = tools?.find((candidate) => candidate.name === name);
          const checkboxId = `${baseId}-${name}`;
          return (
            <li
              key={name}
              className="flex flex-wrap items-center gap-x-1.5 gap-y-0.5 rounded-sm px-1 py-0.5 text-xs hover:bg-muted/60"
              title={tool?.description}
              data-testid="tool-option"
              data-name={name}
            >
              <Checkbox
                id={checkboxId}
                checked={value.includes(name)}
                onCheckedChange={(checked) =>
                  onChange(checked === true ? [...value, name] : value.filter((entry) => entry !== name))
                }
              />
              <label htmlFor={checkboxId} className="min-w-0 cursor-pointer truncate font-mono">
                {name}
              </label>
              {tool && <span className="text-muted-foreground">{tool.source.label}</span>}
              {tool?.readOnly && <Badge>read-only</Badge>}
              {tools !== null && tools.length > 0 && !tool && (
                <span className="basis-full text-destructive" data-testid="tool-missing">
                  not in this workspace: untick it or add its source in Settings → Tools
                </span>
              )}
            </li>
          );
        })}
        {visible.length === 0 && <li className="px-1 py-0.5 text-xs text-muted-foreground">No tools.</li>}
      </ul>
    </div>
  );
}

/** Chooses one tool by name; any text (e.g. `{{item.tool}}`) is allowed too. */
export function ToolSelect({ id, value, onChange }: { id?: string; value: string; onChange: (value: string) => void }) {
  const tools = useTools();
  const listId = `${id ?? "tool"}-options`;
  return (
    <>
      <Input
        id={id}
        list={listId}
        value={value}
        placeholder="tool name or {{item.tool}}"
        data-testid="tool-select"
        onChange={(event) => onChange(event.target.value)}
      />
      {/* Templates pick the tool at run time; any other name must be a tool of this workspace. */}
      {tools !== null &&
        tools.length > 0 &&
        value.trim() !== "" &&
        !value.includes("{{") &&
        !tools.some((tool) => tool.name === value) && (
          <p className="m-0 text-xs text-destructive" data-testid="tool-missing">
            No tool “{value}” in this workspace; pick one from the list.
          </p>
        )}
      <datalist id={listId}>
        {(tools ?? []).map((tool) => (
          <option key={tool.name} value={tool.name}>
            {tool.description}
          </option>
        ))}
      </datalist>
    </>
  );
}
