"use client";

import { useEffect, useState } from "react";
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
  const names = new Set([...(tools ?? []).map((tool) => tool.name), ...value]);
  const visible = [...names].filter((name) => name.toLowerCase().includes(query.toLowerCase()));
  return (
    <div className="tool-picker" data-testid="tool-picker">
      <input
        className="input"
        placeholder="Filter tools…"
        value={query}
        onChange={(event) => setQuery(event.target.value)}
      />
      <div className="tool-picker-list">
        {visible.map((name) => {
          const tool = tools?.find((candidate) => candidate.name === name);
          return (
            <label key={name} className="tool-option" title={tool?.description}>
              <input
                type="checkbox"
                checked={value.includes(name)}
                onChange={(event) =>
                  onChange(event.target.checked ? [...value, name] : value.filter((entry) => entry !== name))
                }
              />
              <code>{name}</code>
              {tool && <span className="muted">{tool.source.label}</span>}
              {tools !== null && tools.length > 0 && !tool && (
                <span className="field-error" data-testid="tool-missing">
                  not in this workspace: untick it or add its source in Settings → Tools
                </span>
              )}
              {tool?.readOnly && <span className="badge">read-only</span>}
            </label>
          );
        })}
        {visible.length === 0 && <span className="muted">No tools.</span>}
      </div>
    </div>
  );
}

/** Chooses one tool by name; any text (e.g. `{{item.tool}}`) is allowed too. */
export function ToolSelect({ id, value, onChange }: { id?: string; value: string; onChange: (value: string) => void }) {
  const tools = useTools();
  const listId = `${id ?? "tool"}-options`;
  return (
    <>
      <input
        id={id}
        className="input"
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
          <div className="field-error" data-testid="tool-missing">
            No tool “{value}” in this workspace; pick one from the list.
          </div>
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
